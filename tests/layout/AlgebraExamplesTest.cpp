// Named examples for the algebra: then, invert, pseudoInvert, invertAndCompose, factorThrough,
// product, divideLeft/Right, including edge cases and every error message.
#include "ExampleUtil.h"
#include "linlayout/layout/LinearLayout.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::testing;

namespace {

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

TEST(InvertAndCompose, LargerOuterOutDimsAsTriton) {
  // Triton 3.6's LinearLayoutTest InvertAndComposeLargerA: a 64x64 register layout against a
  // 256x128 shared layout; Triton answers with the registers' offsets.
  LinearLayout regs = make({{reg(), {{0, 1}, {0, 2}, {0, 4}, {0, 32}, {32, 0}}},
                            {lane(), {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}}},
                            {warp(), {{8, 0}, {16, 0}}},
                            {block(), {}}},
                           {{d0(), 64}, {d1(), 64}});
  LinearLayout shared = make({{DimName::offset(),
                               {{0, 1},
                                {0, 2},
                                {0, 4},
                                {0, 8},
                                {0, 16},
                                {0, 32},
                                {0, 64},
                                {1, 8},
                                {2, 16},
                                {4, 32},
                                {8, 0},
                                {16, 0},
                                {32, 0},
                                {64, 0},
                                {128, 0}}},
                              {block(), {}}},
                             {{d0(), 256}, {d1(), 128}});
  LinearLayout expected = make({{reg(), {{1, 0}, {2, 0}, {4, 0}, {32, 0}, {4096, 0}}},
                                {lane(), {{8, 0}, {16, 0}, {136, 0}, {272, 0}, {544, 0}}},
                                {warp(), {{1024, 0}, {2048, 0}}},
                                {block(), {}}},
                               {{DimName::offset(), 32768}, {block(), 1}});
  auto c = regs.invertAndCompose(shared);
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(*c, expected);
  EXPECT_EQ(*regs.then(*shared.invert()), expected);
}

TEST(Divide, LeftAndRightOfARegisterLaneProduct) {
  LinearLayout inner = *LinearLayout::identity1D(4, reg(), d0());
  LinearLayout outer = *LinearLayout::identity1D(32, lane(), d0());
  LinearLayout prod = *(inner * outer);
  auto c = prod.divideLeft(inner);
  ASSERT_TRUE(c.has_value());
  // register is used up by inner and dropped; lane remains.
  EXPECT_EQ(*c, outer);
  auto b = prod.divideRight(outer);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(*b, inner);
  // Not a product with this inner: its bases are not the low bits.
  LinearLayout other = *LinearLayout::strided1D(4, 2, reg(), d0());
  EXPECT_FALSE(prod.divideLeft(other).has_value());
  EXPECT_FALSE(prod.divideLeft(*LinearLayout::identity1D(4, warp(), d0())).has_value());
}

TEST(Divide, RightKeepsDimsUsedUpByTheDivisorOutOfTheQuotient) {
  // Regression: prod has out dims [dim1, dim0]; the divisor has [dim0, dim1]. Keeping dim0 as a
  // size-1 out dim of the quotient put it after dim1, an order the divisor's
  // product refuses, so the division answered nullopt.
  LinearLayout inner = make({{reg(), {{0}}}, {lane(), {}}}, {{d1(), 1}});
  LinearLayout outer = make({}, {{d0(), 2}, {d1(), 1}});
  LinearLayout prod = *(inner * outer);
  auto b = prod.divideRight(outer);
  ASSERT_TRUE(b.has_value());
  auto back = *b * outer;
  ASSERT_TRUE(back.ok()) << back.message();
  auto aligned = back->transposeOuts(prod.outDimNames());
  ASSERT_TRUE(aligned.ok());
  EXPECT_EQ(*aligned, prod);
}

TEST(Product, NewDimsFollowInnerDimsAsInTriton) {
  LinearLayout a = *LinearLayout::identity1D(2, lane(), d0());
  LinearLayout b = make({{reg(), {}}, {lane(), {}}}, {});
  LinearLayout c = make({{reg(), {{}}}, {lane(), {}}}, {});
  auto ab = a * b;
  ASSERT_TRUE(ab.ok());
  EXPECT_EQ(ab->inDimNames(), (std::vector<DimName>{lane(), reg()}));
  // So (a*b)*c is refused while a*(b*c) exists: associativity holds where both are defined.
  auto left = *ab * c;
  ASSERT_FALSE(left.ok());
  EXPECT_EQ(left.message(),
            "cannot multiply layouts whose common dimensions appear in different orders");
  EXPECT_TRUE((a * (b * c)).ok());
}

TEST(PseudoInvert, SameNamedDimsAreTreatedAsTritonDoes) {
  // offset -> offset identically, plus a broadcast block: the identity on offset is kept in place
  // (Triton builds the pseudo-inverse as identity.invertAndCompose(layout)).
  LinearLayout l =
      make({{DimName::offset(), {{1}, {2}}}, {DimName::block(), {{0}}}}, {{DimName::offset(), 4}});
  auto p = l.pseudoInvert();
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->basis(DimName::offset(), 1), (std::vector<uint64_t>{2, 0}));
  auto back = p->then(l);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, *LinearLayout::identity1D(4, DimName::offset(), DimName::offset()));
  // Distinct names take the direct path; the answer is the same right inverse.
  LinearLayout r = *l.renameInDim(DimName::offset(), lane());
  auto q = r.pseudoInvert();
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->basis(DimName::offset(), 1), (std::vector<uint64_t>{2, 0}));
}
