// The register/lane tile of an NVIDIA tensor-core instruction (private to hardware/), shared by
// the mma accumulator and its dot operands (Triton's nvidiaMmaTile).
#pragma once

#include "BasisTable.h"

#include <cstdint>
#include <span>

namespace linlayout::spec {

/// A table over tileShape.size() dims, dims ordered as repOrder, holding one instruction tile:
/// along inner = order[0]: kWidth registers, then 4 lanes; along outer = order[1]: 8 lanes, then
/// m / 8 registers; then n / (4 * kWidth) registers along inner (m = tileShape[outer],
/// n = tileShape[inner]).
/// Requires: m % 8 == 0, n % (4 * kWidth) == 0, all quotients powers of two (asserts).
BasisTable mmaTile(std::span<const int64_t> tileShape, int64_t kWidth,
                   std::span<const int64_t> order, std::span<const int64_t> repOrder);

} // namespace linlayout::spec
