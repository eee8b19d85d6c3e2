// Whole tile-IR kernels: every example compiles for sm_80 and sm_90, assembles with ptxas
// without spills, and has the instructions its layouts call for.
#include "../ir/Examples.h"
#include "PtxCheck.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <cstring>
#include <optional>
#include <sstream>

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
      EXPECT_TRUE(c.fromPlanner) << c.where << ": " << c.plannerError;
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

namespace {

// A kernel storing `op` of constant operands (or, for "nan", of 0.0 / 0.0) of type `in` as its
// `out`-typed result into every element of its argument. For a cast `b` is empty. With `wide`,
// the result is sign-extended to that type and stored so (for i1 results).
ir::Module constantOpKernel(const std::string &op, const std::string &a, const std::string &b,
                            const std::string &in, const std::string &out,
                            const std::string &wide = "") {
  std::string tin = "tensor<32x" + in + ", #b>", tout = "tensor<32x" + out + ", #b>";
  std::string stored = wide.empty() ? out : wide;
  std::string pt = "tensor<32x!tt.ptr<" + stored + ">, #b>";
  std::string body = a == "nan" ? "    %z = arith.constant dense<0.0> : " + tin +
                                      "\n    %a = arith.divf %z, %z : " + tin + "\n"
                                : "    %a = arith.constant dense<" + a + "> : " + tin + "\n";
  if (b.empty())
    body += "    %x = " + op + " %a : " + tin + " to " + tout + "\n";
  else
    body += "    %c = arith.constant dense<" + b + "> : " + tin + "\n    %x = " + op +
            " %a, %c : " + tout + "\n";
  if (!wide.empty())
    body += "    %w = arith.extsi %x : " + tout + " to tensor<32x" + wide + ", #b>\n";
  std::string text =
      "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], "
      "order = [0]}>\nmodule attributes {\"ttg.num-warps\" = 1 : i32} {\n"
      "  tt.func public @k(%out: !tt.ptr<" +
      stored + ">) {\n" + body +
      "    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>\n"
      "    %os = tt.splat %out : !tt.ptr<" +
      stored + "> -> " + pt + "\n    %op = tt.addptr %os, %r : " + pt +
      ", tensor<32xi32, #b>\n    tt.store %op, " + (wide.empty() ? "%x" : "%w") + " : " + pt +
      "\n    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "undefined.tir");
  EXPECT_TRUE(m.ok()) << m.message();
  if (!m.ok())
    return ir::Module{};
  EXPECT_TRUE(ir::verify(*m).ok()) << ir::verify(*m).message() << "\n" << text;
  return std::move(*m);
}

// What the interpreter stores in the first element of constantOpKernel's output, sign-extended.
int64_t interpretedConstant(const ir::Module &m, const std::string &out) {
  size_t bytes = out == "i8" ? 1 : out == "i16" ? 2 : out == "i32" ? 4 : 8;
  ir::Memory mem;
  mem.buffers = {std::vector<uint8_t>(32 * bytes)};
  std::vector<ir::ArgValue> args = {ir::ArgValue::pointer(0)};
  Status s = ir::interpret(m, "k", args, mem);
  EXPECT_TRUE(s.ok()) << s.message();
  uint64_t raw = 0;
  std::memcpy(&raw, mem.buffers[0].data(), bytes);
  return bytes == 8 ? int64_t(raw) : int64_t(raw << (64 - 8 * bytes)) >> (64 - 8 * bytes);
}

// The constant the kernel's one store writes, from its optimised LLVM IR: "store iN V, ...",
// "store <K x iW> <iW v0, iW v1, ...>, ..." (lanes little-endian) or "... zeroinitializer, ...";
// nullopt when the store is not of a constant.
std::optional<int64_t> storedConstant(const std::string &llvmIr, int outBits) {
  size_t at = llvmIr.find("  store ");
  if (at == std::string::npos || llvmIr.find("  store ", at + 1) != std::string::npos)
    return std::nullopt;
  std::string line = llvmIr.substr(at + 8, llvmIr.find('\n', at) - at - 8);
  line = line.substr(0, line.find(", ptr"));
  if (line.find("zeroinitializer") != std::string::npos)
    return 0;
  std::istringstream in(line[0] == '<' ? line.substr(line.find('>') + 1) : line);
  uint64_t v = 0;
  int shift = 0;
  std::string type, lane;
  while (in >> type >> lane) { // "<iW", "v0," or "iN", "V"
    size_t i = type.find('i');
    if (i == std::string::npos || lane.empty() || !(std::isdigit(lane[0]) || lane[0] == '-'))
      return std::nullopt;
    int w = std::stoi(type.substr(i + 1));
    uint64_t bitsOf =
        uint64_t(std::stoll(lane)) & (w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1);
    v |= bitsOf << shift;
    shift += w;
  }
  if (shift != outBits)
    return std::nullopt;
  return outBits == 64 ? int64_t(v) : int64_t(v << (64 - outBits)) >> (64 - outBits);
}

} // namespace

// What LLVM leaves poison or undefined and the IR defines (docs/ir.md): shifts by the width or
// more and the minimum divided by -1 (before, a shift by 40 was poison and LLVM dropped the
// store altogether). Each case stores one op of constant operands, which LLVM folds to the
// constant the interpreter computes.
TEST(KernelLowering, ShiftsAndDivisionsLlvmLeavesUndefinedFoldToTheInterpretersValues) {
  const std::vector<std::array<std::string, 4>> cases = {
      // op, a, b, type
      {"arith.shli", "1", "40", "i32"},
      {"arith.shli", "3", "31", "i32"},
      {"arith.shli", "5", "-1", "i32"},
      {"arith.shrsi", "-8", "40", "i32"},
      {"arith.shrsi", "-8", "1", "i32"},
      {"arith.shrsi", "8", "-3", "i32"},
      {"arith.shrui", "-8", "33", "i32"},
      {"arith.shrui", "-8", "28", "i32"},
      {"arith.shli", "1", "70", "i64"},
      {"arith.shrui", "-1", "16", "i16"},
      {"arith.shrsi", "-100", "9", "i8"},
      {"arith.divsi", "-2147483648", "-1", "i32"},
      {"arith.remsi", "-2147483648", "-1", "i32"},
      {"arith.divsi", "-128", "-1", "i8"},
      {"arith.divsi", "-7", "2", "i32"},
      {"arith.remsi", "-7", "2", "i32"},
      // i1: 1 is -1 to the signed ops.
      {"arith.divsi", "1", "1", "i1"},
      {"arith.remsi", "1", "1", "i1"},
      {"arith.shrsi", "1", "1", "i1"},
      {"arith.shli", "1", "1", "i1"},
      {"arith.minsi", "1", "0", "i1"},
      {"arith.maxsi", "1", "0", "i1"},
      {"arith.addi", "1", "1", "i1"},
  };
  for (const auto &[op, a, b, type] : cases) {
    SCOPED_TRACE(op + " " + a + ", " + b + " : " + type);
    // i1 results are sign-extended to i8 for the store (an i1 of 1 is -1 for the signed ops).
    bool i1 = type == "i1";
    std::string stored = i1 ? "i8" : type;
    ir::Module m = constantOpKernel(op, a, b, type, type, i1 ? "i8" : "");
    int64_t want = interpretedConstant(m, stored);
    for (int sm : {80, 90}) {
      LowerOptions o;
      o.target = PtxTarget{sm, 80};
      o.keepLlvmIr = true;
      auto k = lowerKernel(m, o);
      ASSERT_TRUE(k.ok()) << k.message();
      EXPECT_EQ(storedConstant(k->llvmIr, std::stoi(stored.substr(1))), want) << k->llvmIr;
    }
  }
}

// Float-to-integer conversions are PTX's cvt.rzi, which saturates and takes NaN to 0 as the
// interpreter does (LLVM's fptosi / fptoui would be poison, and folded as such, out of range);
// 8- and 16-bit results are clamped after a 32-bit conversion.
TEST(KernelLowering, FloatToIntegerConversionsSaturate) {
  struct Case {
    const char *op, *in, *out, *cvt, *clamp;
  };
  const Case cases[] = {
      {"arith.fptosi", "f32", "i32", "cvt.rzi.s32.f32", nullptr},
      {"arith.fptoui", "f32", "i32", "cvt.rzi.u32.f32", nullptr},
      {"arith.fptosi", "f64", "i64", "cvt.rzi.s64.f64", nullptr},
      {"arith.fptoui", "f32", "i64", "cvt.rzi.u64.f32", nullptr},
      {"arith.fptosi", "f16", "i8", "cvt.rzi.s32.f16", "127"},
      {"arith.fptosi", "f32", "i16", "cvt.rzi.s32.f32", "32767"},
      {"arith.fptoui", "bf16", "i8", "cvt.rzi.u32.f32", "255"},
      {"arith.fptoui", "f32", "i16", "cvt.rzi.u32.f32", "65535"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.op) + " " + c.in + " -> " + c.out);
    ir::Module k = constantOpKernel(c.op, "-3.0e+02", "", c.in, c.out);
    LowerOptions o;
    o.target = PtxTarget{80, 80};
    auto lowered = lowerKernel(k, o);
    ASSERT_TRUE(lowered.ok()) << lowered.message();
    const std::string &ptx = lowered->kernel.ptx;
    EXPECT_EQ(countLines(ptx, c.cvt), 1) << ptx;
    EXPECT_EQ(ptx.find("setp"), std::string::npos) << ptx;
    if (c.clamp) {
      EXPECT_NE(ptx.find(std::string(", ") + c.clamp + ";"), std::string::npos) << ptx;
    }
    expectAssembles(lowered->kernel, /*requireNoSpills=*/true);
  }
}
