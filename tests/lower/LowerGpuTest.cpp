// Lowered kernels on the GPU: every example computes what its reference says (the same inputs and
// checks as the interpreter tests), before and after the pass pipeline, and every reference
// conversion moves every element to where the destination layout says. Skips without a GPU.
#include "../ir/Examples.h"
#include "../ir/TritonDumps.h"
#include "ConversionKernel.h"
#include "ConversionPlanning.h"
#include "CrossCtaKernel.h"
#include "Property.h"
#include "RandomDot.h"
#include "RandomKernel.h"
#include "RandomMatmul.h"

#include "linlayout/testing/Generators.h"

#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/layout/PlanConversion.h"
#include "linlayout/lower/Lower.h"
#include "linlayout/lower/Occupancy.h"
#include "linlayout/runtime/Context.h"
#include "linlayout/runtime/DeviceBuffer.h"
#include "linlayout/runtime/Launch.h"
#include "linlayout/runtime/Module.h"
#include "linlayout/runtime/Stream.h"
#include "linlayout/runtime/TensorMap.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <set>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;
namespace rt = linlayout::runtime;

namespace {

#define REQUIRE_GPU()                                                                              \
  std::string why_;                                                                                \
  if (!rt::gpuAvailable(&why_))                                                                    \
    GTEST_SKIP() << "no GPU here: " << why_;                                                       \
  auto ctx_ = rt::Context::create(0);                                                              \
  ASSERT_TRUE(ctx_.ok()) << ctx_.message();                                                        \
  /* sm_80 PTX runs on every GPU we test on; sm_90 where the GPU has it. */                        \
  std::vector<PtxTarget> targets_ = {{80, 80}};                                                    \
  if (ctx_->computeCapability() >= 90)                                                             \
  targets_.push_back({90, 80})

// Loads the PTX and runs it on the given buffers (copied in and back) with scalar arguments.
Status runOnGpu(const KernelPtx &k, std::vector<std::vector<uint8_t>> &buffers,
                const std::vector<ir::ArgValue> &args, rt::Dim3 grid) {
  LL_ASSIGN_OR_RETURN(rt::Module mod, rt::Module::loadPtx(k.ptx));
  LL_ASSIGN_OR_RETURN(rt::Function fn, mod.function(k.name));
  if (k.sharedBytes > 48 * 1024)
    LL_TRY_STATUS(fn.setMaxDynamicSharedBytes(static_cast<int>(k.sharedBytes)));
  std::vector<rt::DeviceBuffer> dev;
  for (auto &b : buffers) {
    LL_ASSIGN_OR_RETURN(rt::DeviceBuffer d,
                        rt::DeviceBuffer::allocate(std::max<size_t>(b.size(), 1)));
    LL_TRY_STATUS(d.copyFromHost(b.data(), b.size()));
    dev.push_back(std::move(d));
  }
  std::vector<uint64_t> storage(args.size());
  std::vector<rt::TensorMap> maps(args.size());
  std::vector<void *> params;
  for (size_t i = 0; i < args.size(); ++i) {
    const ir::ArgValue &a = args[i];
    if (a.kind == ir::ArgValue::TensorDesc) {
      // The tensor map the kernel's parameter asks for, over the buffer (element strides).
      const KernelParam &p = k.params.at(i);
      rt::TiledTensorMapSpec spec;
      std::optional<rt::TensorMapElement> element = rt::tensorMapElementOf(p.element);
      if (!element)
        return makeError("parameter '" + p.name + "' holds " + p.element);
      spec.element = *element;
      spec.address = dev.at(a.buffer).ptr();
      for (size_t d = 0; d < a.dims.size(); ++d) {
        spec.dims.push_back(uint64_t(a.dims[d]));
        if (d + 1 < a.dims.size())
          spec.strideBytes.push_back(uint64_t(a.strides[d]) *
                                     uint64_t(rt::elementBytes(spec.element)));
      }
      spec.box = p.box;
      spec.swizzleBytes = p.swizzleBytes;
      LL_ASSIGN_OR_RETURN(maps[i], rt::encodeTiledTensorMap(spec));
      params.push_back(&maps[i]);
      continue;
    }
    if (a.kind == ir::ArgValue::Pointer) {
      storage[i] = dev.at(a.buffer).ptr();
    } else if (a.kind == ir::ArgValue::Int) {
      storage[i] = static_cast<uint64_t>(a.i); // little-endian: narrower params read the low bytes
    } else {
      float f = static_cast<float>(a.f);
      if (k.params.at(i).bits == 64)
        std::memcpy(&storage[i], &a.f, 8);
      else
        std::memcpy(&storage[i], &f, 4);
    }
    params.push_back(&storage[i]);
  }
  rt::LaunchConfig cfg;
  cfg.grid = {grid.x * unsigned(k.ctasPerCluster), grid.y, grid.z}; // a program is a cluster
  cfg.block = {static_cast<unsigned>(k.threadsPerBlock), 1, 1};
  cfg.dynamicSharedBytes = static_cast<unsigned>(k.sharedBytes);
  LL_ASSIGN_OR_RETURN(rt::Stream stream, rt::Stream::create());
  LL_TRY_STATUS(rt::launchRaw(fn, cfg, stream, params.data()));
  LL_TRY_STATUS(stream.synchronize());
  for (size_t i = 0; i < buffers.size(); ++i)
    LL_TRY_STATUS(dev[i].copyToHost(buffers[i].data(), buffers[i].size()));
  return Status::success();
}

// Runs an example's kernel on the GPU on the example's inputs, one program per point of its grid,
// and checks what it stored (ExampleRun::check).
void expectRunsOnGpu(const KernelPtx &k, const ir::testing::ExampleRun &run) {
  ir::Memory mem;
  std::vector<ir::ArgValue> args;
  run.setup(mem, args);
  Status s = runOnGpu(k, mem.buffers, args,
                      {unsigned(run.grid.x), unsigned(run.grid.y), unsigned(run.grid.z)});
  ASSERT_TRUE(s.ok()) << s.message();
  run.check(mem);
}

// Lowers `m` for each target, runs its only kernel on `start` (one program), and expects the
// memory the interpreter left in `want`, buffer by buffer.
void expectGpuMatchesInterpreter(const ir::Module &m, const std::vector<PtxTarget> &targets,
                                 const std::vector<ir::ArgValue> &args, const ir::Memory &start,
                                 const ir::Memory &want) {
  for (const PtxTarget &target : targets) {
    SCOPED_TRACE(target.name());
    LowerOptions o;
    o.target = target;
    auto k = lowerKernel(m, o);
    ASSERT_TRUE(k.ok()) << k.message();
    ir::Memory mem = start;
    Status s = runOnGpu(k->kernel, mem.buffers, args, {1, 1, 1});
    ASSERT_TRUE(s.ok()) << s.message();
    for (size_t b = 0; b < mem.buffers.size(); ++b)
      EXPECT_EQ(mem.buffers[b], want.buffers[b]) << "buffer " << b;
  }
}

} // namespace

TEST(LowerGpu, ExamplesComputeTheirReferences) {
  REQUIRE_GPU();
  int ran = 0;
  for (const PtxTarget &target : targets_)
    for (const ir::testing::ExampleRun &run : ir::testing::exampleRuns())
      for (bool passes : {false, true}) {
        SCOPED_TRACE(run.file + (passes ? " after the passes" : " as written") + " on " +
                     target.name());
        ir::Module m = ir::testing::loadExample(run.file);
        if (passes) {
          ASSERT_TRUE(ir::runPipeline(m).ok());
        }
        LowerOptions o;
        o.target = target;
        auto k = lowerKernel(m, o);
        ASSERT_TRUE(k.ok()) << k.message();
        expectRunsOnGpu(k->kernel, run);
        ++ran;
      }
  EXPECT_EQ(ran, 2 * int(targets_.size() * ir::testing::exampleRuns().size()));
}

// The matmuls with dot operands wider than a fragment word (their K read through a
// permutation, LowerDot.cpp) compute the references of the word-wide ones, as written and
// pipelined with 3 stages.
TEST(LowerGpu, DotOperandsWiderThanAWordComputeTheReference) {
  REQUIRE_GPU();
  const std::vector<ir::testing::ExampleRun> runs = ir::testing::exampleRuns();
  int ran = 0;
  for (const ir::testing::KWidthVariant &v : ir::testing::kWidthVariants())
    for (const PtxTarget &target : targets_)
      for (int stages : {1, 3}) {
        SCOPED_TRACE(std::string(v.file) + " with kWidth " + std::to_string(v.to) + " on " +
                     target.name() + ", " + std::to_string(stages) + " stages");
        auto run = std::find_if(runs.begin(), runs.end(),
                                [&](const ir::testing::ExampleRun &r) { return r.file == v.file; });
        ASSERT_NE(run, runs.end());
        auto m = ir::parseModule(ir::testing::withKWidth(v.file, v.from, v.to), v.file);
        ASSERT_TRUE(m.ok()) << m.message();
        ir::PipelineOptions po;
        po.numStages = stages;
        ASSERT_TRUE(ir::runPipeline(*m, po).ok());
        LowerOptions o;
        o.target = target;
        auto k = lowerKernel(*m, o);
        ASSERT_TRUE(k.ok()) << k.message();
        expectRunsOnGpu(k->kernel, *run);
        ++ran;
      }
  EXPECT_EQ(ran, 2 * int(targets_.size() * ir::testing::kWidthVariants().size()));
}

// The kernels Triton 3.6 compiled, as it printed them (examples/triton/: sm_90, with cp.async
// rings feeding mma.sync or wgmma, or TMA), compute their references on the GPU as written and
// after the passes. (Their mma.sync loops refill the ring slot they have just read: the bar.sync
// before those copies keeps them clean under racecheck.)
TEST(LowerGpu, TritonDumpsComputeTheirReferences) {
  REQUIRE_GPU();
  if (ctx_->computeCapability() < 90)
    GTEST_SKIP() << "the dumps are for sm_90; this GPU is sm_" << ctx_->computeCapability();
  int ran = 0;
  for (const ir::testing::ExampleRun &run : ir::testing::sm90Runs())
    for (bool passes : {false, true}) {
      SCOPED_TRACE(run.file + (passes ? " after the passes" : " as written"));
      ir::Module m = ir::testing::loadExample(run.file);
      if (passes) {
        ASSERT_TRUE(ir::runPipeline(m).ok());
      }
      auto k = lowerKernel(m, LowerOptions{});
      ASSERT_TRUE(k.ok()) << k.message();
      expectRunsOnGpu(k->kernel, run);
      ++ran;
      // Dropout's integer Philox stream is exact: the GPU keeps the elements the interpreter
      // keeps.
      if (run.file == "triton/dropout.ttgir") {
        ir::Memory cpu, gpu;
        std::vector<ir::ArgValue> args;
        run.setup(cpu, args);
        gpu = cpu;
        ASSERT_TRUE(ir::interpret(m, run.function, args, cpu, run.grid).ok());
        ASSERT_TRUE(runOnGpu(k->kernel, gpu.buffers, args, {4, 1, 1}).ok());
        EXPECT_EQ(gpu.buffers[1], cpu.buffers[1]);
      }
    }
  EXPECT_EQ(ran, 2 * int(ir::testing::sm90Runs().size()));
}

// The examples (and the scans of examples/triton) run by programs of 2 and 4 CTAs (clusters,
// sm_90) after the passes, with and without software pipelining: each CTA computes and stores its
// part of the program's tile (PlanCtas.h), and the results are the interpreter's.
TEST(LowerGpu, ClustersComputeTheExamplesReferences) {
  REQUIRE_GPU();
  if (ctx_->computeCapability() < 90)
    GTEST_SKIP() << "clusters need sm_90; this GPU is sm_" << ctx_->computeCapability();
  int ran = 0;
  std::vector<ir::testing::ExampleRun> runs = ir::testing::exampleRuns();
  for (ir::testing::ExampleRun &r : ir::testing::tritonDumpRuns())
    runs.push_back(std::move(r));
  for (const ir::testing::ExampleRun &run : runs) {
    if (run.file != "matmul.tir" && run.file != "row_reduce.tir" &&
        run.file != "transpose_copy.tir" && run.file != "softmax.tir" &&
        run.file != "triton/scans.ttgir" && run.file != "triton/compact.ttgir")
      continue;
    for (int ctas : {2, 4})
      for (int stages : {1, 3}) {
        SCOPED_TRACE(run.file + " on " + std::to_string(ctas) + " CTAs, " + std::to_string(stages) +
                     " stages");
        ir::Module m = ir::testing::loadExample(run.file);
        m.numCtas = ctas;
        ir::PipelineOptions po;
        po.numStages = stages;
        ASSERT_TRUE(ir::runPipeline(m, po).ok());
        LowerOptions o;
        o.target = PtxTarget{90, 80};
        auto k = lowerKernel(m, o);
        ASSERT_TRUE(k.ok()) << k.message();
        ASSERT_EQ(k->kernel.ctasPerCluster, ctas);
        expectRunsOnGpu(k->kernel, run);
        ++ran;
      }
  }
  EXPECT_EQ(ran, 24);
}

// A conversion between the CTAs of a cluster through distributed shared memory
// (CrossCtaKernel.h, elements of 8 to 64 bits) moves every element: the tile stored is the tile
// loaded, byte for byte.
TEST(LowerGpu, ConversionsBetweenCtasMoveEveryElement) {
  REQUIRE_GPU();
  if (ctx_->computeCapability() < 90)
    GTEST_SKIP() << "clusters need sm_90; this GPU is sm_" << ctx_->computeCapability();
  std::mt19937 rng(8);
  for (auto [elem, bytes] :
       {std::pair<const char *, size_t>{"i8", 1}, {"f16", 2}, {"f32", 4}, {"i64", 8}}) {
    SCOPED_TRACE(elem);
    auto m = ir::parseModule(crossCtaConvertKernel(elem), "xcta.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    LowerOptions o;
    o.target = PtxTarget{90, 80};
    auto k = lowerKernel(*m, o);
    ASSERT_TRUE(k.ok()) << k.message();
    ASSERT_EQ(k->conversions.at(0).path, "distributed_shared_memory");
    std::vector<std::vector<uint8_t>> buffers(2, std::vector<uint8_t>(64 * 64 * bytes, 0));
    for (uint8_t &x : buffers[0])
      x = uint8_t(rng() % 251 + 1); // no f16 or f32 NaN pattern matters: bytes are compared
    Status s = runOnGpu(k->kernel, buffers, {ir::ArgValue::pointer(0), ir::ArgValue::pointer(1)},
                        {1, 1, 1});
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(buffers[1], buffers[0]);
  }
}

// lower::occupancy (CTAs per SM from threads, the JIT's registers and shared memory) agrees with
// the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor for every example after the passes
// (the matmuls also pipelined with 3 stages, rings included), on this GPU, for each target's PTX.
TEST(LowerGpu, OccupancyMatchesTheDriver) {
  REQUIRE_GPU();
  int checked = 0;
  const PtxTarget device{ctx_->computeCapability(), 80};
  for (const PtxTarget &target : targets_)
    for (const std::string &file : ir::testing::exampleFiles())
      for (int stages : {1, 3}) {
        SCOPED_TRACE(file + " for " + target.name() + ", " + std::to_string(stages) + " stages");
        ir::Module m = ir::testing::loadExample(file);
        ir::PipelineOptions po;
        po.numStages = stages;
        ASSERT_TRUE(ir::runPipeline(m, po).ok());
        LowerOptions o;
        o.target = target;
        auto k = lowerKernel(m, o);
        ASSERT_TRUE(k.ok()) << k.message();
        const KernelPtx &kp = k->kernel;
        auto mod = rt::Module::loadPtx(kp.ptx);
        ASSERT_TRUE(mod.ok()) << mod.message();
        auto fn = mod->function(kp.name);
        ASSERT_TRUE(fn.ok()) << fn.message();
        if (kp.sharedBytes > 48 * 1024) {
          ASSERT_TRUE(fn->setMaxDynamicSharedBytes(int(kp.sharedBytes)).ok());
        }
        auto attrs = fn->attributes();
        ASSERT_TRUE(attrs.ok()) << attrs.message();
        ASSERT_EQ(attrs->staticSharedBytes, 0);
        auto driver = fn->maxActiveBlocksPerSm(kp.threadsPerBlock, kp.sharedBytes);
        ASSERT_TRUE(driver.ok()) << driver.message();
        Occupancy ours =
            occupancy(device, kp.threadsPerBlock, attrs->numRegisters, int64_t(kp.sharedBytes));
        EXPECT_EQ(ours.ctasPerSm, *driver)
            << kp.threadsPerBlock << " threads, " << attrs->numRegisters << " registers, "
            << kp.sharedBytes << " bytes of shared memory (ours: limited by " << ours.limitedBy
            << ")";
        ++checked;
      }
  EXPECT_EQ(checked, 2 * int(targets_.size() * ir::testing::exampleFiles().size()));
}

// Every path a conversion can take computes the same: the examples whose conversions stay
// inside warps (warp_convert.tir as written; transpose_copy.tir, whose conversion crosses warps,
// only on shared memory), lowered with each path forced (LowerOptions::conversionPath).
TEST(LowerGpu, ForcedConversionPathsComputeTheReference) {
  REQUIRE_GPU();
  struct Case {
    const char *file;
    bool passes;
    std::vector<ConversionPath> paths;
  };
  const Case cases[] = {
      {"warp_convert.tir", false, {ConversionPath::WarpShuffle, ConversionPath::SharedMemory}},
      {"transpose_copy.tir", true, {ConversionPath::SharedMemory}}};
  const std::vector<ir::testing::ExampleRun> runs = ir::testing::exampleRuns();
  int ran = 0;
  for (const PtxTarget &target : targets_)
    for (const Case &c : cases)
      for (ConversionPath path : c.paths) {
        SCOPED_TRACE(std::string(c.file) + " on " + std::string(conversionPathName(path)) + ", " +
                     target.name());
        ir::Module m = ir::testing::loadExample(c.file);
        if (c.passes) {
          ASSERT_TRUE(ir::runPipeline(m).ok());
        }
        LowerOptions o;
        o.target = target;
        o.conversionPath = path;
        auto k = lowerKernel(m, o);
        ASSERT_TRUE(k.ok()) << k.message();
        ASSERT_FALSE(k->conversions.empty());
        auto run = std::find_if(runs.begin(), runs.end(),
                                [&](const ir::testing::ExampleRun &r) { return r.file == c.file; });
        ASSERT_NE(run, runs.end());
        expectRunsOnGpu(k->kernel, *run);
        ++ran;
      }
  EXPECT_EQ(ran, 3 * int(targets_.size()));
}

namespace {

// Runs `plan` on the GPU over a random tile; an empty string when every element arrives.
std::string runPlan(const PtxTarget &target, const linlayout::testing::SameOutputsPair &pair,
                    const ConversionPlan &plan, int bits) {
  auto k = conversionKernel(target, plan, bits);
  if (!k.ok())
    return k.message();
  size_t elems = size_t(1) << pair.a.totalOutBits();
  size_t bytes = elems * size_t(bits / 8);
  std::vector<std::vector<uint8_t>> bufs = {std::vector<uint8_t>(bytes),
                                            std::vector<uint8_t>(bytes, 0xa5)};
  std::mt19937_64 rng(elems * 31 + size_t(bits));
  for (auto &x : bufs[0])
    x = uint8_t(rng());
  Status s = runOnGpu(*k, bufs, {ir::ArgValue::pointer(0), ir::ArgValue::pointer(1)}, {1, 1, 1});
  if (!s.ok())
    return s.message();
  if (bufs[0] != bufs[1])
    return "wrong elements after path " + std::string(conversionPathName(plan.path)) + ", " +
           std::to_string(bits) + "-bit\nsrc: " + pair.a.toString() + "\ndst: " + pair.b.toString();
  return "";
}

// Random distributed layouts of one CTA with as many warps on both sides (register, lane, warp).
linlayout::testing::SameOutputsPair sameWarpsPair() {
  auto pair = *linlayout::testing::distributedPair(oneCtaBounds(12));
  RC_PRE(pair.a.inDimSize(DimName::warp()) == pair.b.inDimSize(DimName::warp()));
  return pair;
}

// The property of the random conversion tests, 300 cases: a pair from `draw`, 8- to 64-bit
// elements, planned by `plan` (which may discard the case with RC_PRE), emitted, compiled and
// run, puts every element where the destination layout says.
template <typename Draw, typename Plan>
void expectPlansMoveEveryElement(const PtxTarget &target, Draw draw, Plan plan) {
  checkProperty(
      [&](void) {
        linlayout::testing::SameOutputsPair pair = draw();
        int bits = *rc::gen::element(8, 16, 32, 64);
        std::string problem = runPlan(target, pair, plan(pair, bits), bits);
        if (!problem.empty())
          RC_FAIL(problem);
      },
      300);
}

} // namespace

// The reference pairs (128x128 tiles of 16- and 32-bit elements): the planner's plan moves every
// element.
TEST(LowerGpu, ReferenceConversionsMoveEveryElement) {
  REQUIRE_GPU();
  int checked = 0;
  for (const PtxTarget &target : targets_)
    for (const Pair &p : referencePairs())
      for (int bits : {16, 32}) {
        SCOPED_TRACE(std::string(p.name) + " " + std::to_string(bits) + "-bit " + target.name());
        int64_t shape[] = {128, 128};
        auto src = toLinearLayout(p.src, shape);
        auto dst = toLinearLayout(p.dst, shape);
        ASSERT_TRUE(src.ok() && dst.ok());
        auto plan = planLayoutConversion(*src, *dst, bits, target);
        ASSERT_TRUE(plan.ok()) << plan.message();
        EXPECT_EQ(runPlan(target, {*src, *dst}, *plan, bits), "");
        ++checked;
      }
  EXPECT_EQ(checked, 12 * int(targets_.size()));
}

// Random distributed layouts: the planner's plan moves every element.
TEST(LowerGpu, RandomConversionsMoveEveryElement) {
  REQUIRE_GPU();
  const PtxTarget target = targets_.back();
  expectPlansMoveEveryElement(target, sameWarpsPair, [&](const auto &pair, int bits) {
    auto plan = planLayoutConversion(pair.a, pair.b, bits, target);
    if (!plan.ok())
      RC_FAIL("planner: " + plan.message());
    return *plan;
  });
}

// Random conversions through shared memory with padding forced (ScratchPadding::Always):
// where the plan takes a padded scratch, its padded addresses, emitted and run, still put every
// element where the destination layout says.
TEST(LowerGpu, PaddedScratchConversionsMoveEveryElement) {
  REQUIRE_GPU();
  const PtxTarget target = targets_.back();
  expectPlansMoveEveryElement(target, sameWarpsPair, [&](const auto &pair, int bits) {
    auto plan = planLayoutConversion(pair.a, pair.b, bits, target, ConversionPath::SharedMemory,
                                     false, ScratchPadding::Always);
    RC_PRE(plan.ok());
    RC_TAG(plan->shared.padding.empty() ? "swizzled" : "padded");
    return *plan;
  });
}

// Conversions inside warps, forced onto warp shuffles (whatever the cost model prefers): every
// element arrives, whichever rounds and word selects the shuffle search found.
TEST(LowerGpu, RandomWarpShufflesMoveEveryElement) {
  REQUIRE_GPU();
  const PtxTarget target = targets_.back();
  auto draw = [] { return *linlayout::testing::warpPair(oneCtaBounds(12)); };
  expectPlansMoveEveryElement(target, draw, [&](const auto &pair, int bits) {
    PlanOptions opt;
    opt.target = target.sm >= 90 ? GpuTarget::Sm90 : GpuTarget::Sm80;
    opt.forcePath = ConversionPath::WarpShuffle;
    auto plan = planConversion(pair.a, pair.b, bits, opt);
    RC_PRE(plan.ok()); // a register permutation, or data a round cannot deliver (broadcast)
    return *plan;
  });
}

// Random mma.sync dots (RandomDot.h: f16, bf16, tf32 and i8, kWidths of 1, 2 and 4 words; 1-8
// warps; operands from registers or from shared tiles in random swizzles, the latter loaded in K
// slices) compute on the GPU exactly what the interpreter computes, for sm_80 and (on Hopper)
// sm_90.
TEST(LowerGpu, RandomSlicedDotsMatchTheInterpreter) {
  REQUIRE_GPU();
  checkProperty(
      [&] {
        RandomDot d = randomDot();
        auto m = ir::parseModule(d.text(), "dot.tir");
        RC_ASSERT(m.ok());
        ir::Memory start;
        start.buffers = {d.encode(smallIntegers(size_t(d.m) * size_t(d.k))),
                         d.encode(smallIntegers(size_t(d.k) * size_t(d.n))),
                         std::vector<uint8_t>(size_t(d.m) * size_t(d.n) * 4, 0xff)};
        std::vector<ir::ArgValue> args = {ir::ArgValue::pointer(0), ir::ArgValue::pointer(1),
                                          ir::ArgValue::pointer(2)};
        ir::Memory want = start;
        Status s = ir::interpret(*m, "dotk", args, want);
        if (!s.ok())
          RC_FAIL(d.describe() + ": interpreter: " + s.message());
        for (const PtxTarget &target : targets_) {
          LowerOptions o;
          o.target = target;
          auto k = lowerKernel(*m, o);
          if (!k.ok())
            RC_FAIL(d.describe() + " " + target.name() + ": " + k.message());
          ir::Memory got = start;
          Status run = runOnGpu(k->kernel, got.buffers, args, {1, 1, 1});
          if (!run.ok())
            RC_FAIL(d.describe() + " " + target.name() + ": " + run.message());
          if (got.buffers[2] != want.buffers[2])
            RC_FAIL(d.describe() + " " + target.name() + ": C differs from the interpreter's");
        }
      },
      200);
}

// The unsigned integer ops, uitofp and fptoui on the GPU give exactly what the interpreter
// gives, on random operands (shift amounts past the width and float-to-unsigned out of range
// included: PTX clamps and saturates as the interpreter does).
TEST(LowerGpu, UnsignedOpsAndCastsMatchTheInterpreter) {
  const std::string t = "tensor<128xi32, #b>", p = "tensor<128x!tt.ptr<i32>, #b>";
  std::string text =
      "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
      "order = [0]}>\nmodule attributes {\"ttg.num-warps\" = 4 : i32} {\n"
      "  tt.func public @uops(%a: !tt.ptr<i32>, %b: !tt.ptr<i32>, %f: !tt.ptr<f32>, "
      "%out: !tt.ptr<i32>, %fout: !tt.ptr<f32>) {\n"
      "    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : " +
      t +
      "\n"
      "    %av = tt.splat %a : !tt.ptr<i32> -> " +
      p +
      "\n"
      "    %ap = tt.addptr %av, %r : " +
      p + ", " + t +
      "\n"
      "    %x = tt.load %ap : " +
      p +
      "\n"
      "    %bv = tt.splat %b : !tt.ptr<i32> -> " +
      p +
      "\n"
      "    %bp = tt.addptr %bv, %r : " +
      p + ", " + t +
      "\n"
      "    %y = tt.load %bp : " +
      p +
      "\n"
      "    %fv = tt.splat %f : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>\n"
      "    %fp = tt.addptr %fv, %r : tensor<128x!tt.ptr<f32>, #b>, " +
      t +
      "\n"
      "    %z = tt.load %fp : tensor<128x!tt.ptr<f32>, #b>\n"
      "    %o5 = arith.fptoui %z : tensor<128xf32, #b> to " +
      t +
      "\n"
      "    %g = arith.uitofp %x : " +
      t +
      " to tensor<128xf32, #b>\n"
      "    %gv = tt.splat %fout : !tt.ptr<f32> -> tensor<128x!tt.ptr<f32>, #b>\n"
      "    %gp = tt.addptr %gv, %r : tensor<128x!tt.ptr<f32>, #b>, " +
      t +
      "\n"
      "    tt.store %gp, %g : tensor<128x!tt.ptr<f32>, #b>\n"
      "    %ov = tt.splat %out : !tt.ptr<i32> -> " +
      p + "\n";
  const char *ops[] = {"divui", "remui", "shrui", "minui", "maxui"};
  for (int k = 0; k <= 5; ++k) {
    std::string i = std::to_string(k);
    if (k < 5)
      text += "    %o" + i + " = arith." + ops[k] + " %x, %y : " + t + "\n";
    text += "    %k" + i + " = arith.constant dense<" + std::to_string(128 * k) + "> : " + t +
            "\n    %q" + i + " = arith.addi %r, %k" + i + " : " + t + "\n    %op" + i +
            " = tt.addptr %ov, %q" + i + " : " + p + ", " + t + "\n    tt.store %op" + i + ", %o" +
            i + " : " + p + "\n";
  }
  text += "    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "uops.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(ir::verify(*m).ok()) << ir::verify(*m).message();
  std::mt19937_64 rng(17);
  std::vector<uint32_t> a(128), b(128);
  std::vector<float> f(128);
  for (size_t i = 0; i < 128; ++i) {
    a[i] = uint32_t(rng());
    b[i] = i % 2 ? uint32_t(rng()) | 1 : uint32_t(1 + rng() % 40); // shifts past 31 too
    f[i] = i % 4 == 0 ? -float(i) : i % 4 == 1 ? 1e10f : float(rng() % 100000) / 7;
  }
  ir::Memory want;
  want.buffers = {ir::testing::bytesOf(a), ir::testing::bytesOf(b), ir::testing::bytesOf(f),
                  std::vector<uint8_t>(6 * 128 * 4), std::vector<uint8_t>(128 * 4)};
  std::vector<ir::ArgValue> args;
  for (uint32_t k = 0; k < 5; ++k)
    args.push_back(ir::ArgValue::pointer(k));
  ir::Memory start = want;
  ASSERT_TRUE(ir::interpret(*m, "uops", args, want).ok());
  REQUIRE_GPU();
  expectGpuMatchesInterpreter(*m, targets_, args, start, want);
}

// f32's arith.divf is Triton's `/`, div.full.f32 on the GPU: within 2 ulp of the interpreter's
// correctly rounded quotient over the whole range (denominators past 2^126, where div.approx gives
// 0, subnormal quotients, zeros, infinities; a NaN where the interpreter has one).
TEST(LowerGpu, DivFOnF32IsWithinTwoUlpOfTheInterpreter) {
  const std::string t = "tensor<128xf32, #b>", p = "tensor<128x!tt.ptr<f32>, #b>";
  auto pointers = [&](const std::string &name, const std::string &arg) {
    return "    %" + name + "s = tt.splat %" + arg + " : !tt.ptr<f32> -> " + p + "\n    %" + name +
           " = tt.addptr %" + name + "s, %r : " + p + ", tensor<128xi32, #b>\n";
  };
  std::string text = "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
                     "warpsPerCTA = [4], order = [0]}>\n"
                     "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
                     "  tt.func public @div(%x: !tt.ptr<f32>, %y: !tt.ptr<f32>, "
                     "%q: !tt.ptr<f32>) {\n"
                     "    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : "
                     "tensor<128xi32, #b>\n" +
                     pointers("xp", "x") + pointers("yp", "y") + pointers("qp", "q") +
                     "    %a = tt.load %xp : " + p + "\n    %d = tt.load %yp : " + p +
                     "\n    %z = arith.divf %a, %d : " + t + "\n    tt.store %qp, %z : " + p +
                     "\n    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "div.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(ir::verify(*m).ok()) << ir::verify(*m).message();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<std::pair<float, float>> edges = {
      {1.f, 3e38f},   {-7.f, 2e38f},   {3e38f, 2.9e38f}, {1e-30f, 1e20f}, {1e-38f, 3.f},
      {1.f, 0.f},     {-1.f, 0.f},     {0.f, 0.f},       {0.f, 5.f},      {inf, 2.f},
      {2.f, inf},     {inf, inf},      {1e38f, 1e-10f},  {-0.f, 3.f},     {1.f, 1e-40f},
      {5e-45f, 0.5f}, {3.4e38f, 0.25f}};
  std::mt19937 rng(42);
  std::vector<float> x(128), y(128);
  for (size_t i = 0; i < 128; ++i) {
    if (i < edges.size()) {
      std::tie(x[i], y[i]) = edges[i];
      continue;
    }
    // Random magnitudes over the whole exponent range, either sign.
    auto draw = [&] {
      float v =
          std::ldexp(1.f + float(rng() % (1u << 23)) / float(1u << 23), int(rng() % 250) - 125);
      return rng() % 2 ? -v : v;
    };
    x[i] = draw();
    y[i] = draw();
  }
  ir::Memory start;
  start.buffers = {ir::testing::bytesOf(x), ir::testing::bytesOf(y), std::vector<uint8_t>(128 * 4)};
  std::vector<ir::ArgValue> args = {ir::ArgValue::pointer(0), ir::ArgValue::pointer(1),
                                    ir::ArgValue::pointer(2)};
  ir::Memory want = start;
  ASSERT_TRUE(ir::interpret(*m, "div", args, want).ok());
  REQUIRE_GPU();
  // Floats as integers ordered as the floats are, so that a difference counts ulps.
  auto ordered = [](float f) {
    int64_t b = std::bit_cast<int32_t>(f);
    return b < 0 ? int64_t(INT32_MIN) - b : b;
  };
  for (const PtxTarget &target : targets_) {
    SCOPED_TRACE(target.name());
    LowerOptions o;
    o.target = target;
    auto k = lowerKernel(*m, o);
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_NE(k->kernel.ptx.find("div.full.f32"), std::string::npos);
    ir::Memory got = start;
    ASSERT_TRUE(runOnGpu(k->kernel, got.buffers, args, {1, 1, 1}).ok());
    std::vector<float> g = ir::testing::valuesOf<float>(got.buffers[2]),
                       w = ir::testing::valuesOf<float>(want.buffers[2]);
    for (size_t i = 0; i < 128; ++i) {
      if (std::isnan(w[i])) {
        EXPECT_TRUE(std::isnan(g[i])) << x[i] << " / " << y[i] << ": " << g[i];
        continue;
      }
      EXPECT_LE(std::abs(ordered(g[i]) - ordered(w[i])), 2)
          << x[i] << " / " << y[i] << ": " << g[i] << ", want " << w[i];
    }
  }
}

// A masked load without `other` gives 0 where masked off (docs/ir.md), element by element and in
// vectors of 4 (whose mask is constant over them), for f16, f32 and i64: the kernel stores every
// element it loaded, masked off or not, over memory that holds neither value. (The lowering once
// left masked-off registers undefined.)
TEST(LowerGpu, MaskedLoadsWithoutOtherGiveZero) {
  REQUIRE_GPU();
  for (const char *elem : {"f16", "f32", "i64"})
    for (int vec : {1, 4}) {
      SCOPED_TRACE(std::string(elem) + ", vectors of " + std::to_string(vec));
      const std::string e = elem, t = "tensor<128x" + e + ", #b>",
                        p = "tensor<128x!tt.ptr<" + e + ">, #b>", i = "tensor<128xi32, #b>";
      std::string text = "#b = #ttg.blocked<{sizePerThread = [" + std::to_string(vec) +
                         "], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>\n"
                         "module attributes {\"ttg.num-warps\" = 1 : i32} {\n"
                         "  tt.func public @masked(%x: !tt.ptr<" +
                         e +
                         "> {tt.divisibility = 16 : i32}, %y: "
                         "!tt.ptr<" +
                         e + "> {tt.divisibility = 16 : i32}, %n: i32" +
                         (vec > 1 ? " {tt.divisibility = 16 : i32}" : "") +
                         ") {\n"
                         "    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : " +
                         i +
                         "\n"
                         "    %nv = tt.splat %n : i32 -> " +
                         i +
                         "\n"
                         "    %m = arith.cmpi slt, %r, %nv : " +
                         i +
                         "\n"
                         "    %xs = tt.splat %x : !tt.ptr<" +
                         e + "> -> " + p +
                         "\n"
                         "    %xp = tt.addptr %xs, %r : " +
                         p + ", " + i +
                         "\n"
                         "    %v = tt.load %xp, %m : " +
                         p +
                         "\n"
                         "    %ys = tt.splat %y : !tt.ptr<" +
                         e + "> -> " + p +
                         "\n"
                         "    %yp = tt.addptr %ys, %r : " +
                         p + ", " + i +
                         "\n"
                         "    tt.store %yp, %v : " +
                         p +
                         "\n"
                         "    tt.return\n  }\n}\n";
      auto m = ir::parseModule(text, "masked.tir");
      ASSERT_TRUE(m.ok()) << m.message();
      const size_t bytes = size_t(ir::byteWidth(*ir::scalarKindFromName(e)));
      ir::Memory start;
      start.buffers = {std::vector<uint8_t>(128 * bytes, 0x3c),
                       std::vector<uint8_t>(128 * bytes, 0x5a)};
      std::vector<ir::ArgValue> args = {ir::ArgValue::pointer(0), ir::ArgValue::pointer(1),
                                        ir::ArgValue::integer(48)};
      ir::Memory want = start;
      ASSERT_TRUE(ir::interpret(*m, "masked", args, want).ok());
      ASSERT_EQ(want.buffers[1][47 * bytes], 0x3c);
      ASSERT_EQ(want.buffers[1][48 * bytes], 0);
      expectGpuMatchesInterpreter(*m, targets_, args, start, want);
    }
}

// What LLVM leaves poison or undefined and the IR defines (docs/ir.md), on run-time values:
// float-to-integer conversions of NaN, infinities and out-of-range values to every width (also
// from f16 and bf16), shifts by negative amounts and by the width or more, the minimum divided
// by -1, and f32 minimum / maximum of zeros of both signs and of NaN. The GPU's results are the
// interpreter's, bit for bit.
TEST(LowerGpu, OpsLlvmLeavesUndefinedMatchTheInterpreter) {
  auto t = [](const std::string &e) { return "tensor<128x" + e + ", #b>"; };
  auto pt = [](const std::string &e) { return "tensor<128x!tt.ptr<" + e + ">, #b>"; };
  struct Result {
    std::string type, expr; // result element type; the op computing it (without the type)
  };
  const std::vector<Result> results = {
      {"i8", "arith.fptosi %x : " + t("f32") + " to "},
      {"i16", "arith.fptosi %x : " + t("f32") + " to "},
      {"i32", "arith.fptosi %x : " + t("f32") + " to "},
      {"i64", "arith.fptosi %x : " + t("f32") + " to "},
      {"i8", "arith.fptoui %x : " + t("f32") + " to "},
      {"i16", "arith.fptoui %x : " + t("f32") + " to "},
      {"i64", "arith.fptoui %x : " + t("f32") + " to "},
      {"i8", "arith.fptosi %h : " + t("f16") + " to "},
      {"i16", "arith.fptoui %bh : " + t("bf16") + " to "},
      {"i64", "arith.fptosi %h : " + t("f16") + " to "},
      {"i32", "arith.fptosi %xd : " + t("f64") + " to "},
      {"i32", "arith.fptoui %xd : " + t("f64") + " to "},
      {"i64", "arith.fptosi %xd : " + t("f64") + " to "},
      {"i64", "arith.fptoui %xd : " + t("f64") + " to "},
      {"i32", "arith.shli %a, %sh : "},
      {"i32", "arith.shrsi %a, %sh : "},
      {"i32", "arith.shrui %a, %sh : "},
      {"i32", "arith.divsi %a, %d : "},
      {"i32", "arith.remsi %a, %d : "},
      // y holds no NaN (a NaN result's bits are the GPU's canonical NaN, not the interpreter's).
      {"f32", "arith.minimumf %y, %ny : "},
      {"f32", "arith.maximumf %y, %ny : "},
      {"f32", "arith.minnumf %x, %y : "},
      {"f32", "arith.maxnumf %x, %y : "},
  };
  std::string text =
      "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
      "order = [0]}>\nmodule attributes {\"ttg.num-warps\" = 4 : i32} {\n"
      "  tt.func public @undefined(%xin: !tt.ptr<f32>, %yin: !tt.ptr<f32>, %ain: !tt.ptr<i32>, "
      "%shin: !tt.ptr<i32>, %din: !tt.ptr<i32>";
  for (size_t k = 0; k < results.size(); ++k)
    text += ", %o" + std::to_string(k) + ": !tt.ptr<" + results[k].type + ">";
  text += ") {\n    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : " + t("i32") + "\n";
  auto pointers = [&](const std::string &name, const std::string &param, const std::string &e) {
    text += "    %" + name + "s = tt.splat %" + param + " : !tt.ptr<" + e + "> -> " + pt(e) +
            "\n    %" + name + "p = tt.addptr %" + name + "s, %r : " + pt(e) + ", " + t("i32") +
            "\n";
  };
  for (auto [name, param, e] : {std::array<std::string, 3>{"x", "xin", "f32"},
                                {"y", "yin", "f32"},
                                {"a", "ain", "i32"},
                                {"sh", "shin", "i32"},
                                {"d", "din", "i32"}}) {
    pointers(name, param, e);
    text += "    %" + name + " = tt.load %" + name + "p : " + pt(e) + "\n";
  }
  text += "    %h = arith.truncf %x : " + t("f32") + " to " + t("f16") + "\n" +
          "    %bh = arith.truncf %x : " + t("f32") + " to " + t("bf16") + "\n" +
          "    %xd = arith.extf %x : " + t("f32") + " to " + t("f64") + "\n" +
          "    %ny = arith.negf %y : " + t("f32") + "\n";
  for (size_t k = 0; k < results.size(); ++k) {
    std::string i = std::to_string(k), e = results[k].type;
    text += "    %c" + i + " = " + results[k].expr + t(e) + "\n";
    pointers("out" + i, "o" + i, e);
    text += "    tt.store %out" + i + "p, %c" + i + " : " + pt(e) + "\n";
  }
  text += "    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "undefined.tir");
  ASSERT_TRUE(m.ok()) << m.message() << "\n" << text;
  ASSERT_TRUE(ir::verify(*m).ok()) << ir::verify(*m).message();

  const float inf = std::numeric_limits<float>::infinity();
  const float special[] = {std::nanf(""), inf,       -inf,   1e10f,   -1e10f,   3e9f,     -3e9f,
                           70000.5f,      -70000.5f, 300.5f, -300.5f, 255.9f,   256.f,    -128.9f,
                           -129.f,        127.9f,    -0.9f,  0.9f,    65535.9f, 32767.5f, -32768.9f,
                           9.3e18f,       -9.3e18f,  2e19f,  0.f,     -0.f,     0.f,      -0.f};
  std::mt19937_64 rng(29);
  std::vector<float> x(128), y(128);
  std::vector<int32_t> a(128), sh(128), d(128);
  for (size_t i = 0; i < 128; ++i) {
    x[i] = i < std::size(special) ? special[i] : float(int64_t(rng() % 2000001) - 1000000) / 7;
    // Zeros of both signs against each other (x[24..27] are +0, -0, +0, -0), NaN against numbers
    // (only x[0] is NaN, and y[0] is not).
    y[i] = i >= 24 && i < 28 ? (i % 2 ? 0.f : -0.f)
           : i % 3           ? x[i]
                             : float(int(rng() % 2001) - 1000);
    a[i] = i % 8 == 0 ? std::numeric_limits<int32_t>::min() : int32_t(rng());
    sh[i] = int32_t(rng() % 45) - 3; // -3 .. 41
    d[i] = i % 8 == 0 ? -1 : int32_t(rng() % 2 ? rng() % 1000 + 1 : -int64_t(rng() % 1000) - 1);
  }
  ir::Memory start;
  start.buffers = {ir::testing::bytesOf(x), ir::testing::bytesOf(y), ir::testing::bytesOf(a),
                   ir::testing::bytesOf(sh), ir::testing::bytesOf(d)};
  for (const Result &r : results)
    start.buffers.push_back(
        std::vector<uint8_t>(128 * size_t(ir::byteWidth(*ir::scalarKindFromName(r.type))), 0x5a));
  std::vector<ir::ArgValue> args;
  for (uint32_t k = 0; k < start.buffers.size(); ++k)
    args.push_back(ir::ArgValue::pointer(k));
  ir::Memory want = start;
  Status s = ir::interpret(*m, "undefined", args, want);
  ASSERT_TRUE(s.ok()) << s.message();
  for (int sm : {80, 90}) { // without a GPU too
    LowerOptions o;
    o.target = PtxTarget{sm, 80};
    auto k = lowerKernel(*m, o);
    ASSERT_TRUE(k.ok()) << k.message();
  }
  REQUIRE_GPU();
  expectGpuMatchesInterpreter(*m, targets_, args, start, want);
}

namespace {

// Runs the random kernel in the interpreter and, as written and after the pass pipeline, lowered
// for each target, on the GPU: "" when every value the GPU stores is the interpreter's (NaN: any
// NaN), else the first difference.
std::string matchesTheInterpreter(const RandomKernel &p, const std::vector<PtxTarget> &targets) {
  auto k = prepare(p);
  if (!k.ok())
    return k.message();
  for (size_t m = 0; m < k->modules.size(); ++m) {
    for (const PtxTarget &target : targets) {
      std::string where = target.name() + ", " + PreparedKernel::which(m);
      auto lowered = k->lower(m, target);
      if (!lowered.ok())
        return where + ": " + lowered.message() + "\n" + p.text;
      ir::Memory got = k->start;
      if (Status run = runOnGpu(lowered->kernel, got.buffers, p.args(), {1, 1, 1}); !run.ok())
        return where + ": " + run.message() + "\n" + p.text;
      if (std::string diff = p.firstDifference(got, k->want); !diff.empty())
        return where + ": " + diff + "\n" + p.text;
    }
  }
  return "";
}

} // namespace

// Random elementwise programs over run-time values (RandomKernel.h: every integer and float
// type, every integer and float binary op, the exact unary float ops, compares and selects, casts
// between every pair of types; edge-value inputs) compute on the GPU what the interpreter
// computes, every value of every step bit for bit, for sm_80 and sm_90.
TEST(LowerGpu, RandomElementwiseProgramsMatchTheInterpreter) {
  REQUIRE_GPU();
  checkProperty(
      [&] {
        std::string problem = matchesTheInterpreter(randomElementwise(), targets_);
        if (!problem.empty())
          RC_FAIL(problem);
      },
      300);
}

// Random 2-D tile programs (RandomKernel.h: random blocked and mma layouts, elementwise ops,
// conversions between the layouts, reductions broadcast back, casts) compute on the GPU what the
// interpreter computes, bit for bit.
TEST(LowerGpu, RandomTileProgramsMatchTheInterpreter) {
  REQUIRE_GPU();
  checkProperty(
      [&] {
        std::string problem = matchesTheInterpreter(randomTileProgram(), targets_);
        if (!problem.empty())
          RC_FAIL(problem);
      },
      300);
}

// Random tiled matmuls (RandomMatmul.h: mma.sync on 1-8 warps or wgmma on one or two warp
// groups; random tiles, load layouts, operand paths and shared layouts; masked sizes over 1-2
// programs along M and N; carried or recomputed pointers; C += A B or C = A B; epilogues with a
// bias, an f16 / bf16 copy of C and row sums), as written and through the pass pipeline with 1-4
// stages and prefetch slices of 0, 16 or 32: everything stored on the GPU is the interpreter's,
// bit for bit (small integer inputs: every sum is exact), for each target the GPU runs.
TEST(LowerGpu, RandomMatmulsMatchTheInterpreter) {
  REQUIRE_GPU();
  const bool hopper = targets_.size() > 1;
  checkProperty(
      [&] {
        RandomMatmul p = randomMatmul();
        RC_PRE(hopper || p.version == 2); // wgmma needs sm_90
        classifyWgmmaOperands(p);
        auto k = prepareMatmul(p);
        if (!k.ok())
          RC_FAIL(k.message());
        for (size_t m = 0; m < k->modules.size(); ++m)
          for (const PtxTarget &target : p.targets()) {
            if (target.sm > targets_.back().sm)
              continue;
            std::string where =
                k->describe() + ", " + target.name() + ", " + PreparedMatmul::which(m);
            auto lowered = k->lower(m, target);
            if (!lowered.ok())
              RC_FAIL(where + ": " + lowered.message() + "\n" + p.text());
            ir::Memory got = k->start;
            rt::Dim3 grid{unsigned(p.gridM()), unsigned(p.gridN()), 1};
            if (Status run = runOnGpu(lowered->kernel, got.buffers, p.args(), grid); !run.ok())
              RC_FAIL(where + ": " + run.message() + "\n" + p.text());
            if (std::string diff = k->firstDifference(got); !diff.empty())
              RC_FAIL(where + ": " + diff + "\n" + p.text());
          }
      },
      200);
}

namespace {

struct AtomicSpec {
  const char *op, *elem; // tt.atomic_rmw's operation or "cas"; the element type
};

// The f16 bits of `f`, a float that f16 holds exactly (zero or normal).
uint16_t exactHalfBits(float f) {
  uint32_t b = std::bit_cast<uint32_t>(f);
  if ((b & 0x7fffffffu) == 0)
    return uint16_t(b >> 16);
  uint32_t exponent = ((b >> 23) & 0xff) - 127 + 15;
  return uint16_t(((b >> 16) & 0x8000u) | (exponent << 10) | ((b >> 13) & 0x3ffu));
}

// A kernel that applies each of `kinds` to its own three buffers (memory, values, results) of 128
// elements on distinct addresses, every other element masked off; "cas" compares with what
// memory holds at every fourth element (it swaps there) and with the random value elsewhere (it
// does not). Its arguments, random starting memory (float values that add exactly) and what the
// interpreter leaves.
struct AtomicsCase {
  ir::Module module;
  std::vector<ir::ArgValue> args;
  ir::Memory start, want;
};

AtomicsCase atomicsCase(const std::vector<AtomicSpec> &kinds, uint64_t seed) {
  const std::string rt = "tensor<128xi32, #b>";
  std::string text =
      "#b = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [2], "
      "order = [0]}>\nmodule attributes {\"ttg.num-warps\" = 2 : i32} {\n  tt.func public "
      "@atomics(";
  for (size_t k = 0; k < kinds.size(); ++k) {
    std::string e = kinds[k].elem, i = std::to_string(k);
    text += std::string(k ? ", " : "") + "%m" + i + ": !tt.ptr<" + e + ">, %v" + i + ": !tt.ptr<" +
            e + ">, %o" + i + ": !tt.ptr<" + e + ">";
  }
  text += ") {\n    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : " + rt + "\n" +
          "    %c2 = arith.constant dense<2> : " + rt +
          "\n    %c0 = arith.constant dense<0> : " + rt +
          "\n    %odd = arith.remsi %r, %c2 : " + rt +
          "\n    %mask = arith.cmpi eq, %odd, %c0 : " + rt +
          "\n    %c4 = arith.constant dense<4> : " + rt + "\n    %q = arith.remsi %r, %c4 : " + rt +
          "\n    %fourth = arith.cmpi eq, %q, %c0 : " + rt + "\n";
  for (size_t k = 0; k < kinds.size(); ++k) {
    std::string e = kinds[k].elem, i = std::to_string(k);
    std::string pt = "tensor<128x!tt.ptr<" + e + ">, #b>", vt = "tensor<128x" + e + ", #b>";
    auto ptrs = [&](const std::string &name) {
      return "    %" + name + "s" + i + " = tt.splat %" + name + i + " : !tt.ptr<" + e + "> -> " +
             pt + "\n    %" + name + "p" + i + " = tt.addptr %" + name + "s" + i + ", %r : " + pt +
             ", " + rt + "\n";
    };
    text +=
        ptrs("m") + ptrs("v") + ptrs("o") + "    %x" + i + " = tt.load %vp" + i + " : " + pt + "\n";
    if (std::string(kinds[k].op) == "cas")
      text += "    %cur" + i + " = tt.load %mp" + i + " : " + pt + "\n    %cmp" + i +
              " = arith.select %fourth, %cur" + i + ", %x" + i + " : tensor<128xi1, #b>, " + vt +
              "\n    %old" + i + " = tt.atomic_cas acq_rel, gpu, %mp" + i + ", %cmp" + i + ", %x" +
              i + ", %mask : (" + pt + ", " + vt + ", " + vt + ", tensor<128xi1, #b>) -> " + vt +
              "\n";
    else
      text += "    %old" + i + " = tt.atomic_rmw " + kinds[k].op + ", acq_rel, gpu, %mp" + i +
              ", %x" + i + ", %mask : (" + pt + ", " + vt + ", tensor<128xi1, #b>) -> " + vt + "\n";
    text += "    tt.store %op" + i + ", %old" + i + " : " + pt + "\n";
  }
  text += "    tt.return\n  }\n}\n";
  AtomicsCase c;
  auto m = ir::parseModule(text, "atomics.tir");
  EXPECT_TRUE(m.ok()) << m.message();
  if (!m.ok())
    return c;
  c.module = std::move(*m);
  EXPECT_TRUE(ir::verify(c.module).ok()) << ir::verify(c.module).message();
  std::mt19937_64 rng(seed);
  for (const AtomicSpec &k : kinds) {
    std::string e = k.elem;
    size_t bytes = e == "i32" || e == "f32" ? 4 : e == "f16" || e == "bf16" || e == "i16" ? 2 : 8;
    for (int buf = 0; buf < 3; ++buf) {
      std::vector<uint8_t> b(128 * bytes);
      for (size_t j = 0; j < 128; ++j) {
        if (e == "f32") {
          float f = float(int(rng() % 2001) - 1000) / 8; // exact sums
          std::memcpy(&b[j * 4], &f, 4);
        } else if (e == "f64") {
          double d = double(int64_t(rng() % 2000001) - 1000000) / 16;
          std::memcpy(&b[j * 8], &d, 8);
        } else if (e == "f16" || e == "bf16") {
          // Multiples of 1/8 up to 125 (f16) or integers up to 100 (bf16): sums are exact.
          float f =
              e == "f16" ? float(int(rng() % 2001) - 1000) / 8 : float(int(rng() % 201) - 100);
          uint32_t bits = std::bit_cast<uint32_t>(f);
          uint16_t h = e == "bf16" ? uint16_t(bits >> 16) : exactHalfBits(f);
          std::memcpy(&b[j * 2], &h, 2);
        } else {
          uint64_t x = rng();
          std::memcpy(&b[j * bytes], &x, bytes);
        }
      }
      c.args.push_back(ir::ArgValue::pointer(uint32_t(c.start.buffers.size())));
      c.start.buffers.push_back(std::move(b));
    }
  }
  c.want = c.start;
  Status s = ir::interpret(c.module, "atomics", c.args, c.want);
  EXPECT_TRUE(s.ok()) << s.message();
  return c;
}

} // namespace

// Every atomic operation on 32- and 64-bit elements: the values memory held and what it holds
// after are the interpreter's, bit for bit (atomicsCase: distinct addresses, so the order does not
// matter; masked-off elements get 0 and leave memory alone).
TEST(LowerGpu, AtomicsMatchTheInterpreter) {
  const std::vector<AtomicSpec> kinds = {
      {"and", "i32"},  {"or", "i32"},   {"xor", "i32"},  {"add", "i32"},  {"max", "i32"},
      {"min", "i32"},  {"umax", "i32"}, {"umin", "i32"}, {"exch", "i32"}, {"add", "i64"},
      {"fadd", "f32"}, {"exch", "f32"}, {"fadd", "f64"}, {"cas", "i32"},  {"cas", "i64"},
      {"cas", "f32"},  {"cas", "f64"}};
  AtomicsCase c = atomicsCase(kinds, 23);
  ASSERT_EQ(c.start.buffers.size(), 3 * kinds.size());
  // The i32 cas (kinds[13]): element 0 swapped (memory took the value), element 2 did not, element
  // 1 was masked off.
  auto i32At = [](const std::vector<uint8_t> &b, size_t j) {
    int32_t x;
    std::memcpy(&x, &b[j * 4], 4);
    return x;
  };
  ASSERT_EQ(std::string(kinds[13].op) + kinds[13].elem, "casi32");
  EXPECT_EQ(i32At(c.want.buffers[39], 0), i32At(c.start.buffers[40], 0));
  EXPECT_EQ(i32At(c.want.buffers[41], 0), i32At(c.start.buffers[39], 0));
  EXPECT_EQ(i32At(c.want.buffers[39], 2), i32At(c.start.buffers[39], 2));
  EXPECT_EQ(i32At(c.want.buffers[39], 1), i32At(c.start.buffers[39], 1));
  EXPECT_EQ(i32At(c.want.buffers[41], 1), 0);
  REQUIRE_GPU();
  expectGpuMatchesInterpreter(c.module, targets_, c.args, c.start, c.want);
}

// The 16-bit atomics: fadd on f16 (atom.add.noftz.f16) and compare-and-swap on i16 and f16
// (atom.cas.b16) for both targets; fadd on bf16 (atom.add.noftz.bf16) for sm_90, where it exists:
// for sm_80 it is a clear error.
TEST(LowerGpu, SixteenBitAtomicsMatchTheInterpreter) {
  AtomicsCase c =
      atomicsCase({{"fadd", "f16"}, {"cas", "i16"}, {"cas", "f16"}, {"cas", "bf16"}}, 29);
  AtomicsCase bf = atomicsCase({{"fadd", "bf16"}}, 31);
  ASSERT_EQ(bf.start.buffers.size(), 3u);
  // The interpreter added: element 0 of memory is the sum of the two starting values.
  auto bf16At = [](const std::vector<uint8_t> &b, size_t j) {
    uint16_t h;
    std::memcpy(&h, &b[j * 2], 2);
    return std::bit_cast<float>(uint32_t(h) << 16);
  };
  EXPECT_EQ(bf16At(bf.want.buffers[0], 0),
            bf16At(bf.start.buffers[0], 0) + bf16At(bf.start.buffers[1], 0));
  LowerOptions o;
  o.target = PtxTarget{80, 80};
  auto sm80 = lowerKernel(bf.module, o);
  ASSERT_FALSE(sm80.ok());
  EXPECT_NE(sm80.message().find("an atomic add on bf16 needs sm_90; the target is sm_80"),
            std::string::npos)
      << sm80.message();
  REQUIRE_GPU();
  expectGpuMatchesInterpreter(c.module, targets_, c.args, c.start, c.want);
  if (targets_.back().sm >= 90)
    expectGpuMatchesInterpreter(bf.module, {targets_.back()}, bf.args, bf.start, bf.want);
}

// An atomic whose layout gives each element to 16 lanes (a slice), and a scalar atomic (made by
// thread 0): the results reach every copy. Each copy is stored by its own thread (broadcast to a
// 64 x 16 tile of which every thread holds distinct elements), so a copy that missed the
// handover would show.
TEST(LowerGpu, AtomicResultsReachEveryCopy) {
  const std::string s = "tensor<64xi32, #s>", t = "tensor<64x16xi32, #p>",
                    pt = "tensor<64x16x!tt.ptr<i32>, #p>", ps = "tensor<64x!tt.ptr<i32>, #s>";
  std::string text =
      "#p = #ttg.blocked<{sizePerThread = [8, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], "
      "order = [0, 1]}>\n#s = #ttg.slice<{dim = 1, parent = #p}>\n"
      "#c = #ttg.slice<{dim = 0, parent = #p}>\n"
      "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
      "  tt.func public @handover(%m: !tt.ptr<i32>, %x: !tt.ptr<i32>, %cnt: !tt.ptr<i32>, "
      "%out: !tt.ptr<i32>, %out2: !tt.ptr<i32>) {\n"
      "    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : " +
      s +
      "\n"
      "    %ms = tt.splat %m : !tt.ptr<i32> -> " +
      ps +
      "\n"
      "    %mp = tt.addptr %ms, %r : " +
      ps + ", " + s +
      "\n"
      "    %xs = tt.splat %x : !tt.ptr<i32> -> " +
      ps +
      "\n"
      "    %xp = tt.addptr %xs, %r : " +
      ps + ", " + s +
      "\n"
      "    %xv = tt.load %xp : " +
      ps +
      "\n"
      "    %old = tt.atomic_rmw add, relaxed, gpu, %mp, %xv : (" +
      ps + ", " + s + ") -> " + s +
      "\n"
      "    %c5 = arith.constant 5 : i32\n"
      "    %tk = tt.atomic_rmw add, relaxed, gpu, %cnt, %c5 : (!tt.ptr<i32>, i32) -> i32\n"
      "    %o2 = tt.expand_dims %old {axis = 1 : i32} : " +
      s +
      " -> tensor<64x1xi32, #p>\n"
      "    %ob = tt.broadcast %o2 : tensor<64x1xi32, #p> -> " +
      t +
      "\n"
      "    %r2 = tt.expand_dims %r {axis = 1 : i32} : " +
      s +
      " -> tensor<64x1xi32, #p>\n"
      "    %c16 = arith.constant dense<16> : tensor<64x1xi32, #p>\n"
      "    %rows = arith.muli %r2, %c16 : tensor<64x1xi32, #p>\n"
      "    %rowsb = tt.broadcast %rows : tensor<64x1xi32, #p> -> " +
      t +
      "\n"
      "    %cr = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32, #c>\n"
      "    %c2 = tt.expand_dims %cr {axis = 0 : i32} : tensor<16xi32, #c> -> tensor<1x16xi32, #p>\n"
      "    %colsb = tt.broadcast %c2 : tensor<1x16xi32, #p> -> " +
      t +
      "\n"
      "    %offs = arith.addi %rowsb, %colsb : " +
      t +
      "\n"
      "    %os = tt.splat %out : !tt.ptr<i32> -> " +
      pt +
      "\n"
      "    %op = tt.addptr %os, %offs : " +
      pt + ", " + t +
      "\n"
      "    tt.store %op, %ob : " +
      pt +
      "\n"
      "    %tv = tt.splat %tk : i32 -> " +
      t +
      "\n"
      "    %os2 = tt.splat %out2 : !tt.ptr<i32> -> " +
      pt +
      "\n"
      "    %op2 = tt.addptr %os2, %offs : " +
      pt + ", " + t +
      "\n"
      "    tt.store %op2, %tv : " +
      pt +
      "\n"
      "    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "handover.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(ir::verify(*m).ok()) << ir::verify(*m).message();
  std::mt19937_64 rng(29);
  std::vector<int32_t> mem0(64), xs(64);
  for (size_t i = 0; i < 64; ++i) {
    mem0[i] = int32_t(rng() % 1000);
    xs[i] = int32_t(rng() % 1000);
  }
  ir::Memory start;
  start.buffers = {ir::testing::bytesOf(mem0), ir::testing::bytesOf(xs),
                   ir::testing::bytesOf(std::vector<int32_t>{37}),
                   std::vector<uint8_t>(64 * 16 * 4), std::vector<uint8_t>(64 * 16 * 4)};
  std::vector<ir::ArgValue> args;
  for (uint32_t k = 0; k < 5; ++k)
    args.push_back(ir::ArgValue::pointer(k));
  ir::Memory want = start;
  ASSERT_TRUE(ir::interpret(*m, "handover", args, want).ok());
  // The interpreter's own answer: every row holds the old value, every entry the ticket 37.
  auto outs = ir::testing::valuesOf<int32_t>(want.buffers[3]);
  EXPECT_EQ(outs[16 * 5 + 7], mem0[5]);
  EXPECT_EQ(ir::testing::valuesOf<int32_t>(want.buffers[4])[100], 37);
  REQUIRE_GPU();
  expectGpuMatchesInterpreter(*m, targets_, args, start, want);
}
