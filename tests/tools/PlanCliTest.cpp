// `linlayout plan` end to end: specs in either syntax, the summary, and its errors.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <cstdio>
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
  EXPECT_NE(r.out.find("src: the layout is not valid JSON at line 1, column 20: "),
            std::string::npos)
      << r.out;
}

TEST(PlanCli, UsageErrors) {
  CliRun missing = runLinlayout("plan --src " + kRows);
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("--dst is required"), std::string::npos) << missing.out;
  CliRun noShape = runLinlayout("plan --src " + kRows + " --dst " + kRows);
  EXPECT_EQ(noShape.status, 2);
  EXPECT_NE(noShape.out.find("--shape and --dtype are required unless"), std::string::npos)
      << noShape.out;
  CliRun dtype =
      runLinlayout("plan --src " + kRows + " --dst " + kRows + " --shape 64x64 --dtype f17");
  EXPECT_EQ(dtype.status, 2);
  EXPECT_NE(dtype.out.find("unknown dtype 'f17'"), std::string::npos) << dtype.out;
  // A path that cannot move this tile is an error, not a plan.
  CliRun path = plan(kColsJson, kRows, "--path warp-shuffle");
  EXPECT_EQ(path.status, 1);
  EXPECT_NE(path.out.find("path 'warp-shuffle' is not feasible"), std::string::npos) << path.out;
}

// The issue's command: a blocked transpose of a 64x64 f16 tile goes through ldmatrix.trans .x4
// (four 8x8 matrices, one register each per thread), as --json and the compiled PTX say.
TEST(PlanCli, SummaryCountsLdmatrixMatrices) {
  CliRun r = runLinlayout(
      "plan --src '#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = "
      "[4, 1], order = [1, 0]}>' --dst '#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = "
      "[8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>' --shape 64x64 --dtype f16 --summary");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("ldmatrix.trans.x4.b16"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(".x1."), std::string::npos) << r.out;
}

// plan reads what show reads: aliases from a dump, and tensor types that carry shape and dtype.
TEST(PlanCli, AliasesAndTensorTypes) {
  std::string dir = ::testing::TempDir();
  std::string dump = dir + "/plan-aliases.ttgir";
  {
    FILE *f = std::fopen(dump.c_str(), "w");
    ASSERT_TRUE(f);
    std::fputs("#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [16, 2], "
               "warpsPerCTA = [4, 1], order = [1, 0]}>\n"
               "#cols = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [2, 16], "
               "warpsPerCTA = [1, 4], order = [0, 1]}>\nmodule {\n}\n",
               f);
    std::fclose(f);
  }
  CliRun r = runLinlayout("plan --aliases " + dump +
                          " --src 'tensor<64x64xf16, #cols>' --dst '#rows' --summary");
  ASSERT_EQ(r.status, 0) << r.out;
  CliRun same = plan(kColsJson, kRows, "--summary");
  EXPECT_EQ(r.out, same.out);
  // The 8-bit floats by TritonGPU's names: a tensor type gives the element type as --dtype does.
  CliRun f8 = runLinlayout("plan --aliases " + dump +
                           " --src 'tensor<64x64xf8E4M3FN, #cols>' --dst '#rows' --summary");
  ASSERT_EQ(f8.status, 0) << f8.out;
  CliRun f8Flag = runLinlayout("plan --src " + kColsJson + " --dst " + kRows +
                               " --shape 64x64 --dtype f8 --summary");
  EXPECT_EQ(f8.out, f8Flag.out);
  CliRun missing = runLinlayout("plan --src '#mma' --dst '#rows' --shape 64x64 --dtype f16");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.out.find("src: "), std::string::npos) << missing.out;
  EXPECT_NE(missing.out.find("'#mma'"), std::string::npos) << missing.out;
  std::remove(dump.c_str());
}

// The plan counts both barriers of a round trip and says where a kernel leaves the first out.
TEST(PlanCli, BarriersAsPlannedAndWhyAKernelMayHaveFewer) {
  CliRun r = plan(kColsJson, kRows);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("bar.sync per CTA as planned; in a kernel the first"), std::string::npos)
      << r.out;
}

// One spelling printed, the other accepted.
TEST(PlanCli, PathSpellings) {
  CliRun dash = plan(kColsJson, kRows, "--path shared-memory --summary");
  CliRun under = plan(kColsJson, kRows, "--path shared_memory --summary");
  ASSERT_EQ(dash.status, 0) << dash.out;
  EXPECT_EQ(dash.out, under.out);
  EXPECT_EQ(dash.out.rfind("shared-memory: ", 0), 0u) << dash.out;
}
