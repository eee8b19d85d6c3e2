// Properties of construction, equality, printing and the structural operations (transpose,
// reshape, flatten, resize, sublayout, quotient, concat, rename, removeZeroBases,
// permuteInBits), checked against the brute-force evaluator.
#include "PropertySupport.h"

#include <algorithm>
#include <sstream>

using namespace linlayout;
using namespace linlayout::testing;
using namespace linlayout::proptest;
namespace bf = linlayout::bruteforce;

namespace {

// A random permutation of `v`.
template <typename T> std::vector<T> shuffled(std::vector<T> v) {
  auto keys = *rc::gen::container<std::vector<uint64_t>>(v.size(), rc::gen::arbitrary<uint64_t>());
  std::vector<size_t> idx(v.size());
  for (size_t i = 0; i < idx.size(); ++i)
    idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  std::vector<T> r;
  for (size_t i : idx)
    r.push_back(v[i]);
  return r;
}

// A random regrouping of `total` bits into dims named from `pool`.
std::vector<DimSize> regroup(int total, const std::vector<DimName> &pool) {
  std::vector<DimBits> dims = linlayout::testing::detail::pickDims(pool, total, 4, false);
  return linlayout::testing::detail::toSizes(dims);
}

// A random subset of `names`, in their order.
std::vector<DimName> subset(const std::vector<DimName> &names) {
  std::vector<DimName> r;
  for (DimName n : names)
    if (*rc::gen::arbitrary<bool>())
      r.push_back(n);
  return r;
}

// Triton's text for a layout, written from its bases() and outDims().
std::string expectedText(const LinearLayout &l) {
  std::string outs = "[";
  bool first = true;
  for (const DimSize &d : l.outDims()) {
    outs +=
        (first ? "" : ", ") + std::string(d.name.str()) + " (size " + std::to_string(d.size) + ")";
    first = false;
  }
  outs += "]";
  if (l.numInDims() == 0)
    return l.numOutDims() == 0 ? "\n(empty layout)" : "\n(empty layout with out-dims " + outs + ")";
  std::string s = "\n";
  for (const InDimBases &b : l.bases()) {
    if (b.bases.empty()) {
      s += " - " + std::string(b.name.str()) + " is a size 1 dimension\n";
      continue;
    }
    for (size_t i = 0; i < b.bases.size(); ++i) {
      s += (i == 0 ? " - " : "   ") + std::string(b.name.str()) + "=" +
           std::to_string(uint64_t(1) << i) + " -> (";
      for (size_t o = 0; o < b.bases[i].size(); ++o)
        s += (o ? ", " : "") + std::to_string(b.bases[i][o]);
      s += ")\n";
    }
  }
  return s + "where out dims are: " + outs;
}

} // namespace

// --- construction, equality, hashing, printing ------------------------------------------------

LL_PROP(FromBases, RoundTripsThroughBases, kCases, (const LinearLayout &l)) {
  auto back = LinearLayout::fromBases(l.bases(), l.outDims());
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == l);
  RC_ASSERT(back->hash() == l.hash());
  RC_ASSERT(std::hash<LinearLayout>()(l) == l.hash());
  for (const InDimBases &b : l.bases())
    for (size_t i = 0; i < b.bases.size(); ++i)
      RC_ASSERT(l.basis(b.name, int(i)) == b.bases[i]);
  // Requiring surjectivity fails exactly on non-surjective layouts.
  RC_ASSERT(LinearLayout::fromBases(l.bases(), l.outDims(), true).ok() == l.isSurjective());
}

LL_PROP(FromBases, InferredSizesAreTheSmallestThatHoldEveryBasis, kCases, (const Surjective &s)) {
  const LinearLayout &l = s.layout;
  auto inferred = LinearLayout::fromBasesInferSizes(l.bases(), l.outDimNames());
  // The inferred sizes are the smallest powers of two above every component; a surjective layout
  // uses its top bits, so they are its sizes.
  RC_ASSERT(inferred.ok());
  RC_ASSERT(*inferred == l);
}

LL_PROP(Equality, IsEqualityOfDimsAndBases, kCases,
        (const LinearLayout &a, const LinearLayout &b)) {
  bool same = sameDims(a.inDims(), b.inDims()) && sameDims(a.outDims(), b.outDims());
  if (same)
    for (int i = 0; i < a.totalInBits(); ++i)
      same = same && a.column(i) == b.column(i);
  RC_ASSERT((a == b) == same);
  RC_ASSERT((a != b) == !same);
  if (same)
    RC_ASSERT(a.hash() == b.hash());
  RC_ASSERT(a.equalIgnoringOutDimSizes(a));
}

LL_PROP(Equality, IgnoringOutSizesComparesValues, kCases, (const LinearLayout &l)) {
  if (l.numOutDims() == 0)
    return;
  int o = *rc::gen::inRange(0, l.numOutDims());
  DimName name = l.outDimName(o);
  int grow = *rc::gen::inRange(0, 3);
  if (l.totalOutBits() + grow > 64)
    return;
  auto bigger = l.resizeOutDim(name, l.outDimSize(name) << grow);
  RC_ASSERT(bigger.ok());
  RC_ASSERT(bigger->equalIgnoringOutDimSizes(l));
  RC_ASSERT((*bigger == l) == (grow == 0));
}

LL_PROP(ToString, IsTritonsText, kCases, (const LinearLayout &l)) {
  RC_ASSERT(l.toString() == expectedText(l));
  std::ostringstream os;
  os << l;
  RC_ASSERT(os.str() == l.toString());
}

LL_PROP(Apply, NamedAndPackedAgreeWithBruteForce, kCases, (const LinearLayout &l)) {
  bf::Ref r(l);
  for (const bf::Coords &x : bf::inputs(r, sampleSeed(), 8)) {
    std::vector<DimValue> named;
    for (size_t d = 0; d < x.size(); ++d)
      named.push_back({r.inNames[d], x[d]});
    auto out = l.apply(named);
    RC_ASSERT(out.ok());
    bf::Coords want = r.eval(x);
    RC_ASSERT(out->size() == want.size());
    for (size_t o = 0; o < want.size(); ++o)
      RC_ASSERT((*out)[o].name == r.outNames[o] && (*out)[o].value == want[o]);
    uint64_t packed = l.packInput(x);
    for (size_t d = 0; d < x.size(); ++d)
      RC_ASSERT(l.inValue(packed, int(d)) == x[d]);
    uint64_t y = l.apply(packed);
    for (size_t o = 0; o < want.size(); ++o)
      RC_ASSERT(l.outValue(y, int(o)) == want[o]);
  }
}

LL_PROP(Apply, IsLinear, kCases, ()) {
  LinearLayout l = *anyLayout(wideBounds());
  uint64_t mask = l.totalInBits() >= 64 ? ~uint64_t(0) : (uint64_t(1) << l.totalInBits()) - 1;
  uint64_t x = *rc::gen::arbitrary<uint64_t>() & mask, y = *rc::gen::arbitrary<uint64_t>() & mask;
  RC_ASSERT(l.apply(x ^ y) == (l.apply(x) ^ l.apply(y)));
  RC_ASSERT(l.apply(0) == 0);
}

// --- transpose, reshape, flatten --------------------------------------------------------------

LL_PROP(Transpose, ReordersDimsAndKeepsTheMap, kCases, (const LinearLayout &l)) {
  std::vector<DimName> ins = shuffled(l.inDimNames()), outs = shuffled(l.outDimNames());
  auto t = l.transposeIns(ins);
  RC_ASSERT(t.ok());
  auto tt = t->transposeOuts(outs);
  RC_ASSERT(tt.ok());
  RC_ASSERT(tt->inDimNames() == ins && tt->outDimNames() == outs);
  RC_ASSERT(bf::sameMap(*tt, l));
  // And back.
  auto back = tt->transposeIns(l.inDimNames());
  RC_ASSERT(back.ok());
  auto back2 = back->transposeOuts(l.outDimNames());
  RC_ASSERT(back2.ok() && *back2 == l);
}

LL_PROP(Reshape, KeepsThePackedMapAndRoundTrips, kCases, (const LinearLayout &l)) {
  std::vector<DimSize> ins = regroup(l.totalInBits(), inNamePool());
  std::vector<DimSize> outs = regroup(l.totalOutBits(), outNamePool());
  auto ri = l.reshapeIns(ins);
  RC_ASSERT(ri.ok());
  auto ro = ri->reshapeOuts(outs);
  RC_ASSERT(ro.ok());
  RC_ASSERT(sameDims(ro->inDims(), ins) && sameDims(ro->outDims(), outs));
  // The packed index of an input is unchanged, and so is the packed index of its output.
  bf::Ref r(l), rr(*ro);
  std::vector<int> outBits = bf::bitsOf(r.outSizes), newOutBits = bf::bitsOf(rr.outSizes);
  for (const bf::Coords &x : bf::inputs(r, sampleSeed())) {
    uint64_t index = 0;
    int shift = 0;
    for (size_t d = 0; d < x.size(); ++d) {
      index |= shift >= 64 ? 0 : x[d] << shift;
      shift += r.inBits[d];
    }
    bf::Coords y = r.eval(x), y2 = rr.eval(bf::split(index, rr.inBits));
    uint64_t outIndex = 0, outIndex2 = 0;
    shift = 0;
    for (size_t o = 0; o < y.size(); ++o) {
      outIndex |= shift >= 64 ? 0 : y[o] << shift;
      shift += outBits[o];
    }
    shift = 0;
    for (size_t o = 0; o < y2.size(); ++o) {
      outIndex2 |= shift >= 64 ? 0 : y2[o] << shift;
      shift += newOutBits[o];
    }
    RC_ASSERT(outIndex == outIndex2);
  }
  auto back = ro->reshapeIns(l.inDims());
  RC_ASSERT(back.ok());
  auto back2 = back->reshapeOuts(l.outDims());
  RC_ASSERT(back2.ok() && *back2 == l);
}

LL_PROP(Flatten, IsAReshapeToOneDim, kCases, (const LinearLayout &l)) {
  LinearLayout fi = l.flattenIns(), fo = l.flattenOuts();
  if (l.numInDims() > 0) {
    std::vector<DimSize> one = {{l.inDimName(0), uint64_t(1) << l.totalInBits()}};
    if (l.totalInBits() < 64) {
      auto want = l.reshapeIns(one);
      RC_ASSERT(want.ok() && fi == *want);
    }
    RC_ASSERT(fi.numInDims() == 1 && fi.inDimBits(0) == l.totalInBits());
  } else {
    RC_ASSERT(fi == l);
  }
  if (l.numOutDims() > 0) {
    RC_ASSERT(fo.numOutDims() == 1 && fo.outDimBits(0) == l.totalOutBits());
    for (int i = 0; i < l.totalInBits(); ++i)
      RC_ASSERT(fo.column(i) == l.column(i));
  } else {
    RC_ASSERT(fo == l);
  }
  DimName named = DimName::get("flat");
  if (l.numInDims() > 0)
    RC_ASSERT(l.flattenIns(named).inDimName(0) == named);
  if (l.numOutDims() > 0)
    RC_ASSERT(l.flattenOuts(named).outDimName(0) == named);
}

// --- resize, sublayout, quotient --------------------------------------------------------------

LL_PROP(ResizeInDim, AddsZeroBasesOrDropsHighOnes, kCases, (const LinearLayout &l)) {
  if (l.numInDims() == 0)
    return;
  int d = *rc::gen::inRange(0, l.numInDims());
  DimName dim = l.inDimName(d);
  int bits = *rc::gen::inRange(0, l.inDimBits(d) + 3);
  if (l.totalInBits() - l.inDimBits(d) + bits > 64)
    return;
  auto r = l.resizeInDim(dim, uint64_t(1) << bits);
  RC_ASSERT(r.ok());
  RC_ASSERT(r->inDimBits(d) == bits);
  for (int i = 0; i < bits; ++i)
    RC_ASSERT(r->basis(dim, i) ==
              (i < l.inDimBits(d) ? l.basis(dim, i) : std::vector<uint64_t>(l.numOutDims(), 0)));
  for (DimName other : l.inDimNames())
    if (other != dim)
      for (int i = 0; i < l.inDimBits(other); ++i)
        RC_ASSERT(r->basis(other, i) == l.basis(other, i));
  RC_ASSERT(sameDims(r->outDims(), l.outDims()));
}

LL_PROP(ResizeOutDim, KeepsTheLowBitsOfThatCoordinate, kCases, (const LinearLayout &l)) {
  if (l.numOutDims() == 0)
    return;
  int o = *rc::gen::inRange(0, l.numOutDims());
  DimName dim = l.outDimName(o);
  int bits = *rc::gen::inRange(0, l.outDimBits(o) + 3);
  if (l.totalOutBits() - l.outDimBits(o) + bits > 64)
    return;
  auto r = l.resizeOutDim(dim, uint64_t(1) << bits);
  RC_ASSERT(r.ok());
  RC_ASSERT(r->outDimSize(dim) == uint64_t(1) << bits);
  bf::Ref rl(l), rr(*r);
  for (const bf::Coords &x : bf::inputs(rl, sampleSeed())) {
    bf::Coords want = rl.eval(x);
    want[o] &= (uint64_t(1) << bits) - 1;
    RC_ASSERT(rr.eval(x) == want);
  }
}

LL_PROP(Sublayout, RestrictsInputsAndProjectsOutputs, kCases, (const LinearLayout &l)) {
  std::vector<DimName> ins = subset(l.inDimNames()), outs = subset(l.outDimNames());
  auto s = l.sublayout(shuffled(ins), shuffled(outs));
  RC_ASSERT(s.ok());
  RC_ASSERT(s->inDimNames() == ins && s->outDimNames() == outs);
  bf::Ref rl(l), rs(*s);
  bool zero = true;
  for (const bf::Coords &x : bf::inputs(rs, sampleSeed())) {
    bf::Coords want =
        bf::reorder(rl.outNames, rl.eval(bf::reorder(rs.inNames, x, rl.inNames)), rs.outNames);
    RC_ASSERT(rs.eval(x) == want);
    zero = zero && want == bf::Coords(want.size(), 0);
  }
  if (rs.totalInBits() <= bf::kEnumerateBits)
    RC_ASSERT(l.sublayoutIsZero(ins, outs) == zero);
}

LL_PROP(Quotient, DividesOutDimsMappedIdentically, kCases, (const LinearLayout &q)) {
  // l = q * identity over dims that q does not have: the quotient by them gives q back.
  std::vector<DimName> extra;
  LinearLayout l = q;
  for (DimName n : {DimName::get("q0"), DimName::get("q1")}) {
    int bits = *rc::gen::inRange(0, 3);
    if (l.totalInBits() + bits > 64 || l.totalOutBits() + bits > 64)
      continue;
    auto prod = l * *LinearLayout::identity1D(uint64_t(1) << bits, n, n);
    RC_ASSERT(prod.ok());
    l = *prod;
    extra.push_back(n);
  }
  auto back = l.quotient(extra);
  RC_ASSERT(back.has_value());
  RC_ASSERT(*back == q);
}

LL_PROP(Quotient, AnswersOnlyWhenTheDimsAreIdentityWithoutCrossTerms, kCases,
        (const LinearLayout &l)) {
  // Any answer is exact: the divided-out dims map to themselves identically and are reached by
  // nothing else, and the rest is the sublayout.
  std::vector<DimName> dims = subset(l.inDimNames());
  for (DimName n : subset(l.outDimNames()))
    if (std::find(dims.begin(), dims.end(), n) == dims.end())
      dims.push_back(n);
  auto q = l.quotient(dims);
  if (!q)
    return;
  bf::Ref rl(l), rq(*q);
  for (DimName d : dims) {
    RC_ASSERT(l.hasInDim(d) && l.hasOutDim(d) && l.inDimSize(d) == l.outDimSize(d));
  }
  for (const bf::Coords &x : bf::inputs(rl, sampleSeed())) {
    bf::Coords y = rl.eval(x);
    for (DimName d : dims)
      RC_ASSERT(bf::valueOf(rl.outNames, y, d) == bf::valueOf(rl.inNames, x, d));
    bf::Coords rest = rq.eval(bf::reorder(rl.inNames, x, rq.inNames));
    RC_ASSERT(rest == bf::reorder(rl.outNames, y, rq.outNames));
  }
}

// --- concat, rename, removeZeroBases, permuteInBits -------------------------------------------

LL_PROP(ConcatIns, XorsTheTwoOutputs, kCases, (const SameOutputsPair &p)) {
  // Give b's in dims fresh names so that the two sets are disjoint.
  LinearLayout b = p.b;
  for (DimName n : p.b.inDimNames())
    b = *b.renameInDim(n, DimName::get("b_" + std::string(n.str())));
  if (p.a.totalInBits() + b.totalInBits() > 64 || p.a.numInDims() + b.numInDims() > 16)
    return;
  auto c = p.a.concatIns(b);
  RC_ASSERT(c.ok());
  bf::Ref ra(p.a), rb(b), rcat(*c);
  // Up to 20 in bits: enumerate up to 2^12 inputs, sample beyond.
  for (const bf::Coords &x : bf::inputs(rcat, sampleSeed(), 12)) {
    bf::Coords ya = ra.eval(bf::reorder(rcat.inNames, x, ra.inNames));
    bf::Coords yb =
        bf::reorder(rb.outNames, rb.eval(bf::reorder(rcat.inNames, x, rb.inNames)), ra.outNames);
    bf::Coords want(ya.size());
    for (size_t o = 0; o < ya.size(); ++o)
      want[o] = ya[o] ^ yb[o];
    RC_ASSERT(rcat.eval(x) == want);
  }
}

LL_PROP(ConcatOuts, PairsTheTwoOutputs, kCases, (const LinearLayout &a)) {
  // b has a's in dims (in another order) and fresh out dims.
  std::vector<DimBits> ins, outs;
  for (DimName n : shuffled(a.inDimNames()))
    ins.push_back({n, a.inDimBits(n)});
  int room = 64 - a.totalOutBits();
  int bits = *rc::gen::inRange(0, std::min(room, 8) + 1);
  outs.push_back({DimName::get("extra"), bits});
  LinearLayout b = *layoutOver(ins, outs);
  auto c = a.concatOuts(b);
  RC_ASSERT(c.ok());
  bf::Ref ra(a), rb(b), rcat(*c);
  for (const bf::Coords &x : bf::inputs(ra, sampleSeed())) {
    bf::Coords want = ra.eval(x);
    for (uint64_t v : rb.eval(bf::reorder(ra.inNames, x, rb.inNames)))
      want.push_back(v);
    RC_ASSERT(rcat.eval(x) == want);
  }
}

LL_PROP(Rename, KeepsTheMap, kCases, (const LinearLayout &l)) {
  DimName fresh = DimName::get("renamed");
  if (l.numInDims() > 0) {
    DimName from = *rc::gen::elementOf(l.inDimNames());
    auto r = l.renameInDim(from, fresh);
    RC_ASSERT(r.ok());
    RC_ASSERT(r->inDimIndex(fresh) == l.inDimIndex(from) && !r->hasInDim(from));
    for (int i = 0; i < l.totalInBits(); ++i)
      RC_ASSERT(r->column(i) == l.column(i));
    RC_ASSERT(*r->renameInDim(fresh, from) == l);
  }
  if (l.numOutDims() > 0) {
    DimName from = *rc::gen::elementOf(l.outDimNames());
    auto r = l.renameOutDim(from, fresh);
    RC_ASSERT(r.ok());
    RC_ASSERT(r->outDimIndex(fresh) == l.outDimIndex(from) && !r->hasOutDim(from));
    RC_ASSERT(*r->renameOutDim(fresh, from) == l);
  }
}

LL_PROP(RemoveZeroBases, DropsExactlyTheZeroBases, kCases, (const LinearLayout &l)) {
  bool all = *rc::gen::arbitrary<bool>() || l.numInDims() == 0;
  std::optional<DimName> dim;
  if (!all)
    dim = *rc::gen::elementOf(l.inDimNames());
  LinearLayout r = l.removeZeroBases(dim);
  RC_ASSERT(r.inDimNames() == l.inDimNames());
  RC_ASSERT(sameDims(r.outDims(), l.outDims()));
  for (const InDimBases &b : l.bases()) {
    std::vector<std::vector<uint64_t>> want;
    for (const auto &v : b.bases)
      if ((dim && *dim != b.name) ||
          std::any_of(v.begin(), v.end(), [](uint64_t x) { return x != 0; }))
        want.push_back(v);
    const auto got = r.bases()[r.inDimIndex(b.name)].bases;
    RC_ASSERT(got == want);
  }
  RC_ASSERT(bf::image(bf::Ref(r)) == bf::image(bf::Ref(l)));
}

LL_PROP(PermuteInBits, ReordersTheBasesOfOneDim, kCases, (const LinearLayout &l)) {
  if (l.numInDims() == 0)
    return;
  DimName dim = *rc::gen::elementOf(l.inDimNames());
  std::vector<int> perm(l.inDimBits(dim));
  for (size_t i = 0; i < perm.size(); ++i)
    perm[i] = int(i);
  perm = shuffled(perm);
  auto r = l.permuteInBits(dim, perm);
  RC_ASSERT(r.ok());
  for (size_t i = 0; i < perm.size(); ++i)
    RC_ASSERT(r->basis(dim, int(i)) == l.basis(dim, perm[i]));
  // Input x of the permuted layout is input (bit i of x -> bit perm[i]) of the original.
  bf::Ref rl(l), rr(*r);
  int d = l.inDimIndex(dim);
  for (const bf::Coords &x : bf::inputs(rr, sampleSeed())) {
    bf::Coords moved = x;
    moved[d] = 0;
    for (size_t i = 0; i < perm.size(); ++i)
      if ((x[d] >> i) & 1)
        moved[d] |= uint64_t(1) << perm[i];
    RC_ASSERT(rr.eval(x) == rl.eval(moved));
  }
}

// --- the 1-D constructors ---------------------------------------------------------------------

LL_PROP(Constructors, IdentityStridedAndZerosMapAsDocumented, kCases, ()) {
  int bits = *rc::gen::inRange(0, 13);
  int sbits = *rc::gen::inRange(0, 6);
  DimName in = DimName::lane(), out = DimName::dim(0);
  auto id = LinearLayout::identity1D(uint64_t(1) << bits, in, out);
  auto st = LinearLayout::strided1D(uint64_t(1) << bits, uint64_t(1) << sbits, in, out);
  auto z = LinearLayout::zeros1D(uint64_t(1) << bits, in, out, uint64_t(1) << sbits);
  RC_ASSERT(id.ok() && st.ok() && z.ok());
  RC_ASSERT(id->outDimSize(out) == uint64_t(1) << bits);
  RC_ASSERT(st->outDimSize(out) == uint64_t(1) << (bits + sbits));
  RC_ASSERT(z->outDimSize(out) == uint64_t(1) << sbits);
  for (uint64_t x = 0; x < (uint64_t(1) << bits); ++x) {
    RC_ASSERT(id->apply(x) == x);
    RC_ASSERT(st->apply(x) == x << sbits);
    RC_ASSERT(z->apply(x) == 0);
  }
  RC_ASSERT(id->isInvertible() && st->isInjective() && (bits == 0 || !z->isInjective()));
}
