// The vector width of a shared-memory access by a distributed tensor: how many consecutive
// registers one ld.shared / st.shared moves.
#pragma once

#include "linlayout/layout/LinearLayout.h"

namespace linlayout::lower {

/// The widest vector (a power of two, at most 16 bytes) for the map (register, lane, warp,
/// block) -> offset (elements) `toOffset`: register bases 0 .. k-1 step the offset by 1, 2, 4,
/// ..., and every other basis (later registers, lanes, warps, blocks) is a multiple of the
/// vector along the offset, so that every thread's vector starts aligned (with a buffer aligned
/// to 16 bytes) and, bases combining by xor, its registers sit at ascending offsets.
/// Requires: toOffset has out dim "offset"; bytes in {1, 2, 4, 8, 16}.
/// Ensures: for every hardware index h with register bits below log2(result) clear and every
/// i < result, offset(h | i) == offset(h) + i and offset(h) % result == 0.
int sharedVectorWidth(const LinearLayout &toOffset, int bytes);

} // namespace linlayout::lower
