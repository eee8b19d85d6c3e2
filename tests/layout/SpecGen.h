// rapidcheck choices of valid layout specs and shapes (call inside a property). Sizes stay small
// so that a brute-force evaluator can enumerate every input.
#pragma once

#include "SpecTestUtil.h"

#include <rapidcheck.h>

#include <algorithm>
#include <numeric>

namespace linlayout::testing {

/// A power of two 2^k with lo <= k <= hi.
inline int64_t pow2In(int lo, int hi) { return int64_t(1) << *rc::gen::inRange(lo, hi + 1); }

/// A random permutation of 0..n-1.
inline I64s permutation(int n) {
  I64s p(static_cast<size_t>(n));
  std::iota(p.begin(), p.end(), 0);
  for (int i = n - 1; i > 0; --i)
    std::swap(p[size_t(i)], p[size_t(*rc::gen::inRange(0, i + 1))]);
  return p;
}

/// Splits 2^bits over `rank` dims at random (each entry a power of two).
inline I64s splitPow2(int bits, int rank) {
  I64s r(static_cast<size_t>(rank), 1);
  for (int b = 0; b < bits; ++b)
    r[size_t(*rc::gen::inRange(0, rank))] *= 2;
  return r;
}

/// A surjective CGA layout with up to maxBits block bits; with allowBroadcast some bits are zero.
inline CgaLayout cgaLayout(int rank, int maxBits, bool allowBroadcast) {
  int bits = *rc::gen::inRange(0, maxBits + 1);
  std::vector<std::vector<int64_t>> bases;
  I64s next(static_cast<size_t>(rank), 1);
  for (int i = 0; i < bits; ++i) {
    std::vector<int64_t> b(size_t(rank), 0);
    if (!allowBroadcast || *rc::gen::inRange(0, 4) != 0) {
      int d = *rc::gen::inRange(0, rank);
      b[size_t(d)] = next[size_t(d)];
      next[size_t(d)] *= 2;
    }
    bases.push_back(std::move(b));
  }
  return ok(CgaLayout::fromBases(bases, rank));
}

/// A blocked layout with 32 lanes and up to 8 warps.
inline BlockedSpec blockedSpec(int rank, bool withCga = true, bool allowBroadcast = true) {
  I64s spt(static_cast<size_t>(rank));
  for (auto &x : spt)
    x = pow2In(0, 2);
  I64s tpw = splitPow2(5, rank);
  I64s wpc = splitPow2(*rc::gen::inRange(0, 4), rank);
  CgaLayout cga = withCga ? cgaLayout(rank, 2, allowBroadcast) : CgaLayout::single(rank);
  return ok(BlockedSpec::make(spt, tpw, wpc, permutation(rank), cga));
}

/// An Ampere or Hopper accumulator layout of rank 2 or 3 (a leading batch dim).
inline NvidiaMmaSpec mmaSpec(int rank, bool hopper) {
  if (hopper) {
    // Whole warp groups: 4 warps along M, maybe doubled along any dim.
    I64s warps(size_t(rank), 1);
    warps[size_t(rank - 2)] = 4;
    int more = *rc::gen::inRange(0, 2);
    warps[size_t(*rc::gen::inRange(0, rank))] *= int64_t(1) << more;
    return ok(NvidiaMmaSpec::make(3, 0, warps, {16, pow2In(3, 8), 16}));
  }
  return ok(NvidiaMmaSpec::make(2, 0, splitPow2(*rc::gen::inRange(0, 4), rank),
                                rank == 3 ? I64s{1, 16, 8} : I64s{16, 8}));
}

/// An AMD MFMA accumulator layout (64-lane wavefronts) of rank 2 or 3: every instruction shape,
/// both orientations, 32- and 64-bit elements, tiles per warp, a CGA split.
inline AmdMfmaSpec amdMfmaSpec(int rank, bool withCga = true) {
  static const I64s kShapes[] = {{32, 32}, {16, 16}, {64, 4}, {4, 64}};
  I64s mn = kShapes[size_t(*rc::gen::inRange(0, 4))];
  bool transposed = mn == I64s{64, 4} || *rc::gen::arbitrary<bool>();
  I64s tiles(static_cast<size_t>(rank));
  for (auto &t : tiles)
    t = pow2In(0, 1);
  CgaLayout cga = withCga ? cgaLayout(rank, 2, false) : CgaLayout::single(rank);
  return ok(AmdMfmaSpec::make(*rc::gen::inRange(1, 5), {mn[0], mn[1], pow2In(2, 5)}, transposed,
                              splitPow2(*rc::gen::inRange(0, 4), rank), *rc::gen::element(32, 64),
                              tiles, cga));
}

/// An AMD WMMA accumulator layout (versions 1-3) of rank 2 or 3.
inline AmdWmmaSpec amdWmmaSpec(int rank, bool withCga = true) {
  int version = *rc::gen::inRange(1, 4);
  I64s instr = {16, 16, version < 3 ? 16 : *rc::gen::element<int64_t>(4, 32, 64, 128)};
  CgaLayout cga = withCga ? cgaLayout(rank, 2, false) : CgaLayout::single(rank);
  return ok(AmdWmmaSpec::make(version, *rc::gen::arbitrary<bool>(),
                              splitPow2(*rc::gen::inRange(0, 4), rank), instr, {}, cga));
}

/// A k_width the parent takes for a dot operand (nvidia_mma, amd_mfma, amd_wmma parents).
inline int amdKWidth(const AmdWmmaSpec &p) {
  return p.version() == 1   ? *rc::gen::element(8, 16)
         : p.version() == 2 ? *rc::gen::element(4, 8, 16)
                            : *rc::gen::element(2, 8, 16);
}

/// A padded shared layout over 2^1..2^maxBits elements: 1-3 pairs (distinct intervals 1..1024,
/// paddings 1..16), the offsets a random order of the shape's bits (each basis moving one dim),
/// and with withBlocks up to 2 of those bits given to blocks.
inline PaddedSharedSpec paddedSharedSpec(int rank, int maxBits = 10, bool withBlocks = true) {
  I64s shape = splitPow2(*rc::gen::inRange(1, maxBits + 1), rank);
  std::vector<std::vector<int64_t>> bits;
  for (int d = 0; d < rank; ++d)
    for (int64_t v = 1; v < shape[size_t(d)]; v *= 2) {
      std::vector<int64_t> b(size_t(rank), 0);
      b[size_t(d)] = v;
      bits.push_back(std::move(b));
    }
  for (int i = int(bits.size()) - 1; i > 0; --i)
    std::swap(bits[size_t(i)], bits[size_t(*rc::gen::inRange(0, i + 1))]);
  int blocks = withBlocks ? *rc::gen::inRange(0, std::min<int>(2, int(bits.size()) - 1) + 1) : 0;
  std::vector<std::vector<int64_t>> block(bits.end() - blocks, bits.end());
  bits.resize(bits.size() - size_t(blocks));
  std::vector<PadInterval> pads;
  int pairs = *rc::gen::inRange(1, 4);
  for (int i = 0; i < pairs; ++i) {
    int64_t interval = pow2In(0, 10);
    bool seen = false;
    for (const PadInterval &p : pads)
      seen = seen || p.interval == interval;
    if (!seen)
      pads.push_back({interval, pow2In(0, 4)});
  }
  return ok(PaddedSharedSpec::make(pads, bits, block, shape));
}

/// A tensor-memory layout: blockM 64 or 128, blockN 1..512, col_stride 1, 2 or 4, a CTA split
/// of up to 4 x 2 CTAs, sometimes two-CTA.
inline TensorMemorySpec tensorMemorySpec() {
  return ok(TensorMemorySpec::make(*rc::gen::element<int64_t>(64, 128), pow2In(0, 9),
                                   *rc::gen::element<int64_t>(1, 1, 2, 4), pow2In(0, 2),
                                   pow2In(0, 1), *rc::gen::inRange(0, 4) == 0));
}

/// A tensor-memory scales layout with a CTA split of up to 4 x 2 CTAs.
inline TensorMemoryScalesSpec tensorMemoryScalesSpec() {
  return ok(TensorMemoryScalesSpec::make(pow2In(0, 2), pow2In(0, 1)));
}

/// A shape `spec` accepts: per CTA at least a block of rows (64 for blockM 64, two-CTA blockM 64
/// counting as 128), 1..32 columns per CTA (2..32 for a two-CTA blockM 64 split, which swaps a
/// column bit), at most 2^16 elements.
inline I64s tensorMemoryShape(const LayoutSpec &spec) {
  int64_t splitM = 1, splitN = 1, rowsLo = 3, colsLo = 0;
  if (const auto *t = spec.as<TensorMemorySpec>()) {
    splitM = t->ctaSplitM();
    splitN = t->ctaSplitN();
    bool pair = t->blockM() == 64 && t->twoCtas() && splitM > 1;
    rowsLo = pair || t->blockM() == 128 ? 7 : 6;
    if (pair) {
      rowsLo -= 1; // the pair of CTAs holds the 128 rows
      colsLo = 1;
    }
  } else if (const auto *s = spec.as<TensorMemoryScalesSpec>()) {
    splitM = s->ctaSplitM();
    splitN = s->ctaSplitN();
  }
  int64_t rows = pow2In(int(rowsLo), int(rowsLo) + 1), cols = pow2In(int(colsLo), 5);
  return {rows * splitM, cols * splitN};
}

/// A tensor shape of `rank` dims, each 2^lo..2^hi.
inline I64s shapeOf(int rank, int lo, int hi) {
  I64s s(static_cast<size_t>(rank));
  for (auto &x : s)
    x = pow2In(lo, hi);
  return s;
}

/// Every output reached by some input, by enumeration; the bool is whether no output repeats.
struct Enumerated {
  uint64_t distinct;
  bool injective;
};
inline Enumerated enumerate(const LinearLayout &l) {
  int n = l.totalInBits();
  std::vector<uint64_t> outs;
  outs.reserve(size_t(1) << n);
  for (uint64_t x = 0; x < (uint64_t(1) << n); ++x)
    outs.push_back(l.apply(x));
  std::sort(outs.begin(), outs.end());
  uint64_t distinct = uint64_t(std::unique(outs.begin(), outs.end()) - outs.begin());
  return {distinct, distinct == (uint64_t(1) << n)};
}

} // namespace linlayout::testing
