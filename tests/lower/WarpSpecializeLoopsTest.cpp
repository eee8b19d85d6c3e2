// The automatically warp-specialized matmul (examples/matmul_tma_autows.tir after the pass
// pipeline, whose warp-specialize-loops pass splits its marked loop) lowered for sm_90a: the
// register budgets set, the producer's waits on the empty barriers and the consumers' arrivals
// on them, and ptxas assembling it without spills or local memory, as the hand-written
// examples/matmul_ws.tir does.
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

} // namespace

TEST(WarpSpecializeLoops, AutoSpecializedMatmulLowersAndAssembles) {
  auto m = ir::parseModule(example("matmul_tma_autows.tir"), "matmul_tma_autows.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  std::vector<std::string> remarks;
  ir::PipelineOptions po;
  po.remarks = &remarks;
  ASSERT_TRUE(ir::runPipeline(*m, po).ok());
  EXPECT_TRUE(remarks.empty()) << remarks.front();
  LowerOptions o;
  o.target = PtxTarget::parse("sm_90a").value();
  auto k = lowerKernel(*m, o);
  ASSERT_TRUE(k.ok()) << k.message();
  const std::string &ptx = k->kernel.ptx;
  // One warp group of consumers and the producer's warp (padded to a warp group).
  EXPECT_EQ(k->kernel.threadsPerBlock, 256);
  EXPECT_PATTERNS(ptx, R"(
    CHECK: mbarrier.init.shared::cta.b64
    CHECK: setmaxnreg.{{(inc|dec)}}.sync.aligned.u32 {{(232|40)}};
    CHECK: setmaxnreg.{{(inc|dec)}}.sync.aligned.u32 {{(232|40)}};
  )");
  EXPECT_EQ(countLines(ptx, "setmaxnreg.{{(inc|dec)}}.sync.aligned.u32 232;"), 1);
  EXPECT_EQ(countLines(ptx, "setmaxnreg.dec.sync.aligned.u32 40;"), 1);
  EXPECT_GE(countLines(ptx, "wgmma.mma_async"), 1);
  EXPECT_GE(countLines(ptx, "cp.async.bulk.tensor"), 2);
  EXPECT_GE(countLines(ptx, "mbarrier.arrive"), 1);
  auto r = expectAssembles(k->kernel, /*requireNoSpills=*/true);
  if (r.accepted) {
    EXPECT_EQ(r.log.find("serialized"), std::string::npos) << r.log;
    std::cout << "[          ] matmul_tma_autows after the pipeline: " << r.registers
              << " registers, " << k->kernel.sharedBytes << " shared bytes\n";
  }
}
