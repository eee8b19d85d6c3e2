// A brute-force model of the 8-bit floats, independent of the interpreter's arithmetic: the value
// of each of the 256 codes from its fields, and rounding as the nearest code of the value's sign
// (ties to the even code), which saturates at the largest finite value as PTX's cvt.rn.satfinite
// does (infinities too); NaN stays NaN.
#pragma once

#include "linlayout/ir/Type.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace linlayout::ir::testing {

/// The value of code `b` of f8E4M3FN (e4m3: bias 7, NaN at S.1111.111, no infinities) or f8E5M2
/// (e5m2: bias 15, infinities and NaNs at exponent 31).
inline double fp8Decode(uint8_t b, ScalarKind k) {
  const bool e4 = k == ScalarKind::F8E4M3FN;
  const int mantBits = e4 ? 3 : 2, bias = e4 ? 7 : 15, expMax = e4 ? 15 : 31;
  const int exp = (b & 0x7F) >> mantBits, mant = b & ((1 << mantBits) - 1);
  double v;
  if (e4 && exp == expMax && mant == (1 << mantBits) - 1)
    v = std::numeric_limits<double>::quiet_NaN();
  else if (!e4 && exp == expMax)
    v = mant ? std::numeric_limits<double>::quiet_NaN() : INFINITY;
  else if (exp == 0)
    v = mant * std::ldexp(1.0, 1 - bias - mantBits);
  else
    v = (1.0 + mant * std::ldexp(1.0, -mantBits)) * std::ldexp(1.0, exp - bias);
  return (b & 0x80) ? -v : v;
}

/// The code x rounds to: the nearest finite code of x's sign, ties to the even code.
inline uint8_t fp8Encode(double x, ScalarKind k) {
  if (std::isnan(x))
    return 0x7F;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  int best = -1;
  double bestDist = INFINITY;
  for (int m = 0; m < 128; ++m) {
    double v = fp8Decode(uint8_t(m), k);
    if (!std::isfinite(v))
      continue;
    double d = std::isinf(x) ? (INFINITY - v) : std::fabs(std::fabs(x) - v);
    if (std::isinf(x))
      d = -v; // the largest finite
    if (d < bestDist || (d == bestDist && m % 2 == 0)) {
      bestDist = d;
      best = m;
    }
  }
  return uint8_t(sign | best);
}

} // namespace linlayout::ir::testing
