#include "AddressCost.h"

#include "PlanProblem.h"

#include "linlayout/layout/F2Subspace.h"

#include <set>

namespace linlayout::planning {

std::vector<uint64_t> instructionOffsets(const SharedSidePattern &side, int offsetBits) {
  std::vector<uint64_t> out;
  const size_t nb = side.baseBasis.size();
  for (uint64_t c = 0; c < (uint64_t(1) << nb); ++c) {
    uint64_t base = 0;
    for (size_t i = 0; i < nb; ++i)
      if (c >> i & 1)
        base ^= side.baseBasis[i];
    out.push_back(f2Apply(side.regMap, base) & lowMask(offsetBits));
  }
  return out;
}

uint64_t threadOffsetBits(const SharedSidePattern &side, int offsetBits) {
  uint64_t bits = 0;
  const std::vector<uint64_t> &lanes = isMatrixOp(side.op) ? side.addressLaneMap : side.laneMap;
  for (const std::vector<uint64_t> *cols : {&lanes, &side.warpMap, &side.extraMap})
    for (uint64_t x : *cols)
      bits |= x & lowMask(offsetBits);
  return bits;
}

int addressOps(const SharedSidePattern &side, int offsetBits, std::span<const PadInterval> pads,
               int elementBytes) {
  const uint64_t threadBits = threadOffsetBits(side, offsetBits);
  // Per pair a shift right and an add: the shift left folds into the masks of the offset's own
  // bits (intervals and paddings are powers of two), as LLVM emits it.
  const int perPadding = 2 * int(pads.size());
  const int scale = elementBytes > 1 ? 1 : 0;
  std::set<uint64_t> meeting, padded;
  bool immediate = false;
  for (uint64_t c : instructionOffsets(side, offsetBits)) {
    if ((c & threadBits) == 0) {
      immediate = true;
      continue;
    }
    meeting.insert(c & threadBits);
    padded.insert(c);
  }
  // Each address the threads' bits meet is its own register: the XOR (or padding) of the
  // thread's offset, then the add of the scratch's base address.
  if (pads.empty())
    return 2 * int(meeting.size());
  int ops = immediate ? perPadding : 0;
  for (uint64_t c : padded)
    ops += ((c & ~threadBits) != 0 ? 2 : 1) + perPadding + scale + 1;
  return ops;
}

} // namespace linlayout::planning
