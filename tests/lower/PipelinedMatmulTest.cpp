// The matmul example after the pass pipeline with software pipelining: its PTX
// has the cp.async schedule docs/pipelining.md describes (prologue groups, a
// wait_group S-2 and a barrier before the ldmatrix loads, the next stage's
// copies and one commit before the mma.sync instructions, a final wait_group
// 0), and assembles for sm_80 and sm_90 without spills.
#include "PtxCheck.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

Expected<LoweredKernel> pipelinedMatmul(int stages, int sm) {
  std::ifstream f(std::string(LINLAYOUT_SOURCE_DIR) + "/examples/matmul.tir");
  std::stringstream ss;
  ss << f.rdbuf();
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(ss.str(), "matmul.tir"));
  ir::PipelineOptions po;
  po.numStages = stages;
  LL_TRY_STATUS(ir::runPipeline(m, po));
  LowerOptions o;
  o.target = PtxTarget{sm, 80};
  return lowerKernel(m, o);
}

} // namespace

TEST(PipelinedMatmul, PtxHasTheCpAsyncScheduleAndAssemblesWithoutSpills) {
  for (int stages : {2, 3, 4})
    for (int sm : {80, 90}) {
      SCOPED_TRACE("stages " + std::to_string(stages) + ", sm_" +
                   std::to_string(sm));
      auto k = pipelinedMatmul(stages, sm);
      ASSERT_TRUE(k.ok()) << k.message();
      const std::string &ptx = k->kernel.ptx;
      // Per stage 8 16-byte copies per thread (A 128x32 and B 32x128 halves,
      // 128 threads): the prologue's stages - 1 and the loop's one.
      EXPECT_EQ(countLines(ptx, "cp.async.cg.shared.global"), 8 * stages);
      EXPECT_EQ(countLines(ptx, "cp.async.ca.shared.global"), 0);
      EXPECT_EQ(countLines(ptx, "cp.async.commit_group"), stages);
      EXPECT_EQ(countLines(ptx, "cp.async.wait_group"), 2);
      EXPECT_EQ(countLines(ptx, "ld.global"), 0);
      // Per warp and K step: A's 64x32 as 8 ldmatrix.x4, B's 32x64 as 8
      // ldmatrix.x4.trans, and 4 x 8 x 2 mma.sync m16n8k16.
      EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 8);
      EXPECT_EQ(
          countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), 8);
      EXPECT_EQ(countLines(ptx, "mma.sync.aligned.m16n8k16"), 64);
      std::string wait =
          "cp.async.wait_group " + std::to_string(stages - 2) + ";";
      EXPECT_EQ(checkPatterns(ptx, "CHECK: cp.async.cg.shared.global\n"
                                   "CHECK: cp.async.commit_group\n"
                                   "CHECK: " +
                                       wait +
                                       "\n"
                                       "CHECK-NEXT: bar.sync\n"
                                       "CHECK-NOT: mma.sync\n"
                                       "CHECK: ldmatrix\n"
                                       "CHECK-NOT: mma.sync\n"
                                       "CHECK: cp.async.cg.shared.global\n"
                                       "CHECK-NOT: mma.sync\n"
                                       "CHECK: cp.async.commit_group\n"
                                       "CHECK-NEXT: mma.sync\n"
                                       "CHECK: cp.async.wait_group 0;\n"
                                       "CHECK-NEXT: bar.sync\n"),
                "");
      EXPECT_EQ(k->kernel.sharedBytes,
                uint64_t(stages) * (128 * 32 + 32 * 128) * 2);
      auto report = expectAssembles(k->kernel, /*requireNoSpills=*/true);
      if (report.accepted)
        std::printf("stages %d sm_%d: %d registers\n", stages, sm,
                    report.registers);
    }
}
