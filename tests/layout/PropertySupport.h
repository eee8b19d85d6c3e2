// Small helpers shared by the layout property tests.
#pragma once

#include "BruteForce.h"

#include "GTestProperty.h"
#include "linlayout/layout/LinearLayout.h"
#include "linlayout/testing/Generators.h"

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

namespace linlayout::proptest {

/// The number of cases every property runs in `make test`.
constexpr int kCases = 1000;

/// Whether two dim lists have the same names and sizes, in order.
inline bool sameDims(const std::vector<DimSize> &a, const std::vector<DimSize> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || a[i].size != b[i].size)
      return false;
  return true;
}

/// A seed for sampled inputs that rapidcheck reproduces and shrinks.
inline uint64_t sampleSeed() { return *rc::gen::arbitrary<uint64_t>(); }

/// The packed per-dim masks of free variables of a layout, as one mask per in dim.
inline std::vector<uint64_t> masksOf(const std::vector<DimMask> &m) {
  std::vector<uint64_t> r;
  for (const DimMask &d : m)
    r.push_back(d.mask);
  return r;
}

} // namespace linlayout::proptest
