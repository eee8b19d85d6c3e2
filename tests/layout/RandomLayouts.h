// Random layouts for the conversion and bank-conflict properties: distributed layouts onto a 2-D
// tensor (surjective, with broadcast registers, lanes and warps), bijective shared layouts with
// XOR swizzles, and hardware specs of every family (blocked, mma v2/v3, slice, dot operand).
// Everything is drawn from one seed so rapidcheck can report and replay a failing case.
#pragma once

#include "linlayout/layout/LayoutColumns.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/layout/LinearLayout.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <vector>

namespace linlayout::testing {

using Rng = std::mt19937_64;

inline int uniform(Rng &rng, int lo, int hi) { // inclusive
  return std::uniform_int_distribution<int>(lo, hi)(rng);
}

/// Out dims dim0 (2^rows) and dim1 (2^cols).
inline std::vector<DimSize> tensorDims(int rowBits, int colBits) {
  return {{DimName::dim(0), uint64_t(1) << rowBits}, {DimName::dim(1), uint64_t(1) << colBits}};
}

/// A random distributed layout over a 2^rowBits x 2^colBits tensor with `regBits` registers,
/// 32 lanes, 2^warpBits warps and 2^blockBits blocks. Every tensor bit is placed on one
/// hardware bit (so the layout is surjective); remaining hardware bits broadcast (zero) or,
/// with `mix`, repeat a combination of others. With `swizzle`, placed columns also pick up
/// XORs of lower tensor bits.
inline std::optional<LinearLayout> randomDistributed(Rng &rng, int rowBits, int colBits,
                                                     int regBits, int warpBits, int blockBits,
                                                     bool mix, bool swizzle) {
  int n = rowBits + colBits;
  int hw = regBits + 5 + warpBits + blockBits;
  if (hw < n)
    return std::nullopt;
  std::vector<uint64_t> cols(hw, 0);
  std::vector<int> slots(hw);
  for (int i = 0; i < hw; ++i)
    slots[i] = i;
  std::shuffle(slots.begin(), slots.end(), rng);
  std::vector<uint64_t> units;
  for (int b = 0; b < n; ++b)
    units.push_back(uint64_t(1) << b);
  std::shuffle(units.begin(), units.end(), rng);
  for (int b = 0; b < n; ++b) {
    uint64_t v = units[b];
    if (swizzle && uniform(rng, 0, 3) == 0 && b > 0)
      v ^= units[uniform(rng, 0, b - 1)];
    cols[slots[b]] = v;
  }
  // Placed column b is unit b plus lower units only: they stay independent.
  for (int i = n; i < hw; ++i)
    if (mix && uniform(rng, 0, 2) == 0)
      cols[slots[i]] = cols[slots[uniform(rng, 0, n - 1)]] ^
                       (uniform(rng, 0, 1) ? cols[slots[uniform(rng, 0, n - 1)]] : 0);
  std::vector<InDimColumns> ins{
      {DimName::reg(), {}}, {DimName::lane(), {}}, {DimName::warp(), {}}, {DimName::block(), {}}};
  int k = 0;
  for (int i = 0; i < regBits; ++i)
    ins[0].columns.push_back(cols[k++]);
  for (int i = 0; i < 5; ++i)
    ins[1].columns.push_back(cols[k++]);
  for (int i = 0; i < warpBits; ++i)
    ins[2].columns.push_back(cols[k++]);
  for (int i = 0; i < blockBits; ++i)
    ins[3].columns.push_back(cols[k++]);
  auto dims = tensorDims(rowBits, colBits);
  auto l = layoutFromColumns(ins, dims);
  if (!l.ok() || !l->isSurjective())
    return std::nullopt;
  return *l;
}

/// A random bijective shared layout (offset -> tensor) over the same tensor: a permutation of
/// the tensor bits with random XOR swizzles of higher offset bits into lower ones.
inline LinearLayout randomShared(Rng &rng, int rowBits, int colBits) {
  int n = rowBits + colBits;
  std::vector<uint64_t> cols;
  for (int b = 0; b < n; ++b)
    cols.push_back(uint64_t(1) << b);
  std::shuffle(cols.begin(), cols.end(), rng);
  // Adding a lower column into a higher one keeps the matrix invertible.
  for (int i = 1; i < n; ++i)
    if (uniform(rng, 0, 2) == 0)
      cols[i] ^= cols[uniform(rng, 0, i - 1)];
  std::vector<InDimColumns> ins{{DimName::offset(), cols}};
  auto dims = tensorDims(rowBits, colBits);
  return *layoutFromColumns(ins, dims);
}

/// A random hardware distributed spec for a 2-D tensor with `warps` warps (a power of two),
/// from the families blocked, mma v2, mma v3, slice of a 3-D blocked, dot operand of mma v2.
inline std::optional<LayoutSpec> randomHardwareSpec(Rng &rng, int warps) {
  int wb = 63 - __builtin_clzll(uint64_t(warps));
  auto split2 = [&](int bits) { // two powers of two with product 2^bits
    int a = uniform(rng, 0, bits);
    return std::vector<int64_t>{int64_t(1) << a, int64_t(1) << (bits - a)};
  };
  int family = uniform(rng, 0, 4);
  if (family == 0) {
    std::vector<int64_t> spt{int64_t(1) << uniform(rng, 0, 3), int64_t(1) << uniform(rng, 0, 3)};
    auto tpw = split2(5), wpc = split2(wb);
    std::vector<int64_t> order =
        uniform(rng, 0, 1) ? std::vector<int64_t>{1, 0} : std::vector<int64_t>{0, 1};
    auto b = BlockedSpec::make(spt, tpw, wpc, order);
    if (!b.ok())
      return std::nullopt;
    return LayoutSpec(*b);
  }
  if (family == 1 || family == 4) {
    auto m = NvidiaMmaSpec::make(2, 0, split2(wb), {16, 8});
    if (!m.ok())
      return std::nullopt;
    if (family == 1)
      return LayoutSpec(*m);
    int kWidth = uniform(rng, 0, 1) ? 2 : 4;
    auto d = DotOperandSpec::make(uniform(rng, 0, 1), LayoutSpec(*m), kWidth);
    if (!d.ok())
      return std::nullopt;
    return LayoutSpec(*d);
  }
  if (family == 2) {
    if (wb < 2)
      return std::nullopt;
    std::vector<int64_t> w{int64_t(warps), 1};
    auto m = NvidiaMmaSpec::make(3, 0, w, {16, int64_t(8) << uniform(rng, 0, 3), 16});
    if (!m.ok())
      return std::nullopt;
    return LayoutSpec(*m);
  }
  // Slice of a 3-D blocked layout.
  std::vector<int64_t> spt{int64_t(1) << uniform(rng, 0, 2), int64_t(1) << uniform(rng, 0, 2),
                           int64_t(1) << uniform(rng, 0, 2)};
  int a = uniform(rng, 0, 5), bb = uniform(rng, 0, 5 - a);
  std::vector<int64_t> tpw{int64_t(1) << a, int64_t(1) << bb, int64_t(1) << (5 - a - bb)};
  int wa = uniform(rng, 0, wb), wbb = uniform(rng, 0, wb - wa);
  std::vector<int64_t> wpc{int64_t(1) << wa, int64_t(1) << wbb, int64_t(1) << (wb - wa - wbb)};
  std::vector<int64_t> order{0, 1, 2};
  std::shuffle(order.begin(), order.end(), rng);
  auto parent = BlockedSpec::make(spt, tpw, wpc, order);
  if (!parent.ok())
    return std::nullopt;
  auto s = SliceSpec::make(uniform(rng, 0, 2), LayoutSpec(*parent));
  if (!s.ok())
    return std::nullopt;
  return LayoutSpec(*s);
}

} // namespace linlayout::testing
