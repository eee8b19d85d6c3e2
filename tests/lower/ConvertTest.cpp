// convert_layout: the reference pairs (fp16 and fp32, 128x128, 4 warps), planned and emitted;
// the emitted instruction counts equal the plan's counts, and every kernel assembles.
#include "ConversionKernel.h"
#include "ConversionPlanning.h"
#include "KernelHarness.h"
#include "Property.h"
#include "PtxCheck.h"

#include "linlayout/testing/Generators.h"

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/layout/PlanConversion.h"

#include <gtest/gtest.h>

#include <regex>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

// Shared-memory accesses of the PTX by width in bits: index 0..4 = 8..128 bits.
std::array<int, 5> sharedByWidth(const std::string &ptx, const char *op) {
  std::array<int, 5> n{};
  std::regex re(std::string(op) + R"(\.shared(?:\.v(\d))?\.[bfus](\d+))");
  for (std::sregex_iterator it(ptx.begin(), ptx.end(), re), end; it != end; ++it) {
    int vec = (*it)[1].matched ? std::stoi((*it)[1].str()) : 1;
    int bits = vec * std::stoi((*it)[2].str());
    int idx = 0;
    while ((8 << idx) < bits)
      ++idx;
    ++n[idx];
  }
  return n;
}

} // namespace

TEST(Convert, ReferencePairsEmitExactlyThePlannedInstructions) {
  int checked = 0;
  for (const Pair &p : referencePairs())
    for (bool f16 : {true, false}) {
      int64_t shape[] = {128, 128};
      auto src = toLinearLayout(p.src, shape);
      auto dst = toLinearLayout(p.dst, shape);
      ASSERT_TRUE(src.ok() && dst.ok()) << p.name;
      for (const PtxTarget &t : testTargets()) {
        auto plan = planLayoutConversion(*src, *dst, f16 ? 16 : 32, t);
        ASSERT_TRUE(plan.ok()) << p.name << ": " << plan.message();
        auto k = conversionKernel(t, *plan, f16 ? 16 : 32,
                                  std::string(p.name) + (f16 ? "_f16" : "_f32"));
        ASSERT_TRUE(k.ok()) << p.name << " " << t.name() << ": " << k.message();
        const ConversionCost &c = plan->cost;
        std::string what = std::string(p.name) + (f16 ? " f16 " : " f32 ") + t.name();
        const std::string &ptx = k->ptx;
        EXPECT_EQ(countLines(ptx, "shfl.sync"), c.shuffles) << what;
        EXPECT_EQ(countLines(ptx, "selp."), c.selects) << what;
        EXPECT_EQ(countLines(ptx, "prmt.b32"), c.prmts) << what;
        EXPECT_EQ(sharedByWidth(ptx, "st"), c.stores) << what;
        EXPECT_EQ(sharedByWidth(ptx, "ld"), c.loads) << what;
        EXPECT_EQ(countLines(ptx, "stmatrix."), c.stmatrix) << what;
        EXPECT_EQ(countLines(ptx, "ldmatrix."), c.ldmatrix) << what;
        EXPECT_EQ(countLines(ptx, "bar.sync"), c.barriers) << what;
        expectAssembles(*k);
        ++checked;
      }
    }
  EXPECT_EQ(checked, 6 * 2 * 2);
}

// Shuffle plans of random conversions inside warps (forced where shared memory is cheaper),
// 8- to 64-bit elements: the PTX has exactly the shuffles and selects the plan counts.
TEST(Convert, ShufflePlansEmitTheirCountedInstructions) {
  checkProperty(
      [](void) {
        auto pair = *linlayout::testing::warpPair(oneCtaBounds(10));
        int bits = *rc::gen::element(8, 16, 32, 64);
        PlanOptions opt;
        opt.target = GpuTarget::Sm90;
        opt.forcePath = ConversionPath::WarpShuffle;
        auto plan = planConversion(pair.a, pair.b, bits, opt);
        RC_PRE(plan.ok()); // a register permutation, or data a round cannot deliver (broadcast)
        auto k = conversionKernel(PtxTarget{90, 80}, *plan, bits);
        if (!k.ok())
          RC_FAIL(k.message());
        std::string what = "\nsrc: " + pair.a.toString() + "\ndst: " + pair.b.toString();
        if (countLines(k->ptx, "shfl.sync") != plan->cost.shuffles)
          RC_FAIL("shfl " + std::to_string(countLines(k->ptx, "shfl.sync")) + " against " +
                  std::to_string(plan->cost.shuffles) + " planned" + what);
        // A round without a shuffle (a butterfly's Move) hands its sent word straight to the
        // receive selects; LLVM may then fold a select into one on the same condition, so there the
        // plan's count is an upper bound.
        bool straight = false;
        for (const ShuffleRound &r : plan->shuffle.rounds)
          straight |= r.mode == ShuffleMode::Move;
        // A 64-bit element is selected as its two 32-bit halves (ConversionEmitter.cpp).
        int planned = plan->cost.selects * (bits == 64 ? 2 : 1);
        int selp = countLines(k->ptx, "selp.");
        if (straight ? selp > planned : selp != planned)
          RC_FAIL("selp " + std::to_string(selp) + " against " + std::to_string(planned) +
                  " planned, " + std::to_string(bits) + "-bit" + what);
      },
      100);
}

// Any plan the planner makes for random distributed layouts (register, lane, warp; elements of
// 8 to 64 bits) is emitted into a valid LLVM module.
TEST(Convert, EveryPlanOfRandomLayoutsIsEmitted) {
  checkProperty(
      [](void) {
        auto pair = *linlayout::testing::distributedPair(oneCtaBounds(10));
        // The planner converts between layouts of one CTA shape.
        RC_PRE(pair.a.inDimSize(DimName::warp()) == pair.b.inDimSize(DimName::warp()));
        int bits = *rc::gen::element(8, 16, 32, 64);
        PtxTarget t{*rc::gen::element(80, 90), 80};
        auto plan = planLayoutConversion(pair.a, pair.b, bits, t);
        if (!plan.ok())
          RC_FAIL("planner: " + plan.message());
        KernelSpec spec;
        spec.name = "convert";
        spec.params = {{"in", ParamKind::GlobalPointer, 64, 16},
                       {"out", ParamKind::GlobalPointer, 64, 16}};
        spec.threadsPerBlock = 32 * static_cast<int>(pair.a.inDimSize(DimName::warp()));
        auto kb = KernelBuilder::create(spec);
        RC_ASSERT(kb.ok());
        Status s = emitConversionKernel(**kb, t, *plan, bits);
        if (!s.ok())
          RC_FAIL(s.message() + "\nsrc: " + pair.a.toString() + "\ndst: " + pair.b.toString());
        (*kb)->b().CreateRetVoid();
        RC_ASSERT(verifyModule((*kb)->module()).ok());
      },
      1000);
}

// A shared-memory conversion in several rounds whose source holds copies (only one thread of each
// copy stores, in a block of its own every round): each round's stores compute their addresses
// from values that dominate them, and the kernel is a valid module that assembles (the store
// addresses were once cached across the rounds' blocks: "Instruction does not dominate all
// uses").
TEST(Convert, PredicatedStoresOverSeveralRoundsEmitAValidKernel) {
  int64_t shape[] = {128, 128};
  // 8 warps of 8 x 32 elements span 256 columns: warps 4-7 hold copies of warps 0-3. The f32
  // tile is 64 KiB, the scratch at most 32 KiB: two rounds.
  auto src = toLinearLayout(blocked({1, 8}, {8, 4}, {1, 8}, {1, 0}), shape);
  auto mma = parseLayoutAttr("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
                             "[2, 4], instrShape = [16, 8]}>");
  ASSERT_TRUE(src.ok() && mma.ok());
  auto dst = toLinearLayout(*mma, shape);
  ASSERT_TRUE(dst.ok()) << dst.message();
  for (const PtxTarget &t : testTargets()) {
    auto plan = planLayoutConversion(*src, *dst, 32, t);
    ASSERT_TRUE(plan.ok()) << plan.message();
    ASSERT_EQ(plan->path, ConversionPath::SharedMemory);
    EXPECT_EQ(plan->shared.rounds, 2);
    EXPECT_GT(plan->shared.storePredicate.totalOutBits(), 0);
    auto k = conversionKernel(t, *plan, 32);
    ASSERT_TRUE(k.ok()) << k.message();
    expectAssembles(*k);
  }
}
