#include "linlayout/runtime/Launch.h"

#include <cstring>

namespace linlayout::runtime {

namespace {

// cuda.h's CUlaunchAttribute and CUlaunchConfig (CUDA 12), declared here so that building needs
// no CUDA headers: an attribute is its id padded to 8 bytes, then a 64-byte value union.
constexpr int kLaunchAttributeClusterDimension = 4;
struct LaunchAttribute {
  int id;
  char pad[4];
  union {
    char bytes[64];
    struct {
      unsigned x, y, z;
    } clusterDim;
  } value;
};
static_assert(sizeof(LaunchAttribute) == 72, "CUlaunchAttribute is 72 bytes");
struct LaunchConfigEx {
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  LaunchAttribute *attrs;
  unsigned numAttrs;
};

std::string dims(const Dim3 &d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}

} // namespace

Status launchRaw(const Function &fn, const LaunchConfig &c, const Stream &stream, void **params) {
  LL_ASSIGN_OR_RETURN(const DriverApi *api, driver());
  if (!fn.handle())
    return makeError("launch of an empty Function");
  if (c.block.x * c.block.y * c.block.z == 0 || c.grid.x * c.grid.y * c.grid.z == 0)
    return makeError("launch of '" + fn.name() + "' with an empty grid or block");
  const Dim3 &k = c.cluster;
  if (k.x == 1 && k.y == 1 && k.z == 1)
    return check(api->cuLaunchKernel(fn.handle(), c.grid.x, c.grid.y, c.grid.z, c.block.x,
                                     c.block.y, c.block.z, c.dynamicSharedBytes, stream.handle(),
                                     params, nullptr),
                 "cuLaunchKernel(" + fn.name() + ")");
  if (k.x == 0 || k.y == 0 || k.z == 0 || c.grid.x % k.x || c.grid.y % k.y || c.grid.z % k.z)
    return makeError("launch of '" + fn.name() + "': grid " + dims(c.grid) +
                     " is not a multiple of the cluster " + dims(k));
  if (!api->cuLaunchKernelEx)
    return makeError("launch of '" + fn.name() + "' in clusters of " + dims(k) +
                     ": the CUDA driver lacks cuLaunchKernelEx (clusters need a CUDA 12 driver)");
  LaunchAttribute attr;
  std::memset(&attr, 0, sizeof attr);
  attr.id = kLaunchAttributeClusterDimension;
  attr.value.clusterDim = {k.x, k.y, k.z};
  LaunchConfigEx config{
      c.grid.x,        c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z, c.dynamicSharedBytes,
      stream.handle(), &attr,    1};
  return check(api->cuLaunchKernelEx(&config, fn.handle(), params, nullptr),
               "cuLaunchKernelEx(" + fn.name() + ")");
}

Expected<int> maxActiveClusters(const Function &fn, const LaunchConfig &c) {
  LL_ASSIGN_OR_RETURN(const DriverApi *api, driver());
  const Dim3 &k = c.cluster;
  if (k.x * k.y * k.z <= 1)
    return makeError("maxActiveClusters of '" + fn.name() + "' without a cluster");
  if (!api->cuOccupancyMaxActiveClusters)
    return makeError("the CUDA driver lacks cuOccupancyMaxActiveClusters (clusters need a CUDA "
                     "12 driver)");
  LaunchAttribute attr;
  std::memset(&attr, 0, sizeof attr);
  attr.id = kLaunchAttributeClusterDimension;
  attr.value.clusterDim = {k.x, k.y, k.z};
  // The grid only has to be a multiple of the cluster.
  LaunchConfigEx config{k.x,     k.y,   k.z, c.block.x, c.block.y, c.block.z, c.dynamicSharedBytes,
                        nullptr, &attr, 1};
  int clusters = 0;
  LL_TRY_STATUS(check(api->cuOccupancyMaxActiveClusters(&clusters, fn.handle(), &config),
                      "cuOccupancyMaxActiveClusters(" + fn.name() + ")"));
  return clusters;
}

} // namespace linlayout::runtime
