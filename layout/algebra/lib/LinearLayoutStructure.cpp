// LinearLayout's structural operations: products, concatenation, transposes, reshapes, resizes,
// sublayouts, quotients and divisions, renames and bit permutations.
#include "linlayout/layout/LinearLayout.h"

#include "LayoutBits.h"
#include "linlayout/layout/F2Basis.h"

#include <algorithm>
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

void addBits(DimList &list, DimName n, int bits) {
  for (int i = 0; i < list.n; ++i)
    if (list.v[i].name == n) {
      list.v[i].bits += bits;
      return;
    }
  list.push(n, bits);
}

} // namespace

Expected<LinearLayout> LinearLayout::product(const LinearLayout &inner, const LinearLayout &outer) {
  if (!sameRelativeOrder(std::span(inner.inNames_.data(), inner.nIn_),
                         std::span(outer.inNames_.data(), outer.nIn_)) ||
      !sameRelativeOrder(std::span(inner.outNames_.data(), inner.nOut_),
                         std::span(outer.outNames_.data(), outer.nOut_)))
    return makeError("cannot multiply layouts whose common dimensions appear in different orders");
  DimList ins = insOf(inner), outs = outsOf(inner);
  for (int d = 0; d < outer.nIn_; ++d)
    addBits(ins, outer.inNames_[d], outer.inBits_[d]);
  for (int o = 0; o < outer.nOut_; ++o)
    addBits(outs, outer.outNames_[o], outer.outBits_[o]);
  LL_TRY_STATUS(checkDims(ins.span(), "in"));
  LL_TRY_STATUS(checkDims(outs.span(), "out"));

  // Where each side's output dims land in the product's packed output.
  auto repackFor = [&](const LinearLayout &l, bool isOuter) {
    Repack rp;
    rp.identity = false;
    int off = 0;
    for (int k = 0; k < outs.n; ++k) {
      const DimBits &o = outs.v[k];
      int j = l.outDimIndex(o.name);
      if (j >= 0) {
        int shift = isOuter ? inner.outDimBits(o.name) : 0;
        rp.pieces[rp.n++] = {l.outDimOffset(j), off + shift, l.outBits_[j]};
      }
      off += o.bits;
    }
    return rp;
  };
  Repack rin = repackFor(inner, false), rout = repackFor(outer, true);
  std::array<uint64_t, kMaxBits> cols{};
  int bit = 0;
  for (int k = 0; k < ins.n; ++k) {
    const DimBits &d = ins.v[k];
    int ki = inner.inDimIndex(d.name), ko = outer.inDimIndex(d.name);
    if (ki >= 0)
      for (int i = 0; i < inner.inBits_[ki]; ++i)
        cols[bit++] = rin(inner.cols_[inner.inDimOffset(ki) + i]);
    if (ko >= 0)
      for (int i = 0; i < outer.inBits_[ko]; ++i)
        cols[bit++] = rout(outer.cols_[outer.inDimOffset(ko) + i]);
  }
  return make(ins.span(), outs.span(), std::span(cols.data(), bit));
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

Expected<LinearLayout> LinearLayout::transposeIns(std::span<const DimName> order) const {
  if (order.size() != size_t(nIn_))
    return makeError("transposeIns needs " + std::to_string(nIn_) + " names, got " +
                     std::to_string(order.size()));
  DimList ins;
  std::array<uint64_t, kMaxBits> cols{};
  int bit = 0;
  for (DimName n : order) {
    int d = inDimIndex(n);
    if (d < 0)
      return makeError("transposeIns: the layout has no in dimension " + quoted(n));
    for (int k = 0; k < ins.n; ++k)
      if (ins.v[k].name == n)
        return makeError("transposeIns: in dimension " + quoted(n) + " is named twice");
    ins.push(n, inBits_[d]);
    int off = inDimOffset(d);
    for (int i = 0; i < inBits_[d]; ++i)
      cols[bit++] = cols_[off + i];
  }
  return make(ins.span(), outsOf(*this).span(), std::span(cols.data(), bit));
}

Expected<LinearLayout> LinearLayout::transposeOuts(std::span<const DimName> order) const {
  if (order.size() != size_t(nOut_))
    return makeError("transposeOuts needs " + std::to_string(nOut_) + " names, got " +
                     std::to_string(order.size()));
  DimList outs;
  Repack rp;
  rp.identity = true;
  int off = 0;
  for (DimName n : order) {
    int o = outDimIndex(n);
    if (o < 0)
      return makeError("transposeOuts: the layout has no out dimension " + quoted(n));
    for (int k = 0; k < outs.n; ++k)
      if (outs.v[k].name == n)
        return makeError("transposeOuts: out dimension " + quoted(n) + " is named twice");
    rp.identity = rp.identity && o == outs.n;
    outs.push(n, outBits_[o]);
    rp.pieces[rp.n++] = {outDimOffset(o), off, outBits_[o]};
    off += outBits_[o];
  }
  if (rp.identity)
    return *this;
  std::array<uint64_t, kMaxBits> cols{};
  int n = totalInBits();
  for (int i = 0; i < n; ++i)
    cols[i] = rp(cols_[i]);
  return make(insOf(*this).span(), outs.span(), std::span(cols.data(), n));
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

Expected<LinearLayout> LinearLayout::reshapeIns(std::span<const DimSize> dims) const {
  LL_ASSIGN_OR_RETURN(std::vector<DimBits> ins, toBits(dims, "in"));
  int total = 0;
  for (const DimBits &d : ins)
    total += d.bits;
  if (total != totalInBits())
    return makeError("reshapeIns: the new in dimensions have 2^" + std::to_string(total) +
                     " elements, the layout has 2^" + std::to_string(totalInBits()));
  std::vector<DimBits> outs;
  for (int o = 0; o < nOut_; ++o)
    outs.push_back({outNames_[o], outBits_[o]});
  return make(ins, outs, std::span(cols_.data(), total));
}

Expected<LinearLayout> LinearLayout::reshapeOuts(std::span<const DimSize> dims) const {
  LL_ASSIGN_OR_RETURN(std::vector<DimBits> outs, toBits(dims, "out"));
  int total = 0;
  for (const DimBits &d : outs)
    total += d.bits;
  if (total != totalOutBits())
    return makeError("reshapeOuts: the new out dimensions have 2^" + std::to_string(total) +
                     " elements, the layout has 2^" + std::to_string(totalOutBits()));
  std::vector<DimBits> ins;
  for (int d = 0; d < nIn_; ++d)
    ins.push_back({inNames_[d], inBits_[d]});
  return make(ins, outs, std::span(cols_.data(), totalInBits()));
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
    rp.pieces[rp.n++] = {outDimOffset(k), off, std::min(want, int(outBits_[k]))};
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
  for (DimName n : ins)
    if (!hasInDim(n))
      return makeError("sublayout: the layout has no in dimension " + quoted(n));
  for (DimName n : outs)
    if (!hasOutDim(n))
      return makeError("sublayout: the layout has no out dimension " + quoted(n));
  auto has = [](std::span<const DimName> v, DimName n) {
    return std::find(v.begin(), v.end(), n) != v.end();
  };
  DimList newIns, newOuts;
  Repack rp;
  rp.identity = false;
  int off = 0;
  for (int o = 0; o < nOut_; ++o)
    if (has(outs, outNames_[o])) {
      newOuts.push(outNames_[o], outBits_[o]);
      rp.pieces[rp.n++] = {outDimOffset(o), off, outBits_[o]};
      off += outBits_[o];
    }
  std::array<uint64_t, kMaxBits> cols{};
  int bit = 0;
  for (int d = 0; d < nIn_; ++d)
    if (has(ins, inNames_[d])) {
      newIns.push(inNames_[d], inBits_[d]);
      int src = inDimOffset(d);
      for (int i = 0; i < inBits_[d]; ++i)
        cols[bit++] = rp(cols_[src + i]);
    }
  return make(newIns.span(), newOuts.span(), std::span(cols.data(), bit));
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
  auto has = [&](DimName n) { return std::find(dims.begin(), dims.end(), n) != dims.end(); };
  std::vector<DimName> restIns, restOuts;
  for (int d = 0; d < nIn_; ++d)
    if (!has(inNames_[d]))
      restIns.push_back(inNames_[d]);
  for (int o = 0; o < nOut_; ++o)
    if (!has(outNames_[o]))
      restOuts.push_back(outNames_[o]);
  for (DimName n : dims) {
    int d = inDimIndex(n), o = outDimIndex(n);
    if (d < 0 || o < 0 || inBits_[d] != outBits_[o])
      return std::nullopt;
    // The dim must map to itself identically and to nothing else.
    int off = inDimOffset(d), ooff = outDimOffset(o);
    for (int i = 0; i < inBits_[d]; ++i)
      if (cols_[off + i] != uint64_t(1) << (ooff + i))
        return std::nullopt;
  }
  // Nothing else may reach the quotiented outputs.
  if (!sublayoutIsZero(restIns, dims))
    return std::nullopt;
  return *sublayout(restIns, restOuts);
}

namespace {

// Whether `got` equals `want` once its dims are put in `want`'s order. Compares column by column
// through the name maps instead of building transposed copies (divideLeft's hot path).
bool equalByName(const LinearLayout &got, const LinearLayout &want) {
  if (got.numInDims() != want.numInDims() || got.numOutDims() != want.numOutDims())
    return false;
  // Per out dim of got: its packed offset and mask in got, and its packed offset in want.
  std::array<int, LinearLayout::kMaxDims> outAt{}, outFrom{};
  std::array<uint64_t, LinearLayout::kMaxDims> outMask{};
  for (int o = 0, from = 0; o < got.numOutDims(); ++o) {
    int w = want.outDimIndex(got.outDimName(o));
    if (w < 0 || want.outDimBits(w) != got.outDimBits(o))
      return false;
    outAt[o] = want.outDimOffset(w);
    outFrom[o] = from;
    outMask[o] = lowMask(got.outDimBits(o));
    from += got.outDimBits(o);
  }
  for (int d = 0; d < got.numInDims(); ++d) {
    int w = want.inDimIndex(got.inDimName(d));
    if (w < 0 || want.inDimBits(w) != got.inDimBits(d))
      return false;
    int g0 = got.inDimOffset(d), w0 = want.inDimOffset(w);
    for (int i = 0; i < got.inDimBits(d); ++i) {
      uint64_t col = got.column(g0 + i), c = 0;
      for (int o = 0; o < got.numOutDims(); ++o)
        c |= ((col >> outFrom[o]) & outMask[o]) << outAt[o];
      if (c != want.column(w0 + i))
        return false;
    }
  }
  return true;
}

} // namespace

namespace {

// The dims of a quotient: each dim of the dividend with the divisor's bits taken away. A dim the
// divisor has and uses up entirely is dropped (keeping it as a size-1 dim could put it in an order
// the divisor's product refuses); a dim only the dividend has is kept, even at size 1.
struct QuotientDims {
  std::array<DimBits, LinearLayout::kMaxDims> dims{};
  std::array<int, LinearLayout::kMaxDims> bits{}; // remaining bits per dividend dim
  int n = 0;
};

} // namespace

std::optional<LinearLayout> LinearLayout::divideLeft(const LinearLayout &inner) const {
  for (int d = 0; d < inner.nIn_; ++d)
    if (!hasInDim(inner.inNames_[d]))
      return std::nullopt;
  for (int o = 0; o < inner.nOut_; ++o)
    if (!hasOutDim(inner.outNames_[o]))
      return std::nullopt;
  QuotientDims ins, outs;
  for (int o = 0; o < nOut_; ++o) {
    int b = inner.outDimBits(outNames_[o]);
    if (b > outBits_[o])
      return std::nullopt;
    outs.bits[o] = outBits_[o] - b;
    if (outs.bits[o] > 0 || !inner.hasOutDim(outNames_[o]))
      outs.dims[outs.n++] = {outNames_[o], outs.bits[o]};
  }
  // Per out dim: where it sits in a column and how many low bits inner owns.
  std::array<int, kMaxDims> outOff{}, innerLow{};
  for (int o = 0, at = 0; o < nOut_; ++o) {
    outOff[o] = at;
    at += outBits_[o];
    innerLow[o] = outBits_[o] - outs.bits[o];
  }
  std::array<uint64_t, kMaxBits> cols{};
  int bit = 0;
  for (int d = 0; d < nIn_; ++d) {
    int skip = inner.inDimBits(inNames_[d]);
    if (skip > inBits_[d])
      return std::nullopt;
    ins.bits[d] = inBits_[d] - skip;
    if (ins.bits[d] > 0 || !inner.hasInDim(inNames_[d]))
      ins.dims[ins.n++] = {inNames_[d], ins.bits[d]};
    int src = inDimOffset(d);
    for (int i = skip; i < inBits_[d]; ++i) {
      uint64_t col = cols_[src + i], c = 0;
      int off = 0;
      for (int o = 0; o < nOut_; ++o) {
        uint64_t v = (col >> outOff[o]) & lowMask(outBits_[o]);
        int low = innerLow[o];
        if (v & lowMask(low))
          return std::nullopt; // outer bases sit above the inner part of each out dim
        c |= (v >> low) << off;
        off += outs.bits[o];
      }
      cols[bit++] = c;
    }
  }
  LinearLayout c = make(std::span(ins.dims.data(), ins.n), std::span(outs.dims.data(), outs.n),
                        std::span(cols.data(), bit));
  auto prod = product(inner, c);
  if (!prod.ok() || !equalByName(*prod, *this))
    return std::nullopt;
  return c;
}

std::optional<LinearLayout> LinearLayout::divideRight(const LinearLayout &outer) const {
  for (int d = 0; d < outer.nIn_; ++d)
    if (!hasInDim(outer.inNames_[d]))
      return std::nullopt;
  for (int o = 0; o < outer.nOut_; ++o)
    if (!hasOutDim(outer.outNames_[o]))
      return std::nullopt;
  QuotientDims ins, outs;
  for (int o = 0; o < nOut_; ++o) {
    int b = outer.outDimBits(outNames_[o]);
    if (b > outBits_[o])
      return std::nullopt;
    outs.bits[o] = outBits_[o] - b;
    if (outs.bits[o] > 0 || !outer.hasOutDim(outNames_[o]))
      outs.dims[outs.n++] = {outNames_[o], outs.bits[o]};
  }
  std::array<uint64_t, kMaxBits> cols{};
  int bit = 0;
  for (int d = 0; d < nIn_; ++d) {
    int keep = inBits_[d] - outer.inDimBits(inNames_[d]);
    if (keep < 0)
      return std::nullopt;
    ins.bits[d] = keep;
    if (keep > 0 || !outer.hasInDim(inNames_[d]))
      ins.dims[ins.n++] = {inNames_[d], keep};
    int src = inDimOffset(d);
    for (int i = 0; i < keep; ++i) {
      uint64_t col = cols_[src + i], c = 0;
      int off = 0;
      for (int o = 0; o < nOut_; ++o) {
        uint64_t v = outValue(col, o);
        if (v >> outs.bits[o])
          return std::nullopt; // inner bases must stay below the outer part
        c |= v << off;
        off += outs.bits[o];
      }
      cols[bit++] = c;
    }
  }
  LinearLayout b = make(std::span(ins.dims.data(), ins.n), std::span(outs.dims.data(), outs.n),
                        std::span(cols.data(), bit));
  auto prod = product(b, outer);
  if (!prod.ok() || !equalByName(*prod, *this))
    return std::nullopt;
  return b;
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
