// The matmul example after the pass pipeline with software pipelining: its PTX
// has the cp.async schedule docs/pipelining.md describes (prologue groups, a
// wait_group S-2 and a barrier before the first K slice's ldmatrix loads, the
// next stage's copies and one commit, the second slice's loads, then the
// mma.sync instructions, a final wait_group 0), and assembles for sm_80 and
// sm_90 without spills.
#include "Examples.h"
#include "Property.h"
#include "PtxCheck.h"
#include "RandomMatmul.h"
#include "kernels/MatmulText.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

Expected<LoweredKernel> pipelinedMatmul(int stages, int sm, int prefetchK, bool kStep64 = false,
                                        const std::string &file = "matmul.tir") {
  using linlayout::testing::MatmulReshape;
  std::string text = linlayout::testing::reshapeMatmulText(
      exampleSource(file), kStep64 ? MatmulReshape::KStep64 : MatmulReshape::None);
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, file));
  ir::PipelineOptions po;
  po.numStages = stages;
  po.prefetchK = prefetchK;
  LL_TRY_STATUS(ir::runPipeline(m, po));
  LowerOptions o;
  o.target = PtxTarget{sm, 80};
  return lowerKernel(m, o);
}

// Assembles `k` with ptxas (a failure on spills) and prints its register count after `what`.
void expectAssemblesWithoutSpills(const LoweredKernel &k, const std::string &what) {
  auto report = expectAssembles(k.kernel, /*requireNoSpills=*/true);
  if (report.accepted)
    std::printf("%s: %d registers\n", what.c_str(), report.registers);
}

} // namespace

TEST(PipelinedMatmul, PtxHasTheCpAsyncScheduleAndAssemblesWithoutSpills) {
  for (int stages : {2, 3, 4})
    for (int sm : {80, 90}) {
      SCOPED_TRACE("stages " + std::to_string(stages) + ", sm_" + std::to_string(sm));
      auto k = pipelinedMatmul(stages, sm, /*prefetchK=*/0);
      ASSERT_TRUE(k.ok()) << k.message();
      const std::string &ptx = k->kernel.ptx;
      // Per stage 8 16-byte copies per thread (A 128x32 and B 32x128 halves,
      // 128 threads): the prologue's stages - 1 and the loop's one.
      EXPECT_EQ(countLines(ptx, "cp.async.cg.shared.global"), 8 * stages);
      EXPECT_EQ(countLines(ptx, "cp.async.ca.shared.global"), 0);
      EXPECT_EQ(countLines(ptx, "cp.async.commit_group"), stages);
      EXPECT_EQ(countLines(ptx, "cp.async.wait_group"), 2);
      EXPECT_EQ(countLines(ptx, "ld.global"), 0);
      // Per warp and K step: A's 64x32 as 8 ldmatrix.x4, B's 32x64 as 8
      // ldmatrix.x4.trans, and 4 x 8 x 2 mma.sync m16n8k16.
      EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 8);
      EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), 8);
      EXPECT_EQ(countLines(ptx, "mma.sync.aligned.m16n8k16"), 64);
      std::string wait = "cp.async.wait_group " + std::to_string(stages - 2) + ";";
      EXPECT_EQ(checkPatterns(ptx, "CHECK: cp.async.cg.shared.global\n"
                                   "CHECK: cp.async.commit_group\n"
                                   "CHECK: " +
                                       wait +
                                       "\n"
                                       "CHECK-NEXT: bar.sync\n"
                                       "CHECK-NOT: mma.sync\n"
                                       "CHECK: ldmatrix\n"
                                       "CHECK-NOT: mma.sync\n"
                                       "CHECK: cp.async.cg.shared.global\n"
                                       "CHECK-NOT: mma.sync\n"
                                       "CHECK: cp.async.commit_group\n"
                                       "CHECK-NOT: mma.sync\n"
                                       "CHECK: ldmatrix\n"
                                       "CHECK: mma.sync\n"
                                       "CHECK: cp.async.wait_group 0;\n"
                                       "CHECK-NEXT: bar.sync\n"),
                "");
      // The K step of 32 is two slices (OperandSlices.h): the first one's 4 + 4 loads before
      // the copies, the second one's after the commit.
      size_t waitAt = ptx.find(wait);
      size_t commit = ptx.find("cp.async.commit_group", waitAt);
      size_t mma = ptx.find("mma.sync", commit);
      ASSERT_NE(mma, std::string::npos);
      EXPECT_EQ(countLines(ptx.substr(waitAt, commit - waitAt), "ldmatrix"), 8);
      EXPECT_EQ(countLines(ptx.substr(commit, mma - commit), "ldmatrix"), 8);
      EXPECT_EQ(k->kernel.sharedBytes, uint64_t(stages) * (128 * 32 + 32 * 128) * 2);
      expectAssemblesWithoutSpills(*k, "stages " + std::to_string(stages) + " sm_" +
                                           std::to_string(sm));
    }
}

// With the prefetch pass (K slices of 16): before the loop the wait and the first slice's
// ldmatrix loads; in the loop the copies, slice 1's loads, slice 0's 32 mma.sync, then the wait
// (its barrier the loop's only one), the next iteration's slice 0 loads and slice 1's 32
// mma.sync; ldmatrix loads the K-slice views at the tile's swizzle XOR the view origin; the
// loop-carried fragments are not unpacked; no spills.
TEST(PipelinedMatmul, PrefetchedPtxLoadsTheNextSliceAndAssemblesWithoutSpills) {
  for (int stages : {2, 3, 4})
    for (int sm : {80, 90}) {
      SCOPED_TRACE("stages " + std::to_string(stages) + ", sm_" + std::to_string(sm));
      auto k = pipelinedMatmul(stages, sm, 16);
      ASSERT_TRUE(k.ok()) << k.message();
      const std::string &ptx = k->kernel.ptx;
      EXPECT_EQ(countLines(ptx, "cp.async.cg.shared.global"), 8 * stages);
      EXPECT_EQ(countLines(ptx, "cp.async.wait_group"), 3);
      // Three places load half a K step each: 4 + 4 per place.
      EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 12);
      EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), 12);
      EXPECT_EQ(countLines(ptx, "mma.sync.aligned.m16n8k16"), 64);
      std::string wait = "cp.async.wait_group " + std::to_string(stages - 2) + ";";
      EXPECT_EQ(checkPatterns(ptx, "CHECK: cp.async.commit_group\n"
                                   "CHECK: " +
                                       wait +
                                       "\n"
                                       "CHECK-NEXT: bar.sync\n"
                                       "CHECK: ldmatrix\n"
                                       "CHECK-NOT: mma.sync\n"
                                       "CHECK: cp.async.commit_group\n"
                                       "CHECK-NOT: bar.sync\n"
                                       "CHECK: ldmatrix\n"
                                       "CHECK-NOT: bar.sync\n"
                                       "CHECK: mma.sync\n"
                                       "CHECK-NOT: bar.sync\n"
                                       "CHECK: " +
                                       wait +
                                       "\n"
                                       "CHECK-NEXT: bar.sync\n"
                                       "CHECK-NOT: mma.sync\n"
                                       "CHECK: ldmatrix\n"
                                       "CHECK: mma.sync\n"
                                       "CHECK-NOT: ldmatrix\n"
                                       "CHECK: cp.async.wait_group 0;\n"),
                "");
      // The prologue's and the loop's; one after the last wait (C is stored from the
      // accumulator's layout, with no conversion through shared memory).
      EXPECT_EQ(countLines(ptx, "bar.sync"), 2 + 1);
      // The prefetched fragments cross the back edge as 32-bit words and reach the mma.sync as
      // those words: no split into 16-bit halves and no repacking (ptxas copied each repacked
      // A fragment into the mma's operand registers, 16 MOVs per warp and K step of 64).
      EXPECT_EQ(countLines(ptx, "mov.b32 {"), 0);
      expectAssemblesWithoutSpills(*k, "prefetch, stages " + std::to_string(stages) + " sm_" +
                                           std::to_string(sm));
    }
}

// K steps of 64 in four slices: 254 registers on sm_90, still no spills.
TEST(PipelinedMatmul, PrefetchedKStep64AssemblesWithoutSpills) {
  for (int sm : {80, 90}) {
    SCOPED_TRACE("sm_" + std::to_string(sm));
    auto k = pipelinedMatmul(3, sm, 16, /*kStep64=*/true);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(countLines(ptx, "mma.sync.aligned.m16n8k16"), 128);
    // Before the loop slice 0, in it slices 1..3 and the next slice 0: 5 x (4 + 4).
    EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 20);
    EXPECT_EQ(countLines(ptx, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), 20);
    EXPECT_EQ(k->kernel.sharedBytes, uint64_t(3) * (128 * 64 + 64 * 128) * 2);
    expectAssemblesWithoutSpills(*k, "prefetch, K step 64, sm_" + std::to_string(sm));
  }
}

// examples/matmul_wide_persistent.tir, K steps of 64, 3 stages, prefetched: the tile loop holds
// the K loop's prologue (two stages of copies), the K loop with its one barrier per step, and the
// wait, barrier and 64 8-byte stores of C after it; no spills.
TEST(PipelinedMatmul, PersistentKernelPipelinesItsInnerLoopWithoutSpills) {
  for (int sm : {80, 90}) {
    SCOPED_TRACE("sm_" + std::to_string(sm));
    auto k = pipelinedMatmul(3, sm, 16, /*kStep64=*/true, "matmul_wide_persistent.tir");
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    // A 128x64 and a 64x256 f16 tile over 256 threads: 4 + 8 copies of 16 bytes per stage.
    EXPECT_EQ(countLines(ptx, "cp.async.cg.shared.global"), 3 * 12);
    EXPECT_EQ(countLines(ptx, "mma.sync.aligned.m16n8k16"), 128);
    EXPECT_EQ(countLines(ptx, "st.global.v2.f32"), 64);
    EXPECT_EQ(countLines(ptx, "cp.async.wait_group 0;"), 1);
    EXPECT_EQ(k->kernel.sharedBytes, uint64_t(3) * (128 * 64 + 64 * 256) * 2);
    expectAssemblesWithoutSpills(*k, "persistent, K step 64, sm_" + std::to_string(sm));
  }
}

// examples/matmul_wide_flat.tir, K steps of 64, 3 stages, prefetched: one loop over all of a
// program's K steps with the prologue's two stages of copies before it; the branch that stores
// the tile before (64 8-byte stores of C) inside it and the store of the last tile after it; the
// rings are waited for once, after the loop; no spills.
TEST(PipelinedMatmul, FlatPersistentKernelStoresTilesFromInsideItsLoop) {
  for (int sm : {80, 90}) {
    SCOPED_TRACE("sm_" + std::to_string(sm));
    auto k = pipelinedMatmul(3, sm, 16, /*kStep64=*/true, "matmul_wide_flat.tir");
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(countLines(ptx, "cp.async.cg.shared.global"), 3 * 12);
    EXPECT_EQ(countLines(ptx, "mma.sync.aligned.m16n8k16"), 128);
    EXPECT_EQ(countLines(ptx, "st.global.v2.f32"), 2 * 64);
    EXPECT_EQ(countLines(ptx, "cp.async.wait_group 0;"), 1);
    // The wait for a step's stage: once before the loop, once at its back edge (after the branch).
    EXPECT_EQ(countLines(ptx, "cp.async.wait_group 1;"), 2);
    EXPECT_EQ(k->kernel.sharedBytes, uint64_t(3) * (128 * 64 + 64 * 256) * 2);
    expectAssemblesWithoutSpills(*k, "flat persistent, K step 64, sm_" + std::to_string(sm));
  }
}

// A tile of 64 floats over 4 warps: warps 1-3 hold copies of warp 0's elements, so only warp 0
// copies (a predicated-off cp.async would still write zeros over the tile).
TEST(PipelinedMatmul, ThreadsHoldingCopiesDoNotCopy) {
  const char *text =
      R"(#blocked = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:80", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @bc(%x: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %y: !tt.ptr<f32> {tt.divisibility = 16 : i32}) {
    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #blocked>
    %xv = tt.splat %x : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %xp = tt.addptr %xv, %r : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    %t = ttg.local_alloc : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    ttg.async_copy_global_to_local %xp, %t {ll.vec = 2 : i32} : tensor<64x!tt.ptr<f32>, #blocked> -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
    ttg.async_commit_group
    ttg.async_wait {num = 0 : i32}
    %v = ttg.local_load %t : !ttg.memdesc<64xf32, #shared, #smem, mutable> -> tensor<64xf32, #blocked>
    %yv = tt.splat %y : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #blocked>
    %yp = tt.addptr %yv, %r : tensor<64x!tt.ptr<f32>, #blocked>, tensor<64xi32, #blocked>
    tt.store %yp, %v : tensor<64x!tt.ptr<f32>, #blocked>
    tt.return
  }
}
)";
  for (int sm : {80, 90}) {
    auto m = ir::parseModule(text, "broadcast.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    LowerOptions o;
    o.target = PtxTarget{sm, 80};
    auto k = lowerKernel(*m, o);
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(countLines(k->kernel.ptx, "@p cp.async.ca.shared.global"), 1);
    expectAssembles(k->kernel);
  }
}

// examples/attention.tir pipelined: Q's conversion to the A operand goes through scratch before
// the loop, and the allocator may give the K and V rings those bytes (the scratch is dead once
// converted). The prologue's first copy into a ring must then wait at a barrier for the other
// warps' reads of that scratch: without it, a warp that finished its reads copied K over the
// scratch that a slower warp was still reading (compute-sanitizer's racecheck and wrong results
// on the GPU).
TEST(PipelinedMatmul, FirstCopyIntoAFreshRingWaitsForReadsOfTheBytesBefore) {
  for (int stages : {2, 3})
    for (int sm : {80, 90}) {
      SCOPED_TRACE("stages " + std::to_string(stages) + ", sm_" + std::to_string(sm));
      auto k = pipelinedMatmul(stages, sm, /*prefetchK=*/16, /*kStep64=*/false, "attention.tir");
      ASSERT_TRUE(k.ok()) << k.message();
      const std::string &ptx = k->kernel.ptx;
      size_t copy = ptx.find("cp.async.cg");
      ASSERT_NE(copy, std::string::npos);
      size_t read = std::max(ptx.rfind("ldmatrix", copy) + 1, ptx.rfind("ld.shared", copy) + 1);
      ASSERT_GT(read, 0u) << "Q's conversion reads no scratch before the copies";
      EXPECT_NE(ptx.find("bar.sync", read), std::string::npos);
      EXPECT_LT(ptx.find("bar.sync", read), copy)
          << "no barrier between the last scratch read and the first copy into the ring";
      // (Spills are KernelLowering.EveryExampleCompilesAndAssemblesForBothTargets' concern.)
      EXPECT_TRUE(expectAssembles(k->kernel, /*requireNoSpills=*/false).accepted);
    }
}

// Random matmuls (RandomMatmul.h: mma.sync or wgmma, random tiles, warp grids, load layouts,
// operand paths and shared layouts, masked sizes, carried or recomputed pointers, C += A B or
// C = A B, epilogues), each through the pass pipeline with 1-4 stages and prefetch slices of 0,
// 16 or 32: the pipelined kernel stores what the interpreter computes from the kernel as
// written, and both lower for their targets to PTX that ptxas assembles.
TEST(PipelinedMatmul, RandomMatmulsPipelineLowerAndAssemble) {
  checkProperty(
      [] {
        RandomMatmul p = randomMatmul();
        classifyWgmmaOperands(p);
        std::string problem = interpretLowerAndAssemble(p);
        if (!problem.empty())
          RC_FAIL(problem);
      },
      40);
}
