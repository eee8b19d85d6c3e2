// Every kernel the GPU tests and the GPU benchmark run lowers to PTX that ptxas accepts for sm_90
// (where ptxas is installed), without a GPU: a kernel that cannot run is found here, not on the
// GPU machine.
#include "SassCount.h"
#include "kernels/TileKernels.h"

#include "linlayout/ir/AnnotateAccessWidths.h"
#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/SoftwarePipeline.h"
#include "linlayout/ir/Walk.h"
#include "linlayout/lower/Lower.h"
#include "linlayout/lower/Ptxas.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <regex>
#include <sstream>
#include <vector>

using namespace linlayout;
using namespace linlayout::gpukernels;
using ir::ScalarKind;

namespace {

using LowerTarget = decltype(lower::LowerOptions{}.target)::value_type;

int countOf(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
    ++n;
  return n;
}

// The convert_loop kernel (src -> dst -> src, 4 warps) lowered for sm_90, every conversion on
// `path` when one is given.
Expected<lower::LoweredKernel> lowerConvertLoop(ScalarKind e, int64_t rows, int64_t cols,
                                                const LayoutSpec &src, const LayoutSpec &dst,
                                                std::optional<ConversionPath> path = {}) {
  LL_ASSIGN_OR_RETURN(ir::Module m, convertLoop(e, rows, cols, src, dst, 4));
  lower::LowerOptions o;
  o.target = LowerTarget::parse("sm_90").value();
  o.conversionPath = path;
  return lower::lowerKernel(m, o);
}

// Lowers for sm_90 and, where ptxas is present, assembles; "" on success, else what went wrong.
// `spills` receives ptxas' spill report when it mentions spilled bytes, `log` all it said.
std::string lowerAndAssemble(const Expected<ir::Module> &m, std::string *spills = nullptr,
                             std::string *log = nullptr) {
  if (!m.ok())
    return "building: " + m.message();
  lower::LowerOptions o;
  o.target = LowerTarget::parse("sm_90").value();
  auto k = lower::lowerKernel(*m, o);
  if (!k.ok())
    return "lowering: " + k.message();
  std::optional<std::string> as = lower::findPtxas();
  if (!as)
    return "";
  // sm_90, or sm_90a for the kernels that use wgmma.
  Expected<lower::PtxasReport> run = lower::runPtxas(*as, k->kernel.ptx, k->kernel.target.name());
  if (!run.ok())
    return run.message();
  if (log)
    *log = run->log;
  if (!run->accepted)
    return "ptxas: " + run->log;
  if (spills && run->spillStoreBytes != 0)
    *spills = run->log;
  return "";
}

// examples/`file` after the pass pipeline, lowered for sm_90a (the warp-specialized kernels).
Expected<lower::LoweredKernel> lowerForSm90a(const std::string &dir, const std::string &file) {
  LL_ASSIGN_OR_RETURN(ir::Module m, matmulKernel(ScalarKind::F16, dir, file));
  LL_TRY_STATUS(ir::runPipeline(m));
  lower::LowerOptions o;
  o.target = LowerTarget::parse("sm_90a").value();
  return lower::lowerKernel(m, o);
}

} // namespace

TEST(JitKernels, CopyKernelsLower) {
  for (ScalarKind e : {ScalarKind::I8, ScalarKind::F16, ScalarKind::F32})
    for (int64_t spt : {1, 4, 8, 16}) {
      std::string spills;
      EXPECT_EQ(lowerAndAssemble(memcpy1d(e, spt * 256, spt, 4), &spills), "")
          << ir::name(e) << " spt " << spt;
      EXPECT_EQ(spills, "") << ir::name(e) << " spt " << spt;
    }
  for (int64_t xb : {2048, 8192})
    for (int64_t r : {1, 4, 16})
      EXPECT_EQ(lowerAndAssemble(memcpy1d(ScalarKind::F32, xb, r, 4)), "") << xb << " " << r;
  for (const LayoutSpec &l :
       {blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}), blocked({1, 8}, {2, 16}, {2, 2}, {1, 0}),
        blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}), blocked({1, 1}, {32, 1}, {4, 1}, {0, 1})})
    EXPECT_EQ(lowerAndAssemble(memcpy2d(ScalarKind::F16, 64, 64, l, 4)), "");
  EXPECT_EQ(lowerAndAssemble(
                memcpy2d(ScalarKind::F32, 64, 128, blocked({1, 4}, {1, 32}, {4, 1}, {1, 0}), 4)),
            "");
  EXPECT_EQ(lowerAndAssemble(copy2dInOut(ScalarKind::F32, 128, 128,
                                         blocked({1, 1}, {1, 32}, {1, 4}, {1, 0}),
                                         blocked({1, 1}, {32, 1}, {4, 1}, {0, 1}), 4)),
            "");
  EXPECT_EQ(lowerAndAssemble(copy2dInOut(ScalarKind::F16, 128, 128,
                                         blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}),
                                         blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}), 4)),
            "");
}

TEST(JitKernels, ConversionKernelsLower) {
  std::vector<std::pair<LayoutSpec, LayoutSpec>> pairs;
  for (const NamedPair &p : referencePairs())
    pairs.emplace_back(p.src, p.dst);
  for (size_t i = 0; i < pairs.size(); ++i) {
    for (ScalarKind e : {ScalarKind::I8, ScalarKind::I16, ScalarKind::I32}) {
      EXPECT_EQ(lowerAndAssemble(convertCheck(e, 128, 128, pairs[i].first, pairs[i].second, 4)), "")
          << "pair " << i << " " << ir::name(e);
      EXPECT_EQ(lowerAndAssemble(convertCheck(e, 128, 128, pairs[i].second, pairs[i].first, 4)), "")
          << "pair " << i << " reversed " << ir::name(e);
    }
    for (ScalarKind e : {ScalarKind::F16, ScalarKind::F32, ScalarKind::I16})
      EXPECT_EQ(lowerAndAssemble(convertLoop(e, 128, 128, pairs[i].first, pairs[i].second, 4)), "")
          << "loop pair " << i << " " << ir::name(e);
  }
}

TEST(JitKernels, ExampleKernelsLower) {
  std::string dir = sourceDir(LINLAYOUT_SOURCE_DIR);
  for (const char *f : {"row_reduce.tir", "softmax.tir", "memcpy_1d.tir"})
    EXPECT_EQ(lowerAndAssemble(exampleKernel(f, dir)), "") << f;
  std::string spills;
  EXPECT_EQ(lowerAndAssemble(matmulKernel(ScalarKind::F16, dir), &spills), "");
  EXPECT_EQ(spills, "") << "f16 matmul";
  EXPECT_EQ(lowerAndAssemble(matmulKernel(ScalarKind::BF16, dir)), "");
  // The pipelined variants the GPU test and benchmark run.
  for (ScalarKind e : {ScalarKind::F16, ScalarKind::BF16})
    for (int stages : {2, 3, 4}) {
      Expected<ir::Module> m = matmulKernel(e, dir);
      ASSERT_TRUE(m.ok()) << m.message();
      ASSERT_TRUE(ir::pipelineLoops(*m, stages).ok());
      std::string pipedSpills;
      EXPECT_EQ(lowerAndAssemble(m, &pipedSpills), "") << ir::name(e) << " stages " << stages;
      EXPECT_EQ(pipedSpills, "") << ir::name(e) << " stages " << stages;
    }
  // The wgmma matmuls as the GPU test and benchmark run them: as built or pipelined, plus the
  // proxy fences. Pipelined, one wgmma group stays in flight across iterations; ptxas must not
  // serialize the wgmmas (it says "Potential Performance Loss: wgmma.mma_async instructions are
  // serialized ..." when, e.g., the in-flight accumulator registers are touched before the wait).
  for (const char *file : {"matmul_wgmma.tir", "matmul_wgmma_wide.tir", "matmul_wgmma_nt.tir"})
    for (ScalarKind e : {ScalarKind::F16, ScalarKind::BF16})
      for (int stages : {1, 2, 3, 4}) {
        auto m = matmulKernel(e, dir, file);
        ASSERT_TRUE(m.ok()) << m.message();
        ASSERT_TRUE(ir::pipelineLoops(*m, stages).ok());
        ASSERT_TRUE(ir::insertFences(*m).ok());
        spills.clear();
        std::string log;
        EXPECT_EQ(lowerAndAssemble(m, &spills, &log), "")
            << file << " " << ir::name(e) << ", stages " << stages;
        EXPECT_EQ(spills, "") << file << " " << ir::name(e) << ", stages " << stages;
        EXPECT_EQ(log.find("serialized"), std::string::npos)
            << file << " " << ir::name(e) << ", stages " << stages << ":\n"
            << log;
        EXPECT_EQ(log.find("Performance Loss"), std::string::npos)
            << file << " " << ir::name(e) << ", stages " << stages << ":\n"
            << log;
      }
  // The wide tile (128x256, 8 warps), plain and with 3 stages.
  for (int stages : {1, 3}) {
    Expected<ir::Module> m = matmulKernel(ScalarKind::F16, dir, "matmul_wide.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    ASSERT_TRUE(ir::pipelineLoops(*m, stages).ok());
    std::string wideSpills;
    EXPECT_EQ(lowerAndAssemble(m, &wideSpills), "") << "wide, stages " << stages;
    EXPECT_EQ(wideSpills, "") << "wide, stages " << stages;
  }
}

// The warp-specialized matmuls (every examples/matmul_ws*.tir, and the fp8 ones,
// matmul_fp8_ws*.tir, whose C the bf16 form makes bf16) as the GPU tests and benchmark run them
// (as built, f16 and bf16)
// lower for sm_90a and assemble without spills or serialized wgmmas; the barrier every warp meets
// at the end is the unaligned `barrier.sync 0`, once for the default region and once for the
// partitions' exit (compute-sanitizer's synccheck reports an aligned bar.sync met at two places
// as divergent), and no aligned CTA barrier follows the branch to the regions.
TEST(JitKernels, WarpSpecializedMatmulsLower) {
  const std::string dir = sourceDir(LINLAYOUT_SOURCE_DIR);
  std::optional<std::string> as = lower::findPtxas();
  std::vector<std::string> files;
  for (const auto &e : std::filesystem::directory_iterator(dir + "/examples")) {
    std::string f = e.path().filename().string();
    if ((f.rfind("matmul_ws", 0) == 0 || f.rfind("matmul_fp8_ws", 0) == 0) && f.ends_with(".tir"))
      files.push_back(f);
  }
  EXPECT_GE(files.size(), 5u);
  for (const std::string &file : files)
    for (ScalarKind e : {ScalarKind::F16, ScalarKind::BF16}) {
      SCOPED_TRACE(file + " " + std::string(ir::name(e)));
      auto m = matmulKernel(e, dir, file);
      ASSERT_TRUE(m.ok()) << m.message();
      lower::LowerOptions o;
      o.target = LowerTarget::parse("sm_90a").value();
      auto k = lower::lowerKernel(*m, o);
      ASSERT_TRUE(k.ok()) << k.message();
      const std::string &ptx = k->kernel.ptx;
      const size_t branch = ptx.find("setmaxnreg.");
      ASSERT_NE(branch, std::string::npos);
      std::string after = ptx.substr(branch);
      int meetings = 0;
      for (size_t p = after.find("barrier.sync \t0;"); p != std::string::npos;
           p = after.find("barrier.sync \t0;", p + 1))
        ++meetings;
      EXPECT_EQ(meetings, 2);
      EXPECT_EQ(after.find("bar.sync \t0;"), std::string::npos);
      if (!as)
        continue;
      auto run = lower::runPtxas(*as, ptx, k->kernel.target.name());
      ASSERT_TRUE(run.ok()) << run.message();
      ASSERT_TRUE(run->accepted) << run->log;
      EXPECT_EQ(run->spillStoreBytes, 0) << run->log;
      EXPECT_EQ(run->log.find("serialized"), std::string::npos) << run->log;
      EXPECT_EQ(run->log.find("Performance Loss"), std::string::npos) << run->log;
    }
}

// The warp-specialized attention kernels (every examples/attention_ws*.tir) lower for sm_90a as
// the GPU test and benchmark run them (the pass pipeline) and assemble without spills or
// serialized wgmmas, with the register budgets set (setmaxnreg) and the regions meeting at the
// unaligned `barrier.sync 0` only (as the matmuls above).
TEST(JitKernels, WarpSpecializedAttentionLowers) {
  const std::string dir = sourceDir(LINLAYOUT_SOURCE_DIR);
  std::optional<std::string> as = lower::findPtxas();
  std::vector<std::string> files;
  for (const auto &e : std::filesystem::directory_iterator(dir + "/examples")) {
    std::string f = e.path().filename().string();
    if ((f.rfind("attention_ws", 0) == 0 || f.rfind("attention_fp8_ws", 0) == 0) &&
        f.ends_with(".tir"))
      files.push_back(f);
  }
  EXPECT_GE(files.size(), 4u);
  for (const std::string &file : files) {
    SCOPED_TRACE(file);
    auto k = lowerForSm90a(dir, file);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    const size_t branch = ptx.find("setmaxnreg.");
    ASSERT_NE(branch, std::string::npos);
    EXPECT_EQ(ptx.substr(branch).find("bar.sync \t0;"), std::string::npos);
    if (!as)
      continue;
    auto run = lower::runPtxas(*as, ptx, k->kernel.target.name());
    ASSERT_TRUE(run.ok()) << run.message();
    ASSERT_TRUE(run->accepted) << run->log;
    EXPECT_EQ(run->spillStoreBytes, 0) << run->log;
    EXPECT_EQ(run->log.find("serialized"), std::string::npos) << run->log;
    EXPECT_EQ(run->log.find("Performance Loss"), std::string::npos) << run->log;
  }
}

// In the ping-pong attention kernels of scripts/gen-pp-attention.py a consumer warp group waits
// for S_j (wgmma.wait_group 1), runs S_j's softmax while P_{j-1} V_{j-1} still runs, then waits
// for that (wait_group 0). ptxas moves a wgmma wait up until an mbarrier arrive stops it; with
// Q's slot freed where S_j retires, no arrive stood between the waits, and the second one landed
// before the softmax's first exp2: no MUFU between the two waits, and the d256 kernels ran 2-8 %
// slower on an H100 (bench/gpu/results/h100-2026-12-05-fp8/NOTES.md). Q's slot is now freed after
// the softmax. Each wait for S_j must be followed by most of the block's exponentials (64 a
// thread at fp8 d128, 32 at d256) before the next wait.
TEST(JitKernels, PingPongSoftmaxRunsBesideThePV) {
  if (!lower::findPtxas()) {
    std::cout << "[          ] SASS not read: no ptxas\n";
    return;
  }
  const std::string dir = sourceDir(LINLAYOUT_SOURCE_DIR);
  for (auto [file, exps] : {std::pair{"attention_fp8_ws_pp_persistent_d128.tir", 64},
                            {"attention_ws_pp_persistent_d256.tir", 32}}) {
    SCOPED_TRACE(file);
    auto k = lowerForSm90a(dir, file);
    ASSERT_TRUE(k.ok()) << k.message();
    std::string why;
    auto sass = sasstest::assembleAndCount(k->kernel.ptx, &why, k->kernel.target.name());
    ASSERT_TRUE(sass) << why;
    const auto &code = sass->code;
    int loops = 0;
    for (size_t i = 0; i < code.size(); ++i) {
      if (sasstest::wgmmaWaitPendings(code[i]) != 1)
        continue;
      ++loops;
      int mufu = 0;
      size_t j = i + 1;
      for (; j < code.size() && sasstest::wgmmaWaitPendings(code[j]) < 0; ++j)
        mufu += (code[j][0] & 0x1ff) == sasstest::kMufu;
      std::cout << "[          ] " << file << ": " << mufu << " MUFU between the waits at " << i
                << " and " << j << "\n";
      EXPECT_GE(mufu, exps * 3 / 4) << "the wait for P V moved up to the softmax's start";
    }
    EXPECT_EQ(loops, 2) << "one key-block loop per consumer warp group";
  }
}

// A partition's own buffer is refused: the allocator would let it share bytes with the
// default region's, which runs at the same time.
TEST(JitKernels, PartitionSharedMemoryIsRefused) {
  auto text = exampleText("matmul_ws.tir", sourceDir(LINLAYOUT_SOURCE_DIR));
  ASSERT_TRUE(text.ok()) << text.message();
  const std::string anchor = "      %true = arith.constant true\n";
  const size_t at = text->find(anchor);
  ASSERT_NE(at, std::string::npos);
  text->insert(at + anchor.size(), "      %own = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, "
                                   "#smem, mutable>\n");
  auto m = ir::parseModule(*text, "matmul_ws.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  lower::LowerOptions o;
  o.target = LowerTarget::parse("sm_90a").value();
  auto k = lower::lowerKernel(*m, o);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("ttg.local_alloc in partition 0 needs shared memory of its own, "
                             "which is planned only for the default region"),
            std::string::npos)
      << k.message();
}

// A partition's conversion may go through a scratch of its own (here the fp8 attention's P, made
// the 8-bit A operand's through shared memory in both consumer warp groups), which is kept apart
// from the default region's, as the regions run at once: the scratch adds at least one tile's
// bytes per region to what the same kernel needs with its conversions in registers. And P's
// bytes stay in words on their way to the wgmma.
TEST(JitKernels, PartitionScratchIsKeptApart) {
  auto m = matmulKernel(ScalarKind::F16, sourceDir(LINLAYOUT_SOURCE_DIR),
                        "attention_fp8_ws_pp_persistent_d128.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(ir::runPipeline(*m).ok());
  lower::LowerOptions o;
  o.target = LowerTarget::parse("sm_90a").value();
  auto viaShared = lower::lowerKernel(*m, o);
  ASSERT_TRUE(viaShared.ok()) << viaShared.message();
  int64_t tile = 0;
  for (const auto &c : viaShared->conversions)
    if (c.path != "no_op") {
      EXPECT_EQ(c.path, "shared_memory") << c.where;
      tile = std::max(tile, c.scratchBytes);
    }
  ASSERT_EQ(tile, 64 * 128); // P's 64 x 128 bytes
  o.conversionPath = ConversionPath::WarpShuffle;
  auto inRegisters = lower::lowerKernel(*m, o);
  ASSERT_TRUE(inRegisters.ok()) << inRegisters.message();
  EXPECT_GE(viaShared->kernel.sharedBytes, inRegisters->kernel.sharedBytes + 2 * uint64_t(tile));
  // P's e4m3 bytes go from the cvt to the conversion's stores, and from its loads to the wgmma
  // across the loop's back edge, in words (PackedHalves.h). With each byte a register of its own
  // the kernel extracted them one by one (264 bfe.u32) and packed them (368 bfi.b32).
  EXPECT_LT(countOf(viaShared->kernel.ptx, "bfe.u32"), 32);
  EXPECT_EQ(countOf(viaShared->kernel.ptx, "bfi.b32"), 0);
}

// Every wgmma tile the GPU test runs (each descriptor form, register A, two warp groups) lowers
// for sm_90a and assembles without spills.
TEST(JitKernels, WgmmaTilesLower) {
  for (const WgmmaTileCase &c : wgmmaTileCases()) {
    std::string spills;
    EXPECT_EQ(lowerAndAssemble(wgmmaTileKernel(c), &spills), "") << c.name();
    EXPECT_EQ(spills, "") << c.name();
  }
}

TEST(JitKernels, RandomPlannerPairsLower) {
  // A fixed seed here (the GPU test draws fresh ones): 100 pairs, 8/16/32-bit, every one lowered
  // and assembled. $LINLAYOUT_RANDOM_PAIRS (and $LINLAYOUT_RANDOM_SEED) run more, for a one-off
  // sweep before a GPU run.
  const char *count = std::getenv("LINLAYOUT_RANDOM_PAIRS");
  const char *seed = std::getenv("LINLAYOUT_RANDOM_SEED");
  int pairs = count ? std::atoi(count) : 100;
  std::mt19937_64 rng(seed ? std::strtoull(seed, nullptr, 10) : 20261122);
  int failures = 0;
  for (int i = 0; i < pairs && failures < 5; ++i) {
    RandomPair p = randomPair(rng);
    ScalarKind e = std::array{ScalarKind::I8, ScalarKind::I16, ScalarKind::I32}[i % 3];
    std::string problem = lowerAndAssemble(convertCheck(
        e, int64_t(1) << p.rowBits, int64_t(1) << p.colBits, p.src, p.dst, 1 << p.warpBits));
    // Every plan is emitted: "not emitted yet" fails like any other error.
    if (!problem.empty()) {
      ++failures;
      ADD_FAILURE() << "pair " << i << " (" << (1 << p.rowBits) << "x" << (1 << p.colBits) << ", "
                    << (1 << p.warpBits) << " warps, " << ir::name(e) << "): " << problem;
    }
  }
  std::cout << "[          ] " << pairs << " random pairs lowered and assembled, " << failures
            << " failed\n";
}

namespace {

// The vector widths of a module's loads and stores, in program order: what the access-width pass
// finds safe for every thread (ir::accessWidth), which lower/ uses for these unannotated kernels.
std::vector<int64_t> widths(ir::Module m) {
  EXPECT_TRUE(ir::annotateAccessWidths(m).ok());
  std::vector<int64_t> w;
  ir::walkOps(m.functions.at(0).body, [&](const ir::Op &op) {
    if (op.kind == ir::OpKind::Load || op.kind == ir::OpKind::Store)
      w.push_back(op.attrs.vectorWidth);
  });
  return w;
}

} // namespace

TEST(JitKernels, VectorWidthsFollowMemoryContiguity) {
  using W = std::vector<int64_t>;
  // Registers 128 elements apart are not adjacent in memory.
  EXPECT_EQ(widths(memcpy1d(ScalarKind::F32, 2048, 1, 4).value()), (W{1, 1}));
  EXPECT_EQ(widths(memcpy1d(ScalarKind::F32, 1024, 4, 4).value()), (W{4, 4}));
  EXPECT_EQ(widths(memcpy1d(ScalarKind::F32, 8192, 16, 4).value()), (W{4, 4}));
  EXPECT_EQ(widths(memcpy1d(ScalarKind::I8, 8192, 16, 4).value()), (W{16, 16}));
  // Rows of a [4, 1] layout run down the column: no vector along the contiguous dim.
  EXPECT_EQ(
      widths(memcpy2d(ScalarKind::F32, 64, 64, blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}), 4).value()),
      (W{1, 1}));
  // The transposed copy: loads along dim 1, stores along dim 0.
  EXPECT_EQ(widths(copy2dInOut(ScalarKind::F16, 128, 128, blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}),
                               blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}), 4)
                       .value()),
            (W{4, 4}));
  EXPECT_EQ(widths(copy2dInOut(ScalarKind::F32, 128, 128, blocked({1, 1}, {1, 32}, {1, 4}, {1, 0}),
                               blocked({1, 1}, {32, 1}, {4, 1}, {0, 1}), 4)
                       .value()),
            (W{1, 1}));
  // Registers step the columns by 1 and 2, but lane 0 also moves them by 1: a thread's four
  // elements are columns 1, 0, 3, 2 of its row, not a vector.
  LayoutSpec mixed =
      LinearSpec::make({{0, 1}, {0, 2}}, {{1, 1}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {}, {}, {32, 4})
          .value();
  EXPECT_EQ(widths(memcpy2d(ScalarKind::I32, 32, 4, mixed, 1).value()), (W{1, 1}));
  LayoutSpec clean =
      LinearSpec::make({{0, 1}, {0, 2}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}}, {}, {}, {32, 4})
          .value();
  EXPECT_EQ(widths(memcpy2d(ScalarKind::I32, 32, 4, clean, 1).value()), (W{4, 4}));
  std::string dir = sourceDir(LINLAYOUT_SOURCE_DIR);
  // matmul: A and B loads of 8 halves, the C store of 2 floats (from the accumulator's layout).
  EXPECT_EQ(widths(matmulKernel(ScalarKind::F16, dir).value()), (W{8, 8, 2}));
}

// The shuffle pair of the GPU benchmark (register_only: blocked [2,2]/[8,4]/[4,1] order [1,0] <->
// order [0,1], 128x128, 4 warps), in its benchmark kernel: load, 64 x (convert, +1, convert
// back), store. Per loop iteration (two conversions and 128 adds per thread):
//   f16: PTX 128 shfl.sync, no prmt / selp / cvt; SASS (sm_90) 128 SHFL, 64 HADD2, no PRMT:
//        one shuffle per 32-bit word moved and no packing instruction. Before (the words packed
//        rows while the loads and the loop carried columns, halves split by cvt + shift, 16-bit
//        loop phis) the kernel had 387 PRMT, 281 of them in the loop (485 instructions per
//        iteration, now about 224).
//   f32: 256 SHFL and 128 FADD per iteration and nothing else of note.
// Triton 3.6's PTX for the same kernels has 128 / 256 shfl.sync and no prmt or selp
// (../shared/reference/gpu/gluon36_convert_h200.json); its SASS was not recorded.
namespace {

// The body of the kernel's loop: from the label a later branch jumps back to, to that branch.
std::string loopBody(const std::string &ptx) {
  std::smatch m;
  std::regex backBranch(R"(bra(?:\.uni)?\s+(\$L__BB0_\d+);)");
  for (auto it = std::sregex_iterator(ptx.begin(), ptx.end(), backBranch);
       it != std::sregex_iterator(); ++it) {
    size_t label = ptx.find((*it)[1].str() + ":");
    size_t branch = size_t(it->position(0));
    if (label != std::string::npos && label < branch)
      return ptx.substr(label, branch - label);
  }
  return "";
}

} // namespace

// A 16-bit round trip on shuffles (seed2-194 of bench/gpu/conversion_paths.jsonl: each f16 pair
// is two consecutive registers on both sides) keeps its words packed: the loop-carried words
// are the shuffled words themselves. What remains in the loop's PTX are the 32 words the f16 adds
// produce (split for the scalar adds, packed again for the next shuffle), which ptxas turns into
// HADD2 on the word's register. Packing along the tensor's last dimension instead (registers 8
// apart) left 96 packs and 96 splits in the loop, 96 PRMT in its SASS, and cost 60 % of the
// conversion time on an H100.
TEST(JitKernels, ShuffleRoundTripKeepsHalfPairsPacked) {
  LayoutSpec src = blocked({8, 2}, {4, 8}, {4, 1}, {0, 1});
  LayoutSpec dst = blocked({4, 2}, {8, 4}, {4, 1}, {0, 1});
  auto k = lowerConvertLoop(ScalarKind::F16, 32, 64, src, dst);
  ASSERT_TRUE(k.ok()) << k.message();
  ASSERT_EQ(k->conversions.size(), 2u);
  for (const lower::ConversionReport &c : k->conversions)
    EXPECT_EQ(c.path, "warp_shuffle") << c.where;
  std::string body = loopBody(k->kernel.ptx);
  ASSERT_FALSE(body.empty()) << "no loop in the PTX";
  EXPECT_EQ(countOf(body, "shfl.sync"), 64);
  EXPECT_EQ(countOf(body, "prmt"), 0);
  // Packs are `mov.b32 %r, {lo, hi}`, splits `mov.b32 {lo, hi}, %r`.
  auto count = [&](const char *re) {
    std::regex r(re);
    return std::distance(std::sregex_iterator(body.begin(), body.end(), r), std::sregex_iterator());
  };
  EXPECT_LE(count(R"(mov\.b32\s+%r\d+,\s*\{)"), 32) << body;
  EXPECT_LE(count(R"(mov\.b32\s+\{)"), 32) << body;
  if (!lower::findPtxas()) {
    std::cout << "[          ] SASS not counted: no ptxas\n";
    return;
  }
  std::string why;
  auto sass = sasstest::assembleAndCount(k->kernel.ptx, &why);
  ASSERT_TRUE(sass) << why;
  // 64 PRMT outside the loop (the loads' and stores' halves), none in it (96 in it before).
  EXPECT_LE(sass->of(sasstest::kPrmt), 64);
}

// The same through shared memory (seed2-74 f16 of bench/gpu/conversion_paths.jsonl): a store
// of a pair of halves that is one split word (the loop-carried words) stores that word. Before,
// every stored word was packed afresh: 384 packs in the kernel, where 256 remain (the words the
// f16 adds produce), and 380 PRMT and a register spill in the loop's SASS (1.37x slower on an
// H100, bench/gpu/results/h100-2026-11-26-halfstores/ at f514cb4).
TEST(JitKernels, SharedRoundTripStoresCarriedWordsAsTheyAre) {
  LayoutSpec src = blocked({8, 8}, {16, 2}, {4, 1}, {0, 1});
  LayoutSpec dst = blocked({4, 2}, {32, 1}, {4, 1}, {0, 1});
  auto k = lowerConvertLoop(ScalarKind::F16, 32, 64, src, dst, ConversionPath::SharedMemory);
  ASSERT_TRUE(k.ok()) << k.message();
  ASSERT_EQ(k->conversions.size(), 2u);
  const std::string &ptx = k->kernel.ptx;
  std::regex pack(R"(mov\.b32\s+%r\d+,\s*\{)");
  auto packs =
      std::distance(std::sregex_iterator(ptx.begin(), ptx.end(), pack), std::sregex_iterator());
  EXPECT_LE(packs, 256) << ptx;
  EXPECT_EQ(countOf(ptx, "st.shared.v4"), 64);
}

// seed2-194: every warp holds the whole tile, so one warp stores it for all four. The store
// predicate reads the warp id from lane 0, once, before the loop: a warp-uniform condition that
// ptxas branches on. From %tid.x it issued one conversion's stores predicated off in the other
// three warps (8 of 16 STS.128 in the loop), which cost the shared-memory pipe 7 % on an H100.
TEST(JitKernels, StorePredicateReadsAWarpUniformId) {
  LayoutSpec src = blocked({8, 2}, {4, 8}, {4, 1}, {0, 1});
  LayoutSpec dst = blocked({4, 2}, {8, 4}, {4, 1}, {0, 1});
  auto k = lowerConvertLoop(ScalarKind::F16, 32, 64, src, dst, ConversionPath::SharedMemory);
  ASSERT_TRUE(k.ok()) << k.message();
  const std::string &ptx = k->kernel.ptx;
  EXPECT_EQ(countOf(ptx, "shfl.sync.idx"), 1) << ptx;
  std::string body = loopBody(ptx);
  ASSERT_FALSE(body.empty()) << "no loop in the PTX";
  EXPECT_EQ(countOf(body, "shfl.sync"), 0) << body;
  EXPECT_EQ(countOf(body, "bar.sync"), 2) << body;
  // Without a store predicate nothing is shuffled.
  auto plain =
      lowerConvertLoop(ScalarKind::F16, 32, 64, blocked({8, 4}, {16, 2}, {1, 4}, {0, 1}),
                       blocked({2, 1}, {4, 8}, {1, 4}, {0, 1}), ConversionPath::SharedMemory);
  ASSERT_TRUE(plain.ok()) << plain.message();
  EXPECT_EQ(countOf(plain->kernel.ptx, "shfl.sync"), 0);
}

TEST(JitKernels, ShufflePairInstructionCounts) {
  LayoutSpec src = blocked({2, 2}, {8, 4}, {4, 1}, {1, 0});
  LayoutSpec dst = blocked({2, 2}, {8, 4}, {4, 1}, {0, 1});
  for (ScalarKind e : {ScalarKind::F16, ScalarKind::F32}) {
    SCOPED_TRACE(std::string(ir::name(e)));
    auto k = lowerConvertLoop(e, 128, 128, src, dst);
    ASSERT_TRUE(k.ok()) << k.message();
    const std::string &ptx = k->kernel.ptx;
    bool half = e == ScalarKind::F16;
    EXPECT_EQ(countOf(ptx, "shfl.sync"), half ? 128 : 256);
    EXPECT_EQ(countOf(ptx, "prmt"), 0);
    EXPECT_EQ(countOf(ptx, "selp"), 0);
    EXPECT_EQ(countOf(ptx, "cvt.u16.u32"), 0);
    if (!lower::findPtxas()) {
      std::cout << "[          ] SASS not counted: no ptxas\n";
      continue;
    }
    std::string why;
    auto sass = sasstest::assembleAndCount(ptx, &why);
    ASSERT_TRUE(sass) << why;
    EXPECT_EQ(sass->of(sasstest::kShfl), half ? 128 : 256);
    EXPECT_EQ(sass->of(sasstest::kPrmt), 0);
    EXPECT_EQ(sass->of(sasstest::kLdg), 64);
    EXPECT_EQ(sass->of(sasstest::kStg), 64);
    if (half)
      EXPECT_EQ(sass->of(sasstest::kHadd2), 64);
    else
      EXPECT_EQ(sass->of(sasstest::kFadd), 128);
    // Everything else is address arithmetic outside the loop and loop control: f16 385, f32 572
    // instructions in all when this was written (f16 882, then 526, f32 685 before addptr split
    // constant offsets into immediates; f16 355 before shuffles packed the loop-carried words
    // themselves: the loop keeps only SHFL and HADD2 either way, and runs 0.85 -> 0.73 ns per
    // conversion on an H100, but ptxas adds 32 MOVs after it, before the stores).
    EXPECT_LE(sass->total, half ? 390 : 590);
    std::cout << "[          ] " << ir::name(e) << ": " << sass->total << " SASS instructions, "
              << sass->of(sasstest::kShfl) << " SHFL, " << sass->of(sasstest::kPrmt) << " PRMT\n";
  }
}

// Registers of the conversion benchmark's loop kernels (load, 64 x (convert, +1, convert back),
// store; 128x128, 4 warps) for every reference pair, printed; the shuffle pair register_only must
// fit three CTAs of 128 threads per SM as Triton's does (168 registers). The loop itself needs
// about 128 (f32): what pushed ptxas to 255 were the load's 64-bit addresses, reused by the store
// after the loop and so live across it (one per distinct thread-part | constant offset); addptr
// now adds the constant part of an offset separately, so one base pointer stays live.
TEST(JitKernels, ConvertLoopRegisters) {
  const std::vector<NamedPair> pairs = referencePairs();
  const char *dump = std::getenv("LINLAYOUT_DUMP_PTX");
  const std::optional<std::string> as = lower::findPtxas();
  for (const NamedPair &p : pairs)
    for (ScalarKind e : {ScalarKind::F16, ScalarKind::F32}) {
      const std::string tag = p.name + " " + std::string(ir::name(e));
      SCOPED_TRACE(tag);
      auto k = lowerConvertLoop(e, 128, 128, p.src, p.dst);
      ASSERT_TRUE(k.ok()) << k.message();
      if (dump)
        std::ofstream(std::string(dump) + "/" + p.name + "_" + std::string(ir::name(e)) + ".ptx")
            << k->kernel.ptx;
      if (!as) {
        std::cout << "[          ] registers not counted (no ptxas)\n";
        return;
      }
      Expected<lower::PtxasReport> run = lower::runPtxas(*as, k->kernel.ptx, "sm_90");
      ASSERT_TRUE(run.ok() && run->accepted && run->registers >= 0)
          << tag << ": " << (run.ok() ? run->log : run.message());
      int regs = run->registers;
      bool spills = run->spillStoreBytes != 0;
      std::cout << "[          ] " << tag << ": " << regs << " registers"
                << (spills ? " (spills)" : "") << "\n";
      // Measured (ptxas 13.0, sm_90) when written: f32 / f16 register_only 168 / 72 (255 / 128
      // before addptr split its offsets' constants off; Triton 3.6: 168 / 117).
      if (std::string(p.name) == "register_only") {
        EXPECT_FALSE(spills);
        EXPECT_LE(regs, e == ScalarKind::F32 ? 168 : 72);
      }
    }
}
