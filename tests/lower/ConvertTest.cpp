// convert_layout: the reference pairs (fp16 and fp32, 128x128, 4 warps), planned and emitted;
// the emitted instruction counts equal the plan's counts, and every kernel assembles.
#include "ConversionEmitter.h"
#include "ConversionPlanning.h"
#include "KernelHarness.h"
#include "LayoutIndex.h"
#include "PtxCheck.h"

#include "linlayout/layout/LayoutSpec.h"

#include <gtest/gtest.h>

#include <regex>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

struct Pair {
  const char *name;
  LayoutSpec src, dst;
};

LayoutSpec blocked(std::vector<int64_t> spt, std::vector<int64_t> tpw, std::vector<int64_t> wpc,
                   std::vector<int64_t> order) {
  return BlockedSpec::make(spt, tpw, wpc, order).value();
}

std::vector<Pair> referencePairs() {
  LayoutSpec mma2 = NvidiaMmaSpec::make(2, 0, {2, 2}, {16, 8}).value();
  LayoutSpec mma3 = NvidiaMmaSpec::make(3, 0, {4, 1}, {16, 128, 16}).value();
  return {
      {"transpose", blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}), blocked({4, 1}, {8, 4}, {1, 4}, {0, 1})},
      {"lanes_only", blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}), blocked({1, 4}, {8, 4}, {4, 1}, {1, 0})},
      {"order_swap", blocked({2, 2}, {8, 4}, {4, 1}, {1, 0}), blocked({2, 2}, {8, 4}, {4, 1}, {0, 1})},
      {"mma2_to_blocked", mma2, blocked({1, 8}, {4, 8}, {4, 1}, {1, 0})},
      {"mma3_to_blocked", mma3, blocked({1, 8}, {4, 8}, {4, 1}, {1, 0})},
      {"mma2_to_transposed", mma2, blocked({4, 1}, {8, 4}, {1, 4}, {0, 1})},
  };
}

// out = in through the conversion: each thread loads its source elements (row-major), converts,
// stores its destination elements.
Expected<KernelPtx> conversionKernel(const PtxTarget &t, const ConversionPlan &plan, bool f16,
                                     const std::string &name = "convert") {
  return buildKernel(t, name, 128, [&](KernelBuilder &kb, const PtxTarget &tgt) -> Status {
    auto &b = kb.b();
    llvm::Type *ty = f16 ? b.getHalfTy() : b.getFloatTy();
    int64_t stride[] = {f16 ? 2 : 4};
    auto rowMajor = [](const LinearLayout &l) {
      std::vector<DimName> rev;
      for (int o = l.numOutDims() - 1; o >= 0; --o)
        rev.push_back(l.outDimName(o));
      return l.transposeOuts(rev).value().flattenOuts(DimName::offset());
    };
    LL_ASSIGN_OR_RETURN(auto srcIx, LayoutIndexer::create(rowMajor(plan.src)));
    LL_ASSIGN_OR_RETURN(auto dstIx, LayoutIndexer::create(rowMajor(plan.dst)));
    IndexEmitter se(srcIx, b, kb.threadId(), nullptr), de(dstIx, b, kb.threadId(), nullptr);
    std::vector<llvm::Value *> src;
    for (uint64_t r = 0; r < srcIx.numRegisters(); ++r) {
      SplitOffset so = se.linearOffset(r, stride);
      llvm::Value *p = b.CreateConstGEP1_64(
          b.getInt8Ty(), b.CreateGEP(b.getInt8Ty(), kb.param(0), so.variable), so.constant);
      src.push_back(b.CreateLoad(ty, p));
    }
    ConversionEnv env;
    env.thread = kb.threadId();
    env.target = tgt;
    if (plan.path == ConversionPath::SharedMemory) {
      env.scratch = kb.sharedBase();
      kb.useSharedBytes(static_cast<uint64_t>(plan.shared.scratchBytes));
    }
    LL_ASSIGN_OR_RETURN(auto dst, emitConversion(b, env, plan, src));
    for (uint64_t r = 0; r < dstIx.numRegisters(); ++r) {
      SplitOffset so = de.linearOffset(r, stride);
      llvm::Value *p = b.CreateConstGEP1_64(
          b.getInt8Ty(), b.CreateGEP(b.getInt8Ty(), kb.param(1), so.variable), so.constant);
      b.CreateStore(dst[r], p);
    }
    return Status::success();
  });
}

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
        auto k = conversionKernel(t, *plan, f16, std::string(p.name) + (f16 ? "_f16" : "_f32"));
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

TEST(Convert, FallbackPlansCoverEveryPath) {
  int64_t shape[] = {32, 32};
  auto a = toLinearLayout(blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}), shape).value();
  auto same = fallbackConversionPlan(a, a, 32);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->path, ConversionPath::NoOp);
  // Swapping which register bit steps which column: a register permutation.
  auto b = toLinearLayout(blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}), std::vector<int64_t>{32, 32})
               .value()
               .permuteInBits(DimName::reg(), std::vector<int>{1, 0, 2})
               .value();
  auto perm = fallbackConversionPlan(a, b, 32);
  ASSERT_TRUE(perm.ok()) << perm.message();
  EXPECT_EQ(perm->path, ConversionPath::RegisterPermute);
  for (const PtxTarget &t : testTargets()) {
    auto k = conversionKernel(t, *perm, false);
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(countLines(k->ptx, "bar.sync"), 0);
    EXPECT_EQ(countLines(k->ptx, "shfl.sync"), 0);
    expectAssembles(*k);
  }
}
