#include "linlayout/layout/F2Subspace.h"

#include <cassert>

namespace linlayout {

int f2Rank(std::span<const uint64_t> vs) {
  F2Basis b;
  for (uint64_t v : vs)
    b.insert(v, 0);
  return b.rank();
}

int f2IntersectionDim(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  F2Basis all;
  int ra = 0, rb = 0, rab = 0;
  {
    F2Basis x;
    for (uint64_t v : a)
      ra += x.insert(v, 0);
  }
  {
    F2Basis x;
    for (uint64_t v : b)
      rb += x.insert(v, 0);
  }
  for (uint64_t v : a)
    rab += all.insert(v, 0);
  for (uint64_t v : b)
    rab += all.insert(v, 0);
  return ra + rb - rab;
}

std::vector<uint64_t> f2Intersection(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  // Insert a's vectors untagged, then b's tagged by their index: every b vector that fails to
  // insert closes a dependency whose b part (the tagged combination) lies in span(a). These
  // dependencies span all combinations of b landing in span(a), so their sums span the
  // intersection.
  assert(b.size() <= 64 && "at most 64 spanning vectors");
  F2Basis joint;
  for (uint64_t v : a)
    joint.insert(v, 0);
  F2Basis have;
  std::vector<uint64_t> out;
  for (size_t i = 0; i < b.size(); ++i) {
    uint64_t combo = uint64_t(1) << i;
    if (joint.reduce(b[i], &combo) != 0) {
      joint.insert(b[i], uint64_t(1) << i);
      continue;
    }
    uint64_t v = 0;
    for (uint64_t c = combo; c; c &= c - 1)
      v ^= b[__builtin_ctzll(c)];
    if (v != 0 && have.insert(v, 0))
      out.push_back(v);
  }
  return out;
}

bool f2InSpan(std::span<const uint64_t> vs, uint64_t v) {
  F2Basis b;
  for (uint64_t x : vs)
    b.insert(x, 0);
  return b.contains(v);
}

std::vector<uint64_t> f2KernelOfMask(std::span<const uint64_t> vs, uint64_t mask) {
  // Eliminate on the masked bits; every dependency among the masked parts is a kernel vector.
  assert(vs.size() <= 64 && "at most 64 spanning vectors");
  F2Basis masked;
  std::vector<uint64_t> out;
  F2Basis have;
  for (size_t i = 0; i < vs.size(); ++i) {
    uint64_t combo = uint64_t(1) << i;
    uint64_t r = masked.reduce(vs[i] & mask, &combo);
    if (r != 0) {
      masked.insert(vs[i] & mask, uint64_t(1) << i);
      continue;
    }
    uint64_t v = 0;
    for (uint64_t c = combo; c; c &= c - 1)
      v ^= vs[__builtin_ctzll(c)];
    assert((v & mask) == 0);
    if (v != 0 && have.insert(v, 0))
      out.push_back(v);
  }
  return out;
}

uint64_t F2ReducedBasis::combine(uint64_t coeffs) const {
  uint64_t v = 0;
  for (int j = 0; j < rank(); ++j)
    if (coeffs >> j & 1)
      v ^= vectors[j];
  return v;
}

F2ReducedBasis f2ReducedBasis(std::span<const uint64_t> vs) {
  F2ReducedBasis out;
  for (uint64_t v : vs) {
    for (size_t j = 0; j < out.vectors.size(); ++j)
      if (v >> out.pivots[j] & 1)
        v ^= out.vectors[j];
    if (!v)
      continue;
    int p = 63 - __builtin_clzll(v);
    for (uint64_t &w : out.vectors)
      if (w >> p & 1)
        w ^= v;
    out.vectors.push_back(v);
    out.pivots.push_back(p);
  }
  return out;
}

int64_t f2XorNetworkSelects(std::span<const uint64_t> vectors, std::span<const uint64_t> live) {
  int64_t n = 0;
  std::vector<uint64_t> span(live.begin(), live.end());
  for (size_t j = vectors.size(); j-- > 0;) {
    n += int64_t(1) << f2Rank(span);
    span.push_back(vectors[j]);
  }
  return n;
}

std::vector<uint64_t> f2UnitComplement(std::span<const uint64_t> vs, int bits) {
  F2Basis b;
  for (uint64_t v : vs) {
    assert((bits >= 64 || (v >> bits) == 0) && "vector outside F2^bits");
    b.insert(v, 0);
  }
  std::vector<uint64_t> out;
  for (int i = 0; i < bits; ++i)
    if (b.insert(uint64_t(1) << i, 0))
      out.push_back(uint64_t(1) << i);
  return out;
}

std::vector<uint64_t> f2KernelOfColumns(std::span<const uint64_t> cols, uint64_t mask) {
  assert(cols.size() <= 64 && "at most 64 columns");
  F2Basis b;
  F2Basis have;
  std::vector<uint64_t> out;
  for (size_t j = 0; j < cols.size(); ++j) {
    uint64_t combo = uint64_t(1) << j;
    if (b.reduce(cols[j] & mask, &combo) != 0) {
      b.insert(cols[j] & mask, uint64_t(1) << j);
      continue;
    }
    if (have.insert(combo, 0))
      out.push_back(combo);
  }
  return out;
}

std::optional<uint64_t> f2Preimage(std::span<const uint64_t> cols, uint64_t target) {
  assert(cols.size() <= 64 && "at most 64 columns");
  F2Basis b;
  for (size_t j = 0; j < cols.size(); ++j)
    b.insert(cols[j], uint64_t(1) << j);
  uint64_t combo = 0;
  if (b.reduce(target, &combo) != 0)
    return std::nullopt;
  return combo;
}

} // namespace linlayout
