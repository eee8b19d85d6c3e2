// rapidcheck generators for linear layouts, so that users (and our own tests) can write property
// tests over layouts. Header-only; link `linlayout::testing` (which brings rapidcheck).
//
// Every generator is deterministic given rapidcheck's random source and shrinks: a layout is built
// from small "seeds" (dimension sizes, one seed per column) by a fixed recipe, and each seed
// shrinks towards zero, i.e. towards fewer and smaller dimensions and sparser columns (unit
// vectors, then zero columns).
//
// What is generated:
//  - anyLayout:         any shape within `LayoutBounds`, any columns: broadcast (zero) columns,
//                       unit columns, dense columns; size-1 dimensions; empty layouts.
//  - injectiveLayout:   no two inputs share an output (total in bits <= total out bits).
//  - surjectiveLayout:  every output is reached (total in bits >= total out bits); the other
//                       columns are arbitrary, broadcast included.
//  - invertibleLayout:  a bijection (as many in bits as out bits).
//  - distributedLayout: shaped like a GPU register layout: in dims register, lane, warp, block
//                       onto dim0..dim{rank-1}; every output bit is held by one hardware bit (a
//                       unit basis, optionally XOR-swizzled with a lower one); the remaining
//                       hardware bits broadcast (zero bases). Always surjective.
//  - layoutOver:        a layout of a given shape and kind (the building block of the others).
//  - composablePair / composableTriple: layouts whose outputs feed the next one's inputs.
//  - sameOutputsPair / distributedPair: layouts over the same outputs (for invertAndCompose,
//                       factorThrough, imageWithin), the second one surjective.
//  - warpPair:          two distributed layouts whose conversion moves data only inside warps
//                       (the second mixes the first's register and lane bases).
//  - productPair / productTriple: layouts whose common dims appear in the same relative order,
//                       so that their product exists (when the bit limits allow it).
// `rc::Arbitrary` is specialised for LinearLayout (anyLayout) and for the wrapper types
// Injective, Surjective, Invertible, Distributed, ComposablePair, SameOutputsPair, ProductPair,
// so a property can simply take e.g. `(const linlayout::testing::Invertible &inv)`.
#pragma once

#include "linlayout/layout/F2Basis.h"
#include "linlayout/layout/LinearLayout.h"

#include <rapidcheck.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <numeric>
#include <ostream>
#include <string>
#include <vector>

namespace linlayout::testing {

/// Limits on the shape of a generated layout. The defaults keep layouts small enough to
/// enumerate every input (at most 2^10 of them).
/// Requires: 0 <= maxInBits, maxOutBits <= 64; 1 <= maxInDims, maxOutDims <= 4.
struct LayoutBounds {
  int maxInBits = 10;
  int maxOutBits = 10;
  int maxInDims = 3;
  int maxOutDims = 3;
};

/// Bounds whose layouts reach the 64-bit limits (for checks on random inputs, not enumeration).
inline LayoutBounds wideBounds() { return LayoutBounds{64, 64, 4, 4}; }

/// What the generated map must be.
enum class MapKind { Any, Injective, Surjective, Invertible };

/// The names generated dims are drawn from. In dims come from the hardware names, out dims from
/// dim0..dim3; a product's factors draw from both pools, in pool order, so that their common dims
/// appear in the same relative order.
inline std::vector<DimName> inNamePool() {
  return {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};
}
inline std::vector<DimName> outNamePool() {
  return {DimName::dim(0), DimName::dim(1), DimName::dim(2), DimName::dim(3)};
}

namespace detail {

inline int totalBits(const std::vector<DimBits> &dims) {
  int t = 0;
  for (const DimBits &d : dims)
    t += d.bits;
  return t;
}

inline uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

// rapidcheck scales numbers with the test's size, which starts at 0; shapes and seeds are drawn at
// full size instead, so that every case may be large (shrinking still finds small failures).
constexpr int kFullSize = 100;

/// An int in [lo, hi] that grows with rapidcheck's size (small in the early cases).
inline int scaledInt(int lo, int hi) {
  assert(lo <= hi);
  return lo == hi ? lo : *rc::gen::inRange(lo, hi + 1);
}

/// A 64-bit random word, uniform over its whole range.
inline rc::Gen<uint64_t> word() {
  return rc::gen::resize(kFullSize, rc::gen::arbitrary<uint64_t>());
}

/// An int in [lo, hi], uniform (inclusive; rapidcheck's inRange excludes hi and rejects empty
/// ranges).
inline int pickInt(int lo, int hi) {
  assert(lo <= hi);
  return lo == hi ? lo : *rc::gen::resize(kFullSize, rc::gen::inRange(lo, hi + 1));
}

/// One column before fix-up: zero (broadcast), a unit vector, two bits, or dense.
struct ColumnSeed {
  int kind = 0; // 0 unit, 1 zero, 2 two bits, 3 dense
  uint64_t a = 0, b = 0;
};

inline rc::Gen<ColumnSeed> columnSeed() {
  return rc::gen::exec([] {
    ColumnSeed s;
    s.kind = *rc::gen::weightedElement<int>({{5, 0}, {2, 1}, {2, 2}, {2, 3}});
    s.a = *detail::word();
    s.b = *detail::word();
    return s;
  });
}

/// The column a seed stands for, within `outBits` bits.
inline uint64_t columnFrom(const ColumnSeed &s, int outBits) {
  if (outBits == 0)
    return 0;
  uint64_t mask = lowMask(outBits);
  switch (s.kind) {
  case 0:
    return uint64_t(1) << (s.a % uint64_t(outBits));
  case 1:
    return 0;
  case 2:
    return (uint64_t(1) << (s.a % uint64_t(outBits))) ^ (uint64_t(1) << (s.b % uint64_t(outBits)));
  default:
    return s.a & mask;
  }
}

/// Makes `col` independent of `basis` (within outBits) when it is not, by flipping one bit that
/// is not a pivot of the basis (chosen by `choice`). Requires: basis.rank() < outBits.
inline uint64_t independentOf(const F2Basis &basis, uint64_t col, int outBits, uint64_t choice) {
  if (basis.reduce(col) != 0)
    return col;
  uint64_t free = ~basis.pivots() & lowMask(outBits);
  assert(free != 0 && "no room for an independent column");
  int n = __builtin_popcountll(free);
  int k = int(choice % uint64_t(n));
  for (int i = 0; i < k; ++i)
    free &= free - 1;
  // Flipping a non-pivot bit q: the residue of e_q is e_q itself, so the sum leaves the span.
  return col ^ (uint64_t(1) << __builtin_ctzll(free));
}

/// Splits `total` bits into `n` dims of at most `maxDimBits` each (some may get 0 bits).
/// Requires: n * maxDimBits >= total; n >= 1 or total == 0.
inline std::vector<int> splitBits(int total, int n, int maxDimBits = LinearLayout::kMaxDimBits) {
  std::vector<int> parts(n, 0);
  if (n == 0)
    return parts;
  // Each bit goes to a random dim; the cap moves it to the next dim with room.
  for (int b = 0; b < total; ++b) {
    int d = pickInt(0, n - 1);
    while (parts[d] >= maxDimBits)
      d = (d + 1) % n;
    ++parts[d];
  }
  return parts;
}

/// `n` distinct names from `pool`, in pool order or shuffled.
inline std::vector<DimName> pickNames(const std::vector<DimName> &pool, int n, bool poolOrder) {
  std::vector<int> idx(pool.size());
  std::iota(idx.begin(), idx.end(), 0);
  // A random subset, kept in pool order, then (maybe) shuffled by random keys.
  std::vector<int> chosen;
  std::vector<uint64_t> keys =
      *rc::gen::container<std::vector<uint64_t>>(pool.size(), detail::word());
  std::vector<int> byKey = idx;
  std::stable_sort(byKey.begin(), byKey.end(), [&](int x, int y) { return keys[x] < keys[y]; });
  chosen.assign(byKey.begin(), byKey.begin() + n);
  if (poolOrder)
    std::sort(chosen.begin(), chosen.end());
  std::vector<DimName> r;
  for (int i : chosen)
    r.push_back(pool[i]);
  return r;
}

/// Dims with random names from `pool` holding `total` bits in total.
inline std::vector<DimBits> pickDims(const std::vector<DimName> &pool, int total, int maxDims,
                                     bool poolOrder) {
  int minDims = (total + LinearLayout::kMaxDimBits - 1) / LinearLayout::kMaxDimBits;
  int n = pickInt(minDims, std::max(minDims, std::min<int>(maxDims, int(pool.size()))));
  std::vector<DimName> names = pickNames(pool, n, poolOrder);
  std::vector<int> bits = splitBits(total, n);
  std::vector<DimBits> r;
  for (int i = 0; i < n; ++i)
    r.push_back({names[i], bits[i]});
  return r;
}

inline std::vector<DimSize> toSizes(const std::vector<DimBits> &dims) {
  std::vector<DimSize> r;
  for (const DimBits &d : dims)
    r.push_back({d.name, uint64_t(1) << d.bits});
  return r;
}

/// Builds the layout from packed columns through the public, checked factory.
inline LinearLayout build(const std::vector<DimBits> &ins, const std::vector<DimBits> &outs,
                          const std::vector<uint64_t> &cols) {
  std::vector<InDimBases> bases;
  int bit = 0;
  for (const DimBits &d : ins) {
    InDimBases b{d.name, {}};
    for (int i = 0; i < d.bits; ++i, ++bit) {
      std::vector<uint64_t> v;
      int off = 0;
      for (const DimBits &o : outs) {
        v.push_back((cols[bit] >> off) & lowMask(o.bits));
        off += o.bits;
      }
      b.bases.push_back(std::move(v));
    }
    bases.push_back(std::move(b));
  }
  std::vector<DimSize> sizes = toSizes(outs);
  auto l = LinearLayout::fromBases(bases, sizes);
  assert(l.ok() && "generator built an invalid layout");
  return *l;
}

} // namespace detail

/// A layout with the given in and out dims (in that order) whose map is of kind `kind`.
/// Requires: the dims satisfy LinearLayout's limits; Injective needs in bits <= out bits,
/// Surjective in bits >= out bits, Invertible equal totals.
/// Ensures: the layout has exactly these dims; it is injective / surjective / bijective as asked.
inline rc::Gen<LinearLayout> layoutOver(std::vector<DimBits> ins, std::vector<DimBits> outs,
                                        MapKind kind = MapKind::Any) {
  return rc::gen::exec([ins, outs, kind] {
    int n = detail::totalBits(ins), m = detail::totalBits(outs);
    assert((kind != MapKind::Injective || n <= m) && (kind != MapKind::Surjective || n >= m) &&
           (kind != MapKind::Invertible || n == m));
    auto seeds =
        *rc::gen::container<std::vector<detail::ColumnSeed>>(size_t(n), detail::columnSeed());
    // Which columns are forced to be independent: all of them for an injective map, m of them
    // (at random positions) for a surjective one.
    std::vector<bool> forced(n, kind == MapKind::Injective || kind == MapKind::Invertible);
    if (kind == MapKind::Surjective) {
      auto keys = *rc::gen::container<std::vector<uint64_t>>(size_t(n), detail::word());
      std::vector<int> order(n);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return keys[x] < keys[y]; });
      for (int i = 0; i < m; ++i)
        forced[order[i]] = true;
    }
    F2Basis basis;
    std::vector<uint64_t> cols(n);
    for (int i = 0; i < n; ++i) {
      uint64_t c = detail::columnFrom(seeds[i], m);
      if (forced[i]) {
        c = detail::independentOf(basis, c, m, seeds[i].b);
        basis.insert(c, 0);
      }
      cols[i] = c;
    }
    return detail::build(ins, outs, cols);
  });
}

/// A layout of the given kind whose shape is random within `bounds`. In dims are named from
/// inNamePool(), out dims from outNamePool(); `poolOrder` keeps names in pool order (needed for
/// products), otherwise their order is random.
inline rc::Gen<LinearLayout> layoutOfKind(MapKind kind, LayoutBounds bounds = {},
                                          bool poolOrder = false) {
  return rc::gen::exec([kind, bounds, poolOrder] {
    int in = 0, out = 0;
    switch (kind) {
    case MapKind::Any:
      in = detail::pickInt(0, bounds.maxInBits);
      out = detail::pickInt(0, bounds.maxOutBits);
      break;
    case MapKind::Injective:
      out = detail::pickInt(0, bounds.maxOutBits);
      in = detail::pickInt(0, std::min(out, bounds.maxInBits));
      break;
    case MapKind::Surjective:
      in = detail::pickInt(0, bounds.maxInBits);
      out = detail::pickInt(0, std::min(in, bounds.maxOutBits));
      break;
    case MapKind::Invertible:
      in = out = detail::pickInt(0, std::min(bounds.maxInBits, bounds.maxOutBits));
      break;
    }
    auto ins = detail::pickDims(inNamePool(), in, bounds.maxInDims, poolOrder);
    auto outs = detail::pickDims(outNamePool(), out, bounds.maxOutDims, poolOrder);
    return *layoutOver(ins, outs, kind);
  });
}

/// Any layout within `bounds`.
inline rc::Gen<LinearLayout> anyLayout(LayoutBounds bounds = {}) {
  return layoutOfKind(MapKind::Any, bounds);
}
/// An injective layout within `bounds`. Ensures: isInjective().
inline rc::Gen<LinearLayout> injectiveLayout(LayoutBounds bounds = {}) {
  return layoutOfKind(MapKind::Injective, bounds);
}
/// A surjective layout within `bounds`. Ensures: isSurjective().
inline rc::Gen<LinearLayout> surjectiveLayout(LayoutBounds bounds = {}) {
  return layoutOfKind(MapKind::Surjective, bounds);
}
/// An invertible layout within `bounds`. Ensures: isInvertible().
inline rc::Gen<LinearLayout> invertibleLayout(LayoutBounds bounds = {}) {
  return layoutOfKind(MapKind::Invertible, bounds);
}

/// Limits on a distributed (register) layout.
/// Requires: laneBits + maxWarpBits + maxBlockBits + maxRegisterBits <= 64; maxRank in 1..4.
struct DistributedBounds {
  int maxRank = 3;         // out dims dim0..dim{rank-1}
  int maxOutBits = 10;     // tensor elements: at most 2^maxOutBits
  int laneBits = 5;        // lanes per warp: 2^laneBits (32 on NVIDIA, 64 on AMD)
  int maxWarpBits = 3;     // warps per CTA
  int maxBlockBits = 1;    // CTAs per cluster
  int maxRegisterBits = 4; // at most this many register bits beyond those the tile needs
};

namespace detail {

/// A distributed layout onto out dims dim0.. of the given bits (see distributedLayout).
inline rc::Gen<LinearLayout> distributedOver(std::vector<int> dimBits, DistributedBounds bounds) {
  return rc::gen::exec([dimBits, bounds] {
    int rank = int(dimBits.size());
    int outTotal = std::accumulate(dimBits.begin(), dimBits.end(), 0);
    int lane = bounds.laneBits;
    int warp = scaledInt(0, bounds.maxWarpBits);
    int block = scaledInt(0, bounds.maxBlockBits);
    int hw = lane + warp + block;
    int reg = std::max(0, outTotal - hw) + scaledInt(0, bounds.maxRegisterBits);
    int inTotal = reg + hw;
    assert(inTotal <= 64 && reg <= LinearLayout::kMaxDimBits);
    // Which hardware bits hold tensor bits: a random subset of size outTotal, in hardware order.
    auto keys = *rc::gen::container<std::vector<uint64_t>>(size_t(inTotal), detail::word());
    std::vector<int> order(inTotal);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return keys[x] < keys[y]; });
    std::vector<int> holders(order.begin(), order.begin() + outTotal);
    std::sort(holders.begin(), holders.end());
    // Which out dim each holder serves; each dim's bits are handed out low to high.
    std::vector<int> dimOf;
    for (int d = 0; d < rank; ++d)
      dimOf.insert(dimOf.end(), dimBits[d], d);
    auto dimKeys = *rc::gen::container<std::vector<uint64_t>>(dimOf.size(), detail::word());
    std::vector<int> perm(dimOf.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::stable_sort(perm.begin(), perm.end(),
                     [&](int x, int y) { return dimKeys[x] < dimKeys[y]; });
    std::vector<int> offsets(rank, 0), next(rank, 0);
    for (int d = 1; d < rank; ++d)
      offsets[d] = offsets[d - 1] + dimBits[d - 1];
    auto swizzle = *rc::gen::container<std::vector<int>>(
        size_t(outTotal), rc::gen::weightedElement<int>({{6, 0}, {1, 1}}));
    auto swizzleFrom = *rc::gen::container<std::vector<uint64_t>>(size_t(outTotal), detail::word());
    std::vector<uint64_t> cols(inTotal, 0);
    std::vector<int> heldBits; // packed out bits handed out so far
    for (int k = 0; k < outTotal; ++k) {
      int d = dimOf[perm[k]];
      int outBit = offsets[d] + next[d]++;
      uint64_t col = uint64_t(1) << outBit;
      // XOR in a bit held earlier: the columns stay triangular, hence independent.
      if (swizzle[k] && !heldBits.empty())
        col ^= uint64_t(1) << heldBits[swizzleFrom[k] % heldBits.size()];
      cols[holders[k]] = col;
      heldBits.push_back(outBit);
    }
    std::vector<DimBits> ins = {{DimName::reg(), reg},
                                {DimName::lane(), lane},
                                {DimName::warp(), warp},
                                {DimName::block(), block}};
    std::vector<DimBits> outs;
    for (int d = 0; d < rank; ++d)
      outs.push_back({DimName::dim(d), dimBits[d]});
    return build(ins, outs, cols);
  });
}

} // namespace detail

/// A layout shaped like a GPU distributed layout: in dims register, lane, warp, block (in that
/// order, any of them possibly size 1) onto dim0..dim{rank-1}. Each output bit is held by exactly
/// one hardware bit whose basis is that unit vector, sometimes XORed with a lower output bit
/// held earlier (a swizzle); the other hardware bits broadcast (zero bases). Within each out dim
/// the bits are handed out from low to high, as real layouts do.
/// Ensures: isSurjective(); in dims are [register, lane, warp, block], out dims dim0..dim{r-1}.
inline rc::Gen<LinearLayout> distributedLayout(DistributedBounds bounds = {}) {
  return rc::gen::exec([bounds] {
    int rank = detail::pickInt(1, bounds.maxRank);
    // A distributed layout's sizes grow with rapidcheck's size (unlike other shape choices), so
    // tests that walk every element or every thread stay cheap in their early cases.
    int outTotal = detail::scaledInt(0, bounds.maxOutBits);
    return *detail::distributedOver(detail::splitBits(outTotal, rank), bounds);
  });
}

/// Two layouts, a then b: b's in dims are a's out dims (the same names, in a possibly different
/// order, each at least as large).
struct ComposablePair {
  LinearLayout a, b;
};
/// Three layouts, a then b then c.
struct ComposableTriple {
  LinearLayout a, b, c;
};
/// Two layouts with the same out dims (names and sizes; b's order may differ); b is surjective.
struct SameOutputsPair {
  LinearLayout a, b;
};
/// Two layouts whose product exists: common dims in the same relative order, limits respected.
struct ProductPair {
  LinearLayout inner, outer;
};
struct ProductTriple {
  LinearLayout a, b, c;
};

namespace detail {

/// A layout whose in dims are `l`'s out dims, in a random order, each grown by a few bits.
inline rc::Gen<LinearLayout> following(const LinearLayout &l, MapKind kind, int maxInBits,
                                       int maxOutBits, int maxOutDims) {
  return rc::gen::exec([l, kind, maxInBits, maxOutBits, maxOutDims] {
    std::vector<DimBits> ins;
    for (int o = 0; o < l.numOutDims(); ++o)
      ins.push_back({l.outDimName(o), l.outDimBits(o)});
    auto keys = *rc::gen::container<std::vector<uint64_t>>(ins.size(), detail::word());
    std::vector<int> order(ins.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return keys[x] < keys[y]; });
    std::vector<DimBits> shuffled;
    for (int i : order)
      shuffled.push_back(ins[i]);
    int room = std::max(0, maxInBits - totalBits(shuffled));
    for (DimBits &d : shuffled) {
      int grow = pickInt(0, std::min({room, 2, LinearLayout::kMaxDimBits - d.bits}));
      d.bits += grow;
      room -= grow;
    }
    int n = totalBits(shuffled);
    int out = 0;
    switch (kind) {
    case MapKind::Any:
      out = pickInt(0, maxOutBits);
      break;
    case MapKind::Injective:
      out = pickInt(n, std::max(n, maxOutBits));
      break;
    case MapKind::Surjective:
      out = pickInt(0, std::min(n, maxOutBits));
      break;
    case MapKind::Invertible:
      out = n;
      break;
    }
    std::vector<DimName> pool;
    for (int i = 0; i < 4; ++i)
      pool.push_back(DimName::get("out" + std::to_string(i)));
    auto outs = pickDims(pool, out, maxOutDims, /*poolOrder=*/false);
    return *layoutOver(shuffled, outs, kind);
  });
}

} // namespace detail

/// a then b. Ensures: a.then(b) is defined (b's in dims are a's out dims, each as large).
inline rc::Gen<ComposablePair> composablePair(LayoutBounds bounds = {},
                                              MapKind kindA = MapKind::Any,
                                              MapKind kindB = MapKind::Any) {
  return rc::gen::exec([bounds, kindA, kindB] {
    LinearLayout a = *layoutOfKind(kindA, bounds);
    LinearLayout b = *detail::following(a, kindB, std::max(bounds.maxInBits, a.totalOutBits()),
                                        bounds.maxOutBits, bounds.maxOutDims);
    return ComposablePair{a, b};
  });
}

/// a then b then c, each pair composable.
inline rc::Gen<ComposableTriple> composableTriple(LayoutBounds bounds = {}) {
  return rc::gen::exec([bounds] {
    ComposablePair ab = *composablePair(bounds);
    LinearLayout c =
        *detail::following(ab.b, MapKind::Any, std::max(bounds.maxInBits, ab.b.totalOutBits()),
                           bounds.maxOutBits, bounds.maxOutDims);
    return ComposableTriple{ab.a, ab.b, c};
  });
}

/// a (of kind `kindA`) and b (of kind `kindB`, surjective by default) over the same out dims;
/// b's in dims and out-dim order are random. Ensures: with a surjective b,
/// a.invertAndCompose(b) is defined.
inline rc::Gen<SameOutputsPair> sameOutputsPair(LayoutBounds bounds = {},
                                                MapKind kindA = MapKind::Any,
                                                MapKind kindB = MapKind::Surjective) {
  return rc::gen::exec([bounds, kindA, kindB] {
    LinearLayout a = *layoutOfKind(kindA, bounds);
    std::vector<DimBits> outs;
    for (int o = 0; o < a.numOutDims(); ++o)
      outs.push_back({a.outDimName(o), a.outDimBits(o)});
    auto keys = *rc::gen::container<std::vector<uint64_t>>(outs.size(), detail::word());
    std::vector<int> order(outs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return keys[x] < keys[y]; });
    std::vector<DimBits> bOuts;
    for (int i : order)
      bOuts.push_back(outs[i]);
    int m = detail::totalBits(outs);
    int n = 0;
    switch (kindB) {
    case MapKind::Any:
      n = detail::pickInt(0, std::max(m, bounds.maxInBits));
      break;
    case MapKind::Injective:
      n = detail::pickInt(0, m);
      break;
    case MapKind::Surjective:
      n = detail::pickInt(m, std::max(m, bounds.maxInBits));
      break;
    case MapKind::Invertible:
      n = m;
      break;
    }
    auto ins = detail::pickDims(inNamePool(), n, bounds.maxInDims, /*poolOrder=*/false);
    LinearLayout b = *layoutOver(ins, bOuts, kindB);
    return SameOutputsPair{a, b};
  });
}

/// Two distributed layouts over the same tensor shape (e.g. a conversion's source and
/// destination); sometimes they share their warp or block bases exactly, as conversions inside
/// one CTA do. Ensures: both surjective, same out dims and sizes.
inline rc::Gen<SameOutputsPair> distributedPair(DistributedBounds bounds = {}) {
  return rc::gen::exec([bounds] {
    LinearLayout a = *distributedLayout(bounds);
    std::vector<int> dimBits;
    for (int o = 0; o < a.numOutDims(); ++o)
      dimBits.push_back(a.outDimBits(o));
    LinearLayout b = *detail::distributedOver(dimBits, bounds);
    // Share a hardware dim when that keeps b surjective.
    int share = detail::pickInt(0, 2); // 0 none, 1 warp, 2 block
    if (share) {
      DimName dim = share == 1 ? DimName::warp() : DimName::block();
      std::vector<InDimBases> bb = b.bases(), ab = a.bases();
      for (auto &d : bb)
        for (auto &s : ab)
          if (d.name == dim && s.name == dim)
            d.bases = s.bases;
      auto shared = LinearLayout::fromBases(bb, b.outDims());
      if (shared.ok() && shared->isSurjective())
        b = *shared;
    }
    return SameOutputsPair{a, b};
  });
}

/// Two distributed layouts whose conversion stays inside warps: b's register and lane bases are an
/// invertible mix of a's (a permutation, then columns XORed into later ones), its warp and block
/// bases are a's. Shrinks towards b == a. Ensures: both surjective, same dims and sizes; every
/// warp of every CTA holds the same elements in a and in b; b is injective iff a is.
inline rc::Gen<SameOutputsPair> warpPair(DistributedBounds bounds = {}) {
  return rc::gen::exec([bounds] {
    LinearLayout a = *distributedLayout(bounds);
    std::vector<DimBits> ins, outs;
    for (DimName d : inNamePool())
      ins.push_back({d, a.inDimBits(d)});
    for (int o = 0; o < a.numOutDims(); ++o)
      outs.push_back({a.outDimName(o), a.outDimBits(o)});
    std::vector<uint64_t> cols;
    for (int i = 0; i < a.totalInBits(); ++i)
      cols.push_back(a.column(i));
    size_t n = size_t(ins[0].bits + ins[1].bits); // register and lane columns come first
    auto keys = *rc::gen::container<std::vector<uint64_t>>(n, detail::word());
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return keys[x] < keys[y]; });
    std::vector<uint64_t> mixed(cols.begin(), cols.end());
    for (size_t i = 0; i < n; ++i)
      mixed[i] = cols[order[i]];
    auto xors =
        *rc::gen::container<std::vector<int>>(n, rc::gen::weightedElement<int>({{3, 0}, {1, 1}}));
    auto from = *rc::gen::container<std::vector<uint64_t>>(n, detail::word());
    for (size_t i = 1; i < n; ++i)
      if (xors[i])
        mixed[i] ^= mixed[from[i] % i];
    return SameOutputsPair{a, detail::build(ins, outs, mixed)};
  });
}

/// Two layouts whose product is defined: names in pool order, totals within LinearLayout's limits
/// and within `bounds` for the product.
inline rc::Gen<ProductPair> productPair(LayoutBounds bounds = {}) {
  return rc::gen::exec([bounds] {
    LayoutBounds half = bounds;
    half.maxInBits = bounds.maxInBits / 2;
    half.maxOutBits = bounds.maxOutBits / 2;
    LinearLayout a = *layoutOfKind(MapKind::Any, half, /*poolOrder=*/true);
    LinearLayout b = *layoutOfKind(MapKind::Any, half, /*poolOrder=*/true);
    return ProductPair{a, b};
  });
}

/// Three layouts any two of which (in order) multiply.
inline rc::Gen<ProductTriple> productTriple(LayoutBounds bounds = {}) {
  return rc::gen::exec([bounds] {
    LayoutBounds third = bounds;
    third.maxInBits = bounds.maxInBits / 3;
    third.maxOutBits = bounds.maxOutBits / 3;
    return ProductTriple{*layoutOfKind(MapKind::Any, third, true),
                         *layoutOfKind(MapKind::Any, third, true),
                         *layoutOfKind(MapKind::Any, third, true)};
  });
}

/// Wrapper types for `rc::Arbitrary`: a property taking `Invertible inv` gets an invertible layout
/// as `inv.layout`.
struct Injective {
  LinearLayout layout;
};
struct Surjective {
  LinearLayout layout;
};
struct Invertible {
  LinearLayout layout;
};
struct Distributed {
  LinearLayout layout;
};

// rapidcheck prints counterexamples through these (found by argument-dependent lookup).
inline void showValue(const Injective &v, std::ostream &os) { os << v.layout; }
inline void showValue(const Surjective &v, std::ostream &os) { os << v.layout; }
inline void showValue(const Invertible &v, std::ostream &os) { os << v.layout; }
inline void showValue(const Distributed &v, std::ostream &os) { os << v.layout; }
inline void showValue(const ComposablePair &v, std::ostream &os) {
  os << "a:" << v.a << "\nb:" << v.b;
}
inline void showValue(const ComposableTriple &v, std::ostream &os) {
  os << "a:" << v.a << "\nb:" << v.b << "\nc:" << v.c;
}
inline void showValue(const SameOutputsPair &v, std::ostream &os) {
  os << "a:" << v.a << "\nb:" << v.b;
}
inline void showValue(const ProductPair &v, std::ostream &os) {
  os << "inner:" << v.inner << "\nouter:" << v.outer;
}
inline void showValue(const ProductTriple &v, std::ostream &os) {
  os << "a:" << v.a << "\nb:" << v.b << "\nc:" << v.c;
}

} // namespace linlayout::testing

namespace rc {

template <> struct Arbitrary<linlayout::LinearLayout> {
  static Gen<linlayout::LinearLayout> arbitrary() { return linlayout::testing::anyLayout(); }
};
template <> struct Arbitrary<linlayout::testing::Injective> {
  static Gen<linlayout::testing::Injective> arbitrary() {
    return gen::map(linlayout::testing::injectiveLayout(),
                    [](linlayout::LinearLayout l) { return linlayout::testing::Injective{l}; });
  }
};
template <> struct Arbitrary<linlayout::testing::Surjective> {
  static Gen<linlayout::testing::Surjective> arbitrary() {
    return gen::map(linlayout::testing::surjectiveLayout(),
                    [](linlayout::LinearLayout l) { return linlayout::testing::Surjective{l}; });
  }
};
template <> struct Arbitrary<linlayout::testing::Invertible> {
  static Gen<linlayout::testing::Invertible> arbitrary() {
    return gen::map(linlayout::testing::invertibleLayout(),
                    [](linlayout::LinearLayout l) { return linlayout::testing::Invertible{l}; });
  }
};
template <> struct Arbitrary<linlayout::testing::Distributed> {
  static Gen<linlayout::testing::Distributed> arbitrary() {
    return gen::map(linlayout::testing::distributedLayout(),
                    [](linlayout::LinearLayout l) { return linlayout::testing::Distributed{l}; });
  }
};
template <> struct Arbitrary<linlayout::testing::ComposablePair> {
  static Gen<linlayout::testing::ComposablePair> arbitrary() {
    return linlayout::testing::composablePair();
  }
};
template <> struct Arbitrary<linlayout::testing::ComposableTriple> {
  static Gen<linlayout::testing::ComposableTriple> arbitrary() {
    return linlayout::testing::composableTriple();
  }
};
template <> struct Arbitrary<linlayout::testing::SameOutputsPair> {
  static Gen<linlayout::testing::SameOutputsPair> arbitrary() {
    return linlayout::testing::sameOutputsPair();
  }
};
template <> struct Arbitrary<linlayout::testing::ProductPair> {
  static Gen<linlayout::testing::ProductPair> arbitrary() {
    return linlayout::testing::productPair();
  }
};
template <> struct Arbitrary<linlayout::testing::ProductTriple> {
  static Gen<linlayout::testing::ProductTriple> arbitrary() {
    return linlayout::testing::productTriple();
  }
};

} // namespace rc
