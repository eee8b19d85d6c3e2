// CuTe layouts: examples, every error, and properties against a brute-force
// CuTe evaluator written here from CuTe's definition (colexicographic
// coordinates, inner product with the strides, Swizzle<B,M,S> on the offset).
#include "GTestProperty.h"

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/CuteLayout.h"
#include "linlayout/layout/LayoutSpec.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <bit>

using namespace linlayout;

namespace {

// ---- the brute-force evaluator
// ------------------------------------------------------------------

struct Tree {
  int64_t size = 1, stride = 0;
  std::vector<Tree> kids; // a tuple when non-empty or `tuple`
  bool tuple = false;
};

struct Swz {
  int b, m, s;
};

int64_t treeSize(const Tree &t) {
  if (!t.tuple)
    return t.size;
  int64_t n = 1;
  for (const Tree &k : t.kids)
    n *= treeSize(k);
  return n;
}

// CuTe's offset of a mode's index: split it colexicographically over the
// children, sum the leaves' coordinate * stride.
int64_t offsetOf(const Tree &t, int64_t index) {
  if (!t.tuple)
    return (index % t.size) * t.stride;
  int64_t sum = 0;
  for (const Tree &k : t.kids) {
    int64_t n = treeSize(k);
    sum += offsetOf(k, index % n);
    index /= n;
  }
  return sum;
}

int64_t swizzled(int64_t x, const std::optional<Swz> &sw) {
  if (!sw || sw->b == 0)
    return x;
  int64_t mask = ((int64_t(1) << sw->b) - 1) << (sw->m + std::max(0, sw->s));
  int64_t y = x & mask;
  return x ^ (sw->s >= 0 ? y >> sw->s : y << -sw->s);
}

int64_t evaluate(const Tree &root, const std::optional<Swz> &sw, int64_t index) {
  return swizzled(offsetOf(root, index), sw);
}

std::string text(const Tree &t, bool strides) {
  if (!t.tuple)
    return std::to_string(strides ? t.stride : t.size);
  std::string s = "(";
  for (size_t i = 0; i < t.kids.size(); ++i)
    s += (i ? "," : "") + text(t.kids[i], strides);
  return s + ")";
}

std::string text(const Tree &root, const std::optional<Swz> &sw) {
  std::string s;
  if (sw)
    s = "Swizzle<" + std::to_string(sw->b) + "," + std::to_string(sw->m) + "," +
        std::to_string(sw->s) + "> o ";
  return s + text(root, false) + ":" + text(root, true);
}

// ---- generators
// ----------------------------------------------------------------------------------

std::vector<Tree *> leaves(Tree &t) {
  if (!t.tuple)
    return {&t};
  std::vector<Tree *> out;
  for (Tree &k : t.kids)
    for (Tree *l : leaves(k))
      out.push_back(l);
  return out;
}

// A shape tree of up to 3 top modes, each a leaf or a tuple of up to 3 leaves
// (one nested level more now and then), with at most 12 index bits; sizes are
// powers of two unless `anySize`.
Tree genShape(bool anySize) {
  Tree root;
  root.tuple = *rc::gen::inRange(0, 5) != 0;
  int modes = root.tuple ? *rc::gen::inRange(0, 4) : 0;
  int budget = 12;
  auto leaf = [&] {
    Tree l;
    int k = *rc::gen::inRange(0, std::min(budget, 4) + 1);
    budget -= k;
    l.size = int64_t(1) << k;
    if (anySize && *rc::gen::inRange(0, 6) == 0)
      l.size = *rc::gen::element<int64_t>(3, 5, 6, 12);
    return l;
  };
  if (!root.tuple)
    return leaf();
  for (int m = 0; m < modes; ++m) {
    if (*rc::gen::inRange(0, 2) == 0) {
      root.kids.push_back(leaf());
      continue;
    }
    Tree mode;
    mode.tuple = true;
    int n = *rc::gen::inRange(1, 4);
    for (int i = 0; i < n; ++i) {
      if (*rc::gen::inRange(0, 5) == 0) {
        Tree inner;
        inner.tuple = true;
        inner.kids = {leaf(), leaf()};
        mode.kids.push_back(inner);
      } else {
        mode.kids.push_back(leaf());
      }
    }
    root.kids.push_back(mode);
  }
  return root;
}

// Strides that make the layout linear: each leaf's offset bits are a range of
// its own (in random order, with random gaps), or 0; size-1 leaves take any
// stride.
void linearStrides(Tree &root) {
  std::vector<Tree *> ls = leaves(root);
  std::vector<int> order(ls.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = int(i);
  for (size_t i = order.size(); i > 1; --i)
    std::swap(order[i - 1], order[*rc::gen::inRange<size_t>(0, i)]);
  int cursor = 0;
  for (int i : order) {
    Tree &l = *ls[i];
    if (l.size == 1) {
      l.stride = *rc::gen::inRange(0, 50);
      continue;
    }
    if (*rc::gen::inRange(0, 6) == 0) {
      l.stride = 0;
      continue;
    }
    cursor += *rc::gen::inRange(0, 3);
    l.stride = int64_t(1) << cursor;
    cursor += std::countr_zero(uint64_t(l.size));
  }
}

void anyStrides(Tree &root) {
  for (Tree *l : leaves(root))
    l->stride = *rc::gen::element<int64_t>(0, 1, 2, 3, 4, 6, 8, 16, 32, 5, 64, 12);
}

std::optional<Swz> genSwizzle() {
  if (*rc::gen::inRange(0, 2) == 0)
    return std::nullopt;
  int b = *rc::gen::inRange(1, 4);
  int s = *rc::gen::inRange(b, 5) * (*rc::gen::inRange(0, 3) == 0 ? -1 : 1);
  return Swz{b, *rc::gen::inRange(0, 4), s};
}

int indexBits(const Tree &t) { return std::countr_zero(uint64_t(treeSize(t))); }

bool allPow2(Tree &t) {
  for (Tree *l : leaves(t))
    if (!std::has_single_bit(uint64_t(l->size)))
      return false;
  return true;
}

LinearLayout mustRead(const std::string &s) {
  auto c = parseCuteLayout(s);
  EXPECT_TRUE(c.ok()) << s << ": " << c.message();
  auto l = cuteToLinear(*c);
  EXPECT_TRUE(l.ok()) << s << ": " << l.message();
  return *l;
}

std::string readError(const std::string &s) {
  auto c = parseCuteLayout(s);
  if (!c.ok())
    return c.message();
  auto l = cuteToLinear(*c);
  return l.ok() ? "no error" : l.message();
}

std::vector<uint64_t> columns(const LinearLayout &l) {
  std::vector<uint64_t> c;
  for (int b = 0; b < l.totalInBits(); ++b)
    c.push_back(l.column(b));
  return c;
}

} // namespace

// ---- examples
// -----------------------------------------------------------------------------------

TEST(CuteLayout, RowMajorTile) {
  LinearLayout l = mustRead("(4,8):(8,1)");
  EXPECT_EQ(l.inDimName(0), DimName::dim(0));
  EXPECT_EQ(l.inDimSize(DimName::dim(0)), 4u);
  EXPECT_EQ(l.inDimSize(DimName::dim(1)), 8u);
  EXPECT_EQ(l.outDimSize(DimName::offset()), 32u);
  EXPECT_EQ(columns(l), (std::vector<uint64_t>{8, 16, 1, 2, 4}));
}

TEST(CuteLayout, NestedShapesAndStaticIntegers) {
  LinearLayout l = mustRead("((_2,_4),_8):((_1,_16),_2)");
  EXPECT_EQ(columns(l), (std::vector<uint64_t>{1, 16, 32, 2, 4, 8}));
  EXPECT_EQ(l.inDimSize(DimName::dim(0)), 8u);
  // A shape alone takes CuTe's compact column-major strides.
  EXPECT_EQ(columns(mustRead("(4,(2,2))")), (std::vector<uint64_t>{1, 2, 4, 8}));
  // A rank-1 layout, a size-1 mode of any stride, a broadcast.
  EXPECT_EQ(columns(mustRead("8:2")), (std::vector<uint64_t>{2, 4, 8}));
  EXPECT_EQ(columns(mustRead("(1,4):(7,0)")), (std::vector<uint64_t>{0, 0}));
  // A stride that is not a power of two is linear when no other step shares its
  // bits.
  EXPECT_EQ(columns(mustRead("(2,4):(3,4)")), (std::vector<uint64_t>{3, 4, 8}));
}

TEST(CuteLayout, SwizzleAsCuteWritesIt) {
  for (const char *s : {"Swizzle<3,4,3> o (8,64):(64,1)", "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)",
                        "Sw<3,4,3> ∘ (8,64):(64,1)"}) {
    LinearLayout l = mustRead(s);
    EXPECT_EQ(l.outDimSize(DimName::offset()), 512u) << s;
    // Row 1 (offset 64, bit 6) is not in the yyy bits 7..9; row 2 (bit 7) flips
    // bit 4.
    EXPECT_EQ(l.apply(1), 64u ^ 0);
    EXPECT_EQ(l.apply(2), 128u ^ 16);
    EXPECT_EQ(l.apply(4), 256u ^ 32);
  }
}

TEST(CuteLayout, SwizzledSharedMatchesTritonsSwizzledLayout) {
  // Triton's vec 8, per_phase 1, max_phase 8 over 8x64 is CuTe's Sw<3,3,3> o
  // (8,64):(64,1).
  auto spec = parseLayoutAttr("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
                              "order = [1, 0]}>");
  ASSERT_TRUE(spec.ok()) << spec.message();
  std::vector<int64_t> shape{8, 64};
  auto triton = toLinearLayout(*spec, shape);
  ASSERT_TRUE(triton.ok()) << triton.message();
  auto cute = parseCuteLayout("Sw<3,3,3> o (8,64):(64,1)");
  ASSERT_TRUE(cute.ok());
  auto shared = cuteToShared(*cute);
  ASSERT_TRUE(shared.ok()) << shared.message();
  EXPECT_EQ(
      *shared,
      triton->sublayout(std::vector<DimName>{DimName::offset()}, triton->outDimNames()).value());
  auto back = sharedToCute(*shared);
  ASSERT_TRUE(back.ok()) << back.message();
  EXPECT_EQ(back->toString(), "Sw<3,3,3> o (8,64):(64,1)");
}

TEST(CuteLayout, PrintsLinearLayouts) {
  auto c = linearToCute(mustRead("((2,4),8):((1,16),2)"));
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(c->toString(), "((2,4),8):((1,16),2)");
  auto one = linearToCute(mustRead("((2,4)):((1,16))"));
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->toString(), "((2,4)):((1,16))");
  auto leaf = linearToCute(mustRead("8:4"));
  ASSERT_TRUE(leaf.ok());
  EXPECT_EQ(leaf->toString(), "8:4");
  auto empty = linearToCute(LinearLayout::empty());
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->toString(), "():()");
  // A distributed layout: (register, lane) -> (dim0, dim1) of a 4x8 tile,
  // codomain dim0 + 4*dim1.
  std::vector<InDimBases> ins{{DimName::reg(), {{0, 1}}}, {DimName::lane(), {{1, 0}, {2, 0}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 4}, {DimName::dim(1), 2}};
  auto dist = LinearLayout::fromBases(ins, outs);
  ASSERT_TRUE(dist.ok());
  auto dc = linearToCute(*dist);
  ASSERT_TRUE(dc.ok()) << dc.message();
  EXPECT_EQ(dc->toString(), "(2,4):(4,1)");
}

TEST(CuteLayout, Errors) {
  EXPECT_EQ(readError("(3,4):(1,3)"),
            "cute mode 0 has a leaf of size 3, not a power of two: a linear "
            "layout's dimensions "
            "are powers of two");
  EXPECT_EQ(readError("(2,2):(1,1)"),
            "cute layout (2,2):(1,1) is not linear over F2: index 1 (bit 0 of "
            "mode 0) has offset "
            "1 and index 2 (bit 0 of mode 1) offset 1, so index 3 has offset "
            "2, not 1 xor 1 = 0 "
            "(two steps reach the same offset: the strides overlap)");
  EXPECT_EQ(readError("4:3"), "cute layout 4:3 is not linear over F2: index 1 "
                              "(bit 0 of mode 0) has offset 3 and "
                              "index 2 (bit 1 of mode 0) offset 6, so index 3 "
                              "has offset 9, not 3 xor 6 = 5 (the "
                              "stride 3 is not a power of two)");
  EXPECT_EQ(readError("(4,8):(-1,4)"),
            "cute layout: the stride -1 is negative: a linear layout's offsets "
            "are sums of bits, "
            "never differences");
  EXPECT_EQ(readError("(4,8):(8)"), "cute layout: the stride is not congruent to the shape: the "
                                    "stride should be a tuple of 2 modes");
  EXPECT_EQ(readError("(4,0):(1,1)"), "cute layout: a shape of 0 (sizes are at least 1)");
  EXPECT_EQ(readError("Sw<3,4,2> o (8,64):(64,1)"),
            "Swizzle<3,4,2> has |S| < B (CuTe requires |S| >= B)");
  EXPECT_EQ(readError("Sw<3,4,3> o 5 o (8,64):(64,1)"),
            "the offset 5 makes the layout affine, not linear: a linear layout "
            "maps index 0 to "
            "offset 0");
  EXPECT_EQ(readError("(4,8:(8,1)"), "cute layout: expected ')' at column 5 (':(8,1)')");
  EXPECT_EQ(readError("(4,8):(8,1) x"), "cute layout: expected the end of the layout at column 13 "
                                        "('x')");
  EXPECT_EQ(readError("(4,8):(8,4611686018427387904)"),
            "cute layout: a stride is too large at column 10 "
            "('4611686018427387904)')");
  EXPECT_EQ(readError("(4,8):(8,2305843009213693952)"),
            "cute mode 1: stride 2305843009213693952 over size 8 reaches "
            "offsets past 2^63");

  auto cute = parseCuteLayout("(4,8):(16,1)");
  ASSERT_TRUE(cute.ok());
  auto shared = cuteToShared(*cute);
  ASSERT_FALSE(shared.ok());
  EXPECT_EQ(shared.message(), "cute layout (4,8):(16,1) is not a bijection, so it has no "
                              "shared-memory form: it reaches 32 of the 64 offsets below 64");
  auto bcast = cuteToShared(*parseCuteLayout("(4,8):(0,1)"));
  ASSERT_FALSE(bcast.ok());
  EXPECT_EQ(bcast.message(), "cute layout (4,8):(0,1) is not a bijection, so it has no "
                             "shared-memory form: index 1 has offset 0, as index 0 does");

  std::vector<InDimBases> ins{{DimName::reg(), {{1}, {2}, {3}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 4}};
  auto l = LinearLayout::fromBases(ins, outs);
  ASSERT_TRUE(l.ok());
  auto c = linearToCute(*l);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.message(), "the layout has no CuTe form: basis 0 of 'register' (offset 1) and basis "
                         "2 of 'register' (offset 3) share an offset bit, so CuTe's sum of "
                         "strides "
                         "would carry, and no Swizzle<B,M,S> separates them");
}

// ---- properties
// ---------------------------------------------------------------------------------

LL_PROP(CuteLayout, LinearLayoutsAgreeWithCuteOnEveryIndex, 300, ()) {
  Tree root = genShape(false);
  linearStrides(root);
  std::optional<Swz> sw = genSwizzle();
  std::string s = text(root, sw);
  auto c = parseCuteLayout(s);
  RC_ASSERT(c.ok());
  auto l = cuteToLinear(*c);
  RC_ASSERT(l.ok());
  RC_ASSERT(l->totalInBits() == indexBits(root));
  for (int64_t i = 0; i < treeSize(root); ++i)
    RC_ASSERT(int64_t(l->apply(uint64_t(i))) == evaluate(root, sw, i));
  // The shared form exists exactly for bijections and undoes the map.
  auto shared = cuteToShared(*c);
  RC_ASSERT(shared.ok() == l->isInvertible());
  if (shared.ok()) {
    auto round = shared->then(*l);
    RC_ASSERT(round.ok());
    for (uint64_t x = 0; x < round->outDimSize(DimName::offset()); ++x)
      RC_ASSERT(round->apply(x) == x);
  }
  // Printing the parsed layout gives a text that reads back the same.
  auto again = parseCuteLayout(c->toString());
  RC_ASSERT(again.ok() && *again == *c);
}

LL_PROP(CuteLayout, ReadExactlyWhenCuteIsLinear, 300, ()) {
  Tree root = genShape(true);
  anyStrides(root);
  std::optional<Swz> sw = genSwizzle();
  auto c = parseCuteLayout(text(root, sw));
  RC_ASSERT(c.ok());
  auto l = cuteToLinear(*c);
  if (!allPow2(root)) {
    RC_ASSERT(!l.ok());
    return;
  }
  int bits = indexBits(root);
  bool linear = true;
  for (int64_t i = 0; i < (int64_t(1) << bits) && linear; ++i) {
    int64_t x = 0;
    for (int b = 0; b < bits; ++b)
      if (i >> b & 1)
        x ^= evaluate(root, sw, int64_t(1) << b);
    linear = x == evaluate(root, sw, i);
  }
  RC_ASSERT(l.ok() == linear);
  if (l.ok())
    for (int64_t i = 0; i < (int64_t(1) << bits); ++i)
      RC_ASSERT(int64_t(l->apply(uint64_t(i))) == evaluate(root, sw, i));
}

LL_PROP(CuteLayout, LinearToCuteToLinearRoundTrips, 300, ()) {
  // A CuTe-shaped map (disjoint columns behind an optional swizzle) over random
  // dims.
  int nIn = *rc::gen::inRange(0, 4);
  std::vector<DimSize> ins, outs;
  int inBits = 0;
  for (int d = 0; d < nIn; ++d) {
    int k = *rc::gen::inRange(0, 5);
    ins.push_back({d == 0   ? DimName::reg()
                   : d == 1 ? DimName::lane()
                            : DimName::warp(),
                   uint64_t(1) << k});
    inBits += k;
  }
  int outBits = inBits + *rc::gen::inRange(0, 3);
  int out0 = *rc::gen::inRange(0, outBits + 1);
  outs.push_back({DimName::dim(0), uint64_t(1) << out0});
  outs.push_back({DimName::dim(1), uint64_t(1) << (outBits - out0)});
  std::vector<int> bitsOut(outBits);
  for (int i = 0; i < outBits; ++i)
    bitsOut[i] = i;
  for (size_t i = bitsOut.size(); i > 1; --i)
    std::swap(bitsOut[i - 1], bitsOut[*rc::gen::inRange<size_t>(0, i)]);
  std::optional<Swz> sw = genSwizzle();
  if (sw && sw->b + sw->m + std::abs(sw->s) > outBits)
    sw.reset();
  std::vector<uint64_t> cols(inBits);
  for (int i = 0; i < inBits; ++i) {
    uint64_t c = *rc::gen::inRange(0, 5) == 0 ? 0 : uint64_t(1) << bitsOut[i];
    cols[i] = uint64_t(swizzled(int64_t(c), sw));
  }
  auto l = LinearLayout::fromColumns(ins, outs, cols);
  RC_ASSERT(l.ok());
  auto c = linearToCute(*l);
  RC_ASSERT(c.ok());
  // Its text reads back to the same map.
  auto parsed = parseCuteLayout(c->toString());
  RC_ASSERT(parsed.ok() && *parsed == *c);
  CuteReadOptions o;
  o.inDims = l->inDimNames();
  o.outDim = DimName::dim(0);
  o.outSize = uint64_t(1) << outBits;
  auto back = cuteToLinear(*c, o);
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == l->flattenOuts());
}
