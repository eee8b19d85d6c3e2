// LinearLayout's structural operations: products, concatenation, transposes, reshapes, resizes,
// sublayouts and quotients, renames and bit permutations (divisions: LinearLayoutDivision.cpp).
#include "linlayout/layout/LinearLayout.h"

#include "LayoutBits.h"
#include "linlayout/layout/F2Basis.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <ostream>
#include <string>

namespace linlayout {

using namespace detail;

namespace {

// Dims common to both lists appear in the same relative order.
bool sameRelativeOrder(std::span<const DimName> a, std::span<const DimName> b) {
  size_t j = 0;
  for (DimName n : a) {
    if (std::find(b.begin(), b.end(), n) == b.end())
      continue;
    while (j < b.size() && std::find(a.begin(), a.end(), b[j]) == a.end())
      ++j;
    if (j == b.size() || b[j] != n)
      return false;
    ++j;
  }
  return true;
}

} // namespace

Expected<LinearLayout> LinearLayout::product(const LinearLayout &inner, const LinearLayout &outer) {
  // The answer is written in place and returned by name (no scratch columns, no copy).
  Expected<LinearLayout> r(std::in_place, Unfilled{});
  if (!sameRelativeOrder(std::span(inner.inNames_.data(), inner.nIn_),
                         std::span(outer.inNames_.data(), outer.nIn_)) ||
      !sameRelativeOrder(std::span(inner.outNames_.data(), inner.nOut_),
                         std::span(outer.outNames_.data(), outer.nOut_))) {
    r = makeError("cannot multiply layouts whose common dimensions appear in different orders");
    return r;
  }
  // The product's dims: inner's, then outer's new ones, in outer's order (a dim both have gets
  // the bits of both). Where outer's dims sit in the product: ko[d] / oo[o].
  LinearLayout &l = *r;
  std::array<int, kMaxDims> ko, oo;
  int nIn = inner.nIn_, nOut = inner.nOut_;
  std::array<DimBits, 2 * kMaxDims> ins, outs;
  for (int d = 0; d < nIn; ++d)
    ins[d] = {inner.inNames_[d], inner.inBits_[d]};
  for (int o = 0; o < nOut; ++o)
    outs[o] = {inner.outNames_[o], inner.outBits_[o]};
  for (int d = 0; d < outer.nIn_; ++d) {
    int k = inner.inDimIndex(outer.inNames_[d]);
    if (k < 0)
      ins[k = nIn++] = {outer.inNames_[d], 0};
    ins[k].bits += outer.inBits_[d];
    ko[d] = k;
  }
  for (int o = 0; o < outer.nOut_; ++o) {
    int k = inner.outDimIndex(outer.outNames_[o]);
    if (k < 0)
      outs[k = nOut++] = {outer.outNames_[o], 0};
    outs[k].bits += outer.outBits_[o];
    oo[o] = k;
  }
  int inTotal = 0, outTotal = 0;
  bool fits = nIn <= kMaxDims && nOut <= kMaxDims;
  for (int d = 0; d < nIn; ++d) {
    fits = fits && ins[d].bits <= kMaxDimBits;
    inTotal += ins[d].bits;
  }
  for (int o = 0; o < nOut; ++o) {
    fits = fits && outs[o].bits <= kMaxDimBits;
    outTotal += outs[o].bits;
  }
  if (!fits || inTotal > kMaxBits || outTotal > kMaxBits) {
    Status st = checkDims(std::span(ins.data(), nIn), "in");
    r = st.ok() ? checkDims(std::span(outs.data(), nOut), "out").error() : st.error();
    return r;
  }
  l.nIn_ = uint8_t(nIn);
  l.nOut_ = uint8_t(nOut);
  for (int d = 0; d < nIn; ++d) {
    l.inNames_[d] = ins[d].name;
    l.inBits_[d] = uint8_t(ins[d].bits);
  }
  std::array<int, kMaxDims + 1> outOff;
  outOff[0] = 0;
  for (int o = 0; o < nOut; ++o) {
    l.outNames_[o] = outs[o].name;
    l.outBits_[o] = uint8_t(outs[o].bits);
    outOff[o + 1] = outOff[o] + outs[o].bits;
  }
  // Where each side's output bits land in the product's packed output: inner's at the bottom of
  // each dim, outer's above inner's bits of that dim.
  Repack rin, rout;
  rin.identity = rout.identity = false;
  for (int o = 0, from = 0; o < inner.nOut_; from += inner.outBits_[o++])
    rin.add(from, outOff[o], inner.outBits_[o]);
  for (int o = 0, from = 0; o < outer.nOut_; from += outer.outBits_[o++]) {
    int k = oo[o];
    int below = k < inner.nOut_ ? inner.outBits_[k] : 0;
    rout.add(from, outOff[k] + below, outer.outBits_[o]);
  }
  // The columns, dim by dim of the product: inner's bits of the dim, then outer's.
  std::array<int, kMaxDims + 1> innerOff, outerOff;
  innerOff[0] = outerOff[0] = 0;
  for (int d = 0; d < inner.nIn_; ++d)
    innerOff[d + 1] = innerOff[d] + inner.inBits_[d];
  std::array<int, kMaxDims> outerOf;
  outerOf.fill(-1);
  for (int d = 0; d < outer.nIn_; ++d) {
    outerOff[d + 1] = outerOff[d] + outer.inBits_[d];
    outerOf[ko[d]] = d;
  }
  uint64_t *out = l.cols_.data();
  int bit = 0;
  for (int k = 0; k < nIn; ++k) {
    if (k < inner.nIn_) {
      const uint64_t *in = &inner.cols_[innerOff[k]];
      const int bits = inner.inBits_[k];
      rin.withMover([&](auto move) {
        for (int i = 0; i < bits; ++i)
          out[bit + i] = move(in[i]);
      });
      bit += bits;
    }
    if (int d = outerOf[k]; d >= 0) {
      const uint64_t *in = &outer.cols_[outerOff[d]];
      const int bits = outer.inBits_[d];
      rout.withMover([&](auto move) {
        for (int i = 0; i < bits; ++i)
          out[bit + i] = move(in[i]);
      });
      bit += bits;
    }
  }
  l.clearColumnsFrom(bit);
  return r;
}

Expected<LinearLayout> operator*(const LinearLayout &inner, const LinearLayout &outer) {
  return LinearLayout::product(inner, outer);
}
Expected<LinearLayout> operator*(const Expected<LinearLayout> &inner, const LinearLayout &outer) {
  if (!inner.ok())
    return inner.error();
  return LinearLayout::product(*inner, outer);
}
Expected<LinearLayout> operator*(const LinearLayout &inner, const Expected<LinearLayout> &outer) {
  if (!outer.ok())
    return outer.error();
  return LinearLayout::product(inner, *outer);
}
Expected<LinearLayout> operator*(const Expected<LinearLayout> &inner,
                                 const Expected<LinearLayout> &outer) {
  if (!inner.ok())
    return inner.error();
  if (!outer.ok())
    return outer.error();
  return LinearLayout::product(*inner, *outer);
}

Expected<LinearLayout> LinearLayout::concatIns(const LinearLayout &other) const {
  for (int d = 0; d < other.nIn_; ++d)
    if (hasInDim(other.inNames_[d]))
      return makeError("cannot concatenate in dimensions: " + quoted(other.inNames_[d]) +
                       " is in both layouts");
  auto alignedOr = other.transposeOuts(outDimNames());
  if (!alignedOr.ok())
    return makeError("cannot concatenate in dimensions of layouts with different out dimensions");
  for (int o = 0; o < nOut_; ++o)
    if (outBits_[o] != alignedOr->outBits_[o])
      return makeError("cannot concatenate in dimensions: out dimension " + quoted(outNames_[o]) +
                       " has different sizes");
  std::vector<DimBits> ins, outs;
  for (int d = 0; d < nIn_; ++d)
    ins.push_back({inNames_[d], inBits_[d]});
  for (int d = 0; d < other.nIn_; ++d)
    ins.push_back({other.inNames_[d], other.inBits_[d]});
  for (int o = 0; o < nOut_; ++o)
    outs.push_back({outNames_[o], outBits_[o]});
  LL_TRY_STATUS(checkDims(ins, "in"));
  std::array<uint64_t, kMaxBits> cols{};
  int n = totalInBits(), m = other.totalInBits();
  for (int i = 0; i < n; ++i)
    cols[i] = cols_[i];
  for (int i = 0; i < m; ++i)
    cols[n + i] = alignedOr->cols_[i];
  return make(ins, outs, std::span(cols.data(), n + m));
}

Expected<LinearLayout> LinearLayout::concatOuts(const LinearLayout &other) const {
  for (int o = 0; o < other.nOut_; ++o)
    if (hasOutDim(other.outNames_[o]))
      return makeError("cannot concatenate out dimensions: " + quoted(other.outNames_[o]) +
                       " is in both layouts");
  auto alignedOr = other.transposeIns(inDimNames());
  if (!alignedOr.ok())
    return makeError("cannot concatenate out dimensions of layouts with different in dimensions");
  for (int d = 0; d < nIn_; ++d)
    if (inBits_[d] != alignedOr->inBits_[d])
      return makeError("cannot concatenate out dimensions: in dimension " + quoted(inNames_[d]) +
                       " has different sizes");
  std::vector<DimBits> ins, outs;
  for (int d = 0; d < nIn_; ++d)
    ins.push_back({inNames_[d], inBits_[d]});
  for (int o = 0; o < nOut_; ++o)
    outs.push_back({outNames_[o], outBits_[o]});
  for (int o = 0; o < other.nOut_; ++o)
    outs.push_back({other.outNames_[o], other.outBits_[o]});
  LL_TRY_STATUS(checkDims(outs, "out"));
  std::array<uint64_t, kMaxBits> cols{};
  int n = totalInBits(), shift = totalOutBits();
  for (int i = 0; i < n; ++i)
    cols[i] = cols_[i] | (shift >= 64 ? 0 : alignedOr->cols_[i] << shift);
  return make(ins, outs, std::span(cols.data(), n));
}

// The transposes and reshapes write their answer in place and return it by name (no copy of the
// 600-byte value, no cleared scratch columns), as sublayout does.
Expected<LinearLayout> LinearLayout::transposeIns(std::span<const DimName> order) const {
  Expected<LinearLayout> r(std::in_place, Unfilled{});
  if (order.size() != size_t(nIn_)) {
    r = makeError("transposeIns needs " + std::to_string(nIn_) + " names, got " +
                  std::to_string(order.size()));
    return r;
  }
  LinearLayout &l = *r;
  std::array<int, kMaxDims + 1> offset;
  offset[0] = 0;
  for (int d = 0; d < nIn_; ++d)
    offset[d + 1] = offset[d] + inBits_[d];
  uint32_t seen = 0;
  int bit = 0;
  uint64_t *out = l.cols_.data();
  for (size_t k = 0; k < order.size(); ++k) {
    DimName n = order[k];
    int d = inDimIndex(n);
    if (d < 0 || (seen >> d & 1)) {
      r = makeError(d < 0 ? "transposeIns: the layout has no in dimension " + quoted(n)
                          : "transposeIns: in dimension " + quoted(n) + " is named twice");
      return r;
    }
    seen |= 1u << d;
    const int bits = inBits_[d];
    l.inNames_[k] = n;
    l.inBits_[k] = uint8_t(bits);
    const uint64_t *in = &cols_[offset[d]];
    for (int i = 0; i < bits; ++i)
      out[bit + i] = in[i];
    bit += bits;
  }
  l.nIn_ = nIn_;
  l.nOut_ = nOut_;
  for (int o = 0; o < nOut_; ++o) {
    l.outNames_[o] = outNames_[o];
    l.outBits_[o] = outBits_[o];
  }
  l.clearColumnsFrom(bit);
  return r;
}

Expected<LinearLayout> LinearLayout::transposeOuts(std::span<const DimName> order) const {
  Expected<LinearLayout> r(std::in_place, Unfilled{});
  if (order.size() != size_t(nOut_)) {
    r = makeError("transposeOuts needs " + std::to_string(nOut_) + " names, got " +
                  std::to_string(order.size()));
    return r;
  }
  LinearLayout &l = *r;
  Repack rp;
  rp.identity = true;
  uint32_t seen = 0;
  int off = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    DimName n = order[k];
    int o = outDimIndex(n);
    if (o < 0 || (seen >> o & 1)) {
      r = makeError(o < 0 ? "transposeOuts: the layout has no out dimension " + quoted(n)
                          : "transposeOuts: out dimension " + quoted(n) + " is named twice");
      return r;
    }
    seen |= 1u << o;
    rp.identity = rp.identity && o == int(k);
    l.outNames_[k] = n;
    l.outBits_[k] = outBits_[o];
    rp.add(outDimOffset(o), off, outBits_[o]);
    off += outBits_[o];
  }
  l.nIn_ = nIn_;
  l.nOut_ = nOut_;
  for (int d = 0; d < nIn_; ++d) {
    l.inNames_[d] = inNames_[d];
    l.inBits_[d] = inBits_[d];
  }
  const int n = totalInBits();
  uint64_t *out = l.cols_.data();
  const uint64_t *in = cols_.data();
  rp.withMover([&](auto move) {
    for (int i = 0; i < n; ++i)
      out[i] = move(in[i]);
  });
  l.clearColumnsFrom(n);
  return r;
}

namespace {

Expected<std::vector<DimBits>> toBits(std::span<const DimSize> dims, const char *side) {
  std::vector<DimBits> r;
  for (const DimSize &d : dims) {
    LL_ASSIGN_OR_RETURN(int b, sizeToBits(d.size, d.name, side));
    r.push_back({d.name, b});
  }
  LL_TRY_STATUS(checkDims(r, side));
  return r;
}

} // namespace

namespace {

// The dims of a reshape to `total` bits as DimBits, into `out`; false when any is malformed
// (the caller then asks toBits for the error).
bool reshapeDims(std::span<const DimSize> dims, int total, std::array<DimBits, 16> &out) {
  if (dims.size() > out.size())
    return false;
  int sum = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    uint64_t size = dims[i].size;
    if (!isPow2(size) || log2u(size) > LinearLayout::kMaxDimBits)
      return false;
    for (size_t j = 0; j < i; ++j)
      if (dims[j].name == dims[i].name)
        return false;
    out[i] = {dims[i].name, log2u(size)};
    sum += out[i].bits;
  }
  return sum == total;
}

// Why `dims` do not reshape the `side` dims of an op's layout of 2^total elements: a malformed
// size or name as toBits says it, else the two element counts.
Error reshapeError(const char *op, std::span<const DimSize> dims, const char *side, int total) {
  auto checked = toBits(dims, side);
  if (!checked.ok())
    return checked.error();
  int want = 0;
  for (const DimBits &d : *checked)
    want += d.bits;
  return makeError(std::string(op) + ": the new " + side + " dimensions have 2^" +
                   std::to_string(want) + " elements, the layout has 2^" + std::to_string(total));
}

} // namespace

Expected<LinearLayout> LinearLayout::reshapeIns(std::span<const DimSize> dims) const {
  Expected<LinearLayout> r(std::in_place, Unfilled{});
  std::array<DimBits, kMaxDims> ins;
  const int total = totalInBits();
  if (!reshapeDims(dims, total, ins)) {
    r = reshapeError("reshapeIns", dims, "in", total);
    return r;
  }
  LinearLayout &l = *r;
  l.nIn_ = uint8_t(dims.size());
  l.nOut_ = nOut_;
  for (size_t d = 0; d < dims.size(); ++d) {
    l.inNames_[d] = ins[d].name;
    l.inBits_[d] = uint8_t(ins[d].bits);
  }
  for (int o = 0; o < nOut_; ++o) {
    l.outNames_[o] = outNames_[o];
    l.outBits_[o] = outBits_[o];
  }
  for (int i = 0; i < total; ++i)
    l.cols_[i] = cols_[i];
  l.clearColumnsFrom(total);
  return r;
}

Expected<LinearLayout> LinearLayout::reshapeOuts(std::span<const DimSize> dims) const {
  Expected<LinearLayout> r(std::in_place, Unfilled{});
  std::array<DimBits, kMaxDims> outs;
  const int total = totalOutBits();
  if (!reshapeDims(dims, total, outs)) {
    r = reshapeError("reshapeOuts", dims, "out", total);
    return r;
  }
  LinearLayout &l = *r;
  l.nIn_ = nIn_;
  l.nOut_ = uint8_t(dims.size());
  for (int d = 0; d < nIn_; ++d) {
    l.inNames_[d] = inNames_[d];
    l.inBits_[d] = inBits_[d];
  }
  for (size_t o = 0; o < dims.size(); ++o) {
    l.outNames_[o] = outs[o].name;
    l.outBits_[o] = uint8_t(outs[o].bits);
  }
  const int n = totalInBits();
  for (int i = 0; i < n; ++i)
    l.cols_[i] = cols_[i];
  l.clearColumnsFrom(n);
  return r;
}

LinearLayout LinearLayout::flattenIns(std::optional<DimName> name) const {
  if (nIn_ == 0)
    return *this;
  DimBits ins[] = {{name.value_or(inNames_[0]), totalInBits()}};
  std::vector<DimBits> outs;
  for (int o = 0; o < nOut_; ++o)
    outs.push_back({outNames_[o], outBits_[o]});
  return make(ins, outs, std::span(cols_.data(), totalInBits()));
}

LinearLayout LinearLayout::flattenOuts(std::optional<DimName> name) const {
  if (nOut_ == 0)
    return *this;
  DimBits outs[] = {{name.value_or(outNames_[0]), totalOutBits()}};
  std::vector<DimBits> ins;
  for (int d = 0; d < nIn_; ++d)
    ins.push_back({inNames_[d], inBits_[d]});
  return make(ins, outs, std::span(cols_.data(), totalInBits()));
}

Expected<LinearLayout> LinearLayout::resizeInDim(DimName dim, uint64_t size) const {
  int d = inDimIndex(dim);
  if (d < 0)
    return makeError("resizeInDim: the layout has no in dimension " + quoted(dim));
  LL_ASSIGN_OR_RETURN(int bits, sizeToBits(size, dim, "in"));
  std::vector<DimBits> ins, outs;
  std::array<uint64_t, kMaxBits> cols{};
  int bit = 0, src = 0;
  for (int k = 0; k < nIn_; ++k) {
    int want = k == d ? bits : inBits_[k];
    ins.push_back({inNames_[k], want});
    for (int i = 0; i < std::max(want, int(inBits_[k])); ++i) {
      if (i < want && bit < kMaxBits)
        cols[bit] = i < inBits_[k] ? cols_[src] : 0;
      if (i < want)
        ++bit;
      if (i < inBits_[k])
        ++src;
    }
  }
  LL_TRY_STATUS(checkDims(ins, "in"));
  for (int o = 0; o < nOut_; ++o)
    outs.push_back({outNames_[o], outBits_[o]});
  return make(ins, outs, std::span(cols.data(), bit));
}

Expected<LinearLayout> LinearLayout::resizeOutDim(DimName dim, uint64_t size) const {
  int o = outDimIndex(dim);
  if (o < 0)
    return makeError("resizeOutDim: the layout has no out dimension " + quoted(dim));
  LL_ASSIGN_OR_RETURN(int bits, sizeToBits(size, dim, "out"));
  std::vector<DimBits> ins, outs;
  Repack rp;
  rp.identity = false;
  int off = 0;
  for (int k = 0; k < nOut_; ++k) {
    int want = k == o ? bits : outBits_[k];
    outs.push_back({outNames_[k], want});
    rp.add(outDimOffset(k), off, std::min(want, int(outBits_[k])));
    off += want;
  }
  LL_TRY_STATUS(checkDims(outs, "out"));
  for (int d = 0; d < nIn_; ++d)
    ins.push_back({inNames_[d], inBits_[d]});
  std::array<uint64_t, kMaxBits> cols{};
  int n = totalInBits();
  for (int i = 0; i < n; ++i)
    cols[i] = rp(cols_[i]);
  return make(ins, outs, std::span(cols.data(), n));
}

Expected<LinearLayout> LinearLayout::sublayout(std::span<const DimName> ins,
                                               std::span<const DimName> outs) const {
  // The answer is written in place and returned by name (no copy of the 600-byte value).
  Expected<LinearLayout> r(std::in_place, Unfilled{});
  uint32_t keepIn = 0, keepOut = 0;
  for (DimName n : ins) {
    int d = inDimIndex(n);
    if (d < 0) {
      r = makeError("sublayout: the layout has no in dimension " + quoted(n));
      return r;
    }
    keepIn |= 1u << d;
  }
  for (DimName n : outs) {
    int o = outDimIndex(n);
    if (o < 0) {
      r = makeError("sublayout: the layout has no out dimension " + quoted(n));
      return r;
    }
    keepOut |= 1u << o;
  }
  LinearLayout &l = *r;
  // Kept out dims next to each other in the packing move as one piece: with every out dim kept
  // the columns are copied as they are; one kept out dim is one shift and mask.
  Repack rp;
  rp.identity = keepOut == lowMask(nOut_);
  for (int o = 0, from = 0, to = 0; o < nOut_; from += outBits_[o++]) {
    if (!(keepOut >> o & 1))
      continue;
    l.outNames_[l.nOut_] = outNames_[o];
    l.outBits_[l.nOut_++] = outBits_[o];
    rp.add(from, to, outBits_[o]);
    to += outBits_[o];
  }
  // Counts and bounds live in locals: the column stores could alias the uint8_t dim sizes, so
  // GCC would reload those after every store.
  int bit = 0, nKept = 0;
  uint64_t *out = l.cols_.data();
  for (int d = 0, src = 0, nIn = nIn_; d < nIn; ++d) {
    const int bits = inBits_[d];
    const uint64_t *in = &cols_[src];
    src += bits;
    if (!(keepIn >> d & 1))
      continue;
    l.inNames_[nKept] = inNames_[d];
    l.inBits_[nKept++] = uint8_t(bits);
    if (rp.identity) {
      for (int i = 0; i < bits; ++i)
        out[bit + i] = in[i];
    } else if (rp.n == 1) {
      const uint64_t mask = rp.pieces[0].mask;
      const int shift = rp.pieces[0].from;
      for (int i = 0; i < bits; ++i)
        out[bit + i] = (in[i] >> shift) & mask;
    } else {
      for (int i = 0; i < bits; ++i)
        out[bit + i] = rp(in[i]);
    }
    bit += bits;
  }
  l.nIn_ = uint8_t(nKept);
  l.clearColumnsFrom(bit);
  return r;
}

bool LinearLayout::sublayoutIsZero(std::span<const DimName> ins,
                                   std::span<const DimName> outs) const {
  auto s = sublayout(ins, outs);
  if (!s.ok())
    return false;
  int n = s->totalInBits();
  for (int i = 0; i < n; ++i)
    if (s->cols_[i] != 0)
      return false;
  return true;
}

std::optional<LinearLayout> LinearLayout::quotient(std::span<const DimName> dims) const {
  // Every path returns `r` itself: GCC gives up the named return (and copies the value) when any
  // return statement returns something else. (A disengaged `r` to begin with would cost more:
  // GCC clears all of it.)
  std::optional<LinearLayout> r(std::in_place, Unfilled{});
  std::array<int, kMaxDims + 1> inOff, outOff;
  inOff[0] = outOff[0] = 0;
  for (int d = 0; d < nIn_; ++d)
    inOff[d + 1] = inOff[d] + inBits_[d];
  for (int o = 0; o < nOut_; ++o)
    outOff[o + 1] = outOff[o] + outBits_[o];
  uint32_t qIn = 0, qOut = 0;
  uint64_t qOutBits = 0;
  for (DimName n : dims) {
    int d = inDimIndex(n), o = outDimIndex(n);
    bool ok = d >= 0 && o >= 0 && inBits_[d] == outBits_[o];
    // The dim must map to itself identically and to nothing else.
    for (int i = 0; ok && i < inBits_[d]; ++i)
      ok = cols_[inOff[d] + i] == uint64_t(1) << (outOff[o] + i);
    if (!ok) {
      r.reset();
      return r;
    }
    qIn |= 1u << d;
    qOut |= 1u << o;
    qOutBits |= lowMask(outBits_[o]) << outOff[o];
  }
  // The other in dims, restricted to the other out dims, written in place (as sublayout); none
  // of them may reach the quotiented outputs.
  LinearLayout &l = *r;
  Repack rp;
  rp.identity = qOut == 0;
  int nOut = 0;
  for (int o = 0, to = 0; o < nOut_; ++o) {
    if (qOut >> o & 1)
      continue;
    l.outNames_[nOut] = outNames_[o];
    l.outBits_[nOut++] = outBits_[o];
    rp.add(outOff[o], to, outBits_[o]);
    to += outBits_[o];
  }
  int bit = 0, nKept = 0;
  uint64_t reach = 0;
  uint64_t *out = l.cols_.data();
  rp.withMover([&](auto move) {
    for (int d = 0, nIn = nIn_; d < nIn; ++d) {
      if (qIn >> d & 1)
        continue;
      const int bits = inBits_[d];
      const uint64_t *in = &cols_[inOff[d]];
      l.inNames_[nKept] = inNames_[d];
      l.inBits_[nKept++] = uint8_t(bits);
      for (int i = 0; i < bits; ++i) {
        reach |= in[i];
        out[bit + i] = move(in[i]);
      }
      bit += bits;
    }
  });
  if (reach & qOutBits) {
    r.reset();
  } else {
    l.nIn_ = uint8_t(nKept);
    l.nOut_ = uint8_t(nOut);
    l.clearColumnsFrom(bit);
  }
  return r;
}

Expected<LinearLayout> LinearLayout::renameInDim(DimName from, DimName to) const {
  int d = inDimIndex(from);
  if (d < 0)
    return makeError("renameInDim: the layout has no in dimension " + quoted(from));
  if (from != to && hasInDim(to))
    return makeError("renameInDim: the layout already has an in dimension " + quoted(to));
  LinearLayout r = *this;
  r.inNames_[d] = to;
  return r;
}

Expected<LinearLayout> LinearLayout::renameOutDim(DimName from, DimName to) const {
  int o = outDimIndex(from);
  if (o < 0)
    return makeError("renameOutDim: the layout has no out dimension " + quoted(from));
  if (from != to && hasOutDim(to))
    return makeError("renameOutDim: the layout already has an out dimension " + quoted(to));
  LinearLayout r = *this;
  r.outNames_[o] = to;
  return r;
}

LinearLayout LinearLayout::removeZeroBases(std::optional<DimName> dim) const {
  std::vector<DimBits> ins, outs;
  std::array<uint64_t, kMaxBits> cols{};
  int bit = 0, src = 0;
  for (int d = 0; d < nIn_; ++d) {
    bool strip = !dim || *dim == inNames_[d];
    int kept = 0;
    for (int i = 0; i < inBits_[d]; ++i, ++src)
      if (!strip || cols_[src] != 0) {
        cols[bit++] = cols_[src];
        ++kept;
      }
    ins.push_back({inNames_[d], kept});
  }
  for (int o = 0; o < nOut_; ++o)
    outs.push_back({outNames_[o], outBits_[o]});
  return make(ins, outs, std::span(cols.data(), bit));
}

Expected<LinearLayout> LinearLayout::permuteInBits(DimName dim, std::span<const int> perm) const {
  int d = inDimIndex(dim);
  if (d < 0)
    return makeError("permuteInBits: the layout has no in dimension " + quoted(dim));
  if (perm.size() != size_t(inBits_[d]))
    return makeError("permuteInBits: in dimension " + quoted(dim) + " has " +
                     std::to_string(inBits_[d]) + " bits, the permutation " +
                     std::to_string(perm.size()));
  uint64_t seen = 0;
  for (int p : perm) {
    if (p < 0 || p >= inBits_[d] || (seen >> p & 1))
      return makeError("permuteInBits: not a permutation of the bits of " + quoted(dim));
    seen |= uint64_t(1) << p;
  }
  LinearLayout r = *this;
  int off = inDimOffset(d);
  for (size_t i = 0; i < perm.size(); ++i)
    r.cols_[off + i] = cols_[off + perm[i]];
  return r;
}

} // namespace linlayout
