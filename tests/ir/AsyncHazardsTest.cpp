// The interpreter's check of asynchronous shared-memory accesses (Interpreter.h, "Asynchronous
// accesses"). Copies land at once in the interpreter, so without the check a kernel that reads a
// tile before waiting for its copy computes the right numbers there and races on the GPU. Here:
// a cp.async copy built with the Builder under each protocol of waits and commits; and the
// pipelined examples, which run clean, while every way of breaking their schedules (a wait
// dropped or loosened by one, a commit dropped, a fence dropped) is reported, naming the op the
// access races with.
#include "Examples.h"
#include "TritonDumps.h"

#include "linlayout/ir/Builder.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

#include <functional>
#include <random>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

// The values the protocol of copyThroughShared works with.
struct CopyKernel {
  ValueId tile;    // the shared tile
  ValueId srcPtrs; // the source tile's pointers
};
using Protocol = std::function<void(Builder &, const CopyKernel &)>;

// A 32x32 f16 copy through shared memory, built with the Builder: cp.async from %src into a tile,
// `protocol` (commits and waits), local_load, store to %dst, `beforeDealloc`, local_dealloc.
Module copyThroughShared(const Protocol &protocol, const Protocol &beforeDealloc = {}) {
  Module m;
  Builder b(m);
  BlockedSpec blocked = BlockedSpec::make({1, 8}, {8, 4}, {4, 1}, {1, 0}).value();
  LayoutId bl = b.layout(blocked);
  LayoutId sw = b.layout(SwizzledSharedSpec::make(8, 1, 4, {1, 0}).value());
  std::vector<Type> args = {Type::pointer(ScalarKind::F16), Type::pointer(ScalarKind::F16)};
  std::vector<ArgHints> hints = {{16, 1, 1}, {16, 1, 1}};
  b.beginFunction("copy", args, hints);
  ValueId offs = tileOffsets(b, blocked, 32, 32);
  CopyKernel k;
  k.tile = b.localAlloc(Type::memDesc({32, 32}, ScalarKind::F16, sw, true));
  k.srcPtrs = b.addPtr(b.splat(b.arg(0), {32, 32}, bl), offs);
  b.asyncCopy(k.srcPtrs, k.tile);
  protocol(b, k);
  ValueId v = b.localLoad(k.tile, bl);
  b.store(b.addPtr(b.splat(b.arg(1), {32, 32}, bl), offs), v);
  if (beforeDealloc)
    beforeDealloc(b, k);
  b.localDealloc(k.tile);
  b.ret();
  Status s = b.endFunction();
  EXPECT_TRUE(s.ok()) << s.message();
  return m;
}

void commitAndWait(Builder &b, const CopyKernel &) {
  b.asyncCommitGroup();
  b.asyncWait(0);
}

// Runs copyThroughShared's kernel on 1024 halves; the status, and whether dst got src.
Status runCopy(const Module &m, bool *copied = nullptr) {
  if (Status v = verify(m); !v.ok())
    return v;
  std::mt19937_64 rng(3);
  Memory mem;
  mem.buffers = {randomHalves(1024, rng), std::vector<uint8_t>(2048, 0)};
  std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1)};
  Status s = interpret(m, "copy", args, mem);
  if (copied)
    *copied = mem.buffers[1] == mem.buffers[0];
  return s;
}

void expectError(const Status &s, const std::string &part) {
  ASSERT_FALSE(s.ok()) << "no error; wanted one with: " << part;
  EXPECT_NE(s.message().find(part), std::string::npos) << s.message();
}

// `text` with its line `line` (0-based) replaced by `with` ("" removes it).
// Where line `line` (0-based) of `text` starts and ends (its newline, or the end of the text).
std::pair<size_t, size_t> lineSpan(const std::string &text, size_t line) {
  size_t start = 0;
  for (size_t i = 0; i < line; ++i)
    start = text.find('\n', start) + 1;
  size_t end = text.find('\n', start);
  return {start, end == std::string::npos ? text.size() : end};
}

std::string withLine(const std::string &text, size_t line, const std::string &with) {
  auto [start, end] = lineSpan(text, line);
  return text.substr(0, start) + with + text.substr(end);
}

// The 0-based numbers of the lines of `text` that hold `part`.
std::vector<size_t> linesWith(const std::string &text, const std::string &part) {
  std::vector<size_t> out;
  size_t line = 0, start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos)
      end = text.size();
    if (text.substr(start, end - start).find(part) != std::string::npos)
      out.push_back(line);
    start = end + 1;
    ++line;
  }
  return out;
}

std::string lineOf(const std::string &text, size_t line) {
  auto [start, end] = lineSpan(text, line);
  return text.substr(start, end - start);
}

// A kernel to run on its inputs: parses, verifies and interprets `text` with every check on.
using Runner = std::function<Status(const std::string &text)>;

// `text`, an edit of `file`, run on the inputs that `runs` give `file`.
Status runEdited(const std::vector<ExampleRun> &runs, const std::string &file,
                 const std::string &text, bool checkProxyFences) {
  auto m = parseModule(text, file);
  if (!m.ok())
    return Status(m.error());
  for (const ExampleRun &run : runs)
    if (run.file == file) {
      Memory mem;
      std::vector<ArgValue> args;
      run.setup(mem, args);
      InterpreterOptions o;
      o.checkProxyFences = checkProxyFences;
      return interpret(*m, run.function, args, mem, run.grid, o);
    }
  return Status(makeError("no inputs for " + file));
}

Runner exampleRunner(const std::string &file) {
  return [file](const std::string &text) { return runEdited(exampleRuns(), file, text, true); };
}

// matmul_wgmma.tir on a 128x128 tile with K = 192 (the inputs of SoftwarePipelineTest).
Status runWgmma(const std::string &text) {
  auto m = parseModule(text, "matmul_wgmma.tir");
  if (!m.ok())
    return Status(m.error());
  std::mt19937_64 rng(5);
  const int64_t K = 192;
  Memory mem;
  mem.buffers = {randomHalves(size_t(128 * K), rng), randomHalves(size_t(K * 128), rng),
                 std::vector<uint8_t>(128 * 128 * 4, 0)};
  std::vector<ArgValue> args = {ArgValue::pointer(0),  ArgValue::pointer(1), ArgValue::pointer(2),
                                ArgValue::integer(K),  ArgValue::integer(K), ArgValue::integer(128),
                                ArgValue::integer(128)};
  InterpreterOptions o;
  o.checkProxyFences = true;
  return interpret(*m, "matmul_wgmma", args, mem, Grid{}, o);
}

// The number in `line` after `key` (as in "{num = 2 : i32}").
int64_t numberAfter(const std::string &line, const std::string &key) {
  size_t at = line.find(key);
  return at == std::string::npos ? -1 : std::stoll(line.substr(at + key.size()));
}

std::string withNumber(const std::string &line, const std::string &key, int64_t value) {
  size_t at = line.find(key) + key.size();
  size_t end = line.find_first_not_of("0123456789", at);
  return line.substr(0, at) + std::to_string(value) + line.substr(end);
}

// The async_waits of `text` are as loose as the schedule allows: it runs clean, and with any one
// wait's count raised by one, or the wait or any commit removed, a copy is still landing where
// the kernel reads it (or frees it). The one exception is the drain before the rings are freed
// (the wait right before a local_dealloc): where the loop body ends with a wait {num = 0} after
// its last commit, nothing is left in flight for it, and only then may it go.
void expectTightWaits(const std::string &text, const Runner &run) {
  Status clean = run(text);
  ASSERT_TRUE(clean.ok()) << clean.message() << "\n" << text;
  std::vector<size_t> waits = linesWith(text, "ttg.async_wait ");
  ASSERT_FALSE(waits.empty()) << text;
  // The loop body's ops are the lines indented by 6.
  size_t lastCommit = 0, lastWait = 0;
  for (size_t c : linesWith(text, "      ttg.async_commit_group"))
    lastCommit = c;
  for (size_t w : linesWith(text, "      ttg.async_wait {num = 0 "))
    lastWait = w;
  bool loopRetiresAll = lastWait > lastCommit;
  for (size_t w : waits) {
    std::string line = lineOf(text, w);
    SCOPED_TRACE(line);
    int64_t num = numberAfter(line, "num = ");
    bool drain = lineOf(text, w + 1).find("ttg.local_dealloc") != std::string::npos;
    std::string loosened = withLine(text, w, withNumber(line, "num = ", num + 1));
    std::string removed = withLine(text, w, "");
    if (drain && loopRetiresAll) {
      EXPECT_TRUE(run(loosened).ok());
      EXPECT_TRUE(run(removed).ok());
      continue;
    }
    expectError(run(loosened), "may still be writing");
    expectError(run(removed), "may still be writing");
  }
  for (size_t c : linesWith(text, "ttg.async_commit_group")) {
    SCOPED_TRACE("commit at line " + std::to_string(c + 1));
    expectError(run(withLine(text, c, "")), "may still be writing");
  }
}

// Every warp_group_dot_wait of `text` that leaves dots in flight leaves no more than it may: with
// its `pendings` raised by one, `run` reports an error holding `part`. False when `text` has no
// such wait.
bool expectDotWaitsTight(const std::string &text, const Runner &run, const std::string &part) {
  bool found = false;
  for (size_t w : linesWith(text, "ttng.warp_group_dot_wait ")) {
    std::string line = lineOf(text, w);
    int64_t pendings = numberAfter(line, "pendings = ");
    if (pendings < 1)
      continue;
    found = true;
    expectError(run(withLine(text, w, withNumber(line, "pendings = ", pendings + 1))), part);
  }
  return found;
}

// `text`, an edit of the Triton dump `file` (examples/triton/), run on that dump's inputs.
Status runDumpText(const std::string &file, const std::string &text, bool checkProxyFences) {
  return runEdited(tritonDumpRuns(), file, text, checkProxyFences);
}

} // namespace

TEST(AsyncHazards, CopiesLandWhenAWaitRetiresTheirGroup) {
  bool copied = false;
  Status ok = runCopy(copyThroughShared(commitAndWait), &copied);
  ASSERT_TRUE(ok.ok()) << ok.message();
  EXPECT_TRUE(copied);
  // No wait at all, a wait that leaves the one group in flight, a wait with nothing committed.
  expectError(
      runCopy(copyThroughShared([](Builder &b, const CopyKernel &) { b.asyncCommitGroup(); })),
      "'ttg.local_load' in program (0, 0, 0): reads shared memory that the "
      "ttg.async_copy_global_to_local may still be writing: no ttg.async_wait since has "
      "retired its commit group");
  expectError(runCopy(copyThroughShared([](Builder &b, const CopyKernel &) {
                b.asyncCommitGroup();
                b.asyncWait(1);
              })),
              "no ttg.async_wait since has retired its commit group");
  // (docs/ir.md quotes this message.)
  expectError(runCopy(copyThroughShared([](Builder &b, const CopyKernel &) { b.asyncWait(0); })),
              "'ttg.local_load' in program (0, 0, 0): reads shared memory that the "
              "ttg.async_copy_global_to_local may still be writing: it is in no commit group yet "
              "(ttg.async_commit_group), so no ttg.async_wait retires it");
  // A second group committed after the copy's: wait {num = 1} retires the older one only.
  Status older = runCopy(copyThroughShared([](Builder &b, const CopyKernel &) {
    b.asyncCommitGroup();
    b.asyncCommitGroup();
    b.asyncWait(1);
  }));
  EXPECT_TRUE(older.ok()) << older.message();
}

TEST(AsyncHazards, WritingOrFreeingATileACopyMayStillWriteIsAnError) {
  // A second copy, or a store, into the tile while the first copy may still land.
  expectError(runCopy(copyThroughShared([](Builder &b, const CopyKernel &k) {
                b.asyncCommitGroup();
                b.asyncCopy(k.srcPtrs, k.tile);
                b.asyncCommitGroup();
                b.asyncWait(0);
              })),
              "'ttg.async_copy_global_to_local' in program (0, 0, 0): writes shared memory that "
              "the ttg.async_copy_global_to_local may still be writing");
  expectError(runCopy(copyThroughShared([](Builder &b, const CopyKernel &k) {
                b.asyncCommitGroup();
                b.localStore(b.localLoad(k.tile, b.type(k.srcPtrs).layout()), k.tile);
              })),
              "reads shared memory that the ttg.async_copy_global_to_local may still be writing");
  // Freed while a later copy into it is in flight.
  expectError(runCopy(copyThroughShared(commitAndWait,
                                        [](Builder &b, const CopyKernel &k) {
                                          b.asyncCopy(k.srcPtrs, k.tile);
                                          b.asyncCommitGroup();
                                        })),
              "'ttg.local_dealloc' in program (0, 0, 0): deallocates shared memory that the "
              "ttg.async_copy_global_to_local may still be writing");
  // Waited for, the same copy is fine.
  Status ok = runCopy(copyThroughShared(commitAndWait, [](Builder &b, const CopyKernel &k) {
    b.asyncCopy(k.srcPtrs, k.tile);
    commitAndWait(b, k);
  }));
  EXPECT_TRUE(ok.ok()) << ok.message();
}

// The software pipeliner's cp.async schedules (mma.sync matmuls, attention) at 2 and 3 stages.
TEST(AsyncHazards, PipelinedCopiesAreWaitedForExactlyInTime) {
  for (const char *file : {"matmul.tir", "attention.tir", "attention_causal.tir"}) {
    for (int stages : {2, 3}) {
      SCOPED_TRACE(std::string(file) + ", " + std::to_string(stages) + " stages");
      Module m = loadExample(file);
      PipelineOptions o;
      o.numStages = stages;
      ASSERT_TRUE(runPipeline(m, o).ok());
      expectTightWaits(print(m), exampleRunner(file));
    }
  }
}

// The pipelined wgmma matmul: its cp.async waits are tight; the wgmma that stays in flight across
// iterations is retired before its slot is refilled (one more pending dot overwrites a slot a dot
// reads); the fence between the copies and the dot is needed.
TEST(AsyncHazards, PipelinedWgmmaRetiresDotsBeforeRefillingTheirSlots) {
  Module m = loadExample("matmul_wgmma.tir");
  PipelineOptions o;
  o.numStages = 3;
  ASSERT_TRUE(runPipeline(m, o).ok());
  std::string text = print(m);
  expectTightWaits(text, runWgmma);
  EXPECT_TRUE(expectDotWaitsTight(
      text, runWgmma, "may still be reading: no ttng.warp_group_dot_wait since has retired it"))
      << text;
  std::vector<size_t> fences = linesWith(text, "ttng.fence_async_shared");
  ASSERT_EQ(fences.size(), 1u) << text;
  expectError(runWgmma(withLine(text, fences[0], "")),
              "the async proxy reads shared memory that the ttg.async_copy_global_to_local at");
}

// examples/matmul_tma.tir as written (TMA copies into a 3-slot ring completing on mbarriers, one
// wgmma left in flight across iterations) runs clean; without its wait_barrier the wgmma reads a
// slot its copy may still be writing, and with one more dot left in flight the refill overwrites
// a slot that dot may still read.
TEST(AsyncHazards, TmaMatmulWaitsForItsCopiesAndRetiresItsDots) {
  const std::string text = readFile(examplePath("matmul_tma.tir"));
  auto run = [](const std::string &t) -> Status {
    auto m = parseModule(t, "matmul_tma.tir");
    if (!m.ok())
      return Status(m.error());
    const int64_t M = 128, N = 128, K = 384; // 6 K steps: slots are refilled in flight
    std::mt19937_64 rng(9);
    Memory mem;
    mem.buffers = {randomHalves(size_t(M * K), rng), randomHalves(size_t(K * N), rng),
                   std::vector<uint8_t>(size_t(M * N * 4), 0)};
    std::vector<ArgValue> args = {ArgValue::tensorDesc(0, {M, K}, {K, 1}),
                                  ArgValue::tensorDesc(1, {K, N}, {N, 1}), ArgValue::pointer(2),
                                  ArgValue::integer(K), ArgValue::integer(N)};
    InterpreterOptions o;
    o.checkProxyFences = true;
    return interpret(*m, "matmul_tma", args, mem, Grid{}, o);
  };
  Status clean = run(text);
  ASSERT_TRUE(clean.ok()) << clean.message();
  std::vector<size_t> waits = linesWith(text, "ttng.wait_barrier ");
  ASSERT_EQ(waits.size(), 1u);
  expectError(run(withLine(text, waits[0], "")),
              "may still be writing: no ttng.wait_barrier since has seen the barrier phase its "
              "bytes count in complete");
  EXPECT_TRUE(
      expectDotWaitsTight(text, run, "overwrites shared memory that the ttng.warp_group_dot at"));
}

// Triton's TMA matmul stores C by TMA from a shared tile (examples/triton/matmul_tma.ttgir): the
// store reads the tile until its store wait, and reads it through the async proxy, after the
// fence that makes the threads' writes visible. Without the wait, freeing or rewriting the tile
// is reported; so is a store of an unfenced tile.
TEST(AsyncHazards, TmaStoresReadTheirTileUntilTheirWait) {
  const std::string file = "triton/matmul_tma.ttgir";
  const std::string text = readFile(examplePath(file));
  auto run = [&](const std::string &t) { return runDumpText(file, t, /*checkProxyFences=*/true); };
  Status clean = run(text);
  ASSERT_TRUE(clean.ok()) << clean.message();
  std::vector<size_t> waits = linesWith(text, "ttng.async_tma_store_wait ");
  std::vector<size_t> stores = linesWith(text, "ttng.async_tma_copy_local_to_global ");
  std::vector<size_t> fences = linesWith(text, "ttng.fence_async_shared ");
  ASSERT_EQ(waits.size(), 1u);
  ASSERT_EQ(stores.size(), 1u);
  ASSERT_EQ(fences.size(), 1u);
  // The tile is freed after the store (as the lowering's allocator may reuse it).
  std::string freed = withLine(text, waits[0],
                               "    ttg.local_dealloc %1 : !ttg.memdesc<128x128xf16, #shared, "
                               "#smem>");
  expectError(run(freed), "deallocates shared memory that the ttng.async_tma_copy_local_to_global");
  std::string waitedThenFreed =
      withLine(text, waits[0],
               "    ttng.async_tma_store_wait {pendings = 0 : i32}\n    ttg.local_dealloc %1 : "
               "!ttg.memdesc<128x128xf16, #shared, #smem>");
  EXPECT_TRUE(run(waitedThenFreed).ok()) << run(waitedThenFreed).message();
  expectError(run(withLine(text, fences[0], "")),
              "the async proxy reads shared memory that the ttg.local_alloc at");
  // The fence-insertion pass puts the dropped fence back.
  auto unfenced = parseModule(withLine(text, fences[0], ""), file);
  ASSERT_TRUE(unfenced.ok()) << unfenced.message();
  ASSERT_TRUE(runPipeline(*unfenced).ok());
  Status refenced = run(print(*unfenced));
  EXPECT_TRUE(refenced.ok()) << refenced.message();
}

// `ll.slot_free` on a cp.async says no thread read its tile since the last CTA barrier, so the
// lowering puts no bar.sync before it. The pipeliner's copies say so (and every interpreted
// pipelined kernel holds them to it); Triton's schedule, which refills the slot it has just read,
// must not: marked so, the interpreter names the read.
TEST(AsyncHazards, SlotFreeCopiesFollowABarrierAfterTheSlotsLastRead) {
  const std::string file = "triton/matmul_mma_sync.ttgir";
  std::string text = readFile(examplePath(file));
  auto run = [&](const std::string &t) { return runDumpText(file, t, /*checkProxyFences=*/false); };
  ASSERT_TRUE(run(text).ok());
  // The loop's copy of A (the first copy inside the loop) claims its slot is free.
  size_t loop = text.find("scf.for");
  size_t copy =
      text.find("{contiguity = 8 : i32}", text.find("ttg.async_copy_global_to_local", loop));
  ASSERT_NE(copy, std::string::npos);
  text.replace(copy, 22, "{ll.slot_free = true}");
  expectError(run(text), "is marked ll.slot_free, but the ttg.local_load at");
}
