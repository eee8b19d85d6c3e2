// A padded scratch for a shared-memory exchange: instead of the optimal swizzle's XORed segment,
// an unswizzled scratch (the swizzle's chunk, then the tile's vectors in the order one side holds
// them) whose offsets are spread out by one interval/padding pair, as #ttg.padded_shared does.
//
// No scratch takes fewer wavefronts than the optimal swizzle for the same chunk (the lower bound
// of docs/conversions.md counts the distinct chunks a phase touches, which holds for any
// placement), so padding wins on wavefronts only where the search missed the bound; what it
// saves is address arithmetic. A swizzled access whose constant offset meets the bits the threads
// set needs an XOR per access; padding adds over offsets with disjoint bits, so an unswizzled
// scratch's accesses keep their constants as immediates.
#pragma once

#include "linlayout/layout/PaddedShared.h"
#include "linlayout/layout/SharedAccessPattern.h"
#include "linlayout/layout/Swizzle.h"

#include <optional>
#include <vector>

namespace linlayout::planning {

struct PaddedScratch {
  ScratchBasis basis;
  std::vector<PadInterval> padding;
  SharedSidePattern store, load; ///< wavefronts counted exactly through the padding
  int64_t scratchBytes = 0;      ///< per round: the padded offsets, rounded up to 16 bytes
  int addressOps = 0;            ///< per thread, both sides (AddressCost.h)
};

/// The padded scratch with the fewest wavefronts (then address instructions, AddressCost.h, then
/// bytes) at the vector widths of `swizzled` (plain ld/st.shared on both sides), every instruction
/// of every warp taking the same wavefronts; nullopt where none has them. Requires: swizzled is
/// searchSwizzle's answer for store and load; elementBits in {8, ..., 64}. Ensures:
/// analyzeSharedSide accepts both sides on the result's basis.
std::optional<PaddedScratch> searchPaddedScratch(const SideVectors &store, const SideVectors &load,
                                                 const SwizzleChoice &swizzled, int elementBits);

} // namespace linlayout::planning
