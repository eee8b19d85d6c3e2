// The CUDA driver API, loaded at run time with dlopen("libcuda.so.1"), so that everything builds
// and every non-GPU test runs on machines without a GPU or a driver. Every driver error becomes an
// `Error` naming the call and the driver's error name (e.g. "cuModuleLoadDataEx failed:
// CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed): <log>"); nothing aborts.
#pragma once

#include "linlayout/support/Expected.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace linlayout::runtime {

/// Opaque driver handles, ABI-compatible with cuda.h (pointers and ints), declared here so that
/// building needs no CUDA headers.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
struct CUmod_st;
struct CUfunc_st;
struct CUstream_st;
struct CUevent_st;
using CUcontext = CUctx_st *;
using CUmodule = CUmod_st *;
using CUfunction = CUfunc_st *;
using CUstream = CUstream_st *;
using CUevent = CUevent_st *;

/// The driver entry points linlayout uses, resolved once per process.
struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int *);
  CUresult (*cuDeviceGetCount)(int *);
  CUresult (*cuDeviceGet)(CUdevice *, int);
  CUresult (*cuDeviceGetName)(char *, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
  CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void **, void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
  CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
  CUresult (*cuMemsetD8)(CUdeviceptr, unsigned char, size_t);
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
  CUresult (*cuStreamCreate)(CUstream *, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  CUresult (*cuEventCreate)(CUevent *, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuEventSynchronize)(CUevent);
  CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
  CUresult (*cuGetErrorName)(CUresult, const char **);
  CUresult (*cuGetErrorString)(CUresult, const char **);
  /// CUDA 12 drivers only; null where the driver has none (Launch.h reports that): a launch
  /// with attributes (`config` a CUlaunchConfig, Launch.cpp declares its layout).
  CUresult (*cuLaunchKernelEx)(const void *config, CUfunction, void **, void **);
  /// CUDA 12 drivers only; null where the driver has none: clusters of a launch that fit on the
  /// GPU at once.
  CUresult (*cuOccupancyMaxActiveClusters)(int *, CUfunction, const void *config);
  /// CUDA 12 drivers only; null where the driver has none (TensorMap.h reports that).
  CUresult (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *, const uint64_t *,
                                     const uint64_t *, const unsigned *, const unsigned *, int, int,
                                     int, int);
};

/// The loaded driver, or an error saying why there is none (no libcuda.so.1, a missing entry
/// point, or cuInit failing, e.g. with no device). Loaded once; later calls return the same.
/// Ensures: on success every entry point of DriverApi but cuTensorMapEncodeTiled,
/// cuLaunchKernelEx and cuOccupancyMaxActiveClusters is non-null and
/// cuInit(0) succeeded.
Expected<const DriverApi *> driver();

/// Whether a CUDA GPU can be used here; `why` (when given) says why not.
bool gpuAvailable(std::string *why = nullptr);

/// Converts a driver result into a Status: the call's name, the driver's error name and string.
Status check(CUresult result, const std::string &call);

} // namespace linlayout::runtime
