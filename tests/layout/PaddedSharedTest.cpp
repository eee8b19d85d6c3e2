// The padded shared layout: Triton's attribute texts and its refusals, padded addresses and
// sizes, the linear part, and bank conflicts through padding; properties against a brute-force
// evaluator (division instead of shifts for the padding, XOR of bases for the linear part).
//
// Triton's texts and errors are those of its own tests (test/TritonGPU/invalid-attributes.mlir
// and the AMD buffer_load_to_local_padded_shared and memdesc_reinterpret cases), found by search:
// Triton aborts (a verifier error) where these return errors.
#include "BruteForce.h"
#include "GTestProperty.h"
#include "SpecGen.h"
#include "SpecTestUtil.h"

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/BankConflicts.h"
#include "linlayout/layout/CtaSplit.h"
#include "linlayout/layout/LayoutSpec.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

using namespace linlayout;
using namespace linlayout::testing;

namespace {

PaddedSharedSpec rowMajor(std::vector<PadInterval> pads, I64s shape) {
  I64s order;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d)
    order.push_back(d);
  return ok(PaddedSharedSpec::identityFor(std::move(pads), shape, order));
}

std::string parseError(std::string_view text) {
  auto r = parseLayoutAttr(text);
  return r.ok() ? "ok: " + printLayoutAttr(*r) : r.message();
}

// The padding of `offset` the obvious way: one `padding` per whole `interval` before it.
int64_t paddedByDivision(int64_t offset, const std::vector<PadInterval> &pads) {
  int64_t r = offset;
  for (const PadInterval &p : pads)
    r += (offset / p.interval) * p.padding;
  return r;
}

} // namespace

TEST(PaddedShared, AddressesAndSize) {
  PaddedSharedSpec s = rowMajor({{32, 4}}, {64, 32});
  EXPECT_EQ(s.paddedOffset(0), 0);
  EXPECT_EQ(s.paddedOffset(31), 31);
  EXPECT_EQ(s.paddedOffset(32), 36); // row 1 starts 36 elements in
  EXPECT_EQ(s.paddedOffset(64), 72);
  EXPECT_EQ(s.paddedSize(), 2048 + 64 * 4 - 4); // no padding after the last row
  PaddedSharedSpec two = rowMajor({{32, 4}, {64, 8}}, {64, 32});
  EXPECT_EQ(two.paddedOffset(64), 64 + 2 * 4 + 8);
  EXPECT_EQ(two.order(), (I64s{1, 0}));
}

TEST(PaddedShared, LinearPartIsTheOffsetAndBlockBases) {
  auto s = ok(PaddedSharedSpec::make({{16, 2}}, {{0, 1}, {0, 2}, {1, 0}}, {{2, 0}}, {4, 4}));
  EXPECT_EQ(ok(toLinearLayout(s, I64s{4, 4})),
            layoutOf({{"offset", {{0, 1}, {0, 2}, {1, 0}}}, {"block", {{2, 0}}}}, {4, 4}));
  auto other = toLinearLayout(s, I64s{8, 4});
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.message(), "padded_shared: shape [8, 4] differs from the layout's shape [4, 4]");
  EXPECT_EQ(numCtasOf(LayoutSpec(s)), 2);
  EXPECT_EQ(sharedPadding(s).size(), 1u);
  EXPECT_TRUE(sharedPadding(LayoutSpec(ok(SharedLinearSpec::make({{1}}, {})))).empty());
}

TEST(PaddedShared, ReadsAndPrintsTritonsAttributes) {
  // The AMD buffer_load_to_local_padded_shared case: offsets that are not an identity.
  std::string general = "#ttg.padded_shared<[64:+4] {offset = [[1], [2], [4], [8], [64], [128], "
                        "[16], [32]], block = []}>";
  auto g = ok(parseLayoutAttr(general));
  ASSERT_TRUE(g.as<PaddedSharedSpec>());
  EXPECT_EQ(g.as<PaddedSharedSpec>()->shape(), (I64s{256}));
  EXPECT_EQ(printLayoutAttr(g), general);
  // The short form: an identity in `order`, one CTA; Triton prints it back so.
  std::string identity = "#ttg.padded_shared<[512:+16] {order = [0, 1], shape = [128, 64]}>";
  auto i = ok(parseLayoutAttr(identity));
  EXPECT_EQ(i.as<PaddedSharedSpec>()->offsetBases().front(), (I64s{1, 0}));
  EXPECT_EQ(printLayoutAttr(i), identity);
  EXPECT_EQ(printLayoutAttr(ok(parseLayoutAttr(
                "#ttg.padded_shared<[128:+8,256:+4] {order = [1, 0], shape = [16, 128]}>"))),
            "#ttg.padded_shared<[128:+8, 256:+4] {order = [1, 0], shape = [16, 128]}>");
  // An identity written as bases is printed in the short form too.
  EXPECT_EQ(printLayoutAttr(ok(parseLayoutAttr(
                "#ttg.padded_shared<[2:+1] {offset = [[0, 1], [1, 0]], block = []}>"))),
            "#ttg.padded_shared<[2:+1] {order = [1, 0], shape = [2, 2]}>");
  EXPECT_EQ(attrAliasStem(i), "shared");
}

// Triton's invalid-attributes cases, one by one.
TEST(PaddedShared, TritonsRefusalsAreErrors) {
  EXPECT_EQ(parseError("#ttg.padded_shared<[3:+2] {offset=[[0]], block=[]}>"),
            "1:1: padded_shared: interval 3 is not a power of two (1 to 2^31)");
  EXPECT_EQ(parseError("#ttg.padded_shared<[0:+2] {offset=[[1]], block=[]}>"),
            "1:1: padded_shared: interval 0 is not a power of two (1 to 2^31)");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:+3] {offset=[[1]], block=[]}>"),
            "1:1: padded_shared: padding 3 of interval 2 is not a power of two (1 to 2^31)");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:+0] {offset=[[1]], block=[]}>"),
            "1:1: padded_shared: padding 0 of interval 2 is not a power of two (1 to 2^31)");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:+1, 2:+4] {offset=[[1]], block=[]}>"),
            "1:1: padded_shared: interval 2 is given twice");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:+1, 4:+2] {unknown = 5}>"),
            "1:1: '#ttg.padded_shared' needs 'order'");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [2, 0]], block = [], "
                       "order=[0, 1]}>"),
            "1:73: '#ttg.padded_shared' has no field 'order' (its fields: offset, block)");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:+1, 4:+2] {offset = [[1, 0], [3, 0]], block = []}>"),
            "1:1: padded_shared: offset[1] [3, 0] has entry 3, expected 0 or a power of two "
            "below shape[0] = 4");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:+1] {offset = [[1, 0], [1, 1]], block = []}>"),
            "1:1: padded_shared: offset[1] [1, 1] moves more than one dimension, expected each "
            "basis to move one dimension");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:+1] {offset = [[1], [1]], block = []}>"),
            "1:1: padded_shared: the bases do not reach each element of shape [2] exactly once "
            "(2 bases for 1 bits)");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:+1] {offset = [[0], [1]], block = []}>"),
            "1:1: padded_shared: offset[0] [0] is zero (a broadcast), expected each basis to "
            "move one dimension");
  EXPECT_EQ(parseError("#ttg.padded_shared<{order = [0], shape = [4]}>"),
            "1:1: '#ttg.padded_shared' needs a list [a:+b, ...] before its fields");
  EXPECT_EQ(parseError("#ttg.padded_shared<[] {order = [0], shape = [4]}>"),
            "1:1: padded_shared: interval_padding_pairs is empty, expected at least one "
            "[interval, padding] pair");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:+1] {order = [1, 0], shape = [4]}>"),
            "1:1: padded_shared: shape has 1 entries but order has 2");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2:4] {order = [0], shape = [4]}>"),
            "1:23: expected '+' after ':' in a pair like 32:+4, found '4'");
  EXPECT_EQ(parseError("#ttg.padded_shared<[2] {order = [0], shape = [4]}>"),
            "1:21: the list of '#ttg.padded_shared' must hold pairs like 32:+4");
  EXPECT_EQ(parseError("#ttg.blocked<[2:+1] {sizePerThread = [1], threadsPerWarp = [32], "
                       "warpsPerCTA = [4], order = [0]}>"),
            "1:14: '#ttg.blocked' takes no list before its fields");
  EXPECT_EQ(PaddedSharedSpec::make({{4, 4}}, {{1, 0}}, {}, {2, 2}).message(),
            "padded_shared: the bases do not reach each element of shape [2, 2] exactly once "
            "(1 bases for 2 bits)");
}

// A warp reading a column of a 32x32 fp32 row-major tile: every lane hits the same bank; one
// element of padding per row spreads the column over all 32 banks.
TEST(PaddedShared, PaddingRemovesColumnConflicts) {
  I64s shape{32, 32};
  auto reg =
      ok(toLinearLayout(LayoutSpec(ok(BlockedSpec::make({1, 1}, {32, 1}, {1, 4}, {0, 1}))), shape));
  PaddedSharedSpec unpadded = rowMajor({{4096, 1}}, shape); // never reached
  PaddedSharedSpec padded = rowMajor({{32, 1}}, shape);
  auto shared = ok(toLinearLayout(unpadded, shape));
  EXPECT_EQ(ok(bankConflicts(reg, shared, 32)), 31);
  EXPECT_EQ(ok(bankConflicts(reg, shared, 32, 32, unpadded.padding())), 31);
  EXPECT_EQ(ok(bankConflicts(reg, shared, 32, 32, padded.padding())), 0);
  EXPECT_EQ(ok(bankConflicts(reg, shared, 32, 64, padded.padding())), 0);
  EXPECT_EQ(bankConflicts(reg, shared, 4, 32, padded.padding()).message(),
            "element bitwidth 4 is below 8: bank conflicts through a padded layout need whole "
            "bytes");
}

LL_PROP(PaddedSharedProps, AddressesAreOffsetsPlusWholeIntervalsOfPadding, 300, ()) {
  PaddedSharedSpec s = *paddedSharedSpec(*rc::gen::inRange(1, 4));
  int64_t n = int64_t(1) << s.offsetBases().size();
  int64_t prev = -1;
  for (int64_t o = 0; o < n; ++o) {
    int64_t a = s.paddedOffset(o);
    RC_ASSERT(a == paddedByDivision(o, s.padding()));
    RC_ASSERT(a > prev); // strictly increasing, so no two offsets share an address
    prev = a;
  }
  RC_ASSERT(s.paddedSize() == prev + 1);
}

LL_PROP(PaddedSharedProps, LinearPartIsTheBasesAndABijection, 300, ()) {
  PaddedSharedSpec s = *paddedSharedSpec(*rc::gen::inRange(1, 4));
  LinearLayout l = ok(toLinearLayout(s, s.shape()));
  bruteforce::Ref ref(l);
  RC_ASSERT(ref.inNames == (std::vector<DimName>{DimName::offset(), DimName::block()}));
  RC_ASSERT(ref.inBits ==
            (std::vector<int>{int(s.offsetBases().size()), int(s.blockBases().size())}));
  for (size_t i = 0; i < s.offsetBases().size(); ++i)
    for (size_t d = 0; d < s.shape().size(); ++d)
      RC_ASSERT(ref.bases[0][i][d] == uint64_t(s.offsetBases()[i][d]));
  Enumerated e = enumerate(l);
  RC_ASSERT(e.injective);
  int64_t size = 1;
  for (int64_t x : s.shape())
    size *= x;
  RC_ASSERT(e.distinct == uint64_t(size));
}

LL_PROP(PaddedSharedProps, AttributeRoundTrip, 300, ()) {
  LayoutSpec s(*paddedSharedSpec(*rc::gen::inRange(1, 4)));
  std::string text = printLayoutAttr(s);
  RC_LOG() << text << "\n";
  auto back = parseLayoutAttr(text);
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == s);
}

// Where no padding is ever reached, the brute-force count through padding is the exact count
// of the linear layout (32 banks, whole bytes).
LL_PROP(PaddedSharedProps, UnreachedPaddingCountsAsTheLinearLayout, 200, ()) {
  int rank = *rc::gen::inRange(1, 3);
  PaddedSharedSpec s = *paddedSharedSpec(rank, 10, /*withBlocks=*/false);
  std::vector<PadInterval> far;
  for (const PadInterval &p : s.padding())
    far.push_back({int64_t(1) << 20, p.padding});
  BlockedSpec b = *blockedSpec(rank, /*withCga=*/false);
  auto reg = toLinearLayout(LayoutSpec(b), s.shape());
  RC_PRE(reg.ok());
  LinearLayout shared = ok(toLinearLayout(s, s.shape()));
  int bits = int(*rc::gen::element<int64_t>(8, 16, 32, 64));
  auto exact = analyzeSharedLoad(*reg, shared, bits);
  RC_PRE(exact.ok());
  auto padded = bankConflicts(*reg, shared, bits, 32, far);
  RC_ASSERT(padded.ok());
  RC_ASSERT(*padded == exact->extraPerPhase);
}
