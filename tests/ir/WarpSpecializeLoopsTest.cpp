// The warp-specialize-loops pass (WarpSpecializeLoops.h): the TMA + wgmma matmul marked
// `tt.warp_specialize` (examples/matmul_tma_autows.tir) becomes a producer partition and a
// consumer default region that verify, print and parse back, and compute what the pipelined
// loop computed, bit for bit, under the interpreter's partition protocol checks (and a ring
// broken after the pass is an error there); the 128x256 tile on two consumer warp groups; Triton's
// own pipelined dump (counters for slots and phase); a property over rings of 2..4 stages filled
// 1..S-1 ahead; loops it must refuse left as they were, with a remark saying why; and a property
// over the example with lines deleted: split faithfully or left alone, never broken.
#include "../layout/GTestProperty.h"
#include "Examples.h"
#include "InterpretedMatmul.h"
#include "TextEdits.h"
#include "TritonDumps.h"

#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/ir/WarpSpecializeLoops.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

std::string exampleText() { return readFile(examplePath("matmul_tma_autows.tir")); }

// The text without the first line that holds `what`.
std::string dropLine(std::string text, const std::string &what) {
  size_t at = text.find(what);
  EXPECT_NE(at, std::string::npos) << what;
  if (at == std::string::npos)
    return text;
  size_t begin = text.rfind('\n', at) + 1, end = text.find('\n', at);
  text.erase(begin, end - begin + 1);
  return text;
}

Module parsed(const std::string &text) {
  auto m = parseModule(text, "matmul_tma_autows.tir");
  EXPECT_TRUE(m.ok()) << m.message();
  return m.ok() ? std::move(*m) : Module{};
}

// The module after the pass, with its remarks.
Module specialized(const std::string &text, std::vector<std::string> *remarks = nullptr) {
  Module m = parsed(text);
  Status s = warpSpecializeLoops(m, remarks);
  EXPECT_TRUE(s.ok()) << s.message();
  return m;
}

// Each of `others` computes the C that `plain` computes (kernel `fn` at K, in the interpreter),
// bit for bit.
void expectSameC(const Module &plain, const std::vector<const Module *> &others, int K,
                 const std::string &fn = "matmul_tma_autows", MatmulShape shape = {}) {
  SCOPED_TRACE("K " + std::to_string(K));
  MatmulRun want = runMatmul(plain, K, fn, shape);
  ASSERT_TRUE(want.status.ok()) << want.status.message();
  for (const Module *m : others) {
    MatmulRun got = runMatmul(*m, K, fn, shape);
    ASSERT_TRUE(got.status.ok()) << got.status.message();
    EXPECT_EQ(want.c, got.c);
  }
}

int count(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
    ++n;
  return n;
}

TEST(WarpSpecializeLoops, SplitsTheMarkedLoop) {
  std::vector<std::string> remarks;
  Module m = specialized(exampleText(), &remarks);
  EXPECT_TRUE(remarks.empty()) << remarks.front();
  ASSERT_TRUE(verify(m).ok()) << verify(m).message();
  const std::string out = print(m);
  EXPECT_EQ(count(out, "tt.warp_specialize}"), 0) << out;
  EXPECT_EQ(count(out, "ttg.warp_specialize("), 1) << out;
  EXPECT_NE(out.find("attributes {actualRegisters = array<i32: 232, 40>, requestedRegisters = "
                     "array<i32: 40>}"),
            std::string::npos)
      << out;
  EXPECT_EQ(count(out, ") num_warps(1) {"), 1) << out;
  // 3 empty barriers initialised and invalidated; the producer waits on one per refill, the
  // consumer arrives on one per step; the copies (2 of the prologue's fills, 1 per refill, of
  // each ring) all sit in the partition.
  EXPECT_EQ(count(out, "ttng.init_barrier"), 6) << out;
  EXPECT_EQ(count(out, "ttng.inval_barrier"), 6) << out;
  EXPECT_EQ(count(out, "ttng.wait_barrier"), 2) << out;
  EXPECT_EQ(count(out, "ttng.arrive_barrier"), 1) << out;
  const size_t partition = out.find("partition0(");
  ASSERT_NE(partition, std::string::npos);
  EXPECT_EQ(count(out.substr(0, partition), "ttng.async_tma_copy_global_to_local"), 0) << out;
  EXPECT_EQ(count(out.substr(partition), "ttng.async_tma_copy_global_to_local"), 6) << out;
  EXPECT_EQ(count(out.substr(partition), "ttng.barrier_expect"), 3) << out;
  EXPECT_EQ(count(out.substr(0, partition), "ttng.warp_group_dot "), 1) << out;
  // Text round trip.
  auto again = parseModule(out);
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), out);
  // Nothing is left to do a second time.
  Module twice = *again;
  ASSERT_TRUE(warpSpecializeLoops(twice).ok());
  EXPECT_EQ(print(twice), out);
}

// The mark itself prints and parses back (and a loop's other attributes are read and dropped).
TEST(WarpSpecializeLoops, TheMarkRoundTrips) {
  const std::string text = exampleText();
  Module m = parsed(text);
  const std::string out = print(m);
  EXPECT_EQ(count(out, "} {tt.warp_specialize}"), 1) << out;
  Module other = parsed(edit(text, "} {tt.warp_specialize}",
                             "} {tt.num_stages = 3 : i32, tt.warp_specialize, tt.flatten}"));
  EXPECT_EQ(print(other), out);
  auto bad = parseModule(edit(text, "} {tt.warp_specialize}", "} {tt.warp_specialize = 3 : i32}"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("tt.warp_specialize is a unit attribute"), std::string::npos)
      << bad.message();
}

// The partitions compute what the pipelined loop computed, bit for bit, for K shorter than the
// prologue, one round of the ring and several, and K no multiple of 64; the same through the
// whole pass pipeline.
TEST(WarpSpecializeLoops, AgreesWithThePipelinedLoop) {
  const std::string text = exampleText();
  Module plain = parsed(text);
  Module ws = specialized(text);
  Module piped = parsed(text);
  ASSERT_TRUE(runPipeline(piped).ok());
  EXPECT_EQ(count(print(piped), "ttg.warp_specialize("), 1);
  EXPECT_EQ(count(print(piped), "ttg.async_wait"), 0) << "the consumer loop was also pipelined";
  for (int K : {40, 64, 192, 512})
    expectSameC(plain, {&ws, &piped}, K);
}

// A wgmma with Triton's useC flag (false at the first step: the accumulator's zeros are not
// read) is split with its flag: the consumers compute the unflagged loop's C.
TEST(WarpSpecializeLoops, KeepsTheUseCFlag) {
  const std::string text = exampleText();
  const std::string dot = "      %d = ttng.warp_group_dot %as, %bs, %accv {";
  ASSERT_NE(text.find(dot), std::string::npos);
  const std::string flagged = edit(text, dot,
                                   "      %usec = arith.cmpi ne, %i, %c0 : i32\n"
                                   "      %d = ttng.warp_group_dot %as, %bs, %accv, %usec {");
  Module plain = parsed(text);
  Module ws = specialized(flagged);
  EXPECT_EQ(count(print(ws), "ttg.warp_specialize("), 1);
  EXPECT_NE(print(ws).find("%accv, %usec {isAsync = true}"), std::string::npos) << print(ws);
  for (int K : {40, 192})
    expectSameC(plain, {&ws}, K);
}

// The 128x256 tile on two consumer warp groups (examples/matmul_tma_wide_autows.tir): both in
// the default region, 240 registers each, 24 for the producer; the same C as the pipelined loop.
TEST(WarpSpecializeLoops, WideTileOnTwoConsumerGroups) {
  const std::string text = readFile(examplePath("matmul_tma_wide_autows.tir"));
  Module plain = parsed(text);
  std::vector<std::string> remarks;
  Module ws = specialized(text, &remarks);
  EXPECT_TRUE(remarks.empty()) << remarks.front();
  ASSERT_TRUE(verify(ws).ok()) << verify(ws).message();
  EXPECT_NE(print(ws).find("attributes {actualRegisters = array<i32: 240, 24>, requestedRegisters "
                           "= array<i32: 24>}"),
            std::string::npos)
      << print(ws);
  for (int K : {64, 320})
    expectSameC(plain, {&ws}, K, "matmul_tma_wide_autows", {.tileN = 256});
}

// Triton's own pipelined TMA matmul (examples/triton/matmul_tma.ttgir as Triton 3.6 printed it:
// the K offset as the induction variable, the stages and the phase carried as counters) with its
// loop marked as tl.range(..., warp_specialize=True) marks it: split (the producer's loop carries
// the refill's counter), and C is still the reference's.
TEST(WarpSpecializeLoops, SplitsTritonsPipelinedLoop) {
  const std::string file = "triton/matmul_tma.ttgir";
  std::string text = readFile(examplePath(file));
  const size_t close = text.find("    } loc(", text.find("scf.yield"));
  ASSERT_NE(close, std::string::npos);
  text.insert(close + 5, " {tt.warp_specialize}");
  std::vector<std::string> remarks;
  Module m = specialized(text, &remarks);
  EXPECT_TRUE(remarks.empty()) << remarks.front();
  ASSERT_TRUE(verify(m).ok()) << verify(m).message();
  const std::string out = print(m);
  EXPECT_EQ(count(out, "ttg.warp_specialize("), 1) << out;
  const size_t partition = out.find("partition0(");
  ASSERT_NE(partition, std::string::npos);
  EXPECT_EQ(count(out.substr(0, partition), "ttng.async_tma_copy_global_to_local"), 0) << out;
  for (const ExampleRun &run : tritonDumpRuns()) {
    if (run.file != file)
      continue;
    Memory mem;
    std::vector<ArgValue> args;
    run.setup(mem, args);
    InterpreterOptions strict;
    strict.checkProxyFences = true;
    Status s = interpret(m, run.function, args, mem, run.grid, strict);
    ASSERT_TRUE(s.ok()) << s.message();
    run.check(mem);
  }
}

// The ring the pass builds is what keeps the partitions apart: without the producer's wait on
// the empty barrier a refill races with the wgmma reading the stage; without the consumer's
// arrival the producer waits for ever.
TEST(WarpSpecializeLoops, ABrokenRingIsAnError) {
  const std::string out = print(specialized(exampleText()));
  struct Broken {
    const char *what;
    std::string text, error;
  };
  const Broken cases[] = {
      {"the producer does not wait for the empty barrier",
       dropLine(out, "ttng.wait_barrier %empty"), "may still be"},
      {"the consumer never frees a stage", dropLine(out, "ttng.arrive_barrier"), "deadlock"},
      {"the consumer frees the stage its wgmma still reads",
       edit(out, "%freeing = arith.cmpi sgt", "%freeing = arith.cmpi sge"), "ttng."},
  };
  for (const Broken &c : cases) {
    SCOPED_TRACE(c.what);
    auto m = parseModule(c.text);
    ASSERT_TRUE(m.ok()) << m.message();
    MatmulRun r = runMatmul(*m, 640, "matmul_tma_autows");
    ASSERT_FALSE(r.status.ok());
    EXPECT_NE(r.status.message().find(c.error), std::string::npos) << r.status.message();
  }
}

// Loops the pass must leave alone are unchanged, each with a remark that says why.
TEST(WarpSpecializeLoops, RefusesWhatItCannotSplit) {
  const std::string text = exampleText();
  struct Refused {
    const char *what;
    std::string text, remark;
  };
  const Refused cases[] = {
      {"a CTA barrier in the body",
       edit(text, "      %j = arith.addi", "      gpu.barrier\n      %j = arith.addi"),
       "the loop body holds gpu.barrier"},
      {"a synchronous wgmma",
       edit(text, "{inputPrecision = 0 : i32, isAsync = true}", "{inputPrecision = 0 : i32}"),
       "asynchronously"},
      {"a step that is not a constant",
       edit(edit(text, "%acc = scf.for %i = %c0 to %nk step %c1",
                 "%acc = scf.for %i = %c0 to %nk step %one"),
            "    %zero = arith.constant dense",
            "    %one = arith.divsi %c1, %c1 : i32\n    %zero = arith.constant dense"),
       "the lower bound and the step must be constants"},
      {"a consumer that does not read stage n % 3",
       edit(text, "%s = arith.remsi %i, %c3", "%s = arith.remsi %i, %c2"), "(n % 3)"},
      {"a prologue of one fill for a refill two steps ahead",
       dropLine(dropLine(dropLine(text, "ttng.barrier_expect %bar1"), "%adesc[%m0, %k1]"),
                "%bdesc[%k1, %n0]"),
       "the refill's stage index is not ((n + 1) % 3)"},
      {"a prologue without its second barrier_expect", dropLine(text, "ttng.barrier_expect %bar1"),
       "the prologue copies into stages past 0"},
      {"the accumulator used after the loop without the final wait",
       edit(edit(text, "%res = ttng.warp_group_dot_wait %acc {pendings = 0 : i32}",
                 "%res = arith.addf %acc, %acc"),
            "} {tt.warp_specialize}\n    %res = arith.addf %acc, %acc : tensor<128x128xf32, #mma>",
            "} {tt.warp_specialize}\n    %res = arith.addf %acc, %acc : tensor<128x128xf32, #mma>"),
       "warp_group_dot_wait {pendings = 0} right after it"},
  };
  for (const Refused &c : cases) {
    SCOPED_TRACE(c.what);
    auto m = parseModule(c.text);
    ASSERT_TRUE(m.ok()) << m.message();
    const std::string before = print(*m);
    std::vector<std::string> remarks;
    ASSERT_TRUE(warpSpecializeLoops(*m, &remarks).ok());
    EXPECT_EQ(print(*m), before);
    ASSERT_EQ(remarks.size(), 1u);
    EXPECT_NE(remarks[0].find("@matmul_tma_autows: loop at "), std::string::npos) << remarks[0];
    EXPECT_NE(remarks[0].find(c.remark), std::string::npos) << remarks[0];
    // The pipeline's remarks say the same.
    std::vector<std::string> piped;
    PipelineOptions o;
    o.remarks = &piped;
    auto again = parseModule(c.text);
    ASSERT_TRUE(again.ok());
    (void)runPipeline(*again, o);
    EXPECT_EQ(piped, remarks);
  }
  // The mma.sync matmul on the same ring (its loop carries the next K slice's dot operands).
  std::string mma = readFile(examplePath("matmul_tma_mma_wide.tir"));
  const std::string close = "tensor<16x256xf16, #dotb>\n    }\n";
  ASSERT_NE(mma.find(close), std::string::npos);
  mma.replace(mma.find(close), close.size(),
              "tensor<16x256xf16, #dotb>\n    } {tt.warp_specialize}\n");
  Module m = parsed(mma);
  std::vector<std::string> why;
  ASSERT_TRUE(warpSpecializeLoops(m, &why).ok());
  ASSERT_EQ(why.size(), 1u);
  EXPECT_NE(why[0].find("the loop body holds ttg.memdesc_subslice"), std::string::npos) << why[0];
  // An unmarked loop is not looked at.
  Module unmarked = parsed(edit(text, "} {tt.warp_specialize}", "}"));
  const std::string before = print(unmarked);
  std::vector<std::string> remarks;
  ASSERT_TRUE(warpSpecializeLoops(unmarked, &remarks).ok());
  EXPECT_EQ(print(unmarked), before);
  EXPECT_TRUE(remarks.empty());
}

// A pipelined TMA + wgmma matmul in the form of examples/matmul_tma.tir with a ring of `S`
// stages filled `D` steps ahead, its loop marked (programs on a 2-D grid of 128 x 128 tiles).
std::string pipelinedMatmul(int S, int D) {
  auto str = [](int64_t x) { return std::to_string(x); };
  const std::string bar = "!ttg.memdesc<1xi64, #bar, #smem, mutable>",
                    ring = "!ttg.memdesc<" + str(S) + "x1xi64, #bar, #smem, mutable>",
                    aring = "!ttg.memdesc<" + str(S) + "x128x64xf16, #sa, #smem, mutable>",
                    bring = "!ttg.memdesc<" + str(S) + "x64x128xf16, #sa, #smem, mutable>",
                    atile = "!ttg.memdesc<128x64xf16, #sa, #smem, mutable>",
                    btile = "!ttg.memdesc<64x128xf16, #sa, #smem, mutable>",
                    adesc = "!tt.tensordesc<tensor<128x64xf16, #sa>>",
                    bdesc = "!tt.tensordesc<tensor<64x128xf16, #sa>>",
                    acc = "tensor<128x128xf32, #mma>";
  auto fill = [&](const std::string &k, const std::string &s, const std::string &p,
                  const std::string &x, const std::string &ind) {
    return ind + "%kk" + x + " = arith.muli " + k + ", %c64 : i32\n" + ind + "%fb" + x +
           " = ttg.memdesc_index %bars[" + s + "] : " + ring + " -> " + bar + "\n" + ind + "%fa" +
           x + " = ttg.memdesc_index %abuf[" + s + "] : " + aring + " -> " + atile + "\n" + ind +
           "%fbb" + x + " = ttg.memdesc_index %bbuf[" + s + "] : " + bring + " -> " + btile + "\n" +
           ind + "ttng.barrier_expect %fb" + x + ", 32768, " + p + " : " + bar + "\n" + ind +
           "ttng.async_tma_copy_global_to_local %adesc[%m0, %kk" + x + "] %fa" + x + ", %fb" + x +
           ", " + p + " : " + adesc + ", " + bar + " -> " + atile + "\n" + ind +
           "ttng.async_tma_copy_global_to_local %bdesc[%kk" + x + ", %n0] %fbb" + x + ", %fb" + x +
           ", " + p + " : " + bdesc + ", " + bar + " -> " + btile + "\n";
  };
  std::string t =
      "#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
      "instrShape = [16, 128, 16]}>\n"
      "#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = "
      "16}>\n"
      "#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"
      "#smem = #ttg.shared_memory\n"
      "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = "
      "\"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
      "  tt.func public @mm(%adesc: " +
      adesc + ", %bdesc: " + bdesc +
      ", %c: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %K: i32, %ldc: i32 {tt.divisibility = 16 "
      ": i32}) {\n"
      "    %pid_m = tt.get_program_id x : i32\n    %pid_n = tt.get_program_id y : i32\n"
      "    %c0 = arith.constant 0 : i32\n    %c1 = arith.constant 1 : i32\n"
      "    %cS = arith.constant " +
      str(S) + " : i32\n    %cD = arith.constant " + str(D) +
      " : i32\n    %c63 = arith.constant 63 : i32\n    %c64 = arith.constant 64 : i32\n"
      "    %c128 = arith.constant 128 : i32\n"
      "    %m0 = arith.muli %pid_m, %c128 : i32\n    %n0 = arith.muli %pid_n, %c128 : i32\n"
      "    %kround = arith.addi %K, %c63 : i32\n    %nk = arith.divsi %kround, %c64 : i32\n"
      "    %abuf = ttg.local_alloc : () -> " +
      aring + "\n    %bbuf = ttg.local_alloc : () -> " + bring +
      "\n    %bars = ttg.local_alloc : () -> " + ring + "\n";
  for (int s = 0; s < S; ++s)
    t += "    %ci" + str(s) + " = arith.constant " + str(s) + " : i32\n    %b" + str(s) +
         " = ttg.memdesc_index %bars[%ci" + str(s) + "] : " + ring + " -> " + bar +
         "\n    ttng.init_barrier %b" + str(s) + ", 1 : " + bar + "\n";
  for (int k = 0; k < D; ++k)
    t += "    %p" + str(k) + " = arith.cmpi slt, %ci" + str(k) + ", %nk : i32\n" +
         fill("%ci" + str(k), "%ci" + str(k), "%p" + str(k), "p" + str(k), "    ");
  t += "    %zero = arith.constant dense<0.0> : " + acc +
       "\n    %acc = scf.for %i = %c0 to %nk step %c1 iter_args(%accv = %zero) -> (" + acc +
       ") : i32 {\n"
       "      %s = arith.remsi %i, %cS : i32\n      %round = arith.divsi %i, %cS : i32\n"
       "      %phase = arith.andi %round, %c1 : i32\n"
       "      %bar = ttg.memdesc_index %bars[%s] : " +
       ring + " -> " + bar + "\n      ttng.wait_barrier %bar, %phase : " + bar +
       "\n      %as = ttg.memdesc_index %abuf[%s] : " + aring + " -> " + atile +
       "\n      %bs = ttg.memdesc_index %bbuf[%s] : " + bring + " -> " + btile +
       "\n      %d = ttng.warp_group_dot %as, %bs, %accv {inputPrecision = 0 : i32, isAsync = "
       "true} : " +
       atile + " * " + btile + " -> " + acc +
       "\n      %w:3 = ttng.warp_group_dot_wait %d, %as, %bs {pendings = 1 : i32} : " + acc + ", " +
       atile + ", " + btile +
       "\n      %j = arith.addi %i, %cD : i32\n      %sj = arith.remsi %j, %cS : i32\n"
       "      %pj = arith.cmpi slt, %j, %nk : i32\n" +
       fill("%j", "%sj", "%pj", "j", "      ") + "      scf.yield %w#0 : " + acc +
       "\n    } {tt.warp_specialize}\n"
       "    %res = ttng.warp_group_dot_wait %acc {pendings = 0 : i32} : " +
       acc +
       "\n"
       "    %rm = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, "
       "#ttg.slice<{dim = 1, parent = #mma}>>\n"
       "    %m0v = tt.splat %m0 : i32 -> tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>\n"
       "    %rows = arith.addi %m0v, %rm : tensor<128xi32, #ttg.slice<{dim = 1, parent = #mma}>>\n"
       "    %rn = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, "
       "#ttg.slice<{dim = 0, parent = #mma}>>\n"
       "    %n0v = tt.splat %n0 : i32 -> tensor<128xi32, #ttg.slice<{dim = 0, parent = #mma}>>\n"
       "    %cols = arith.addi %n0v, %rn : tensor<128xi32, #ttg.slice<{dim = 0, parent = #mma}>>\n"
       "    %rows2 = tt.expand_dims %rows {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, "
       "parent = #mma}>> -> tensor<128x1xi32, #mma>\n"
       "    %cols2 = tt.expand_dims %cols {axis = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 0, "
       "parent = #mma}>> -> tensor<1x128xi32, #mma>\n"
       "    %ldcv = tt.splat %ldc : i32 -> tensor<128x1xi32, #mma>\n"
       "    %crow = arith.muli %rows2, %ldcv : tensor<128x1xi32, #mma>\n"
       "    %crowb = tt.broadcast %crow : tensor<128x1xi32, #mma> -> tensor<128x128xi32, #mma>\n"
       "    %ccolb = tt.broadcast %cols2 : tensor<1x128xi32, #mma> -> tensor<128x128xi32, #mma>\n"
       "    %coffs = arith.addi %crowb, %ccolb : tensor<128x128xi32, #mma>\n"
       "    %cv = tt.splat %c : !tt.ptr<f32> -> tensor<128x128x!tt.ptr<f32>, #mma>\n"
       "    %cptrs = tt.addptr %cv, %coffs : tensor<128x128x!tt.ptr<f32>, #mma>, "
       "tensor<128x128xi32, #mma>\n"
       "    tt.store %cptrs, %res : tensor<128x128x!tt.ptr<f32>, #mma>\n"
       "    tt.return\n  }\n}\n";
  return t;
}

// Rings of 2..4 stages filled 1..S-1 steps ahead, K of 1..9 steps (the last one partial or
// not): the pass splits every one, and the partitions compute what the loop computed.
TEST(WarpSpecializeLoops, AnyRingDepthAndDistance) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = 12; // each case interprets two 128 x 256 x K matmuls
  linlayout::testing::checkPropertyWith(params, [] {
    const int S = *rc::gen::inRange(2, 5);
    const int D = *rc::gen::inRange(1, S);
    const int K = *rc::gen::inRange(1, 10) * 64 - *rc::gen::element(0, 24);
    const std::string text = pipelinedMatmul(S, D);
    auto plain = parseModule(text);
    RC_ASSERT(plain.ok());
    Module ws = *plain;
    std::vector<std::string> remarks;
    RC_ASSERT(warpSpecializeLoops(ws, &remarks).ok());
    RC_ASSERT(remarks.empty());
    RC_ASSERT(verify(ws).ok());
    RC_ASSERT(print(ws).find("ttg.warp_specialize(") != std::string::npos);
    MatmulRun a = runMatmul(*plain, K, "mm"), b = runMatmul(ws, K, "mm");
    RC_ASSERT(a.status.ok());
    RC_ASSERT(b.status.ok());
    RC_ASSERT(a.c == b.c);
  });
}

// The example with one or two lines of its kernel deleted (what still parses and verifies): the
// pass never fails or breaks the module; where it splits the loop and the kernel ran before, the
// partitions run too and compute the same C; where it does not, the module is unchanged.
TEST(WarpSpecializeLoops, EditedKernelsAreSplitFaithfullyOrLeftAlone) {
  const std::string text = exampleText();
  std::vector<size_t> lines; // offsets of the kernel body's lines
  for (size_t at = text.find("    %c0 = arith.constant 0");
       at < text.find("    %rm = tt.make_range"); at = text.find('\n', at) + 1)
    lines.push_back(at);
  ASSERT_GT(lines.size(), 50u);
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = 60;
  params.maxDiscardRatio = 200; // most deletions leave a value undefined
  int split = 0;
  linlayout::testing::checkPropertyWith(params, [&] {
    std::string t = text;
    const int edits = *rc::gen::inRange(1, 3);
    std::vector<size_t> drop;
    for (int e = 0; e < edits; ++e)
      drop.push_back(*rc::gen::inRange<size_t>(0, lines.size()));
    std::sort(drop.rbegin(), drop.rend());
    drop.erase(std::unique(drop.begin(), drop.end()), drop.end());
    for (size_t d : drop)
      t.erase(lines[d], text.find('\n', lines[d]) + 1 - lines[d]);
    auto plain = parseModule(t);
    // (Two checks: rapidcheck's capture of `a && b` evaluates both
    // sides.)
    RC_PRE(plain.ok());
    RC_PRE(verify(*plain).ok());
    Module ws = *plain;
    std::vector<std::string> remarks;
    RC_ASSERT(warpSpecializeLoops(ws, &remarks).ok());
    RC_ASSERT(verify(ws).ok());
    const bool wasSplit = print(ws).find("ttg.warp_specialize(") != std::string::npos;
    RC_ASSERT(wasSplit == remarks.empty());
    if (!wasSplit) {
      RC_ASSERT(print(ws) == print(*plain));
      return;
    }
    ++split;
    MatmulRun a = runMatmul(*plain, 320, "matmul_tma_autows");
    if (!a.status.ok())
      return;
    MatmulRun b = runMatmul(ws, 320, "matmul_tma_autows");
    RC_ASSERT(b.status.ok());
    RC_ASSERT(a.c == b.c);
  });
  EXPECT_GT(split, 0); // (deleting a comment, an inval or a barrier init leaves it splittable)
}

} // namespace
