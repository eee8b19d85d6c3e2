// A brute-force evaluator for linear layouts, the reference the property tests check against.
// It reads a layout only through its public description (dims, sizes, bases) and evaluates it
// the slow, obvious way: the output of an input is the XOR of the bases of its set bits, per
// named dimension. It shares no code with LinearLayout's packed representation.
#pragma once

#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <vector>

namespace linlayout::bruteforce {

/// One value per dimension, in the layout's dimension order.
using Coords = std::vector<uint64_t>;

/// A layout as plain data.
struct Ref {
  std::vector<DimName> inNames;
  std::vector<int> inBits;
  std::vector<std::vector<std::vector<uint64_t>>> bases; // [in dim][bit][out dim]
  std::vector<DimName> outNames;
  std::vector<uint64_t> outSizes;

  explicit Ref(const LinearLayout &l) {
    for (const InDimBases &b : l.bases()) {
      inNames.push_back(b.name);
      inBits.push_back(int(b.bases.size()));
      bases.push_back(b.bases);
    }
    for (const DimSize &d : l.outDims()) {
      outNames.push_back(d.name);
      outSizes.push_back(d.size);
    }
  }

  int totalInBits() const {
    int t = 0;
    for (int b : inBits)
      t += b;
    return t;
  }
  int totalOutBits() const {
    int t = 0;
    for (uint64_t s : outSizes)
      t += __builtin_ctzll(s);
    return t;
  }

  /// The output of `in` (one value per in dim).
  Coords eval(const Coords &in) const {
    Coords out(outNames.size(), 0);
    for (size_t d = 0; d < inNames.size(); ++d)
      for (int i = 0; i < inBits[d]; ++i)
        if ((in[d] >> i) & 1)
          for (size_t o = 0; o < out.size(); ++o)
            out[o] ^= bases[d][i][o];
    return out;
  }
};

/// The value of dimension `name` in `coords` over `names`; 0 when absent.
inline uint64_t valueOf(const std::vector<DimName> &names, const Coords &coords, DimName name) {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name)
      return coords[i];
  return 0;
}

/// `coords` over `from` re-expressed over `to`, by name (absent dims are 0).
inline Coords reorder(const std::vector<DimName> &from, const Coords &coords,
                      const std::vector<DimName> &to) {
  Coords r;
  for (DimName n : to)
    r.push_back(valueOf(from, coords, n));
  return r;
}

/// Mixed-radix split of an index over dims of the given bit widths (first dim lowest).
inline Coords split(uint64_t index, const std::vector<int> &bits) {
  Coords r;
  for (int b : bits) {
    r.push_back(b >= 64 ? index : index & ((uint64_t(1) << b) - 1));
    index = b >= 64 ? 0 : index >> b;
  }
  return r;
}

/// Bit widths of a list of sizes.
inline std::vector<int> bitsOf(const std::vector<uint64_t> &sizes) {
  std::vector<int> r;
  for (uint64_t s : sizes)
    r.push_back(__builtin_ctzll(s));
  return r;
}

/// The largest space enumerated in full; larger ones are sampled.
constexpr int kEnumerateBits = 16;

/// Points of a space of dims with the given bit widths: every point when the space has at most
/// 2^limitBits points; otherwise zero, every unit point and `samples` random points.
inline std::vector<Coords> points(const std::vector<int> &bits, uint64_t seed,
                                  int limitBits = kEnumerateBits, int samples = 256) {
  int total = 0;
  for (int b : bits)
    total += b;
  std::vector<Coords> r;
  if (total <= limitBits) {
    for (uint64_t x = 0; x < (uint64_t(1) << total); ++x)
      r.push_back(split(x, bits));
    return r;
  }
  r.push_back(Coords(bits.size(), 0));
  for (size_t d = 0; d < bits.size(); ++d)
    for (int i = 0; i < bits[d]; ++i) {
      Coords c(bits.size(), 0);
      c[d] = uint64_t(1) << i;
      r.push_back(c);
    }
  std::mt19937_64 rng(seed);
  for (int s = 0; s < samples; ++s) {
    Coords c;
    for (int b : bits)
      c.push_back(b >= 64 ? rng() : rng() & ((uint64_t(1) << b) - 1));
    r.push_back(c);
  }
  return r;
}

inline std::vector<Coords> inputs(const Ref &r, uint64_t seed = 1, int limitBits = kEnumerateBits,
                                  int samples = 256) {
  return points(r.inBits, seed, limitBits, samples);
}
inline std::vector<Coords> outputs(const Ref &r, uint64_t seed = 1,
                                   int limitBits = kEnumerateBits) {
  return points(bitsOf(r.outSizes), seed, limitBits);
}

/// The image of the layout, by enumerating every input. Requires: few in bits.
inline std::set<Coords> image(const Ref &r) {
  std::set<Coords> s;
  for (const Coords &x : points(r.inBits, 0, 64))
    s.insert(r.eval(x));
  return s;
}

/// Whether two layouts are the same map once size-1 dims are dropped and dims are matched by
/// name (their orders may differ): same non-trivial dims and sizes, same output on every basis.
inline bool sameMap(const LinearLayout &a, const LinearLayout &b) {
  Ref ra(a), rb(b);
  auto nontrivialIns = [](const Ref &r) {
    std::map<uint16_t, int> m;
    for (size_t d = 0; d < r.inNames.size(); ++d)
      if (r.inBits[d] > 0)
        m[r.inNames[d].id()] = r.inBits[d];
    return m;
  };
  auto nontrivialOuts = [](const Ref &r) {
    std::map<uint16_t, uint64_t> m;
    for (size_t o = 0; o < r.outNames.size(); ++o)
      if (r.outSizes[o] > 1)
        m[r.outNames[o].id()] = r.outSizes[o];
    return m;
  };
  if (nontrivialIns(ra) != nontrivialIns(rb) || nontrivialOuts(ra) != nontrivialOuts(rb))
    return false;
  for (size_t d = 0; d < ra.inNames.size(); ++d)
    for (int i = 0; i < ra.inBits[d]; ++i) {
      Coords x(ra.inNames.size(), 0);
      x[d] = uint64_t(1) << i;
      Coords ya = ra.eval(x);
      Coords yb = rb.eval(reorder(ra.inNames, x, rb.inNames));
      for (size_t o = 0; o < ra.outNames.size(); ++o)
        if (ya[o] != valueOf(rb.outNames, yb, ra.outNames[o]))
          return false;
    }
  return true;
}

} // namespace linlayout::bruteforce
