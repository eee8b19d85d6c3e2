// TMA tensor maps: the 128-byte descriptor (CUtensorMap) that `cp.async.bulk.tensor` reads to
// copy a box of a tensor in global memory into shared memory, encoded by the driver
// (cuTensorMapEncodeTiled) and passed to a kernel by value as a `.param .align 64 .b8 [128]`
// (the CUDA `__grid_constant__` rule: the kernel reads it from parameter space, never a copy).
//
// Dims here are outermost first, as the tile IR writes shapes ([rows, cols] for a row-major
// matrix); the driver's order (innermost first) is this module's business. A map is a plain value:
// no handle, nothing to free.
#pragma once

#include "linlayout/runtime/Driver.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace linlayout::runtime {

/// The encoded descriptor: 128 opaque bytes, 64-byte aligned.
struct alignas(64) TensorMap {
  std::array<uint64_t, 16> words{};
  friend bool operator==(const TensorMap &, const TensorMap &) = default;
};
static_assert(sizeof(TensorMap) == 128 && alignof(TensorMap) == 64);

/// Element types a tiled map may copy (the driver's CUtensorMapDataType values).
enum class TensorMapElement : int {
  U8 = 0,
  U16 = 1,
  U32 = 2,
  I32 = 3,
  U64 = 4,
  I64 = 5,
  F16 = 6,
  F32 = 7,
  F64 = 8,
  BF16 = 9,
};

/// Bytes of one element.
int elementBytes(TensorMapElement e);

/// The element type a tensor map holds for the IR's element type `name` ("i8", "i16", "i32",
/// "i64", "f16", "bf16", "f32", "f64", and the 8-bit floats "f8E4M3FN" and "f8E5M2" as bytes, as
/// lower/'s KernelParam::element), or nullopt.
std::optional<TensorMapElement> tensorMapElementOf(std::string_view name);

/// A tiled tensor map over a strided tensor in global memory.
struct TiledTensorMapSpec {
  TensorMapElement element = TensorMapElement::F16;
  CUdeviceptr address = 0;
  /// Tensor dims, outermost first (1 to 5 of them); the last one is contiguous.
  std::vector<uint64_t> dims;
  /// Byte strides of every dim but the last, outermost first.
  std::vector<uint64_t> strideBytes;
  /// The box one copy moves, outermost first (each 1..256).
  std::vector<uint32_t> box;
  /// Shared-memory swizzle: 0 (none), 32, 64 or 128 bytes (the NVMMA layout's swizzle width).
  int swizzleBytes = 128;
};

/// Checks a spec against the driver's rules (address 16-byte aligned; 1 to 5 dims, each in
/// 1..2^32; strides multiples of 16 below 2^40; box entries in 1..256 and not above the dim; the
/// box's contiguous extent a multiple of 16 bytes and, when swizzled, at most the swizzle width).
/// Ensures: an error names the first offending value.
Status checkTiledTensorMap(const TiledTensorMapSpec &spec);

/// Encodes a tiled tensor map (no L2 promotion, out-of-bounds elements read as zero).
/// Requires: checkTiledTensorMap(spec) is ok (its error otherwise); a driver with
/// cuTensorMapEncodeTiled (CUDA 12); a current context.
Expected<TensorMap> encodeTiledTensorMap(const TiledTensorMapSpec &spec);

} // namespace linlayout::runtime
