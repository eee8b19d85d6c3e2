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

// A kernel with TMA tensor descriptors (the persistent warp-specialized matmul, whose C is a
// descriptor too): each takes a row-major tensor of the dims given or a .npy's; its tensor is
// summarized and written out with its dims, and read back in.
TEST(RunCli, TensorDescriptorsTakeRowMajorTensors) {
  REQUIRE_LINLAYOUT_BINARY();
  const std::string mm = linlayout::testing::exampleFile("matmul_ws_persistent_tmastore.tir");
  const std::string dir = ::testing::TempDir() + "/run-desc";
  const std::string sizes = " --arg K=64 --arg ldc=512 --arg M=256 --arg N=512";
  CliRun r =
      runLinlayout("run " + mm + " --grid 2 --arg adesc=rand:256x64 --arg bdesc=rand:64x512" +
                   " --arg c=zeros:256x512" + sizes + " --out " + dir);
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(has(r.out, "ran matmul_ws_persistent_tmastore on the CPU interpreter, 2 programs"))
      << r.out;
  EXPECT_TRUE(has(r.out, "%c: 256x512 x f16, 131072 elements written")) << r.out;
  // The .npy keeps the tensor's dims.
  FILE *f = std::fopen((dir + "/c.npy").c_str(), "rb");
  ASSERT_NE(f, nullptr);
  std::string header(128, '\0');
  header.resize(std::fread(header.data(), 1, header.size(), f));
  std::fclose(f);
  EXPECT_TRUE(has(header, "'shape': (256,512)")) << header;
  // The inputs written out, fed back in, give the same C.
  CliRun again = runLinlayout("run " + mm + " --grid 2 --arg adesc=" + dir + "/adesc.npy" +
                              " --arg bdesc=" + dir + "/bdesc.npy --arg c=zeros:256x512" + sizes);
  ASSERT_EQ(again.status, 0) << again.out;
  auto line = [](const std::string &out) {
    size_t at = out.find("%c:");
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
  };
  EXPECT_EQ(line(r.out), line(again.out)) << again.out;
  for (const char *name : {"adesc", "bdesc", "c"})
    std::remove((dir + "/" + name + ".npy").c_str());
  // What a descriptor needs, said when it is missing or of another rank.
  CliRun none =
      runLinlayout("run " + mm + " --arg bdesc=rand:64x512 --arg c=zeros:256x512" + sizes);
  EXPECT_EQ(none.status, 2);
  EXPECT_TRUE(has(none.out, "%adesc: !tt.tensordesc<tensor<128x64xf16>>: needs a tensor of "
                            "rank 2: --arg adesc=rand:DIMS"))
      << none.out;
  CliRun rank = runLinlayout("run " + mm + " --arg adesc=rand:16384 --arg bdesc=rand:64x512" +
                             " --arg c=zeros:256x512" + sizes);
  EXPECT_EQ(rank.status, 2);
  EXPECT_TRUE(has(rank.out, "'rand:16384' has 1 dim; the descriptor needs a tensor of rank 2"))
      << rank.out;
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
  // Tensor descriptors go to the GPU as tensor maps the jit encodes for the kernel's boxes.
  CliRun d = runLinlayout(
      "run " + linlayout::testing::exampleFile("matmul_ws_persistent_tmastore.tir") +
      " --grid 2 --arg adesc=rand:256x64 --arg bdesc=rand:64x512 --arg c=zeros:256x512 --arg K=64" +
      " --arg ldc=512 --arg M=256 --arg N=512 --gpu");
  if (r.status == 0) {
    EXPECT_EQ(d.status, 0) << d.out;
    EXPECT_TRUE(has(d.out, "gpu %c: ")) << d.out;
  } else {
    EXPECT_EQ(d.status, 1) << d.out;
  }
}

} // namespace
