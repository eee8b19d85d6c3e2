// The prefetch pass keeps what the pipelined matmuls compute: the interpreter runs each example
// plain and pipelined + prefetched for several stage counts and K (0, one step, shorter than the
// prologue, not a multiple of the stages). The dot then rounds its accumulator once per K slice
// instead of once per iteration, so the inputs are small integers (every partial sum exact) and
// the outputs must agree bit for bit.
#include "Examples.h"
#include "kernels/MatmulText.h"

#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Prefetch.h"
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

// f16 integers in -8..8 (never all zero).
std::vector<uint8_t> smallIntHalves(size_t n, std::mt19937_64 &rng) {
  static const uint16_t kHalf[] = {0xc800, 0xc700, 0xc600, 0xc500, 0xc400, 0xc200,
                                   0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000, 0x4200,
                                   0x4400, 0x4500, 0x4600, 0x4700, 0x4800};
  std::vector<uint16_t> h(n);
  for (uint16_t &x : h)
    x = kHalf[rng() % 17];
  return bytesOf(h);
}

int count(const Block &b, OpKind k) {
  int n = 0;
  walkOps(b, [&](const Op &op) { n += op.kind == k; });
  return n;
}

const Op *theLoop(const Module &m) {
  const Op *loop = nullptr;
  walkOps(m.functions[0].body, [&](const Op &op) {
    if (op.kind == OpKind::For)
      loop = &op;
  });
  return loop;
}

Memory run(const Module &m, std::vector<ArgValue> args, Memory mem) {
  Status s = interpret(m, "matmul", args, mem);
  EXPECT_TRUE(s.ok()) << s.message();
  return mem;
}

} // namespace

TEST(Prefetch, MatmulExamplesComputeTheSameForEveryStageCountAndK) {
  for (auto [file, tileN] :
       {std::pair<std::string, int64_t>{"matmul.tir", 128}, {"matmul_wide.tir", 256}}) {
    SCOPED_TRACE(file);
    Module plain = loadExample(file);
    ASSERT_TRUE(verify(plain).ok());
    std::mt19937_64 rng(17);
    for (int stages : {2, 3, 4, 5}) {
      Module piped = plain;
      ASSERT_TRUE(pipelineLoops(piped, stages).ok());
      const Op *before = theLoop(piped);
      ASSERT_NE(before, nullptr);
      size_t carried = before->results.size();
      ASSERT_TRUE(prefetchDotOperands(piped, 16).ok());
      ASSERT_TRUE(verify(piped).ok()) << verify(piped).message() << "\n" << print(piped);
      const Op *loop = theLoop(piped);
      // Two more carried values (slice 0 of A and B); in the body two dots of K 16, the loads
      // of slice 1 and of the next iteration's slice 0, and the wait before those loads and the
      // last slice's dot at the end.
      EXPECT_EQ(loop->results.size(), carried + 2);
      const Block &body = loop->regions[0];
      EXPECT_EQ(count(body, OpKind::Dot), 2);
      EXPECT_EQ(count(body, OpKind::LocalLoad), 4);
      EXPECT_EQ(count(body, OpKind::MemDescSubslice), 4);
      ASSERT_EQ(count(body, OpKind::AsyncWait), 1);
      EXPECT_EQ(body.ops[body.ops.size() - 9].kind, OpKind::AsyncWait) << print(piped);
      EXPECT_EQ(body.ops[body.ops.size() - 2].kind, OpKind::Dot) << print(piped);
      EXPECT_EQ(count(piped.functions[0].body, OpKind::AsyncWait), 3);
      for (int64_t K : {0, 32, 64, 96, 160}) {
        SCOPED_TRACE("stages " + std::to_string(stages) + ", K " + std::to_string(K));
        Memory mem;
        mem.buffers = {smallIntHalves(size_t(128 * K), rng), smallIntHalves(size_t(K * tileN), rng),
                       std::vector<uint8_t>(size_t(128 * tileN * 4), 0xab)};
        std::vector<ArgValue> args = {ArgValue::pointer(0),    ArgValue::pointer(1),
                                      ArgValue::pointer(2),    ArgValue::integer(K),
                                      ArgValue::integer(K),    ArgValue::integer(tileN),
                                      ArgValue::integer(tileN)};
        Memory want = run(plain, args, mem);
        Memory got = run(piped, args, mem);
        EXPECT_EQ(got.buffers[2], want.buffers[2]);
      }
    }
  }
}

// matmul.tir with K steps of 64: four slices per step (the loads of slice s + 1 before the dot
// of slice s, three times, then the carried slice 0 of the next step).
TEST(Prefetch, FourSlicesPerStepComputeTheSame) {
  std::string text = linlayout::testing::reshapeMatmulText(
      readFile(examplePath("matmul.tir")), linlayout::testing::MatmulReshape::KStep64);
  auto plain = parseModule(text, "matmul_k64.tir");
  ASSERT_TRUE(plain.ok()) << plain.message();
  ASSERT_TRUE(verify(*plain).ok());
  std::mt19937_64 rng(23);
  for (int stages : {2, 3}) {
    Module piped = *plain;
    ASSERT_TRUE(pipelineLoops(piped, stages).ok());
    ASSERT_TRUE(prefetchDotOperands(piped, 16).ok());
    ASSERT_TRUE(verify(piped).ok()) << verify(piped).message();
    const Block &body = theLoop(piped)->regions[0];
    EXPECT_EQ(count(body, OpKind::Dot), 4);
    EXPECT_EQ(count(body, OpKind::LocalLoad), 2 * 3 + 2);
    for (int64_t K : {0, 64, 192}) {
      SCOPED_TRACE("stages " + std::to_string(stages) + ", K " + std::to_string(K));
      Memory mem;
      mem.buffers = {smallIntHalves(size_t(128 * K), rng), smallIntHalves(size_t(K * 128), rng),
                     std::vector<uint8_t>(size_t(128 * 128 * 4), 0xab)};
      std::vector<ArgValue> args = {
          ArgValue::pointer(0), ArgValue::pointer(1),   ArgValue::pointer(2),  ArgValue::integer(K),
          ArgValue::integer(K), ArgValue::integer(128), ArgValue::integer(128)};
      Memory want = run(*plain, args, mem);
      Memory got = run(piped, args, mem);
      EXPECT_EQ(got.buffers[2], want.buffers[2]);
    }
  }
}

TEST(Prefetch, RunsInThePipelineOnlyWhenAskedAndWithStages) {
  Module m = loadExample("matmul.tir");
  auto subslices = [](Module x, int stages, int k) {
    PipelineOptions o;
    o.numStages = stages;
    o.prefetchK = k;
    Status s = runPipeline(x, o);
    EXPECT_TRUE(s.ok()) << s.message();
    return count(x.functions[0].body, OpKind::MemDescSubslice);
  };
  EXPECT_EQ(subslices(m, 3, 0), 0);
  EXPECT_EQ(subslices(m, 1, 16), 0);
  EXPECT_EQ(subslices(m, 3, 16), 6); // before the loop 2, in it 4
  // K 32 in one slice: nothing to overlap.
  EXPECT_EQ(subslices(m, 3, 32), 0);
}

TEST(Prefetch, LeavesUnpipelinedLoopsAloneAndChecksTheSlice) {
  Module m = loadExample("matmul.tir");
  std::string before = print(m);
  ASSERT_TRUE(prefetchDotOperands(m, 16).ok());
  EXPECT_EQ(print(m), before);
  EXPECT_EQ(prefetchDotOperands(m, 12).message(),
            "prefetch slice K is 12, expected a power of two in 8..256");
  EXPECT_EQ(prefetchDotOperands(m, 512).message(),
            "prefetch slice K is 512, expected a power of two in 8..256");
}

// The benchmark's program grouping (groupProgramsText) only reorders which program computes
// which tile: over a 4 x 2 grid of matmul.tir tiles, groups of 2 M tiles (full groups) and of 3
// (a last group of 1) write the same C as the plain grid, every tile of it.
TEST(Prefetch, GroupedProgramOrderWritesTheSameTiles) {
  const std::string text = readFile(examplePath("matmul.tir"));
  auto plain = parseModule(text, "matmul.tir");
  ASSERT_TRUE(plain.ok()) << plain.message();
  std::mt19937_64 rng(29);
  const int64_t M = 4 * 128, N = 2 * 128, K = 32;
  Memory mem;
  mem.buffers = {smallIntHalves(size_t(M * K), rng), smallIntHalves(size_t(K * N), rng),
                 std::vector<uint8_t>(size_t(M * N * 4), 0xab)};
  std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2),
                                ArgValue::integer(K), ArgValue::integer(K), ArgValue::integer(N),
                                ArgValue::integer(N)};
  const Grid grid{M / 128, N / 128};
  Memory want = mem;
  ASSERT_TRUE(interpret(*plain, "matmul", args, want, grid).ok());
  for (int groupM : {2, 3}) {
    SCOPED_TRACE("groups of " + std::to_string(groupM));
    std::string grouped = linlayout::testing::groupProgramsText(text, groupM);
    ASSERT_NE(grouped.find("%grp_pid"), std::string::npos);
    auto m = parseModule(grouped, "matmul_grouped.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
    Memory got = mem;
    ASSERT_TRUE(interpret(*m, "matmul", args, got, grid).ok());
    EXPECT_EQ(got.buffers[2], want.buffers[2]);
  }
  // Every tile was written (no 0xab left), so equal outputs mean the same tiles.
  for (size_t i = 0; i < want.buffers[2].size(); i += 4)
    ASSERT_FALSE(want.buffers[2][i] == 0xab && want.buffers[2][i + 1] == 0xab &&
                 want.buffers[2][i + 2] == 0xab && want.buffers[2][i + 3] == 0xab)
        << "float " << i / 4 << " of C was not written";
}

// examples/matmul_wide_persistent.tir and matmul_wide_flat.tir: 4 programs walk the 3 x 2 tiles
// of 128 x 256 (two tiles for programs 0 and 1, one for the others) and write what
// matmul_wide.tir's 3 x 2 grid writes, as written and with their K loop (the flat kernel's only
// loop, whose body stores each finished tile in a branch) pipelined (3 stages) and prefetched,
// also with K steps of 64 in four slices (the benchmark's reshape), for K = 0 (C is zero), one
// step and several.
TEST(Prefetch, PersistentMatmulsWriteWhatTheGridWrites) {
  auto grid = parseModule(readFile(examplePath("matmul_wide.tir")), "matmul_wide.tir");
  ASSERT_TRUE(grid.ok()) << grid.message();
  for (const std::string file : {"matmul_wide_persistent.tir", "matmul_wide_flat.tir"}) {
    SCOPED_TRACE(file);
    const std::string text = readFile(examplePath(file));
    std::vector<std::pair<std::string, Module>> kernels;
    using linlayout::testing::MatmulReshape;
    for (auto r : {MatmulReshape::None, MatmulReshape::KStep64}) {
      auto plain = parseModule(linlayout::testing::reshapeMatmulText(text, r), file);
      ASSERT_TRUE(plain.ok()) << plain.message();
      ASSERT_TRUE(verify(*plain).ok()) << verify(*plain).message();
      Module piped = *plain;
      ASSERT_TRUE(pipelineLoops(piped, 3).ok());
      ASSERT_TRUE(prefetchDotOperands(piped, 16).ok());
      ASSERT_TRUE(verify(piped).ok()) << verify(piped).message();
      // The K loop is the one pipelined and prefetched.
      EXPECT_EQ(count(piped.functions[0].body, OpKind::AsyncCopyGlobalToLocal), 2 * 3);
      EXPECT_EQ(count(piped.functions[0].body, OpKind::Load), 0);
      EXPECT_GT(count(piped.functions[0].body, OpKind::MemDescSubslice), 0);
      const bool k64 = r == MatmulReshape::KStep64;
      if (!k64)
        kernels.emplace_back("as written", std::move(*plain));
      kernels.emplace_back(k64 ? "K steps of 64, pipelined" : "pipelined", std::move(piped));
    }
    std::mt19937_64 rng(31);
    const int64_t M = 3 * 128, N = 2 * 256;
    for (int64_t K : {0, 64, 192}) {
      SCOPED_TRACE("K " + std::to_string(K));
      Memory mem;
      mem.buffers = {smallIntHalves(size_t(M * K), rng), smallIntHalves(size_t(K * N), rng),
                     std::vector<uint8_t>(size_t(M * N * 4), 0xab)};
      std::vector<ArgValue> args = {
          ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2), ArgValue::integer(K),
          ArgValue::integer(K), ArgValue::integer(N), ArgValue::integer(N)};
      Memory want = mem;
      ASSERT_TRUE(interpret(*grid, "matmul", args, want, Grid{M / 128, N / 256}).ok());
      args.push_back(ArgValue::integer(M));
      args.push_back(ArgValue::integer(N));
      for (const auto &[what, m] : kernels) {
        SCOPED_TRACE(what);
        Memory got = mem;
        Status s = interpret(m, "matmul", args, got, Grid{4});
        ASSERT_TRUE(s.ok()) << s.message();
        EXPECT_EQ(got.buffers[2], want.buffers[2]);
      }
    }
  }
}

// matmul.tir pipelined (3 stages), then a branch put into its loop's body before the prefetch
// pass: a branch on the side is kept and the loop prefetched, one that reads the dot's result
// moves with the last slice's dot behind the next iteration's wait; one that reads a dot
// operand's slot or the operand itself leaves the loop as it is. C is the same in every case.
TEST(Prefetch, BranchesInTheBodyStayUnlessTheyReadTheOperands) {
  Module piped = loadExample("matmul.tir");
  ASSERT_TRUE(pipelineLoops(piped, 3).ok());
  const std::string text = print(piped);
  // The pipelined body's A operand: "%ad = ttg.local_load %SLOT : MEMDESC -> TENSOR".
  const std::string head = "      %ad = ttg.local_load ";
  size_t at = text.find(head);
  ASSERT_NE(at, std::string::npos) << text;
  const std::string load = text.substr(at + head.size(), text.find('\n', at) - at - head.size());
  const std::string slot = load.substr(0, load.find(' '));
  const std::string tensorType = load.substr(load.find("-> ") + 3);
  const std::string go = "      %go = arith.cmpi sgt, %K, %c0 : i32\n";
  struct Case {
    std::string what, branch;
    bool prefetched;
    bool yieldsBranch = false; // the loop carries the branch's result instead of the dot's
  };
  const std::string accType = "tensor<128x128xf32, #mma>";
  for (const Case &c : std::vector<Case>{
           {"a branch on the side", go + "      scf.if %go {\n      }\n", true},
           {"a branch reading A's slot",
            go + "      scf.if %go {\n        %again = ttg.local_load " + load + "\n      }\n",
            false},
           {"a branch reading A's operand",
            go + "      %keep = scf.if %go -> (" + tensorType +
                ") {\n        scf.yield %ad : " + tensorType +
                "\n      } else {\n        scf.yield %ad : " + tensorType + "\n      }\n",
            false},
           {"a branch reading the dot's result (moved behind the wait with the last dot)",
            go + "      %kept = scf.if %go -> (" + accType + ") {\n        scf.yield %next : " +
                accType + "\n      } else {\n        scf.yield %accv : " + accType + "\n      }\n",
            true, true}}) {
    SCOPED_TRACE(c.what);
    std::string withBranch = text;
    size_t yield = withBranch.find("      scf.yield", at);
    ASSERT_NE(yield, std::string::npos);
    withBranch.insert(yield, c.branch);
    if (c.yieldsBranch) {
      size_t carried = withBranch.find("scf.yield %next, ", yield);
      ASSERT_NE(carried, std::string::npos);
      withBranch.replace(carried, 17, "scf.yield %kept, ");
    }
    auto plain = parseModule(withBranch, "matmul_branch.tir");
    ASSERT_TRUE(plain.ok()) << plain.message() << "\n" << withBranch;
    ASSERT_TRUE(verify(*plain).ok()) << verify(*plain).message() << "\n" << slot;
    Module pre = *plain;
    ASSERT_TRUE(prefetchDotOperands(pre, 16).ok());
    ASSERT_TRUE(verify(pre).ok()) << verify(pre).message();
    EXPECT_EQ(count(pre.functions[0].body, OpKind::MemDescSubslice) > 0, c.prefetched);
    if (c.yieldsBranch) {
      // In the loop: the wait, then the last slice's dot, then the branch.
      const std::string out = print(pre);
      size_t loop = out.find("scf.for");
      size_t wait = out.find("ttg.async_wait", loop), dot = out.find("%next = tt.dot", loop),
             branch = out.find("%kept = scf.if", loop);
      EXPECT_LT(wait, dot);
      EXPECT_LT(dot, branch);
      EXPECT_NE(branch, std::string::npos);
    }
    std::mt19937_64 rng(17);
    for (int64_t K : {0, 32, 96}) {
      SCOPED_TRACE("K " + std::to_string(K));
      Memory mem;
      mem.buffers = {smallIntHalves(size_t(128 * K), rng), smallIntHalves(size_t(K * 128), rng),
                     std::vector<uint8_t>(size_t(128 * 128 * 4), 0xab)};
      std::vector<ArgValue> args = {
          ArgValue::pointer(0), ArgValue::pointer(1),   ArgValue::pointer(2),  ArgValue::integer(K),
          ArgValue::integer(K), ArgValue::integer(128), ArgValue::integer(128)};
      EXPECT_EQ(run(pre, args, mem).buffers[2], run(*plain, args, mem).buffers[2]);
    }
  }
}
