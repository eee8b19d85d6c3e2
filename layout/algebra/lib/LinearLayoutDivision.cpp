// LinearLayout's divisions: divideLeft and divideRight, solved in place by checking the product
// directly instead of building it, with BMI2's bit deposit and extract where they are fast.
#include "linlayout/layout/LinearLayout.h"

#include "LayoutBits.h"

#include <array>
#include <bit>
#include <optional>

namespace linlayout {

using namespace detail;

namespace {

// Moves the bit pieces of a Repack, the first two held in registers (all of them, when Few is
// false, for three or more). A piece is masked where it is and rotated into place: one
// variable-count instruction instead of two shifts.
template <bool Few> struct PieceMove {
  uint64_t m0, m1;
  int r0, r1;
  const Repack *all;
  explicit PieceMove(const Repack &r)
      : m0(r.pieces[0].mask << r.pieces[0].from), m1(r.pieces[1].mask << r.pieces[1].from),
        r0((r.pieces[0].from - r.pieces[0].to) & 63), r1((r.pieces[1].from - r.pieces[1].to) & 63),
        all(&r) {}
  uint64_t operator()(uint64_t w) const {
    uint64_t r = std::rotr(w & m0, r0) | std::rotr(w & m1, r1);
    if (!Few)
      for (int i = 2; i < all->n; ++i)
        r |= ((w >> all->pieces[i].from) & all->pieces[i].mask) << all->pieces[i].to;
    return r;
  }
};

// The columns of a division whose dims keep their order (divideInto's fast path): inner's
// columns (kCols, at the packed inputs set in kIn) moved into this layout's packing must equal
// this layout's; this layout's other columns (qIn) must miss knownBits and move into q's.
template <typename MoveKnown, typename MoveQ>
bool divideColumns(const uint64_t *cols, const uint64_t *kCols, uint64_t *qCols, uint64_t kIn,
                   uint64_t qIn, uint64_t knownBits, MoveKnown moveKnown, MoveQ moveQ) {
  // Mismatches gather in `diff` and `clash`, checked once: no branch per column.
  uint64_t diff = 0, clash = 0;
  for (int i = 0; kIn; kIn &= kIn - 1, ++i)
    diff |= moveKnown(kCols[i]) ^ cols[__builtin_ctzll(kIn)];
  for (int i = 0; qIn; qIn &= qIn - 1, ++i) {
    uint64_t v = cols[__builtin_ctzll(qIn)];
    clash |= v;
    qCols[i] = moveQ(v);
  }
  return diff == 0 && (clash & knownBits) == 0;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The same with BMI2's bit deposit and extract: one instruction per move.
[[gnu::target("bmi2")]] bool divideColumnsBmi2(const uint64_t *cols, const uint64_t *kCols,
                                               uint64_t *qCols, uint64_t kIn, uint64_t qIn,
                                               uint64_t knownBits, uint64_t qBits) {
  uint64_t diff = 0, clash = 0;
  for (int i = 0; kIn; kIn &= kIn - 1, ++i)
    diff |= __builtin_ia32_pdep_di(kCols[i], knownBits) ^ cols[__builtin_ctzll(kIn)];
  for (int i = 0; qIn; qIn &= qIn - 1, ++i) {
    uint64_t v = cols[__builtin_ctzll(qIn)];
    clash |= v;
    qCols[i] = __builtin_ia32_pext_di(v, qBits);
  }
  return diff == 0 && (clash & knownBits) == 0;
}

// Whether BMI2's deposit and extract are fast here: not on AMD before Zen 3, which runs them as
// microcode (tens to hundreds of cycles).
bool hasFastBitDeposit() {
  static const bool fast = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi2") && !__builtin_cpu_is("znver1") &&
           !__builtin_cpu_is("znver2");
  }();
  return fast;
}
#else
bool divideColumnsBmi2(const uint64_t *, const uint64_t *, uint64_t *, uint64_t, uint64_t, uint64_t,
                       uint64_t) {
  return false;
}
bool hasFastBitDeposit() { return false; }
#endif

} // namespace

// product(known, q) == *this (KnownIsInner) or product(q, known) == *this, checked directly
// instead of building the product: the same dims by name, known's columns where the product puts
// them (the low bits of each shared dim when known is inner, the high bits when it is outer), q's
// columns clear of known's out bits, and the dims both share in the same relative order (the
// product refuses any other). q gets this layout's dims less known's bits; a dim known uses up
// is left out, one known lacks is kept even at size 1.
template <bool KnownIsInner>
bool LinearLayout::divideInto(const LinearLayout &known, LinearLayout &q) const {
  // Counts and sizes are read into locals once: the column stores could alias the uint8_t
  // arrays, and GCC would reload them after every store.
  const int nOut = nOut_, nIn = nIn_, kOut = known.nOut_, kIn = known.nIn_;
  if constexpr (KnownIsInner) {
    // The product puts inner's dims first, in inner's order, on both sides. When this layout
    // does too (the usual division), no dim is looked up by name and the order rules hold.
    bool prefix = kIn <= nIn && kOut <= nOut;
    for (int d = 0; prefix && d < kIn; ++d)
      prefix = inNames_[d] == known.inNames_[d];
    for (int o = 0; prefix && o < kOut; ++o)
      prefix = outNames_[o] == known.outNames_[o];
    if (prefix) {
      // Out dims: q keeps each dim less inner's low bits (`knownBits`, in this layout's packing).
      // Dims have at most 63 bits: their masks need no 64-bit case.
      auto low = [](int bits) { return (uint64_t(1) << bits) - 1; };
      uint64_t knownBits = 0;
      int qDims = 0, off = 0;
      for (int o = 0; o < nOut; ++o) {
        const int bits = outBits_[o], kb = o < kOut ? known.outBits_[o] : 0, qb = bits - kb;
        if (qb < 0)
          return false;
        knownBits |= low(kb) << (off & 63); // 64 only past the last bit
        if (qb > 0 || o >= kOut) {
          q.outNames_[qDims] = outNames_[o];
          q.outBits_[qDims++] = uint8_t(qb);
        }
        off += bits;
      }
      q.nOut_ = uint8_t(qDims);
      const uint64_t qBits = lowMask(off) & ~knownBits;
      // In dims likewise: inner's columns are this layout's packed inputs `kInBits`, q's are
      // `qInBits`.
      uint64_t kInBits = 0, qInBits = 0;
      int nq = 0; // q's columns
      qDims = 0;
      for (int d = 0, src = 0; d < nIn; ++d) {
        const int bits = inBits_[d], kb = d < kIn ? known.inBits_[d] : 0, qb = bits - kb;
        if (qb < 0)
          return false;
        if (qb > 0 || d >= kIn) {
          q.inNames_[qDims] = inNames_[d];
          q.inBits_[qDims++] = uint8_t(qb);
        }
        kInBits |= low(kb) << (src & 63);
        qInBits |= low(qb) << ((src + kb) & 63);
        src += bits;
        nq += qb;
      }
      q.nIn_ = uint8_t(qDims);
      // Both packings keep the dims' order, so inner's columns deposit into `knownBits` and q's
      // columns are this layout's extracted from `qBits`.
      bool ok;
      if (hasFastBitDeposit()) {
        ok = divideColumnsBmi2(cols_.data(), known.cols_.data(), q.cols_.data(), kInBits, qInBits,
                               knownBits, qBits);
      } else {
        Repack kr, qr; // the same moves as pieces of dims
        for (int o = 0, from = 0, kOff = 0, qOff = 0; o < nOut; ++o) {
          const int bits = outBits_[o], kb = o < kOut ? known.outBits_[o] : 0, qb = bits - kb;
          kr.add(kOff, from, kb);
          qr.add(from + kb, qOff, qb);
          from += bits;
          kOff += kb;
          qOff += qb;
        }
        ok = kr.n <= 2 && qr.n <= 2
                 ? divideColumns(cols_.data(), known.cols_.data(), q.cols_.data(), kInBits, qInBits,
                                 knownBits, PieceMove<true>(kr), PieceMove<true>(qr))
                 : divideColumns(cols_.data(), known.cols_.data(), q.cols_.data(), kInBits, qInBits,
                                 knownBits, PieceMove<false>(kr), PieceMove<false>(qr));
      }
      q.clearColumnsFrom(nq);
      return ok;
    }
  }
  std::array<int, kMaxDims> kOutOff, kInOff; // known's packed offsets
  for (int k = 0, off = 0; k < kOut; off += known.outBits_[k++])
    kOutOff[k] = off;
  for (int k = 0, off = 0; k < kIn; off += known.inBits_[k++])
    kInOff[k] = off;
  // Out dims, in this layout's order: where known's part sits (low bits of a shared dim when known
  // is inner, high bits when outer) and where q's part goes. Pieces: known's packing into this
  // one's (kp), this one's into q's (qp).
  std::array<Repack::Piece, kMaxDims> kp, qp;
  int nk = 0, nq = 0, found = 0, lastCommon = -1, qDims = 0;
  uint64_t knownBits = 0;
  for (int o = 0, off = 0, qOff = 0; o < nOut; ++o) {
    const DimName name = outNames_[o];
    const int bits = outBits_[o];
    int k = known.outDimIndex(name), kb = 0;
    if (k >= 0) {
      ++found;
      kb = known.outBits_[k];
      if (kb > bits)
        return false;
    }
    int qb = bits - kb;
    int kAt = KnownIsInner ? off : off + qb, qAt = KnownIsInner ? off + kb : off;
    if (k >= 0 && qb > 0) {
      if (k < lastCommon)
        return false; // the product would refuse dims shared in another order
      lastCommon = k;
    }
    if (kb > 0) {
      knownBits |= lowMask(kb) << kAt;
      kp[nk++] = {kOutOff[k], kAt, lowMask(kb)};
    }
    if (qb > 0 || k < 0) {
      q.outNames_[qDims] = name;
      q.outBits_[qDims++] = uint8_t(qb);
    }
    if (qb > 0) {
      if (nq > 0 && qp[nq - 1].from + (qOff - qp[nq - 1].to) == qAt)
        qp[nq - 1].mask = lowMask(qOff + qb - qp[nq - 1].to); // continues the last piece
      else
        qp[nq++] = {qAt, qOff, lowMask(qb)};
      qOff += qb;
    }
    off += bits;
  }
  q.nOut_ = uint8_t(qDims);
  if (found != kOut)
    return false;
  // The in dims are read first into runs of columns: known's (kRuns), compared with this
  // layout's, and q's (qRuns), moved into q. Runs continuing each other join, so the columns
  // are then checked and moved in a few tight loops.
  struct Run {
    int from, at, len; // known's column `from` (or unused) against this layout's column `at`
  };
  std::array<Run, kMaxDims> kRuns, qRuns;
  int nkRuns = 0, nqRuns = 0;
  found = 0;
  lastCommon = -1;
  qDims = 0;
  for (int d = 0, src = 0; d < nIn; ++d) {
    const DimName name = inNames_[d];
    const int bits = inBits_[d];
    int k = known.inDimIndex(name), kb = 0, kSrc = 0;
    if (k >= 0) {
      ++found;
      kb = known.inBits_[k];
      kSrc = kInOff[k];
    }
    int qb = bits - kb;
    if (qb < 0)
      return false;
    if (k >= 0 && qb > 0) {
      if (k < lastCommon)
        return false;
      lastCommon = k;
    }
    if (qb > 0 || k < 0) {
      q.inNames_[qDims] = name;
      q.inBits_[qDims++] = uint8_t(qb);
    }
    const int kAt = KnownIsInner ? src : src + qb, qAt = KnownIsInner ? src + kb : src;
    if (kb > 0) {
      Run *last = nkRuns > 0 ? &kRuns[nkRuns - 1] : nullptr;
      if (last && last->from + last->len == kSrc && last->at + last->len == kAt)
        last->len += kb;
      else
        kRuns[nkRuns++] = {kSrc, kAt, kb};
    }
    if (qb > 0) {
      Run *last = nqRuns > 0 ? &qRuns[nqRuns - 1] : nullptr;
      if (last && last->at + last->len == qAt)
        last->len += qb;
      else
        qRuns[nqRuns++] = {0, qAt, qb};
    }
    src += bits;
  }
  q.nIn_ = uint8_t(qDims);
  if (found != kIn)
    return false;
  // Mismatches gather in `diff` (known's columns) and `clash` (q's columns reaching known's
  // bits), checked once at the end: no branch per column. Two pieces or fewer (one or two out
  // dims, the usual case) move without a loop; the unused one has a zero mask.
  for (int i = nk; i < 2; ++i)
    kp[i] = {0, 0, 0};
  for (int i = nq; i < 2; ++i)
    qp[i] = {0, 0, 0};
  uint64_t diff = 0, clash = 0;
  int bit = 0;
  uint64_t *qCols = q.cols_.data();
  auto columns = [&]<bool Few>(std::bool_constant<Few>) {
    auto move = [](uint64_t w, const std::array<Repack::Piece, kMaxDims> &p, int n) {
      uint64_t r = ((w >> p[0].from) & p[0].mask) << p[0].to | ((w >> p[1].from) & p[1].mask)
                                                                   << p[1].to;
      if (!Few)
        for (int i = 2; i < n; ++i)
          r |= ((w >> p[i].from) & p[i].mask) << p[i].to;
      return r;
    };
    for (int r = 0; r < nkRuns; ++r) {
      const uint64_t *kCols = &known.cols_[kRuns[r].from], *here = &cols_[kRuns[r].at];
      for (int i = 0, len = kRuns[r].len; i < len; ++i)
        diff |= move(kCols[i], kp, nk) ^ here[i];
    }
    for (int r = 0; r < nqRuns; ++r) {
      const uint64_t *here = &cols_[qRuns[r].at];
      for (int i = 0, len = qRuns[r].len; i < len; ++i) {
        uint64_t v = here[i];
        clash |= v;
        qCols[bit + i] = move(v, qp, nq);
      }
      bit += qRuns[r].len;
    }
  };
  if (nk <= 2 && nq <= 2)
    columns(std::true_type{});
  else
    columns(std::false_type{});
  q.clearColumnsFrom(bit);
  return diff == 0 && (clash & knownBits) == 0;
}

std::optional<LinearLayout> LinearLayout::divideLeft(const LinearLayout &inner) const {
  // Solved in place and returned by name: no intermediate layouts, no copy of the result.
  std::optional<LinearLayout> c(std::in_place, Unfilled{});
  if (!divideInto<true>(inner, *c))
    c.reset();
  return c;
}

std::optional<LinearLayout> LinearLayout::divideRight(const LinearLayout &outer) const {
  std::optional<LinearLayout> b(std::in_place, Unfilled{});
  if (!divideInto<false>(outer, *b))
    b.reset();
  return b;
}
} // namespace linlayout
