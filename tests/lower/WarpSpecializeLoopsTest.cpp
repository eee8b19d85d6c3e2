// The automatically warp-specialized matmuls (examples/matmul_tma_autows.tir and
// matmul_tma_wide_autows.tir after the pass pipeline, whose warp-specialize-loops pass splits
// their marked loops) lowered for sm_90a: the
// register budgets set, the producer's waits on the empty barriers and the consumers' arrivals
// on them, and ptxas assembling it without spills or local memory, as the hand-written
// examples/matmul_ws.tir does.
#include "Examples.h"
#include "PtxCheck.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string_view>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

std::string example(const char *name) {
  std::string text = exampleSource(name);
  // A Triton dump's loop gets the mark tl.range(..., warp_specialize=True) would have put on it.
  if (std::string_view(name).ends_with(".ttgir")) {
    const size_t close = text.find("    } loc(", text.find("scf.yield"));
    if (close != std::string::npos)
      text.insert(close + 5, " {tt.warp_specialize}");
  }
  return text;
}

} // namespace

struct Case {
  const char *file;
  int threads, consumerRegisters, producerRegisters;
};

class AutoSpecialized : public ::testing::TestWithParam<Case> {};

// One consumer warp group and the producer's warp (padded to a warp group), two, and Triton's own
// pipelined TMA matmul (slots and phase as carried counters), marked.
INSTANTIATE_TEST_SUITE_P(WarpSpecializeLoops, AutoSpecialized,
                         ::testing::Values(Case{"matmul_tma_autows.tir", 256, 232, 40},
                                           Case{"matmul_tma_wide_autows.tir", 384, 240, 24},
                                           Case{"triton/matmul_tma.ttgir", 256, 232, 40}));

TEST_P(AutoSpecialized, LowersAndAssembles) {
  const Case c = GetParam();
  auto m = ir::parseModule(example(c.file), c.file);
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
  EXPECT_EQ(k->kernel.threadsPerBlock, c.threads);
  const std::string consumer = std::to_string(c.consumerRegisters),
                    producer = std::to_string(c.producerRegisters);
  EXPECT_GE(countLines(ptx, "setmaxnreg.{{(inc|dec)}}.sync.aligned.u32 " + consumer + ";"), 1);
  EXPECT_EQ(countLines(ptx, "setmaxnreg.dec.sync.aligned.u32 " + producer + ";"), 1);
  EXPECT_GE(countLines(ptx, "wgmma.mma_async"), 1);
  EXPECT_GE(countLines(ptx, "cp.async.bulk.tensor"), 2);
  EXPECT_GE(countLines(ptx, "mbarrier.arrive"), 1);
  auto r = expectAssembles(k->kernel, /*requireNoSpills=*/true);
  if (r.accepted) {
    EXPECT_EQ(r.log.find("serialized"), std::string::npos) << r.log;
    std::cout << "[          ] " << c.file << " after the pipeline: " << r.registers
              << " registers, " << k->kernel.sharedBytes << " shared bytes\n";
  }
}
