// Bank conflicts: Triton's rule on named cases, the exact count against a brute-force count of
// the wavefronts over real lane addresses, and the vectorisation rule's Ensures.
#include "PlanProperty.h"
#include "RandomLayouts.h"
#include "SpecTestUtil.h"

#include "linlayout/layout/BankConflicts.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/layout/SharedMemoryModel.h"

#include <gtest/gtest.h>

#include <map>

using namespace linlayout;
using namespace linlayout::testing;

namespace {

LinearLayout linear(const LayoutSpec &s, std::vector<int64_t> shape) {
  return ok(toLinearLayout(s, shape));
}

uint64_t packed(const LinearLayout &l, std::vector<DimValue> in) {
  auto out = ok(l.apply(in));
  uint64_t w = 0;
  for (int o = 0; o < l.numOutDims(); ++o)
    w |= out[o].value << l.outDimOffset(o);
  return w;
}

// Wavefronts of the instruction loading register 0 (and its vector) in warp 0, counted over the
// 32 lane addresses with the brute-force bank model.
int bruteWavefronts(const LinearLayout &reg, const LinearLayout &shared, int bits, int vec) {
  std::map<uint64_t, uint64_t> offsetOf;
  for (uint64_t o = 0; o < shared.inDimSize(DimName::offset()); ++o)
    offsetOf[packed(shared, {{DimName::offset(), o}})] = o;
  std::vector<uint64_t> addr;
  for (uint64_t l = 0; l < 32; ++l)
    addr.push_back(offsetOf.at(packed(reg, {{DimName::lane(), l}})) * (bits / 8));
  return countWavefronts(addr, vec * bits / 8);
}

} // namespace

TEST(BankConflicts, TritonReferenceExamples) {
  // From ../shared/reference (Triton 3.6): a 64-bit read of a row-major tile without swizzle.
  auto reg = linear(blocked({1, 4}, {16, 2}, {4, 1}, {0, 1}), {64, 128});
  auto sh = linear(swizzled(8, 1, 1, {1, 0}), {64, 128});
  EXPECT_EQ(ok(bankConflicts(reg, sh, 16)), 15);
  // mma v2 accumulator read from a 128-byte NVMMA swizzle of 16-bit data: conflict-free.
  auto acc = linear(mma(2, {1, 1}, {16, 8}), {32, 128});
  auto nv = linear(ok(NvmmaSharedSpec::make(128, 16, 2, false)), {32, 128});
  EXPECT_EQ(ok(bankConflicts(acc, nv, 16)), 0);
}

TEST(BankConflicts, SixtyFourBanksServeTwiceTheRow) {
  // Each warp reads one column of a row-major 32x32 tile of 32-bit elements (rows of 128 bytes),
  // one element per lane: with 32 banks every lane hits bank 0 of another row (31 extra
  // wavefronts); with gfx950's 64 banks the odd rows fall in the other half of the banks (15).
  auto reg = linear(blocked({1, 1}, {32, 1}, {1, 32}, {0, 1}), {32, 32});
  auto sh = linear(swizzled(1, 1, 1, {1, 0}), {32, 32});
  EXPECT_EQ(ok(bankConflicts(reg, sh, 32)), 31);
  EXPECT_EQ(ok(bankConflicts(reg, sh, 32, 64)), 15);
  // A 64-lane wavefront of 4-byte accesses is one phase with 64 banks: rows 2..32 collide.
  auto wave = linear(blocked({1, 1}, {64, 1}, {1, 32}, {0, 1}), {64, 32});
  EXPECT_EQ(ok(bankConflicts(wave, linear(swizzled(1, 1, 1, {1, 0}), {64, 32}), 32, 64)), 31);
  EXPECT_FALSE(bankConflicts(reg, sh, 32, 48).ok());
}

TEST(BankConflicts, RepeatedCgaBasesCountAsTriton36CountsThem) {
  // Cases Triton 3.6 answered (tests/reference/triton36-cases.jsonl.gz has more). A CGA layout
  // that repeats a basis splits a shared tile by 2 per basis (Triton's CTASplitNum), so these
  // 4 CTAs of [[1, 0], [1, 0]] hold 1 row of a 4-row tile each ...
  auto cga2 = [](std::vector<std::vector<int64_t>> b) { return ok(CgaLayout::fromBases(b, 2)); };
  auto sw = [](int64_t vec, int64_t perPhase, int64_t maxPhase, CgaLayout c) {
    return LayoutSpec(ok(SwizzledSharedSpec::make(vec, perPhase, maxPhase, {0, 1}, c)));
  };
  auto reg = linear(mma(2, {1, 1}, {16, 8}, {{1, 0}, {1, 0}}), {4, 64});
  EXPECT_EQ(ok(bankConflicts(reg, linear(sw(4, 2, 8, cga2({{1, 0}, {1, 0}})), {4, 64}), 32)), 1);
  // ... and a repeated block basis among the segment bases counts once per listing.
  auto wide = linear(mma(3, {4, 1}, {16, 8, 16}, {{0, 1}}), {256, 16});
  auto sh = ok(SwizzledSharedSpec::make(1, 2, 1, {1, 0}, cga2({{0, 1}, {0, 1}, {0, 2}})));
  EXPECT_EQ(ok(bankConflicts(wide, linear(LayoutSpec(sh), {256, 16}), 32)), 7);
}

TEST(BankConflicts, ExactCountOfAVectorisedRead) {
  // 8 lanes of a phase read 16 bytes each down one column of a row-major 64x128 f16 tile: all
  // in bank group 0 of 8 different rows -> 8 wavefronts per phase, 32 in all.
  auto reg = linear(blocked({1, 8}, {32, 1}, {1, 1}, {1, 0}), {64, 128});
  auto sh = linear(swizzled(8, 1, 1, {1, 0}), {64, 128});
  SharedLoadCost c = ok(analyzeSharedLoad(reg, sh, 16));
  EXPECT_EQ(c.vectorElements, 8);
  EXPECT_EQ(c.phases, 4);
  EXPECT_EQ(c.wavefronts, 32);
  EXPECT_EQ(c.extraPerPhase, 7);
  EXPECT_EQ(ok(bankConflicts(reg, sh, 16)), 7);
  EXPECT_EQ(bruteWavefronts(reg, sh, 16, c.vectorElements), 32);
}

TEST(BankConflicts, Errors) {
  auto reg = linear(blocked({1, 4}, {16, 2}, {4, 1}, {0, 1}), {64, 128});
  auto sh = linear(swizzled(8, 1, 1, {1, 0}), {64, 128});
  auto small = linear(swizzled(8, 1, 1, {1, 0}), {64, 64});
  EXPECT_EQ(bankConflicts(reg, sh, 12).message(),
            "element bitwidth 12 is not a power of two between 1 and 128");
  EXPECT_EQ(bankConflicts(reg, small, 16).message(),
            "out dimension 'dim1' has size 128 in the register layout and 64 in the shared "
            "layout");
  EXPECT_EQ(bankConflicts(reg, reg, 16).message(),
            "the shared layout has no 'offset' input dimension");
  EXPECT_EQ(analyzeSharedLoad(reg, sh, 4).message(),
            "element bitwidth 4 is below 8: exact bank analysis needs whole bytes");
}

// analyzeSharedLoad's Ensures: the wavefront count equals the brute-force count over the lane
// addresses, and Triton's rule never counts more (equal once an access covers a 4-byte word).
PLAN_PROP(BankConflicts, ExactCountMatchesBruteForce, 1000) {
  Rng rng(seed);
  int rows = uniform(rng, 2, 7), cols = uniform(rng, 2, 7);
  int regBits = std::max(0, rows + cols - 5 - 2);
  auto reg = randomDistributed(rng, rows, cols, regBits + uniform(rng, 0, 1), 2, 0,
                               uniform(rng, 0, 1), uniform(rng, 0, 1));
  RC_PRE(reg.has_value());
  LinearLayout sh = randomShared(rng, rows, cols);
  int bits = 8 << uniform(rng, 0, 3);
  auto exact = analyzeSharedLoad(*reg, sh, bits);
  RC_ASSERT(exact.ok());
  RC_ASSERT(exact->wavefronts == exact->phases * (exact->extraPerPhase + 1));
  RC_ASSERT(exact->wavefronts == bruteWavefronts(*reg, sh, bits, exact->vectorElements));
  int triton = *bankConflicts(*reg, sh, bits);
  RC_ASSERT(triton <= exact->extraPerPhase);
  if (exact->accessBytes >= 4)
    RC_ASSERT(triton == exact->extraPerPhase);
}

// widestSharedVector's Ensures, checked column by column.
PLAN_PROP(BankConflicts, WidestVectorIsAlignedAndMaximal, 1000) {
  Rng rng(seed);
  int rows = uniform(rng, 2, 6), cols = uniform(rng, 2, 6);
  auto reg = randomDistributed(rng, rows, cols, std::max(0, rows + cols - 6), 1, 0,
                               uniform(rng, 0, 1), uniform(rng, 0, 1));
  RC_PRE(reg.has_value());
  LinearLayout sh = randomShared(rng, rows, cols);
  auto cvt = reg->removeZeroBases(DimName::reg()).invertAndCompose(sh);
  RC_ASSERT(cvt.ok());
  int maxElems = 1 << uniform(rng, 0, 4);
  int v = widestSharedVector(*cvt, maxElems);
  auto valid = [&](int vec) {
    int k = __builtin_ctz(unsigned(vec));
    uint64_t low = uint64_t(vec) - 1;
    std::vector<bool> used(cvt->totalInBits(), false);
    int regBits = cvt->inDimBits(DimName::reg());
    for (int j = 0; j < k; ++j) {
      bool found = false;
      for (int b = 0; b < regBits && !found; ++b)
        if (!used[b] && cvt->column(b) == (uint64_t(1) << j))
          used[b] = found = true;
      if (!found)
        return false;
    }
    for (int b = 0; b < cvt->totalInBits(); ++b)
      if (!used[b] && (cvt->column(b) & low))
        return false;
    return true;
  };
  RC_ASSERT(v >= 1 && v <= maxElems);
  RC_ASSERT(valid(v));
  if (v < maxElems)
    RC_ASSERT(!valid(2 * v));
}
