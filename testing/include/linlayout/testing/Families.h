// rapidcheck generators of hardware layout specs, one per family (blocked, slice, nvidia_mma,
// dot_operand, linear, swizzled_shared, nvmma_shared, shared_linear, amd_mfma, amd_wmma,
// padded_shared, tensor_memory, tensor_memory_scales), for property tests of code that takes
// Triton layouts. Header-only; link `linlayout::testing`.
//
// Every generator draws only parameters Triton 3.6 accepts for its family, so each spec converts
// (toLinearLayout) over a shape that fits it; SpecsWithShapes.h draws those shapes, and
// `anyFamily()` a spec of any family together with one. A generator that drew a spec the library
// refuses would fail the property it runs in (our bug, reported with the library's message).
// Sizes stay small: blocked and accumulator layouts use at most 8 warps and 4 CTAs, so that a
// brute-force evaluator can enumerate every input over small shapes. Choices shrink towards the
// first option: size-1 tiles, one warp, one CTA, no swizzle.
#pragma once

#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/testing/Generators.h"

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace linlayout::testing {

namespace detail {

/// The value of a factory the generators call with valid arguments only.
template <typename T> T made(Expected<T> e) {
  if (!e.ok())
    RC_FAIL("a family generator drew a spec the library refuses: " + e.message());
  return std::move(e).value();
}

/// One of 0..n-1, uniformly at every rapidcheck size: a family choice (a parent's family) should
/// not collapse to the first option at the small sizes rapidcheck starts with.
inline int pick(int n) { return *rc::gen::resize(100, rc::gen::inRange(0, n)); }

} // namespace detail

/// A power of two 2^k with lo <= k <= hi.
/// Requires: 0 <= lo <= hi <= 62.
inline rc::Gen<int64_t> pow2In(int lo, int hi) {
  return rc::gen::map(rc::gen::inRange(lo, hi + 1), [](int k) { return int64_t(1) << k; });
}

/// A permutation of 0..n-1 (an `order` field).
inline rc::Gen<std::vector<int64_t>> permutationOf(int n) {
  return rc::gen::exec([n] {
    std::vector<int64_t> p(static_cast<size_t>(n));
    std::iota(p.begin(), p.end(), 0);
    for (int i = n - 1; i > 0; --i)
      std::swap(p[size_t(i)], p[size_t(*rc::gen::inRange(0, i + 1))]);
    return p;
  });
}

/// 2^bits split over `rank` dims: each entry a power of two, their product 2^bits.
inline rc::Gen<std::vector<int64_t>> splitPow2(int bits, int rank) {
  return rc::gen::exec([bits, rank] {
    std::vector<int64_t> r(static_cast<size_t>(rank), 1);
    for (int b = 0; b < bits; ++b)
      r[size_t(*rc::gen::inRange(0, rank))] *= 2;
    return r;
  });
}

/// A CTA layout (`CGALayout` bases) of 0..maxBits block bits, each doubling one dim's split;
/// with allowBroadcast some bases are zero (two CTAs own the same tile).
/// Ensures: surjective onto its split grid.
inline rc::Gen<CgaLayout> cgaLayout(int rank, int maxBits, bool allowBroadcast) {
  return rc::gen::exec([=] {
    int bits = *rc::gen::inRange(0, maxBits + 1);
    std::vector<std::vector<int64_t>> bases;
    std::vector<int64_t> next(static_cast<size_t>(rank), 1);
    for (int i = 0; i < bits; ++i) {
      std::vector<int64_t> b(size_t(rank), 0);
      if (!allowBroadcast || *rc::gen::inRange(0, 4) != 0) {
        int d = *rc::gen::inRange(0, rank);
        b[size_t(d)] = next[size_t(d)];
        next[size_t(d)] *= 2;
      }
      bases.push_back(std::move(b));
    }
    return detail::made(CgaLayout::fromBases(bases, rank));
  });
}

/// A CTA layout in Triton's older per-dimension form (CTAsPerCGA, CTASplitNum, CTAOrder): up to
/// 4 CTAs, a dim's CTAs split it or repeat it.
inline rc::Gen<CgaLayout> legacyCgaLayout(int rank) {
  return rc::gen::exec([rank] {
    std::vector<int64_t> ctas(size_t(rank), 1), split(size_t(rank), 1);
    int bits = *rc::gen::inRange(0, 3);
    for (int b = 0; b < bits; ++b) {
      size_t d = size_t(*rc::gen::inRange(0, rank));
      ctas[d] *= 2;
      if (*rc::gen::arbitrary<bool>())
        split[d] *= 2;
    }
    return detail::made(CgaLayout::fromSplit(ctas, split, *permutationOf(rank)));
  });
}

/// blocked (`#ttg.blocked`): 1..4 elements per thread per dim, 32 lanes and 1..8 warps split
/// over the dims, any order; withCga adds up to 4 CTAs (some repeating a tile if allowBroadcast).
/// Requires: 1 <= rank <= 4.
inline rc::Gen<BlockedSpec> blockedSpec(int rank, bool withCga = true, bool allowBroadcast = true) {
  return rc::gen::exec([=] {
    std::vector<int64_t> spt(static_cast<size_t>(rank));
    for (auto &x : spt)
      x = *pow2In(0, 2);
    std::vector<int64_t> tpw = *splitPow2(5, rank);
    std::vector<int64_t> wpc = *splitPow2(*rc::gen::inRange(0, 4), rank);
    CgaLayout cga = withCga ? *cgaLayout(rank, 2, allowBroadcast) : CgaLayout::single(rank);
    return detail::made(BlockedSpec::make(spt, tpw, wpc, *permutationOf(rank), cga));
  });
}

/// nvidia_mma (`#ttg.nvidia_mma`) of rank 2 or 3 (a leading batch dim): Ampere (version 2,
/// instrShape 16x8, 1..8 warps) or, with hopper, Hopper (version 3, instrShape 16 x 8..256 x 16,
/// whole warp groups: 4 warps along M, maybe doubled along one dim); withCga adds up to 4 CTAs.
/// Requires: rank is 2 or 3.
inline rc::Gen<NvidiaMmaSpec> nvidiaMmaSpec(int rank, bool hopper, bool withCga = false) {
  return rc::gen::exec([=] {
    CgaLayout cga = withCga ? *cgaLayout(rank, 2, false) : CgaLayout::single(rank);
    if (hopper) {
      std::vector<int64_t> warps(size_t(rank), 1);
      warps[size_t(rank - 2)] = 4;
      int more = *rc::gen::inRange(0, 2);
      warps[size_t(*rc::gen::inRange(0, rank))] *= int64_t(1) << more;
      return detail::made(NvidiaMmaSpec::make(3, 0, warps, {16, *pow2In(3, 8), 16}, cga));
    }
    std::vector<int64_t> instr =
        rank == 3 ? std::vector<int64_t>{1, 16, 8} : std::vector<int64_t>{16, 8};
    return detail::made(
        NvidiaMmaSpec::make(2, 0, *splitPow2(*rc::gen::inRange(0, 4), rank), instr, cga));
  });
}

/// amd_mfma (`#ttg.amd_mfma`, 64-lane wavefronts) of rank 2 or 3: versions 1..4, every
/// instruction shape (32x32, 16x16, 64x4, 4x64; K 4..32), both orientations, 32- and 64-bit
/// elements, 1 or 2 tiles per warp per dim, 1..8 warps; withCga adds up to 4 CTAs.
/// Requires: rank is 2 or 3.
inline rc::Gen<AmdMfmaSpec> amdMfmaSpec(int rank, bool withCga = true) {
  return rc::gen::exec([=] {
    static const std::vector<int64_t> kShapes[] = {{32, 32}, {16, 16}, {64, 4}, {4, 64}};
    std::vector<int64_t> mn = kShapes[size_t(*rc::gen::inRange(0, 4))];
    bool transposed = mn == std::vector<int64_t>{64, 4} || *rc::gen::arbitrary<bool>();
    std::vector<int64_t> tiles(static_cast<size_t>(rank));
    for (auto &t : tiles)
      t = *pow2In(0, 1);
    CgaLayout cga = withCga ? *cgaLayout(rank, 2, false) : CgaLayout::single(rank);
    return detail::made(AmdMfmaSpec::make(*rc::gen::inRange(1, 5), {mn[0], mn[1], *pow2In(2, 5)},
                                          transposed, *splitPow2(*rc::gen::inRange(0, 4), rank),
                                          *rc::gen::element(32, 64), tiles, cga));
  });
}

/// amd_wmma (`#ttg.amd_wmma`, 32-lane wavefronts) of rank 2 or 3: versions 1..3 (version 3 with
/// K 4, 32, 64 or 128), either orientation, 1..8 warps; withCga adds up to 4 CTAs.
/// Requires: rank is 2 or 3.
inline rc::Gen<AmdWmmaSpec> amdWmmaSpec(int rank, bool withCga = true) {
  return rc::gen::exec([=] {
    int version = *rc::gen::inRange(1, 4);
    std::vector<int64_t> instr = {16, 16,
                                  version < 3 ? 16 : *rc::gen::element<int64_t>(4, 32, 64, 128)};
    CgaLayout cga = withCga ? *cgaLayout(rank, 2, false) : CgaLayout::single(rank);
    return detail::made(AmdWmmaSpec::make(version, *rc::gen::arbitrary<bool>(),
                                          *splitPow2(*rc::gen::inRange(0, 4), rank), instr, {},
                                          cga));
  });
}

/// A k_width a dot operand of `parent` takes: 0 for blocked (FMA), 1..8 for nvidia_mma, 1..16
/// for amd_mfma, and per amd_wmma version 8 or 16 (v1), 4, 8 or 16 (v2), 2, 8 or 16 (v3).
/// Requires: parent is blocked, nvidia_mma, amd_mfma or amd_wmma.
inline rc::Gen<int> kWidthFor(const LayoutSpec &parent) {
  return rc::gen::exec([parent] {
    if (parent.as<BlockedSpec>())
      return 0;
    if (parent.as<AmdMfmaSpec>())
      return int(*pow2In(0, 4));
    if (const auto *w = parent.as<AmdWmmaSpec>())
      return w->version() == 1   ? *rc::gen::element(8, 16)
             : w->version() == 2 ? *rc::gen::element(4, 8, 16)
                                 : *rc::gen::element(2, 8, 16);
    return int(*pow2In(0, 3));
  });
}

/// dot_operand (`#ttg.dot_op`) of rank 2 or 3: operand A or B of an FMA (blocked parent), an
/// Ampere mma, a Hopper mma (operand A only: B comes from shared memory), an amd_mfma or an
/// amd_wmma (rank 2), with a k_width the parent takes (kWidthFor).
/// Requires: rank is 2 or 3.
inline rc::Gen<DotOperandSpec> dotOperandSpec(int rank) {
  return rc::gen::exec([rank] {
    int parentKind = detail::pick(rank == 2 ? 5 : 3);
    LayoutSpec parent = parentKind == 0   ? LayoutSpec(*blockedSpec(rank))
                        : parentKind == 1 ? LayoutSpec(*nvidiaMmaSpec(rank, false, true))
                        : parentKind == 2 ? LayoutSpec(*nvidiaMmaSpec(rank, true, true))
                        : parentKind == 3 ? LayoutSpec(*amdMfmaSpec(rank))
                                          : LayoutSpec(*amdWmmaSpec(rank));
    int op = parentKind == 2 ? 0 : *rc::gen::inRange(0, 2);
    return detail::made(DotOperandSpec::make(op, parent, *kWidthFor(parent)));
  });
}

/// slice (`#ttg.slice`) of rank 1 or 2: one dim of a distributed parent of rank + 1 removed; the
/// parent is blocked, nvidia_mma (v2 or v3), amd_mfma, amd_wmma, a dot operand, or (rank 1) a
/// slice itself.
/// Requires: rank is 1 or 2.
inline rc::Gen<SliceSpec> sliceSpec(int rank) {
  return rc::gen::exec([rank] {
    int parentRank = rank + 1;
    int parentKind = detail::pick(rank == 1 ? 7 : 6);
    LayoutSpec parent = parentKind == 0   ? LayoutSpec(*blockedSpec(parentRank))
                        : parentKind == 1 ? LayoutSpec(*nvidiaMmaSpec(parentRank, false, true))
                        : parentKind == 2 ? LayoutSpec(*nvidiaMmaSpec(parentRank, true, true))
                        : parentKind == 3 ? LayoutSpec(*amdMfmaSpec(parentRank))
                        : parentKind == 4 ? LayoutSpec(*amdWmmaSpec(parentRank))
                        : parentKind == 5 ? LayoutSpec(*dotOperandSpec(parentRank))
                                          : LayoutSpec(*sliceSpec(parentRank));
    return detail::made(SliceSpec::make(*rc::gen::inRange(0, parentRank), parent));
  });
}

/// linear (`#ttg.linear`): a distributed layout given by its register, lane, warp and block
/// bases (distributedLayout of Generators.h, up to 2 block bits), over its own shape of rank
/// 1..3.
inline rc::Gen<LinearSpec> linearSpec() {
  return rc::gen::exec([] {
    DistributedBounds bounds;
    bounds.maxBlockBits = 2;
    LinearLayout l = *distributedLayout(bounds);
    BasisList parts[4];
    const DimName names[4] = {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};
    for (int k = 0; k < 4; ++k)
      for (int i = 0; i < l.inDimBits(names[k]); ++i) {
        std::vector<int64_t> b;
        for (uint64_t v : l.basis(names[k], i))
          b.push_back(int64_t(v));
        parts[k].push_back(b);
      }
    std::vector<int64_t> shape;
    for (const DimSize &d : l.outDims())
      shape.push_back(int64_t(d.size));
    return detail::made(LinearSpec::make(parts[0], parts[1], parts[2], parts[3], shape));
  });
}

/// swizzled_shared (`#ttg.swizzled_shared`): vec, perPhase, maxPhase 1..8, any order; withCga
/// adds up to 4 CTAs (some repeating a tile).
/// Requires: 1 <= rank <= 4.
inline rc::Gen<SwizzledSharedSpec> swizzledSharedSpec(int rank, bool withCga = true) {
  return rc::gen::exec([=] {
    CgaLayout cga = withCga ? *cgaLayout(rank, 2, true) : CgaLayout::single(rank);
    return detail::made(SwizzledSharedSpec::make(*pow2In(0, 3), *pow2In(0, 3), *pow2In(0, 3),
                                                 *permutationOf(rank), cga));
  });
}

/// nvmma_shared (`#ttg.nvmma_shared`) of rank 2 or 3: swizzle 0, 32, 64 or 128 bytes, 8-, 16-
/// or 32-bit elements, transposed or not, fp4 padding (128-byte swizzle, 8 bits); withCga adds
/// up to 4 CTAs (some repeating a tile).
/// Requires: rank is 2 or 3.
inline rc::Gen<NvmmaSharedSpec> nvmmaSharedSpec(int rank, bool withCga = true) {
  return rc::gen::exec([=] {
    int64_t swizzle = *rc::gen::element<int64_t>(0, 32, 64, 128);
    int64_t bits = *rc::gen::element<int64_t>(8, 16, 32);
    bool fp4 = swizzle == 128 && bits == 8 && *rc::gen::arbitrary<bool>();
    std::optional<CgaLayout> cga;
    if (withCga)
      cga = *cgaLayout(rank, 2, true);
    return detail::made(
        NvmmaSharedSpec::make(swizzle, bits, rank, *rc::gen::arbitrary<bool>(), fp4, cga));
  });
}

/// shared_linear (`#ttg.shared_linear`) of rank 1..3: a bijection from offsets onto up to 2^9
/// elements (3 bits per dim), each outer dim's bit maybe XORed with a bit of the innermost dim,
/// alignment 1..1024.
inline rc::Gen<SharedLinearSpec> sharedLinearSpec() {
  return rc::gen::exec([] {
    int rank = *rc::gen::inRange(1, 4);
    std::vector<int64_t> bits(static_cast<size_t>(rank), 0);
    for (auto &b : bits)
      b = *rc::gen::inRange(rank == 1 ? 1 : 0, 4);
    BasisList offset;
    for (int d = rank - 1; d >= 0; --d)
      for (int64_t b = 0; b < bits[size_t(d)]; ++b) {
        std::vector<int64_t> v(size_t(rank), 0);
        v[size_t(d)] = int64_t(1) << b;
        // The innermost dim's bits are listed first, so XORing one in stays invertible.
        if (d != rank - 1 && bits[size_t(rank - 1)] > 0 && *rc::gen::arbitrary<bool>())
          v[size_t(rank - 1)] = int64_t(1) << *rc::gen::inRange(0, int(bits[size_t(rank - 1)]));
        offset.push_back(v);
      }
    if (offset.empty())
      offset.push_back(std::vector<int64_t>(size_t(rank), 0));
    return detail::made(SharedLinearSpec::make(offset, {}, *pow2In(0, 10)));
  });
}

/// padded_shared (Gluon's PaddedSharedLayout) over 2^1..2^maxBits elements: 1..3 (interval,
/// padding) pairs with distinct intervals 1..1024 and paddings 1..16, the offset bases a random
/// order of the shape's bits (each moving one dim), and with withBlocks up to 2 of those bits
/// given to CTAs. Its shape is part of the spec (shape()).
/// Requires: 1 <= rank <= 4; rank <= maxBits.
inline rc::Gen<PaddedSharedSpec> paddedSharedSpec(int rank, int maxBits = 10,
                                                  bool withBlocks = true) {
  return rc::gen::exec([=] {
    std::vector<int64_t> shape = *splitPow2(*rc::gen::inRange(1, maxBits + 1), rank);
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
      int64_t interval = *pow2In(0, 10);
      bool seen = false;
      for (const PadInterval &p : pads)
        seen = seen || p.interval == interval;
      if (!seen)
        pads.push_back({interval, *pow2In(0, 4)});
    }
    return detail::made(PaddedSharedSpec::make(pads, bits, block, shape));
  });
}

/// tensor_memory (`#ttng.tensor_memory_encoding`, Blackwell): blockM 64 or 128, blockN 1..512,
/// col_stride 1, 2 or 4, a CTA split of up to 4 x 2 CTAs, sometimes two-CTA mode.
inline rc::Gen<TensorMemorySpec> tensorMemorySpec() {
  return rc::gen::exec([] {
    return detail::made(TensorMemorySpec::make(
        *rc::gen::element<int64_t>(64, 128), *pow2In(0, 9), *rc::gen::element<int64_t>(1, 1, 2, 4),
        *pow2In(0, 2), *pow2In(0, 1), *rc::gen::inRange(0, 4) == 0));
  });
}

/// tensor_memory_scales (`#ttng.tensor_memory_scales_encoding`, Blackwell) with a CTA split of
/// up to 4 x 2 CTAs.
inline rc::Gen<TensorMemoryScalesSpec> tensorMemoryScalesSpec() {
  return rc::gen::exec(
      [] { return detail::made(TensorMemoryScalesSpec::make(*pow2In(0, 2), *pow2In(0, 1))); });
}

} // namespace linlayout::testing
