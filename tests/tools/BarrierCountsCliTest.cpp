// One conversion, four places that count its barriers: `plan`, `compile --report`, the PTX's
// --annotate comment and the PTX itself. They agree, or say where and why they differ.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using linlayout::testing::CliRun;
using linlayout::testing::runLinlayout;

size_t count(const std::string &s, const std::string &part) {
  size_t n = 0;
  for (size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + 1))
    ++n;
  return n;
}

TEST(BarrierCountsCli, TransposeCopyAgreesEverywhere) {
  const std::string file = std::string(LINLAYOUT_SOURCE_DIR) + "/examples/transpose_copy.tir";
  CliRun report = runLinlayout("compile " + file + " --report -o /dev/null");
  if (report.out.find("this build has no lowering") != std::string::npos)
    GTEST_SKIP() << "no lower/ in this build";
  ASSERT_EQ(report.status, 0) << report.out;
  const std::string why = "1 bar.sync (1 of 2 elided: no earlier use of the scratch is pending)";
  EXPECT_NE(report.out.find(why), std::string::npos) << report.out;

  CliRun ptx = runLinlayout("compile " + file + " --annotate");
  ASSERT_EQ(ptx.status, 0) << ptx.out;
  EXPECT_NE(ptx.out.find(why), std::string::npos) << "the --annotate comment";
  // The instruction itself, once (comments end their line without a ';').
  EXPECT_EQ(count(ptx.out, "bar.sync \t0;") + count(ptx.out, "bar.sync 0;") +
                count(ptx.out, "barrier.sync 0;") + count(ptx.out, "barrier.sync.aligned 0;"),
            1u)
      << ptx.out;

  // plan counts both and says a kernel may leave the first out.
  CliRun plan = runLinlayout(
      "plan --src '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = "
      "[4, 1], order = [1, 0]}>' --dst '#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = "
      "[8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>' --shape 64x64 --dtype f16 --target sm_80");
  ASSERT_EQ(plan.status, 0) << plan.out;
  EXPECT_NE(plan.out.find("Syncs: 2 bar.sync per CTA as planned; in a kernel the first"),
            std::string::npos)
      << plan.out;
}

} // namespace
