#include "linlayout/runtime/TensorMap.h"

#include <string>

namespace linlayout::runtime {

std::optional<TensorMapElement> tensorMapElementOf(std::string_view name) {
  static constexpr std::pair<std::string_view, TensorMapElement> kElements[] = {
      {"i8", TensorMapElement::U8},
      {"i16", TensorMapElement::U16},
      {"i32", TensorMapElement::I32},
      {"i64", TensorMapElement::I64},
      {"f16", TensorMapElement::F16},
      {"bf16", TensorMapElement::BF16},
      {"f32", TensorMapElement::F32},
      {"f64", TensorMapElement::F64},
      // The copy engine moves 8-bit floats as the bytes they are.
      {"f8E4M3FN", TensorMapElement::U8},
      {"f8E5M2", TensorMapElement::U8}};
  for (const auto &[n, e] : kElements)
    if (n == name)
      return e;
  return std::nullopt;
}

int elementBytes(TensorMapElement e) {
  switch (e) {
  case TensorMapElement::U8:
    return 1;
  case TensorMapElement::U16:
  case TensorMapElement::F16:
  case TensorMapElement::BF16:
    return 2;
  case TensorMapElement::U32:
  case TensorMapElement::I32:
  case TensorMapElement::F32:
    return 4;
  case TensorMapElement::U64:
  case TensorMapElement::I64:
  case TensorMapElement::F64:
    return 8;
  }
  return 1;
}

Status checkTiledTensorMap(const TiledTensorMapSpec &s) {
  size_t rank = s.dims.size();
  if (rank < 1 || rank > 5)
    return makeError("a tensor map has 1 to 5 dims, got " + std::to_string(rank));
  if (s.strideBytes.size() != rank - 1)
    return makeError("a tensor map of " + std::to_string(rank) + " dims needs " +
                     std::to_string(rank - 1) + " strides, got " +
                     std::to_string(s.strideBytes.size()));
  if (s.box.size() != rank)
    return makeError("a tensor map of " + std::to_string(rank) + " dims needs " +
                     std::to_string(rank) + " box entries, got " + std::to_string(s.box.size()));
  if (s.address % 16)
    return makeError("tensor map address " + std::to_string(s.address) +
                     " is not a multiple of 16");
  if (s.swizzleBytes != 0 && s.swizzleBytes != 32 && s.swizzleBytes != 64 && s.swizzleBytes != 128)
    return makeError("tensor map swizzle is " + std::to_string(s.swizzleBytes) +
                     " bytes, expected 0, 32, 64 or 128");
  for (size_t i = 0; i < rank; ++i) {
    if (s.dims[i] < 1 || s.dims[i] > (uint64_t(1) << 32))
      return makeError("tensor map dim " + std::to_string(i) + " is " + std::to_string(s.dims[i]) +
                       ", expected 1..2^32");
    // A box may be larger than the tensor: what lies outside reads as zero.
    if (s.box[i] < 1 || s.box[i] > 256)
      return makeError("tensor map box dim " + std::to_string(i) + " is " +
                       std::to_string(s.box[i]) + ", expected 1..256");
  }
  for (size_t i = 0; i + 1 < rank; ++i)
    if (s.strideBytes[i] % 16 || s.strideBytes[i] >= (uint64_t(1) << 40))
      return makeError("tensor map stride " + std::to_string(i) + " is " +
                       std::to_string(s.strideBytes[i]) +
                       " bytes, expected a multiple of 16 below 2^40");
  uint64_t inner = uint64_t(s.box[rank - 1]) * uint64_t(elementBytes(s.element));
  if (inner % 16)
    return makeError("the box's contiguous extent is " + std::to_string(inner) +
                     " bytes, expected a multiple of 16");
  if (s.swizzleBytes && inner > uint64_t(s.swizzleBytes))
    return makeError("the box's contiguous extent is " + std::to_string(inner) +
                     " bytes, more than the " + std::to_string(s.swizzleBytes) + "-byte swizzle");
  return Status::success();
}

Expected<TensorMap> encodeTiledTensorMap(const TiledTensorMapSpec &s) {
  LL_TRY_STATUS(checkTiledTensorMap(s));
  LL_ASSIGN_OR_RETURN(const DriverApi *api, driver());
  if (!api->cuTensorMapEncodeTiled)
    return makeError("the CUDA driver has no cuTensorMapEncodeTiled (TMA needs a CUDA 12 driver)");
  // The driver lists dims innermost first.
  size_t rank = s.dims.size();
  uint64_t dims[5], strides[4];
  unsigned box[5], elementStrides[5];
  for (size_t i = 0; i < rank; ++i) {
    dims[i] = s.dims[rank - 1 - i];
    box[i] = s.box[rank - 1 - i];
    elementStrides[i] = 1;
  }
  for (size_t i = 0; i + 1 < rank; ++i)
    strides[i] = s.strideBytes[rank - 2 - i];
  int swizzle = s.swizzleBytes == 128 ? 3 : s.swizzleBytes == 64 ? 2 : s.swizzleBytes == 32 ? 1 : 0;
  TensorMap map;
  LL_TRY_STATUS(check(api->cuTensorMapEncodeTiled(
                          &map, int(s.element), unsigned(rank),
                          reinterpret_cast<void *>(uintptr_t(s.address)), dims, strides, box,
                          elementStrides, /*interleave none*/ 0, swizzle, /*no L2 promotion*/ 0,
                          /*zero fill*/ 0),
                      "cuTensorMapEncodeTiled"));
  return map;
}

} // namespace linlayout::runtime
