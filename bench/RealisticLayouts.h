// Layouts for the benchmarks and the allocation tests: a 128x128 tile over 4 warps (14 in bits) in
// a blocked and an mma-like register layout, a broadcast variant, a swizzled shared-memory layout,
// and dense 64-bit extremes.
#pragma once

#include "linlayout/layout/LinearLayout.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <random>
#include <vector>

namespace linlayout::bench {

inline LinearLayout mustBuild(std::vector<InDimBases> ins, std::vector<DimSize> outs) {
  auto l = LinearLayout::fromBases(ins, outs);
  assert(l.ok());
  return *l;
}

/// Blocked: sizePerThread [1,4], threadsPerWarp [4,8], warpsPerCTA [4,1], order [1,0] over
/// 128x128. Bijective, 14 in bits.
inline LinearLayout blocked128() {
  return mustBuild({{DimName::reg(), {{0, 1}, {0, 2}, {0, 32}, {0, 64}, {16, 0}, {32, 0}, {64, 0}}},
                    {DimName::lane(), {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}},
                    {DimName::warp(), {{4, 0}, {8, 0}}},
                    {DimName::block(), {}}},
                   {{DimName::dim(0), 128}, {DimName::dim(1), 128}});
}

/// An mma-v2-like accumulator layout over 128x128 with warps [2,2]. Bijective, 14 in bits.
inline LinearLayout mma128() {
  return mustBuild({{DimName::reg(), {{0, 1}, {8, 0}, {0, 16}, {0, 32}, {0, 64}, {32, 0}, {64, 0}}},
                    {DimName::lane(), {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
                    {DimName::warp(), {{16, 0}, {0, 8}}},
                    {DimName::block(), {}}},
                   {{DimName::dim(0), 128}, {DimName::dim(1), 128}});
}

/// blocked128 over 8 warps and 2 CTAs where the extra warp bit and the CTA bit broadcast:
/// 16 in bits onto 14 out bits, surjective, not injective.
inline LinearLayout broadcast128() {
  return mustBuild({{DimName::reg(), {{0, 1}, {0, 2}, {0, 32}, {0, 64}, {16, 0}, {32, 0}, {64, 0}}},
                    {DimName::lane(), {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}},
                    {DimName::warp(), {{4, 0}, {8, 0}, {0, 0}}},
                    {DimName::block(), {{0, 0}}}},
                   {{DimName::dim(0), 128}, {DimName::dim(1), 128}});
}

/// blocked128 over 2 CTAs that each hold their own block of a 2-block tensor: in dim block maps
/// onto out dim block as the identity, so `quotient({block})` divides it out (15 in bits).
inline LinearLayout blocked128PerCta() {
  return mustBuild(
      {{DimName::reg(),
        {{0, 1, 0}, {0, 2, 0}, {0, 32, 0}, {0, 64, 0}, {16, 0, 0}, {32, 0, 0}, {64, 0, 0}}},
       {DimName::lane(), {{0, 4, 0}, {0, 8, 0}, {0, 16, 0}, {1, 0, 0}, {2, 0, 0}}},
       {DimName::warp(), {{4, 0, 0}, {8, 0, 0}}},
       {DimName::block(), {{0, 0, 1}}}},
      {{DimName::dim(0), 128}, {DimName::dim(1), 128}, {DimName::block(), 2}});
}

/// A swizzled shared-memory layout of the 128x128 tile: (dim0, dim1) -> offset, rows of 128
/// elements, dim0's low 3 bits XORed into dim1's bits 3..5 (vectors of 8).
inline LinearLayout swizzledShared128() {
  std::vector<std::vector<uint64_t>> d0, d1;
  for (int i = 0; i < 7; ++i)
    d1.push_back({uint64_t(1) << i});
  for (int j = 0; j < 7; ++j)
    d0.push_back({(uint64_t(1) << (7 + j)) ^ (j < 3 ? uint64_t(1) << (3 + j) : 0)});
  return mustBuild({{DimName::dim(0), d0}, {DimName::dim(1), d1}}, {{DimName::offset(), 1 << 14}});
}

/// A dense bijection on 64 bits: register, lane, warp, block (16 bits each) onto dim0, dim1 (32
/// bits each), built as a random lower-unitriangular matrix times a permutation (so invertible).
inline LinearLayout dense64(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> perm(64);
  for (int i = 0; i < 64; ++i)
    perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<InDimBases> ins = {
      {DimName::reg(), {}}, {DimName::lane(), {}}, {DimName::warp(), {}}, {DimName::block(), {}}};
  for (int c = 0; c < 64; ++c) {
    int p = perm[c];
    // Unit bit p plus random bits above it: triangular after permuting, hence independent.
    uint64_t above = p == 63 ? 0 : rng() & ~((uint64_t(2) << p) - 1);
    uint64_t col = (uint64_t(1) << p) | above;
    ins[c / 16].bases.push_back({col & 0xffffffffu, col >> 32});
  }
  return mustBuild(ins,
                   {{DimName::dim(0), uint64_t(1) << 32}, {DimName::dim(1), uint64_t(1) << 32}});
}

/// A dense bijection on 32 bits: register, lane, warp, block (8 bits each) onto dim0, dim1 (16
/// bits each), built as dense64. The widest inverse Triton's C++ computes: it solves on one
/// 64-bit word per row holding both matrices.
inline LinearLayout dense32(uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> perm(32);
  for (int i = 0; i < 32; ++i)
    perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<InDimBases> ins = {
      {DimName::reg(), {}}, {DimName::lane(), {}}, {DimName::warp(), {}}, {DimName::block(), {}}};
  for (int c = 0; c < 32; ++c) {
    int p = perm[c];
    uint64_t above = rng() & 0xffffffffu & ~((uint64_t(2) << p) - 1);
    uint64_t col = (uint64_t(1) << p) | above;
    ins[c / 8].bases.push_back({col & 0xffffu, col >> 16});
  }
  return mustBuild(ins, {{DimName::dim(0), 1 << 16}, {DimName::dim(1), 1 << 16}});
}

/// A dense bijection from (dim0, dim1) onto two 32-bit out dims x, y (composes after dense64).
inline LinearLayout dense64Shared(uint64_t seed) {
  LinearLayout l = dense64(seed);
  std::vector<InDimBases> b = l.bases();
  b[0].name = DimName::dim(0);
  b[1].name = DimName::dim(1);
  b[0].bases.insert(b[0].bases.end(), b[1].bases.begin(), b[1].bases.end());
  b[1].bases.clear();
  b[1].bases.insert(b[1].bases.end(), b[2].bases.begin(), b[2].bases.end());
  b[1].bases.insert(b[1].bases.end(), b[3].bases.begin(), b[3].bases.end());
  b.resize(2);
  return mustBuild(
      b, {{DimName::get("x"), uint64_t(1) << 32}, {DimName::get("y"), uint64_t(1) << 32}});
}

} // namespace linlayout::bench
