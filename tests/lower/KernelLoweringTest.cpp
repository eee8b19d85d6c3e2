// Whole tile-IR kernels: every example compiles for sm_80 and sm_90, assembles with ptxas
// without spills, and has the instructions its layouts call for.
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

std::string readExample(const std::string &name) {
  std::ifstream f(std::string(LINLAYOUT_SOURCE_DIR) + "/examples/" + name);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Expected<LoweredKernel> compileText(const std::string &text, int sm,
                                    const std::string &file = "<test>", bool passes = false) {
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, file));
  if (passes)
    LL_TRY_STATUS(ir::runPipeline(m));
  LowerOptions o;
  o.target = PtxTarget{sm, 80};
  o.keepLlvmIr = true;
  return lowerKernel(m, o);
}

const char *kExamples[] = {"memcpy_1d.tir", "memcpy_2d.tir",  "transpose_copy.tir",
                           "row_reduce.tir", "softmax.tir", "matmul.tir", "ops.tir",
                           "matmul_wide.tir"};

} // namespace

TEST(KernelLowering, EveryExampleCompilesAndAssemblesForBothTargets) {
  for (const char *name : kExamples)
    for (bool passes : {false, true})
    for (int sm : {80, 90}) {
      std::string text = readExample(name);
      ASSERT_FALSE(text.empty()) << name;
      auto k = compileText(text, sm, name, passes);
      ASSERT_TRUE(k.ok()) << name << " sm_" << sm << (passes ? " after the passes" : "") << ": "
                          << k.message();
      // As the examples are meant to be compiled (after the passes) they must not spill.
      auto report = expectAssembles(k->kernel, /*requireNoSpills=*/passes);
      if (report.accepted) {
        EXPECT_GE(report.registers, 1) << name;
      }
    }
}

// The tiled matmul after the passes: per K step 32 mma.sync (each warp's 64x64 tile of 16x8
// instructions) x 2 (K = 32 in steps of 16), operands from the planned conversions; every
// shared-memory instruction and barrier of the kernel is one its plans counted.
TEST(KernelLowering, MatmulIsMmaFedByItsPlannedConversions) {
  for (int sm : {80, 90}) {
    auto k = compileText(readExample("matmul.tir"), sm, "matmul.tir", /*passes=*/true);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(countLines(ptx, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), 64);
    int stores = 0, loads = 0, ldm = 0, stm = 0, bars = 0;
    for (const ConversionReport &c : k->conversions) {
      EXPECT_TRUE(c.fromPlanner) << c.where << ": " << c.plannerError;
      stores += c.sharedStores;
      loads += c.sharedLoads;
      ldm += c.ldmatrix;
      stm += c.stmatrix;
      bars += c.barriers;
    }
    EXPECT_EQ(countLines(ptx, "st.shared"), stores);
    EXPECT_EQ(countLines(ptx, "ld.shared"), loads);
    EXPECT_EQ(countLines(ptx, "ldmatrix."), ldm);
    EXPECT_EQ(countLines(ptx, "stmatrix."), stm);
    EXPECT_EQ(countLines(ptx, "bar.sync"), bars);
    EXPECT_GE(ldm, 1) << "the B operand is read with ldmatrix";
    // The K loop: a backward branch around the mma block.
    EXPECT_PATTERNS(ptx, R"(
      CHECK: $L__BB0_{{[0-9]+}}:
      CHECK: mma.sync.aligned.m16n8k16
      CHECK: @{{%p[0-9]+}} bra $L__BB0_{{[0-9]+}};
    )");
    expectAssembles(k->kernel);
  }
}
