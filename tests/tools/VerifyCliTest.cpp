// The cases from the command line: examples/memcpy_1d.tir with 16 lanes per warp is
// rejected by `opt`, `compile` and `run` alike (all verify first), naming the layout and the
// counts; `show` will not draw a layout of 16 lanes as if a warp had 16 unless told so.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using linlayout::testing::CliRun;
using linlayout::testing::runLinlayout;

bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

TEST(VerifyCli, LayoutWithTooFewLanesIsRejected) {
  std::ifstream in(linlayout::testing::exampleFile("memcpy_1d.tir"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  size_t at = text.find("threadsPerWarp = [32]");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 21, "threadsPerWarp = [16]");
  std::string file = ::testing::TempDir() + "/memcpy_16_lanes.tir";
  std::ofstream(file) << text;
  for (const std::string &args :
       {"opt " + file, "run " + file + " --size 16 --arg n=16", "compile --no-passes " + file}) {
    CliRun r = runLinlayout(args);
    EXPECT_EQ(r.status, 1) << args << r.out;
    EXPECT_TRUE(has(r.out, "has 16 lanes per warp, the module 32 (\"ttg.threads-per-warp\")"))
        << args << r.out;
  }
  std::remove(file.c_str());
}

TEST(VerifyCli, ShowWantsFullWarps) {
  const std::string lanes16 = "'#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 4], "
                              "warpsPerCTA = [1, 1], order = [1, 0]}>'";
  CliRun r = runLinlayout("show " + lanes16 + " --shape 16x16");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(has(r.out, "has 16 lanes per warp, a warp has 32 (--threads-per-warp 16 draws it"))
      << r.out;
  CliRun told = runLinlayout("show " + lanes16 + " --shape 16x16 --threads-per-warp 16");
  EXPECT_EQ(told.status, 0) << told.out;
  EXPECT_TRUE(has(told.out, "16 threads (1 warp of 16 lanes)")) << told.out;
  // AMD's MFMA layouts fill 64-lane wavefronts.
  CliRun mfma = runLinlayout("show '#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], instrShape "
                             "= [32, 32, 8], isTransposed = false}>' --shape 32x32");
  EXPECT_EQ(mfma.status, 0) << mfma.out;
  // With a module (--aliases), its warps count too.
  std::string file = ::testing::TempDir() + "/show_module.ttgir";
  std::ofstream(file) << "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
                         "warpsPerCTA = [2], order = [0]}>\n"
                         "module attributes {\"ttg.num-warps\" = 8 : i32} {\n}\n";
  CliRun warps = runLinlayout("show --aliases " + file + " 'tensor<64xf32, #b>'");
  EXPECT_EQ(warps.status, 1) << warps.out;
  EXPECT_TRUE(has(warps.out, "has 2 warps, the module of " + file + " 8 (\"ttg.num-warps\")"))
      << warps.out;
  // Shared layouts have no lanes.
  CliRun shared = runLinlayout("show --aliases " + file +
                               " '#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, "
                               "order = [1, 0]}>' --shape 4x8");
  EXPECT_EQ(shared.status, 0) << shared.out;
  std::remove(file.c_str());
}

} // namespace

// Blackwell's tensor-memory layouts parse, but the tile IR has no tcgen05 ops to hold them: a
// tensor of one is refused by name.
TEST(VerifyCli, TensorMemoryLayoutIsRefused) {
  std::string file = ::testing::TempDir() + "/tmem_tensor.tir";
  std::ofstream(file)
      << "#tmem = #ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1>\n"
         "module attributes {\"ttg.num-warps\" = 4 : i32, \"ttg.threads-per-warp\" = 32 : i32} {\n"
         "  tt.func @k(%p: !tt.ptr<f32>) {\n"
         "    %z = arith.constant dense<0.0> : tensor<128x128xf32, #tmem>\n"
         "    tt.return\n"
         "  }\n"
         "}\n";
  CliRun r = runLinlayout("opt " + file);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(has(r.out, "has the tensor_memory layout of Blackwell's tensor memory, which the "
                         "tile IR does not hold (it has no tcgen05 ops)"))
      << r.out;
  std::remove(file.c_str());
}
