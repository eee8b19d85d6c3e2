// `linlayout run`: a kernel on the CPU interpreter from the command line, inputs generated or
// read from .npy, outputs summarized or written as .npy, and --gpu where there is no GPU.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace {

using linlayout::testing::CliRun;
using linlayout::testing::runLinlayout;

const std::string kMemcpy = linlayout::testing::exampleFile("memcpy_1d.tir");

bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

// Every test here runs the CLI; where it is not packed (scripts/gpu/package.sh leaves it out when
// the package would pass 64 MiB) they skip and say so, rather than fail on a missing binary.
#define REQUIRE_LINLAYOUT_BINARY()                                                                 \
  if (linlayout::testing::linlayoutBinary().empty())                                               \
  GTEST_SKIP() << "no linlayout binary: neither $LINLAYOUT_BIN, " LINLAYOUT_BIN_DIR                \
                  "/linlayout nor one beside this test binary (scripts/gpu/package.sh packs "      \
                  "it with query_tests when it fits)"

TEST(RunCli, CopiesWhatTheMaskAllows) {
  REQUIRE_LINLAYOUT_BINARY();
  CliRun r = runLinlayout("run " + kMemcpy + " --grid 4 --size 4096 --fill iota --arg n=4000");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(has(r.out, "ran memcpy_1d on the CPU interpreter, 4 programs")) << r.out;
  // dst started as iota too: the copy rewrites elements with their own values.
  EXPECT_TRUE(has(r.out, "%dst: 4096 x f32, 0 elements written")) << r.out;
  CliRun z = runLinlayout("run " + kMemcpy +
                          " --grid 4 --arg src=iota:4096 --arg dst=zeros:4096 --arg n=4000");
  ASSERT_EQ(z.status, 0) << z.out;
  EXPECT_TRUE(has(z.out, "%dst: 4096 x f32, 3999 elements written; min 0, max 3999")) << z.out;
  EXPECT_TRUE(has(z.out, "[0, 1, 2, 3, 4, 5, 6, 7, ...]")) << z.out;
}

TEST(RunCli, NpyOutAndBackIn) {
  REQUIRE_LINLAYOUT_BINARY();
  std::string dir = ::testing::TempDir() + "/run-npy";
  CliRun first = runLinlayout("run " + kMemcpy + " --grid 1 --size 1024 --seed 7 --arg n=1024 " +
                              "--out " + dir);
  ASSERT_EQ(first.status, 0) << first.out;
  // The copy's output, fed back as its input, copies to the same numbers.
  CliRun again = runLinlayout("run " + kMemcpy + " --grid 1 --arg src=" + dir +
                              "/dst.npy --arg dst=zeros:1024 --arg n=1024");
  ASSERT_EQ(again.status, 0) << again.out;
  auto line = [](const std::string &out, const std::string &start) {
    size_t at = out.find(start);
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
  };
  std::string sums = line(first.out, "%dst:"), back = line(again.out, "%dst:");
  ASSERT_FALSE(sums.empty()) << first.out;
  EXPECT_EQ(sums.substr(sums.find("min")), back.substr(back.find("min"))) << again.out;
  std::remove((dir + "/src.npy").c_str());
  std::remove((dir + "/dst.npy").c_str());
}

TEST(RunCli, SaysWhatIsMissing) {
  REQUIRE_LINLAYOUT_BINARY();
  CliRun n = runLinlayout("run " + kMemcpy + " --size 1024");
  EXPECT_EQ(n.status, 2);
  EXPECT_TRUE(has(n.out, "%n: i32: needs a value: --arg n=VALUE")) << n.out;
  CliRun buf = runLinlayout("run " + kMemcpy + " --arg n=4");
  EXPECT_EQ(buf.status, 2);
  EXPECT_TRUE(has(buf.out, "%src: !tt.ptr<f32>: needs a buffer: --arg src=rand:N")) << buf.out;
  CliRun name = runLinlayout("run " + kMemcpy + " --arg m=4");
  EXPECT_EQ(name.status, 2);
  EXPECT_TRUE(has(name.out, "has no parameter %m (its parameters: %src %dst %n)")) << name.out;
  // Out of bounds: the interpreter's error, naming the op and the program.
  CliRun oob = runLinlayout("run " + kMemcpy + " --grid 2 --size 1024 --arg n=2048");
  EXPECT_EQ(oob.status, 1);
  EXPECT_TRUE(has(oob.out, "linlayout run: ")) << oob.out;
}

// With a GPU, the jit's result is compared with the interpreter's; without one, --gpu says why.
TEST(RunCli, GpuComparesOrSaysWhyNot) {
  REQUIRE_LINLAYOUT_BINARY();
  CliRun r = runLinlayout("run " + kMemcpy + " --grid 4 --size 4096 --arg n=4000 --gpu");
  if (r.status == 0) {
    EXPECT_TRUE(has(r.out, "gpu %dst: identical to the interpreter's (4096 elements)")) << r.out;
  } else {
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(has(r.out, "linlayout run: --gpu: ")) << r.out;
    EXPECT_TRUE(has(r.out, "ran memcpy_1d on the CPU interpreter")) << r.out;
  }
}

} // namespace
