// Vector widths of global and shared accesses, read from the PTX: a vector is emitted only where
// it is right for every thread. The layouts here are ones where the old rule (register bases
// 1, 2, 4, ... of the first register only, and the ll.vec attribute taken as given) emitted
// vectors that were misaligned or held the wrong elements.
#include "Property.h"
#include "PtxCheck.h"
#include "SharedVector.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

std::string compileToPtx(const std::string &text, bool passes = false) {
  auto m = ir::parseModule(text, "<vector-width>");
  EXPECT_TRUE(m.ok()) << m.message();
  if (!m.ok())
    return "";
  if (passes) {
    Status s = ir::runPipeline(*m);
    EXPECT_TRUE(s.ok()) << s.message();
  }
  LowerOptions o;
  o.target = PtxTarget{90, 80};
  auto k = lowerKernel(*m, o);
  EXPECT_TRUE(k.ok()) << k.message();
  if (!k.ok())
    return "";
  expectAssembles(k->kernel);
  return k->kernel.ptx;
}

const char *kHeader = R"(
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
)";

// A 1-D copy of 512 f32 through shared memory in layout LAYOUT, with ll.vec = 4 written on the
// global accesses; POINTER_HINT is the divisibility hint of the pointers.
std::string copyThroughShared(const std::string &layoutDef, const std::string &hint) {
  std::string t = std::string(kHeader) + "#l = " + layoutDef + "\n" + R"(
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @k(%x: !tt.ptr<f32> HINT, %y: !tt.ptr<f32> HINT) {
    %o = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #l>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #l>
    %pa = tt.addptr %xs, %o : tensor<512x!tt.ptr<f32>, #l>, tensor<512xi32, #l>
    %a = tt.load %pa {ll.vec = 4 : i32} : tensor<512x!tt.ptr<f32>, #l>
    %buf = ttg.local_alloc %a : (tensor<512xf32, #l>) -> !ttg.memdesc<512xf32, #shared, #smem>
    %b = ttg.local_load %buf : !ttg.memdesc<512xf32, #shared, #smem> -> tensor<512xf32, #l>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #l>
    %pb = tt.addptr %ys, %o : tensor<512x!tt.ptr<f32>, #l>, tensor<512xi32, #l>
    tt.store %pb, %b {ll.vec = 4 : i32} : tensor<512x!tt.ptr<f32>, #l>
    tt.return
  }
}
)";
  for (size_t p = t.find("HINT"); p != std::string::npos; p = t.find("HINT"))
    t.replace(p, 4, hint);
  return t;
}

struct Widths {
  int v4 = 0, v2 = 0, scalar = 0;
};

Widths count(const std::string &ptx, const std::string &op) {
  Widths w;
  w.v4 = countLines(ptx, op + ".v4");
  w.v2 = countLines(ptx, op + ".v2");
  w.scalar = countLines(ptx, "{{" + op + "\\.(u32|b32|f32) }}");
  return w;
}

const char *kAligned = "{tt.divisibility = 16 : i32}";

} // namespace

// Register bases 1, 2 with lane basis 5: lane 1's registers hold elements 5, 4, 7, 6 (bases
// combine by xor). A vector of 4 (or 2) at element 5 would be misaligned and would read 5, 6, 7,
// 8. Every access is scalar: 4 per thread for each of the four accesses.
TEST(VectorWidth, LaneBasisInsideTheRunGivesScalars) {
  std::string ptx = compileToPtx(
      copyThroughShared("#ttg.linear<{register = [[1], [2]], lane = [[5], [8], [16], [32], [64]], "
                        "warp = [[128], [256]], block = []}>",
                        kAligned));
  for (const char *op : {"ld.global", "st.global", "ld.shared", "st.shared"}) {
    Widths w = count(ptx, op);
    EXPECT_EQ(w.v4, 0) << op;
    EXPECT_EQ(w.v2, 0) << op;
    EXPECT_EQ(w.scalar, 4) << op;
  }
}

// Lane basis 6: runs of 2 stay aligned (lane 1 holds 6, 7 | 4, 5), runs of 4 do not.
TEST(VectorWidth, LaneBasisAboveHalfTheRunGivesPairs) {
  std::string ptx = compileToPtx(
      copyThroughShared("#ttg.linear<{register = [[1], [2]], lane = [[6], [8], [16], [32], [64]], "
                        "warp = [[128], [256]], block = []}>",
                        kAligned));
  for (const char *op : {"ld.global", "st.global", "ld.shared", "st.shared"}) {
    Widths w = count(ptx, op);
    EXPECT_EQ(w.v4, 0) << op;
    EXPECT_EQ(w.v2, 2) << op;
    EXPECT_EQ(w.scalar, 0) << op;
  }
}

// A later register basis inside the run: registers 0, 1 step by 1, 2 but register 4 holds
// element 5, so vectors of 4 (or 2) starting at register 4 would not be aligned.
TEST(VectorWidth, LaterRegisterBasisInsideTheRunNarrowsTheVector) {
  std::string ptx = compileToPtx(copyThroughShared(
      "#ttg.linear<{register = [[1], [2], [5]], lane = [[8], [16], [32], [64], [128]], "
      "warp = [[256], [0]], block = []}>",
      kAligned));
  for (const char *op : {"ld.global", "ld.shared"}) {
    Widths w = count(ptx, op);
    EXPECT_EQ(w.v4, 0) << op;
    EXPECT_EQ(w.scalar, 8) << op;
  }
}

// The same blocked layout as a plain copy uses v4 (the rule does not lose the good case) ...
TEST(VectorWidth, BlockedRunsOfFourStayVectors) {
  std::string ptx = compileToPtx(copyThroughShared(
      "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
      kAligned));
  for (const char *op : {"ld.global", "st.global", "ld.shared", "st.shared"})
    EXPECT_EQ(count(ptx, op).v4, 1) << op;
}

// ... but not when the pointers are not known to be 16-byte aligned: ll.vec = 4 is narrowed to
// what the divisibility hint allows (none: scalars; 8 bytes: pairs). Shared memory is aligned.
TEST(VectorWidth, PointerDivisibilityBoundsGlobalVectors) {
  const char *blocked =
      "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>";
  std::string none = compileToPtx(copyThroughShared(blocked, ""));
  EXPECT_EQ(count(none, "ld.global").scalar, 4);
  EXPECT_EQ(count(none, "st.global").scalar, 4);
  EXPECT_EQ(count(none, "ld.shared").v4, 1);
  std::string eight = compileToPtx(copyThroughShared(blocked, "{tt.divisibility = 8 : i32}"));
  EXPECT_EQ(count(eight, "ld.global").v2, 2);
  EXPECT_EQ(count(eight, "st.global").v2, 2);
}

// Registers stepping a strided dimension: a row-major 8x128 tile whose registers run down the
// rows ([4, 1] per thread, order [0, 1]); ll.vec = 4 on the accesses. The elements of a thread are
// 128 apart in memory: scalars.
TEST(VectorWidth, RegistersAlongAStridedDimensionGiveScalars) {
  std::string text = R"(
#b = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [2, 16], warpsPerCTA = [1, 4], order = [0, 1]}>
#s0 = #ttg.slice<{dim = 1, parent = #b}>
#s1 = #ttg.slice<{dim = 0, parent = #b}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @k(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32, #s0>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #s1>
    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<8xi32, #s0> -> tensor<8x1xi32, #b>
    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #s1> -> tensor<1x64xi32, #b>
    %k = arith.constant dense<128> : tensor<8x1xi32, #b>
    %rs = arith.muli %r2, %k : tensor<8x1xi32, #b>
    %rb = tt.broadcast %rs : tensor<8x1xi32, #b> -> tensor<8x64xi32, #b>
    %cb = tt.broadcast %c2 : tensor<1x64xi32, #b> -> tensor<8x64xi32, #b>
    %o = arith.addi %rb, %cb : tensor<8x64xi32, #b>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>, #b>
    %pa = tt.addptr %xs, %o : tensor<8x64x!tt.ptr<f32>, #b>, tensor<8x64xi32, #b>
    %a = tt.load %pa {ll.vec = 4 : i32} : tensor<8x64x!tt.ptr<f32>, #b>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<8x64x!tt.ptr<f32>, #b>
    %pb = tt.addptr %ys, %o : tensor<8x64x!tt.ptr<f32>, #b>, tensor<8x64xi32, #b>
    tt.store %pb, %a {ll.vec = 4 : i32} : tensor<8x64x!tt.ptr<f32>, #b>
    tt.return
  }
}
)";
  std::string ptx = compileToPtx(text);
  EXPECT_EQ(count(ptx, "ld.global").v4, 0);
  EXPECT_EQ(count(ptx, "ld.global").scalar, 4);
  EXPECT_EQ(count(ptx, "st.global").scalar, 4);
}

// A mask that changes inside a run (n with no divisibility hint) narrows the vector to 1; with
// n a multiple of 16 the copy keeps v4.
TEST(VectorWidth, MaskConstancyBoundsTheVector) {
  auto kernel = [](const std::string &nHint) {
    return std::string(R"(
#l = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @k(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32 )") +
           nHint + R"() {
    %o = tt.make_range {end = 512 : i32, start = 0 : i32} : tensor<512xi32, #l>
    %ns = tt.splat %n : i32 -> tensor<512xi32, #l>
    %m = arith.cmpi slt, %o, %ns : tensor<512xi32, #l>
    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #l>
    %pa = tt.addptr %xs, %o : tensor<512x!tt.ptr<f32>, #l>, tensor<512xi32, #l>
    %a = tt.load %pa, %m {ll.vec = 4 : i32} : tensor<512x!tt.ptr<f32>, #l>
    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<512x!tt.ptr<f32>, #l>
    %pb = tt.addptr %ys, %o : tensor<512x!tt.ptr<f32>, #l>, tensor<512xi32, #l>
    tt.store %pb, %a, %m {ll.vec = 4 : i32} : tensor<512x!tt.ptr<f32>, #l>
    tt.return
  }
}
)";
  };
  std::string ragged = compileToPtx(kernel(""));
  EXPECT_EQ(count(ragged, "ld.global").v4, 0);
  EXPECT_EQ(count(ragged, "ld.global").scalar, 4);
  std::string even = compileToPtx(kernel("{tt.divisibility = 16 : i32}"));
  EXPECT_EQ(count(even, "ld.global").v4, 1);
  EXPECT_EQ(count(even, "st.global").v4, 1);
}

// Without ll.vec (no passes) lower/ uses the safe width itself, and after the passes the
// attribute is that same width.
TEST(VectorWidth, UnannotatedAccessesGetTheSafeWidth) {
  std::string text = copyThroughShared(
      "#ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
      kAligned);
  for (size_t p = text.find(" {ll.vec = 4 : i32}"); p != std::string::npos;
       p = text.find(" {ll.vec = 4 : i32}"))
    text.erase(p, 19);
  for (bool passes : {false, true}) {
    std::string ptx = compileToPtx(text, passes);
    EXPECT_EQ(count(ptx, "ld.global").v4, 1) << passes;
    EXPECT_EQ(count(ptx, "st.global").v4, 1) << passes;
  }
}

// sharedVectorWidth against a brute-force evaluator: random maps (register, lane, warp) ->
// offset whose first registers step the offset by 1, 2, 4, ... (or not); the width is at most 16
// bytes, every thread's vector sits at consecutive offsets from a multiple of the width, and
// twice the width would not (when registers and bytes allowed it).
TEST(VectorWidth, SharedVectorWidthHoldsForEveryThread) {
  checkProperty([] {
    const int offBits = *rc::gen::inRange(2, 8);
    const int bytes = 1 << *rc::gen::inRange(0, 4);
    const int regBits = *rc::gen::inRange(0, 5), laneBits = *rc::gen::inRange(0, 3);
    const int unit = *rc::gen::inRange(0, std::min(regBits, offBits) + 1);
    auto any = [&] { return *rc::gen::inRange<uint64_t>(0, uint64_t(1) << offBits); };
    std::vector<std::vector<uint64_t>> reg, lane;
    for (int i = 0; i < regBits; ++i)
      reg.push_back({i < unit ? uint64_t(1) << i : any()});
    for (int i = 0; i < laneBits; ++i)
      lane.push_back({any()});
    std::vector<InDimBases> ins{{DimName::reg(), reg}, {DimName::lane(), lane}};
    std::vector<DimSize> outs{{DimName::offset(), uint64_t(1) << offBits}};
    auto l = LinearLayout::fromBases(ins, outs);
    RC_ASSERT(l.ok());
    int v = sharedVectorWidth(*l, bytes);
    RC_ASSERT(v >= 1 && (v & (v - 1)) == 0 && v * bytes <= std::max(16, bytes));
    auto holds = [&](int w) {
      if (__builtin_ctz(unsigned(w)) > regBits)
        return false;
      for (uint64_t h = 0; h < (uint64_t(1) << l->totalInBits()); h += uint64_t(w)) {
        uint64_t base = l->apply(h);
        if (base % uint64_t(w))
          return false;
        for (uint64_t i = 1; i < uint64_t(w); ++i)
          if (l->apply(h | i) != base + i)
            return false;
      }
      return true;
    };
    RC_ASSERT(holds(v));
    if (2 * v * bytes <= 16)
      RC_ASSERT(!holds(2 * v));
  });
}
