// Layouts for lower/ tests: Triton's blocked layout built from its parameters (the hardware-layout
// library will provide the real one), and a rapidcheck generator of random distributed layouts.
#pragma once

#include "linlayout/layout/LinearLayout.h"

#include <rapidcheck.h>

#include <ostream>
#include <vector>

namespace linlayout::lower::testing {

/// blocked(sizePerThread, threadsPerWarp, warpsPerCTA, order) over `shape` (each dim at least
/// the CTA tile), out dims dim0..dimN-1; order lists dims fastest first.
LinearLayout blockedLayout(std::vector<int> sizePerThread, std::vector<int> threadsPerWarp,
                           std::vector<int> warpsPerCta, std::vector<int> order,
                           std::vector<int> shape);

/// The row-major offset layout of `shape` as one out dim "offset" (last dim fastest): composing a
/// layout with it gives the element offset in a dense row-major tensor.
LinearLayout rowMajorOffsets(const LinearLayout &layout);

/// Parameters of a random distributed layout.
struct RandomLayoutShape {
  int regBits, laneBits, warpBits, blockBits;
  std::vector<int> outBits;
};

/// A random layout from (register, lane, warp, block) to dim0.. with random bases (zero bases,
/// several set bits and repeated bases included).
rc::Gen<LinearLayout> genDistributedLayout(int maxRegBits = 3, int maxWarpBits = 3,
                                           int maxBlockBits = 2);

} // namespace linlayout::lower::testing

namespace linlayout {
/// How rapidcheck prints a layout in a counterexample.
inline void showValue(const LinearLayout &l, std::ostream &os) { os << l.toString(); }
} // namespace linlayout
