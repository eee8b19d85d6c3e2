// Barrier placement: the byte ranges the bookkeeping keeps (checked against a byte-by-byte
// model), and the barriers of whole kernels: a loop's conversions with scratch of their own keep
// only the barrier between their stores and loads, a conversion that reuses bytes an earlier one
// may still read keeps the one before its stores too.
#include "SharedHazards.h"
#include "Property.h"
#include "PtxCheck.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <bitset>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

TEST(SharedHazards, RangesAgreeWithAByteByByteModel) {
  constexpr int kBytes = 96;
  checkProperty([] {
    ByteRanges set;
    std::bitset<kBytes> model;
    auto range = [] {
      int64_t a = *rc::gen::inRange(0, kBytes), b = *rc::gen::inRange(0, kBytes + 1);
      return ByteRange{std::min(a, b), std::max(a, b)};
    };
    auto bytesOf = [](ByteRange r) {
      std::bitset<kBytes> m;
      for (int64_t i = r.begin; i < r.end; ++i)
        m.set(size_t(i));
      return m;
    };
    int n = *rc::gen::inRange(0, 8);
    for (int i = 0; i < n; ++i) {
      ByteRange r = range();
      set.add(r);
      model |= bytesOf(r);
      // Sorted, disjoint and not touching: one representation per set of bytes.
      const auto &rs = set.ranges();
      for (size_t k = 0; k < rs.size(); ++k) {
        RC_ASSERT(rs[k].begin < rs[k].end);
        if (k)
          RC_ASSERT(rs[k - 1].end < rs[k].begin);
      }
      std::bitset<kBytes> covered;
      for (const ByteRange &x : rs)
        covered |= bytesOf(x);
      RC_ASSERT(covered == model);
    }
    ByteRange probe = range();
    RC_ASSERT(set.overlaps(probe) == (model & bytesOf(probe)).any());
    ByteRanges other;
    other.add(probe);
    RC_ASSERT(set.covers(other) == ((bytesOf(probe) & ~model).none()));
    RC_ASSERT(set.empty() == model.none());
  });
}

TEST(SharedHazards, WritesWaitForReadsAndWritesReadsForWrites) {
  SharedHazards h;
  h.addRead({0, 128});
  h.addWrite({256, 512});
  EXPECT_TRUE(h.writeNeedsBarrier({64, 65}));
  EXPECT_TRUE(h.writeNeedsBarrier({300, 400}));
  EXPECT_FALSE(h.writeNeedsBarrier({128, 256}));
  EXPECT_FALSE(h.readNeedsBarrier({0, 128}));
  EXPECT_TRUE(h.readNeedsBarrier({500, 600}));
  EXPECT_TRUE(h.writeNeedsBarrier(ByteRange::everything()));
  h.barrier();
  EXPECT_FALSE(h.writeNeedsBarrier(ByteRange::everything()));
}

// Accesses owned by an op (each byte touched by one warp) need only a warp sync before the same
// op's next accesses to those bytes, and a barrier before anyone else's.
TEST(SharedHazards, AnOwnersOwnBytesNeedOnlyAWarpSync) {
  int a = 0, b = 0; // two ops
  SharedHazards h;
  h.addWrite({0, 256}, &a);
  h.addRead({0, 256}, &a);
  EXPECT_EQ(h.beforeWrite({0, 64}, &a), SyncNeeded::Warp);
  EXPECT_EQ(h.beforeRead({128, 192}, &a), SyncNeeded::Warp);
  EXPECT_EQ(h.beforeWrite({0, 64}, &b), SyncNeeded::Cta);
  EXPECT_EQ(h.beforeWrite({0, 64}), SyncNeeded::Cta) << "any thread";
  EXPECT_EQ(h.beforeWrite({256, 512}, &b), SyncNeeded::None);
  h.addRead({256, 512});
  EXPECT_EQ(h.beforeWrite({200, 300}, &a), SyncNeeded::Cta) << "overlaps another's bytes too";
  SharedHazards other;
  other.addRead({0, 256}, &a);
  EXPECT_TRUE(h.covers(other));
  SharedHazards stranger;
  stranger.addRead({0, 256}, &b);
  EXPECT_FALSE(h.covers(stranger)) << "the same bytes, another owner";
  SharedHazards anyThread;
  anyThread.addRead({0, 256});
  EXPECT_TRUE(anyThread.covers(stranger)) << "an access by any thread asks more of later ones";
  EXPECT_FALSE(stranger.covers(anyThread));
}

namespace {

// A 128x64 f32 tile in #src (loaded), converted as `body` says, stored from #src.
std::string roundTripKernel(const std::string &body, const std::string &dst) {
  return R"(
#src = #ttg.blocked<{sizePerThread = [8, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#dst = )" +
         dst + R"(
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @round_trip(%in: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f32> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #src}>>
    %rows = tt.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #ttg.slice<{dim = 1, parent = #src}>> -> tensor<128x1xi32, #src>
    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #src}>>
    %cols = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, parent = #src}>> -> tensor<1x64xi32, #src>
    %c64 = arith.constant dense<64> : tensor<128x1xi32, #src>
    %rows64 = arith.muli %rows, %c64 : tensor<128x1xi32, #src>
    %rowsb = tt.broadcast %rows64 : tensor<128x1xi32, #src> -> tensor<128x64xi32, #src>
    %colsb = tt.broadcast %cols : tensor<1x64xi32, #src> -> tensor<128x64xi32, #src>
    %offs = arith.addi %rowsb, %colsb : tensor<128x64xi32, #src>
    %inv = tt.splat %in : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #src>
    %inp = tt.addptr %inv, %offs : tensor<128x64x!tt.ptr<f32>, #src>, tensor<128x64xi32, #src>
    %x = tt.load %inp : tensor<128x64x!tt.ptr<f32>, #src>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
)" + body +
         R"(
    %outv = tt.splat %out : !tt.ptr<f32> -> tensor<128x64x!tt.ptr<f32>, #src>
    %outp = tt.addptr %outv, %offs : tensor<128x64x!tt.ptr<f32>, #src>, tensor<128x64xi32, #src>
    tt.store %outp, %res : tensor<128x64x!tt.ptr<f32>, #src>
    tt.return
  }
}
)";
}

// #dst with warps along the other dim: the conversion crosses warps.
const char *kAcrossWarps = "#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], "
                           "warpsPerCTA = [4, 1], order = [0, 1]}>";
// #dst keeping every element in its warp (seed-2 pair 186 of the paths benchmark): each scratch
// byte is stored and loaded by one warp.
const char *kInsideWarps = "#ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], "
                           "warpsPerCTA = [1, 4], order = [0, 1]}>";
const char *kSrc = "tensor<128x64xf32, #src>";
const char *kDst = "tensor<128x64xf32, #dst>";

std::string convert(const std::string &to, const std::string &value, const char *fromType,
                    const char *toType) {
  return "    " + to + " = ttg.convert_layout " + value + " : " + fromType + " -> " + toType + "\n";
}

// Triton's benchmark loop, %res = %n round trips src -> dst -> src of `init`.
std::string roundTripLoop(const std::string &init) {
  return "    %res = scf.for %i = %c0 to %n step %c1 iter_args(%v = " + init + ") -> (" +
         std::string(kSrc) + ") : i32 {\n" + convert("%y", "%v", kSrc, kDst) +
         convert("%z", "%y", kDst, kSrc) + "      scf.yield %z : " + kSrc + "\n    }\n";
}

struct Compiled {
  std::string ptx;
  std::vector<ConversionReport> conversions;
  int64_t sharedBytes = 0;
};

// Compiles with every conversion through shared memory; `outside` is the number of barriers the
// kernel has besides its conversions' (a loop's preheader barrier).
Compiled compileShared(const std::string &text, int outside = 0) {
  auto m = ir::parseModule(text, "round_trip.tir");
  EXPECT_TRUE(m.ok()) << m.message();
  if (!m.ok())
    return {};
  LowerOptions o;
  o.conversionPath = ConversionPath::SharedMemory;
  auto k = lowerKernel(*m, o);
  EXPECT_TRUE(k.ok()) << k.message();
  if (!k.ok())
    return {};
  expectAssembles(k->kernel);
  int bars = 0, warpSyncs = 0;
  for (const ConversionReport &c : k->conversions) {
    bars += c.barriers;
    warpSyncs += c.warpSyncs;
  }
  EXPECT_EQ(countLines(k->kernel.ptx, "bar.sync"), bars + outside)
      << "the reports count the conversions' barriers";
  EXPECT_EQ(countLines(k->kernel.ptx, "bar.warp.sync"), warpSyncs);
  return {k->kernel.ptx, k->conversions, int64_t(k->kernel.sharedBytes)};
}

} // namespace

// A loop whose body holds loops, the second with conversions inside warps: the body's model
// counts each inner loop as leaving every byte pending by any thread, which covers the inner
// conversions' own pending bytes (it used to be taken as not covering them, and the lowering
// refused the kernel with an internal error).
TEST(SharedHazards, NestedLoopsWithConversionsInsideWarpsLower) {
  std::string inner = "      %f = scf.for %k = %c0 to %n step %c1 iter_args(%u = %e) -> (" +
                      std::string(kSrc) + ") : i32 {\n" + convert("%y", "%u", kSrc, kDst) +
                      convert("%z", "%y", kDst, kSrc) + "        scf.yield %z : " + kSrc +
                      "\n      }\n";
  std::string body = "    %res = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (" +
                     std::string(kSrc) + ") : i32 {\n" +
                     "      %e = scf.for %j = %c0 to %n step %c1 iter_args(%w = %v) -> (" + kSrc +
                     ") : i32 {\n        scf.yield %v : " + kSrc + "\n      }\n" + inner +
                     "      scf.yield %f : " + kSrc + "\n    }\n";
  auto m = ir::parseModule(roundTripKernel(body, kInsideWarps), "nested.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  LowerOptions o;
  o.conversionPath = ConversionPath::SharedMemory;
  auto k = lowerKernel(*m, o);
  ASSERT_TRUE(k.ok()) << k.message();
  expectAssembles(k->kernel);
}

// Triton's round-trip benchmark loop: src -> dst -> src per iteration. Each conversion's scratch
// has bytes of its own, so each keeps one barrier (between its stores and its loads): the other
// one's barrier orders its stores after its own loads of the iteration before.
TEST(SharedHazards, RoundTripLoopKeepsOneBarrierPerConversion) {
  std::string body = roundTripLoop("%x");
  Compiled k = compileShared(roundTripKernel(body, kAcrossWarps));
  ASSERT_EQ(k.conversions.size(), 2u);
  for (const ConversionReport &c : k.conversions) {
    EXPECT_EQ(c.path, "shared_memory");
    EXPECT_EQ(c.barriers, 1) << c.where;
  }
  EXPECT_EQ(countLines(k.ptx, "bar.sync"), 2);
  // Two scratch buffers side by side.
  EXPECT_EQ(k.sharedBytes, k.conversions[0].scratchBytes + k.conversions[1].scratchBytes);
}

// One conversion per iteration: its stores follow its own loads of the iteration before, across
// the back edge, so both of its barriers stay.
TEST(SharedHazards, ALoopsOnlyConversionWaitsForItselfAcrossTheBackEdge) {
  std::string body =
      "    %zero = arith.constant dense<0.0> : " + std::string(kDst) + "\n" +
      "    %acc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x, %a = %zero) -> (" + kSrc +
      ", " + kDst + ") : i32 {\n" + convert("%y", "%v", kSrc, kDst) +
      "      %a2 = arith.addf %a, %y : " + kDst + "\n      %v2 = arith.addf %v, %v : " + kSrc +
      "\n      scf.yield %v2, %a2 : " + kSrc + ", " + kDst + "\n    }\n" +
      convert("%res", "%acc#1", kDst, kSrc);
  Compiled k = compileShared(roundTripKernel(body, kAcrossWarps));
  ASSERT_EQ(k.conversions.size(), 2u);
  EXPECT_EQ(k.conversions[0].barriers, 2) << "the loop's conversion";
  // After the loop the first conversion's loads may still be running: the second one's scratch
  // reuses those bytes (it lives outside the loop), so it waits for them.
  EXPECT_EQ(k.conversions[1].barriers, 2) << "the conversion after the loop";
  EXPECT_EQ(k.sharedBytes, k.conversions[0].scratchBytes);
}

// Straight-line code: nothing is pending at the kernel's start, so the first conversion needs
// no barrier before its stores; the second reuses the first's bytes and needs one.
TEST(SharedHazards, StraightLineConversionsShareScratchBehindABarrier) {
  std::string body = convert("%y", "%x", kSrc, kDst) + convert("%res", "%y", kDst, kSrc);
  Compiled k = compileShared(roundTripKernel(body, kAcrossWarps));
  ASSERT_EQ(k.conversions.size(), 2u);
  EXPECT_EQ(k.conversions[0].barriers, 1);
  EXPECT_EQ(k.conversions[1].barriers, 2);
  EXPECT_EQ(countLines(k.ptx, "bar.sync"), 3);
}

// A conversion before the loop leaves its loads pending on bytes the loop's first conversion
// reuses. Its barrier would run in every iteration; one barrier before the loop runs once.
TEST(SharedHazards, PendingAccessesBeforeALoopCostOneBarrierBeforeIt) {
  std::string body =
      convert("%x0", "%x", kSrc, kDst) + convert("%x1", "%x0", kDst, kSrc) + roundTripLoop("%x1");
  Compiled k = compileShared(roundTripKernel(body, kAcrossWarps), /*outside=*/1);
  ASSERT_EQ(k.conversions.size(), 4u);
  EXPECT_EQ(k.conversions[0].barriers, 1) << "nothing pending at the start";
  EXPECT_EQ(k.conversions[1].barriers, 2) << "reuses the first one's bytes";
  EXPECT_EQ(k.conversions[2].barriers, 1) << "the loop's first conversion";
  EXPECT_EQ(k.conversions[3].barriers, 1) << "the loop's second conversion";
}

// A branch starts from what is pending before the if, and after the if what either branch
// left is pending: the then branch's conversion waits for the loads of the one before the if,
// and the conversion after the if waits for the then branch's loads (the else branch converts
// nothing).
TEST(SharedHazards, BranchesStartFromWhatIsPendingAndJoinAfter) {
  std::string body = convert("%x0", "%x", kSrc, kDst) +
                     "    %cond = arith.cmpi sgt, %n, %c0 : i32\n"
                     "    %x1 = scf.if %cond -> (" +
                     std::string(kDst) + ") {\n" + "  " + convert("%t", "%x", kSrc, kDst) +
                     "      scf.yield %t : " + kDst +
                     "\n    } else {\n      scf.yield %x0 : " + kDst + "\n    }\n" +
                     convert("%res", "%x1", kDst, kSrc);
  Compiled k = compileShared(roundTripKernel(body, kAcrossWarps));
  ASSERT_EQ(k.conversions.size(), 3u);
  EXPECT_EQ(k.conversions[0].barriers, 1) << "nothing pending at the start";
  EXPECT_EQ(k.conversions[1].barriers, 2) << "the branch's: the first one's loads are pending";
  EXPECT_EQ(k.conversions[2].barriers, 2) << "after the if: either branch's loads may be pending";
  EXPECT_NE(k.ptx.find("bra"), std::string::npos);
}

// An if inside the round-trip loop: each conversion in the loop has bytes of its own, the
// branches' conversions included, so each keeps only the barrier between its stores and loads.
// The loop head's state comes from the model of the body (hazardsAfter), which takes the join
// of the branches; the lowering checks the body it emits against it.
TEST(SharedHazards, AnIfInsideALoopKeepsOneBarrierPerConversion) {
  std::string body =
      "    %cond = arith.cmpi sgt, %n, %c1 : i32\n"
      "    %res = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (" +
      std::string(kSrc) + ") : i32 {\n      %y = scf.if %cond -> (" + kDst + ") {\n  " +
      convert("%t", "%v", kSrc, kDst) + "        scf.yield %t : " + kDst +
      "\n      } else {\n        %u = arith.addf %v, %v : " + kSrc + "\n  " +
      convert("%w", "%u", kSrc, kDst) + "        scf.yield %w : " + kDst + "\n      }\n" +
      convert("%z", "%y", kDst, kSrc) + "      scf.yield %z : " + kSrc + "\n    }\n";
  Compiled k = compileShared(roundTripKernel(body, kAcrossWarps));
  ASSERT_EQ(k.conversions.size(), 3u);
  for (const ConversionReport &c : k.conversions)
    EXPECT_EQ(c.barriers, 1) << c.where;
  EXPECT_EQ(k.sharedBytes, 3 * k.conversions[0].scratchBytes);
}

// Inside warps the loop needs no barrier at all: each conversion syncs its warps between its
// stores and loads, and before its stores, where its own loads of the iteration before are the
// only pending accesses to its bytes.
TEST(SharedHazards, RoundTripInsideWarpsSyncsWarpsOnly) {
  std::string body = roundTripLoop("%x");
  Compiled k = compileShared(roundTripKernel(body, kInsideWarps));
  ASSERT_EQ(k.conversions.size(), 2u);
  for (const ConversionReport &c : k.conversions) {
    EXPECT_EQ(c.barriers, 0) << c.where;
    EXPECT_EQ(c.warpSyncs, 2) << c.where;
  }
  EXPECT_EQ(countLines(k.ptx, "bar.sync"), 0);
}

// A conversion inside warps reusing another's bytes waits for the whole CTA: the bytes' last
// readers were other threads.
TEST(SharedHazards, AnotherOpsBytesNeedABarrierEvenInsideWarps) {
  std::string body = convert("%y", "%x", kSrc, kDst) + convert("%res", "%y", kDst, kSrc);
  Compiled k = compileShared(roundTripKernel(body, kInsideWarps));
  ASSERT_EQ(k.conversions.size(), 2u);
  EXPECT_EQ(k.conversions[0].barriers, 0);
  EXPECT_EQ(k.conversions[0].warpSyncs, 1) << "nothing pending: only the one between";
  EXPECT_EQ(k.conversions[1].barriers, 1);
  EXPECT_EQ(k.conversions[1].warpSyncs, 1);
}
