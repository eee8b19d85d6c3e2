// The Hopper ops: ttng.warp_group_dot, ttng.warp_group_dot_wait, ttng.fence_async_shared, and the
// CTA barrier gpu.barrier that pipelined wgmma loops use (text form, verifier rules, interpreter).
#include "Examples.h"
#include "kernels/TileKernels.h"

#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/SoftwarePipeline.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

const char *kHeader =
    R"(#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
#mma2 = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @f(%x: !tt.ptr<f16>, %y: !tt.ptr<f16>) {
    %at = arith.constant dense<1.0> : tensor<64x64xf16, #blocked>
    %as = ttg.local_alloc %at : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sa, #smem>
    %bs = ttg.local_alloc %at : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sa, #smem>
    %ws = ttg.local_alloc %at : (tensor<64x64xf16, #blocked>) -> !ttg.memdesc<64x64xf16, #sw, #smem>
    %z = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %z2 = arith.constant dense<0.0> : tensor<64x64xf32, #mma2>
)";

std::string kernel(const std::string &body) {
  return std::string(kHeader) + body + "    tt.return\n  }\n}\n";
}

std::string verifyError(const std::string &text) {
  auto m = parseModule(text, "h.tir");
  if (!m.ok())
    return "<parse error> " + m.message();
  Status s = verify(*m);
  return s.ok() ? std::string("<verified>") : s.message();
}

const char *kOps = R"(    ttng.fence_async_shared {bCluster = false}
    %d = ttng.warp_group_dot %as, %bs, %z {inputPrecision = 0 : i32, isAsync = true} : !ttg.memdesc<64x64xf16, #sa, #smem> * !ttg.memdesc<64x64xf16, #sa, #smem> -> tensor<64x64xf32, #mma>
    %w:2 = ttng.warp_group_dot_wait %d, %as {pendings = 0 : i32} : tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #sa, #smem>
    gpu.barrier
)";

} // namespace

TEST(Hopper, OpsRoundTripThroughText) {
  auto m = parseModule(kernel(kOps), "h.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
  std::string printed = print(*m);
  EXPECT_NE(printed.find("ttng.fence_async_shared {bCluster = false}"), std::string::npos);
  EXPECT_NE(printed.find("ttng.warp_group_dot %as, %bs, %z {isAsync = true} : "
                         "!ttg.memdesc<64x64xf16, #sa, #smem> * "),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("%w:2 = ttng.warp_group_dot_wait %d, %as {pendings = 0 : i32} : "
                         "tensor<64x64xf32, #mma>, !ttg.memdesc<64x64xf16, #sa, #smem>"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("\n    gpu.barrier\n"), std::string::npos) << printed;
  auto again = parseModule(printed, "h2.tir");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), printed);
}

TEST(Hopper, VerifierRules) {
  struct Case {
    std::string body, want;
  } cases[] = {
      {"    %d = ttng.warp_group_dot %as, %bs, %z2 {isAsync = false} : !ttg.memdesc<64x64xf16, "
       "#sa, #smem> * !ttg.memdesc<64x64xf16, #sa, #smem> -> tensor<64x64xf32, #mma2>\n",
       "the accumulator must be in an nvidia_mma version 3 layout"},
      {"    %d = ttng.warp_group_dot %ws, %bs, %z {isAsync = false} : !ttg.memdesc<64x64xf16, "
       "#sw, #smem> * !ttg.memdesc<64x64xf16, #sa, #smem> -> tensor<64x64xf32, #mma>\n",
       "A in shared memory must be in an nvmma_shared or shared_linear layout"},
      {"    %d = ttng.warp_group_dot %as, %ws, %z {isAsync = false} : !ttg.memdesc<64x64xf16, "
       "#sa, #smem> * !ttg.memdesc<64x64xf16, #sw, #smem> -> tensor<64x64xf32, #mma>\n",
       "B must be in an nvmma_shared or shared_linear layout"},
      {"    %d = ttng.warp_group_dot %at, %bs, %z {isAsync = false} : tensor<64x64xf16, "
       "#blocked> * !ttg.memdesc<64x64xf16, #sa, #smem> -> tensor<64x64xf32, #mma>\n",
       "A in registers must be in a dot_op layout with opIdx = 0"},
      {"    %w = ttng.warp_group_dot_wait %z {pendings = 9 : i32} : tensor<64x64xf32, #mma>\n",
       "pendings is 9, expected 0..7"},
  };
  for (const Case &c : cases) {
    std::string e = verifyError(kernel(c.body));
    EXPECT_NE(e.find(c.want), std::string::npos) << c.body << "\ngot: " << e;
  }
}

// The wgmma example computes what matmul.tir (mma.sync, K steps of 32) computes: the same
// products summed in double and rounded once.
TEST(Hopper, WgmmaMatmulExampleAgreesWithMatmul) {
  Module plain = loadExample("matmul.tir");
  Module wg = loadExample("matmul_wgmma.tir");
  ASSERT_TRUE(verify(wg).ok()) << verify(wg).message();
  auto run = [](const Module &m, const char *fn) {
    auto af = randomFloats(256 * 64, 4), bf = randomFloats(64 * 128, 5);
    std::vector<uint16_t> ah = halfBitsOf(af), bh = halfBitsOf(bf);
    Memory mem;
    mem.buffers = {bytesOf(ah), bytesOf(bh), bytesOf(std::vector<float>(256 * 128))};
    std::vector<ArgValue> args = {
        ArgValue::pointer(0),  ArgValue::pointer(1),   ArgValue::pointer(2),  ArgValue::integer(64),
        ArgValue::integer(64), ArgValue::integer(128), ArgValue::integer(128)};
    Status s = interpret(m, fn, args, mem, Grid{2, 1, 1});
    EXPECT_TRUE(s.ok()) << s.message();
    return mem.buffers[2];
  };
  auto a = run(plain, "matmul");
  auto b = run(wg, "matmul_wgmma");
  EXPECT_EQ(a, b);
  // Not all zeros.
  auto c = valuesOf<float>(b);
  EXPECT_NE(c[0], 0.0f);
}

// The wgmma attention (examples/attention_wgmma.tir) computes what attention.tir (mma.sync)
// computes, as written and software-pipelined: 2 heads of 256 positions.
TEST(Hopper, WgmmaAttentionAgreesWithAttention) {
  const size_t n = 256, elems = 2 * n * 64;
  auto run = [&](const Module &m, const char *fn) {
    std::vector<std::vector<uint16_t>> in(3);
    for (unsigned t = 0; t < 3; ++t)
      for (float x : randomFloats(elems, 20 + t, 2))
        in[t].push_back(toHalfBits(x / 2));
    Memory mem;
    mem.buffers = {bytesOf(in[0]), bytesOf(in[1]), bytesOf(in[2]),
                   bytesOf(std::vector<uint16_t>(elems))};
    std::vector<ArgValue> args = {ArgValue::pointer(0),          ArgValue::pointer(1),
                                  ArgValue::pointer(2),          ArgValue::pointer(3),
                                  ArgValue::integer(int64_t(n)), ArgValue::floating(0.125)};
    Status s = interpret(m, fn, args, mem, Grid{unsigned(n / 128), 2, 1});
    EXPECT_TRUE(s.ok()) << s.message();
    return mem.buffers[3];
  };
  Module wg = loadExample("attention_wgmma.tir");
  ASSERT_TRUE(verify(wg).ok()) << verify(wg).message();
  auto want = run(loadExample("attention.tir"), "attention");
  EXPECT_EQ(run(wg, "attention_wgmma"), want);
  for (int stages : {2, 3}) {
    Module piped = wg;
    ASSERT_TRUE(pipelineLoops(piped, stages).ok());
    ASSERT_TRUE(verify(piped).ok()) << verify(piped).message();
    EXPECT_EQ(run(piped, "attention_wgmma"), want) << stages << " stages";
  }
  // Not all zeros.
  EXPECT_NE(valuesOf<uint16_t>(want)[5], 0);
}

namespace {

std::vector<std::vector<uint16_t>> attentionInputs(size_t elems, unsigned seed = 40) {
  std::vector<std::vector<uint16_t>> in(3);
  for (unsigned t = 0; t < 3; ++t)
    for (float x : randomFloats(elems, seed + t, 2))
      in[t].push_back(toHalfBits(x / 2));
  return in;
}

// Expects O (`got`) of causal or full attention over `in` (Q, K, V of `heads` heads of n positions,
// head dim d) within the f16 roundings (P before the second product, O on the store) of a
// double-precision softmax(Q K^T * scale) V (scale 1 / sqrt(d) unless given), on every
// `rowStep`-th row of each head.
void expectAttention(const std::vector<std::vector<uint16_t>> &in, const std::vector<uint16_t> &got,
                     size_t n, size_t heads, size_t d, bool causal, double scale = 0,
                     size_t rowStep = 5) {
  if (scale == 0)
    scale = 1.0 / std::sqrt(double(d));
  for (size_t h = 0; h < heads; ++h)
    for (size_t i = 0; i < n; i += rowStep) {
      const size_t base = h * n * d, keys = causal ? i + 1 : n;
      std::vector<double> p(keys);
      double mx = -INFINITY, sum = 0;
      for (size_t j = 0; j < keys; ++j) {
        double dot = 0;
        for (size_t c = 0; c < d; ++c)
          dot += fromHalfBits(in[0][base + i * d + c]) * fromHalfBits(in[1][base + j * d + c]);
        mx = std::max(mx, p[j] = dot * scale);
      }
      for (double &x : p)
        sum += x = std::exp(x - mx);
      for (size_t c = 0; c < d; ++c) {
        double want = 0;
        for (size_t j = 0; j < keys; ++j)
          want += p[j] * fromHalfBits(in[2][base + j * d + c]);
        // Relative 2^-11 twice, of values |v| < 1.
        ASSERT_NEAR(fromHalfBits(got[base + i * d + c]), want / sum, 2e-3)
            << "head " << h << ", row " << i << ", column " << c;
      }
    }
}

} // namespace

// The head-dim-128 wgmma attention (examples/attention_wgmma_d128.tir), its causal form and its
// form with key blocks of 128 on 2 heads of 256 positions: every output within the f16 roundings
// (P before the second product, O on the store) of a double-precision softmax(Q K^T / 8) V, and
// their software-pipelined forms bit-exact with them.
TEST(Hopper, WgmmaAttentionD128MatchesReference) {
  const size_t n = 256, d = 128, elems = 2 * n * d;
  const auto in = attentionInputs(elems, 30);
  for (const char *name :
       {"attention_wgmma_d128", "attention_wgmma_d128_causal", "attention_wgmma_d128_bn128"}) {
    const std::string fn = name;
    const bool causal = fn.ends_with("_causal");
    SCOPED_TRACE(fn);
    auto run = [&](const Module &m) {
      Memory mem;
      mem.buffers = {bytesOf(in[0]), bytesOf(in[1]), bytesOf(in[2]),
                     bytesOf(std::vector<uint16_t>(elems, 0x7C00))}; // +inf: unwritten
      std::vector<ArgValue> args = {ArgValue::pointer(0),          ArgValue::pointer(1),
                                    ArgValue::pointer(2),          ArgValue::pointer(3),
                                    ArgValue::integer(int64_t(n)), ArgValue::floating(0.125)};
      Status s = interpret(m, fn, args, mem, Grid{unsigned(n / 128), 2, 1});
      EXPECT_TRUE(s.ok()) << s.message();
      return valuesOf<uint16_t>(mem.buffers[3]);
    };
    Module wg = loadExample(fn + ".tir");
    ASSERT_TRUE(verify(wg).ok()) << verify(wg).message();
    auto got = run(wg);
    expectAttention(in, got, n, 2, d, causal, 0.125, 3);
    for (int stages : {2, 3}) {
      Module piped = wg;
      ASSERT_TRUE(pipelineLoops(piped, stages).ok());
      ASSERT_TRUE(verify(piped).ok()) << verify(piped).message();
      EXPECT_EQ(run(piped), got) << stages << " stages";
    }
  }
}

namespace {

// Runs the warp-specialized attention `fn` of `text` (examples/attention_ws_*.tir or an edit of
// it), after the pass pipeline, on `heads` heads of n positions of head dim d in the interpreter,
// with its protocol checks and the proxy-fence rule; `out` gets O's halves. A persistent kernel
// (its name says so) takes the number of heads too, and runs on 3 programs.
Status runWsAttention(const std::string &text, const std::string &fn,
                      const std::vector<std::vector<uint16_t>> &in, size_t n, size_t heads,
                      size_t d, std::vector<uint16_t> *out = nullptr) {
  auto m = parseModule(text, fn + ".tir");
  if (!m.ok())
    return makeError(m.message());
  LL_TRY_STATUS(verify(*m));
  LL_TRY_STATUS(runPipeline(*m));
  Memory mem;
  mem.buffers = {bytesOf(in[0]), bytesOf(in[1]), bytesOf(in[2]),
                 bytesOf(std::vector<uint16_t>(heads * n * d, 0x7C00))}; // +inf: unwritten
  const int64_t rows = int64_t(heads * n), cols = int64_t(d);
  // Q (argument and buffer 0) and O (3) are pointers, or tensor maps over [heads * n, d] for TMA
  // copies.
  const Function &f = m->functions.at(0);
  auto qo = [&](uint32_t i) {
    return f.type(f.body.args.at(i)).isTensorDesc()
               ? ArgValue::tensorDesc(i, {rows, cols}, {cols, 1})
               : ArgValue::pointer(i);
  };
  std::vector<ArgValue> args = {qo(0),
                                ArgValue::tensorDesc(1, {rows, cols}, {cols, 1}),
                                ArgValue::tensorDesc(2, {rows, cols}, {cols, 1}),
                                qo(3),
                                ArgValue::integer(int64_t(n)),
                                ArgValue::floating(1.0 / std::sqrt(double(d)))};
  Grid grid{unsigned(n / 128), unsigned(heads), 1};
  if (fn.find("persistent") != std::string::npos) {
    args.push_back(ArgValue::integer(int64_t(heads)));
    grid = Grid{3, 1, 1};
  }
  InterpreterOptions strict;
  strict.checkProxyFences = true;
  LL_TRY_STATUS(interpret(*m, fn, args, mem, grid, strict));
  if (out)
    *out = valuesOf<uint16_t>(mem.buffers[3]);
  return Status::success();
}

} // namespace

// The warp-specialized attention kernels (examples/attention_ws_*.tir: a TMA producer warp, a
// ring of K and V stages, two consumer warp groups with the next block's Q K^T in flight during
// the softmax) on a head of 512 positions (4 key blocks: the ring of 3 stages turns), with the
// protocol checks and the proxy-fence rule after the pass pipeline: every output within the f16
// roundings (P before the second product, O on the store) of a double-precision softmax(Q K^T /
// sqrt(d)) V.
TEST(Hopper, WarpSpecializedAttentionMatchesReference) {
  const size_t n = 512, heads = 1;
  for (const char *name : {"attention_ws_d128",
                           "attention_ws_d128_causal",
                           "attention_ws_d64",
                           "attention_ws_d64_causal",
                           "attention_ws_pp_d128",
                           "attention_ws_pp_d128_causal",
                           "attention_ws_pp_d64",
                           "attention_ws_pp_d64_causal",
                           "attention_ws_persistent_d128",
                           "attention_ws_persistent_d128_causal",
                           "attention_ws_pp_persistent_d128",
                           "attention_ws_pp_persistent_d128_causal",
                           "attention_ws_persistent_d64",
                           "attention_ws_pp_persistent_d64",
                           "attention_ws_pp_persistent_d64_causal",
                           "attention_ws_pp_persistent_paired_d128_causal",
                           "attention_ws_pp_persistent_paired_d64_causal",
                           "attention_ws_pp_persistent_paired_tma_d128_causal",
                           "attention_ws_pp_persistent_paired_tma_d64_causal",
                           "attention_ws_pp_persistent_tma_d128",
                           "attention_ws_pp_persistent_tma_d64",
                           "attention_ws_pp_persistent_tmaqo_d128",
                           "attention_ws_pp_persistent_chain_d128",
                           "attention_ws_pp_persistent_chain_d64",
                           "attention_ws_pp_persistent_wg3_d64",
                           "attention_ws_pp_persistent_d256",
                           "attention_ws_pp_persistent_d256_causal"}) {
    const std::string fn = name;
    const bool causal = fn.ends_with("_causal");
    const size_t d = size_t(gpukernels::attentionHeadDim(fn));
    SCOPED_TRACE(fn);
    const auto in = attentionInputs(heads * n * d);
    std::vector<uint16_t> got;
    Status s = runWsAttention(readFile(examplePath(fn + ".tir")), fn, in, n, heads, d, &got);
    ASSERT_TRUE(s.ok()) << s.message();
    expectAttention(in, got, n, heads, d, causal);
  }
}

// The persistent kernels whose tiles go in folded pairs, head by head (so that K and V stay in
// L2), on 3 programs where the order's edges matter: 3 heads of 384 positions (3 query blocks, so
// pairs straddle heads; 9 tiles: one round of 6, then one tile each) and 5 heads of 256 (10 tiles:
// one round, then 4 in two pairs, the third program idle). Every tile's rows are checked, so a
// tile the order skipped is found (O starts as +inf), with the protocol checks.
TEST(Hopper, PairedPersistentAttentionCoversEveryTile) {
  for (const char *name : {"attention_ws_pp_persistent_paired_d128_causal",
                           "attention_ws_pp_persistent_paired_d64_causal",
                           "attention_ws_pp_persistent_paired_tma_d128_causal",
                           "attention_ws_pp_persistent_paired_tma_d64_causal",
                           "attention_ws_pp_persistent_d256_causal"}) {
    const std::string fn = name;
    const size_t d = size_t(gpukernels::attentionHeadDim(fn));
    for (auto [n, heads] : {std::pair<size_t, size_t>{384, 3}, {256, 5}}) {
      SCOPED_TRACE(fn + ", " + std::to_string(heads) + " heads of " + std::to_string(n));
      const auto in = attentionInputs(heads * n * d);
      std::vector<uint16_t> got;
      Status s = runWsAttention(readFile(examplePath(fn + ".tir")), fn, in, n, heads, d, &got);
      ASSERT_TRUE(s.ok()) << s.message();
      expectAttention(in, got, n, heads, d, true);
    }
  }
}

// The ring's protocol in attention_ws_d128.tir is what keeps it from racing on the GPU: without
// the wait for V's full barrier the P V wgmma reads a stage the copy may still be writing, and
// with the stage freed before the P V that reads it has retired, the producer's refill overwrites
// what the wgmma still reads. The interpreter reports both.
TEST(Hopper, WarpSpecializedAttentionProtocolIsChecked) {
  const std::string fn = "attention_ws_d128";
  const std::string text = readFile(examplePath(fn + ".tir"));
  const std::string waitV = "        ttng.wait_barrier %vf, %phasep : !ttg.memdesc<1xi64, #bar, "
                            "#smem, mutable>\n";
  const std::string arrive =
      "        ttng.arrive_barrier %ep, 1 : !ttg.memdesc<1xi64, #bar, #smem, "
      "mutable>\n";
  const std::string waitPV = "        %ow:2 = ttng.warp_group_dot_wait";
  ASSERT_NE(text.find(waitV), std::string::npos);
  ASSERT_NE(text.find(arrive), std::string::npos);
  std::string noWait = text;
  noWait.erase(noWait.find(waitV), waitV.size());
  // The empty barrier's index and arrive moved above the P V's wait.
  const std::string index = "        %ep = ttg.memdesc_index %empties[%sp] : "
                            "!ttg.memdesc<3x1xi64, #bar, #smem, mutable> -> !ttg.memdesc<1xi64, "
                            "#bar, #smem, mutable>\n";
  ASSERT_NE(text.find(index), std::string::npos);
  std::string early = text;
  early.erase(early.find(arrive), arrive.size());
  early.erase(early.find(index), index.size());
  early.insert(early.find(waitPV), index + arrive);
  const auto in = attentionInputs(2 * 512 * 128);
  Status s = runWsAttention(noWait, fn, in, 512, 2, 128);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("may still be writing"), std::string::npos) << s.message();
  s = runWsAttention(early, fn, in, 512, 2, 128);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("overwrites shared memory that the default region reads"),
            std::string::npos)
      << s.message();
}

// attention_ws_pp_persistent_tma_d128.tir, its paired causal twin and their d64 forms write O by
// TMA stores from a slot per warp group and wait for a store to have read its slot only before the
// next tile's O goes in (so does the three-group attention_ws_pp_persistent_wg3_d64.tir). On 3
// programs over 4 tiles (6 for wg3), program 0 writes its slots twice: without that wait (in any
// warp group) the second tile's O overwrites what the first tile's store may still be reading,
// which the interpreter reports (the other warp groups' waits retire only their own stores).
TEST(Hopper, TmaStoreAttentionWaitsForItsStores) {
  for (const std::string fn :
       {"attention_ws_pp_persistent_tma_d128", "attention_ws_pp_persistent_paired_tma_d128_causal",
        "attention_ws_pp_persistent_tma_d64", "attention_ws_pp_persistent_paired_tma_d64_causal",
        "attention_ws_pp_persistent_wg3_d64"})
    for (const std::string region : {"", "w1_", "w2_"}) {
      if (region == "w2_" && fn.find("wg3") == std::string::npos)
        continue;
      SCOPED_TRACE(fn + ", warp group " + std::string(region.empty() ? "0" : region.substr(1, 1)));
      const size_t d = size_t(gpukernels::attentionHeadDim(fn));
      // The three-group kernel's tiles are 192 rows: 2 heads make its 6.
      const size_t heads = fn.find("wg3") == std::string::npos ? 1 : 2;
      const std::string text = readFile(examplePath(fn + ".tir"));
      const auto in = attentionInputs(heads * 512 * d);
      const std::string store = "      ttg.local_store %" + region + "out16";
      const std::string wait = "      ttng.async_tma_store_wait {pendings = 0 : i32}\n";
      const size_t at = text.find(store);
      ASSERT_NE(at, std::string::npos);
      ASSERT_EQ(text.rfind(wait, at) + wait.size(), at);
      std::string noWait = text;
      noWait.erase(at - wait.size(), wait.size());
      Status s = runWsAttention(noWait, fn, in, 512, heads, d);
      ASSERT_FALSE(s.ok());
      EXPECT_NE(s.message().find("overwrites shared memory that the "
                                 "ttng.async_tma_copy_local_to_global"),
                std::string::npos)
          << s.message();
      EXPECT_NE(s.message().find("may still be reading: no ttng.async_tma_store_wait"),
                std::string::npos)
          << s.message();
    }
}

// The TMA attention kernels on 3 programs where the tiles' edges matter: 5 heads of 128 positions
// (one key block a tile, so a tile's only S is its last and frees Q's slot, two at d256; programs
// 0 and 1 take 2 tiles) and 3 heads of 384 (9 tiles, 3 a program). Every row is checked (O starts
// as +inf), with the protocol checks.
TEST(Hopper, TmaAttentionCoversEveryTile) {
  for (const char *name :
       {"attention_ws_pp_persistent_tma_d128", "attention_ws_pp_persistent_tmaqo_d128",
        "attention_ws_pp_persistent_chain_d128", "attention_ws_pp_persistent_chain_d64",
        "attention_ws_pp_persistent_paired_tma_d128_causal", "attention_ws_pp_persistent_tma_d64",
        "attention_ws_pp_persistent_paired_tma_d64_causal", "attention_ws_pp_persistent_wg3_d64",
        "attention_ws_pp_persistent_d256", "attention_ws_pp_persistent_d256_causal"}) {
    const std::string fn = name;
    const bool causal = fn.ends_with("_causal");
    const size_t d = size_t(gpukernels::attentionHeadDim(fn));
    for (auto [n, heads] : {std::pair<size_t, size_t>{128, 5}, {384, 3}}) {
      SCOPED_TRACE(fn + ", " + std::to_string(heads) + " heads of " + std::to_string(n));
      const auto in = attentionInputs(heads * n * d);
      std::vector<uint16_t> got;
      Status s = runWsAttention(readFile(examplePath(fn + ".tir")), fn, in, n, heads, d, &got);
      ASSERT_TRUE(s.ok()) << s.message();
      expectAttention(in, got, n, heads, d, causal);
    }
  }
}

// In attention_ws_pp_persistent_tmaqo_d128.tir the producer copies the next tile's Q into a warp
// group's slot once that one's last S of the tile has retired. Freeing the slot before the wait
// that retires it lets the copy overwrite what the wgmma may still read; the interpreter reports
// it.
TEST(Hopper, TmaQAttentionFreesQAfterItsLastS) {
  const std::string fn = "attention_ws_pp_persistent_tmaqo_d128";
  const std::string text = readFile(examplePath(fn + ".tir"));
  const std::string arrive = "        %jlast = arith.subi %nblk, %c1 : i32\n"
                             "        %islast = arith.cmpi eq, %j, %jlast : i32\n"
                             "        ttng.arrive_barrier %qempty0, 1, %islast : "
                             "!ttg.memdesc<1xi64, #bar, #smem, mutable>\n";
  const std::string waitS = "        %sw:3 = ttng.warp_group_dot_wait";
  ASSERT_NE(text.find(arrive), std::string::npos);
  ASSERT_NE(text.find(waitS), std::string::npos);
  std::string early = text;
  early.erase(early.find(arrive), arrive.size());
  early.insert(early.find(waitS), arrive);
  const auto in = attentionInputs(512 * 128);
  Status s = runWsAttention(early, fn, in, 512, 1, 128);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("overwrites shared memory that the default region reads"),
            std::string::npos)
      << s.message();
}

// In attention_ws_pp_persistent_chain_d128.tir a tile's O goes into the slot its Q came from,
// and the producer copies the tile after next's Q there once each warp group has seen the O
// store read it. Freeing the slot without that wait (in either warp group) lets the copy
// overwrite what the store may still be reading; the interpreter reports it.
TEST(Hopper, ChainedAttentionFreesASlotAfterItsStore) {
  const std::string fn = "attention_ws_pp_persistent_chain_d128";
  const std::string text = readFile(examplePath(fn + ".tir"));
  for (const std::string region : {"", "w1_"}) {
    SCOPED_TRACE("warp group " + std::string(region.empty() ? "0" : "1"));
    const std::string wait = "          ttng.async_tma_store_wait {pendings = 0 : i32}\n"
                             "          ttng.arrive_barrier %" +
                             region + "qe, 1";
    const size_t at = text.find(wait);
    ASSERT_NE(at, std::string::npos);
    std::string noWait = text;
    noWait.erase(at, wait.find("          ttng.arrive"));
    const auto in = attentionInputs(512 * 128);
    Status s = runWsAttention(noWait, fn, in, 512, 1, 128);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("may still be reading: no ttng.async_tma_store_wait"),
              std::string::npos)
        << s.message();
  }
}

namespace {

// Runs the one-tile kernel `name` of `m` (A, B and C of 64x64, A and B f16 from small halves) in
// the interpreter: C = A B, or A B^T with B given as [N, K] (`bIsNk`), plus `plus`.
void expectWgmmaTile(const Module &m, const std::string &name, bool bIsNk, double plus = 0) {
  auto af = randomFloats(64 * 64, 7), bf = randomFloats(64 * 64, 8);
  std::vector<uint16_t> ah = halfBitsOf(af), bh = halfBitsOf(bf);
  Memory mem;
  mem.buffers = {bytesOf(ah), bytesOf(bh), bytesOf(std::vector<float>(64 * 64))};
  std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2)};
  Status s = interpret(m, name, args, mem);
  ASSERT_TRUE(s.ok()) << s.message();
  auto c = valuesOf<float>(mem.buffers[2]);
  for (size_t i = 0; i < 64; ++i)
    for (size_t j = 0; j < 64; ++j) {
      double ref = plus;
      for (size_t k = 0; k < 64; ++k)
        ref += double(af[i * 64 + k]) * bf[bIsNk ? j * 64 + k : k * 64 + j];
      ASSERT_EQ(c[i * 64 + j], float(ref)) << i << "," << j;
    }
}

} // namespace

TEST(Hopper, WgmmaTileComputesTheProduct) {
  expectWgmmaTile(loadExample("wgmma_tile.tir"), "wgmma_tile", false);
}

// The NT tile: B given as [N, K], viewed as [K, N] through ttg.memdesc_trans.
TEST(Hopper, WgmmaNtTileComputesTheProductWithBTransposed) {
  expectWgmmaTile(loadExample("wgmma_nt_tile.tir"), "wgmma_nt_tile", true);
}

// Triton's optional fourth operand of ttng.warp_group_dot, useC: where false the accumulator (ones
// here) is ignored, where true added to. It prints back as written; it must be an i1.
TEST(Hopper, WgmmaUseCFlagIgnoresOrAddsTheAccumulator) {
  const std::string text = readFile(examplePath("wgmma_tile.tir"));
  const std::string zero = "%zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>";
  const std::string dot = "%as, %bs, %zero {";
  ASSERT_NE(text.find(zero), std::string::npos);
  ASSERT_NE(text.find(dot), std::string::npos);
  for (const char *flag : {"false", "true", "0 : i32"}) {
    SCOPED_TRACE(flag);
    std::string t = text;
    t.replace(t.find(zero), zero.size(),
              "%zero = arith.constant dense<1.0> : tensor<64x64xf32, #mma>\n    %u = "
              "arith.constant " +
                  std::string(flag));
    t.replace(t.find(dot), dot.size(), "%as, %bs, %zero, %u {");
    auto m = parseModule(t, "wgmma_usec.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    Status v = verify(*m);
    if (std::string(flag) == "0 : i32") {
      ASSERT_FALSE(v.ok());
      EXPECT_NE(v.message().find("the useC flag must be i1"), std::string::npos) << v.message();
      continue;
    }
    ASSERT_TRUE(v.ok()) << v.message();
    const std::string printed = print(*m);
    EXPECT_NE(printed.find("ttng.warp_group_dot %as, %bs, %zero, %u {isAsync = true}"),
              std::string::npos)
        << printed;
    expectWgmmaTile(*m, "wgmma_tile", false, std::string(flag) == "true" ? 1.0 : 0.0);
  }
}

// The pipeline fences the wgmma matmul once, inside the loop right before the dot, keeps what the
// interpreter computes, and a second run of the pass adds nothing.
TEST(Hopper, PipelineFencesTheWgmmaMatmul) {
  Module m = loadExample("matmul_wgmma.tir");
  ASSERT_TRUE(runPipeline(m).ok());
  std::string text = print(m);
  size_t fence = text.find("ttng.fence_async_shared");
  ASSERT_NE(fence, std::string::npos) << text;
  EXPECT_EQ(text.find("ttng.fence_async_shared", fence + 1), std::string::npos) << text;
  EXPECT_LT(text.find("scf.for"), fence);
  EXPECT_LT(text.rfind("ttg.local_alloc"), fence);
  EXPECT_LT(fence, text.find("ttng.warp_group_dot "));
  ASSERT_TRUE(insertFences(m).ok());
  EXPECT_EQ(print(m), text);
}

// A TMA store of a tile written in the innermost of loops nested 24 deep gets one fence, right
// before the store. The pass walks each loop's body several times, for each loop around it too;
// its walks are memoized, so the nest takes polynomial time (unmemoized: 3^24 walks).
TEST(Hopper, FencesInADeepLoopNest) {
  const int depth = 24;
  std::string loops, ends;
  for (int i = 0; i < depth; ++i) {
    loops += "    scf.for %i" + std::to_string(i) + " = %c0 to %n step %c1 : i32 {\n";
    ends += "      scf.yield\n    }\n";
  }
  const std::string text = R"(
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @deep(%out: !tt.tensordesc<tensor<64x64xf16, #sa>>, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %v = arith.constant dense<1.0> : tensor<64x64xf16, #bl>
    %tile = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #sa, #smem, mutable>
)" + loops + R"(
      ttg.local_store %v, %tile : tensor<64x64xf16, #bl> -> !ttg.memdesc<64x64xf16, #sa, #smem, mutable>
      ttng.async_tma_copy_local_to_global %out[%c0, %c0] %tile : !tt.tensordesc<tensor<64x64xf16, #sa>>, !ttg.memdesc<64x64xf16, #sa, #smem, mutable>
      ttng.async_tma_store_wait {pendings = 0 : i32}
)" + ends + R"(
    tt.return
  }
}
)";
  auto m = parseModule(text, "deep.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(insertFences(*m).ok());
  const std::string out = print(*m);
  const size_t fence = out.find("ttng.fence_async_shared");
  ASSERT_NE(fence, std::string::npos) << out;
  EXPECT_EQ(out.find("ttng.fence_async_shared", fence + 1), std::string::npos) << out;
  EXPECT_LT(out.find("ttg.local_store"), fence);
  EXPECT_LT(fence, out.find("ttng.async_tma_copy_local_to_global"));
}
