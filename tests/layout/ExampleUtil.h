// Terse names for the named-example tests of LinearLayout: dimension names and a constructor
// that reports a bad example as a test failure (and yields the empty layout) instead of crashing.
#pragma once

#include "linlayout/layout/LinearLayout.h"

#include <gtest/gtest.h>

#include <vector>

namespace linlayout::testing {

inline DimName reg() { return DimName::reg(); }
inline DimName lane() { return DimName::lane(); }
inline DimName warp() { return DimName::warp(); }
inline DimName block() { return DimName::block(); }
inline DimName d0() { return DimName::dim(0); }
inline DimName d1() { return DimName::dim(1); }

/// The layout of these bases and output sizes; a failed expectation (and the empty layout) where
/// they do not make one.
inline LinearLayout make(std::vector<InDimBases> ins, std::vector<DimSize> outs) {
  auto l = LinearLayout::fromBases(ins, outs);
  EXPECT_TRUE(l.ok()) << (l.ok() ? "" : l.message());
  return l.ok() ? *l : LinearLayout();
}

} // namespace linlayout::testing
