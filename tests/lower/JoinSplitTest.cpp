// tt.join / tt.split: registers interleaved and taken apart in each thread; layouts that would
// move elements between threads are refused.
#include "PtxCheck.h"

#include "../ir/Examples.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

Expected<LoweredKernel> compile(const std::string &text) {
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, "join_split.tir"));
  LowerOptions o;
  o.target = PtxTarget{80, 80};
  return lowerKernel(m, o);
}

} // namespace

TEST(JoinSplit, MoveRegistersOnly) {
  // examples/join_split.tir as written: the join, the reshape of the joined tile and the split
  // stay in each thread's registers: no shared memory, no shuffles.
  std::string text = ir::testing::readFile(ir::testing::examplePath("join_split.tir"));
  auto k = compile(text);
  ASSERT_TRUE(k.ok()) << k.message();
  EXPECT_EQ(countLines(k->kernel.ptx, ".shared"), 0);
  EXPECT_EQ(countLines(k->kernel.ptx, "shfl.sync"), 0);
  EXPECT_EQ(k->kernel.sharedBytes, 0u);
  expectAssembles(k->kernel);
}

TEST(JoinSplit, LayoutsThatMoveElementsAreRefused) {
  std::string text = ir::testing::readFile(ir::testing::examplePath("join_split.tir"));
  // The joined tile with its new dimension across lanes instead of registers.
  const std::string regs = "#b3 = #ttg.blocked<{sizePerThread = [1, 2, 2], threadsPerWarp = [4, 8, "
                           "1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>";
  const std::string lanes =
      "#b3 = #ttg.blocked<{sizePerThread = [1, 2, 1], threadsPerWarp = [4, 4, "
      "2], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>";
  ASSERT_NE(text.find(regs), std::string::npos);
  text.replace(text.find(regs), regs.size(), lanes);
  auto k = compile(text);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("tt.join: lane bit 0 moves different elements on the two sides"),
            std::string::npos)
      << k.message();
}
