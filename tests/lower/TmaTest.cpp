// TMA and mbarriers lowered (sm_90): the box plan of a tensor descriptor against its NVMMA layout,
// the tensor-map parameter as a 64-byte aligned 128-byte .param the kernel reads in place, and
// the TMA matmul examples through ptxas -arch=sm_90a.
#include "Examples.h"
#include "OpLowering.h"
#include "PtxCheck.h"
#include "RandomTmaCopy.h"
#include "SharedView.h"

#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

Expected<TmaBoxPlan> planFor(const std::string &layout, const std::string &block) {
  std::string text = "#s = " + layout +
                     "\nmodule attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = \"cuda:90\"} "
                     "{\n  tt.func @f(%d: !tt.tensordesc<tensor<" +
                     block + ", #s>>) {\n    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "plan.tir");
  if (!m.ok())
    return m.error();
  const ir::Function &f = m->functions.at(0);
  return planTmaBox(*m, f.type(f.body.args.at(0)));
}

const char *kNvmma128 =
    "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>";

} // namespace

// A block as wide as the swizzle is one box; a wider one is boxes side by side, each a
// contiguous swizzle-wide slab of the NVMMA tile; other swizzles and no swizzle likewise.
TEST(Tma, BoxPlanMatchesTheNvmmaLayout) {
  auto a = planFor(kNvmma128, "128x64xf16");
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_EQ(a->box, (std::vector<int64_t>{128, 64}));
  EXPECT_EQ(a->copies, 1);
  EXPECT_EQ(a->swizzleBytes, 128);
  auto b = planFor(kNvmma128, "64x256xf16");
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(b->box, (std::vector<int64_t>{64, 64}));
  EXPECT_EQ(b->copies, 4);
  for (int swizzle : {32, 64}) {
    SCOPED_TRACE(swizzle);
    auto p = planFor("#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(swizzle) +
                         ", transposed = false, elementBitWidth = 16}>",
                     "64x64xf16");
    ASSERT_TRUE(p.ok()) << p.message();
    EXPECT_EQ(p->box, (std::vector<int64_t>{64, swizzle / 2}));
    EXPECT_EQ(p->copies, 128 / swizzle);
  }
  auto f32 = planFor("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                     "elementBitWidth = 32}>",
                     "64x32xf32");
  ASSERT_TRUE(f32.ok()) << f32.message();
  EXPECT_EQ(f32->box, (std::vector<int64_t>{64, 32}));
  // A plain row-major tile is an unswizzled box.
  auto plain = planFor(
      "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>", "32x64xf16");
  ASSERT_TRUE(plain.ok()) << plain.message();
  EXPECT_EQ(plain->swizzleBytes, 0);
  EXPECT_EQ(plain->box, (std::vector<int64_t>{32, 64}));
  // A swizzle TMA does not write is an error naming an element.
  auto bad = planFor("#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
                     "64x64xf16");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("is not the one a TMA copy"), std::string::npos) << bad.message();
  // Column-major (transposed) NVMMA tiles are not a row-major box.
  auto t = planFor("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = true, "
                   "elementBitWidth = 16}>",
                   "64x64xf16");
  EXPECT_FALSE(t.ok());
  auto three = planFor("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                       "elementBitWidth = 16}>",
                       "2x64x64xf16");
  EXPECT_FALSE(three.ok());
}

// The examples lower to cp.async.bulk.tensor and mbarrier waits, read the tensor maps in
// parameter space (no copy to local memory), and assemble for sm_90a without spills.
TEST(Tma, ExamplesLowerAndAssemble) {
  for (const char *name : {"matmul_tma.tir", "matmul_tma_wide.tir"}) {
    SCOPED_TRACE(name);
    auto m = ir::parseModule(exampleSource(name), name);
    ASSERT_TRUE(m.ok()) << m.message();
    auto k = lowerKernel(*m);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(k->kernel.params.at(0).kind, ParamKind::TensorMap);
    EXPECT_EQ(k->kernel.params.at(0).box, (std::vector<uint32_t>{128, 64}));
    EXPECT_EQ(k->kernel.params.at(1).box, (std::vector<uint32_t>{64, 64}));
    EXPECT_EQ(k->kernel.params.at(1).swizzleBytes, 128);
    EXPECT_EQ(k->kernel.params.at(1).element, "f16");
    EXPECT_PATTERNS(ptx, R"(
      CHECK: .param .align 64 .b8 {{[a-z_]+}}_param_0[128]
      CHECK: .param .align 64 .b8 {{[a-z_]+}}_param_1[128]
      CHECK: mbarrier.init.shared::cta.b64
      CHECK: mbarrier.arrive.expect_tx.shared::cta.b64
      CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
      CHECK: mbarrier.try_wait.parity.shared::cta.b64
      CHECK: wgmma.mma_async
      CHECK: wgmma.wait_group.sync.aligned 1;
      CHECK: mbarrier.inval.shared::cta.b64
    )");
    // The maps stay in parameter space: their generic address, no local copy of them.
    EXPECT_EQ(countLines(ptx, "cvta.param.u64"), 2);
    EXPECT_EQ(ptx.find(".local"), std::string::npos);
    EXPECT_EQ(countLines(ptx, "fence.proxy.async"), 0);
    auto r = expectAssembles(k->kernel, /*requireNoSpills=*/true);
    if (r.accepted)
      std::cout << "[          ] " << name << ": " << r.registers << " registers, "
                << countLines(ptx, "bar.sync") << " bar.sync, "
                << countLines(ptx, "cp.async.bulk.tensor") << " TMA copies in the PTX\n";
    // The pass pipeline keeps it compilable.
    ASSERT_TRUE(ir::runPipeline(*m).ok());
    auto piped = lowerKernel(*m);
    ASSERT_TRUE(piped.ok()) << piped.message();
  }
}

// The mbarriers of a ring, each its own tile of the barriers' buffer, are initialised one after
// the other by the issuing thread: no bar.sync between two inits and one fence after the last,
// then the one bar.sync before the warps use them; at the end, no barrier between the invals.
TEST(Tma, BarrierInitsShareOneFenceAndOneBarrier) {
  auto m = ir::parseModule(exampleSource("matmul_ws_persistent_tmastore.tir"), "tmastore.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  auto k = lowerKernel(*m);
  ASSERT_TRUE(k.ok()) << k.message();
  const std::string &ptx = k->kernel.ptx;
  const size_t regions = ptx.find("setmaxnreg"), invals = ptx.find("mbarrier.inval");
  const size_t lastInval = ptx.rfind("mbarrier.inval");
  ASSERT_NE(regions, std::string::npos);
  ASSERT_NE(invals, std::string::npos);
  const std::string before = ptx.substr(0, regions);
  EXPECT_EQ(countLines(before, "mbarrier.init"), 6) << before;
  EXPECT_EQ(countLines(before, "fence.mbarrier_init"), 1) << before;
  EXPECT_EQ(countLines(before, "bar.sync"), 1) << before;
  EXPECT_LT(before.rfind("fence.mbarrier_init"), before.find("bar.sync"));
  const std::string between = ptx.substr(invals, lastInval - invals);
  EXPECT_EQ(countLines(between, "mbarrier.inval"), 5) << between;
  EXPECT_EQ(countLines(between, "barrier.sync"), 0) << between;
  expectAssembles(k->kernel, /*requireNoSpills=*/true);
}

// The copy engine feeding mma.sync: per K step of 64, one expect and 5 TMA copies (A's 128x64
// box, B's 64x256 tile as four 64x64 boxes), then per 16-wide slice 4 + 4 ldmatrix (the B side
// transposed) from the NVMMA tiles and 32 mma.sync per warp (slice 0 of the first step loaded
// before the loop); no wgmma, no cp.async, no spills, through the pass pipeline too.
TEST(Tma, MmaSyncExampleReadsTheTilesWithLdmatrix) {
  auto m = ir::parseModule(exampleSource("matmul_tma_mma_wide.tir"), "matmul_tma_mma_wide.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  for (bool piped : {false, true}) {
    SCOPED_TRACE(piped ? "after the pass pipeline" : "as written");
    if (piped) {
      ASSERT_TRUE(ir::runPipeline(*m).ok());
    }
    auto k = lowerKernel(*m);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(k->kernel.params.at(1).box, (std::vector<uint32_t>{64, 64}));
    EXPECT_EQ(countLines(ptx, "cp.async.bulk.tensor"), 3 * 5);
    EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 4 + 16);
    EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), 4 + 16);
    EXPECT_EQ(countLines(ptx, "mma.sync.aligned.m16n8k16"), 128);
    EXPECT_EQ(countLines(ptx, "wgmma"), 0);
    EXPECT_EQ(countLines(ptx, "cp.async.cg"), 0);
    auto r = expectAssembles(k->kernel, /*requireNoSpills=*/true);
    if (r.accepted)
      std::cout << "[          ] matmul_tma_mma_wide.tir: " << r.registers << " registers\n";
  }
}

namespace {

// The module of one function that allocates a `buffer` tile in `layout` and views `view` of it at
// `origin` ("r, c"); the view's type and the copy plan of a descriptor of the view's shape.
struct ViewCase {
  ir::Module module;
  ir::Type viewType;
  TmaBoxPlan plan;
  Lowered lowered; ///< the view as the lowering holds it: the buffer's layout, the origin's XOR
};

Expected<ViewCase> viewCase(const std::string &layout, const std::string &buffer,
                            const std::string &view, std::vector<int64_t> origin) {
  std::string mem = "!ttg.memdesc<" + buffer + "xf16, #s, #smem, mutable>";
  std::string text =
      "#s = " + layout +
      "\n#smem = #ttg.shared_memory\nmodule attributes {\"ttg.num-warps\" = 4 : i32, "
      "ttg.target = \"cuda:90\"} {\n  tt.func @f(%d: !tt.tensordesc<tensor<" +
      view + "xf16, #s>>) {\n    %b = ttg.local_alloc : () -> " + mem +
      "\n    %v = ttg.memdesc_subslice %b [" + std::to_string(origin[0]) + ", " +
      std::to_string(origin[1]) + "] : " + mem + " -> !ttg.memdesc<" + view +
      "xf16, #s, #smem, mutable, " + buffer + ">\n    tt.return\n  }\n}\n";
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, "view.tir"));
  const ir::Function &f = m.functions.at(0);
  const ir::Type &bufType = f.type(f.body.ops.at(0).results.at(0));
  ViewCase c{m, f.type(f.body.ops.at(1).results.at(0)), {}, {}};
  LL_ASSIGN_OR_RETURN(c.plan, planTmaBox(m, f.type(f.body.args.at(0))));
  LL_ASSIGN_OR_RETURN(c.lowered.layout, toLinearLayout(m.layoutOf(bufType), bufType.shape()));
  LL_ASSIGN_OR_RETURN(c.lowered.viewXor, viewOrigin(c.lowered.layout, origin));
  return c;
}

} // namespace

// A copy into a view (ttg.memdesc_subslice) starts at the view's first element: B's 64x256 tile
// filled box by box through 64x64 views lands where the tile's layout has every element. A view
// off the swizzle's period, or of a layout the boxes do not write, is an error.
TEST(Tma, CopiesIntoViewsStartAtTheView) {
  for (int64_t q = 0; q < 4; ++q) {
    auto c = viewCase(kNvmma128, "64x256", "64x64", {0, 64 * q});
    ASSERT_TRUE(c.ok()) << c.message();
    auto start = tmaTileStart(c->lowered, c->viewType, c->plan);
    ASSERT_TRUE(start.ok()) << start.message();
    EXPECT_EQ(*start, 8192 * q);
  }
  auto rows = viewCase(kNvmma128, "128x64", "64x64", {64, 0});
  ASSERT_TRUE(rows.ok()) << rows.message();
  EXPECT_EQ(tmaTileStart(rows->lowered, rows->viewType, rows->plan).value(), 8192);
  // Unswizzled row-major tiles: the right half of a 16x64 tile starts mid-line; a 16x64 view of
  // a 32x128 tile starts on a line, but its rows are 256 bytes apart, the box's 128.
  const char *plainRows =
      "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>";
  auto refusal = [&](const std::string &buffer, const std::string &view,
                     std::vector<int64_t> origin) -> std::string {
    auto c = viewCase(plainRows, buffer, view, origin);
    if (!c.ok())
      return "no case: " + c.message();
    auto start = tmaTileStart(c->lowered, c->viewType, c->plan);
    return start.ok() ? "accepted" : start.message();
  };
  EXPECT_EQ(refusal("16x64", "16x32", {0, 32}),
            "the view starts at byte 64 of its buffer; a TMA box must "
            "start at a multiple of 128");
  EXPECT_EQ(refusal("32x128", "16x64", {16, 64}),
            "the view's element (1, 0) is at byte 4480 of its "
            "buffer; the copy would put it at byte 4352");
  // The lowering says so, with the copy's place.
  const std::string mem = "!ttg.memdesc<16x64xf16, #s, #smem, mutable>";
  const std::string v = "!ttg.memdesc<16x32xf16, #s, #smem, mutable, 16x64>";
  const std::string bar = "!ttg.memdesc<1xi64, #bar, #smem, mutable>";
  const std::string text =
      std::string("#s = ") + plainRows +
      "\n#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"
      "#smem = #ttg.shared_memory\nmodule attributes {\"ttg.num-warps\" = 4 : i32, ttg.target = "
      "\"cuda:90\"} {\n  tt.func public @f(%d: !tt.tensordesc<tensor<16x32xf16, #s>>, %r: i32) {\n"
      "    %t = arith.constant true\n    %b = ttg.local_alloc : () -> " +
      mem + "\n    %m = ttg.local_alloc : () -> " + bar + "\n    ttng.init_barrier %m, 1 : " + bar +
      "\n    %v = ttg.memdesc_subslice %b [0, 32] : " + mem + " -> " + v +
      "\n    ttng.barrier_expect %m, 1024, %t : " + bar +
      "\n    ttng.async_tma_copy_global_to_local %d[%r, %r] %v, %m, %t : "
      "!tt.tensordesc<tensor<16x32xf16, #s>>, " +
      bar + " -> " + v + "\n    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "view.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  auto k = lowerKernel(*m);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("view.tir:12:5: ttng.async_tma_copy_global_to_local: "),
            std::string::npos)
      << k.message();
  EXPECT_NE(k.message().find("must start at a multiple of 128"), std::string::npos) << k.message();
}

TEST(Tma, NeedsSm90) {
  auto m = ir::parseModule(exampleSource("matmul_tma.tir"), "matmul_tma.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  m->target = "cuda:80";
  auto k = lowerKernel(*m);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("need sm_90"), std::string::npos) << k.message();
}

// Random TMA tile copies (RandomTmaCopy.h: 1- to 8-byte elements, every swizzle, tiles of one or
// several boxes through one descriptor or one per view, blocks partly outside the tensor): each
// runs in the interpreter (outside the tensor: zero), lowers for sm_90 and assembles; started one
// element off a 16-byte boundary, the interpreter refuses it.
TEST(Tma, RandomTileCopiesInterpretLowerAndAssemble) {
  std::mt19937_64 rng(2026);
  for (int i = 0; i < 100; ++i) {
    RandomTmaCopy c = randomTmaCopy(rng);
    const std::string text = c.text();
    SCOPED_TRACE(c.describe() + "\n" + text);
    auto m = ir::parseModule(text, "tma.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    ir::Memory mem = c.start(rng);
    const ir::Memory before = mem;
    Status run = ir::interpret(*m, "tma", c.args(), mem);
    ASSERT_TRUE(run.ok()) << run.message();
    // Spot checks of the copy: the block's corners.
    for (int64_t r : {int64_t(0), c.rows - 1})
      for (int64_t col : {int64_t(0), c.cols - 1}) {
        const int64_t gr = c.r0 + r, gc = c.c0 + col;
        const bool inside = gr >= 0 && gr < c.tensorRows && gc >= 0 && gc < c.tensorCols;
        for (int b = 0; b < c.elemBytes; ++b) {
          const uint8_t got = mem.buffers[1][size_t((r * c.cols + col) * c.elemBytes + b)];
          const uint8_t want =
              inside ? before.buffers[0][size_t((gr * c.strideElems + gc) * c.elemBytes + b)] : 0;
          ASSERT_EQ(got, want) << "element (" << r << ", " << col << ")";
        }
      }
    auto k = lowerKernel(*m);
    ASSERT_TRUE(k.ok()) << k.message();
    expectAssembles(k->kernel, /*requireNoSpills=*/false); // a thread may hold 256 elements
    // A box whose row starts off a 16-byte boundary is an error (the GPU's illegal instruction).
    if (c.elemBytes < 16) {
      RandomTmaCopy off = c;
      off.c0 += 1;
      ir::Memory mem2 = before;
      Status bad = ir::interpret(*m, "tma", off.args(), mem2);
      ASSERT_FALSE(bad.ok());
      EXPECT_NE(bad.message().find("TMA needs a multiple of 16 bytes"), std::string::npos)
          << bad.message();
    }
  }
}
