#include "linlayout/jit/Kernel.h"

#include <algorithm>

namespace linlayout::jit {

namespace {

constexpr unsigned kMaxGridX = 0x7fffffffu;
constexpr unsigned kMaxGridYZ = 65535u;

std::string paramName(const lower::KernelParam &p, size_t i) {
  return "argument " + std::to_string(i) + (p.name.empty() ? "" : " ('" + p.name + "')");
}

} // namespace

std::string describe(lower::ParamKind kind, int bits) {
  switch (kind) {
  case lower::ParamKind::GlobalPointer:
    return "a global pointer";
  case lower::ParamKind::Int:
    return "a " + std::to_string(bits) + "-bit integer";
  case lower::ParamKind::Float:
    return "a " + std::to_string(bits) + "-bit float";
  case lower::ParamKind::TensorMap:
    return "a tensor map";
  }
  return "an unknown kind";
}

Expected<runtime::TensorMap> encodeTensorMapFor(const lower::KernelParam &param,
                                                runtime::CUdeviceptr address,
                                                std::vector<uint64_t> dims,
                                                std::vector<uint64_t> strideBytes) {
  if (param.kind != lower::ParamKind::TensorMap)
    return makeError("parameter '" + param.name + "' is " + describe(param.kind, param.bits) +
                     ", not a tensor map");
  runtime::TiledTensorMapSpec spec;
  std::optional<runtime::TensorMapElement> element = runtime::tensorMapElementOf(param.element);
  if (!element)
    return makeError("parameter '" + param.name + "' has element type '" + param.element +
                     "', which a tensor map cannot hold");
  spec.element = *element;
  spec.address = address;
  spec.dims = std::move(dims);
  spec.strideBytes = std::move(strideBytes);
  spec.box = param.box;
  spec.swizzleBytes = param.swizzleBytes;
  return runtime::encodeTiledTensorMap(spec);
}

Expected<KernelArg> tensorArgFor(const lower::KernelParam &param,
                                 const runtime::DeviceBuffer &buffer, std::vector<uint64_t> dims,
                                 std::vector<uint64_t> strideBytes) {
  if (param.kind != lower::ParamKind::TensorMap)
    return KernelArg::of(buffer);
  LL_ASSIGN_OR_RETURN(
      runtime::TensorMap map,
      encodeTensorMapFor(param, buffer.ptr(), std::move(dims), std::move(strideBytes)));
  return KernelArg::of(map);
}

Status Kernel::checkArgs(std::span<const KernelArg> args) const {
  const auto &params = meta_.params;
  if (args.size() != params.size())
    return makeError("kernel '" + meta_.name + "' takes " + std::to_string(params.size()) +
                     " arguments, got " + std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    const lower::KernelParam &p = params[i];
    const KernelArg &a = args[i];
    if (a.kind != p.kind || a.bits != p.bits)
      return makeError(paramName(p, i) + " of '" + meta_.name + "' is " + describe(p.kind, p.bits) +
                       ", got " + describe(a.kind, a.bits));
    if (p.kind == lower::ParamKind::GlobalPointer && p.alignment > 1 &&
        a.raw % uint64_t(p.alignment) != 0)
      return makeError(paramName(p, i) + " of '" + meta_.name + "' must be " +
                       std::to_string(p.alignment) + "-byte aligned, got address " +
                       std::to_string(a.raw));
  }
  return Status::success();
}

Status Kernel::launchArgs(runtime::Dim3 grid, std::span<const KernelArg> args,
                          const runtime::Stream &stream) const {
  const uint64_t ctas = uint64_t(std::max(1, meta_.ctasPerCluster));
  if (grid.x < 1 || grid.x * ctas > kMaxGridX || grid.y < 1 || grid.y > kMaxGridYZ || grid.z < 1 ||
      grid.z > kMaxGridYZ)
    return makeError("grid (" + std::to_string(grid.x) + ", " + std::to_string(grid.y) + ", " +
                     std::to_string(grid.z) + ") is out of range: x in 1.." +
                     std::to_string(kMaxGridX / ctas) + ", y and z in 1.." +
                     std::to_string(kMaxGridYZ));
  const auto &cd = meta_.clusterDims;
  if (grid.x % unsigned(cd[0]) || grid.y % unsigned(cd[1]) || grid.z % unsigned(cd[2]))
    return makeError("grid (" + std::to_string(grid.x) + ", " + std::to_string(grid.y) + ", " +
                     std::to_string(grid.z) + ") of '" + meta_.name +
                     "' is not a multiple of its cluster (" + std::to_string(cd[0]) + ", " +
                     std::to_string(cd[1]) + ", " + std::to_string(cd[2]) + ")");
  LL_TRY_STATUS(checkArgs(args));
  LL_TRY_STATUS(context_->makeCurrent());
  // The driver reads each parameter from its address, little-endian, as wide as the parameter.
  std::vector<uint64_t> values(args.size());
  std::vector<void *> params(args.size() + 1, nullptr);
  for (size_t i = 0; i < args.size(); ++i) {
    values[i] = args[i].raw;
    // A tensor map: the driver copies its 128 bytes from the argument.
    params[i] = args[i].kind == lower::ParamKind::TensorMap
                    ? const_cast<void *>(static_cast<const void *>(&args[i].map))
                    : &values[i];
  }
  runtime::LaunchConfig config;
  config.grid = {unsigned(grid.x * ctas), grid.y, grid.z};
  config.block = {unsigned(meta_.threadsPerBlock), 1, 1};
  config.dynamicSharedBytes = unsigned(meta_.dynamicSharedBytes);
  config.cluster = {unsigned(cd[0]), unsigned(cd[1]), unsigned(cd[2])};
  return runtime::launchRaw(function_, config, stream, params.data());
}

} // namespace linlayout::jit
