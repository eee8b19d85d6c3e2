// The hardware-family generators the layout tests use (public: linlayout/testing/Families.h and
// SpecsWithShapes.h), and a brute-force count of a layout's outputs.
#pragma once

#include "SpecTestUtil.h"
#include "linlayout/testing/Families.h"
#include "linlayout/testing/SpecsWithShapes.h"

#include <algorithm>
#include <vector>

namespace linlayout::testing {

/// Every output reached by some input, by enumeration; the bool is whether no output repeats.
struct Enumerated {
  uint64_t distinct;
  bool injective;
};
inline Enumerated enumerate(const LinearLayout &l) {
  int n = l.totalInBits();
  std::vector<uint64_t> outs;
  outs.reserve(size_t(1) << n);
  for (uint64_t x = 0; x < (uint64_t(1) << n); ++x)
    outs.push_back(l.apply(x));
  std::sort(outs.begin(), outs.end());
  uint64_t distinct = uint64_t(std::unique(outs.begin(), outs.end()) - outs.begin());
  return {distinct, distinct == (uint64_t(1) << n)};
}

} // namespace linlayout::testing
