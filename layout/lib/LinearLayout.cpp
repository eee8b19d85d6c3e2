#include "linlayout/layout/LinearLayout.h"

#include "linlayout/layout/F2Basis.h"

#include <algorithm>
#include <cassert>
#include <ostream>
#include <string>

namespace linlayout {
namespace {

bool isPow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }
int log2u(uint64_t x) { return 63 - __builtin_clzll(x); }
uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

std::string quoted(DimName n) { return "'" + std::string(n.str()) + "'"; }

// Checks a list of dims for the per-side limits and duplicate names.
Status checkDims(std::span<const DimBits> dims, const char *side) {
  if (dims.size() > size_t(LinearLayout::kMaxDims))
    return makeError(std::string("too many ") + side + " dimensions: " +
                     std::to_string(dims.size()) + ", at most " +
                     std::to_string(LinearLayout::kMaxDims));
  int total = 0;
  for (size_t i = 0; i < dims.size(); ++i) {
    for (size_t j = 0; j < i; ++j)
      if (dims[i].name == dims[j].name)
        return makeError(std::string(side) + " dimension " + quoted(dims[i].name) +
                         " appears twice");
    if (dims[i].bits < 0 || dims[i].bits > LinearLayout::kMaxDimBits)
      return makeError(std::string(side) + " dimension " + quoted(dims[i].name) + " has 2^" +
                       std::to_string(dims[i].bits) + " elements, at most 2^" +
                       std::to_string(LinearLayout::kMaxDimBits));
    total += dims[i].bits;
  }
  if (total > LinearLayout::kMaxBits)
    return makeError(std::string(side) + " dimensions have " + std::to_string(total) +
                     " bits in total, at most " + std::to_string(LinearLayout::kMaxBits));
  return Status::success();
}

Expected<int> sizeToBits(uint64_t size, DimName name, const char *side) {
  if (!isPow2(size))
    return makeError(std::string(side) + " dimension " + quoted(name) + " has size " +
                     std::to_string(size) + ", expected a power of two");
  return log2u(size);
}

// Moves the bits of each named dim of one packing into another packing. Dims missing from the
// target must be zero in the source (the caller checks); dims missing from the source are zero.
struct Repack {
  struct Piece {
    int from, to, bits;
  };
  std::array<Piece, LinearLayout::kMaxDims> pieces{};
  int n = 0;
  bool identity = true;

  uint64_t operator()(uint64_t w) const {
    if (identity)
      return w;
    uint64_t r = 0;
    for (int i = 0; i < n; ++i)
      r |= ((w >> pieces[i].from) & lowMask(pieces[i].bits)) << pieces[i].to;
    return r;
  }
};

} // namespace

// -------------------------------------------------------------------------------------------------
// Construction
// -------------------------------------------------------------------------------------------------

LinearLayout LinearLayout::make(std::span<const DimBits> ins, std::span<const DimBits> outs,
                                std::span<const uint64_t> cols) {
  assert(ins.size() <= size_t(kMaxDims) && outs.size() <= size_t(kMaxDims));
  LinearLayout l;
  l.nIn_ = uint8_t(ins.size());
  l.nOut_ = uint8_t(outs.size());
  for (size_t i = 0; i < ins.size(); ++i) {
    l.inNames_[i] = ins[i].name;
    l.inBits_[i] = uint8_t(ins[i].bits);
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    l.outNames_[i] = outs[i].name;
    l.outBits_[i] = uint8_t(outs[i].bits);
  }
  assert(int(cols.size()) == l.totalInBits() && "column count must match the input bits");
  assert(l.totalInBits() <= kMaxBits && l.totalOutBits() <= kMaxBits);
  uint64_t mask = l.outMask();
  for (size_t i = 0; i < cols.size(); ++i) {
    assert((cols[i] & ~mask) == 0 && "column has bits outside the output");
    l.cols_[i] = cols[i] & mask;
  }
  return l;
}

Expected<LinearLayout> LinearLayout::fromBases(std::span<const InDimBases> ins,
                                               std::span<const DimSize> outs,
                                               bool requireSurjective) {
  std::vector<DimBits> outBits, inBits;
  for (const DimSize &o : outs) {
    LL_ASSIGN_OR_RETURN(int b, sizeToBits(o.size, o.name, "out"));
    outBits.push_back({o.name, b});
  }
  LL_TRY_STATUS(checkDims(outBits, "out"));
  for (const InDimBases &in : ins) {
    if (in.bases.size() > size_t(kMaxBits))
      return makeError("in dimension " + quoted(in.name) + " has " +
                       std::to_string(in.bases.size()) + " bases, at most " +
                       std::to_string(kMaxBits));
    inBits.push_back({in.name, int(in.bases.size())});
  }
  LL_TRY_STATUS(checkDims(inBits, "in"));

  std::vector<uint64_t> cols;
  std::vector<int> outOffsets;
  int off = 0;
  for (const DimBits &o : outBits) {
    outOffsets.push_back(off);
    off += o.bits;
  }
  for (const InDimBases &in : ins) {
    for (size_t i = 0; i < in.bases.size(); ++i) {
      const std::vector<uint64_t> &b = in.bases[i];
      if (b.size() != outs.size())
        return makeError("basis " + std::to_string(i) + " of in dimension " + quoted(in.name) +
                         " has " + std::to_string(b.size()) + " components, expected " +
                         std::to_string(outs.size()) + " (one per out dimension)");
      uint64_t col = 0;
      for (size_t j = 0; j < b.size(); ++j) {
        if (b[j] >= outs[j].size)
          return makeError("basis " + std::to_string(i) + " of in dimension " + quoted(in.name) +
                           " has value " + std::to_string(b[j]) + " for out dimension " +
                           quoted(outs[j].name) + " of size " + std::to_string(outs[j].size));
        col |= b[j] << outOffsets[j];
      }
      cols.push_back(col);
    }
  }
  LinearLayout l = make(inBits, outBits, cols);
  if (requireSurjective && !l.isSurjective())
    return makeError("layout is not surjective: its image has 2^" + std::to_string(l.rank()) +
                     " of the 2^" + std::to_string(l.totalOutBits()) + " outputs:" +
                     l.toString());
  return l;
}

Expected<LinearLayout> LinearLayout::fromBasesInferSizes(std::span<const InDimBases> ins,
                                                         std::span<const DimName> outNames) {
  std::vector<DimSize> outs;
  for (DimName n : outNames)
    outs.push_back({n, 1});
  for (const InDimBases &in : ins)
    for (size_t i = 0; i < in.bases.size(); ++i) {
      if (in.bases[i].size() != outNames.size())
        return makeError("basis " + std::to_string(i) + " of in dimension " + quoted(in.name) +
                         " has " + std::to_string(in.bases[i].size()) +
                         " components, expected " + std::to_string(outNames.size()));
      for (size_t j = 0; j < outNames.size(); ++j) {
        uint64_t v = in.bases[i][j];
        if (v >> kMaxDimBits)
          return makeError("basis value " + std::to_string(v) + " of in dimension " +
                           quoted(in.name) + " needs more than " +
                           std::to_string(kMaxDimBits) + " bits");
        uint64_t need = v == 0 ? 1 : uint64_t(1) << (log2u(v) + 1);
        outs[j].size = std::max(outs[j].size, need);
      }
    }
  return fromBases(ins, outs, /*requireSurjective=*/true);
}

Expected<LinearLayout> LinearLayout::identity1D(uint64_t size, DimName in, DimName out) {
  return strided1D(size, 1, in, out);
}

Expected<LinearLayout> LinearLayout::strided1D(uint64_t size, uint64_t stride, DimName in,
                                               DimName out) {
  LL_ASSIGN_OR_RETURN(int bits, sizeToBits(size, in, "in"));
  LL_ASSIGN_OR_RETURN(int sbits, sizeToBits(stride, out, "stride of out"));
  if (bits + sbits > kMaxDimBits)
    return makeError("strided layout of size " + std::to_string(size) + " and stride " +
                     std::to_string(stride) + " needs more than 2^" +
                     std::to_string(kMaxDimBits) + " outputs");
  std::array<uint64_t, kMaxBits> cols{};
  for (int i = 0; i < bits; ++i)
    cols[i] = uint64_t(1) << (i + sbits);
  DimBits i1[] = {{in, bits}};
  DimBits o1[] = {{out, bits + sbits}};
  return make(i1, o1, std::span(cols.data(), bits));
}

Expected<LinearLayout> LinearLayout::zeros1D(uint64_t size, DimName in, DimName out,
                                             uint64_t outSize) {
  LL_ASSIGN_OR_RETURN(int bits, sizeToBits(size, in, "in"));
  LL_ASSIGN_OR_RETURN(int obits, sizeToBits(outSize, out, "out"));
  std::array<uint64_t, kMaxBits> cols{};
  DimBits i1[] = {{in, bits}};
  DimBits o1[] = {{out, obits}};
  return make(i1, o1, std::span(cols.data(), bits));
}

Expected<LinearLayout> LinearLayout::fromColumns(std::span<const DimSize> ins,
                                                 std::span<const DimSize> outs,
                                                 std::span<const uint64_t> columns) {
  std::array<DimBits, kMaxDims> ib{}, ob{};
  if (ins.size() > size_t(kMaxDims) || outs.size() > size_t(kMaxDims))
    return makeError("more than " + std::to_string(kMaxDims) + " dimensions on one side");
  int inTotal = 0, outTotal = 0;
  for (size_t i = 0; i < ins.size(); ++i) {
    LL_ASSIGN_OR_RETURN(int b, sizeToBits(ins[i].size, ins[i].name, "in"));
    ib[i] = {ins[i].name, b};
    inTotal += b;
  }
  for (size_t i = 0; i < outs.size(); ++i) {
    LL_ASSIGN_OR_RETURN(int b, sizeToBits(outs[i].size, outs[i].name, "out"));
    ob[i] = {outs[i].name, b};
    outTotal += b;
  }
  LL_TRY_STATUS(checkDims(std::span(ib.data(), ins.size()), "in"));
  LL_TRY_STATUS(checkDims(std::span(ob.data(), outs.size()), "out"));
  if (columns.size() != size_t(inTotal))
    return makeError(std::to_string(columns.size()) + " columns for " + std::to_string(inTotal) +
                     " input bits");
  for (uint64_t c : columns)
    if (c & ~lowMask(outTotal))
      return makeError("column " + std::to_string(c) + " does not fit " +
                       std::to_string(outTotal) + " output bits");
  return make(std::span(ib.data(), ins.size()), std::span(ob.data(), outs.size()), columns);
}

// -------------------------------------------------------------------------------------------------
// Queries
// -------------------------------------------------------------------------------------------------

int LinearLayout::inDimIndex(DimName name) const {
  for (int i = 0; i < nIn_; ++i)
    if (inNames_[i] == name)
      return i;
  return -1;
}
int LinearLayout::outDimIndex(DimName name) const {
  for (int i = 0; i < nOut_; ++i)
    if (outNames_[i] == name)
      return i;
  return -1;
}
int LinearLayout::inDimBits(DimName name) const {
  int i = inDimIndex(name);
  return i < 0 ? 0 : inBits_[i];
}
int LinearLayout::outDimBits(DimName name) const {
  int i = outDimIndex(name);
  return i < 0 ? 0 : outBits_[i];
}
uint64_t LinearLayout::inDimSize(DimName name) const { return uint64_t(1) << inDimBits(name); }
uint64_t LinearLayout::outDimSize(DimName name) const { return uint64_t(1) << outDimBits(name); }
int LinearLayout::inDimOffset(int i) const {
  int off = 0;
  for (int k = 0; k < i; ++k)
    off += inBits_[k];
  return off;
}
int LinearLayout::outDimOffset(int i) const {
  int off = 0;
  for (int k = 0; k < i; ++k)
    off += outBits_[k];
  return off;
}
int LinearLayout::totalInBits() const { return inDimOffset(nIn_); }
int LinearLayout::totalOutBits() const { return outDimOffset(nOut_); }
uint64_t LinearLayout::outMask() const { return lowMask(totalOutBits()); }

std::vector<DimSize> LinearLayout::inDims() const {
  std::vector<DimSize> r;
  for (int i = 0; i < nIn_; ++i)
    r.push_back({inNames_[i], uint64_t(1) << inBits_[i]});
  return r;
}
std::vector<DimSize> LinearLayout::outDims() const {
  std::vector<DimSize> r;
  for (int i = 0; i < nOut_; ++i)
    r.push_back({outNames_[i], uint64_t(1) << outBits_[i]});
  return r;
}
std::vector<DimName> LinearLayout::inDimNames() const {
  return std::vector<DimName>(inNames_.begin(), inNames_.begin() + nIn_);
}
std::vector<DimName> LinearLayout::outDimNames() const {
  return std::vector<DimName>(outNames_.begin(), outNames_.begin() + nOut_);
}

uint64_t LinearLayout::outValue(uint64_t packedOutput, int i) const {
  return (packedOutput >> outDimOffset(i)) & lowMask(outBits_[i]);
}
uint64_t LinearLayout::inValue(uint64_t packedInput, int i) const {
  return (packedInput >> inDimOffset(i)) & lowMask(inBits_[i]);
}

uint64_t LinearLayout::packInput(std::span<const uint64_t> values) const {
  assert(values.size() == size_t(nIn_) && "one value per in dimension");
  uint64_t w = 0;
  int off = 0;
  for (int i = 0; i < nIn_; ++i) {
    assert((values[i] >> inBits_[i]) == 0 && "input value out of range");
    w |= values[i] << off;
    off += inBits_[i];
  }
  return w;
}

std::vector<uint64_t> LinearLayout::basis(DimName in, int i) const {
  int d = inDimIndex(in);
  assert(d >= 0 && i >= 0 && i < inBits_[d] && "no such basis");
  uint64_t col = cols_[inDimOffset(d) + i];
  std::vector<uint64_t> r;
  for (int o = 0; o < nOut_; ++o)
    r.push_back(outValue(col, o));
  return r;
}

uint64_t LinearLayout::basis(DimName in, int i, DimName out) const {
  int d = inDimIndex(in);
  int o = outDimIndex(out);
  assert(d >= 0 && i >= 0 && i < inBits_[d] && "no such basis");
  if (o < 0)
    return 0;
  return outValue(cols_[inDimOffset(d) + i], o);
}

std::vector<InDimBases> LinearLayout::bases() const {
  std::vector<InDimBases> r;
  for (int d = 0; d < nIn_; ++d) {
    InDimBases b{inNames_[d], {}};
    for (int i = 0; i < inBits_[d]; ++i)
      b.bases.push_back(basis(inNames_[d], i));
    r.push_back(std::move(b));
  }
  return r;
}

Expected<std::vector<DimValue>> LinearLayout::apply(std::span<const DimValue> inputs) const {
  uint64_t w = 0;
  uint32_t seen = 0;
  for (const DimValue &v : inputs) {
    int d = inDimIndex(v.name);
    if (d < 0)
      return makeError("the layout has no in dimension " + quoted(v.name));
    if (seen & (1u << d))
      return makeError("in dimension " + quoted(v.name) + " is given twice");
    seen |= 1u << d;
    if (v.value >> inBits_[d])
      return makeError("value " + std::to_string(v.value) + " is out of range for in dimension " +
                       quoted(v.name) + " of size " + std::to_string(uint64_t(1) << inBits_[d]));
    w |= v.value << inDimOffset(d);
  }
  uint64_t out = apply(w);
  std::vector<DimValue> r;
  for (int o = 0; o < nOut_; ++o)
    r.push_back({outNames_[o], outValue(out, o)});
  return r;
}

int LinearLayout::rank() const {
  F2Basis b;
  int n = totalInBits();
  for (int i = 0; i < n; ++i)
    b.insert(cols_[i], 0);
  return b.rank();
}

std::vector<uint64_t> LinearLayout::imageBasis() const {
  F2Basis b;
  std::vector<uint64_t> r;
  int n = totalInBits();
  for (int i = 0; i < n; ++i)
    if (b.insert(cols_[i], 0))
      r.push_back(cols_[i]);
  return r;
}

std::vector<uint64_t> LinearLayout::kernelBasis() const {
  F2Basis b;
  std::vector<uint64_t> r;
  int n = totalInBits();
  for (int i = 0; i < n; ++i) {
    uint64_t combo = uint64_t(1) << i;
    if (!b.insert(cols_[i], combo)) {
      // Column i is a combination of earlier ones: that combination plus bit i maps to zero.
      b.reduce(cols_[i], &combo);
      r.push_back(combo);
    }
  }
  return r;
}

LinearLayout LinearLayout::kernel(DimName name) const {
  std::vector<uint64_t> k = kernelBasis();
  DimBits ins[] = {{name, int(k.size())}};
  std::vector<DimBits> outs;
  for (int d = 0; d < nIn_; ++d)
    outs.push_back({inNames_[d], inBits_[d]});
  return make(ins, outs, k);
}

LinearLayout LinearLayout::image(DimName name) const {
  std::vector<uint64_t> im = imageBasis();
  DimBits ins[] = {{name, int(im.size())}};
  std::vector<DimBits> outs;
  for (int o = 0; o < nOut_; ++o)
    outs.push_back({outNames_[o], outBits_[o]});
  return make(ins, outs, im);
}

std::vector<DimMask> LinearLayout::freeVariableMasks() const {
  F2Basis b;
  std::vector<DimMask> r;
  int bit = 0;
  for (int d = 0; d < nIn_; ++d) {
    uint64_t mask = 0;
    for (int i = 0; i < inBits_[d]; ++i, ++bit)
      if (!b.insert(cols_[bit], 0))
        mask |= uint64_t(1) << i;
    r.push_back({inNames_[d], mask});
  }
  return r;
}

std::vector<DimMask> LinearLayout::zeroBasisMasks() const {
  std::vector<DimMask> r;
  int bit = 0;
  for (int d = 0; d < nIn_; ++d) {
    uint64_t mask = 0;
    for (int i = 0; i < inBits_[d]; ++i, ++bit)
      if (cols_[bit] == 0)
        mask |= uint64_t(1) << i;
    r.push_back({inNames_[d], mask});
  }
  return r;
}

bool LinearLayout::equalIgnoringOutDimSizes(const LinearLayout &other) const {
  if (nIn_ != other.nIn_ || nOut_ != other.nOut_)
    return false;
  for (int i = 0; i < nIn_; ++i)
    if (inNames_[i] != other.inNames_[i] || inBits_[i] != other.inBits_[i])
      return false;
  for (int o = 0; o < nOut_; ++o)
    if (outNames_[o] != other.outNames_[o])
      return false;
  int n = totalInBits();
  for (int i = 0; i < n; ++i)
    for (int o = 0; o < nOut_; ++o)
      if (outValue(cols_[i], o) != other.outValue(other.cols_[i], o))
        return false;
  return true;
}

bool operator==(const LinearLayout &a, const LinearLayout &b) {
  if (a.nIn_ != b.nIn_ || a.nOut_ != b.nOut_ || a.inNames_ != b.inNames_ ||
      a.inBits_ != b.inBits_ || a.outNames_ != b.outNames_ || a.outBits_ != b.outBits_)
    return false;
  // Unused columns and name slots are always zero/default, so whole-array compares are exact.
  return a.cols_ == b.cols_;
}

size_t LinearLayout::hash() const {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](uint64_t v) {
    h ^= v;
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  };
  mix(nIn_ | uint64_t(nOut_) << 8);
  for (int i = 0; i < nIn_; ++i)
    mix(inNames_[i].id() | uint64_t(inBits_[i]) << 16);
  for (int o = 0; o < nOut_; ++o)
    mix(outNames_[o].id() | uint64_t(outBits_[o]) << 16);
  int n = totalInBits();
  for (int i = 0; i < n; ++i)
    mix(cols_[i]);
  return size_t(h);
}

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
    rp.pieces[rp.n++] = {outDimOffset(o), outer.inDimOffset(d), outBits_[o]};
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
    if (!skip[d])
      for (int i = 0; i < bits; ++i)
        basis.insert(outer.column(bit + i), uint64_t(1) << (bit + i));
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

// A fixed-capacity list of dims (the hot paths build result shapes without the heap).
struct DimList {
  std::array<DimBits, 2 * LinearLayout::kMaxDims> v{};
  int n = 0;
  void push(DimName name, int bits) { v[n++] = {name, bits}; }
  std::span<const DimBits> span() const { return {v.data(), size_t(n)}; }
};

DimList insOf(const LinearLayout &l) {
  DimList r;
  for (int d = 0; d < l.numInDims(); ++d)
    r.push(l.inDimName(d), l.inDimBits(d));
  return r;
}

DimList outsOf(const LinearLayout &l) {
  DimList r;
  for (int o = 0; o < l.numOutDims(); ++o)
    r.push(l.outDimName(o), l.outDimBits(o));
  return r;
}

} // namespace

Expected<std::optional<LinearLayout>>
LinearLayout::factorThrough(const LinearLayout &outer) const {
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
  bool sameOrder = nOut_ == outer.nOut_ &&
                   std::equal(outNames_.begin(), outNames_.begin() + nOut_, outer.outNames_.begin());
  std::optional<LinearLayout> transposed;
  if (!sameOrder) {
    auto t = outer.transposeOuts(std::span(outNames_.data(), nOut_));
    if (!t.ok())
      return makeError("cannot invert and compose: the layouts have different out dimensions");
    transposed = std::move(t).value();
  }
  const LinearLayout &A = sameOrder ? outer : *transposed;
  for (int o = 0; o < nOut_; ++o)
    if (outBits_[o] != A.outBits_[o])
      return makeError("cannot invert and compose: out dimension " + quoted(outNames_[o]) +
                       " has size " + std::to_string(uint64_t(1) << outBits_[o]) + " and " +
                       std::to_string(uint64_t(1) << A.outBits_[o]));

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
    for (int i = 0; i < n; ++i)
      basis.insert(cols_[i], uint64_t(1) << i);
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
                     std::to_string(totalInBits()) + " in bits, " +
                     std::to_string(totalOutBits()) + " out bits, rank " +
                     std::to_string(rank()) + "):" + toString());
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

Expected<LinearLayout> LinearLayout::product(const LinearLayout &inner,
                                             const LinearLayout &outer) {
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
  std::vector<DimBits> newIns, newOuts;
  Repack rp;
  rp.identity = false;
  int off = 0;
  for (int o = 0; o < nOut_; ++o)
    if (has(outs, outNames_[o])) {
      newOuts.push_back({outNames_[o], outBits_[o]});
      rp.pieces[rp.n++] = {outDimOffset(o), off, outBits_[o]};
      off += outBits_[o];
    }
  std::array<uint64_t, kMaxBits> cols{};
  int bit = 0;
  for (int d = 0; d < nIn_; ++d)
    if (has(ins, inNames_[d])) {
      newIns.push_back({inNames_[d], inBits_[d]});
      int src = inDimOffset(d);
      for (int i = 0; i < inBits_[d]; ++i)
        cols[bit++] = rp(cols_[src + i]);
    }
  return make(newIns, newOuts, std::span(cols.data(), bit));
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

// Whether `got` equals `want` once its dims are put in `want`'s order.
bool equalByName(const LinearLayout &got, const LinearLayout &want) {
  if (got.numInDims() != want.numInDims() || got.numOutDims() != want.numOutDims())
    return false;
  auto ins = got.transposeIns(want.inDimNames());
  if (!ins.ok())
    return false;
  auto both = ins->transposeOuts(want.outDimNames());
  return both.ok() && *both == want;
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
        uint64_t v = outValue(col, o);
        int low = inner.outDimBits(outNames_[o]);
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

// -------------------------------------------------------------------------------------------------
// Printing
// -------------------------------------------------------------------------------------------------

std::string LinearLayout::toString() const {
  std::string outs = "[";
  for (int o = 0; o < nOut_; ++o) {
    if (o)
      outs += ", ";
    outs += std::string(outNames_[o].str()) + " (size " +
            std::to_string(uint64_t(1) << outBits_[o]) + ")";
  }
  outs += "]";
  if (nIn_ == 0)
    return nOut_ == 0 ? "\n(empty layout)" : "\n(empty layout with out-dims " + outs + ")";
  std::string r = "\n";
  for (int d = 0; d < nIn_; ++d) {
    std::string name(inNames_[d].str());
    if (inBits_[d] == 0) {
      r += " - " + name + " is a size 1 dimension\n";
      continue;
    }
    for (int i = 0; i < inBits_[d]; ++i) {
      r += i == 0 ? " - " : "   ";
      r += name + "=" + std::to_string(uint64_t(1) << i) + " -> (";
      uint64_t col = cols_[inDimOffset(d) + i];
      for (int o = 0; o < nOut_; ++o) {
        if (o)
          r += ", ";
        r += std::to_string(outValue(col, o));
      }
      r += ")\n";
    }
  }
  r += "where out dims are: " + outs;
  return r;
}

std::ostream &operator<<(std::ostream &os, const LinearLayout &layout) {
  return os << layout.toString();
}

} // namespace linlayout
