// Warp specialization in the tile IR: ttg.warp_specialize's text round trip and verifier errors,
// and the interpreter running its partitions: the warp-specialized matmul example against the
// TMA matmul it specializes, and each broken protocol (a read before the full barrier, a refill
// before the empty barrier, too many arrivals, a wait nothing completes) reported by op.
#include "Examples.h"
#include "InterpretedMatmul.h"
#include "TextEdits.h"

#include "kernels/TileKernels.h"

#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

std::string exampleText() { return readFile(examplePath("matmul_ws.tir")); }

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
  has(edit(text, "ttg.warp_yield %done : tensor<128x128xf32, #mma>\n", "ttg.warp_return\n"),
      "ttg.warp_return must be the last op of a ttg.warp_specialize's partition");
  has(edit(text, "ttng.arrive_barrier %empty, 1", "ttng.arrive_barrier %empty, 0"),
      "arrival count 0 is outside 1..2^20-1");
}

// The partitions compute what the TMA matmul they specialize computes, bit for bit (the same
// wgmma per K step, in order), for K shorter than the ring, one stage round and several, and K
// no multiple of 64: one consumer warp group on 128x128 tiles, and two on 128x256 tiles.
struct Specialized {
  const char *ws, *tma;
  int tileN;
};

class MatmulAgrees : public ::testing::TestWithParam<Specialized> {};

TEST_P(MatmulAgrees, WithTheTmaMatmul) {
  const Specialized p = GetParam();
  const std::string ws = readFile(examplePath(std::string(p.ws) + ".tir"));
  const std::string tma = readFile(examplePath(std::string(p.tma) + ".tir"));
  for (int K : {64, 192, 512, 40}) {
    SCOPED_TRACE("K " + std::to_string(K));
    MatmulRun a = runMatmul(ws, K, p.ws, {.tileN = p.tileN});
    ASSERT_TRUE(a.status.ok()) << a.status.message();
    MatmulRun b = runMatmul(tma, K, p.tma, {.tileN = p.tileN});
    ASSERT_TRUE(b.status.ok()) << b.status.message();
    EXPECT_EQ(a.c, b.c);
  }
}

INSTANTIATE_TEST_SUITE_P(WarpSpecialize, MatmulAgrees,
                         ::testing::Values(Specialized{"matmul_ws", "matmul_tma", 128},
                                           Specialized{"matmul_ws_wide", "matmul_tma_wide", 256}),
                         [](const auto &info) { return std::string(info.param.ws); });

// A persistent kernel's programs walk the tiles (here 3 programs, 4 tiles: program 0 takes two,
// so the ring's phases go on across tiles) and compute what the TMA matmul computes, bit for bit.
TEST(WarpSpecialize, PersistentMatmulAgreesWithTheTmaMatmul) {
  const std::string ws = readFile(examplePath("matmul_ws_persistent.tir"));
  const std::string tma = readFile(examplePath("matmul_tma_wide.tir"));
  for (int K : {64, 256, 40}) {
    SCOPED_TRACE("K " + std::to_string(K));
    MatmulRun a =
        runMatmul(ws, K, "matmul_ws_persistent", {.M = 256, .N = 512, .tileN = 256, .programs = 3});
    ASSERT_TRUE(a.status.ok()) << a.status.message();
    MatmulRun b = runMatmul(tma, K, "matmul_tma_wide", {.M = 256, .N = 512, .tileN = 256});
    ASSERT_TRUE(b.status.ok()) << b.status.message();
    EXPECT_EQ(a.c, b.c);
  }
}

// The matmuls writing f16 write the f32 kernels' C rounded to the nearest half.
TEST(WarpSpecialize, HalfOutputIsTheF32OutputRounded) {
  struct Pair {
    const char *f32, *f16;
    MatmulShape shape;
  };
  for (const Pair &p : {Pair{"matmul_ws_wide", "matmul_ws_wide_halfout", {.tileN = 256}},
                        Pair{"matmul_ws_persistent",
                             "matmul_ws_persistent_halfout",
                             {.M = 256, .N = 512, .tileN = 256, .programs = 3}},
                        Pair{"matmul_ws_persistent",
                             "matmul_ws_persistent_halfout_mma",
                             {.M = 256, .N = 512, .tileN = 256, .programs = 3}},
                        Pair{"matmul_ws_persistent",
                             "matmul_ws_persistent_tmastore",
                             {.M = 256, .N = 512, .tileN = 256, .programs = 3}}})
    for (int K : {64, 320}) {
      SCOPED_TRACE(std::string(p.f16) + ", K " + std::to_string(K));
      MatmulRun a =
          runMatmul(readFile(examplePath(std::string(p.f32) + ".tir")), K, p.f32, p.shape);
      ASSERT_TRUE(a.status.ok()) << a.status.message();
      MatmulRun h =
          runMatmul(readFile(examplePath(std::string(p.f16) + ".tir")), K, p.f16, p.shape);
      ASSERT_TRUE(h.status.ok()) << h.status.message();
      std::vector<uint16_t> halves = valuesOf<uint16_t>(h.bytes);
      for (size_t i = 0; i < a.c.size(); ++i) {
        int e = 0;
        std::frexp(double(a.c[i]), &e);
        const double halfUlp = std::max(std::ldexp(1.0, e - 12), std::ldexp(1.0, -25));
        ASSERT_LE(std::abs(fromHalfBits(halves[i]) - double(a.c[i])), halfUlp) << "element " << i;
      }
    }
}

// Runs a persistent matmul whose A, B and C are tensor maps (then K, ldc, M, N) in the
// interpreter, with the partitions' protocol checks and the proxy-fence rule, on `programs`
// programs, or on one cluster of a clustered kernel (as the GPU tests run them); `mem` holds A, B
// and C.
Status interpretTmaStoreMatmul(const Module &m, const std::string &kernel, int M, int N, int K,
                               Memory &mem, unsigned programs = 3) {
  std::vector<ArgValue> args = {ArgValue::tensorDesc(0, {M, K}, {K, 1}),
                                ArgValue::tensorDesc(1, {K, N}, {N, 1}),
                                ArgValue::tensorDesc(2, {M, N}, {N, 1}),
                                ArgValue::integer(K),
                                ArgValue::integer(N),
                                ArgValue::integer(M),
                                ArgValue::integer(N)};
  InterpreterOptions strict;
  strict.checkProxyFences = true;
  const unsigned n = m.clusterSize() > 1 ? unsigned(m.clusterSize()) : programs;
  return interpret(m, kernel, args, mem, Grid{n, 1, 1}, strict);
}

// The error of a TMA-store example (examples/FILE) with `from` replaced by `to`, run on 256 x 512
// x K zeros as interpretTmaStoreMatmul runs it, C of `cBytes` an element ("<ok>" where it runs).
std::string brokenTmaStoreError(const std::string &file, const std::string &from,
                                const std::string &to, int K, size_t cBytes = 2) {
  auto text = gpukernels::exampleText(file, gpukernels::sourceDir(LINLAYOUT_SOURCE_DIR));
  if (!text.ok())
    return text.message();
  auto m = parseModule(edit(*text, from, to), file);
  if (!m.ok())
    return m.message();
  const int M = 256, N = 512;
  Memory mem;
  mem.buffers = {std::vector<uint8_t>(size_t(M) * K * 2, 0),
                 std::vector<uint8_t>(size_t(K) * N * 2, 0),
                 std::vector<uint8_t>(size_t(M) * N * cBytes, 0)};
  Status st = interpretTmaStoreMatmul(*m, file.substr(0, file.size() - 4), M, N, K, mem);
  return st.ok() ? "<ok>" : st.message();
}

// Runs examples/KERNEL.tir (a TMA-store GEMM, `elem` as the GPU tests and the benchmark make it) on
// M x N x K inputs that are multiples of 1/8 in [-1, 1], whose products and sums f32 holds
// exactly, run by each count of `programs`, and checks C against float64: C must be the exact
// product rounded once (to nearest even) to C's type, or the exact product in f32.
void expectProductRoundedOnce(const std::string &kernel, ScalarKind elem, int M, int N, int K,
                              std::mt19937_64 &rng,
                              std::initializer_list<unsigned> programs = {3}) {
  SCOPED_TRACE(kernel + " " + std::string(name(elem)) + " K " + std::to_string(K));
  auto m =
      gpukernels::matmulKernel(elem, gpukernels::sourceDir(LINLAYOUT_SOURCE_DIR), kernel + ".tir");
  ASSERT_TRUE(m.ok()) << m.message();
  const Function &fn = m->functions.at(0);
  const bool f32out = fn.type(fn.body.args.at(2)).elem().scalar == ScalarKind::F32;
  const bool half = elem == ScalarKind::F16;
  // Exact in both types: the inputs have 4 significant bits at most.
  auto bitsOf = [&](double v) { return half ? toHalfBits(float(v)) : toBf16Bits(float(v)); };
  // To nearest even with C's significand (11 bits for f16, 8 for bf16; no subnormals here),
  // worked out here rather than by the interpreter's own rounding.
  auto rounded = [&](double v) {
    if (v == 0)
      return 0.0;
    const int bits = half ? 11 : 8;
    int e = 0;
    std::frexp(v, &e);
    return std::ldexp(std::nearbyint(std::ldexp(v, bits - e)), e - bits);
  };
  std::vector<double> a(size_t(M) * K), b(size_t(K) * N);
  for (double &x : a)
    x = double(int(rng() % 17) - 8) / 8;
  for (double &x : b)
    x = double(int(rng() % 17) - 8) / 8;
  std::vector<uint16_t> ab, bb;
  for (double x : a)
    ab.push_back(bitsOf(x));
  for (double x : b)
    bb.push_back(bitsOf(x));
  // The product C must hold: exact in f32, else rounded once.
  std::vector<double> want = productF64(a, b, M, N, K, size_t(N), 1);
  if (!f32out)
    for (double &w : want)
      w = rounded(w);
  for (unsigned n : programs) {
    SCOPED_TRACE("by " + std::to_string(n) + " programs");
    Memory mem;
    mem.buffers = {bytesOf(ab), bytesOf(bb),
                   std::vector<uint8_t>(size_t(M) * N * (f32out ? 4 : 2), 0xff)};
    Status st = interpretTmaStoreMatmul(*m, kernel, M, N, K, mem, n);
    ASSERT_TRUE(st.ok()) << st.message();
    // C as read back.
    std::vector<double> got;
    if (f32out)
      for (float x : valuesOf<float>(mem.buffers[2]))
        got.push_back(x);
    else
      for (uint16_t h : valuesOf<uint16_t>(mem.buffers[2]))
        got.push_back(half ? fromHalfBits(h) : fromBf16Bits(h));
    for (size_t e = 0; e < want.size(); ++e)
      ASSERT_EQ(got[e], want[e]) << "C(" << e / N << ", " << e % N << ")";
  }
}

// examples/matmul_ws_persistent_tmastore.tir (C by TMA stores from one shared tile, each
// overlapping the next tile's K loop), matmul_ws_split_tmastore.tir (a region and a C slot per
// consumer warp group), its _f32out form (C in f32, in 64-column chunks through two slots per
// group), matmul_ws_pingpong_tmastore.tir (whole 128x128 tiles per warp group, in turn) and
// matmul_ws_pingpong_cluster.tir (the same in a 2x1 cluster sharing B), f16 and bf16. 3 programs
// walk 4 tiles (8 in ping-pong; the cluster's 2 CTAs walk 4 pairs): a shared tile is written
// twice, the second time after its first store's wait.
TEST(WarpSpecialize, TmaStoreEpilogueWritesTheProductRoundedOnce) {
  std::mt19937_64 rng(7);
  for (std::string kernel : {"matmul_ws_persistent_tmastore", "matmul_ws_split_tmastore",
                             "matmul_ws_split_tmastore_f32out", "matmul_ws_pingpong_tmastore",
                             "matmul_ws_pingpong_cluster"})
    for (ScalarKind elem : {ScalarKind::F16, ScalarKind::BF16})
      // K: one step, and a partial fourth step (the rest reads as zero) past the 3 stages.
      for (int K : {64, 200})
        expectProductRoundedOnce(kernel, elem, 256, 512, K, rng);
}

// The split kernels' L2 order: 18 M tiles make a group of 16 and a group of 2, which walks N from
// the right, and 3 programs walk the 36 tiles in 12 waves, the odd ones with K backwards (a partial
// step first); 33 programs, more than a group's 32 tiles, walk them in 2 waves. Every tile must
// still be computed once, from every K step once.
TEST(WarpSpecialize, SplitGemmOrderComputesEveryTileOnce) {
  std::mt19937_64 rng(11);
  for (std::string kernel : {"matmul_ws_split_tmastore", "matmul_ws_split_tmastore_f32out"})
    expectProductRoundedOnce(kernel, ScalarKind::F16, 2304, 512, 200, rng, {3, 33});
}

// examples/matmul_ws_persistent_tmastore.tir's consumers carry their tile's group and place in
// the group through the tile loop: 3 programs step within a group and across the wrap from the
// group of 16 M tiles into the group of 2; 33 programs step a whole group at a time.
TEST(WarpSpecialize, CooperativeGemmCarriedTilesComputeEveryTileOnce) {
  std::mt19937_64 rng(13);
  expectProductRoundedOnce("matmul_ws_persistent_tmastore", ScalarKind::F16, 2304, 512, 200, rng,
                           {3, 33});
}

// examples/matmul_ws_pingpong_tmastore.tir: each warp group waits for its turn before a tile's K
// loop. A stage's full barrier is waited for by phase parity, which cannot tell the fill a group
// waits for from the one a round before it; the turn makes sure the other group has seen that
// one. Without the wait, warp group 1 takes stages before they are filled and the ring hangs.
TEST(WarpSpecialize, PingPongMatmulWaitsForItsTurn) {
  // K of 320: 5 K steps, so the ring of 4 turns within a tile.
  const std::string e = brokenTmaStoreError(
      "matmul_ws_pingpong_tmastore.tir",
      "        ttng.wait_barrier %w1_turn1, %tpar : !ttg.memdesc<1xi64, #bar, #smem, mutable>\n",
      "", 320);
  EXPECT_NE(e.find("deadlock"), std::string::npos) << e;
}

// examples/matmul_ws_pingpong_cluster.tir: a stage's empty barrier counts the arrivals of both
// CTAs' warp groups, since both CTAs' producers refill it. Counting one, the second arrival
// counts toward the next phase, the ring falls out of step, and the interpreter reports the hang.
TEST(WarpSpecialize, PingPongClusterFreesAStageInBothCtas) {
  // K of 640: 10 K steps, so every stage turns twice a tile.
  const std::string e =
      brokenTmaStoreError("matmul_ws_pingpong_cluster.tir", "ttng.init_barrier %empty0, 2",
                          "ttng.init_barrier %empty0, 1", 640);
  EXPECT_NE(e.find("deadlock"), std::string::npos) << e;
}

// examples/matmul_ws_split_tmastore_f32out.tir: a warp group sends C's four 64-column chunks
// through two slots, and before writing a chunk it waits until the store two chunks back has read
// that slot (pendings = 1). Waiting for one store fewer at a tile's first chunk, it overwrites a
// slot that the previous tile's third chunk may still be reading, which the interpreter reports.
TEST(WarpSpecialize, ChunkedF32EpilogueWaitsForTheSlotsStore) {
  const std::string file = "matmul_ws_split_tmastore_f32out.tir";
  const std::string wait = "ttng.async_tma_store_wait {pendings = ";
  EXPECT_EQ(brokenTmaStoreError(file, wait + "1", wait + "1", 64, 4), "<ok>");
  const std::string e = brokenTmaStoreError(file, wait + "1", wait + "2", 64, 4);
  EXPECT_NE(e.find("may still be reading"), std::string::npos) << e;
}

// Each broken protocol is an error naming the op (and the barrier or the other access).
TEST(WarpSpecialize, InterpreterReportsBrokenProtocols) {
  const std::string text = exampleText();
  struct Broken {
    const char *what;
    std::string text;
    std::vector<std::string> parts;
  };
  const Broken cases[] = {
      {"the consumer reads a stage without waiting for its full barrier",
       edit(text,
            "        ttng.wait_barrier %full, %phase : !ttg.memdesc<1xi64, #bar, #smem, "
            "mutable>\n",
            ""),
       {"'ttng.warp_group_dot'", "may still be writing"}},
      {"the producer refills a stage without waiting for its empty barrier",
       edit(text,
            "        ttng.wait_barrier %empty, %phase : !ttg.memdesc<1xi64, #bar, #smem, "
            "mutable>\n",
            ""),
       {"'ttng.async_tma_copy_global_to_local'", "may still be writing"}},
      {"the consumer frees the stage its running wgmma reads: the refill races with the read",
       edit(edit(text, "%empties[%sp]", "%empties[%s]"), "ttng.arrive_barrier %empty, 1, %freeing",
            "ttng.arrive_barrier %empty, 1"),
       {"'ttng.async_tma_copy_global_to_local'",
        "overwrites shared memory that the default region reads ('ttng.warp_group_dot'",
        "empty barrier"}},
      {"more arrivals than the barrier was initialised for",
       edit(text, "ttng.arrive_barrier %empty, 1", "ttng.arrive_barrier %empty, 2"),
       {"'ttng.arrive_barrier'", "more arrivals than it was initialised for"}},
      {"the producer waits for the empty barrier's first phase instead of passing it: every "
       "partition waits and none can go on",
       edit(text, "%phase = arith.xori %parity, %one : i32",
            "%phase = arith.ori %parity, %z : i32"),
       {"deadlock: every partition still running waits", "partition 0 at",
        "for phase parity 0 of %empty", "the default region at"}},
  };
  for (const Broken &c : cases) {
    SCOPED_TRACE(c.what);
    std::string e = errorOf(c.text);
    for (const std::string &part : c.parts)
      EXPECT_NE(e.find(part), std::string::npos) << part << "\n" << e;
  }
}

} // namespace

// The clustered matmul (examples/matmul_ws_cluster.tir: pairs of CTAs sharing B by multicast)
// computes what the persistent one does; its broken protocols are errors.
TEST(WarpSpecialize, ClusterMatmulIsThePersistentOne) {
  const std::string cluster = readFile(examplePath("matmul_ws_cluster.tir"));
  const std::string persistent = readFile(examplePath("matmul_ws_persistent_halfout.tir"));
  for (int K : {64, 320}) {
    SCOPED_TRACE("K " + std::to_string(K));
    // One cluster walks both pair-tiles of the 512 x 256 C.
    MatmulRun a = runMatmul(cluster, K, "matmul_ws_cluster",
                            {.M = 512, .N = 256, .tileN = 256, .programs = 2});
    ASSERT_TRUE(a.status.ok()) << a.status.message();
    MatmulRun b = runMatmul(persistent, K, "matmul_ws_persistent_halfout",
                            {.M = 512, .N = 256, .tileN = 256, .programs = 3});
    ASSERT_TRUE(b.status.ok()) << b.status.message();
    EXPECT_EQ(a.bytes, b.bytes);
    // The same with C stored from the accumulator's layout and a ring of 4.
    MatmulRun c =
        runMatmul(readFile(examplePath("matmul_ws_cluster_mma.tir")), K, "matmul_ws_cluster_mma",
                  {.M = 512, .N = 256, .tileN = 256, .programs = 2});
    ASSERT_TRUE(c.status.ok()) << c.status.message();
    EXPECT_EQ(c.bytes, b.bytes);
  }
  struct Broken {
    const char *what;
    std::string text, error;
  };
  const Broken cases[] = {
      {"an empty barrier counting one CTA's consumers only: the second arrival counts toward "
       "the next phase, and the ring falls out of step",
       edit(cluster, "ttng.init_barrier %empty0, 2", "ttng.init_barrier %empty0, 1"), "deadlock"},
      {"consumers that free the stage in their own CTA only: the peer's producer overwrites it "
       "too early, or waits forever",
       edit(cluster, "ttng.arrive_barrier %empty, 1, %freeing {multicastCTA = 1 : i32}",
            "ttng.arrive_barrier %empty, 1, %freeing"),
       "'ttng."},
  };
  for (const Broken &c : cases) {
    SCOPED_TRACE(c.what);
    MatmulRun r = runMatmul(c.text, 320, "matmul_ws_cluster",
                            {.M = 512, .N = 256, .tileN = 256, .programs = 2});
    ASSERT_FALSE(r.status.ok());
    EXPECT_NE(r.status.message().find(c.error), std::string::npos) << r.status.message();
  }
}
