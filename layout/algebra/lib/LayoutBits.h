// Bit-level helpers shared by the files that implement LinearLayout (private to algebra/):
// packed-word masks, the dimension checks of the factories, and fixed-capacity dimension lists
// with which the hot paths build result shapes without the heap.
#pragma once

#include "linlayout/layout/LinearLayout.h"

#include <array>
#include <span>
#include <string>

namespace linlayout::detail {

inline bool isPow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }
inline int log2u(uint64_t x) { return 63 - __builtin_clzll(x); }
inline uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

inline std::string quoted(DimName n) { return "'" + std::string(n.str()) + "'"; }

// Checks a list of dims for the per-side limits and duplicate names.
Status checkDims(std::span<const DimBits> dims, const char *side);

// The bits of a dim of `size` elements; an error unless size is a power of two.
Expected<int> sizeToBits(uint64_t size, DimName name, const char *side);

// Moves the bits of each named dim of one packing into another packing. Dims missing from the
// target must be zero in the source (the caller checks); dims missing from the source are zero.
struct Repack {
  struct Piece {
    int from, to;
    uint64_t mask; // the piece's bits, at bit 0
  };
  // Slots past n stay unset, except the first two: they are zero, so that operator() moves two
  // pieces without a loop or a branch (most maps have one or two out dims).
  std::array<Piece, LinearLayout::kMaxDims> pieces;
  int n = 0;
  bool identity = true;

  Repack() { pieces[0] = pieces[1] = {0, 0, 0}; }

  // Moves `bits` bits from `from` to `to`. A piece that continues the previous one on both sides
  // joins it, so dims kept in order cost one shift and mask together.
  void add(int from, int to, int bits) {
    if (bits == 0)
      return;
    if (n > 0) {
      Piece &last = pieces[n - 1];
      int lastBits = 64 - __builtin_clzll(last.mask);
      if (last.from + lastBits == from && last.to + lastBits == to) {
        last.mask = lowMask(lastBits + bits);
        return;
      }
    }
    pieces[n++] = {from, to, lowMask(bits)};
  }

  // Calls f with the cheapest mover of a word for this repack (a copy, one or two pieces
  // held in registers, or the general loop), so that a caller's loop over columns is specialised
  // once.
  template <typename F> void withMover(F f) const {
    if (identity) {
      f([](uint64_t w) { return w; });
    } else if (n == 1) {
      const Piece a = pieces[0];
      f([a](uint64_t w) { return ((w >> a.from) & a.mask) << a.to; });
    } else if (n == 2) {
      const Piece a = pieces[0], b = pieces[1];
      f([a, b](uint64_t w) {
        return ((w >> a.from) & a.mask) << a.to | ((w >> b.from) & b.mask) << b.to;
      });
    } else {
      f([this](uint64_t w) { return (*this)(w); });
    }
  }

  uint64_t operator()(uint64_t w) const {
    if (identity)
      return w;
    uint64_t r = ((w >> pieces[0].from) & pieces[0].mask) << pieces[0].to |
                 ((w >> pieces[1].from) & pieces[1].mask) << pieces[1].to;
    for (int i = 2; i < n; ++i)
      r |= ((w >> pieces[i].from) & pieces[i].mask) << pieces[i].to;
    return r;
  }
};

// A fixed-capacity list of dims (the hot paths build result shapes without the heap).
struct DimList {
  std::array<DimBits, 2 * LinearLayout::kMaxDims> v{};
  int n = 0;
  void push(DimName name, int bits) { v[n++] = {name, bits}; }
  std::span<const DimBits> span() const { return {v.data(), size_t(n)}; }
};

inline DimList insOf(const LinearLayout &l) {
  DimList r;
  for (int d = 0; d < l.numInDims(); ++d)
    r.push(l.inDimName(d), l.inDimBits(d));
  return r;
}

inline DimList outsOf(const LinearLayout &l) {
  DimList r;
  for (int o = 0; o < l.numOutDims(); ++o)
    r.push(l.outDimName(o), l.outDimBits(o));
  return r;
}

} // namespace linlayout::detail
