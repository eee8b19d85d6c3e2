// One kernel argument with its run-time type, so a launch can be checked against the kernel's
// parameters before the driver sees it. The typed `Kernel::launch` builds these from C++ values:
// a DeviceBuffer or a DeviceAddress is a global pointer; int8..int64 / uint8..uint64 are integers
// of their width; float and double are floats; a runtime::TensorMap is a tensor map (a
// `!tt.tensordesc` parameter), passed by value.
#pragma once

#include "linlayout/lower/KernelPtx.h"
#include "linlayout/runtime/DeviceBuffer.h"
#include "linlayout/runtime/TensorMap.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace linlayout::jit {

/// A device address that is not the start of a DeviceBuffer (e.g. `buffer.ptr() + offset`).
struct DeviceAddress {
  runtime::CUdeviceptr value = 0;
};

/// A kernel argument: its kind, width and bits (stored little-endian in `raw`; a tensor map's
/// 128 bytes in `map`).
struct KernelArg {
  lower::ParamKind kind = lower::ParamKind::Int;
  int bits = 32;
  uint64_t raw = 0;
  runtime::TensorMap map{};

  /// The argument for a C++ value.
  /// Ensures: for an integer or float x, the low sizeof(x) bytes of `raw` are x's bytes; for a
  /// buffer or address, raw is the device address and bits == 64.
  template <typename T> static KernelArg of(const T &v) {
    KernelArg a;
    if constexpr (std::is_same_v<T, runtime::DeviceBuffer>) {
      a.kind = lower::ParamKind::GlobalPointer;
      a.bits = 64;
      a.raw = v.ptr();
    } else if constexpr (std::is_same_v<T, DeviceAddress>) {
      a.kind = lower::ParamKind::GlobalPointer;
      a.bits = 64;
      a.raw = v.value;
    } else if constexpr (std::is_same_v<T, runtime::TensorMap>) {
      a.kind = lower::ParamKind::TensorMap;
      a.bits = 1024;
      a.map = v;
    } else if constexpr (std::is_floating_point_v<T>) {
      static_assert(sizeof(T) == 4 || sizeof(T) == 8, "float arguments are float or double");
      a.kind = lower::ParamKind::Float;
      a.bits = int(sizeof(T) * 8);
      std::memcpy(&a.raw, &v, sizeof(T));
    } else {
      static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>,
                    "kernel arguments are DeviceBuffer, DeviceAddress, TensorMap, integers or "
                    "floats");
      a.kind = lower::ParamKind::Int;
      a.bits = int(sizeof(T) * 8);
      std::memcpy(&a.raw, &v, sizeof(T));
    }
    return a;
  }
};

/// "a 32-bit integer", "a global pointer", ... (for messages).
std::string describe(lower::ParamKind kind, int bits);

/// Encodes the tensor map for tensor-map parameter `param` of a compiled kernel (its box,
/// swizzle and element type come from the kernel) over a row-major-like tensor at `address`
/// with `dims` and byte strides `strideBytes` of every dim but the last (outermost first).
/// Requires: param.kind == TensorMap (an error otherwise); what encodeTiledTensorMap requires.
Expected<runtime::TensorMap> encodeTensorMapFor(const lower::KernelParam &param,
                                                runtime::CUdeviceptr address,
                                                std::vector<uint64_t> dims,
                                                std::vector<uint64_t> strideBytes);

/// The argument for parameter `param` over the tensor in `buffer` (`dims`, byte strides
/// `strideBytes`, as encodeTensorMapFor takes them): a tensor map encoded for it where the
/// parameter is one, the buffer's address otherwise. For kernels whose forms take the same
/// tensor either way (a pointer where threads load it, a tensor map where TMA copies it).
Expected<KernelArg> tensorArgFor(const lower::KernelParam &param,
                                 const runtime::DeviceBuffer &buffer, std::vector<uint64_t> dims,
                                 std::vector<uint64_t> strideBytes);

} // namespace linlayout::jit
