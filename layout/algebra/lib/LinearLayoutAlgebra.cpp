// LinearLayout's composition, inverses and the analyses built on them (then, factorThrough,
// invertAndCompose, pseudoInvert, invert; numConsecutiveInOut, imageWithin).
#include "linlayout/layout/LinearLayout.h"

#include "LayoutBits.h"
#include "linlayout/layout/F2Basis.h"

#include <algorithm>
#include <cassert>
#include <ostream>
#include <string>

namespace linlayout {

using namespace detail;

// -------------------------------------------------------------------------------------------------
// Algebra
// -------------------------------------------------------------------------------------------------

Expected<LinearLayout> LinearLayout::then(const LinearLayout &outer) const {
  // Map this layout's packed outputs onto outer's packed inputs, dim by dim.
  Repack rp;
  rp.identity = nOut_ == outer.nIn_;
  for (int o = 0; o < nOut_; ++o) {
    int d = outer.inDimIndex(outNames_[o]);
    if (d < 0) {
      rp.identity = false;
      if (outBits_[o] == 0)
        continue; // a size-1 output carries no bits
      return makeError("cannot compose: out dimension " + quoted(outNames_[o]) +
                       " of the first layout is not an in dimension of the second");
    }
    if (outBits_[o] > outer.inBits_[d])
      return makeError("cannot compose: out dimension " + quoted(outNames_[o]) + " has size " +
                       std::to_string(uint64_t(1) << outBits_[o]) +
                       ", larger than the second layout's in dimension of size " +
                       std::to_string(uint64_t(1) << outer.inBits_[d]));
    rp.add(outDimOffset(o), outer.inDimOffset(d), outBits_[o]);
    if (d != o || outBits_[o] != outer.inBits_[d])
      rp.identity = false;
  }
  LinearLayout r = outer;
  r.nIn_ = nIn_;
  r.inNames_ = inNames_;
  r.inBits_ = inBits_;
  r.cols_.fill(0);
  int n = totalInBits();
  for (int i = 0; i < n; ++i)
    r.cols_[i] = outer.apply(rp(cols_[i]));
  return r;
}

namespace {

// Fills `basis` with the columns of `outer`'s in dims not marked in `skip`, each tagged with its
// packed input bit, in packed order (so the pivots are the columns independent of lower ones).
void insertColumns(F2Basis &basis, const LinearLayout &outer, std::span<const bool> skip) {
  int bit = 0;
  for (int d = 0; d < outer.numInDims(); ++d) {
    int bits = outer.inDimBits(d);
    if (!skip[d] && bits > 8) {
      // Wide dims (the 64-bit extremes) in blocks; small ones gain nothing from it.
      uint64_t cols[LinearLayout::kMaxBits];
      for (int i = 0; i < bits; ++i)
        cols[i] = outer.column(bit + i);
      basis.insertAll(cols, bits, uint64_t(1) << bit);
    } else if (!skip[d]) {
      for (int i = 0; i < bits; ++i)
        basis.insert(outer.column(bit + i), uint64_t(1) << (bit + i));
    }
    bit += bits;
  }
}

// Solves outer(c(x)) == a(x) column by column with free variables zero, using `basis` (outer's
// columns outside the kept dims). In dims of `a` marked in `aKeep` map to the same-named in dim of
// outer identically. Returns false when some column of `a` is outside the basis's span.
// Requires: a's and outer's out dims match in order.
bool solveColumns(const LinearLayout &a, const LinearLayout &outer, const F2Basis &basis,
                  std::span<const bool> aKeep, std::span<uint64_t> cols) {
  int bit = 0;
  for (int d = 0; d < a.numInDims(); ++d) {
    int od = aKeep[d] ? outer.inDimIndex(a.inDimName(d)) : -1;
    int ooff = od >= 0 ? outer.inDimOffset(od) : 0;
    for (int i = 0; i < a.inDimBits(d); ++i, ++bit) {
      if (od >= 0) {
        cols[bit] = uint64_t(1) << (ooff + i);
        continue;
      }
      uint64_t combo = 0;
      if (basis.reduce(a.column(bit), &combo) != 0)
        return false;
      cols[bit] = combo;
    }
  }
  return true;
}

} // namespace

Expected<std::optional<LinearLayout>> LinearLayout::factorThrough(const LinearLayout &outer) const {
  auto aligned = outer.transposeOuts(std::span(outNames_.data(), nOut_));
  if (!aligned.ok())
    return makeError("cannot factor: the layouts have different out dimensions");
  for (int o = 0; o < nOut_; ++o)
    if (outBits_[o] != aligned->outBits_[o])
      return makeError("cannot factor: out dimension " + quoted(outNames_[o]) + " has size " +
                       std::to_string(uint64_t(1) << outBits_[o]) + " and " +
                       std::to_string(uint64_t(1) << aligned->outBits_[o]));
  std::array<bool, kMaxDims> none{};
  F2Basis basis;
  insertColumns(basis, *aligned, std::span(none.data(), aligned->nIn_));
  std::array<uint64_t, kMaxBits> cols{};
  if (!solveColumns(*this, *aligned, basis, std::span(none.data(), nIn_), cols))
    return std::optional<LinearLayout>();
  return std::optional<LinearLayout>(
      make(insOf(*this).span(), insOf(outer).span(), std::span(cols.data(), totalInBits())));
}

Expected<LinearLayout> LinearLayout::invertAndCompose(const LinearLayout &outer) const {
  // Work on outer with its out dims in this layout's order (no copy when they already are).
  bool sameOrder = nOut_ == outer.nOut_ && std::equal(outNames_.begin(), outNames_.begin() + nOut_,
                                                      outer.outNames_.begin());
  std::optional<LinearLayout> transposed;
  if (!sameOrder) {
    auto t = outer.transposeOuts(std::span(outNames_.data(), nOut_));
    if (!t.ok())
      return makeError("cannot invert and compose: the layouts have different out dimensions");
    transposed = std::move(t).value();
  }
  const LinearLayout &A = sameOrder ? outer : *transposed;
  bool widen = false;
  for (int o = 0; o < nOut_; ++o) {
    if (outBits_[o] > A.outBits_[o])
      return makeError("cannot invert and compose: out dimension " + quoted(outNames_[o]) +
                       " has size " + std::to_string(uint64_t(1) << outBits_[o]) +
                       ", larger than the second layout's " +
                       std::to_string(uint64_t(1) << A.outBits_[o]));
    widen = widen || outBits_[o] < A.outBits_[o];
  }
  if (widen) {
    // Triton 3.6 answers when outer's out dims are larger: this layout's values lie in the low
    // part of each of outer's dims (its LinearLayoutTest InvertAndComposeLargerA). Solving on this
    // layout with outer's sizes is that answer, identity-kept dims included (sizes do not change
    // which columns are equal).
    LinearLayout wide = *this;
    for (int o = 0; o < nOut_; ++o)
      wide.outBits_[o] = A.outBits_[o];
    int n = totalInBits();
    for (int i = 0; i < n; ++i) {
      uint64_t c = 0;
      int at = 0;
      for (int o = 0; o < nOut_; ++o) {
        c |= outValue(cols_[i], o) << at;
        at += A.outBits_[o];
      }
      wide.cols_[i] = c;
    }
    return wide.invertAndCompose(A);
  }

  // In dims that both layouts have and map identically need no data movement: map them to
  // themselves rather than to the minimal solution (which would send every broadcast copy to
  // copy zero). This keeps, e.g., broadcast warps on their own warp.
  std::array<bool, kMaxDims> thisKeep{}, outerKeep{}, none{};
  bool keepsColumns = false;
  for (int d = 0; d < A.nIn_; ++d) {
    int b = inDimIndex(A.inNames_[d]);
    if (b < 0 || inBits_[b] != A.inBits_[d])
      continue;
    int ao = A.inDimOffset(d), bo = inDimOffset(b);
    bool same = true;
    for (int i = 0; i < A.inBits_[d] && same; ++i)
      same = A.cols_[ao + i] == cols_[bo + i];
    thisKeep[b] = outerKeep[d] = same;
    keepsColumns = keepsColumns || (same && A.inBits_[d] > 0);
  }

  // The basis of all of outer's columns: its rank says whether outer is surjective, and it solves
  // directly when no kept dim has columns.
  F2Basis full;
  insertColumns(full, A, std::span(none.data(), A.nIn_));
  if (full.rank() != A.totalOutBits())
    return makeError("cannot invert and compose: the second layout is not surjective:" +
                     A.toString());
  std::array<uint64_t, kMaxBits> cols{};
  bool solved = false;
  if (keepsColumns) {
    F2Basis reduced;
    insertColumns(reduced, A, std::span(outerKeep.data(), A.nIn_));
    solved = solveColumns(*this, A, reduced, std::span(thisKeep.data(), nIn_), cols);
    // Keeping those dims in place needs outer's other dims to reach this layout's other columns;
    // when they do not (e.g. a register holds an element only outer's warp reaches), solve all.
    if (!solved)
      std::fill(thisKeep.begin(), thisKeep.end(), false);
  }
  if (!solved)
    solved = solveColumns(*this, A, full, std::span(thisKeep.data(), nIn_), cols);
  assert(solved && "a surjective outer layout reaches every output");
  return make(insOf(*this).span(), insOf(A).span(), std::span(cols.data(), totalInBits()));
}

Expected<LinearLayout> LinearLayout::pseudoInvert() const {
  auto notSurjective = [&] {
    return makeError("cannot pseudo-invert a layout that is not surjective:" + toString());
  };
  // With no in dim named like an out dim, nothing can be kept in place: solve each unit output
  // directly on the basis of the columns (what the identity construction below computes).
  bool sharesNames = false;
  for (int d = 0; d < nIn_ && !sharesNames; ++d)
    sharesNames = hasOutDim(inNames_[d]);
  if (!sharesNames) {
    F2Basis basis;
    int n = totalInBits(), m = totalOutBits();
    basis.insertAll(cols_.data(), n, 1);
    if (basis.rank() != m)
      return notSurjective();
    std::array<uint64_t, kMaxBits> cols{};
    for (int j = 0; j < m; ++j)
      basis.reduce(uint64_t(1) << j, &cols[j]);
    return make(outsOf(*this).span(), insOf(*this).span(), std::span(cols.data(), m));
  }
  // The identity on this layout's outputs, inverted and composed through this layout (Triton's
  // construction, so that same-named in and out dims are treated as Triton treats them).
  DimList dims = outsOf(*this);
  std::array<uint64_t, kMaxBits> unit{};
  int n = totalOutBits();
  for (int i = 0; i < n; ++i)
    unit[i] = uint64_t(1) << i;
  LinearLayout identity = make(dims.span(), dims.span(), std::span(unit.data(), n));
  // The identity has exactly this layout's outputs, so the only possible failure is that this
  // layout is not surjective (checked there, on the one basis the solve needs anyway).
  auto p = identity.invertAndCompose(*this);
  if (!p.ok())
    return notSurjective();
  return p;
}

Expected<LinearLayout> LinearLayout::invert() const {
  auto notBijective = [&] {
    return makeError("cannot invert a layout that is not bijective (" +
                     std::to_string(totalInBits()) + " in bits, " + std::to_string(totalOutBits()) +
                     " out bits, rank " + std::to_string(rank()) + "):" + toString());
  };
  if (totalInBits() != totalOutBits())
    return notBijective();
  // With as many in bits as out bits, surjective means bijective: pseudoInvert checks it.
  auto p = pseudoInvert();
  if (!p.ok())
    return notBijective();
  return p;
}

std::optional<LinearLayout> LinearLayout::tryInvert() const {
  auto inv = invert();
  if (!inv.ok())
    return std::nullopt;
  return std::move(inv).value();
}

// -------------------------------------------------------------------------------------------------
// Analysis
// -------------------------------------------------------------------------------------------------

uint64_t LinearLayout::numConsecutiveInOut() const {
  if (nIn_ == 0 || nOut_ == 0)
    return 1;
  // Leading bases of the first in dim that are unit steps 1, 2, 4, ... of the first out dim.
  // The unit step must stay inside the first out dim: bit `consec` of the packed output belongs
  // to the next out dim once consec reaches outBits_[0].
  int consec = 0;
  while (consec < inBits_[0] && consec < outBits_[0] && cols_[consec] == uint64_t(1) << consec)
    ++consec;
  // Any other basis touching the low bits of the first out dim breaks contiguity there.
  uint64_t other = 0;
  int n = totalInBits();
  uint64_t firstOut = lowMask(outBits_[0]);
  for (int i = consec; i < n; ++i)
    other |= cols_[i] & firstOut;
  int tz = other ? __builtin_ctzll(other) : 63;
  return uint64_t(1) << std::min(consec, tz);
}

int LinearLayout::commonIdentityPrefix(const LinearLayout &a, const LinearLayout &b,
                                       DimName inDim) {
  int da = a.inDimIndex(inDim), db = b.inDimIndex(inDim);
  if (da < 0 || db < 0)
    return 0;
  int n = std::min(a.inBits_[da], b.inBits_[db]);
  int oa = -1, ob = -1, k = 0;
  for (; k < n; ++k) {
    uint64_t ca = a.cols_[a.inDimOffset(da) + k], cb = b.cols_[b.inDimOffset(db) + k];
    if (k == 0) {
      if (__builtin_popcountll(ca) != 1 || __builtin_popcountll(cb) != 1)
        break;
      // The single set bit must be bit 0 of the same named out dim in both.
      for (int o = 0; o < a.nOut_; ++o)
        if (a.outBits_[o] > 0 && ca == uint64_t(1) << a.outDimOffset(o))
          oa = o;
      if (oa < 0)
        break;
      ob = b.outDimIndex(a.outNames_[oa]);
      if (ob < 0 || b.outBits_[ob] == 0 || cb != uint64_t(1) << b.outDimOffset(ob))
        break;
      continue;
    }
    if (k >= a.outBits_[oa] || k >= b.outBits_[ob] ||
        ca != uint64_t(1) << (a.outDimOffset(oa) + k) ||
        cb != uint64_t(1) << (b.outDimOffset(ob) + k))
      break;
  }
  return k;
}

Expected<bool> LinearLayout::imageWithin(const LinearLayout &other) const {
  auto alignedOr = other.transposeOuts(std::span(outNames_.data(), nOut_));
  if (!alignedOr.ok())
    return makeError("imageWithin: the layouts have different out dimensions");
  for (int o = 0; o < nOut_; ++o)
    if (outBits_[o] != alignedOr->outBits_[o])
      return makeError("imageWithin: out dimension " + quoted(outNames_[o]) +
                       " has different sizes");
  F2Basis basis;
  int m = alignedOr->totalInBits();
  for (int i = 0; i < m; ++i)
    basis.insert(alignedOr->cols_[i], 0);
  int n = totalInBits();
  for (int i = 0; i < n; ++i)
    if (!basis.contains(cols_[i]))
      return false;
  return true;
}

} // namespace linlayout
