// f8E4M3FN values for the fp8 matmul tests and benchmark: the value of a byte, the byte nearest a
// float (as torch's `.to(torch.float8_e4m3fn)` rounds: to nearest even, saturating at 448), and
// random inputs shaped like torch.randn's, so that our rows and torch._scaled_mm's multiply alike
// data. Header-only and free of test frameworks, so the benchmark can include it.
#pragma once

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

} // namespace linlayout::testing
