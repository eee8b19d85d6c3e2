// f8E4M3FN values for the fp8 matmul and attention tests and benchmarks: the value of a byte, the
// byte nearest a float (as torch's `.to(torch.float8_e4m3fn)` rounds: to nearest even, saturating
// at 448), random inputs shaped like torch.randn's, so that our rows and torch._scaled_mm's
// multiply alike data, and the attention kernels' reference. Header-only and free of test
// frameworks, so the benchmark can include it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace linlayout::testing {

/// The value of an f8E4M3FN byte (NaN for 0x7F and 0xFF, the format's only NaNs).
/// Ensures: decodeE4M3(encodeE4M3(decodeE4M3(b))) == decodeE4M3(b) for every non-NaN b.
inline double decodeE4M3(uint8_t b) {
  const int e = (b >> 3) & 0xF, mant = b & 7;
  if (e == 15 && mant == 7)
    return NAN;
  const double v = e == 0 ? std::ldexp(mant, -9) : std::ldexp(8 + mant, e - 10);
  return (b & 0x80) ? -v : v;
}

/// The f8E4M3FN byte nearest `x` (ties to even; beyond 448, 448 of x's sign; NaN is 0x7F).
inline uint8_t encodeE4M3(float x) {
  if (std::isnan(x))
    return 0x7F;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  const double a = std::fabs(double(x));
  if (a >= 448)
    return sign | 0x7E;
  if (a < std::ldexp(1.0, -6)) // subnormal: multiples of 2^-9 (8 rounds up to the least normal)
    return sign | uint8_t(std::nearbyint(std::ldexp(a, 9)));
  int e = 0;
  const double f = std::frexp(a, &e); // a = f * 2^e, f in [0.5, 1)
  int mant = int(std::nearbyint((2 * f - 1) * 8));
  if (mant == 8) {
    mant = 0;
    ++e;
  }
  const int field = e - 1 + 7;
  if (field > 15 || (field == 15 && mant == 7))
    return sign | 0x7E;
  return sign | uint8_t(field << 3) | uint8_t(mant);
}

/// `n` bytes of standard normal samples rounded to f8E4M3FN (torch.randn(...).to(e4m3)).
inline std::vector<uint8_t> randomNormalE4M3(size_t n, std::mt19937_64 &rng) {
  std::normal_distribution<float> d(0, 1);
  std::vector<uint8_t> v(n);
  for (uint8_t &x : v)
    x = encodeE4M3(d(rng));
  return v;
}

/// One row of the fp8 attention kernels' O (examples/attention_fp8_ws_pp_persistent_d128*.tir)
/// in float64, and how far each element of the kernel's may lie from it.
struct Fp8AttentionRow {
  std::vector<double> o, bound;
};

/// Row i of head h of O = descale_v * softmax(Q K^T * scale) V, over e4m3 Q and K ([heads * n,
/// d]) and V^T ([heads * d, n]); scale is sm_scale * descale_q * descale_k, and a causal row sees
/// keys 0 .. i. The bound is the kernels' roundings beyond f32's: P's to e4m3 (relative 2^-4,
/// subnormals absolute 2^-10) and O's to bf16 (2^-8 relative, with room for f32's sums):
/// descale_v * (max |v| / 16 + 2^-10 * sum |v| / l) + |o| * 2^-8 per element.
inline Fp8AttentionRow fp8AttentionRow(const std::vector<uint8_t> &q, const std::vector<uint8_t> &k,
                                       const std::vector<uint8_t> &vt, size_t n, size_t d, size_t h,
                                       size_t i, bool causal, double scale, double descaleV) {
  const size_t keys = causal ? i + 1 : n;
  std::vector<double> qi(d), p(keys);
  for (size_t c = 0; c < d; ++c)
    qi[c] = decodeE4M3(q[(h * n + i) * d + c]);
  double mx = -INFINITY, l = 0;
  for (size_t j = 0; j < keys; ++j) {
    double dot = 0;
    for (size_t c = 0; c < d; ++c)
      dot += qi[c] * decodeE4M3(k[(h * n + j) * d + c]);
    mx = std::max(mx, p[j] = dot * scale);
  }
  for (double &x : p)
    l += x = std::exp(x - mx);
  Fp8AttentionRow row;
  for (size_t c = 0; c < d; ++c) {
    double o = 0, vmax = 0, vsum = 0;
    for (size_t j = 0; j < keys; ++j) {
      const double v = decodeE4M3(vt[(h * d + c) * n + j]);
      o += p[j] * v;
      vmax = std::max(vmax, std::abs(v));
      vsum += std::abs(v);
    }
    o *= descaleV / l;
    row.o.push_back(o);
    row.bound.push_back(descaleV * (vmax / 16 + std::ldexp(vsum / l, -10)) +
                        std::ldexp(std::abs(o), -8));
  }
  return row;
}

} // namespace linlayout::testing
