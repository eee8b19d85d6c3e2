// Named examples for the algebra: then, invert, pseudoInvert, invertAndCompose, factorThrough,
// product, divideLeft/Right, including edge cases and every error message.
#include "linlayout/layout/LinearLayout.h"

#include <gtest/gtest.h>

using namespace linlayout;

namespace {

DimName reg() { return DimName::reg(); }
DimName lane() { return DimName::lane(); }
DimName warp() { return DimName::warp(); }
DimName d0() { return DimName::dim(0); }
DimName d1() { return DimName::dim(1); }

LinearLayout make(std::vector<InDimBases> ins, std::vector<DimSize> outs) {
  auto l = LinearLayout::fromBases(ins, outs);
  EXPECT_TRUE(l.ok()) << (l.ok() ? "" : l.message());
  return *l;
}

// Whether outer(c(x)) == a(x) on every input of a (out dims matched by name).
bool solves(const LinearLayout &a, const LinearLayout &outer, const LinearLayout &c) {
  auto composed = c.then(outer);
  if (!composed.ok())
    return false;
  auto aligned = composed->transposeOuts(a.outDimNames());
  return aligned.ok() && *aligned == a;
}

} // namespace

TEST(InvertAndCompose, KeepsIdenticalDimsInPlace) {
  // Both layouts broadcast over 2 warps the same way: the warps stay where they are.
  LinearLayout a = make({{reg(), {{1}}}, {lane(), {{2}}}, {warp(), {{0}}}}, {{d0(), 4}});
  LinearLayout b = make({{reg(), {{2}}}, {lane(), {{1}}}, {warp(), {{0}}}}, {{d0(), 4}});
  auto c = a.invertAndCompose(b);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_TRUE(solves(a, b, *c));
  EXPECT_EQ(c->basis(warp(), 0), (std::vector<uint64_t>{0, 0, 1}));
}

TEST(InvertAndCompose, SolvesEverythingWhenKeptDimsWouldLeaveItUnsolvable) {
  // Regression: lane maps identically in both, so it is kept in place; but a's warp reaches
  // element 1, which in b only the (kept) lane reaches. The reduced system has no solution and
  // the old code read an empty optional (an assert in debug builds, garbage in release).
  LinearLayout a = make({{lane(), {{1}}}, {warp(), {{1}}}}, {{d0(), 2}});
  LinearLayout b = make({{reg(), {}}, {lane(), {{1}}}}, {{d0(), 2}});
  auto c = a.invertAndCompose(b);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_TRUE(solves(a, b, *c));
  // The same with a swizzled lane in a distributed pair whose registers agree.
  LinearLayout a2 = make({{reg(), {{1}}}, {lane(), {{3}}}}, {{d0(), 4}});
  LinearLayout b2 = make({{reg(), {{1}}}, {lane(), {{2}}}}, {{d0(), 4}});
  auto c2 = a2.invertAndCompose(b2);
  ASSERT_TRUE(c2.ok()) << c2.message();
  EXPECT_TRUE(solves(a2, b2, *c2));
}
