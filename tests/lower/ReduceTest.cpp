// tt.reduce: in-thread combination, butterfly shuffles across lanes, shared memory across warps.
#include "OpLowering.h"
#include "PtxCheck.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

// Sums a 32x128 f32 tile along `axis` (0: columns, whose rows are split over 4 warps; 1: rows,
// whose columns are split over the 32 lanes) and stores the 128 or 32 results.
std::string reduceKernel(int axis) {
  int keep = 1 - axis;
  int n = axis == 0 ? 128 : 32;
  std::string slice = "#ttg.slice<{dim = " + std::to_string(axis) + ", parent = #blocked}>";
  std::string other = "#ttg.slice<{dim = " + std::to_string(keep) + ", parent = #blocked}>";
  std::ostringstream s;
  s << R"(#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @reduce(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #ttg.slice<{dim = 1, parent = #blocked}>> -> tensor<32x1xi32, #blocked>
    %c128 = arith.constant dense<128> : tensor<32x1xi32, #blocked>
    %rowoff = arith.muli %rows, %c128 : tensor<32x1xi32, #blocked>
    %rowoffb = tt.broadcast %rowoff : tensor<32x1xi32, #blocked> -> tensor<32x128xi32, #blocked>
    %c = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>>
    %cols = tt.expand_dims %c {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, parent = #blocked}>> -> tensor<1x128xi32, #blocked>
    %colsb = tt.broadcast %cols : tensor<1x128xi32, #blocked> -> tensor<32x128xi32, #blocked>
    %offs = arith.addi %rowoffb, %colsb : tensor<32x128xi32, #blocked>
    %xv = tt.splat %x : !tt.ptr<f32> -> tensor<32x128x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xv, %offs : tensor<32x128x!tt.ptr<f32>, #blocked>, tensor<32x128xi32, #blocked>
    %vals = tt.load %xp : tensor<32x128x!tt.ptr<f32>, #blocked>
    %sum = tt.reduce sum %vals {axis = )"
    << axis << R"( : i32} : tensor<32x128xf32, #blocked> -> tensor<)" << n << "xf32, " << slice
    << R"(>
    %i = tt.make_range {end = )"
    << n << R"( : i32, start = 0 : i32} : tensor<)" << n << "xi32, " << slice << R"(>
    %outv = tt.splat %out : !tt.ptr<f32> -> tensor<)"
    << n << "x!tt.ptr<f32>, " << slice << R"(>
    %outp = tt.addptr %outv, %i : tensor<)"
    << n << "x!tt.ptr<f32>, " << slice << ">, tensor<" << n << "xi32, " << slice << R"(>
    tt.store %outp, %sum : tensor<)"
    << n << "x!tt.ptr<f32>, " << slice << R"(>
    tt.return
  }
}
)";
  (void)other;
  return s.str();
}

Expected<KernelPtx> compile(const std::string &text, int sm) {
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, "reduce.tir"));
  LowerOptions o;
  o.target = PtxTarget{sm, 80};
  LL_ASSIGN_OR_RETURN(LoweredKernel k, lowerKernel(m, o));
  return k.kernel;
}

} // namespace

TEST(Reduce, AlongLanesIsButterfliesOnly) {
  for (int sm : {80, 90}) {
    auto k = compile(reduceKernel(1), sm);
    ASSERT_TRUE(k.ok()) << k.message();
    // Each thread holds 8 rows x 4 columns: 3 adds per row in the thread, then 5 butterflies
    // (32 lanes along the row) per row; no shared memory.
    EXPECT_EQ(countLines(k->ptx, "shfl.sync.bfly.b32"), 8 * 5);
    EXPECT_EQ(countLines(k->ptx, "add.rn.f32") + countLines(k->ptx, "add.f32"), 8 * (3 + 5));
    EXPECT_EQ(countLines(k->ptx, "bar.sync"), 0);
    EXPECT_EQ(countLines(k->ptx, ".shared"), 0);
    EXPECT_PATTERNS(k->ptx, R"(
      CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 1, 31, -1;
      CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 2, 31, -1;
      CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 4, 31, -1;
      CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 8, 31, -1;
      CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 16, 31, -1;
    )");
    expectAssembles(*k);
  }
}

TEST(Reduce, AcrossWarpsMeetsInSharedMemory) {
  for (int sm : {80, 90}) {
    auto k = compile(reduceKernel(0), sm);
    ASSERT_TRUE(k.ok()) << k.message();
    // Rows are split over warps (8 rows per warp in registers): in-thread adds, no shuffles, one
    // partial per column per warp in shared memory (4 columns per thread), one barrier, 4 warps'
    // partials read back per column.
    EXPECT_EQ(countLines(k->ptx, "shfl.sync"), 0);
    EXPECT_EQ(countLines(k->ptx, "st.shared"), 4);
    EXPECT_EQ(countLines(k->ptx, "ld.shared"), 4 * 4);
    EXPECT_EQ(countLines(k->ptx, "bar.sync"), 1);
    EXPECT_PATTERNS(k->ptx, R"(
      CHECK: .extern .shared .align 16 .b8 global_smem[];
      CHECK-COUNT-4: st.shared.f32
      CHECK-NEXT: bar.sync 0;
      CHECK: ld.shared.f32
    )");
    expectAssembles(*k);
  }
}

// A reduction of two tensors by a combining body (an i8 and an f64 column sum), its rows split
// over 4 warps: each operand's partials go to a part of the exchange of their own, the widest
// first, so that both are aligned (the f64 part's 128 columns x 4 warps x 8 bytes, then the i8
// part's x 1 byte); the body's ops are emitted at each combination.
TEST(Reduce, SeveralTensorsExchangeEachInAnAlignedPartOfItsOwn) {
  std::string text = reduceKernel(0);
  const std::string sum =
      text.substr(text.find("    %sum = tt.reduce"),
                  text.find("    %i = tt.make_range") - text.find("    %sum = tt.reduce"));
  const std::string slice = "#ttg.slice<{dim = 0, parent = #blocked}>";
  text.replace(text.find(sum), sum.size(),
               "    %b = arith.fptosi %vals : tensor<32x128xf32, #blocked> to tensor<32x128xi8, "
               "#blocked>\n    %w = arith.extf %vals : tensor<32x128xf32, #blocked> to "
               "tensor<32x128xf64, #blocked>\n    %s:2 = \"tt.reduce\"(%b, %w) <{axis = 0 : i32}> "
               "({\n    ^bb0(%a0: i8, %a1: f64, %b0: i8, %b1: f64):\n      %t0 = arith.addi %a0, "
               "%b0 : i8\n      %t1 = arith.addf %a1, %b1 : f64\n      tt.reduce.return %t0, %t1 "
               ": i8, f64\n    }) : (tensor<32x128xi8, #blocked>, tensor<32x128xf64, #blocked>) "
               "-> (tensor<128xi8, " +
                   slice + ">, tensor<128xf64, " + slice +
                   ">)\n    %sum = arith.sitofp %s#0 : tensor<128xi8, " + slice +
                   "> to tensor<128xf32, " + slice +
                   ">\n    %sum64 = arith.truncf %s#1 : "
                   "tensor<128xf64, " +
                   slice + "> to tensor<128xf32, " + slice + ">\n");
  text.replace(text.find("    tt.store %outp, %sum"), 24,
               "    %both = arith.addf %sum, %sum64 : tensor<128xf32, " + slice +
                   ">\n    tt.store %outp, %both");
  for (int sm : {80, 90}) {
    auto k = compile(text, sm);
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(countLines(k->ptx, "st.shared.f64"), 4);
    EXPECT_EQ(countLines(k->ptx, "st.shared.u8"), 4);
    EXPECT_EQ(countLines(k->ptx, "ld.shared.f64"), 4 * 4);
    EXPECT_EQ(countLines(k->ptx, "ld.shared.u8"), 4 * 4);
    EXPECT_EQ(countLines(k->ptx, "bar.sync"), 1);
    EXPECT_EQ(k->sharedBytes, 128u * 4 * (8 + 1));
    expectAssembles(*k);
  }
}

// The parts of an exchange: the widest operand's first, each part aligned to its elements.
TEST(Reduce, ExchangePartsGoWidestFirst) {
  EXPECT_EQ(exchangeParts({1, 8, 4}, 3), (std::vector<int64_t>{36, 0, 24}));
  EXPECT_EQ(exchangeParts({4, 4}, 5), (std::vector<int64_t>{0, 20}));
  EXPECT_EQ(exchangeParts({2}, 7), (std::vector<int64_t>{0}));
  for (const std::vector<int> &bytes : {std::vector<int>{1, 2, 4, 8}, std::vector<int>{8, 1, 8, 2}})
    for (int64_t slots : {1, 3, 512}) {
      std::vector<int64_t> at = exchangeParts(bytes, slots);
      for (size_t i = 0; i < bytes.size(); ++i)
        EXPECT_EQ(at[i] % bytes[i], 0) << i;
    }
}
