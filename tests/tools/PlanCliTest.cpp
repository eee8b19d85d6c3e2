// `linlayout plan` end to end: specs in either syntax, the summary, and its errors.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using linlayout::testing::CliRun;
using linlayout::testing::runLinlayout;

// A 64x64 f16 tile from row-contiguous threads to column-contiguous ones: the planner sends it
// through shared memory (no shuffle or register permutation can move it).
const std::string kRows = "'#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], "
                          "warpsPerCTA = [4, 1], order = [1, 0]}>'";
const std::string kColsJson = R"('{"kind": "blocked", "size_per_thread": [8, 1], )"
                              R"("threads_per_warp": [2, 16], "warps_per_cta": [1, 4], )"
                              R"("order": [0, 1]}')";

CliRun plan(const std::string &src, const std::string &dst, const std::string &more = "") {
  return runLinlayout("plan --src " + src + " --dst " + dst + " --shape 64x64 --dtype f16 " + more);
}

} // namespace

TEST(PlanCli, SummaryOfAJsonAndAnAttributeSpec) {
  CliRun r = plan(kColsJson, kRows, "--summary");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out.rfind("shared-memory: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("bar.sync"), std::string::npos) << r.out;
  // The same layout on both sides, one of them quoted as a JSON string: nothing to do.
  std::string quoted = "'\"" + kRows.substr(1, kRows.size() - 2) + "\"'";
  CliRun same = plan(quoted, kRows, "--summary");
  ASSERT_EQ(same.status, 0) << same.out;
  EXPECT_EQ(same.out.rfind("no-op", 0), 0u) << same.out;
}

TEST(PlanCli, BrokenJsonSaysWhere) {
  CliRun r = plan(R"('{"kind": "blocked", ')", kRows);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("src is not valid JSON at line 1, column 21: "), std::string::npos) << r.out;
}

TEST(PlanCli, UsageErrors) {
  CliRun missing = runLinlayout("plan --src " + kRows);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("--src, --dst, --shape and --dtype are required"), std::string::npos)
      << missing.out;
  CliRun dtype =
      runLinlayout("plan --src " + kRows + " --dst " + kRows + " --shape 64x64 --dtype f17");
  EXPECT_EQ(dtype.status, 2);
  EXPECT_NE(dtype.out.find("unknown dtype 'f17'"), std::string::npos) << dtype.out;
  // A path that cannot move this tile is an error, not a plan.
  CliRun path = plan(kColsJson, kRows, "--path warp-shuffle");
  EXPECT_EQ(path.status, 1);
  EXPECT_NE(path.out.find("path 'warp-shuffle' is not feasible"), std::string::npos) << path.out;
}
