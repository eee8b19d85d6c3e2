// Properties of the layout algebra (then, invert, pseudoInvert, invertAndCompose, factorThrough,
// product, divideLeft/Right), each checked against the brute-force evaluator.
#include "PropertySupport.h"
#include "linlayout/layout/LayoutColumns.h"

using namespace linlayout;
using namespace linlayout::testing;
using namespace linlayout::proptest;
namespace bf = linlayout::bruteforce;

namespace {

/// Whether `c` applied then `b` equals `a` on every (enumerated or sampled) input of `a`, with
/// out dims matched by name.
bool factorsThrough(const LinearLayout &a, const LinearLayout &b, const LinearLayout &c,
                    uint64_t seed, int samples = 256) {
  bf::Ref ra(a), rb(b), rcl(c);
  for (const bf::Coords &x : bf::inputs(ra, seed, bf::kEnumerateBits, samples)) {
    bf::Coords mid = bf::reorder(rcl.outNames, rcl.eval(x), rb.inNames);
    bf::Coords got = bf::reorder(rb.outNames, rb.eval(mid), ra.outNames);
    if (got != ra.eval(x))
      return false;
  }
  return true;
}

std::vector<DimSize> inDimsAsOuts(const LinearLayout &l) { return l.inDims(); }

} // namespace

// --- then (Triton's compose) ------------------------------------------------------------------

LL_PROP(Then, MatchesApplyingOneLayoutThenTheOther, kCases, (const ComposablePair &p)) {
  auto c = p.a.then(p.b);
  RC_ASSERT(c.ok());
  RC_ASSERT(sameDims(c->inDims(), p.a.inDims()));
  RC_ASSERT(sameDims(c->outDims(), p.b.outDims()));
  bf::Ref ra(p.a), rb(p.b), rcl(*c);
  for (const bf::Coords &x : bf::inputs(ra, sampleSeed()))
    RC_ASSERT(rcl.eval(x) == rb.eval(bf::reorder(ra.outNames, ra.eval(x), rb.inNames)));
}

LL_PROP(Then, IsAssociative, kCases, (const ComposableTriple &t)) {
  auto ab = t.a.then(t.b);
  auto bc = t.b.then(t.c);
  RC_ASSERT(ab.ok() && bc.ok());
  auto left = ab->then(t.c), right = t.a.then(*bc);
  RC_ASSERT(left.ok() && right.ok());
  RC_ASSERT(*left == *right);
}

LL_PROP(Then, WideLayoutsMatchOnSampledInputs, kCases, ()) {
  ComposablePair p = *composablePair(wideBounds());
  auto c = p.a.then(p.b);
  RC_ASSERT(c.ok());
  bf::Ref ra(p.a), rb(p.b), rcl(*c);
  for (const bf::Coords &x : bf::inputs(ra, sampleSeed(), bf::kEnumerateBits, 64))
    RC_ASSERT(rcl.eval(x) == rb.eval(bf::reorder(ra.outNames, ra.eval(x), rb.inNames)));
}

// --- invert -----------------------------------------------------------------------------------

LL_PROP(Invert, UndoesTheLayoutBothWays, kCases, (const Invertible &inv)) {
  const LinearLayout &l = inv.layout;
  auto i = l.invert();
  RC_ASSERT(i.ok());
  RC_ASSERT(sameDims(i->inDims(), l.outDims()));
  RC_ASSERT(sameDims(i->outDims(), l.inDims()));
  bf::Ref rl(l), ri(*i);
  uint64_t seed = sampleSeed();
  for (const bf::Coords &x : bf::inputs(rl, seed))
    RC_ASSERT(ri.eval(rl.eval(x)) == x);
  for (const bf::Coords &y : bf::inputs(ri, seed))
    RC_ASSERT(rl.eval(ri.eval(y)) == y);
  // The compositions through the API are identities too.
  auto there = l.then(*i), back = i->then(l);
  RC_ASSERT(there.ok() && back.ok());
  bf::Ref rt(*there), rb(*back);
  for (const bf::Coords &x : bf::inputs(rl, seed))
    RC_ASSERT(rt.eval(x) == x);
  for (const bf::Coords &y : bf::inputs(ri, seed))
    RC_ASSERT(rb.eval(y) == y);
}

LL_PROP(Invert, SucceedsExactlyOnBijections, kCases, (const LinearLayout &l)) {
  bf::Ref r(l);
  bool bijective = r.totalInBits() == r.totalOutBits() &&
                   bf::image(r).size() == (uint64_t(1) << r.totalInBits());
  RC_ASSERT(l.invert().ok() == bijective);
  RC_ASSERT(l.tryInvert().has_value() == bijective);
  RC_ASSERT(l.isInvertible() == bijective);
}

LL_PROP(Invert, WideBijectionsOnSampledInputs, kCases, ()) {
  LinearLayout l = *invertibleLayout(wideBounds());
  auto i = l.invert();
  RC_ASSERT(i.ok());
  bf::Ref rl(l), ri(*i);
  for (const bf::Coords &x : bf::inputs(rl, sampleSeed(), bf::kEnumerateBits, 64))
    RC_ASSERT(ri.eval(rl.eval(x)) == x);
}

// --- pseudoInvert -----------------------------------------------------------------------------

LL_PROP(PseudoInvert, IsARightInverseWithFreeVariablesZero, kCases, (const Surjective &s)) {
  const LinearLayout &l = s.layout;
  auto p = l.pseudoInvert();
  RC_ASSERT(p.ok());
  RC_ASSERT(sameDims(p->inDims(), l.outDims()));
  RC_ASSERT(sameDims(p->outDims(), l.inDims()));
  std::vector<uint64_t> free = masksOf(l.freeVariableMasks());
  bf::Ref rl(l), rp(*p);
  for (const bf::Coords &y : bf::inputs(rp, sampleSeed())) {
    bf::Coords x = rp.eval(y);
    RC_ASSERT(rl.eval(x) == y);
    // Triton's choice: the solution uses only pivot (non-free) input bits.
    for (size_t d = 0; d < x.size(); ++d)
      RC_ASSERT((x[d] & free[d]) == 0);
  }
}

LL_PROP(PseudoInvert, SucceedsExactlyOnSurjections, kCases, (const LinearLayout &l)) {
  bf::Ref r(l);
  bool surjective =
      r.totalOutBits() <= 16 && bf::image(r).size() == (uint64_t(1) << r.totalOutBits());
  RC_ASSERT(l.pseudoInvert().ok() == surjective);
}

// --- invertAndCompose -------------------------------------------------------------------------

LL_PROP(InvertAndCompose, OuterAfterResultIsTheFirstLayout, kCases, (const SameOutputsPair &p)) {
  auto c = p.a.invertAndCompose(p.b);
  RC_ASSERT(c.ok());
  RC_ASSERT(sameDims(c->inDims(), p.a.inDims()));
  RC_ASSERT(sameDims(c->outDims(), inDimsAsOuts(p.b)));
  RC_ASSERT(factorsThrough(p.a, p.b, *c, sampleSeed()));
}

LL_PROP(InvertAndCompose, SmallerOutDimsAnswerAsTritonDoes, kCases, (const SameOutputsPair &p)) {
  // Triton 3.6 answers when the first layout's out dims are smaller: its values are read as
  // values of the second's larger dims.
  RC_PRE(p.a.numOutDims() > 0 && p.a.outDimBits(0) > 0);
  DimName d = p.a.outDimName(0);
  uint64_t full = p.a.outDimSize(d);
  LinearLayout small = *p.a.resizeOutDim(d, full / 2);
  auto c = small.invertAndCompose(p.b);
  RC_ASSERT(c.ok());
  LinearLayout wide = *small.resizeOutDim(d, full);
  RC_ASSERT(factorsThrough(wide, p.b, *c, sampleSeed()));
  RC_ASSERT(*c == *wide.invertAndCompose(p.b));
}

namespace {

// In dims that a and b both have with identical bases (what invertAndCompose keeps in place).
std::vector<DimName> identicalDims(const LinearLayout &a, const LinearLayout &b) {
  std::vector<DimName> r;
  auto bb = b.transposeOuts(a.outDimNames());
  if (!bb.ok())
    return r;
  for (const InDimBases &da : a.bases())
    for (const InDimBases &db : bb->bases())
      if (da.name == db.name && da.bases == db.bases)
        r.push_back(da.name);
  return r;
}

// Whether a's columns outside `keep` lie in the span of b's columns outside `keep`.
bool solvableWithout(const LinearLayout &a, const LinearLayout &b,
                     const std::vector<DimName> &keep) {
  auto drop = [&](const LinearLayout &l) {
    std::vector<DimName> ins;
    for (DimName n : l.inDimNames())
      if (std::find(keep.begin(), keep.end(), n) == keep.end())
        ins.push_back(n);
    return *l.sublayout(ins, l.outDimNames());
  };
  LinearLayout ra = drop(a), rb = *drop(b).transposeOuts(a.outDimNames());
  auto ia = bf::image(bf::Ref(ra)), ib = bf::image(bf::Ref(rb));
  return std::includes(ib.begin(), ib.end(), ia.begin(), ia.end());
}

} // namespace

LL_PROP(InvertAndCompose, DistributedLayoutsKeepSharedDimsInPlace, kCases, ()) {
  // Small enough tiles that the images can be enumerated (at most 2^13 inputs).
  DistributedBounds bounds;
  bounds.maxOutBits = 8;
  bounds.maxRegisterBits = 2;
  bounds.maxWarpBits = 2;
  SameOutputsPair p = *distributedPair(bounds);
  auto c = p.a.invertAndCompose(p.b);
  RC_ASSERT(c.ok());
  RC_ASSERT(factorsThrough(p.a, p.b, *c, sampleSeed()));
  std::vector<DimName> keep = identicalDims(p.a, p.b);
  RC_TAG(keep.size());
  if (keep.empty() || !solvableWithout(p.a, p.b, keep))
    return;
  // A dim both layouts map identically maps to itself: broadcast warps stay on their warp.
  for (DimName d : keep) {
    auto s = c->sublayout(std::vector<DimName>{d}, c->outDimNames());
    RC_ASSERT(s.ok());
    for (int i = 0; i < p.a.inDimBits(d); ++i)
      for (int o = 0; o < c->numOutDims(); ++o)
        RC_ASSERT(s->basis(d, i, c->outDimName(o)) ==
                  (c->outDimName(o) == d ? uint64_t(1) << i : 0));
  }
}

LL_PROP(InvertAndCompose, SetsFreeVariablesToZero, kCases, (const SameOutputsPair &p)) {
  // With no dim kept in place (distinct in-dim names), the answer uses only b's pivot bits.
  auto renamed = p.b;
  for (DimName n : p.b.inDimNames())
    renamed = *renamed.renameInDim(n, DimName::get("other_" + std::string(n.str())));
  auto c = p.a.invertAndCompose(renamed);
  RC_ASSERT(c.ok());
  std::vector<uint64_t> free = masksOf(renamed.freeVariableMasks());
  bf::Ref rc2(*c);
  for (const bf::Coords &x : bf::inputs(rc2, sampleSeed())) {
    bf::Coords y = rc2.eval(x);
    for (size_t d = 0; d < y.size(); ++d)
      RC_ASSERT((y[d] & free[d]) == 0);
  }
}

LL_PROP(InvertAndCompose, WideLayoutsOnSampledInputs, kCases, ()) {
  SameOutputsPair p = *sameOutputsPair(wideBounds());
  auto c = p.a.invertAndCompose(p.b);
  RC_ASSERT(c.ok());
  RC_ASSERT(factorsThrough(p.a, p.b, *c, sampleSeed(), 64));
}

// --- factorThrough, imageWithin ---------------------------------------------------------------

LL_PROP(FactorThrough, AnswersExactlyWhenTheImageFits, kCases, ()) {
  SameOutputsPair p = *sameOutputsPair(LayoutBounds{}, MapKind::Any, MapKind::Any);
  auto f = p.a.factorThrough(p.b);
  RC_ASSERT(f.ok());
  auto bAligned = p.b.transposeOuts(p.a.outDimNames());
  RC_ASSERT(bAligned.ok());
  auto ia = bf::image(bf::Ref(p.a)), ib = bf::image(bf::Ref(*bAligned));
  bool fits = std::includes(ib.begin(), ib.end(), ia.begin(), ia.end());
  RC_ASSERT(f->has_value() == fits);
  if (fits)
    RC_ASSERT(factorsThrough(p.a, p.b, **f, sampleSeed()));
  auto within = p.a.imageWithin(*bAligned);
  RC_ASSERT(within.ok());
  RC_ASSERT(*within == fits);
}

// --- product and division ---------------------------------------------------------------------

LL_PROP(Product, IsAssociative, kCases, (const ProductTriple &t)) {
  auto ab = t.a * t.b, bc = t.b * t.c;
  RC_ASSERT(ab.ok() && bc.ok());
  auto left = *ab * t.c, right = t.a * *bc;
  RC_CLASSIFY(left.ok() && right.ok(), "both sides defined");
  if (left.ok() && right.ok())
    RC_ASSERT(*left == *right);
}

LL_PROP(Product, RestrictsToEachFactor, kCases, (const ProductPair &p)) {
  auto prod = p.inner * p.outer;
  RC_ASSERT(prod.ok());
  bf::Ref ri(p.inner), ro(p.outer), rp(*prod);
  uint64_t seed = sampleSeed();
  // inner: its inputs in the low bits of each dim give its outputs in the low bits.
  for (const bf::Coords &x : bf::inputs(ri, seed)) {
    bf::Coords y = rp.eval(bf::reorder(ri.inNames, x, rp.inNames));
    RC_ASSERT(y == bf::reorder(ri.outNames, ri.eval(x), rp.outNames));
  }
  // outer: its inputs above inner's bits give its outputs above inner's out bits.
  for (const bf::Coords &x : bf::inputs(ro, seed)) {
    bf::Coords shifted = bf::reorder(ro.inNames, x, rp.inNames);
    for (size_t d = 0; d < shifted.size(); ++d)
      shifted[d] <<= p.inner.inDimBits(rp.inNames[d]);
    bf::Coords want = bf::reorder(ro.outNames, ro.eval(x), rp.outNames);
    for (size_t o = 0; o < want.size(); ++o)
      want[o] <<= p.inner.outDimBits(rp.outNames[o]);
    RC_ASSERT(rp.eval(shifted) == want);
  }
}

LL_PROP(Divide, LeftAndRightUndoAProduct, kCases, (const ProductPair &p)) {
  auto prod = p.inner * p.outer;
  RC_ASSERT(prod.ok());
  auto c = prod->divideLeft(p.inner);
  RC_ASSERT(c.has_value());
  RC_ASSERT(bf::sameMap(*c, p.outer));
  auto b = prod->divideRight(p.outer);
  RC_ASSERT(b.has_value());
  RC_ASSERT(bf::sameMap(*b, p.inner));
}

LL_PROP(Divide, AnswerExactlyWhenAQuotientExists, kCases, (const ProductPair &p)) {
  // One bit flipped in one column of a product: the division by inner still exists exactly when
  // the bit lies in outer's part (a column of outer's, an out bit above inner's), and the
  // division by outer exactly when it lies in inner's part. The answers multiply back.
  auto prod = p.inner * p.outer;
  RC_ASSERT(prod.ok());
  int nIn = prod->totalInBits(), nOut = prod->totalOutBits();
  RC_PRE(nIn > 0 && nOut > 0);
  int k = *rc::gen::inRange(0, nIn), bit = *rc::gen::inRange(0, nOut);
  std::vector<uint64_t> cols = allColumns(*prod);
  cols[k] ^= uint64_t(1) << bit;
  auto changed = LinearLayout::fromColumns(prod->inDims(), prod->outDims(), cols);
  RC_ASSERT(changed.ok());
  int d = 0, o = 0;
  while (k >= prod->inDimOffset(d + 1))
    ++d;
  while (bit >= prod->outDimOffset(o + 1))
    ++o;
  bool innerColumn = k - prod->inDimOffset(d) < p.inner.inDimBits(prod->inDimName(d));
  bool innerBit = bit - prod->outDimOffset(o) < p.inner.outDimBits(prod->outDimName(o));
  auto c = changed->divideLeft(p.inner);
  RC_ASSERT(c.has_value() == (!innerColumn && !innerBit));
  if (c) {
    auto back = p.inner * *c;
    RC_ASSERT(back.ok());
    RC_ASSERT(bf::sameMap(*back, *changed));
  }
  auto b = changed->divideRight(p.outer);
  RC_ASSERT(b.has_value() == (innerColumn && innerBit));
  if (b) {
    auto back = *b * p.outer;
    RC_ASSERT(back.ok());
    RC_ASSERT(bf::sameMap(*back, *changed));
  }
}

LL_PROP(Divide, AnswersAreExact, kCases, (const LinearLayout &a, const LinearLayout &b)) {
  // Whatever divideLeft/divideRight answer multiplies back to the dividend.
  if (auto c = a.divideLeft(b)) {
    auto back = b * *c;
    RC_ASSERT(back.ok());
    RC_ASSERT(bf::sameMap(*back, a));
  }
  if (auto c = a.divideRight(b)) {
    auto back = *c * b;
    RC_ASSERT(back.ok());
    RC_ASSERT(bf::sameMap(*back, a));
  }
}
