// Named examples for every LinearLayout operation, with the edge cases (empty layouts, size-1
// dims, broadcast, non-injective and non-surjective maps, the 64-bit limits) and one test per
// error message.
#include "ExampleUtil.h"
#include "linlayout/layout/LinearLayout.h"

#include <gtest/gtest.h>

#include <sstream>
#include <unordered_set>

using namespace linlayout;
using namespace linlayout::testing;

namespace {

DimName named(const char *s) { return DimName::get(s); }

template <typename T> std::string errorOf(const Expected<T> &e) {
  return e.ok() ? "<no error>" : e.message();
}

// register -> dim1 bits 0,1; lane -> dim1 bits 2,3 then dim0 bits 0..2; 32 x 16 elements.
LinearLayout blocked() {
  return make({{reg(), {{0, 1}, {0, 2}}},
               {lane(), {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}},
               {warp(), {{8, 0}, {16, 0}}},
               {block(), {}}},
              {{d0(), 32}, {d1(), 16}});
}

// 64 in bits onto 64 out bits: the largest layout there is.
LinearLayout identity64() {
  return *(*LinearLayout::identity1D(uint64_t(1) << 32, reg(), d0()) *
           *LinearLayout::identity1D(uint64_t(1) << 32, lane(), d1()));
}

} // namespace

// --- construction -----------------------------------------------------------------------------

TEST(Construct, EmptyLayout) {
  LinearLayout e = LinearLayout::empty();
  EXPECT_EQ(e, LinearLayout());
  EXPECT_EQ(e.numInDims(), 0);
  EXPECT_EQ(e.numOutDims(), 0);
  EXPECT_EQ(e.totalInBits(), 0);
  EXPECT_EQ(e.totalOutBits(), 0);
  EXPECT_EQ(e.apply(0), 0u);
  EXPECT_TRUE(e.isInvertible());
  EXPECT_EQ(*e.invert(), e);
  EXPECT_EQ(*e.pseudoInvert(), e);
  EXPECT_EQ(*e.then(e), e);
  EXPECT_EQ(*(e * e), e);
  EXPECT_EQ(e.toString(), "\n(empty layout)");
  EXPECT_TRUE(e.bases().empty());
  EXPECT_TRUE(e.freeVariableMasks().empty());
  EXPECT_EQ(e.numConsecutiveInOut(), 1u);
}

TEST(Construct, FromBasesKeepsEveryBasis) {
  LinearLayout l = blocked();
  EXPECT_EQ(l.numInDims(), 4);
  EXPECT_EQ(l.inDimNames(), (std::vector<DimName>{reg(), lane(), warp(), block()}));
  EXPECT_EQ(l.outDimNames(), (std::vector<DimName>{d0(), d1()}));
  EXPECT_EQ(l.basis(lane(), 2), (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(l.basis(lane(), 1, d1()), 8u);
  EXPECT_EQ(l.basis(lane(), 1, warp()), 0u); // not an out dim
  EXPECT_EQ(l.inDimSize(lane()), 32u);
  EXPECT_EQ(l.inDimSize(block()), 1u);
  EXPECT_EQ(l.inDimSize(named("nope")), 1u);
  EXPECT_EQ(l.outDimSize(d0()), 32u);
  EXPECT_EQ(l.inDimBits(warp()), 2);
  EXPECT_EQ(l.inDimOffset(2), 7);
  EXPECT_EQ(l.outDimOffset(1), 5);
  EXPECT_EQ(l.totalInBits(), 9);
  EXPECT_EQ(l.totalOutBits(), 9);
  EXPECT_EQ(l.inDimIndex(warp()), 2);
  EXPECT_EQ(l.inDimIndex(d0()), -1);
  EXPECT_TRUE(l.hasOutDim(d1()));
  EXPECT_FALSE(l.hasInDim(d1()));
  EXPECT_EQ(l.column(2), 4u << 5); // lane bit 0 -> dim1 = 4, packed above dim0's 5 bits
  EXPECT_EQ(*LinearLayout::fromBases(l.bases(), l.outDims()), l);
}

TEST(Construct, InferredSizesAreTheSmallestPowersOfTwo) {
  std::vector<InDimBases> ins = {{reg(), {{0, 1}, {0, 2}}}, {lane(), {{1, 0}, {2, 0}}}};
  auto l = LinearLayout::fromBasesInferSizes(ins, std::vector<DimName>{d0(), d1()});
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->outDimSize(d0()), 4u);
  EXPECT_EQ(l->outDimSize(d1()), 4u);
  // A zero column contributes size 1.
  auto z = LinearLayout::fromBasesInferSizes(std::vector<InDimBases>{{reg(), {{0}}}},
                                             std::vector<DimName>{d0()});
  ASSERT_TRUE(z.ok());
  EXPECT_EQ(z->outDimSize(d0()), 1u);
}

TEST(Construct, OneDimensionalLayouts) {
  auto id = LinearLayout::identity1D(8, lane(), d0());
  ASSERT_TRUE(id.ok());
  EXPECT_EQ(id->toString(), "\n - lane=1 -> (1)\n   lane=2 -> (2)\n   lane=4 -> (4)\n"
                            "where out dims are: [dim0 (size 8)]");
  auto st = LinearLayout::strided1D(4, 2, lane(), d0());
  EXPECT_EQ(st->apply(3), 6u);
  EXPECT_EQ(st->outDimSize(d0()), 8u);
  EXPECT_FALSE(st->isSurjective());
  auto z = LinearLayout::zeros1D(4, warp(), d0(), 8);
  EXPECT_EQ(z->apply(3), 0u);
  EXPECT_EQ(z->outDimSize(d0()), 8u);
  EXPECT_EQ(LinearLayout::zeros1D(4, warp(), d0())->outDimSize(d0()), 1u);
  // Size 1: a dimension with no bits.
  auto one = LinearLayout::identity1D(1, lane(), d0());
  EXPECT_EQ(one->toString(),
            "\n - lane is a size 1 dimension\nwhere out dims are: [dim0 (size 1)]");
  EXPECT_TRUE(one->isInvertible());
  // The largest single dimension: 2^63.
  auto big = LinearLayout::identity1D(uint64_t(1) << 63, lane(), d0());
  ASSERT_TRUE(big.ok());
  EXPECT_EQ(big->apply(uint64_t(1) << 62), uint64_t(1) << 62);
}

TEST(Construct, SixtyFourBitLayouts) {
  LinearLayout l = identity64();
  EXPECT_EQ(l.totalInBits(), 64);
  EXPECT_EQ(l.totalOutBits(), 64);
  EXPECT_EQ(l.apply(~uint64_t(0)), ~uint64_t(0));
  EXPECT_TRUE(l.isInvertible());
  EXPECT_EQ(*l.invert()->invert(), l);
  EXPECT_EQ(l.invert()->apply(uint64_t(5) << 40), uint64_t(5) << 40);
  EXPECT_EQ(l.rank(), 64);
  auto v = l.apply(std::vector<DimValue>{{reg(), 0xffffffffu}, {lane(), 5}});
  ASSERT_TRUE(v.ok());
  EXPECT_EQ((*v)[0].value, 0xffffffffu);
  EXPECT_EQ((*v)[1].value, 5u);
  // One more bit anywhere is an error.
  EXPECT_EQ(errorOf(l * *LinearLayout::identity1D(2, warp(), named("dim2"))),
            "in dimensions have 65 bits in total, at most 64");
}

// --- queries ----------------------------------------------------------------------------------

TEST(Query, ApplyNamedAndPacked) {
  LinearLayout l = blocked();
  auto out = l.apply(std::vector<DimValue>{{lane(), 5}, {reg(), 3}});
  ASSERT_TRUE(out.ok());
  // lane 5 = bits 0, 2 -> (0,4) ^ (1,0); register 3 -> (0,1) ^ (0,2).
  EXPECT_EQ((*out)[0].name, d0());
  EXPECT_EQ((*out)[0].value, 1u);
  EXPECT_EQ((*out)[1].value, 7u);
  uint64_t packed = l.packInput(std::vector<uint64_t>{3, 5, 0, 0});
  EXPECT_EQ(packed, 3u | (5u << 2));
  EXPECT_EQ(l.inValue(packed, 1), 5u);
  EXPECT_EQ(l.outValue(l.apply(packed), 1), 7u);
  EXPECT_EQ(l.apply(0), 0u);
  // No inputs at all: every in dim is 0.
  auto zero = l.apply(std::vector<DimValue>{});
  ASSERT_TRUE(zero.ok());
  EXPECT_EQ((*zero)[0].value + (*zero)[1].value, 0u);
}

TEST(Query, RankKernelAndImageOfABroadcastLayout) {
  // lane bit 1 repeats bit 0 (non-injective); 2 of 3 out bits are reached (non-surjective).
  LinearLayout l = make({{lane(), {{1}, {1}, {2}}}}, {{d0(), 8}});
  EXPECT_EQ(l.rank(), 2);
  EXPECT_FALSE(l.isInjective());
  EXPECT_FALSE(l.isSurjective());
  EXPECT_FALSE(l.isInvertible());
  EXPECT_EQ(l.kernelBasis(), (std::vector<uint64_t>{3}));
  EXPECT_EQ(l.imageBasis(), (std::vector<uint64_t>{1, 2}));
  LinearLayout k = l.kernel(named("k"));
  EXPECT_EQ(k.toString(), "\n - k=1 -> (3)\nwhere out dims are: [lane (size 8)]");
  LinearLayout im = l.image(named("i"));
  EXPECT_EQ(im.toString(), "\n - i=1 -> (1)\n   i=2 -> (2)\nwhere out dims are: [dim0 (size 8)]");
  EXPECT_EQ(l.freeVariableMasks()[0].mask, 2u);
  EXPECT_EQ(l.zeroBasisMasks()[0].mask, 0u);
}

TEST(Query, FreeVariablesAndZeroBasesOfABroadcastWarp) {
  LinearLayout l = make({{reg(), {{1}}}, {lane(), {{0}, {2}}}, {warp(), {{0}, {1}}}}, {{d0(), 4}});
  std::vector<DimMask> free = l.freeVariableMasks(), zero = l.zeroBasisMasks();
  ASSERT_EQ(free.size(), 3u);
  EXPECT_EQ(free[0].name, reg());
  EXPECT_EQ(free[0].mask, 0u);
  EXPECT_EQ(free[1].mask, 1u); // lane bit 0 is zero
  EXPECT_EQ(free[2].mask, 3u); // warp bit 0 zero, bit 1 repeats register bit 0
  EXPECT_EQ(zero[1].mask, 1u);
  EXPECT_EQ(zero[2].mask, 1u);
}

TEST(Query, EqualityAndHashing) {
  LinearLayout a = blocked(), b = blocked();
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.hash(), b.hash());
  std::unordered_set<LinearLayout> set = {a, b, LinearLayout::empty()};
  EXPECT_EQ(set.size(), 2u);
  LinearLayout bigger = *a.resizeOutDim(d0(), 64);
  EXPECT_NE(a, bigger);
  EXPECT_TRUE(a.equalIgnoringOutDimSizes(bigger));
  EXPECT_FALSE(a.equalIgnoringOutDimSizes(*a.transposeOuts(std::vector<DimName>{d1(), d0()})));
  // Out-dim order matters; so do in-dim names.
  EXPECT_NE(a, *a.transposeIns(std::vector<DimName>{lane(), reg(), warp(), block()}));
  EXPECT_NE(a, *a.renameInDim(block(), named("cta")));
}

TEST(Query, ToStringIsTritonsText) {
  EXPECT_EQ(blocked().toString(),
            "\n - register=1 -> (0, 1)\n   register=2 -> (0, 2)\n"
            " - lane=1 -> (0, 4)\n   lane=2 -> (0, 8)\n   lane=4 -> (1, 0)\n   lane=8 -> (2, 0)\n"
            "   lane=16 -> (4, 0)\n"
            " - warp=1 -> (8, 0)\n   warp=2 -> (16, 0)\n"
            " - block is a size 1 dimension\n"
            "where out dims are: [dim0 (size 32), dim1 (size 16)]");
  LinearLayout noIns = make({}, {{d0(), 4}});
  EXPECT_EQ(noIns.toString(), "\n(empty layout with out-dims [dim0 (size 4)])");
  LinearLayout noOuts = make({{reg(), {{}}}}, {});
  EXPECT_EQ(noOuts.toString(), "\n - register=1 -> ()\nwhere out dims are: []");
  std::ostringstream os;
  os << noIns;
  EXPECT_EQ(os.str(), noIns.toString());
}

// --- algebra ----------------------------------------------------------------------------------

TEST(Algebra, ThenAppliesTheFirstLayoutFirst) {
  // lane -> dim0 (stride 2), then dim0 -> offset reversed within 8.
  LinearLayout a = *LinearLayout::strided1D(4, 2, lane(), d0());
  LinearLayout b = make({{d0(), {{4}, {2}, {1}}}}, {{DimName::offset(), 8}});
  auto c = a.then(b);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->toString(),
            "\n - lane=1 -> (2)\n   lane=2 -> (1)\nwhere out dims are: [offset (size 8)]");
  // Triton's compose: out dims of the first may be smaller than the second's in dims.
  LinearLayout small = *LinearLayout::identity1D(2, lane(), d0());
  EXPECT_TRUE(small.then(b).ok());
  // A size-1 out dim the second layout lacks carries no bits and is allowed.
  LinearLayout extra = make({{lane(), {{1, 0}}}}, {{d0(), 2}, {d1(), 1}});
  EXPECT_TRUE(extra.then(b).ok());
}

TEST(Algebra, InvertAMmaLikeLayout) {
  LinearLayout l = blocked();
  auto inv = l.invert();
  ASSERT_TRUE(inv.ok());
  EXPECT_EQ(inv->inDimNames(), (std::vector<DimName>{d0(), d1()}));
  EXPECT_EQ(inv->outDimNames(), l.inDimNames());
  for (uint64_t x = 0; x < 512; ++x)
    EXPECT_EQ(inv->apply(l.apply(x)), x);
  EXPECT_EQ(*inv->invert(), l);
  EXPECT_TRUE(l.tryInvert().has_value());
}

TEST(Algebra, PseudoInvertOfABroadcastLayoutPicksCopyZero) {
  // Two warps hold the same data: the right inverse sends every element to warp 0.
  LinearLayout l = make({{lane(), {{1}, {2}}}, {warp(), {{0}}}}, {{d0(), 4}});
  auto p = l.pseudoInvert();
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->toString(), "\n - dim0=1 -> (1, 0)\n   dim0=2 -> (2, 0)\n"
                           "where out dims are: [lane (size 4), warp (size 2)]");
  EXPECT_FALSE(l.invert().ok());
  EXPECT_FALSE(l.tryInvert().has_value());
}

TEST(Algebra, InvertAndComposeBetweenTwoRegisterLayouts) {
  // a: register holds elements 0,1 and lanes 2..; b: lanes hold 0,1 and registers 2..
  LinearLayout a = make({{reg(), {{1}}}, {lane(), {{2}, {4}}}}, {{d0(), 8}});
  LinearLayout b = make({{reg(), {{4}}}, {lane(), {{1}, {2}}}}, {{d0(), 8}});
  auto c = a.invertAndCompose(b);
  ASSERT_TRUE(c.ok());
  // a's register 1 holds element 1, which b keeps in lane 1.
  EXPECT_EQ(c->basis(reg(), 0), (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(c->basis(lane(), 1), (std::vector<uint64_t>{1, 0}));
  auto back = c->then(b);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, a);
}

TEST(Algebra, FactorThroughANonSurjectiveLayout) {
  LinearLayout a = make({{reg(), {{2}}}}, {{d0(), 4}});
  LinearLayout b = make({{lane(), {{2}, {0}}}}, {{d0(), 4}});
  auto f = a.factorThrough(b);
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE(f->has_value());
  EXPECT_EQ((*f)->basis(reg(), 0), (std::vector<uint64_t>{1}));
  LinearLayout outside = make({{reg(), {{1}}}}, {{d0(), 4}});
  auto none = outside.factorThrough(b);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST(Algebra, ProductStacksInnerBelowOuter) {
  auto p = *LinearLayout::identity1D(4, reg(), d1()) * *LinearLayout::identity1D(8, lane(), d1()) *
           *LinearLayout::identity1D(4, lane(), d0());
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->toString(), "\n - register=1 -> (1, 0)\n   register=2 -> (2, 0)\n"
                           " - lane=1 -> (4, 0)\n   lane=2 -> (8, 0)\n   lane=4 -> (16, 0)\n"
                           "   lane=8 -> (0, 1)\n   lane=16 -> (0, 2)\n"
                           "where out dims are: [dim1 (size 32), dim0 (size 4)]");
  // The empty layout is the unit of the product.
  EXPECT_EQ(*(LinearLayout::empty() * *p), *p);
  EXPECT_EQ(*(*p * LinearLayout::empty()), *p);
  // Errors propagate through chained products.
  Expected<LinearLayout> bad = makeError("first");
  EXPECT_EQ(errorOf(bad * *p), "first");
  EXPECT_EQ(errorOf(*p * bad), "first");
  EXPECT_EQ(errorOf(bad * bad), "first");
}

TEST(Algebra, ConcatInsAndOuts) {
  LinearLayout a = *LinearLayout::identity1D(4, reg(), d0());
  LinearLayout b = *LinearLayout::zeros1D(2, lane(), d0(), 4);
  auto ins = a.concatIns(b);
  ASSERT_TRUE(ins.ok());
  EXPECT_EQ(ins->inDimNames(), (std::vector<DimName>{reg(), lane()}));
  EXPECT_EQ(ins->freeVariableMasks()[1].mask, 1u);
  auto outs = a.concatOuts(*LinearLayout::identity1D(4, reg(), d1()));
  ASSERT_TRUE(outs.ok());
  EXPECT_EQ(outs->apply(3), 3u | (3u << 2));
}

TEST(Algebra, TransposeReshapeFlatten) {
  LinearLayout l = blocked();
  auto t = l.transposeOuts(std::vector<DimName>{d1(), d0()});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->basis(lane(), 2), (std::vector<uint64_t>{0, 1}));
  auto r = l.reshapeIns(std::vector<DimSize>{{named("thread"), 128}, {warp(), 4}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->column(6), l.column(6));
  EXPECT_EQ(*r->reshapeIns(l.inDims()), l);
  auto ro = l.reshapeOuts(std::vector<DimSize>{{named("flat"), 512}});
  ASSERT_TRUE(ro.ok());
  EXPECT_EQ(*ro, l.flattenOuts(named("flat")));
  EXPECT_EQ(l.flattenIns().inDimName(0), reg());
  EXPECT_EQ(l.flattenIns().inDimBits(0), 9);
  EXPECT_EQ(LinearLayout::empty().flattenIns(), LinearLayout::empty());
  EXPECT_EQ(LinearLayout::empty().flattenOuts(), LinearLayout::empty());
}

TEST(Algebra, ResizeSublayoutQuotient) {
  LinearLayout l = blocked();
  auto bigger = l.resizeInDim(warp(), 8);
  ASSERT_TRUE(bigger.ok());
  EXPECT_EQ(bigger->basis(warp(), 2), (std::vector<uint64_t>{0, 0}));
  auto smaller = l.resizeInDim(lane(), 4);
  EXPECT_EQ(smaller->inDimBits(lane()), 2);
  auto out = l.resizeOutDim(d0(), 8); // keeps dim0 mod 8
  EXPECT_EQ(out->basis(warp(), 0), (std::vector<uint64_t>{0, 0}));
  auto sub = l.sublayout(std::vector<DimName>{lane()}, std::vector<DimName>{d1()});
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(sub->toString(),
            "\n - lane=1 -> (4)\n   lane=2 -> (8)\n   lane=4 -> (0)\n"
            "   lane=8 -> (0)\n   lane=16 -> (0)\nwhere out dims are: [dim1 (size 16)]");
  EXPECT_TRUE(l.sublayoutIsZero(std::vector<DimName>{warp()}, std::vector<DimName>{d1()}));
  EXPECT_FALSE(l.sublayoutIsZero(std::vector<DimName>{lane()}, std::vector<DimName>{d1()}));
  EXPECT_FALSE(l.sublayoutIsZero(std::vector<DimName>{named("nope")}, {}));
  // block -> block identically: it divides out; lane does not.
  LinearLayout withBlock = *(l * *LinearLayout::identity1D(2, block(), block()));
  auto q = withBlock.quotient(std::vector<DimName>{block()});
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(*q, *l.sublayout(std::vector<DimName>{reg(), lane(), warp()}, l.outDimNames()));
  EXPECT_FALSE(withBlock.quotient(std::vector<DimName>{lane()}).has_value());
  // A cross term (register also moves block) forbids the quotient.
  LinearLayout cross = make({{reg(), {{1}}}, {block(), {{1}}}}, {{block(), 2}});
  EXPECT_FALSE(cross.quotient(std::vector<DimName>{block()}).has_value());
}

TEST(Algebra, RenameRemoveZeroBasesPermute) {
  LinearLayout l = make({{reg(), {{1}, {0}, {2}}}, {lane(), {{0}, {4}}}}, {{d0(), 8}});
  LinearLayout stripped = l.removeZeroBases();
  EXPECT_EQ(stripped.toString(), "\n - register=1 -> (1)\n   register=2 -> (2)\n"
                                 " - lane=1 -> (4)\nwhere out dims are: [dim0 (size 8)]");
  EXPECT_EQ(l.removeZeroBases(lane()).inDimBits(reg()), 3);
  auto p = l.permuteInBits(reg(), std::vector<int>{2, 0, 1});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->basis(reg(), 0), (std::vector<uint64_t>{2}));
  EXPECT_EQ(p->basis(reg(), 2), (std::vector<uint64_t>{0}));
  auto r = l.renameInDim(lane(), named("thread"));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->hasInDim(named("thread")));
  EXPECT_EQ(*l.renameInDim(lane(), lane()), l);
  EXPECT_EQ(r->renameOutDim(d0(), named("row"))->outDimName(0), named("row"));
}

TEST(Analysis, ImageWithinAndCommonIdentityPrefix) {
  LinearLayout a = make({{reg(), {{1}, {2}}}, {lane(), {{4}}}}, {{d0(), 8}});
  LinearLayout b = make({{reg(), {{1}, {4}}}, {lane(), {{2}}}}, {{d0(), 8}});
  EXPECT_EQ(LinearLayout::commonIdentityPrefix(a, b, reg()), 1);
  EXPECT_EQ(LinearLayout::commonIdentityPrefix(a, a, reg()), 2);
  EXPECT_EQ(LinearLayout::commonIdentityPrefix(a, b, lane()), 0);
  EXPECT_EQ(LinearLayout::commonIdentityPrefix(a, b, warp()), 0);
  EXPECT_TRUE(*a.imageWithin(b));
  LinearLayout half = make({{reg(), {{1}}}}, {{d0(), 8}});
  EXPECT_TRUE(*half.imageWithin(a));
  EXPECT_FALSE(*a.imageWithin(half));
}

// --- every error message ----------------------------------------------------------------------

TEST(Errors, FromBases) {
  std::vector<DimSize> outs = {{d0(), 32}, {d1(), 16}};
  EXPECT_EQ(
      errorOf(LinearLayout::fromBases(std::vector<InDimBases>{}, std::vector<DimSize>{{d0(), 48}})),
      "out dimension 'dim0' has size 48, expected a power of two");
  EXPECT_EQ(
      errorOf(LinearLayout::fromBases(std::vector<InDimBases>{}, std::vector<DimSize>{{d0(), 0}})),
      "out dimension 'dim0' has size 0, expected a power of two");
  EXPECT_EQ(errorOf(LinearLayout::fromBases(std::vector<InDimBases>{},
                                            std::vector<DimSize>{{d0(), 2}, {d0(), 2}})),
            "out dimension 'dim0' appears twice");
  EXPECT_EQ(
      errorOf(LinearLayout::fromBases(std::vector<InDimBases>{{reg(), {}}, {reg(), {}}}, outs)),
      "in dimension 'register' appears twice");
  std::vector<InDimBases> many;
  for (int i = 0; i < 17; ++i)
    many.push_back({named(("in" + std::to_string(i)).c_str()), {}});
  EXPECT_EQ(errorOf(LinearLayout::fromBases(many, outs)), "too many in dimensions: 17, at most 16");
  std::vector<DimSize> manyOuts;
  for (int i = 0; i < 17; ++i)
    manyOuts.push_back({named(("out" + std::to_string(i)).c_str()), 1});
  EXPECT_EQ(errorOf(LinearLayout::fromBases(std::vector<InDimBases>{}, manyOuts)),
            "too many out dimensions: 17, at most 16");
  EXPECT_EQ(errorOf(LinearLayout::fromBases(
                std::vector<InDimBases>{{reg(), std::vector<std::vector<uint64_t>>(65, {0})}},
                std::vector<DimSize>{{d0(), 1}})),
            "in dimension 'register' has 65 bases, at most 64");
  EXPECT_EQ(errorOf(LinearLayout::fromBases(
                std::vector<InDimBases>{{reg(), std::vector<std::vector<uint64_t>>(64, {0})}},
                std::vector<DimSize>{{d0(), 1}})),
            "in dimension 'register' has 2^64 elements, at most 2^63");
  EXPECT_EQ(errorOf(LinearLayout::fromBases(
                std::vector<InDimBases>{{reg(), std::vector<std::vector<uint64_t>>(40, {0})},
                                        {lane(), std::vector<std::vector<uint64_t>>(25, {0})}},
                std::vector<DimSize>{{d0(), 1}})),
            "in dimensions have 65 bits in total, at most 64");
  EXPECT_EQ(errorOf(LinearLayout::fromBases(
                std::vector<InDimBases>{},
                std::vector<DimSize>{{d0(), uint64_t(1) << 40}, {d1(), uint64_t(1) << 30}})),
            "out dimensions have 70 bits in total, at most 64");
  EXPECT_EQ(errorOf(LinearLayout::fromBases(std::vector<InDimBases>{{reg(), {{0, 1}, {1}}}}, outs)),
            "basis 1 of in dimension 'register' has 1 components, expected 2 (one per out "
            "dimension)");
  EXPECT_EQ(
      errorOf(LinearLayout::fromBases(std::vector<InDimBases>{{lane(), {{0, 1}, {32, 0}}}}, outs)),
      "basis 1 of in dimension 'lane' has value 32 for out dimension 'dim0' of size 32");
  EXPECT_EQ(errorOf(LinearLayout::fromBases(std::vector<InDimBases>{{lane(), {{1}, {1}}}},
                                            std::vector<DimSize>{{d0(), 4}}, true)),
            "layout is not surjective: its image has 2^1 of the 2^2 outputs:\n"
            " - lane=1 -> (1)\n   lane=2 -> (1)\nwhere out dims are: [dim0 (size 4)]");
}

TEST(Errors, FromBasesInferSizes) {
  EXPECT_EQ(errorOf(LinearLayout::fromBasesInferSizes(std::vector<InDimBases>{{reg(), {{1}}}},
                                                      std::vector<DimName>{d0(), d1()})),
            "basis 0 of in dimension 'register' has 1 components, expected 2");
  EXPECT_EQ(
      errorOf(LinearLayout::fromBasesInferSizes(
          std::vector<InDimBases>{{reg(), {{uint64_t(1) << 63}}}}, std::vector<DimName>{d0()})),
      "basis value 9223372036854775808 of in dimension 'register' needs more than 63 bits");
  // Inferred sizes must make the layout surjective.
  EXPECT_EQ(errorOf(LinearLayout::fromBasesInferSizes(std::vector<InDimBases>{{reg(), {{2}}}},
                                                      std::vector<DimName>{d0()})),
            "layout is not surjective: its image has 2^1 of the 2^2 outputs:\n"
            " - register=1 -> (2)\nwhere out dims are: [dim0 (size 4)]");
}

TEST(Errors, OneDimensionalConstructors) {
  EXPECT_EQ(errorOf(LinearLayout::identity1D(3, lane(), d0())),
            "in dimension 'lane' has size 3, expected a power of two");
  EXPECT_EQ(errorOf(LinearLayout::identity1D(0, lane(), d0())),
            "in dimension 'lane' has size 0, expected a power of two");
  EXPECT_EQ(errorOf(LinearLayout::strided1D(4, 6, lane(), d0())),
            "stride of out dimension 'dim0' has size 6, expected a power of two");
  EXPECT_EQ(errorOf(LinearLayout::strided1D(uint64_t(1) << 40, uint64_t(1) << 30, lane(), d0())),
            "strided layout of size 1099511627776 and stride 1073741824 needs more than 2^63 "
            "outputs");
  EXPECT_EQ(errorOf(LinearLayout::zeros1D(5, warp(), d0())),
            "in dimension 'warp' has size 5, expected a power of two");
  EXPECT_EQ(errorOf(LinearLayout::zeros1D(4, warp(), d0(), 12)),
            "out dimension 'dim0' has size 12, expected a power of two");
}

TEST(Errors, Apply) {
  LinearLayout l = blocked();
  EXPECT_EQ(errorOf(l.apply(std::vector<DimValue>{{d0(), 1}})),
            "the layout has no in dimension 'dim0'");
  EXPECT_EQ(errorOf(l.apply(std::vector<DimValue>{{lane(), 1}, {lane(), 2}})),
            "in dimension 'lane' is given twice");
  EXPECT_EQ(errorOf(l.apply(std::vector<DimValue>{{lane(), 32}})),
            "value 32 is out of range for in dimension 'lane' of size 32");
  EXPECT_EQ(errorOf(l.apply(std::vector<DimValue>{{block(), 1}})),
            "value 1 is out of range for in dimension 'block' of size 1");
}

TEST(Errors, Then) {
  LinearLayout a = *LinearLayout::identity1D(64, lane(), d0());
  EXPECT_EQ(errorOf(a.then(*LinearLayout::identity1D(64, d1(), d0()))),
            "cannot compose: out dimension 'dim0' of the first layout is not an in dimension of "
            "the second");
  EXPECT_EQ(errorOf(a.then(*LinearLayout::identity1D(32, d0(), d1()))),
            "cannot compose: out dimension 'dim0' has size 64, larger than the second layout's in "
            "dimension of size 32");
}

TEST(Errors, InvertPseudoInvertInvertAndCompose) {
  LinearLayout dup = make({{lane(), {{1}, {1}}}}, {{d0(), 4}});
  EXPECT_EQ(errorOf(dup.invert()), "cannot invert a layout that is not bijective (2 in bits, 2 out "
                                   "bits, rank 1):\n - lane=1 -> (1)\n   lane=2 -> (1)\n"
                                   "where out dims are: [dim0 (size 4)]");
  LinearLayout wide = *LinearLayout::zeros1D(4, lane(), d0(), 1);
  EXPECT_EQ(errorOf(wide.invert()), "cannot invert a layout that is not bijective (2 in bits, 0 "
                                    "out bits, rank 0):\n - lane=1 -> (0)\n   lane=2 -> (0)\n"
                                    "where out dims are: [dim0 (size 1)]");
  EXPECT_EQ(errorOf(dup.pseudoInvert()),
            "cannot pseudo-invert a layout that is not surjective:\n - lane=1 -> (1)\n"
            "   lane=2 -> (1)\nwhere out dims are: [dim0 (size 4)]");
  LinearLayout a = *LinearLayout::identity1D(4, reg(), d0());
  EXPECT_EQ(errorOf(a.invertAndCompose(dup)),
            "cannot invert and compose: the second layout is not surjective:\n - lane=1 -> (1)\n"
            "   lane=2 -> (1)\nwhere out dims are: [dim0 (size 4)]");
  EXPECT_EQ(errorOf(a.invertAndCompose(*LinearLayout::identity1D(4, reg(), d1()))),
            "cannot invert and compose: the layouts have different out dimensions");
  EXPECT_EQ(errorOf(LinearLayout::identity1D(8, reg(), d0())->invertAndCompose(a)),
            "cannot invert and compose: out dimension 'dim0' has size 8, larger than the second "
            "layout's 4");
}

TEST(Errors, FactorThroughAndImageWithin) {
  LinearLayout a = *LinearLayout::identity1D(4, reg(), d0());
  EXPECT_EQ(errorOf(a.factorThrough(*LinearLayout::identity1D(4, reg(), d1()))),
            "cannot factor: the layouts have different out dimensions");
  EXPECT_EQ(errorOf(a.factorThrough(*LinearLayout::identity1D(8, reg(), d0()))),
            "cannot factor: out dimension 'dim0' has size 4 and 8");
  EXPECT_EQ(errorOf(a.imageWithin(*LinearLayout::identity1D(4, reg(), d1()))),
            "imageWithin: the layouts have different out dimensions");
  EXPECT_EQ(errorOf(a.imageWithin(*LinearLayout::identity1D(8, reg(), d0()))),
            "imageWithin: out dimension 'dim0' has different sizes");
}

TEST(Errors, Product) {
  LinearLayout rl = make({{reg(), {}}, {lane(), {}}}, {});
  LinearLayout lr = make({{lane(), {}}, {reg(), {}}}, {});
  EXPECT_EQ(errorOf(rl * lr),
            "cannot multiply layouts whose common dimensions appear in different orders");
  LinearLayout o01 = make({}, {{d0(), 1}, {d1(), 1}});
  LinearLayout o10 = make({}, {{d1(), 1}, {d0(), 1}});
  EXPECT_EQ(errorOf(o01 * o10),
            "cannot multiply layouts whose common dimensions appear in different orders");
  LinearLayout big = *LinearLayout::identity1D(uint64_t(1) << 40, reg(), d0());
  EXPECT_EQ(errorOf(big * big), "in dimension 'register' has 2^80 elements, at most 2^63");
  LinearLayout outs = *LinearLayout::zeros1D(1, reg(), d0(), uint64_t(1) << 40);
  EXPECT_EQ(errorOf(outs * *LinearLayout::zeros1D(1, reg(), d1(), uint64_t(1) << 30)),
            "out dimensions have 70 bits in total, at most 64");
}

TEST(Errors, Concat) {
  LinearLayout a = *LinearLayout::identity1D(4, reg(), d0());
  EXPECT_EQ(errorOf(a.concatIns(a)),
            "cannot concatenate in dimensions: 'register' is in both layouts");
  EXPECT_EQ(errorOf(a.concatIns(*LinearLayout::identity1D(4, lane(), d1()))),
            "cannot concatenate in dimensions of layouts with different out dimensions");
  EXPECT_EQ(errorOf(a.concatIns(*LinearLayout::identity1D(8, lane(), d0()))),
            "cannot concatenate in dimensions: out dimension 'dim0' has different sizes");
  LinearLayout big = *LinearLayout::zeros1D(uint64_t(1) << 40, reg(), d0(), 4);
  EXPECT_EQ(errorOf(big.concatIns(*LinearLayout::zeros1D(uint64_t(1) << 30, lane(), d0(), 4))),
            "in dimensions have 70 bits in total, at most 64");
  EXPECT_EQ(errorOf(a.concatOuts(a)),
            "cannot concatenate out dimensions: 'dim0' is in both layouts");
  EXPECT_EQ(errorOf(a.concatOuts(*LinearLayout::identity1D(4, lane(), d1()))),
            "cannot concatenate out dimensions of layouts with different in dimensions");
  EXPECT_EQ(errorOf(a.concatOuts(*LinearLayout::identity1D(8, reg(), d1()))),
            "cannot concatenate out dimensions: in dimension 'register' has different sizes");
  LinearLayout wideOut = *LinearLayout::zeros1D(4, reg(), d0(), uint64_t(1) << 40);
  EXPECT_EQ(errorOf(wideOut.concatOuts(*LinearLayout::zeros1D(4, reg(), d1(), uint64_t(1) << 30))),
            "out dimensions have 70 bits in total, at most 64");
}

TEST(Errors, TransposeAndReshape) {
  LinearLayout l = blocked();
  EXPECT_EQ(errorOf(l.transposeIns(std::vector<DimName>{reg()})),
            "transposeIns needs 4 names, got 1");
  EXPECT_EQ(errorOf(l.transposeIns(std::vector<DimName>{reg(), lane(), warp(), d0()})),
            "transposeIns: the layout has no in dimension 'dim0'");
  EXPECT_EQ(errorOf(l.transposeIns(std::vector<DimName>{reg(), lane(), warp(), lane()})),
            "transposeIns: in dimension 'lane' is named twice");
  EXPECT_EQ(errorOf(l.transposeOuts(std::vector<DimName>{d0()})),
            "transposeOuts needs 2 names, got 1");
  EXPECT_EQ(errorOf(l.transposeOuts(std::vector<DimName>{d0(), lane()})),
            "transposeOuts: the layout has no out dimension 'lane'");
  EXPECT_EQ(errorOf(l.transposeOuts(std::vector<DimName>{d0(), d0()})),
            "transposeOuts: out dimension 'dim0' is named twice");
  EXPECT_EQ(errorOf(l.reshapeIns(std::vector<DimSize>{{reg(), 256}})),
            "reshapeIns: the new in dimensions have 2^8 elements, the layout has 2^9");
  EXPECT_EQ(errorOf(l.reshapeIns(std::vector<DimSize>{{reg(), 384}})),
            "in dimension 'register' has size 384, expected a power of two");
  EXPECT_EQ(errorOf(l.reshapeIns(std::vector<DimSize>{{reg(), 2}, {reg(), 256}})),
            "in dimension 'register' appears twice");
  EXPECT_EQ(errorOf(l.reshapeOuts(std::vector<DimSize>{{d0(), 1024}})),
            "reshapeOuts: the new out dimensions have 2^10 elements, the layout has 2^9");
  EXPECT_EQ(errorOf(l.reshapeOuts(std::vector<DimSize>{{d0(), 0}})),
            "out dimension 'dim0' has size 0, expected a power of two");
}

TEST(Errors, ResizeSublayoutRenamePermute) {
  LinearLayout l = blocked();
  EXPECT_EQ(errorOf(l.resizeInDim(d0(), 4)), "resizeInDim: the layout has no in dimension 'dim0'");
  EXPECT_EQ(errorOf(l.resizeInDim(lane(), 24)),
            "in dimension 'lane' has size 24, expected a power of two");
  EXPECT_TRUE(l.resizeInDim(lane(), uint64_t(1) << 59).ok()); // 64 bits in total: fine
  EXPECT_EQ(errorOf(l.resizeInDim(lane(), uint64_t(1) << 62)),
            "in dimensions have 66 bits in total, at most 64");
  EXPECT_EQ(errorOf(l.resizeOutDim(lane(), 4)),
            "resizeOutDim: the layout has no out dimension 'lane'");
  EXPECT_EQ(errorOf(l.resizeOutDim(d0(), 24)),
            "out dimension 'dim0' has size 24, expected a power of two");
  EXPECT_EQ(errorOf(l.resizeOutDim(d0(), uint64_t(1) << 62)),
            "out dimensions have 66 bits in total, at most 64");
  EXPECT_EQ(errorOf(l.sublayout(std::vector<DimName>{d0()}, {})),
            "sublayout: the layout has no in dimension 'dim0'");
  EXPECT_EQ(errorOf(l.sublayout({}, std::vector<DimName>{lane()})),
            "sublayout: the layout has no out dimension 'lane'");
  EXPECT_EQ(errorOf(l.renameInDim(d0(), d1())),
            "renameInDim: the layout has no in dimension 'dim0'");
  EXPECT_EQ(errorOf(l.renameInDim(reg(), lane())),
            "renameInDim: the layout already has an in dimension 'lane'");
  EXPECT_EQ(errorOf(l.renameOutDim(reg(), d1())),
            "renameOutDim: the layout has no out dimension 'register'");
  EXPECT_EQ(errorOf(l.renameOutDim(d0(), d1())),
            "renameOutDim: the layout already has an out dimension 'dim1'");
  EXPECT_EQ(errorOf(l.permuteInBits(d0(), std::vector<int>{})),
            "permuteInBits: the layout has no in dimension 'dim0'");
  EXPECT_EQ(errorOf(l.permuteInBits(reg(), std::vector<int>{0})),
            "permuteInBits: in dimension 'register' has 2 bits, the permutation 1");
  EXPECT_EQ(errorOf(l.permuteInBits(reg(), std::vector<int>{1, 1})),
            "permuteInBits: not a permutation of the bits of 'register'");
  EXPECT_EQ(errorOf(l.permuteInBits(reg(), std::vector<int>{0, 2})),
            "permuteInBits: not a permutation of the bits of 'register'");
  EXPECT_EQ(errorOf(l.permuteInBits(reg(), std::vector<int>{-1, 0})),
            "permuteInBits: not a permutation of the bits of 'register'");
}
