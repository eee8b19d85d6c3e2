#include "linlayout/layout/LinearLayout.h"

#include "LayoutBits.h"
#include "linlayout/layout/F2Basis.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <ostream>
#include <string>

namespace linlayout {

using namespace detail;

namespace detail {

// Checks a list of dims for the per-side limits and duplicate names.
Status checkDims(std::span<const DimBits> dims, const char *side) {
  if (dims.size() > size_t(LinearLayout::kMaxDims))
    return makeError(std::string("too many ") + side +
                     " dimensions: " + std::to_string(dims.size()) + ", at most " +
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

} // namespace detail

// -------------------------------------------------------------------------------------------------
// Construction
// -------------------------------------------------------------------------------------------------

LinearLayout LinearLayout::make(std::span<const DimBits> ins, std::span<const DimBits> outs,
                                std::span<const uint64_t> cols) {
  assert(ins.size() <= size_t(kMaxDims) && outs.size() <= size_t(kMaxDims));
  LinearLayout l{Unfilled{}};
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
  l.clearColumnsFrom(int(cols.size()));
  return l;
}

void LinearLayout::clearColumnsFrom(int n) {
  // Plain stores, the whole blocks of eight columns as four 16-byte ones. The empty asm keeps
  // GCC from turning these loops into a memset, which it expands as `rep stos`: that
  // instruction's start-up alone costs more than a whole divideLeft (16 ns on the Xeon hosts).
  for (; n & 7; ++n) {
    asm("" : "+r"(n));
    cols_[n] = 0;
  }
  using Pair = uint64_t __attribute__((vector_size(16)));
  const Pair zero = {0, 0};
  for (int i = n; i < kMaxBits; i += 8) {
    asm("" : "+r"(i));
    std::memcpy(&cols_[i], &zero, 16);
    std::memcpy(&cols_[i + 2], &zero, 16);
    std::memcpy(&cols_[i + 4], &zero, 16);
    std::memcpy(&cols_[i + 6], &zero, 16);
  }
}

namespace {

// The first of fromBases' errors for an input its fast path refused (in the order of the checks:
// out sizes, out dims, in dims, then each basis).
Error fromBasesError(std::span<const InDimBases> ins, std::span<const DimSize> outs) {
  constexpr int kMaxDims = LinearLayout::kMaxDims, kMaxBits = LinearLayout::kMaxBits;
  DimList outBits, inBits;
  for (const DimSize &o : outs) {
    auto b = sizeToBits(o.size, o.name, "out");
    if (!b.ok())
      return b.error();
    if (outBits.n < kMaxDims)
      outBits.push(o.name, *b);
  }
  if (outs.size() > size_t(kMaxDims)) {
    std::vector<DimBits> all(outs.size(), DimBits{});
    return checkDims(all, "out").error();
  }
  if (Status st = checkDims(outBits.span(), "out"); !st.ok())
    return st.error();
  for (const InDimBases &in : ins) {
    if (in.bases.size() > size_t(kMaxBits))
      return makeError("in dimension " + quoted(in.name) + " has " +
                       std::to_string(in.bases.size()) + " bases, at most " +
                       std::to_string(kMaxBits));
    if (inBits.n < kMaxDims)
      inBits.push(in.name, int(in.bases.size()));
  }
  if (ins.size() > size_t(kMaxDims)) {
    std::vector<DimBits> all(ins.size(), DimBits{});
    return checkDims(all, "in").error();
  }
  if (Status st = checkDims(inBits.span(), "in"); !st.ok())
    return st.error();
  for (const InDimBases &in : ins)
    for (size_t i = 0; i < in.bases.size(); ++i) {
      const std::vector<uint64_t> &b = in.bases[i];
      if (b.size() != outs.size())
        return makeError("basis " + std::to_string(i) + " of in dimension " + quoted(in.name) +
                         " has " + std::to_string(b.size()) + " components, expected " +
                         std::to_string(outs.size()) + " (one per out dimension)");
      for (size_t j = 0; j < b.size(); ++j)
        if (b[j] >= outs[j].size)
          return makeError("basis " + std::to_string(i) + " of in dimension " + quoted(in.name) +
                           " has value " + std::to_string(b[j]) + " for out dimension " +
                           quoted(outs[j].name) + " of size " + std::to_string(outs[j].size));
    }
  assert(false && "fromBases' fast path refused a valid input");
  return makeError("invalid bases");
}

// Whether dims [0, n) of `names` are distinct.
bool distinct(const std::array<DimName, LinearLayout::kMaxDims> &names, int n) {
  for (int i = 1; i < n; ++i)
    for (int j = 0; j < i; ++j)
      if (names[i] == names[j])
        return false;
  return true;
}

} // namespace

Expected<LinearLayout> LinearLayout::fromBases(std::span<const InDimBases> ins,
                                               std::span<const DimSize> outs,
                                               bool requireSurjective) {
  // One pass writes the layout in place while checking every rule; only an input that breaks
  // one goes through fromBasesError, which finds the message. Returned by name: no copy.
  Expected<LinearLayout> r(std::in_place, Unfilled{});
  LinearLayout &l = *r;
  int n = 0;
  auto build = [&] {
    if (outs.size() > size_t(kMaxDims) || ins.size() > size_t(kMaxDims))
      return false;
    std::array<int, kMaxDims> outOff, outBits;
    int outTotal = 0;
    l.nOut_ = uint8_t(outs.size());
    for (size_t j = 0; j < outs.size(); ++j) {
      uint64_t size = outs[j].size;
      if (!isPow2(size))
        return false;
      int b = log2u(size);
      l.outNames_[j] = outs[j].name;
      l.outBits_[j] = uint8_t(b);
      outBits[j] = b;
      outOff[j] = outTotal;
      outTotal += b;
    }
    if (outTotal > kMaxBits || !distinct(l.outNames_, l.nOut_))
      return false;
    l.nIn_ = uint8_t(ins.size());
    // A component too large for its out dim leaves bits in `over`, checked once at the end.
    uint64_t over = 0;
    for (size_t d = 0; d < ins.size(); ++d) {
      const InDimBases &in = ins[d];
      size_t nb = in.bases.size();
      if (nb > size_t(kMaxDimBits) || n + nb > size_t(kMaxBits))
        return false;
      l.inNames_[d] = in.name;
      l.inBits_[d] = uint8_t(nb);
      const std::vector<uint64_t> *bases = in.bases.data();
      uint64_t *cols = &l.cols_[n];
      n += int(nb);
      // Two out dims (tensor layouts of 2-D tiles) and one take no inner loop.
      if (outs.size() == 2) {
        const int off1 = outOff[1], bits0 = outBits[0], bits1 = outBits[1];
        for (size_t i = 0; i < nb; ++i) {
          if (bases[i].size() != 2)
            return false;
          const uint64_t *v = bases[i].data();
          cols[i] = v[0] | v[1] << off1;
          over |= v[0] >> bits0 | v[1] >> bits1;
        }
      } else if (outs.size() == 1) {
        const int bits0 = outBits[0];
        for (size_t i = 0; i < nb; ++i) {
          if (bases[i].size() != 1)
            return false;
          uint64_t v = bases[i][0];
          cols[i] = v;
          over |= v >> bits0;
        }
      } else {
        for (size_t i = 0; i < nb; ++i) {
          const std::vector<uint64_t> &b = bases[i];
          if (b.size() != outs.size())
            return false;
          uint64_t col = 0;
          for (size_t j = 0; j < b.size(); ++j) {
            col |= b[j] << outOff[j];
            over |= b[j] >> outBits[j];
          }
          cols[i] = col;
        }
      }
    }
    return over == 0 && distinct(l.inNames_, l.nIn_);
  };
  if (!build()) {
    r = fromBasesError(ins, outs);
    return r;
  }
  l.clearColumnsFrom(n);
  if (requireSurjective && !l.isSurjective())
    r = makeError("layout is not surjective: its image has 2^" + std::to_string(l.rank()) +
                  " of the 2^" + std::to_string(l.totalOutBits()) + " outputs:" + l.toString());
  return r;
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
                         " has " + std::to_string(in.bases[i].size()) + " components, expected " +
                         std::to_string(outNames.size()));
      for (size_t j = 0; j < outNames.size(); ++j) {
        uint64_t v = in.bases[i][j];
        if (v >> kMaxDimBits)
          return makeError("basis value " + std::to_string(v) + " of in dimension " +
                           quoted(in.name) + " needs more than " + std::to_string(kMaxDimBits) +
                           " bits");
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
                     std::to_string(stride) + " needs more than 2^" + std::to_string(kMaxDimBits) +
                     " outputs");
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
      return makeError("column " + std::to_string(c) + " does not fit " + std::to_string(outTotal) +
                       " output bits");
  return make(std::span(ib.data(), ins.size()), std::span(ob.data(), outs.size()), columns);
}

// -------------------------------------------------------------------------------------------------
// Queries
// -------------------------------------------------------------------------------------------------

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

namespace {

// The error of an `apply` by names that the hot loop refused, found again by a second scan (kept
// out of line so that the hot path carries no string code).
[[gnu::cold, gnu::noinline]] Error applyNamedError(const LinearLayout &l,
                                                   std::span<const DimValue> inputs) {
  uint32_t seen = 0;
  for (const DimValue &v : inputs) {
    int d = l.inDimIndex(v.name);
    if (d < 0)
      return makeError("the layout has no in dimension " + quoted(v.name));
    if (seen & (1u << d))
      return makeError("in dimension " + quoted(v.name) + " is given twice");
    seen |= 1u << d;
    if (v.value >> l.inDimBits(d))
      return makeError("value " + std::to_string(v.value) + " is out of range for in dimension " +
                       quoted(v.name) + " of size " + std::to_string(l.inDimSize(v.name)));
  }
  assert(false && "apply by names refused valid inputs");
  return makeError("invalid inputs");
}

} // namespace

Expected<DimValues> LinearLayout::apply(std::span<const DimValue> inputs) const {
  // The answer is filled in place and returned by name (no copy); an error replaces it.
  Expected<DimValues> r(std::in_place);
  // The inputs are packed into one word, then applied. A shift by `off & 63` is exact: an offset
  // of 64 only comes with a size-1 dim, whose value is 0.
  const int nIn = nIn_, n = int(inputs.size());
  uint64_t packed = 0;
  int i = 0, off = 0;
  // Inputs in the layout's order (the usual call) need no name search.
  for (; i < n && i < nIn && inputs[i].name == inNames_[i]; ++i) {
    const int bits = inBits_[i];
    if (inputs[i].value >> bits) {
      r = applyNamedError(*this, inputs);
      return r;
    }
    packed |= inputs[i].value << (off & 63);
    off += bits;
  }
  uint32_t seen = (uint32_t(1) << i) - 1;
  for (; i < n; ++i) {
    const DimValue &v = inputs[i];
    // The name search also sums the bits below the dim: its first column.
    int d = 0;
    off = 0;
    while (d < nIn && inNames_[d] != v.name)
      off += inBits_[d++];
    if (d == nIn || (seen & (1u << d)) || (v.value >> inBits_[d])) {
      r = applyNamedError(*this, inputs);
      return r;
    }
    seen |= 1u << d;
    packed |= v.value << (off & 63);
  }
  uint64_t out = apply(packed);
  DimValues &vals = *r;
  int nOut = nOut_;
  vals.n_ = uint8_t(nOut);
  for (int o = 0; o < nOut; ++o) {
    int bits = outBits_[o]; // at most kMaxDimBits: the mask needs no 64-bit case
    vals.v_[o] = {outNames_[o], out & ~(~uint64_t(0) << bits)};
    out >>= bits;
  }
  return r;
}

int LinearLayout::rank() const {
  F2Basis b;
  b.insertAll(cols_.data(), totalInBits());
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
  // A column is free when it lies in the span of the columns before it.
  F2Basis b;
  uint64_t free = b.insertAll(cols_.data(), totalInBits());
  std::vector<DimMask> r;
  r.reserve(nIn_);
  for (int d = 0; d < nIn_; ++d) {
    r.push_back({inNames_[d], free & lowMask(inBits_[d])});
    free = inBits_[d] >= 64 ? 0 : free >> inBits_[d];
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