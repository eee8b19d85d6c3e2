// TMA and mbarriers lowered (sm_90): the box plan of a tensor descriptor against its NVMMA layout,
// the tensor-map parameter as a 64-byte aligned 128-byte .param the kernel reads in place, and
// the TMA matmul examples through ptxas -arch=sm_90a.
#include "OpLowering.h"
#include "PtxCheck.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

std::string example(const char *name) {
  std::ifstream f(std::string(LINLAYOUT_SOURCE_DIR) + "/examples/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Expected<TmaBoxPlan> planFor(const std::string &layout, const std::string &block) {
  std::string text = "#s = " + layout +
                     "\nmodule attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = \"cuda:90\"} "
                     "{\n  tt.func @f(%d: !tt.tensordesc<tensor<" +
                     block + ", #s>>) {\n    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "plan.tir");
  if (!m.ok())
    return m.error();
  const ir::Function &f = m->functions.at(0);
  return planTmaBox(*m, f.type(f.body.args.at(0)));
}

const char *kNvmma128 =
    "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>";

} // namespace

// A block as wide as the swizzle is one box; a wider one is boxes side by side, each a
// contiguous swizzle-wide slab of the NVMMA tile; other swizzles and no swizzle likewise.
TEST(Tma, BoxPlanMatchesTheNvmmaLayout) {
  auto a = planFor(kNvmma128, "128x64xf16");
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_EQ(a->box, (std::vector<int64_t>{128, 64}));
  EXPECT_EQ(a->copies, 1);
  EXPECT_EQ(a->swizzleBytes, 128);
  auto b = planFor(kNvmma128, "64x256xf16");
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(b->box, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(b->copies, 4);
  for (int swizzle : {32, 64}) {
    SCOPED_TRACE(swizzle);
    auto p = planFor("#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(swizzle) +
                         ", transposed = false, elementBitWidth = 16}>",
                     "64x64xf16");
    ASSERT_TRUE(p.ok()) << p.message();
    EXPECT_EQ(p->box, (std::vector<int64_t>{64, swizzle / 2}));
    EXPECT_EQ(p->copies, 128 / swizzle);
  }
  auto f32 = planFor("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                     "elementBitWidth = 32}>",
                     "64x32xf32");
  ASSERT_TRUE(f32.ok()) << f32.message();
  EXPECT_EQ(f32->box, (std::vector<int64_t>{64, 32}));
  // A plain row-major tile is an unswizzled box.
  auto plain = planFor("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>",
                       "32x64xf16");
  ASSERT_TRUE(plain.ok()) << plain.message();
  EXPECT_EQ(plain->swizzleBytes, 0);
  EXPECT_EQ(plain->box, (std::vector<int64_t>{32, 64}));
  // A swizzle TMA does not write is an error naming an element.
  auto bad = planFor("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
                     "64x64xf16");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("is not the one a TMA copy"), std::string::npos) << bad.message();
  // Column-major (transposed) NVMMA tiles are not a row-major box.
  auto t = planFor("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, "
                   "elementBitWidth = 16}>",
                   "64x64xf16");
  EXPECT_FALSE(t.ok());
  auto three = planFor("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                       "elementBitWidth = 16}>",
                       "2x64x64xf16");
  EXPECT_FALSE(three.ok());
}

// The examples lower to cp.async.bulk.tensor and mbarrier waits, read the tensor maps in
// parameter space (no copy to local memory), and assemble for sm_90a without spills.
TEST(Tma, ExamplesLowerAndAssemble) {
  for (const char *name : {"matmul_tma.tir", "matmul_tma_wide.tir"}) {
    SCOPED_TRACE(name);
    auto m = ir::parseModule(example(name), name);
    ASSERT_TRUE(m.ok()) << m.message();
    auto k = lowerKernel(*m);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(k->kernel.params.at(0).kind, ParamKind::TensorMap);
    EXPECT_EQ(k->kernel.params.at(0).box, (std::vector<uint32_t>{128, 64}));
    EXPECT_EQ(k->kernel.params.at(1).box, (std::vector<uint32_t>{64, 64}));
    EXPECT_EQ(k->kernel.params.at(1).swizzleBytes, 128);
    EXPECT_EQ(k->kernel.params.at(1).element, "f16");
    EXPECT_PATTERNS(ptx, R"(
      CHECK: .param .align 64 .b8 {{[a-z_]+}}_param_0[128]
      CHECK: .param .align 64 .b8 {{[a-z_]+}}_param_1[128]
      CHECK: mbarrier.init.shared::cta.b64
      CHECK: mbarrier.arrive.expect_tx.shared::cta.b64
      CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
      CHECK: mbarrier.try_wait.parity.shared::cta.b64
      CHECK: wgmma.mma_async
      CHECK: wgmma.wait_group.sync.aligned 1;
      CHECK: mbarrier.inval.shared::cta.b64
    )");
    // The maps stay in parameter space: their generic address, no local copy of them.
    EXPECT_EQ(countLines(ptx, "cvta.param.u64"), 2);
    EXPECT_EQ(ptx.find(".local"), std::string::npos);
    EXPECT_EQ(countLines(ptx, "fence.proxy.async"), 0);
    auto r = expectAssembles(k->kernel, /*requireNoSpills=*/true);
    if (r.accepted)
      std::cout << "[          ] " << name << ": " << r.registers << " registers, "
                << countLines(ptx, "bar.sync") << " bar.sync, "
                << countLines(ptx, "cp.async.bulk.tensor") << " TMA copies in the PTX\n";
    // The pass pipeline keeps it compilable.
    ASSERT_TRUE(ir::runPipeline(*m).ok());
    auto piped = lowerKernel(*m);
    ASSERT_TRUE(piped.ok()) << piped.message();
  }
}

// The copy engine feeding mma.sync: per K step of 64, one expect and 5 TMA copies (A's 128x64
// box, B's 64x256 tile as four 64x64 boxes), then per 16-wide slice 4 + 4 ldmatrix (the B side
// transposed) from the NVMMA tiles and 32 mma.sync per warp (slice 0 of the first step loaded
// before the loop); no wgmma, no cp.async, no spills, through the pass pipeline too.
TEST(Tma, MmaSyncExampleReadsTheTilesWithLdmatrix) {
  auto m = ir::parseModule(example("matmul_tma_mma_wide.tir"), "matmul_tma_mma_wide.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  for (bool piped : {false, true}) {
    SCOPED_TRACE(piped ? "after the pass pipeline" : "as written");
    if (piped) {
      ASSERT_TRUE(ir::runPipeline(*m).ok());
    }
    auto k = lowerKernel(*m);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(k->kernel.params.at(1).box, (std::vector<uint32_t>{64, 64}));
    EXPECT_EQ(countLines(ptx, "cp.async.bulk.tensor"), 3 * 5);
    EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 4 + 16);
    EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), 4 + 16);
    EXPECT_EQ(countLines(ptx, "mma.sync.aligned.m16n8k16"), 128);
    EXPECT_EQ(countLines(ptx, "wgmma"), 0);
    EXPECT_EQ(countLines(ptx, "cp.async.cg"), 0);
    auto r = expectAssembles(k->kernel, /*requireNoSpills=*/true);
    if (r.accepted)
      std::cout << "[          ] matmul_tma_mma_wide.tir: " << r.registers << " registers\n";
  }
}

TEST(Tma, NeedsSm90) {
  auto m = ir::parseModule(example("matmul_tma.tir"), "matmul_tma.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  m->target = "cuda:80";
  auto k = lowerKernel(*m);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("need sm_90"), std::string::npos) << k.message();
}
