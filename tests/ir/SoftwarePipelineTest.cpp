// The pipeline pass keeps what kernels compute: the interpreter runs each
// matmul before and after it, for several stage counts and K (0, shorter than
// the prologue, not a multiple of the stages), and the outputs agree bit for
// bit.
#include "Examples.h"

#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/SoftwarePipeline.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/ir/Walk.h"
#include "linlayout/layout/BankConflicts.h"

#include <gtest/gtest.h>

#include <random>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

int count(const Module &m, OpKind k) {
  int n = 0;
  walkOps(m.functions[0].body, [&](const Op &op) { n += op.kind == k; });
  return n;
}

// The first case of the pass's golden file: a 32x32 matmul with a row mask and
// the A address recomputed from k.
std::string maskedMatmul() {
  std::string text =
      readFile(std::string(LINLAYOUT_SOURCE_DIR) + "/tests/ir/passes/software-pipeline.tir");
  return text.substr(0, text.find("// -----"));
}

Memory run(const Module &m, const std::string &fn, std::vector<ArgValue> args, Memory mem,
           InterpreterOptions options = {}) {
  Status s = interpret(m, fn, args, mem, Grid{}, options);
  EXPECT_TRUE(s.ok()) << s.message();
  return mem;
}

// A 128 x tileN matmul example (A 128 x K, B K x tileN, f16 row-major, C f32) with random
// inputs: the pipelined module `piped` writes the same C as `plain`. `pipedIsFenced`: piped has
// been through fence insertion, and the interpreter holds it to the proxy fence rule.
void expectSameMatmul(const Module &plain, const Module &piped, const std::string &fn, int64_t K,
                      int64_t tileN, std::mt19937_64 &rng, bool pipedIsFenced = false) {
  Memory mem;
  // B: K x tileN, or (an NT example) tileN rows of stride tileN from which K columns are read.
  mem.buffers = {randomHalves(size_t(128 * K), rng),
                 randomHalves(size_t(K * tileN + tileN * tileN), rng),
                 std::vector<uint8_t>(size_t(128 * tileN * 4), 0xab)};
  std::vector<ArgValue> args = {
      ArgValue::pointer(0), ArgValue::pointer(1),     ArgValue::pointer(2),    ArgValue::integer(K),
      ArgValue::integer(K), ArgValue::integer(tileN), ArgValue::integer(tileN)};
  Memory want = run(plain, fn, args, mem);
  InterpreterOptions fenced;
  fenced.checkProxyFences = pipedIsFenced;
  Memory got = run(piped, fn, args, mem, fenced);
  EXPECT_EQ(got.buffers[2], want.buffers[2]);
}

// `text` parsed and verified, and a copy pipelined with `stages` and verified again; empty
// modules (and a test failure) on any error.
std::pair<Module, Module> parseAndPipeline(const std::string &text, const std::string &name,
                                           int stages) {
  auto plain = parseModule(text, name);
  EXPECT_TRUE(plain.ok()) << plain.message();
  if (!plain.ok() || !verify(*plain).ok()) {
    ADD_FAILURE() << (plain.ok() ? verify(*plain).message() : std::string("parse error"));
    return {};
  }
  Module piped = *plain;
  Status s = pipelineLoops(piped, stages);
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(verify(piped).ok()) << verify(piped).message();
  return {std::move(*plain), std::move(piped)};
}

} // namespace

TEST(SoftwarePipeline, MatmulExamplesComputeTheSameForEveryStageCountAndK) {
  for (auto [file, tileN] :
       {std::pair<std::string, int64_t>{"matmul.tir", 128}, {"matmul_wide.tir", 256}}) {
    SCOPED_TRACE(file);
    Module plain = loadExample(file);
    ASSERT_TRUE(verify(plain).ok());
    std::mt19937_64 rng(7);
    for (int stages : {2, 3, 4}) {
      Module piped = plain;
      ASSERT_TRUE(pipelineLoops(piped, stages).ok());
      ASSERT_TRUE(verify(piped).ok()) << verify(piped).message() << "\n" << print(piped);
      EXPECT_EQ(count(piped, OpKind::Load), 0);
      EXPECT_EQ(count(piped, OpKind::AsyncCommitGroup), stages);
      EXPECT_EQ(count(piped, OpKind::AsyncCopyGlobalToLocal), 2 * stages);
      for (int64_t K : {0, 32, 64, 96, 160}) {
        SCOPED_TRACE("stages " + std::to_string(stages) + ", K " + std::to_string(K));
        expectSameMatmul(plain, piped, "matmul", K, tileN, rng);
      }
    }
  }
}

// An i8 matmul's rings: 16-byte copies (16 elements) into swizzled tiles from which the dot
// operands (kWidth 4; ldmatrix for A, byte loads for B) read without bank conflicts, and C the
// same as unpipelined.
TEST(SoftwarePipeline, I8MatmulRingsTakeSixteenByteCopiesWithoutBankConflicts) {
  Module plain = loadExample("matmul_i8.tir");
  Module piped = plain;
  ASSERT_TRUE(pipelineLoops(piped, 3).ok());
  ASSERT_TRUE(verify(piped).ok()) << verify(piped).message();
  const Function &f = piped.functions[0];
  int loads = 0;
  walkOps(f.body, [&](const Op &op) {
    if (op.kind == OpKind::AsyncCopyGlobalToLocal) {
      EXPECT_EQ(op.attrs.vectorWidth, 16);
    }
    if (op.kind != OpKind::LocalLoad)
      return;
    const Type &tile = f.type(op.operands[0]), &to = f.type(op.results[0]);
    const auto *sw = piped.layouts.get(tile.layout()).as<SwizzledSharedSpec>();
    ASSERT_NE(sw, nullptr);
    EXPECT_EQ(sw->vec(), 16);
    EXPECT_GT(sw->maxPhase(), 1);
    auto shared = toLinearLayout(piped.layouts.get(tile.layout()), tile.shape());
    auto reg = toLinearLayout(piped.layouts.get(to.layout()), to.shape());
    ASSERT_TRUE(shared.ok() && reg.ok());
    auto conflicts = bankConflicts(*reg, *shared, 8);
    ASSERT_TRUE(conflicts.ok()) << conflicts.message();
    EXPECT_EQ(*conflicts, 0) << print(piped);
    ++loads;
  });
  EXPECT_EQ(loads, 2);
  Memory mem;
  mem.buffers = {randomBytes(128 * 192, 70), randomBytes(192 * 128, 71),
                 std::vector<uint8_t>(128 * 128 * 4, 0xab)};
  std::vector<ArgValue> args = {
      ArgValue::pointer(0),   ArgValue::pointer(1),   ArgValue::pointer(2),  ArgValue::integer(192),
      ArgValue::integer(192), ArgValue::integer(128), ArgValue::integer(128)};
  EXPECT_EQ(run(piped, "matmul_i8", args, mem).buffers[2],
            run(plain, "matmul_i8", args, mem).buffers[2]);
}

// matmul.tir with its loop and the store of C inside an scf.if (taken when K > 0): the loop in
// the branch is pipelined as at the top level, and C is the same.
TEST(SoftwarePipeline, LoopsInsideBranchesArePipelined) {
  std::string text = readFile(examplePath("matmul.tir"));
  size_t loop = text.find("    %acc:3 = scf.for");
  size_t ret = text.find("    tt.return");
  ASSERT_NE(loop, std::string::npos);
  ASSERT_NE(ret, std::string::npos);
  text.insert(ret, "    }\n");
  text.insert(loop, "    %go = arith.cmpi sgt, %K, %c0 : i32\n    scf.if %go {\n");
  auto [plain, piped] = parseAndPipeline(text, "matmul_in_if.tir", 3);
  ASSERT_FALSE(plain.functions.empty());
  EXPECT_EQ(count(piped, OpKind::Load), 0);
  EXPECT_EQ(count(piped, OpKind::AsyncCopyGlobalToLocal), 6);
  std::mt19937_64 rng(5);
  for (int64_t K : {0, 32, 96})
    expectSameMatmul(plain, piped, "matmul", K, 128, rng);
}

// matmul.tir with an scf.if in its loop's body (examples/matmul_wide_flat.tir stores its tiles
// from one). A branch that neither reads a loaded tile nor joins in the copy groups stays in the
// body, and both loads get rings; one that reads a tile keeps that tile's load as it is; one that
// commits a copy group of its own leaves the loop alone. C is the same in every case.
TEST(SoftwarePipeline, BranchesInTheBodyStayUnlessTheyReadATileOrCommitCopies) {
  const std::string text = readFile(examplePath("matmul.tir"));
  struct Case {
    std::string what, branch;
    int loads, copies;
  };
  const std::string go = "      %go = arith.cmpi sgt, %K, %c0 : i32\n";
  const std::string tileType = "tensor<128x32xf16, #blocked>";
  for (const Case &c : std::vector<Case>{
           {"a branch on the side", go + "      scf.if %go {\n      }\n", 0, 6},
           {"a branch reading A's tile",
            go + "      %keep = scf.if %go -> (" + tileType + ") {\n        scf.yield %at : " +
                tileType + "\n      } else {\n        scf.yield %at : " + tileType + "\n      }\n",
            1, 3},
           {"a branch committing copies",
            go + "      scf.if %go {\n        ttg.async_commit_group\n      }\n", 2, 0}}) {
    SCOPED_TRACE(c.what);
    std::string inBody = text;
    size_t yield = inBody.find("      scf.yield");
    ASSERT_NE(yield, std::string::npos);
    inBody.insert(yield, c.branch);
    auto [plain, piped] = parseAndPipeline(inBody, "matmul_if_in_body.tir", 3);
    ASSERT_FALSE(plain.functions.empty());
    EXPECT_EQ(count(piped, OpKind::Load), c.loads);
    EXPECT_EQ(count(piped, OpKind::AsyncCopyGlobalToLocal), c.copies);
    if (c.copies == 0) {
      EXPECT_EQ(print(piped), print(plain));
    }
    std::mt19937_64 rng(5);
    for (int64_t K : {0, 32, 96})
      expectSameMatmul(plain, piped, "matmul", K, 128, rng);
  }
}

TEST(SoftwarePipeline, MaskedMatmulComputesTheSameForRandomSizes) {
  auto plain = parseModule(maskedMatmul(), "software-pipeline.tir");
  ASSERT_TRUE(plain.ok()) << plain.message();
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 24; ++trial) {
    int stages = 2 + int(rng() % 4);
    int64_t M = 1 + int64_t(rng() % 32), K = 16 * int64_t(rng() % 7);
    SCOPED_TRACE("stages " + std::to_string(stages) + ", M " + std::to_string(M) + ", K " +
                 std::to_string(K));
    Module piped = *plain;
    ASSERT_TRUE(pipelineLoops(piped, stages).ok());
    ASSERT_TRUE(verify(piped).ok()) << verify(piped).message();
    ASSERT_EQ(count(piped, OpKind::AsyncWait), 2);
    Memory mem;
    // A holds exactly M rows: a copy of a masked-off row would read past its
    // end.
    mem.buffers = {randomHalves(size_t(M * K), rng), randomHalves(size_t(K * 32), rng),
                   std::vector<uint8_t>(32 * 32 * 4, 0xcd)};
    std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2),
                                  ArgValue::integer(M), ArgValue::integer(K)};
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

// The wgmma matmuls (128x128, the 128x256 tile of two warp groups, and the NT
// one whose B tile reaches the dot through a memdesc_trans): the rings take the
// local_allocs' NVMMA layouts, the dots read the ring slots (or their
// transposes), the fence pass puts one fence in the loop between the wait and
// the dot, and the interpreter computes the same before and after.
TEST(SoftwarePipeline, WgmmaMatmulRingsTheSharedTilesAndComputesTheSame) {
  for (auto [file, tileN] : {std::pair<std::string, int64_t>{"matmul_wgmma.tir", 128},
                             {"matmul_wgmma_wide.tir", 256},
                             {"matmul_wgmma_nt.tir", 128}}) {
    SCOPED_TRACE(file);
    Module plain = loadExample(file);
    ASSERT_TRUE(verify(plain).ok());
    std::mt19937_64 rng(13);
    const std::string fn = plain.functions[0].name;
    for (int stages : {2, 3, 4}) {
      Module piped = plain;
      ASSERT_TRUE(pipelineLoops(piped, stages).ok());
      ASSERT_TRUE(verify(piped).ok()) << verify(piped).message() << "\n" << print(piped);
      EXPECT_EQ(count(piped, OpKind::Load), 0);
      EXPECT_EQ(count(piped, OpKind::LocalLoad), 0);
      EXPECT_EQ(count(piped, OpKind::LocalAlloc), 2); // the two rings
      EXPECT_EQ(count(piped, OpKind::AsyncCommitGroup), stages);
      EXPECT_EQ(count(piped, OpKind::AsyncCopyGlobalToLocal), 2 * stages);
      std::string text = print(piped);
      EXPECT_NE(text.find("!ttg.memdesc<" + std::to_string(stages) + "x128x64xf16, #"),
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
        SCOPED_TRACE("stages " + std::to_string(stages) + ", K " + std::to_string(K));
        expectSameMatmul(plain, piped, fn, K, tileN, rng, /*pipedIsFenced=*/true);
      }
    }
  }
}

// On the compile path (the whole pass pipeline) coalesce gives B's load another
// blocked layout and a convert_layout before its local_alloc; the convert folds
// into the copy (the shared tile does not depend on the register layout), so
// both operands are rung, and the kernel computes what the plain one does. The
// result is stored from the accumulator's layout (whole 32-byte sectors), so
// its convert goes away.
TEST(SoftwarePipeline, WgmmaMatmulThroughThePassPipelineRingsBothOperands) {
  Module plain = loadExample("matmul_wgmma.tir");
  Module once = plain;
  ASSERT_TRUE(runPipeline(once).ok());
  EXPECT_EQ(count(once, OpKind::ConvertLayout), 1) // B's
      << print(once);
  std::mt19937_64 rng(17);
  for (int stages : {2, 3}) {
    SCOPED_TRACE("stages " + std::to_string(stages));
    Module piped = plain;
    PipelineOptions o;
    o.numStages = stages;
    ASSERT_TRUE(runPipeline(piped, o).ok());
    ASSERT_TRUE(verify(piped).ok()) << verify(piped).message();
    EXPECT_EQ(count(piped, OpKind::Load), 0) << print(piped);
    EXPECT_EQ(count(piped, OpKind::LocalAlloc), 2) << print(piped); // the rings
    EXPECT_EQ(count(piped, OpKind::AsyncCopyGlobalToLocal), 2 * stages);
    EXPECT_EQ(count(piped, OpKind::Barrier), 1);
    EXPECT_EQ(count(piped, OpKind::ConvertLayout), count(once, OpKind::ConvertLayout) - 1);
    for (int64_t K : {0, 64, 192}) {
      SCOPED_TRACE("K " + std::to_string(K));
      expectSameMatmul(plain, piped, "matmul_wgmma", K, 128, rng, /*pipedIsFenced=*/true);
    }
  }
}

namespace {

// Replays a pipelined wgmma loop's schedule over `iters` iterations, from the
// op kinds of its body in order and the slots the pass assigns (iteration j's
// dot reads slot j % S, its copies fill slot (j + S - 1) % S, the prologue
// fills slots 0 .. S-2), with warps that run at any speed between barriers.
// Returns the first hazard, or "":
//  - a copy into a slot that a wgmma some warp may still run reads (a warp
//    that has not reached the copying thread's last barrier may still have
//    every group it had in flight there, and any dot it issued since);
//  - a dot reading a slot whose copy group is not complete in every thread
//    (an async_wait covering it, whose barrier publishes it) or holds the
//    tiles of another iteration.
std::string wgmmaScheduleHazard(const Block &body, int S, int iters) {
  const int D = S - 1;
  std::vector<int> content(size_t(S), -1); // iteration whose tiles a slot holds
  std::vector<bool> visible(size_t(S), false);
  std::vector<std::vector<int>> groups; // committed groups: the slots they fill
  std::vector<int> open;                // copies not committed yet
  size_t done = 0;                      // groups complete and published
  std::vector<int> inflight;            // this warp's wgmma groups: their slot
  std::vector<int> mayRun;              // slots some warp's wgmma may still read
  auto copy = [&](int iteration) -> std::string {
    int slot = iteration % S;
    for (int s : mayRun)
      if (s == slot)
        return "a copy of iteration " + std::to_string(iteration) + " overwrites slot " +
               std::to_string(slot) + " while a wgmma may read it";
    content[size_t(slot)] = iteration;
    visible[size_t(slot)] = false;
    open.push_back(slot);
    return "";
  };
  auto barrier = [&] { mayRun = inflight; };
  for (int s = 0; s < D; ++s) {
    if (std::string h = copy(s); !h.empty())
      return h;
    groups.push_back(open);
    open.clear();
  }
  for (int j = 0; j < iters; ++j) {
    bool copied = false;
    for (const Op &op : body.ops) {
      switch (op.kind) {
      case OpKind::AsyncWait:
        for (; done + size_t(op.attrs.num) < groups.size(); ++done)
          for (int s : groups[done])
            visible[size_t(s)] = true;
        barrier();
        break;
      case OpKind::Barrier:
        barrier();
        break;
      case OpKind::AsyncCopyGlobalToLocal:
        if (!copied) { // one copy per ring, all into the same slot
          if (std::string h = copy(j + D); !h.empty())
            return h;
          copied = true;
        }
        break;
      case OpKind::AsyncCommitGroup:
        groups.push_back(open);
        open.clear();
        break;
      case OpKind::WarpGroupDot: {
        int slot = j % S;
        if (content[size_t(slot)] != j || !visible[size_t(slot)])
          return "dot " + std::to_string(j) + " reads slot " + std::to_string(slot) +
                 " before its tiles are complete and published";
        inflight.push_back(slot);
        mayRun.push_back(slot);
        break;
      }
      case OpKind::WarpGroupDotWait:
        while (inflight.size() > size_t(op.attrs.pendings))
          inflight.erase(inflight.begin());
        break;
      default:
        break;
      }
    }
  }
  return "";
}

const Op *onlyLoop(const Module &m) {
  const Op *loop = nullptr;
  walkOps(m.functions[0].body, [&](const Op &op) {
    if (op.kind == OpKind::For)
      loop = &op;
  });
  return loop;
}

} // namespace

// The asynchronous wgmma schedule: one group stays in flight across iterations
// (pendings = 1 in the loop, 0 after it), the copies that refill the slot the
// previous dot read come after the wait and a barrier, and a replay of the
// schedule with warps at any speed finds no slot overwritten while a wgmma may
// read it and no dot reading unpublished tiles. The replay does find the hazard
// when the barrier is dropped or the copies go back before the dot.
TEST(SoftwarePipeline, WgmmaDotStaysInFlightAndNoSlotIsRefilledWhileRead) {
  Module plain = loadExample("matmul_wgmma.tir");
  for (int stages : {2, 3, 4, 5}) {
    SCOPED_TRACE("stages " + std::to_string(stages));
    Module piped = plain;
    ASSERT_TRUE(pipelineLoops(piped, stages).ok());
    ASSERT_TRUE(insertFences(piped).ok());
    ASSERT_TRUE(verify(piped).ok()) << verify(piped).message();
    const Op *loop = onlyLoop(piped);
    ASSERT_NE(loop, nullptr);
    const Block &body = loop->regions[0];
    std::vector<OpKind> order;
    for (const Op &op : body.ops)
      if (op.kind == OpKind::AsyncWait || op.kind == OpKind::FenceAsyncShared ||
          op.kind == OpKind::WarpGroupDot || op.kind == OpKind::WarpGroupDotWait ||
          op.kind == OpKind::Barrier || op.kind == OpKind::AsyncCommitGroup)
        order.push_back(op.kind);
    EXPECT_EQ(order, (std::vector<OpKind>{OpKind::AsyncWait, OpKind::FenceAsyncShared,
                                          OpKind::WarpGroupDot, OpKind::WarpGroupDotWait,
                                          OpKind::Barrier, OpKind::AsyncCommitGroup}))
        << print(piped);
    for (const Op &op : body.ops)
      if (op.kind == OpKind::WarpGroupDotWait) {
        EXPECT_EQ(op.attrs.pendings, 1);
      }
    // After the loop: a wait for every wgmma group, then the copies' wait, then
    // the frees.
    const auto &top = piped.functions[0].body.ops;
    size_t at = size_t(loop - top.data());
    ASSERT_LT(at + 2, top.size());
    EXPECT_EQ(top[at + 1].kind, OpKind::WarpGroupDotWait);
    EXPECT_EQ(top[at + 1].attrs.pendings, 0);
    EXPECT_EQ(top[at + 1].operands, std::vector<ValueId>{loop->results[0]});
    EXPECT_EQ(top[at + 2].kind, OpKind::AsyncWait);
    EXPECT_EQ(wgmmaScheduleHazard(body, stages, 12), "");

    Block noBarrier = body;
    std::erase_if(noBarrier.ops, [](const Op &op) { return op.kind == OpKind::Barrier; });
    EXPECT_NE(wgmmaScheduleHazard(noBarrier, stages, 12), "");
    // The synchronous order (copies before the dot) with the dot left in
    // flight.
    Block copiesFirst;
    for (const Op &op : body.ops)
      if (op.kind != OpKind::WarpGroupDot && op.kind != OpKind::WarpGroupDotWait &&
          op.kind != OpKind::Barrier)
        copiesFirst.ops.push_back(op);
    for (const Op &op : body.ops)
      if (op.kind == OpKind::WarpGroupDot || op.kind == OpKind::WarpGroupDotWait)
        copiesFirst.ops.insert(copiesFirst.ops.end() - 1, op);
    EXPECT_NE(wgmmaScheduleHazard(copiesFirst, stages, 12), "");
  }
}

// A dot whose accumulator something else reads stays synchronous (the schedule
// of docs/pipelining.md before async wgmma), and is still pipelined.
TEST(SoftwarePipeline, WgmmaDotWhoseResultIsReadInTheLoopStaysSynchronous) {
  std::string text = readFile(std::string(LINLAYOUT_SOURCE_DIR) + "/examples/matmul_wgmma.tir");
  // Yield the accumulator twice: the loop's second result carries it too.
  const std::string from = "scf.yield %w#0, %pa2, %pb2 :";
  ASSERT_NE(text.find(from), std::string::npos);
  text.replace(text.find(from), from.size(), "scf.yield %w#0, %pa2, %pb2, %w#0 :");
  const std::string types = "tensor<64x128x!tt.ptr<f16>, #blocked>\n    }";
  ASSERT_NE(text.find(types), std::string::npos);
  text.replace(text.find(types), types.size(),
               "tensor<64x128x!tt.ptr<f16>, #blocked>, tensor<128x128xf32, "
               "#mma>\n    }");
  const std::string head = "%acc:3 = scf.for %k = %c0 to %K step %c64 iter_args(%accv = %zero, "
                           "%pa = %aptrs, %pb = %bptrs) -> (tensor<128x128xf32, #mma>, "
                           "tensor<128x64x!tt.ptr<f16>, #blocked>, tensor<64x128x!tt.ptr<f16>, "
                           "#blocked>)";
  ASSERT_NE(text.find(head), std::string::npos);
  text.replace(text.find(head), head.size(),
               "%acc:4 = scf.for %k = %c0 to %K step %c64 iter_args(%accv = "
               "%zero, %pa = %aptrs, "
               "%pb = %bptrs, %last = %zero) -> (tensor<128x128xf32, #mma>, "
               "tensor<128x64x!tt.ptr<f16>, #blocked>, "
               "tensor<64x128x!tt.ptr<f16>, #blocked>, "
               "tensor<128x128xf32, #mma>)");
  auto [plain, piped] = parseAndPipeline(text, "matmul_wgmma.tir", 3);
  ASSERT_FALSE(plain.functions.empty());
  EXPECT_EQ(count(piped, OpKind::Load), 0);
  EXPECT_EQ(count(piped, OpKind::Barrier), 0);
  EXPECT_EQ(count(piped, OpKind::WarpGroupDotWait), 1);
  walkOps(piped.functions[0].body, [&](const Op &op) {
    if (op.kind == OpKind::WarpGroupDotWait) {
      EXPECT_EQ(op.attrs.pendings, 0);
    }
  });
}

// A loop that stores into the buffer it loads from (here every iteration writes ones into the B
// rows iteration 1 loads, so iteration 1 must see iteration 0's store): the copies would run
// ahead of the store, so the loop is left alone, and C is what the unpipelined kernel computes.
// A store into another argument's buffer (the flat persistent matmul stores C in its loop) does
// not stop the pass.
TEST(SoftwarePipeline, StoresIntoTheLoadedBufferKeepTheLoopAsItIs) {
  std::string text = readFile(examplePath("matmul.tir"));
  size_t yield = text.find("      scf.yield");
  ASSERT_NE(yield, std::string::npos);
  text.insert(yield, "      %ones = arith.constant dense<1.0> : tensor<32x128xf16, #blocked>\n"
                     "      %next_rows = tt.addptr %bptrs, %bstep : tensor<32x128x!tt.ptr<f16>, "
                     "#blocked>, tensor<32x128xi32, #blocked>\n"
                     "      tt.store %next_rows, %ones : tensor<32x128x!tt.ptr<f16>, #blocked>\n");
  auto [plain, piped] = parseAndPipeline(text, "matmul_in_place.tir", 3);
  ASSERT_FALSE(plain.functions.empty());
  EXPECT_EQ(count(piped, OpKind::AsyncCopyGlobalToLocal), 0);
  EXPECT_EQ(print(piped), print(plain));
  std::mt19937_64 rng(9);
  for (int64_t K : {64, 96})
    expectSameMatmul(plain, piped, "matmul", K, 128, rng);

  Module flat = loadExample("matmul_wide_flat.tir");
  ASSERT_TRUE(pipelineLoops(flat, 3).ok());
  EXPECT_EQ(count(flat, OpKind::AsyncCopyGlobalToLocal), 2 * 3);
}
