// `linlayout compile`: outputs, options and errors of the command line.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>

namespace {

struct CliRun {
  int status;
  std::string out;
};

CliRun run(const std::string &args) {
  std::string cmd = std::string(LINLAYOUT_BIN_DIR) + "/linlayout compile " + args + " 2>&1";
  CliRun r{0, ""};
  FILE *p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p))
    r.out.append(buf.data(), n);
  r.status = pclose(p);
  return r;
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
  EXPECT_NE(r.out.find("kernel transpose_copy for sm_80: 128 threads per block"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("convert_layout at"), std::string::npos) << r.out;
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
