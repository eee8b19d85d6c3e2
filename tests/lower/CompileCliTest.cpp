// `linlayout compile`: outputs, options and errors of the command line.
#include "../ir/Examples.h"
#include "CliRun.h"
#include "PtxCheck.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace {

using linlayout::testing::CliRun;

// `linlayout compile ARGS`, or the whole command line when `args` starts with "env ".
CliRun run(const std::string &args) {
  if (args.rfind("env ", 0) == 0)
    return linlayout::testing::runShell(args + " 2>&1");
  return linlayout::testing::runLinlayout("compile " + args);
}

const std::string kExample = std::string(LINLAYOUT_SOURCE_DIR) + "/examples/transpose_copy.tir";

} // namespace

TEST(CompileCli, PtxAndLlvmIr) {
  CliRun ptx = run(kExample + " --target sm_90");
  EXPECT_EQ(ptx.status, 0) << ptx.out;
  EXPECT_NE(ptx.out.find(".target sm_90"), std::string::npos);
  EXPECT_NE(ptx.out.find(".visible .entry transpose_copy("), std::string::npos);
  CliRun ir = run(kExample + " --emit=llvm");
  EXPECT_EQ(ir.status, 0) << ir.out;
  EXPECT_NE(ir.out.find("define void @transpose_copy(ptr addrspace(1)"), std::string::npos);
  EXPECT_NE(ir.out.find("!nvvm.annotations"), std::string::npos);
}

TEST(CompileCli, ReportAndAnnotations) {
  CliRun r = run(kExample + " --report --annotate -o /dev/null");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("kernel transpose_copy for sm_80: 128 threads per block"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("convert_layout at"), std::string::npos) << r.out;
}

// A kernel whose programs are clusters: the report says how to launch it, and the PTX requires
// the cluster.
TEST(CompileCli, ClusterKernelsSayHowToLaunchThem) {
  std::string text = linlayout::ir::testing::readFile(kExample);
  const std::string one = "\"ttg.num-ctas\" = 1";
  ASSERT_NE(text.find(one), std::string::npos);
  text.replace(text.find(one), one.size(), "\"ttg.num-ctas\" = 2");
  const std::string path = ::testing::TempDir() + "transpose_copy_2ctas.tir";
  std::ofstream(path) << text;
  const std::string ptx = ::testing::TempDir() + "transpose_copy_2ctas.ptx";
  CliRun r = run(path + " --target sm_90 --report -o " + ptx);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("a program is a cluster of 2 CTAs (launch programs x 2 CTAs along x)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(linlayout::ir::testing::readFile(ptx).find(".reqnctapercluster 2, 1, 1"),
            std::string::npos);
  CliRun sm80 = run(path + " --target sm_80");
  EXPECT_NE(sm80.status, 0);
  EXPECT_NE(sm80.out.find("clusters need sm_90"), std::string::npos) << sm80.out;
}

TEST(CompileCli, ErrorsNameTheProblem) {
  CliRun missing = run("/nonexistent.tir");
  EXPECT_NE(missing.status, 0);
  EXPECT_NE(missing.out.find("cannot open '/nonexistent.tir'"), std::string::npos) << missing.out;
  CliRun target = run(kExample + " --target sm_75");
  EXPECT_NE(target.status, 0);
  EXPECT_NE(target.out.find("unknown target 'sm_75'"), std::string::npos) << target.out;
  CliRun emit = run(kExample + " --emit=sass");
  EXPECT_NE(emit.status, 0);
  EXPECT_NE(emit.out.find("--emit takes ptx or llvm, not 'sass'"), std::string::npos) << emit.out;
}

// --ptxas: what ptxas says the kernel costs (where the CUDA toolkit's ptxas is installed), a clear
// error where there is none, and ptxas' own log where it rejects the PTX (a stand-in ptxas that
// always does).
TEST(CompileCli, PtxasReportsRegistersAndSpills) {
  CliRun none = run("env LINLAYOUT_PTXAS=/nonexistent/ptxas " + std::string(LINLAYOUT_BIN_DIR) +
                    "/linlayout compile " + kExample + " --ptxas -o /dev/null");
  EXPECT_NE(none.status, 0);
  EXPECT_NE(none.out.find("--ptxas: no ptxas at $LINLAYOUT_PTXAS"), std::string::npos) << none.out;
  const std::string fake = ::testing::TempDir() + "/linlayout-fake-ptxas.sh";
  {
    std::FILE *f = std::fopen(fake.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs("#!/bin/sh\necho 'ptxas fatal   : stand-in ptxas says no'\nexit 1\n", f);
    std::fclose(f);
    ASSERT_EQ(std::system(("chmod +x " + fake).c_str()), 0);
  }
  CliRun rejected = run("env LINLAYOUT_PTXAS=" + fake + " " + std::string(LINLAYOUT_BIN_DIR) +
                        "/linlayout compile " + kExample + " --ptxas -o /dev/null");
  EXPECT_NE(rejected.status, 0);
  EXPECT_NE(rejected.out.find("ptxas rejected the PTX of 'transpose_copy' for sm_80:\n"
                              "ptxas fatal   : stand-in ptxas says no"),
            std::string::npos)
      << rejected.out;
  if (std::system("test -x " LINLAYOUT_PTXAS) != 0)
    GTEST_SKIP() << "ptxas not found at " LINLAYOUT_PTXAS ": the real report was not checked";
  CliRun real = run("env LINLAYOUT_PTXAS=" LINLAYOUT_PTXAS " " + std::string(LINLAYOUT_BIN_DIR) +
                    "/linlayout compile " + kExample + " --ptxas -o /dev/null");
  EXPECT_EQ(real.status, 0) << real.out;
  EXPECT_NE(real.out.find("ptxas: transpose_copy for sm_80: "), std::string::npos) << real.out;
  EXPECT_NE(real.out.find(" registers, 0 bytes of stack, 0 bytes of spill stores, 0 bytes of "
                          "spill loads"),
            std::string::npos)
      << real.out;
  EXPECT_NE(real.out.find("occupancy: "), std::string::npos) << real.out;
  EXPECT_NE(real.out.find(" per SM, limited by "), std::string::npos) << real.out;
}

// --no-fp-fusion: attention's scaled scores minus the running maximum stay a mul and a sub.
TEST(CompileCli, NoFpFusionKeepsMultipliesAndAddsApart) {
  const std::string attention = std::string(LINLAYOUT_SOURCE_DIR) + "/examples/attention.tir";
  auto fmas = [](const std::string &ptx) {
    return linlayout::lower::testing::countLines(ptx, "fma.rn.f32");
  };
  CliRun fused = run(attention);
  ASSERT_EQ(fused.status, 0) << fused.out;
  CliRun apart = run(attention + " --no-fp-fusion");
  ASSERT_EQ(apart.status, 0) << apart.out;
  EXPECT_GE(fmas(fused.out), 64);
  EXPECT_EQ(fmas(apart.out), 0);
}
