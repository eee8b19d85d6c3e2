// Whole tile-IR kernels: every example compiles for sm_80 and sm_90, assembles with ptxas
// without spills, and has the instructions its layouts call for.
#include "../ir/Examples.h"
#include "../ir/TritonDumps.h"
#include "CrossCtaKernel.h"
#include "Property.h"
#include "PtxCheck.h"
#include "RandomKernel.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

std::string readExample(const std::string &name) {
  return ir::testing::readFile(ir::testing::examplePath(name));
}

Expected<LoweredKernel> compileText(const std::string &text, int sm,
                                    const std::string &file = "<test>", bool passes = false) {
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, file));
  if (passes)
    LL_TRY_STATUS(ir::runPipeline(m));
  LowerOptions o;
  o.target = PtxTarget{sm, 80};
  o.keepLlvmIr = true;
  return lowerKernel(m, o);
}

} // namespace

TEST(KernelLowering, EveryExampleCompilesAndAssemblesForBothTargets) {
  for (const std::string &name : ir::testing::exampleFiles())
    for (bool passes : {false, true})
      for (int sm : {80, 90}) {
        std::string text = readExample(name);
        ASSERT_FALSE(text.empty()) << name;
        auto k = compileText(text, sm, name, passes);
        ASSERT_TRUE(k.ok()) << name << " sm_" << sm << (passes ? " after the passes" : "") << ": "
                            << k.message();
        // As the examples are meant to be compiled (after the passes) they must not spill.
        auto report = expectAssembles(k->kernel, /*requireNoSpills=*/passes);
        if (report.accepted) {
          EXPECT_GE(report.registers, 1) << name;
        }
      }
}

// Dot operands whose threads hold more of K than one fragment word (kWidth 4 or 8 for f16, 8 or
// 16 for i8) read K through a permutation: the same mma.sync count as the word-wide layouts, as
// written and pipelined (the prefetch pass keeps slices no narrower than the lanes' K), and
// ptxas takes them.
TEST(KernelLowering, DotOperandsWiderThanAWordPermuteK) {
  for (const ir::testing::KWidthVariant &v : ir::testing::kWidthVariants())
    for (int sm : {80, 90})
      for (int stages : {1, 3}) {
        SCOPED_TRACE(std::string(v.file) + " with kWidth " + std::to_string(v.to) + " for sm_" +
                     std::to_string(sm) + ", " + std::to_string(stages) + " stages");
        auto lower = [&](const std::string &text) -> Expected<LoweredKernel> {
          LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, v.file));
          ir::PipelineOptions po;
          po.numStages = stages;
          LL_TRY_STATUS(ir::runPipeline(m, po));
          LowerOptions o;
          o.target = PtxTarget{sm, 80};
          return lowerKernel(m, o);
        };
        auto wide = lower(ir::testing::withKWidth(v.file, v.from, v.to));
        auto word = lower(readExample(v.file));
        ASSERT_TRUE(wide.ok()) << wide.message();
        ASSERT_TRUE(word.ok()) << word.message();
        const char *insn = std::string(v.file) == "matmul.tir" ? "mma.sync.aligned.m16n8k16"
                                                               : "mma.sync.aligned.m16n8k32";
        EXPECT_EQ(countLines(wide->kernel.ptx, insn), countLines(word->kernel.ptx, insn));
        EXPECT_GT(countLines(wide->kernel.ptx, insn), 0);
        // i8 with kWidth 16 (each thread 16 bytes of K, in 4 fragments) pipelined for sm_80
        // needs all 255 registers and spills a few bytes; the others must not spill.
        expectAssembles(wide->kernel, /*requireNoSpills=*/v.to < 16);
      }
}

// A kWidth whose four lanes span more K than the tile has (f16 kWidth 16 over K = 32) leaves
// lanes holding copies where the fragments need other K: an error that says so.
TEST(KernelLowering, DotOperandLanesThatDoNotStepKAreAnError) {
  auto k = compileText(ir::testing::withKWidth("matmul.tir", 2, 16), 80, "matmul.tir");
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("does not step K by one power of two"), std::string::npos)
      << k.message();
}

// tt.fp_to_fp uses sm_89's paired cvt instructions (examples/fp8.tir: f32 and f16 pairs
// narrowed with .satfinite, 8-bit pairs widened to f16), which ptxas takes for sm_90; for sm_80 the
// lowering says what it needs.
TEST(KernelLowering, EightBitFloatConversionsUseThePairedCvt) {
  const std::string text = readExample("fp8.tir");
  auto k = compileText(text, 90, "fp8.tir");
  ASSERT_TRUE(k.ok()) << k.message();
  const std::string &ptx = k->kernel.ptx;
  // 1024 elements over 128 threads: 8 per thread, 4 pairs per conversion.
  EXPECT_EQ(countLines(ptx, "cvt.rn.satfinite.e4m3x2.f32"), 8);   // from f32 and from bf16
  EXPECT_EQ(countLines(ptx, "cvt.rn.satfinite.e5m2x2.f16x2"), 4); // from f16
  EXPECT_EQ(countLines(ptx, "cvt.rn.f16x2.e4m3x2"), 8);
  EXPECT_EQ(countLines(ptx, "cvt.rn.f16x2.e5m2x2"), 4);
  expectAssembles(k->kernel, /*requireNoSpills=*/true);
  auto old = compileText(text, 80, "fp8.tir");
  ASSERT_FALSE(old.ok());
  EXPECT_NE(old.message().find("tt.fp_to_fp with 8-bit floats needs sm_89 or newer"),
            std::string::npos)
      << old.message();
}

// The kernels Triton 3.6 compiled, as it printed them (examples/triton/), compile for their
// module's target as written and after the passes, assemble without spills, and keep the
// instructions Triton chose: mma.sync or wgmma, fed by cp.async rings where it pipelined.
TEST(KernelLowering, TritonDumpsCompileAsWrittenAndAfterThePasses) {
  for (const ir::testing::ExampleRun &run : ir::testing::sm90Runs())
    for (bool passes : {false, true}) {
      SCOPED_TRACE(run.file + (passes ? " after the passes" : " as written"));
      ir::Module m = ir::testing::loadExample(run.file);
      if (passes) {
        ASSERT_TRUE(ir::runPipeline(m).ok());
      }
      auto k = lowerKernel(m, LowerOptions{});
      ASSERT_TRUE(k.ok()) << k.message();
      EXPECT_EQ(k->kernel.target.sm, 90);
      // Triton's mma.sync attention takes all 255 registers here and spills 8 bytes; so does the
      // recurrence (two scans of two tensors, 32 rows per thread), 4 bytes, at 1.5x Triton's
      // speed (docs/performance.md, "Scans").
      // Triton's fp8 wgmma matmul (A rounded to e4m3 in registers) takes all 255 and spills 24.
      auto report = expectAssembles(k->kernel, /*requireNoSpills=*/run.file !=
                                                       "triton/attention_mma_sync.ttgir" &&
                                                   run.file != "triton/recurrence.ttgir" &&
                                                   run.file != "triton/matmul_fp8_wgmma.ttgir");
      EXPECT_TRUE(report.accepted);
      const std::string &ptx = k->kernel.ptx;
      if (run.file.find("mma_sync") != std::string::npos) {
        EXPECT_NE(ptx.find(run.file.find("i8") != std::string::npos
                               ? "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"
                               : "mma.sync.aligned.m16n8k16"),
                  std::string::npos);
      }
      if (run.file.find("wgmma") != std::string::npos) {
        EXPECT_NE(ptx.find("wgmma.mma_async"), std::string::npos);
      }
      // Triton pipelined the unmasked pointer matmul (not the masked one) into cp.async rings;
      // the descriptor one loads by TMA and stores C by TMA.
      if (run.file == "triton/matmul_mma_sync.ttgir" || run.file == "triton/matmul_wgmma.ttgir" ||
          run.file == "triton/matmul_i8_mma_sync.ttgir") {
        EXPECT_NE(ptx.find("cp.async.wait_group"), std::string::npos);
      }
      // Triton gives B's copies of the i8 matmul no contiguity; the axis analysis proves 8
      // bytes, so they are cp.async too (not byte loads and stores).
      if (run.file == "triton/matmul_i8_mma_sync.ttgir") {
        EXPECT_EQ(countLines(ptx, "ld.global.b8"), 0);
        EXPECT_EQ(countLines(ptx, "cp.async.ca.shared.global"), 24);
      }
      if (run.file == "triton/matmul_tma.ttgir") {
        EXPECT_NE(ptx.find("cp.async.bulk.tensor.2d.shared::cluster.global"), std::string::npos);
        EXPECT_NE(ptx.find("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group"),
                  std::string::npos);
        // The store wait ends with a warp sync, so that an mbarrier arrive after it (lane 0's)
        // comes after the issuing lane's wait.
        const std::string waitText = "cp.async.bulk.wait_group.read 0;";
        const size_t wait = ptx.find(waitText);
        ASSERT_NE(wait, std::string::npos);
        const size_t sync = ptx.find("bar.warp.sync", wait);
        ASSERT_NE(sync, std::string::npos);
        const std::string between =
            ptx.substr(wait + waitText.size(), sync - wait - waitText.size());
        EXPECT_EQ(between.find(';'), std::string::npos) << between; // no instruction between
      }
    }
}

// A cp.async that follows reads of shared memory comes after a bar.sync (Triton's loops refill
// the ring slot they have just read), unless it is marked ll.slot_free, as the pipeliner's are.
TEST(KernelLowering, CopiesAfterReadsWaitForABarrierUnlessTheirSlotIsFree) {
  std::string text = readExample("triton/matmul_mma_sync.ttgir");
  auto barriers = [](const std::string &t) {
    auto k = compileText(t, 90, "matmul_mma_sync.ttgir");
    EXPECT_TRUE(k.ok()) << k.message();
    return k.ok() ? countLines(k->kernel.ptx, "bar.sync") : -1;
  };
  const int asWritten = barriers(text);
  // Both of the loop's copies marked: the barrier before them goes.
  size_t loop = text.find("scf.for");
  for (int i = 0; i < 2; ++i) {
    size_t at =
        text.find("{contiguity = 8 : i32}", text.find("ttg.async_copy_global_to_local", loop));
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 22, "{ll.slot_free = true}");
    loop = at;
  }
  EXPECT_EQ(barriers(text), asWritten - 1);
}

// The barrier bookkeeping tracks a ring's tile at a constant index by that tile's bytes: a write
// to one tile while another's write is pending needs no bar.sync, a read of the written tile does.
// A tile at a run-time index, or the same tile twice, may overlap and gets the barrier.
TEST(KernelLowering, TilesOfARingAtConstantIndicesAreTrackedApart) {
  auto barriers = [](const std::string &second) {
    const std::string tile = "!ttg.memdesc<32x32xf32, #sh, #smem, mutable>";
    const std::string ring = "!ttg.memdesc<2x32x32xf32, #sh, #smem, mutable>";
    const std::string text =
        "#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
        "order = [1, 0]}>\n#sh = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, "
        "order = [1, 0]}>\n#smem = #ttg.shared_memory\nmodule attributes {\"ttg.num-warps\" = 4 "
        ": i32} {\n  tt.func public @f(%i: i32) {\n    %c0 = arith.constant 0 : i32\n"
        "    %c1 = arith.constant 1 : i32\n    %t = arith.constant dense<1.0> : "
        "tensor<32x32xf32, #b>\n    %ring = ttg.local_alloc : () -> " +
        ring + "\n    %s0 = ttg.memdesc_index %ring[%c0] : " + ring + " -> " + tile +
        "\n    %s1 = ttg.memdesc_index %ring[" + second + "] : " + ring + " -> " + tile +
        "\n    ttg.local_store %t, %s0 : tensor<32x32xf32, #b> -> " + tile +
        "\n    ttg.local_store %t, %s1 : tensor<32x32xf32, #b> -> " + tile +
        "\n    %x = ttg.local_load %s0 : " + tile +
        " -> tensor<32x32xf32, #b>\n    tt.return\n  }\n}\n";
    auto k = compileText(text, 80);
    EXPECT_TRUE(k.ok()) << k.message();
    return k.ok() ? countLines(k->kernel.ptx, "bar.sync") : -1;
  };
  EXPECT_EQ(barriers("%c1"), 1); // before the load only
  EXPECT_EQ(barriers("%c0"), 2);
  EXPECT_EQ(barriers("%i"), 2);
}

// The examples run by clusters of 2 and 4 CTAs (sm_90): after the passes every one compiles, no
// conversion goes through distributed shared memory (each CTA stores the part it computed), the
// CTA's place in its cluster comes from %cluster_ctarank, and ptxas assembles the PTX.
TEST(KernelLowering, ExamplesCompileForClusters) {
  for (const char *name : {"matmul.tir", "row_reduce.tir", "transpose_copy.tir", "softmax.tir"})
    for (int ctas : {2, 4})
      for (int stages : {1, 3}) {
        SCOPED_TRACE(std::string(name) + " on " + std::to_string(ctas) + " CTAs, " +
                     std::to_string(stages) + " stages");
        auto m = ir::parseModule(readExample(name), name);
        ASSERT_TRUE(m.ok()) << m.message();
        m->numCtas = ctas;
        ir::PipelineOptions po;
        po.numStages = stages;
        ASSERT_TRUE(ir::runPipeline(*m, po).ok());
        LowerOptions o;
        o.target = PtxTarget{90, 80};
        auto k = lowerKernel(*m, o);
        ASSERT_TRUE(k.ok()) << k.message();
        for (const ConversionReport &c : k->conversions)
          EXPECT_NE(c.path, "distributed_shared_memory") << c.where;
        EXPECT_NE(k->kernel.ptx.find("%cluster_ctarank"), std::string::npos);
        expectAssembles(k->kernel, /*requireNoSpills=*/false);
      }
}

// A conversion between the CTAs of a cluster (CrossCtaKernel.h: rows split over 2 CTAs to
// columns split over them), for elements of 8, 16, 32 and 64 bits: the planner's distributed
// shared memory path, emitted as stores into the CTA's own scratch, a cluster barrier, loads from
// the CTA that holds each part (mapa + ld.shared::cluster), and a cluster barrier that keeps every
// scratch alive until the others have read it; ptxas assembles it. sm_80 has no clusters.
TEST(KernelLowering, ConversionsBetweenCtasGoThroughDistributedSharedMemory) {
  for (const char *elem : {"i8", "f16", "f32", "i64"}) {
    SCOPED_TRACE(elem);
    const std::string text = lower::testing::crossCtaConvertKernel(elem);
    auto k = compileText(text, 90, "xcta.tir");
    ASSERT_TRUE(k.ok()) << k.message();
    ASSERT_EQ(k->conversions.size(), 1u);
    const ConversionReport &c = k->conversions[0];
    EXPECT_EQ(c.path, "distributed_shared_memory");
    EXPECT_EQ(c.clusterBarriers, 2);
    EXPECT_EQ(c.barriers, 0); // nothing used the scratch before
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(countLines(ptx, "barrier.cluster.arrive"), 2);
    EXPECT_EQ(countLines(ptx, "barrier.cluster.wait"), 2);
    EXPECT_EQ(countLines(ptx, "ld.shared::cluster"), c.sharedLoads);
    EXPECT_EQ(countLines(ptx, "mapa.shared::cluster"), c.sharedLoads);
    EXPECT_EQ(countLines(ptx, "bar.sync"), 0);
    expectAssembles(k->kernel);
    EXPECT_FALSE(compileText(text, 80, "xcta.tir").ok());
  }
}

// The tiled matmul after the passes: per K step 32 mma.sync (each warp's 64x64 tile of 16x8
// instructions) x 2 (K = 32 in steps of 16), operands from the planned conversions; every
// shared-memory instruction and barrier of the kernel is one its plans counted.
TEST(KernelLowering, MatmulIsMmaFedByItsPlannedConversions) {
  for (int sm : {80, 90}) {
    auto k = compileText(readExample("matmul.tir"), sm, "matmul.tir", /*passes=*/true);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(countLines(ptx, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"), 64);
    int stores = 0, loads = 0, ldm = 0, stm = 0, bars = 0;
    for (const ConversionReport &c : k->conversions) {
      stores += c.sharedStores;
      loads += c.sharedLoads;
      ldm += c.ldmatrix;
      stm += c.stmatrix;
      bars += c.barriers;
    }
    EXPECT_EQ(countLines(ptx, "st.shared"), stores);
    EXPECT_EQ(countLines(ptx, "ld.shared"), loads);
    EXPECT_EQ(countLines(ptx, "ldmatrix."), ldm);
    EXPECT_EQ(countLines(ptx, "stmatrix."), stm);
    EXPECT_EQ(countLines(ptx, "bar.sync"), bars);
    EXPECT_GE(ldm, 1) << "the B operand is read with ldmatrix";
    // The K loop: a backward branch around the mma block.
    EXPECT_PATTERNS(ptx, R"(
      CHECK: $L__BB0_{{[0-9]+}}:
      CHECK: mma.sync.aligned.m16n8k16
      CHECK: @{{%p[0-9]+}} bra $L__BB0_{{[0-9]+}};
    )");
    expectAssembles(k->kernel);
  }
}

// LowerOptions::conversionPath: every conversion of the kernel takes the path asked for (the
// report says so and the PTX has that path's instructions and no other's); a path that cannot do
// a conversion is an error naming the op.
TEST(KernelLowering, ConversionsTakeTheForcedPath) {
  auto module = ir::parseModule(readExample("warp_convert.tir"), "warp_convert.tir");
  ASSERT_TRUE(module.ok()) << module.message();
  for (std::optional<ConversionPath> path :
       {std::optional<ConversionPath>(), std::optional(ConversionPath::WarpShuffle),
        std::optional(ConversionPath::SharedMemory)}) {
    LowerOptions o;
    o.conversionPath = path;
    auto k = lowerKernel(*module, o);
    ASSERT_TRUE(k.ok()) << k.message();
    ASSERT_EQ(k->conversions.size(), 2u);
    int shuffles = 0, stores = 0;
    for (const ConversionReport &c : k->conversions) {
      EXPECT_EQ(c.path, path == ConversionPath::SharedMemory ? "shared_memory" : "warp_shuffle")
          << c.where;
      shuffles += c.shuffles;
      stores += c.sharedStores;
    }
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(countLines(ptx, "shfl.sync"), shuffles);
    EXPECT_EQ(countLines(ptx, "st.shared"), stores);
    EXPECT_EQ(shuffles > 0, path != ConversionPath::SharedMemory);
    EXPECT_EQ(stores > 0, path == ConversionPath::SharedMemory);
    expectAssembles(k->kernel);
  }
  LowerOptions o;
  o.conversionPath = ConversionPath::RegisterPermute;
  auto k = lowerKernel(*module, o);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("warp_convert.tir:"), std::string::npos) << k.message();
  EXPECT_NE(k.message().find("convert_layout: no register_permute plan"), std::string::npos)
      << k.message();

  // Across warps, shuffles cannot do it.
  auto copy = compileText(readExample("transpose_copy.tir"), 90, "transpose_copy.tir", true);
  ASSERT_TRUE(copy.ok()) << copy.message();
  ASSERT_FALSE(copy->conversions.empty());
  auto passed = ir::parseModule(readExample("transpose_copy.tir"), "transpose_copy.tir");
  ASSERT_TRUE(passed.ok());
  ASSERT_TRUE(ir::runPipeline(*passed).ok());
  o.conversionPath = ConversionPath::WarpShuffle;
  auto across = lowerKernel(*passed, o);
  ASSERT_FALSE(across.ok());
  EXPECT_NE(across.message().find("no warp_shuffle plan"), std::string::npos) << across.message();
}

// Atomics touch each element once: the histogram's 1024 elements over 128 threads are 8 atom
// instructions per thread. In a layout that gives each element to 2 lanes, one lane of each pair
// acts (a thread predicate); where the result is used, the acting lanes hand it to the others
// through shared memory (a store, a barrier, a load). A scalar atomic is made by thread 0 and
// handed over the same way.
TEST(KernelLowering, AtomicsTouchEachElementOnce) {
  auto k = compileText(readExample("histogram.tir"), 80, "histogram.tir");
  ASSERT_TRUE(k.ok()) << k.message();
  EXPECT_EQ(countLines(k->kernel.ptx, "atom.relaxed.gpu.global.add.u32"), 8);
  EXPECT_EQ(k->kernel.sharedBytes, 0u) << "the result is unused: nothing to hand over";
  expectAssembles(k->kernel);

  auto kernel = [](const std::string &body) {
    return "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
           "order = [0]}>\nmodule attributes {\"ttg.num-warps\" = 4 : i32} {\n"
           "  tt.func public @k(%p: !tt.ptr<f32>, %q: !tt.ptr<f32>) {\n"
           "    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b>\n"
           "    %ps = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #b>\n"
           "    %pp = tt.addptr %ps, %r : tensor<64x!tt.ptr<f32>, #b>, tensor<64xi32, #b>\n"
           "    %one = arith.constant dense<1.0> : tensor<64xf32, #b>\n"
           "    %old = tt.atomic_rmw fadd, acq_rel, gpu, %pp, %one : "
           "(tensor<64x!tt.ptr<f32>, #b>, tensor<64xf32, #b>) -> tensor<64xf32, #b>\n" +
           body + "    tt.return\n  }\n}\n";
  };
  // 64 elements over 128 threads: each element added once; unused, nothing else.
  auto unused = compileText(kernel(""), 90);
  ASSERT_TRUE(unused.ok()) << unused.message();
  EXPECT_EQ(countLines(unused->kernel.ptx, "atom.acq_rel.gpu.global.add.f32"), 1);
  EXPECT_EQ(countLines(unused->kernel.ptx, "bar.sync"), 0);
  expectAssembles(unused->kernel);
  auto used = compileText(kernel("    tt.store %pp, %old : tensor<64x!tt.ptr<f32>, #b>\n"), 90);
  ASSERT_TRUE(used.ok()) << used.message();
  EXPECT_EQ(countLines(used->kernel.ptx, "atom.acq_rel.gpu.global.add.f32"), 1);
  EXPECT_EQ(countLines(used->kernel.ptx, "bar.sync"), 1);
  EXPECT_EQ(used->kernel.sharedBytes, 64u * 4);
  expectAssembles(used->kernel);
  auto scalar = compileText(
      kernel("    %c1 = arith.constant 1.0 : f32\n"
             "    %s = tt.atomic_rmw exch, relaxed, cta, %q, %c1 : (!tt.ptr<f32>, f32) -> f32\n"
             "    tt.store %q, %s : !tt.ptr<f32>\n"),
      90);
  ASSERT_TRUE(scalar.ok()) << scalar.message();
  EXPECT_EQ(countLines(scalar->kernel.ptx, "atom.relaxed.cta.global.exch.b32"), 1);
  EXPECT_EQ(countLines(scalar->kernel.ptx, "bar.sync"), 1);
  expectAssembles(scalar->kernel);
}

// A float multiply whose product feeds an add contracts into one fma (LowerOptions::fpFusion,
// on by default as in Triton) and stays a mul and an add, each rounded, when fusion is off;
// exp2 takes the SFU's flush-to-zero form either way (no range fixup around it).
TEST(KernelLowering, MultiplyAddFusesUnlessFusionIsOff) {
  const std::string text =
      "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], "
      "order = [0]}>\n"
      "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 1 : i32, ttg.target = "
      "\"cuda:80\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
      "  tt.func public @fma(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>) {\n"
      "    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>\n"
      "    %xs = tt.splat %x : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #b>\n"
      "    %xp = tt.addptr %xs, %r : tensor<32x!tt.ptr<f32>, #b>, tensor<32xi32, #b>\n"
      "    %v = tt.load %xp : tensor<32x!tt.ptr<f32>, #b>\n"
      "    %s = arith.constant dense<1.5> : tensor<32xf32, #b>\n"
      "    %m = arith.mulf %v, %s : tensor<32xf32, #b>\n"
      "    %a = arith.subf %m, %s : tensor<32xf32, #b>\n"
      "    %e = math.exp2 %a : tensor<32xf32, #b>\n"
      "    %ys = tt.splat %y : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #b>\n"
      "    %yp = tt.addptr %ys, %r : tensor<32x!tt.ptr<f32>, #b>, tensor<32xi32, #b>\n"
      "    tt.store %yp, %e : tensor<32x!tt.ptr<f32>, #b>\n"
      "    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "fma.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  for (bool fuse : {true, false}) {
    SCOPED_TRACE(fuse ? "fusion on" : "fusion off");
    LowerOptions o;
    o.fpFusion = fuse;
    auto k = lowerKernel(*m, o);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(countLines(ptx, "fma.rn.f32"), fuse ? 1 : 0) << ptx;
    EXPECT_EQ(countLines(ptx, "mul.f32") + countLines(ptx, "mul.rn.f32"), fuse ? 0 : 1) << ptx;
    EXPECT_EQ(countLines(ptx, "ex2.approx.ftz.f32"), 1) << ptx;
  }
}

// Boolean tiles through shared memory (local_alloc, local_load into another layout) and through a
// conversion: in memory an i1 is a byte, so the kernel is a valid module of byte accesses that
// ptxas assembles. (Shared accesses once built i1 vectors: an i4 store with alignment 2^63.)
TEST(KernelLowering, BooleanTilesMoveAsBytes) {
  const std::string text =
      "#a = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], "
      "order = [0]}>\n"
      "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], "
      "order = [0]}>\n"
      "#s = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"
      "#smem = #ttg.shared_memory\n"
      "module attributes {\"ttg.num-warps\" = 1 : i32} {\n"
      "  tt.func public @bools(%x: !tt.ptr<i32>, %y: !tt.ptr<i8>, %z: !tt.ptr<i8>) {\n"
      "    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #a>\n"
      "    %xs = tt.splat %x : !tt.ptr<i32> -> tensor<128x!tt.ptr<i32>, #a>\n"
      "    %xp = tt.addptr %xs, %r : tensor<128x!tt.ptr<i32>, #a>, tensor<128xi32, #a>\n"
      "    %v = tt.load %xp : tensor<128x!tt.ptr<i32>, #a>\n"
      "    %c = arith.cmpi slt, %v, %r : tensor<128xi32, #a>\n"
      "    %buf = ttg.local_alloc %c : (tensor<128xi1, #a>) -> !ttg.memdesc<128xi1, #s, #smem>\n"
      "    %l = ttg.local_load %buf : !ttg.memdesc<128xi1, #s, #smem> -> tensor<128xi1, #b>\n"
      "    %m = ttg.convert_layout %c : tensor<128xi1, #a> -> tensor<128xi1, #b>\n"
      "    %rb = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>\n"
      "    %lb = arith.extui %l : tensor<128xi1, #b> to tensor<128xi8, #b>\n"
      "    %mb = arith.extui %m : tensor<128xi1, #b> to tensor<128xi8, #b>\n"
      "    %ys = tt.splat %y : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #b>\n"
      "    %yp = tt.addptr %ys, %rb : tensor<128x!tt.ptr<i8>, #b>, tensor<128xi32, #b>\n"
      "    tt.store %yp, %lb : tensor<128x!tt.ptr<i8>, #b>\n"
      "    %zs = tt.splat %z : !tt.ptr<i8> -> tensor<128x!tt.ptr<i8>, #b>\n"
      "    %zp = tt.addptr %zs, %rb : tensor<128x!tt.ptr<i8>, #b>, tensor<128xi32, #b>\n"
      "    tt.store %zp, %mb : tensor<128x!tt.ptr<i8>, #b>\n"
      "    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "bools.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  for (ConversionPath path : {ConversionPath::SharedMemory, ConversionPath::WarpShuffle}) {
    LowerOptions o;
    o.conversionPath = path;
    auto k = lowerKernel(*m, o);
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_GT(countLines(k->kernel.ptx, "st.shared.u32") +
                  countLines(k->kernel.ptx, "st.shared.b32"),
              0)
        << k->kernel.ptx; // the four bytes of a thread's booleans in one word
    expectAssembles(k->kernel);
  }
}

// A value hint (tl.multiple_of / tl.max_contiguous) on a wrap-around offset `(base + range) % n`
// lets each thread load its 8 f16 with one 16-byte ld.global.v4; without it, they are 8 loads.
TEST(KernelLowering, ValueHintsWidenLoads) {
  const std::string kernel =
      "#b = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = "
      "[0]}>\nmodule attributes {\"ttg.num-warps\" = 4 : i32} {\n"
      "  tt.func public @k(%in: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f16> "
      "{tt.divisibility = 16 : i32}, %n: i32) {\n"
      "    %pid = tt.get_program_id x : i32\n"
      "    %c1024 = arith.constant 1024 : i32\n"
      "    %base = arith.muli %pid, %c1024 : i32\n"
      "    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>\n"
      "    %bs = tt.splat %base : i32 -> tensor<1024xi32, #b>\n"
      "    %offs = arith.addi %bs, %r : tensor<1024xi32, #b>\n"
      "    %ns = tt.splat %n : i32 -> tensor<1024xi32, #b>\n"
      "    %w = arith.remsi %offs, %ns HINTS : tensor<1024xi32, #b>\n"
      "    %ps = tt.splat %in : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b>\n"
      "    %p = tt.addptr %ps, %w : tensor<1024x!tt.ptr<f16>, #b>, tensor<1024xi32, #b>\n"
      "    %x = tt.load %p : tensor<1024x!tt.ptr<f16>, #b>\n"
      "    %qs = tt.splat %out : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b>\n"
      "    %q = tt.addptr %qs, %offs : tensor<1024x!tt.ptr<f16>, #b>, tensor<1024xi32, #b>\n"
      "    tt.store %q, %x : tensor<1024x!tt.ptr<f16>, #b>\n"
      "    tt.return\n  }\n}\n";
  for (bool hinted : {false, true}) {
    SCOPED_TRACE(hinted ? "hinted" : "no hints");
    std::string t = kernel;
    t.replace(t.find(" HINTS"), 6,
              hinted ? " {tt.contiguity = dense<8> : tensor<1xi32>, tt.divisibility = dense<8> : "
                       "tensor<1xi32>}"
                     : "");
    auto k = compileText(t, 80, "hints.tir", /*passes=*/true);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    EXPECT_EQ(countLines(ptx, "ld.global"), hinted ? 1 : 8) << ptx;
    EXPECT_EQ(countLines(ptx, "ld.global.v4"), hinted ? 1 : 0) << ptx;
  }
}

namespace {

// `depth` loops nested, each body writing shared memory (a local_alloc) after its nested loop;
// the innermost loop transposes a tile to another layout and back, through shared memory.
std::string loopNest(int depth) {
  std::string loops, ends;
  for (int i = 0; i < depth; ++i) {
    loops += "    scf.for %i" + std::to_string(i) + " = %zero to %n step %one : i32 {\n";
    ends += "      %m" + std::to_string(i) +
            " = ttg.local_alloc %b : (tensor<4x4xi32, #l0>) -> !ttg.memdesc<4x4xi32, #s0, #smem>\n"
            "      scf.yield\n    }\n";
  }
  return R"(
#l0 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [0, 1]}>
#l1 = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [0, 1]}>
#s0 = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @nested(%n: i32) {
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %a = arith.constant dense<1.0> : tensor<4x4xf32, #l0>
    %b = arith.constant dense<2> : tensor<4x4xi32, #l0>
)" + loops +
         R"(
      %t = scf.for %j = %zero to %n step %one iter_args(%x = %a) -> (tensor<4x4xf32, #l0>) : i32 {
        %y = tt.trans %x {order = array<i32: 1, 0>} : tensor<4x4xf32, #l0> -> tensor<4x4xf32, #l1>
        %z = tt.reshape %y : tensor<4x4xf32, #l1> -> tensor<4x4xf32, #l0>
        scf.yield %z : tensor<4x4xf32, #l0>
      }
)" + ends +
         R"(
    tt.return
  }
}
)";
}

} // namespace

// A loop whose body writes shared memory after a nested loop that goes through it. The barrier
// model enters the nested loop as the lowering does, so the body leaves no more pending than the
// model foresaw. (Found by RandomTileProgramsInterpretLowerAndAssemble, which failed with an
// internal error on it when the model took a nested loop as touching everything.)
TEST(KernelLowering, LoopsWithANestedLoopBeforeASharedWriteCompile) {
  for (int sm : {80, 90}) {
    auto k = compileText(loopNest(1), sm);
    ASSERT_TRUE(k.ok()) << "sm_" << sm << ": " << k.message();
    expectAssembles(k->kernel, /*requireNoSpills=*/true);
    // The transpose's barrier between its stores and loads, and the one before its stores.
    EXPECT_GE(countLines(k->kernel.ptx, "bar.sync"), 2) << "sm_" << sm;
  }
}

// Loops nested 24 deep: the barrier model replays each nested body for every entry state of the
// loops around it, memoized, so this compiles (unmemoized, in time exponential in the depth).
TEST(KernelLowering, DeepLoopNestsCompile) {
  auto k = compileText(loopNest(24), 90);
  ASSERT_TRUE(k.ok()) << k.message();
  expectAssembles(k->kernel, /*requireNoSpills=*/true);
}

// The persistent matmul (examples/matmul_wide_persistent.tir) runs a K loop per tile. The
// barrier model enters that loop as the lowering does, so it knows what the K loop leaves pending
// at the tile loop's back edge, and that the K loop's next entry needs no barrier for it: the
// kernel's barriers are the K loop's two, none at the tile loop's head. (When the model took a
// nested loop as touching everything, a third stood there.)
TEST(KernelLowering, PersistentLoopsNeedNoBarrierAroundTheirInnerLoop) {
  auto k = compileText(readExample("matmul_wide_persistent.tir"), 80, "matmul_wide_persistent.tir",
                       /*passes=*/true);
  ASSERT_TRUE(k.ok()) << k.message();
  EXPECT_EQ(countLines(k->kernel.ptx, "bar.sync"), 2) << k->kernel.ptx;
}

// Random 2-D tile programs (RandomKernel.h: i32 and f32 tiles in random blocked and mma layouts,
// elementwise ops, conversions between the layouts, reductions along either axis broadcast
// back, casts) run in the interpreter and lower for sm_80 and sm_90 to PTX that ptxas
// assembles. On the GPU they compute the interpreter's values
// (LowerGpu.RandomTileProgramsMatchTheInterpreter).
TEST(KernelLowering, RandomTileProgramsInterpretLowerAndAssemble) {
  checkProperty(
      [] {
        std::string problem = interpretLowerAndAssemble(randomTileProgram());
        if (!problem.empty())
          RC_FAIL(problem);
      },
      60);
}
