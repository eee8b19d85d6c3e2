// The fp8 warp-specialized matmuls (examples/matmul_fp8_ws_persistent*.tir, and
// matmul_fp8_ws_split*.tir with a region per consumer warp group) on the interpreter:
// e4m3 inputs whose products and sums f32 holds exactly, so C must be the float64 product times
// the two scales, whatever the order of the sums; the f16 and bf16 outputs are that product
// rounded once. 3 programs walk the tiles, so the ring's phases go on across tiles.
#include "Examples.h"

#include "kernels/Fp8.h"
#include "kernels/TileKernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;
using linlayout::testing::decodeE4M3;
using linlayout::testing::encodeE4M3;

namespace {

// n random e4m3 bytes of magnitudes 2^-2 to 2^2 (and some zeros): products are multiples of
// 2^-11 below 2^4, so a sum of up to 512 of them needs at most 24 bits and f32 holds it exactly.
std::vector<uint8_t> randomE4M3(size_t n, std::mt19937_64 &rng) {
  std::vector<uint8_t> v(n);
  for (uint8_t &x : v)
    x = rng() % 16 == 0 ? 0
                        : uint8_t((rng() % 2 ? 0x80 : 0) | ((5 + rng() % 4) << 3) | (rng() % 8));
  return v;
}

struct Fp8Run {
  Status status = Status::success();
  std::vector<uint8_t> c;
};

// `fn` of `m` on A (M x K) and B (N x K) by `programs` programs, C (M x N, `outBytes` each)
// row-major.
Fp8Run runFp8(const Module &m, const std::string &fn, const std::vector<uint8_t> &a,
              const std::vector<uint8_t> &b, int M, int N, int K, size_t outBytes, double scaleA,
              double scaleB, unsigned programs) {
  Memory mem;
  mem.buffers = {a, b, std::vector<uint8_t>(size_t(M) * N * outBytes, 0xff)};
  std::vector<ArgValue> args = {
      ArgValue::tensorDesc(0, {M, K}, {K, 1}), ArgValue::tensorDesc(1, {N, K}, {K, 1}),
      // C is a pointer, or a tensor map for TMA stores.
      m.functions.at(0).type(m.functions.at(0).body.args.at(2)).isTensorDesc()
          ? ArgValue::tensorDesc(2, {M, N}, {N, 1})
          : ArgValue::pointer(2),
      ArgValue::integer(K), ArgValue::integer(N), ArgValue::integer(M), ArgValue::integer(N),
      ArgValue::floating(scaleA), ArgValue::floating(scaleB)};
  InterpreterOptions strict;
  strict.checkProxyFences = true;
  Fp8Run r;
  r.status = interpret(m, fn, args, mem, Grid{programs, 1, 1}, strict);
  r.c = std::move(mem.buffers[2]);
  return r;
}

// `kernel` (examples/KERNEL_f32out.tir, and KERNEL.tir in f16 and bf16) on random A (M x K) and
// B (N x K), run by each count of `programs`: the f32 C must be the float64 product times the
// scales exactly, the f16 and bf16 ones that product rounded once.
void expectScaledProduct(const std::string &kernel, int M, int N, int K, std::mt19937_64 &rng,
                         std::initializer_list<unsigned> programs = {3}) {
  const double scaleA = 0.5, scaleB = 0.25;
  const std::string dir = gpukernels::sourceDir(LINLAYOUT_SOURCE_DIR);
  const std::vector<uint8_t> a = randomE4M3(size_t(M) * K, rng), b = randomE4M3(size_t(N) * K, rng);
  std::vector<double> da(a.size()), db(b.size());
  std::transform(a.begin(), a.end(), da.begin(), decodeE4M3);
  std::transform(b.begin(), b.end(), db.begin(), decodeE4M3);
  std::vector<double> want = productF64(da, db, M, N, K, 1, size_t(K));
  for (double &w : want)
    w = w * scaleA * scaleB;
  auto f32 = gpukernels::matmulKernel(ScalarKind::F16, dir, kernel + "_f32out.tir");
  ASSERT_TRUE(f32.ok()) << f32.message();
  // f16 as written; bf16 as the tests and the benchmark make it (its C's f16 made bf16).
  auto f16 = gpukernels::matmulKernel(ScalarKind::F16, dir, kernel + ".tir");
  ASSERT_TRUE(f16.ok()) << f16.message();
  auto bf16 = gpukernels::matmulKernel(ScalarKind::BF16, dir, kernel + ".tir");
  ASSERT_TRUE(bf16.ok()) << bf16.message();
  for (unsigned n : programs) {
    SCOPED_TRACE(kernel + " by " + std::to_string(n) + " programs");
    Fp8Run r = runFp8(*f32, kernel + "_f32out", a, b, M, N, K, 4, scaleA, scaleB, n);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    std::vector<float> c = valuesOf<float>(r.c);
    for (size_t e = 0; e < want.size(); ++e)
      ASSERT_EQ(double(c[e]), want[e]) << "C(" << e / N << ", " << e % N << ")";
    for (ScalarKind out : {ScalarKind::F16, ScalarKind::BF16}) {
      SCOPED_TRACE(std::string(name(out)) + " out");
      const bool isF16 = out == ScalarKind::F16;
      Fp8Run h = runFp8(isF16 ? *f16 : *bf16, kernel, a, b, M, N, K, 2, scaleA, scaleB, n);
      ASSERT_TRUE(h.status.ok()) << h.status.message();
      std::vector<uint16_t> bits = valuesOf<uint16_t>(h.c);
      const int mantissa = isF16 ? 11 : 8;
      for (size_t e = 0; e < want.size(); ++e) {
        const double got = isF16 ? fromHalfBits(bits[e]) : fromBf16Bits(bits[e]);
        int ex = 0;
        std::frexp(want[e], &ex);
        const double halfUlp = std::ldexp(1.0, ex - mantissa - 1);
        ASSERT_LE(std::abs(got - want[e]), halfUlp) << "C(" << e / N << ", " << e % N << ")";
      }
    }
  }
}

} // namespace

TEST(Fp8Matmul, WarpSpecializedKernelsComputeTheScaledProduct) {
  std::mt19937_64 rng(42);
  // K: a partial step (the rest reads as zero), and 3 steps (no multiple of 4 stages).
  for (int K : {48, 384}) {
    SCOPED_TRACE("K " + std::to_string(K));
    // The cooperative kernels, and the ones with a region per consumer warp group.
    for (std::string kernel : {"matmul_fp8_ws_persistent", "matmul_fp8_ws_split"}) {
      SCOPED_TRACE(kernel);
      expectScaledProduct(kernel, 256, 512, K, rng);
    }
  }
}

// matmul_fp8_ws_split*.tir order their tiles and K steps for L2 as matmul_ws_split_tmastore.tir
// does: 18 x 2 tiles make a group of 16 M tiles and one of 2 (walking N from the right), and
// 3 programs walk them in 12 waves, every other one with K backwards; 33 programs, more than a
// group's 32 tiles, in 2 waves.
TEST(Fp8Matmul, SplitOrderComputesEveryTileOnce) {
  std::mt19937_64 rng(7);
  expectScaledProduct("matmul_fp8_ws_split", 2304, 512, 256, rng, {3, 33});
}

// Every byte but the NaNs decodes to a value that encodes back to it (and -0 to 0x80); halfway
// values round to the even neighbour, and beyond the largest finite value to it.
TEST(Fp8Matmul, E4M3RoundTripsAndRounds) {
  for (int b = 0; b < 256; ++b) {
    const double v = decodeE4M3(uint8_t(b));
    if ((b & 0x7F) == 0x7F) {
      EXPECT_TRUE(std::isnan(v)) << b;
      continue;
    }
    EXPECT_EQ(encodeE4M3(float(v)), b) << b << " " << v;
  }
  EXPECT_EQ(decodeE4M3(0x7E), 448);
  EXPECT_EQ(encodeE4M3(1.0625f), 0x38); // halfway between 1 and 1.125: to even (1)
  EXPECT_EQ(encodeE4M3(1.1875f), 0x3A); // halfway between 1.125 and 1.25: to even (1.25)
  EXPECT_EQ(encodeE4M3(1e6f), 0x7E);
  EXPECT_EQ(encodeE4M3(-1e6f), 0xFE);
  EXPECT_EQ(encodeE4M3(std::ldexp(1.0f, -10)), 0x00); // half the least subnormal: to even (0)
  EXPECT_EQ(encodeE4M3(std::ldexp(3.0f, -10)), 0x02); // 1.5 subnormal steps: to even (2)
}
