// tt.scan: registers, butterfly shuffles across lanes, shared-memory exchanges across warps, in
// the order of the scanned coordinate's bits; layouts that hold it otherwise are refused.
#include "PtxCheck.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

// Loads a 32x128 i32 tile in `layout` (4 warps), scans it along `axis` (in `scanLayout` when
// given: converted there and back) and stores it.
std::string scanKernel(const std::string &layout, int axis, bool reverse = false,
                       const std::string &scanLayout = "") {
  const std::string t = "tensor<32x128xi32, #l>", p = "tensor<32x128x!tt.ptr<i32>, #l>";
  const std::string rows = "tensor<32xi32, #ttg.slice<{dim = 1, parent = #l}>>",
                    cols = "tensor<128xi32, #ttg.slice<{dim = 0, parent = #l}>>";
  const std::string m = "tensor<32x128xi32, #m>";
  const std::string scanned =
      scanLayout.empty()
          ? "    %s = tt.scan sum %v {axis = " + std::to_string(axis) +
                " : i32, reverse = " + (reverse ? "true" : "false") + "} : " + t + " -> " + t + "\n"
          : "    %vm = ttg.convert_layout %v : " + t + " -> " + m +
                "\n    %sm = tt.scan sum %vm {axis = " + std::to_string(axis) +
                " : i32, reverse = false} : " + m + " -> " + m +
                "\n    %s = ttg.convert_layout %sm : " + m + " -> " + t + "\n";
  return "#l = " + layout + "\n" + (scanLayout.empty() ? "" : "#m = " + scanLayout + "\n") +
         "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
         "  tt.func public @scan(%x: !tt.ptr<i32> {tt.divisibility = 16 : i32}, %y: "
         "!tt.ptr<i32> {tt.divisibility = 16 : i32}) {\n"
         "    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : " +
         rows + "\n    %re = tt.expand_dims %r {axis = 1 : i32} : " + rows +
         " -> tensor<32x1xi32, #l>\n"
         "    %c128 = arith.constant dense<128> : tensor<32x1xi32, #l>\n"
         "    %ro = arith.muli %re, %c128 : tensor<32x1xi32, #l>\n"
         "    %rb = tt.broadcast %ro : tensor<32x1xi32, #l> -> " +
         t + "\n    %c = tt.make_range {end = 128 : i32, start = 0 : i32} : " + cols +
         "\n    %ce = tt.expand_dims %c {axis = 0 : i32} : " + cols +
         " -> tensor<1x128xi32, #l>\n"
         "    %cb = tt.broadcast %ce : tensor<1x128xi32, #l> -> " +
         t + "\n    %o = arith.addi %rb, %cb : " + t +
         "\n    %xs = tt.splat %x : !tt.ptr<i32> -> " + p + "\n    %xp = tt.addptr %xs, %o : " + p +
         ", " + t + "\n    %v = tt.load %xp : " + p + "\n" + scanned +
         "    %ys = tt.splat %y : !tt.ptr<i32> -> " + p + "\n    %yp = tt.addptr %ys, %o : " + p +
         ", " + t + "\n    tt.store %yp, %s : " + p + "\n    tt.return\n  }\n}\n";
}

Expected<LoweredKernel> compile(const std::string &text) {
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, "scan.tir"));
  LowerOptions o;
  o.target = PtxTarget{90, 80};
  return lowerKernel(m, o);
}

// The kernel's one scan report: its bits by holder, shuffles, exchanges, stores and scratch.
struct Want {
  int registerBits, laneBits, warpBits, shuffles, exchanges, sharedStores;
  int64_t scratchBytes;
};
void expectReport(const LoweredKernel &k, const Want &w) {
  ASSERT_EQ(k.scans.size(), 1u);
  const ScanReport &r = k.scans[0];
  EXPECT_NE(r.where.find("scan.tir:"), std::string::npos) << r.where;
  EXPECT_EQ(r.registerBits, w.registerBits);
  EXPECT_EQ(r.laneBits, w.laneBits);
  EXPECT_EQ(r.warpBits, w.warpBits);
  EXPECT_EQ(r.shuffles, w.shuffles);
  EXPECT_EQ(r.exchanges, w.exchanges);
  EXPECT_EQ(r.sharedStores, w.sharedStores);
  EXPECT_EQ(r.scratchBytes, w.scratchBytes);
}

const std::string kRowsInLanes = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], "
                                 "warpsPerCTA = [4, 1], order = [1, 0]}>";

} // namespace

TEST(Scan, AlongLanesIsButterfliesOnly) {
  for (bool reverse : {false, true}) {
    auto k = compile(scanKernel(kRowsInLanes, 1, reverse));
    ASSERT_TRUE(k.ok()) << k.message();
    // Each thread holds 8 rows of 4 adjacent columns, the lanes the 32 groups of 4: the row's 4
    // registers are scanned in the thread, then one total per row crosses each of the 5 lane
    // bits (a shuffle of 1, 2, 4, 8, 16); no shared memory.
    EXPECT_EQ(countLines(k->kernel.ptx, "shfl.sync.bfly.b32"), 8 * 5);
    EXPECT_EQ(countLines(k->kernel.ptx, "bar.sync"), 0);
    expectReport(*k, {2, 5, 0, 8 * 5, 0, 0, 0});
    EXPECT_EQ(countLines(k->kernel.ptx, ".shared"), 0);
    EXPECT_EQ(k->kernel.sharedBytes, 0u);
    EXPECT_PATTERNS(k->kernel.ptx, R"(
      CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 31, -1;
      CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 16, 31, -1;
    )");
    expectAssembles(k->kernel);
  }
}

TEST(Scan, AcrossWarpsExchangesOneTotalPerBlock) {
  // Rows: 8 registers, then 4 warps; each thread holds 4 columns (one per repetition).
  const std::string few = "#ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [1, 32], "
                          "warpsPerCTA = [4, 1], order = [0, 1]}>";
  auto k = compile(scanKernel(few, 0));
  ASSERT_TRUE(k.ok()) << k.message();
  // The 8 rows of a column in order in the thread, then both warp bits in one exchange: each
  // thread stores its 4 column totals and, after one barrier, loads the totals of its columns'
  // 4 warps (the last one's only counts for the column's total, which nothing reads: 3 loads),
  // from 32 lanes x 4 registers x 4 warps x 4 bytes.
  EXPECT_EQ(countLines(k->kernel.ptx, "shfl.sync"), 0);
  EXPECT_EQ(countLines(k->kernel.ptx, "st.shared"), 4);
  expectReport(*k, {3, 0, 2, 0, 1, 4, 32 * 4 * 4 * 4});
  EXPECT_EQ(countLines(k->kernel.ptx, "ld.shared"), 3 * 4);
  EXPECT_EQ(countLines(k->kernel.ptx, "bar.sync"), 1);
  EXPECT_EQ(k->kernel.sharedBytes, uint64_t(32 * 4 * 4 * 4));
  expectAssembles(k->kernel);

  // Rows: 8 lanes, then 4 warps; each thread holds 32 columns (4 adjacent ones, 8 times) of
  // one row, 4 lanes the 16 columns of a repetition.
  const std::string many = "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [4, 1], order = [1, 0]}>";
  k = compile(scanKernel(many, 0));
  ASSERT_TRUE(k.ok()) << k.message();
  // Three consecutive lane bits first: an inclusive scan of each column over the 8 lanes by
  // shfl.sync.up, a shuffle per column and bit, which leaves the column's total in its last lane
  // only. Loading 4 warps' totals of 32 columns would keep 128 values live: one exchange per warp
  // bit instead, each storing the thread's 32 column totals (in the first, only the last lanes of
  // the columns hold them: the other threads store to 4 spare bytes each) and loading the partner
  // warp's (the first exchange also its own warp's totals), alternating between two regions of 4
  // lanes x 32 registers x 4 warps x 4 bytes.
  EXPECT_EQ(countLines(k->kernel.ptx, "shfl.sync.up.b32"), 3 * 32);
  EXPECT_EQ(countLines(k->kernel.ptx, "shfl.sync.bfly.b32"), 0);
  EXPECT_EQ(countLines(k->kernel.ptx, "st.shared"), 2 * 32);
  const int64_t region = 4 * 32 * 4 * 4;
  const int64_t spare = 128 * 4;
  expectReport(*k, {0, 3, 2, 3 * 32, 2, 2 * 32, 2 * region + spare});
  EXPECT_EQ(countLines(k->kernel.ptx, "ld.shared"), 3 * 32);
  EXPECT_EQ(countLines(k->kernel.ptx, "bar.sync"), 2);
  EXPECT_EQ(k->kernel.sharedBytes, uint64_t(2 * region + spare));
  EXPECT_PATTERNS(k->kernel.ptx, R"(
    CHECK-COUNT-32: st.shared.u32
    CHECK: bar.sync 0;
    CHECK-COUNT-64: ld.shared.u32
    CHECK-COUNT-32: st.shared.u32
    CHECK: bar.sync 0;
    CHECK-COUNT-32: ld.shared.u32
  )");
  expectAssembles(k->kernel);
}

TEST(Scan, MmaLayoutsScanEitherAxis) {
  const std::string mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, "
                          "2], instrShape = [16, 8]}>";
  for (int axis : {0, 1}) {
    auto k = compile(scanKernel(mma, axis));
    ASSERT_TRUE(k.ok()) << k.message();
    // The accumulator interleaves registers and lanes along both axes: shuffles, and one
    // exchange for the one warp bit along each axis.
    EXPECT_GT(countLines(k->kernel.ptx, "shfl.sync"), 0);
    EXPECT_EQ(countLines(k->kernel.ptx, "bar.sync"), 1);
    expectAssembles(k->kernel);
  }
}

TEST(Scan, LayoutsThatMixTheAxisAreRefused) {
  // Lane bit 0 steps along both dims.
  const std::string mixed = "#ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], "
                            "[0, 32], [0, 64], [4, 0]], lane = [[1, 1], [2, 0], [8, 0], [16, 0], "
                            "[0, 0]], warp = [[0, 0], [0, 0]], block = []}>";
  auto k = compile(scanKernel(kRowsInLanes, 0, false, mixed));
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("tt.scan: lane bit 0 steps both along the scanned dim and another "
                             "one"),
            std::string::npos)
      << k.message();
  // Register bit 0 steps along two bits of the rows.
  const std::string twoBits = "#ttg.linear<{register = [[3, 0], [0, 1], [0, 2], [0, 4], [0, 8], "
                              "[0, 16], [0, 32], [0, 64]], lane = [[1, 0], [4, 0], [8, 0], [16, "
                              "0], [0, 0]], warp = [[0, 0], [0, 0]], block = []}>";
  k = compile(scanKernel(kRowsInLanes, 0, false, twoBits));
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("register bit 0 steps along several bits of the scanned dim"),
            std::string::npos)
      << k.message();
}
