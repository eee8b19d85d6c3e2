// What computing a shared-memory exchange's addresses costs each thread, beyond the thread's own
// offset (lane, warp and block bits through the scratch basis), which every scratch computes once
// per side. The count follows what lower/'s conversion emitter issues, so that the planner can
// compare a swizzled scratch with a padded one (PaddedScratch.h) honestly:
//
//  - swizzled: an access whose constant offset meets the bits the threads set is addressed by
//    thread ^ constant: an XOR and the add of the scratch's base address per distinct meeting
//    part, each a register of its own (LLVM folds the scale into the thread's shifted offset);
//    other constants are immediates of the ld/st;
//  - padded (offset + sum over pairs of (offset >> log2 interval) << log2 padding): the thread's
//    offset is padded once per side (a shift right and an add per pair: the shift left folds
//    into the masks of the offset's bits), and a
//    constant that never meets the thread's bits is padded into an immediate (padding adds over
//    offsets with disjoint bits); a meeting constant pads the whole offset again: the XOR, an OR
//    of its other bits where it has some, the pairs' two instructions, the scale and the base.
//
// Where a conversion sits in a loop, LLVM hoists these out of it, and what remains is the
// registers that hold the addresses (one per distinct address); the count ranks those alike.
//
// docs/conversions.md ("Padding instead") has the figures measured on the emitted PTX.
#pragma once

#include "linlayout/layout/PaddedShared.h"
#include "linlayout/layout/SharedAccessPattern.h"

#include <cstdint>
#include <span>
#include <vector>

namespace linlayout::planning {

/// The element offset of each instruction's first element, round bits dropped (one per
/// instruction of a thread, in the order of the side's base registers).
std::vector<uint64_t> instructionOffsets(const SharedSidePattern &side, int offsetBits);

/// The bits of the scratch offset the threads' part of a side's addresses sets (lanes, warps and
/// other CTAs' bits, below offsetBits).
uint64_t threadOffsetBits(const SharedSidePattern &side, int offsetBits);

/// The accesses of a side (one per instruction of a thread) whose constant offset meets
/// threadOffsetBits.
int addressXors(const SharedSidePattern &side, int offsetBits);

/// Integer instructions one thread issues for the addresses of a side's accesses, beyond its own
/// offset: as counted in the file comment, for a scratch padded by `pads` (none: swizzled).
/// Requires: every interval and padding a power of two; elementBytes in {1, 2, 4, 8}.
/// Ensures: 0 where no constant meets the threads' bits and pads is empty.
int addressOps(const SharedSidePattern &side, int offsetBits, std::span<const PadInterval> pads,
               int elementBytes);

} // namespace linlayout::planning
