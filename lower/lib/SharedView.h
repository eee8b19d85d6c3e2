// Views of shared tiles (ttg.memdesc_subslice): a view of shape s at origin o of a tile in the
// shared layout L ((offset[, block]) -> the tile's dims) holds, at its coordinate x, the tile's
// element o + x. The verifier allows only origins that are multiples of s (dim by dim), so that
// o + x = o XOR x and the element sits at offset L^-1(x) XOR L^-1(o): a view is its tile's
// layout with the view's coordinates widened to the tile's dims, and one constant XORed into
// every offset. This file computes that constant and the widened maps the shared-memory
// lowerings (local_load, local_store, async copies) address with.
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <span>

namespace linlayout::lower {

/// The element offset L^-1(origin) of the tile's element at `origin` (one coordinate per out dim
/// of `shared`, which maps (offset[, block]) to the tile's dims).
/// Requires: the offset part of `shared` is a bijection onto the tile; origin within the tile.
/// Ensures: shared(result) == origin (block 0).
Expected<uint64_t> viewOrigin(const LinearLayout &shared, std::span<const int64_t> origin);

/// `dist` (its out dims the view's) with each out dim widened to the size `shared` gives it
/// (the same bases: coordinate x of the view is coordinate x of the tile).
/// Requires: dist and shared have the same out dim names; dist's sizes are no larger.
/// Ensures: result.apply(i) == dist.apply(i) for every input, as numbers.
Expected<LinearLayout> widenToTile(const LinearLayout &dist, const LinearLayout &shared);

/// The widest vector, at most `vec` (a power of two), whose contiguous run of offsets stays
/// contiguous and aligned after XOR with `viewXor`.
/// Ensures: (viewXor & (result - 1)) == 0.
int vectorUnderXor(int vec, uint64_t viewXor);

} // namespace linlayout::lower
