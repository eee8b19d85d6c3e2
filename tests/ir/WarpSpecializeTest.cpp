// Warp specialization in the tile IR: ttg.warp_specialize's text round trip and verifier errors,
// and the interpreter running its partitions: the warp-specialized matmul example against the
// TMA matmul it specializes, and each broken protocol (a read before the full barrier, a refill
// before the empty barrier, too many arrivals, a wait nothing completes) reported by op.
#include "Examples.h"

#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

std::string exampleText() { return readFile(examplePath("matmul_ws.tir")); }

// The text with the first occurrence of `from` replaced by `to` (the test fails where it has
// none).
std::string edit(std::string text, const std::string &from, const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

struct MatmulRun {
  Status status = Status::success();
  std::vector<float> c;
};

// The warp-specialized matmul (or `text`, an edit of it) on M x N x K halves; with `plain`, the
// TMA matmul instead (same arguments).
MatmulRun runMatmul(const std::string &text, int K, const char *fn = "matmul_ws") {
  const int M = 128, N = 256;
  auto m = parseModule(text, "matmul_ws.tir");
  if (!m.ok())
    return MatmulRun{Status(makeError(m.message())), {}};
  auto af = randomFloats(size_t(M * K), 4), bf = randomFloats(size_t(K * N), 5);
  Memory mem;
  mem.buffers = {bytesOf(halfBitsOf(af)), bytesOf(halfBitsOf(bf)),
                 bytesOf(std::vector<float>(size_t(M * N)))};
  std::vector<ArgValue> args = {ArgValue::tensorDesc(0, {M, K}, {K, 1}),
                                ArgValue::tensorDesc(1, {K, N}, {N, 1}), ArgValue::pointer(2),
                                ArgValue::integer(K), ArgValue::integer(N)};
  InterpreterOptions strict;
  strict.checkProxyFences = true;
  MatmulRun r;
  r.status = interpret(*m, fn, args, mem, Grid{M / 128, N / 128, 1}, strict);
  r.c = valuesOf<float>(mem.buffers[2]);
  return r;
}

std::string errorOf(const std::string &text, int K = 512) {
  MatmulRun r = runMatmul(text, K);
  return r.status.ok() ? "<ok>" : r.status.message();
}

TEST(WarpSpecialize, ExampleRoundTripsAndVerifies) {
  Module m = loadExample("matmul_ws.tir");
  ASSERT_TRUE(verify(m).ok()) << verify(m).message();
  std::string once = print(m);
  auto again = parseModule(once);
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), once);
  EXPECT_NE(once.find("attributes {actualRegisters = array<i32: 232, 40>, requestedRegisters = "
                      "array<i32: 40>}\n    default {"),
            std::string::npos)
      << once;
  EXPECT_NE(once.find(") num_warps(1) {"), std::string::npos);
}

// Triton's spelling of an op without captures or results.
TEST(WarpSpecialize, ParsesTritonsEmptyForm) {
  std::string text = "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
                     "  tt.func @k() {\n"
                     "    ttg.warp_specialize()\n"
                     "    default {\n"
                     "      ttg.warp_yield\n"
                     "    }\n"
                     "    partition0() num_warps(1) {\n"
                     "      ttg.warp_return\n"
                     "    }\n"
                     "    partition1() num_warps(8) {\n"
                     "      ttg.warp_return\n"
                     "    } : () -> ()\n"
                     "    tt.return\n"
                     "  }\n"
                     "}\n";
  auto m = parseModule(text);
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
  // The op prints as Triton writes it (the module's attributes print in full).
  std::string printed = print(*m);
  size_t from = text.find("    ttg.warp_specialize");
  EXPECT_NE(printed.find(text.substr(from, text.find("    tt.return") - from)), std::string::npos)
      << printed;
  Memory mem;
  EXPECT_TRUE(interpret(*m, "k", {}, mem, Grid{1, 1, 1}).ok());
}

TEST(WarpSpecialize, VerifierErrors) {
  const std::string text = exampleText();
  auto error = [](const std::string &t) {
    auto m = parseModule(t, "matmul_ws.tir");
    if (!m.ok())
      return m.message();
    Status s = verify(*m);
    return s.ok() ? std::string("<ok>") : s.message();
  };
  EXPECT_EQ(error(text), "<ok>");
  auto has = [&](const std::string &t, const std::string &part) {
    std::string e = error(t);
    EXPECT_NE(e.find(part), std::string::npos) << e;
  };
  has(edit(text, "num_warps(1)", "num_warps(3)"),
      "partition 0 has num_warps(3), expected a power of two in 1..32");
  has(edit(text, "num_warps(1)", "num_warps(32)"), "more than the 32 (1024 threads) of a CTA");
  has(edit(text, "requestedRegisters = array<i32: 40>", "requestedRegisters = array<i32: 40, 40>"),
      "requestedRegisters has 2 entries, expected one per partition (1)");
  has(edit(text, "array<i32: 232, 40>", "array<i32: 232, 41>"),
      "register count 41 is not one setmaxnreg can set");
  has(edit(text, "array<i32: 232, 40>", "array<i32: 232>"),
      "actualRegisters has 1 entries, expected the default region's and one per partition (2)");
  // A partition sees only its arguments.
  has(edit(text, "%pa[%pm0, %k]", "%pa[%m0, %k]"),
      "uses %m0 from outside partition 0, which sees only its arguments");
  has(edit(text, "ttg.warp_return\n", ""), "partition 0 must end with ttg.warp_return");
  has(edit(text, "ttg.warp_yield %res : tensor<128x128xf32, #mma>\n", "ttg.warp_return\n"),
      "ttg.warp_return must be the last op of a ttg.warp_specialize's partition");
  has(edit(text, "ttng.arrive_barrier %empty, 1", "ttng.arrive_barrier %empty, 0"),
      "arrival count 0 is outside 1..2^20-1");
}

// The partitions compute what the TMA matmul computes, bit for bit (the same wgmma per K step,
// in order), for K shorter than the ring, one stage round and several, and K no multiple of 64.
TEST(WarpSpecialize, MatmulAgreesWithTheTmaMatmul) {
  const std::string ws = exampleText();
  const std::string tma = readFile(examplePath("matmul_tma.tir"));
  for (int K : {64, 192, 512, 40}) {
    SCOPED_TRACE("K " + std::to_string(K));
    MatmulRun a = runMatmul(ws, K);
    ASSERT_TRUE(a.status.ok()) << a.status.message();
    MatmulRun b = runMatmul(tma, K, "matmul_tma");
    ASSERT_TRUE(b.status.ok()) << b.status.message();
    EXPECT_EQ(a.c, b.c);
  }
}

// Each broken protocol is an error naming the op (and the barrier or the other access).
TEST(WarpSpecialize, InterpreterReportsBrokenProtocols) {
  const std::string text = exampleText();
  // The consumer reads a stage without waiting for its full barrier.
  std::string noFull =
      edit(text,
           "        ttng.wait_barrier %full, %phase : !ttg.memdesc<1xi64, #bar, #smem, "
           "mutable>\n",
           "");
  std::string e = errorOf(noFull);
  EXPECT_NE(e.find("'ttng.warp_group_dot'"), std::string::npos) << e;
  EXPECT_NE(e.find("may still be writing"), std::string::npos) << e;
  // The producer refills a stage without waiting for its empty barrier.
  std::string noEmpty =
      edit(text,
           "        ttng.wait_barrier %empty, %phase : !ttg.memdesc<1xi64, #bar, #smem, "
           "mutable>\n",
           "");
  e = errorOf(noEmpty);
  EXPECT_NE(e.find("'ttng.async_tma_copy_global_to_local'"), std::string::npos) << e;
  EXPECT_NE(e.find("may still be writing"), std::string::npos) << e;
  // The consumer frees the stage before its wgmma is done reading it: the producer's refill
  // races with the read.
  const std::string bar = "!ttg.memdesc<1xi64, #bar, #smem, mutable>";
  const std::string freeStage =
      "        %empty = ttg.memdesc_index %empties[%s] : !ttg.memdesc<3x1xi64, #bar, #smem, "
      "mutable> -> " +
      bar + "\n        ttng.arrive_barrier %empty, 1 : " + bar + "\n";
  std::string early = edit(text, freeStage, "");
  early = edit(early, "        %w:3", freeStage + "        %w:3");
  e = errorOf(early);
  EXPECT_NE(e.find("'ttng.async_tma_copy_global_to_local'"), std::string::npos) << e;
  EXPECT_NE(e.find("overwrites shared memory that the default region reads ('ttng.warp_group_dot'"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("empty barrier"), std::string::npos) << e;
  // More arrivals than the barrier was initialised for.
  e = errorOf(edit(text, "ttng.arrive_barrier %empty, 1", "ttng.arrive_barrier %empty, 2"));
  EXPECT_NE(e.find("'ttng.arrive_barrier'"), std::string::npos) << e;
  EXPECT_NE(e.find("more arrivals than it was initialised for"), std::string::npos) << e;
  // The producer waits for the empty barrier's first phase instead of passing it: every partition
  // waits and none can go on.
  e = errorOf(edit(text, "%phase = arith.xori %parity, %one : i32",
                   "%phase = arith.ori %parity, %z : i32"));
  EXPECT_NE(e.find("deadlock: every partition still running waits"), std::string::npos) << e;
  EXPECT_NE(e.find("partition 0 at"), std::string::npos) << e;
  EXPECT_NE(e.find("for phase parity 0 of %empty"), std::string::npos) << e;
  EXPECT_NE(e.find("the default region at"), std::string::npos) << e;
}

} // namespace
