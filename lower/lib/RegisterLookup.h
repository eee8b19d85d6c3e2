// Ops that only reshape or re-index a tensor (broadcast, expand_dims, reshape, trans, and register
// permutations) move no data between threads: each result register is some operand register of
// the same thread. This finds which.
#pragma once

#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace linlayout::lower {

/// For each register of `wanted` ((register, lane, warp, block) -> the dims of `have`), a
/// register of `have` that holds the same element in every thread; nullopt when some element is
/// not in the same thread (a conversion is needed).
/// Ensures: for every register r and thread t, have(result[r], t) == wanted(r, t).
std::optional<std::vector<int>> lookupRegisters(const LinearLayout &have,
                                                const LinearLayout &wanted);

/// A map between the dims of two tensors that moves bits: bit `i` of in dim `d` goes to
/// `target(d, i)` = {out dim, bit}, or nowhere ({-1, -1}).
/// Requires: sizes are powers of two; the targets are distinct.
LinearLayout coordinateMap(const std::vector<int64_t> &inShape,
                           const std::vector<int64_t> &outShape,
                           const std::function<std::pair<int, int>(int, int)> &target);

} // namespace linlayout::lower
