// The fp8 attention kernels (examples/attention_fp8_ws_pp_persistent_d128*.tir, written by
// scripts/gen-pp-attention.py) on the interpreter, after the pass pipeline and with the protocol
// checks: e4m3 Q, K and V^T, O in bf16, against a double-precision softmax(Q K^T * scale) V
// within the bound of the kernels' roundings (testing::fp8AttentionRow). The scores are spread
// (their scale is 2 / sqrt(d)) so that a few keys carry each row: P applied to the wrong rows of V
// would be off by about max |v|.
#include "Examples.h"

#include "kernels/Fp8.h"

#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;
using linlayout::testing::fp8AttentionRow;
using linlayout::testing::randomNormalE4M3;

namespace {

constexpr size_t kD = 128;
constexpr double kSmScale = 0.08838834764831845; // 1 / sqrt(128)
constexpr double kDescaleQ = 2, kDescaleK = 1, kDescaleV = 0.5;

struct Fp8AttentionInputs {
  std::vector<uint8_t> q, k, vt; // [heads * n, d], [heads * n, d], [heads * d, n]
};

Fp8AttentionInputs fp8AttentionInputs(size_t n, size_t heads, unsigned seed) {
  std::mt19937_64 rng(seed);
  Fp8AttentionInputs in;
  in.q = randomNormalE4M3(heads * n * kD, rng);
  in.k = randomNormalE4M3(heads * n * kD, rng);
  in.vt = randomNormalE4M3(heads * n * kD, rng);
  return in;
}

// Runs `fn` (examples/<fn>.tir) on 3 programs; `out` gets O's bf16 bits (+inf where unwritten).
Status runFp8Attention(const std::string &fn, const Fp8AttentionInputs &in, size_t n, size_t heads,
                       std::vector<uint16_t> *out) {
  auto m = parseModule(readFile(examplePath(fn + ".tir")), fn + ".tir");
  if (!m.ok())
    return makeError(m.message());
  LL_TRY_STATUS(verify(*m));
  LL_TRY_STATUS(runPipeline(*m));
  Memory mem;
  mem.buffers = {in.q, in.k, in.vt,
                 bytesOf(std::vector<uint16_t>(heads * n * kD, 0x7F80))}; // +inf: unwritten
  const int64_t rows = int64_t(heads * n), d = int64_t(kD);
  std::vector<ArgValue> args = {
      ArgValue::tensorDesc(0, {rows, d}, {d, 1}),
      ArgValue::tensorDesc(1, {rows, d}, {d, 1}),
      ArgValue::tensorDesc(2, {int64_t(heads) * d, int64_t(n)}, {int64_t(n), 1}),
      ArgValue::pointer(3),
      ArgValue::integer(int64_t(n)),
      ArgValue::floating(kSmScale),
      ArgValue::integer(int64_t(heads)),
      ArgValue::floating(kDescaleQ),
      ArgValue::floating(kDescaleK),
      ArgValue::floating(kDescaleV)};
  InterpreterOptions strict;
  strict.checkProxyFences = true;
  LL_TRY_STATUS(interpret(*m, fn, args, mem, Grid{3, 1, 1}, strict));
  *out = valuesOf<uint16_t>(mem.buffers[3]);
  return Status::success();
}

// Every row of every head against the double-precision reference, within its bound
// (testing::fp8AttentionRow); the mean error must also stay well under it: 1.1-1.9 % of the
// bound here, as the roundings of P mostly cancel; a wrong P does not.
void expectFp8Attention(const Fp8AttentionInputs &in, const std::vector<uint16_t> &got, size_t n,
                        size_t heads, bool causal) {
  double sumErr = 0, sumBound = 0;
  for (size_t h = 0; h < heads; ++h)
    for (size_t i = 0; i < n; ++i) {
      const auto want = fp8AttentionRow(in.q, in.k, in.vt, n, kD, h, i, causal,
                                        kSmScale * kDescaleQ * kDescaleK, kDescaleV);
      for (size_t c = 0; c < kD; ++c) {
        const double o = fromBf16Bits(got[(h * n + i) * kD + c]);
        ASSERT_LE(std::abs(o - want.o[c]), want.bound[c])
            << "head " << h << ", row " << i << ", column " << c << ": " << o << ", want "
            << want.o[c];
        sumErr += std::abs(o - want.o[c]);
        sumBound += want.bound[c];
      }
    }
  EXPECT_LT(sumErr, sumBound / 16) << "mean error " << sumErr / double(heads * n * kD);
}

} // namespace

// On 3 programs: 2 heads of 256 positions (4 tiles; the non-causal kernel's key blocks of 128 make
// two steps a tile) and 3 heads of 384 (9 tiles, the ring's phases go on across tiles); the causal
// kernel (key blocks of 64, the diagonal's two first, tiles in folded pairs) on 5 heads of 256 as
// well, where the pairs straddle heads and one program idles in the last round.
TEST(Fp8Attention, MatchesTheDoublePrecisionSoftmax) {
  for (const std::string fn :
       {"attention_fp8_ws_pp_persistent_d128", "attention_fp8_ws_pp_persistent_d128_causal"}) {
    const bool causal = fn.ends_with("_causal");
    std::vector<std::pair<size_t, size_t>> shapes = {{256, 2}, {384, 3}};
    if (causal)
      shapes.push_back({256, 5});
    for (auto [n, heads] : shapes) {
      SCOPED_TRACE(fn + ", " + std::to_string(heads) + " heads of " + std::to_string(n));
      const auto in = fp8AttentionInputs(n, heads, unsigned(n + heads));
      std::vector<uint16_t> got;
      Status s = runFp8Attention(fn, in, n, heads, &got);
      ASSERT_TRUE(s.ok()) << s.message();
      expectFp8Attention(in, got, n, heads, causal);
    }
  }
}
