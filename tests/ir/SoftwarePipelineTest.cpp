// The pipeline pass keeps what kernels compute: the interpreter runs each
// matmul before and after it, for several stage counts and K (0, shorter than
// the prologue, not a multiple of the stages), and the outputs agree bit for
// bit.
#include "Examples.h"

#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/SoftwarePipeline.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/ir/Walk.h"

#include <gtest/gtest.h>

#include <random>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

std::vector<uint8_t> randomHalves(size_t n, std::mt19937_64 &rng) {
  std::vector<uint16_t> h(n);
  for (uint16_t &x : h)
    x = uint16_t((rng() % 2 ? 0x8000 : 0) | ((8 + rng() % 7) << 10) |
                 (rng() % 1024));
  return bytesOf(h);
}

int count(const Module &m, OpKind k) {
  int n = 0;
  walkOps(m.functions[0].body, [&](const Op &op) { n += op.kind == k; });
  return n;
}

// The first case of the pass's golden file: a 32x32 matmul with a row mask and
// the A address recomputed from k.
std::string maskedMatmul() {
  std::string text = readFile(std::string(LINLAYOUT_SOURCE_DIR) +
                              "/tests/ir/passes/software-pipeline.tir");
  return text.substr(0, text.find("// -----"));
}

Memory run(const Module &m, const std::string &fn, std::vector<ArgValue> args,
           Memory mem) {
  Status s = interpret(m, fn, args, mem);
  EXPECT_TRUE(s.ok()) << s.message();
  return mem;
}

} // namespace

TEST(SoftwarePipeline, MatmulExamplesComputeTheSameForEveryStageCountAndK) {
  for (auto [file, tileN] : {std::pair<std::string, int64_t>{"matmul.tir", 128},
                             {"matmul_wide.tir", 256}}) {
    SCOPED_TRACE(file);
    Module plain = loadExample(file);
    ASSERT_TRUE(verify(plain).ok());
    std::mt19937_64 rng(7);
    for (int stages : {2, 3, 4}) {
      Module piped = plain;
      ASSERT_TRUE(pipelineLoops(piped, stages).ok());
      ASSERT_TRUE(verify(piped).ok()) << verify(piped).message() << "\n"
                                      << print(piped);
      EXPECT_EQ(count(piped, OpKind::Load), 0);
      EXPECT_EQ(count(piped, OpKind::AsyncCommitGroup), stages);
      EXPECT_EQ(count(piped, OpKind::AsyncCopyGlobalToLocal), 2 * stages);
      for (int64_t K : {0, 32, 64, 96, 160}) {
        SCOPED_TRACE("stages " + std::to_string(stages) + ", K " +
                     std::to_string(K));
        Memory mem;
        mem.buffers = {randomHalves(size_t(128 * K), rng),
                       randomHalves(size_t(K * tileN), rng),
                       std::vector<uint8_t>(size_t(128 * tileN * 4), 0xab)};
        std::vector<ArgValue> args = {
            ArgValue::pointer(0),    ArgValue::pointer(1),
            ArgValue::pointer(2),    ArgValue::integer(K),
            ArgValue::integer(K),    ArgValue::integer(tileN),
            ArgValue::integer(tileN)};
        Memory want = run(plain, "matmul", args, mem);
        Memory got = run(piped, "matmul", args, mem);
        EXPECT_EQ(got.buffers[2], want.buffers[2]);
      }
    }
  }
}

TEST(SoftwarePipeline, MaskedMatmulComputesTheSameForRandomSizes) {
  auto plain = parseModule(maskedMatmul(), "software-pipeline.tir");
  ASSERT_TRUE(plain.ok()) << plain.message();
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 24; ++trial) {
    int stages = 2 + int(rng() % 4);
    int64_t M = 1 + int64_t(rng() % 32), K = 16 * int64_t(rng() % 7);
    SCOPED_TRACE("stages " + std::to_string(stages) + ", M " +
                 std::to_string(M) + ", K " + std::to_string(K));
    Module piped = *plain;
    ASSERT_TRUE(pipelineLoops(piped, stages).ok());
    ASSERT_TRUE(verify(piped).ok()) << verify(piped).message();
    ASSERT_EQ(count(piped, OpKind::AsyncWait), 2);
    Memory mem;
    // A holds exactly M rows: a copy of a masked-off row would read past its
    // end.
    mem.buffers = {randomHalves(size_t(M * K), rng),
                   randomHalves(size_t(K * 32), rng),
                   std::vector<uint8_t>(32 * 32 * 4, 0xcd)};
    std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1),
                                  ArgValue::pointer(2), ArgValue::integer(M),
                                  ArgValue::integer(K)};
    Memory want = run(*plain, "mm", args, mem);
    Memory got = run(piped, "mm", args, mem);
    EXPECT_EQ(got.buffers[2], want.buffers[2]);
  }
}

TEST(SoftwarePipeline, OneStageLeavesTheModuleAloneAndBadCountsAreErrors) {
  Module m = loadExample("matmul.tir");
  std::string before = print(m);
  ASSERT_TRUE(pipelineLoops(m, 1).ok());
  EXPECT_EQ(print(m), before);
  EXPECT_EQ(pipelineLoops(m, 0).message(), "num_stages is 0, expected 1..16");
  EXPECT_EQ(pipelineLoops(m, 17).message(), "num_stages is 17, expected 1..16");
}

// The wgmma matmul: the rings take the local_allocs' NVMMA layouts, the dots
// read the ring slots, the fence pass puts one fence in the loop between the
// wait and the dot, and the interpreter computes the same before and after.
TEST(SoftwarePipeline, WgmmaMatmulRingsTheSharedTilesAndComputesTheSame) {
  Module plain = loadExample("matmul_wgmma.tir");
  ASSERT_TRUE(verify(plain).ok());
  std::mt19937_64 rng(13);
  for (int stages : {2, 3, 4}) {
    Module piped = plain;
    ASSERT_TRUE(pipelineLoops(piped, stages).ok());
    ASSERT_TRUE(verify(piped).ok()) << verify(piped).message() << "\n"
                                    << print(piped);
    EXPECT_EQ(count(piped, OpKind::Load), 0);
    EXPECT_EQ(count(piped, OpKind::LocalLoad), 0);
    EXPECT_EQ(count(piped, OpKind::LocalAlloc), 2); // the two rings
    EXPECT_EQ(count(piped, OpKind::AsyncCommitGroup), stages);
    EXPECT_EQ(count(piped, OpKind::AsyncCopyGlobalToLocal), 2 * stages);
    std::string text = print(piped);
    EXPECT_NE(text.find("!ttg.memdesc<" + std::to_string(stages) +
                        "x128x64xf16, #"),
              std::string::npos)
        << text;
    ASSERT_TRUE(insertFences(piped).ok());
    ASSERT_TRUE(verify(piped).ok()) << verify(piped).message();
    // In the loop: async_wait, then exactly one fence, then the dot.
    const Op *loop = nullptr;
    walkOps(piped.functions[0].body, [&](const Op &op) {
      if (op.kind == OpKind::For)
        loop = &op;
    });
    ASSERT_NE(loop, nullptr);
    int fences = 0;
    size_t wait = 0, fence = 0, dot = 0;
    const auto &ops = loop->regions[0].ops;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].kind == OpKind::AsyncWait)
        wait = i;
      if (ops[i].kind == OpKind::FenceAsyncShared) {
        ++fences;
        fence = i;
      }
      if (ops[i].kind == OpKind::WarpGroupDot)
        dot = i;
    }
    EXPECT_EQ(fences, 1) << print(piped);
    EXPECT_LT(wait, fence);
    EXPECT_LT(fence, dot);
    for (int64_t K : {0, 64, 128, 192}) {
      SCOPED_TRACE("stages " + std::to_string(stages) + ", K " +
                   std::to_string(K));
      Memory mem;
      mem.buffers = {randomHalves(size_t(128 * K), rng),
                     randomHalves(size_t(K * 128), rng),
                     std::vector<uint8_t>(size_t(128 * 128 * 4), 0xab)};
      std::vector<ArgValue> args = {
          ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2),
          ArgValue::integer(K), ArgValue::integer(K), ArgValue::integer(128),
          ArgValue::integer(128)};
      Memory want = run(plain, "matmul_wgmma", args, mem);
      Memory got = run(piped, "matmul_wgmma", args, mem);
      EXPECT_EQ(got.buffers[2], want.buffers[2]);
    }
  }
}
