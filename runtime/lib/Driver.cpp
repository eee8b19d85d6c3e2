#include "linlayout/runtime/Driver.h"

#include <dlfcn.h>
#include <mutex>

namespace linlayout::runtime {
namespace {

// Resolves one entry point; versioned names (_v2) are what cuda.h's macros map the plain names to.
template <typename Fn> bool resolve(void *lib, Fn &fn, const char *name, std::string &missing) {
  fn = reinterpret_cast<Fn>(dlsym(lib, name));
  if (!fn)
    missing += missing.empty() ? name : std::string(", ") + name;
  return fn != nullptr;
}

Expected<const DriverApi *> load() {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    return makeError(std::string("no CUDA driver: cannot load libcuda.so.1 (") +
                     (why ? why : "unknown reason") + ")");
  }
  static DriverApi api;
  std::string missing;
  resolve(lib, api.cuInit, "cuInit", missing);
  resolve(lib, api.cuDriverGetVersion, "cuDriverGetVersion", missing);
  resolve(lib, api.cuDeviceGetCount, "cuDeviceGetCount", missing);
  resolve(lib, api.cuDeviceGet, "cuDeviceGet", missing);
  resolve(lib, api.cuDeviceGetName, "cuDeviceGetName", missing);
  resolve(lib, api.cuDeviceGetAttribute, "cuDeviceGetAttribute", missing);
  resolve(lib, api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", missing);
  resolve(lib, api.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", missing);
  resolve(lib, api.cuCtxSetCurrent, "cuCtxSetCurrent", missing);
  resolve(lib, api.cuCtxSynchronize, "cuCtxSynchronize", missing);
  resolve(lib, api.cuModuleLoadDataEx, "cuModuleLoadDataEx", missing);
  resolve(lib, api.cuModuleUnload, "cuModuleUnload", missing);
  resolve(lib, api.cuModuleGetFunction, "cuModuleGetFunction", missing);
  resolve(lib, api.cuFuncGetAttribute, "cuFuncGetAttribute", missing);
  resolve(lib, api.cuFuncSetAttribute, "cuFuncSetAttribute", missing);
  resolve(lib, api.cuOccupancyMaxActiveBlocksPerMultiprocessor,
          "cuOccupancyMaxActiveBlocksPerMultiprocessor", missing);
  resolve(lib, api.cuLaunchKernel, "cuLaunchKernel", missing);
  resolve(lib, api.cuMemAlloc, "cuMemAlloc_v2", missing);
  resolve(lib, api.cuMemFree, "cuMemFree_v2", missing);
  resolve(lib, api.cuMemcpyHtoD, "cuMemcpyHtoD_v2", missing);
  resolve(lib, api.cuMemcpyDtoH, "cuMemcpyDtoH_v2", missing);
  resolve(lib, api.cuMemcpyDtoD, "cuMemcpyDtoD_v2", missing);
  resolve(lib, api.cuMemsetD8, "cuMemsetD8_v2", missing);
  resolve(lib, api.cuMemsetD8Async, "cuMemsetD8Async", missing);
  resolve(lib, api.cuStreamCreate, "cuStreamCreate", missing);
  resolve(lib, api.cuStreamDestroy, "cuStreamDestroy_v2", missing);
  resolve(lib, api.cuStreamSynchronize, "cuStreamSynchronize", missing);
  resolve(lib, api.cuEventCreate, "cuEventCreate", missing);
  resolve(lib, api.cuEventDestroy, "cuEventDestroy_v2", missing);
  resolve(lib, api.cuEventRecord, "cuEventRecord", missing);
  resolve(lib, api.cuEventSynchronize, "cuEventSynchronize", missing);
  resolve(lib, api.cuEventElapsedTime, "cuEventElapsedTime", missing);
  resolve(lib, api.cuGetErrorName, "cuGetErrorName", missing);
  resolve(lib, api.cuGetErrorString, "cuGetErrorString", missing);
  if (!missing.empty())
    return makeError("the CUDA driver lacks entry points: " + missing);
  std::string optional;
  resolve(lib, api.cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled", optional);
  resolve(lib, api.cuLaunchKernelEx, "cuLaunchKernelEx", optional);
  resolve(lib, api.cuOccupancyMaxActiveClusters, "cuOccupancyMaxActiveClusters", optional);
  // Set before cuInit so that check() can name cuInit's error.
  static const DriverApi *loaded = &api;
  if (CUresult r = api.cuInit(0); r != 0) {
    const char *name = nullptr;
    api.cuGetErrorName(r, &name);
    return makeError(std::string("cuInit failed: ") + (name ? name : "error " + std::to_string(r)));
  }
  return loaded;
}

} // namespace

Expected<const DriverApi *> driver() {
  static const Expected<const DriverApi *> once = load();
  return once;
}

bool gpuAvailable(std::string *why) {
  auto d = driver();
  if (!d.ok()) {
    if (why)
      *why = d.message();
    return false;
  }
  int count = 0;
  Status s = check((*d)->cuDeviceGetCount(&count), "cuDeviceGetCount");
  if (!s.ok() || count == 0) {
    if (why)
      *why = s.ok() ? "the CUDA driver sees no device" : s.message();
    return false;
  }
  return true;
}

Status check(CUresult result, const std::string &call) {
  if (result == 0)
    return Status::success();
  std::string text = call + " failed: ";
  auto d = driver();
  const char *name = nullptr, *desc = nullptr;
  if (d.ok()) {
    (*d)->cuGetErrorName(result, &name);
    (*d)->cuGetErrorString(result, &desc);
  }
  text += name ? name : "CUDA error " + std::to_string(result);
  if (desc)
    text += std::string(" (") + desc + ")";
  return makeError(text);
}

} // namespace linlayout::runtime
