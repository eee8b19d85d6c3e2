// The blocked layout that spreads a CTA's threads over a tile: each thread holds
// `sizePerThread`, and lanes, then warps, are handed out along the dimensions from the fastest
// (order[0]) on, each dimension taking as many threads as it has room for (the tile's extent
// over the elements a thread holds), the slowest dimension taking what is left. This is the rule
// Triton's coalescing and its default layouts use.
#pragma once

#include "linlayout/layout/Blocked.h"
#include "linlayout/layout/Expected.h"

#include <cstdint>
#include <optional>
#include <span>

namespace linlayout::ir {

/// The blocked layout for a tile of `shape` (the whole tensor; each CTA of `cga` holds its
/// share), with `sizePerThread` elements per thread and dimension order `order`.
/// Requires: equal ranks; powers of two; order a permutation; numWarps, threadsPerWarp powers of
/// two.
/// Ensures: the product of threadsPerWarp is threadsPerWarp and of warpsPerCTA is numWarps; for
/// every dimension but order.back(), lanes * warps * sizePerThread <= max(extent, sizePerThread)
/// where extent is the CTA's share of the shape.
/// Example: shape [64, 64], sizePerThread [1, 4], order [1, 0], 4 warps of 32 ->
///          threadsPerWarp [2, 16], warpsPerCTA [4, 1].
Expected<BlockedSpec> tileBlocked(std::span<const int64_t> shape,
                                  std::span<const int64_t> sizePerThread,
                                  std::span<const int64_t> order, int64_t numWarps,
                                  int64_t threadsPerWarp,
                                  std::optional<CgaLayout> cga = std::nullopt);

} // namespace linlayout::ir
