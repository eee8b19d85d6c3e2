// Properties of the queries and analyses (rank, kernel, image, injectivity, surjectivity, free
// variables, zero bases, consecutive elements, identity prefixes), checked by enumeration.
#include "PropertySupport.h"

#include <set>

using namespace linlayout;
using namespace linlayout::testing;
using namespace linlayout::proptest;
namespace bf = linlayout::bruteforce;

namespace {

int log2Exact(uint64_t n) { return 63 - __builtin_clzll(n); }

// The in coords whose only set bit is bit i of dim d.
bf::Coords unitInput(const bf::Ref &r, int d, int i) {
  bf::Coords x(r.inNames.size(), 0);
  x[d] = uint64_t(1) << i;
  return x;
}

// Every input of `r` using only the packed input bits below `limit` (packed order: first dim
// lowest) and, when `skip` is given, not the bits it marks.
std::vector<bf::Coords> inputsBelow(const bf::Ref &r, int limit,
                                    const std::vector<uint64_t> *skip = nullptr) {
  std::vector<bf::Coords> all;
  for (const bf::Coords &x : bf::points(r.inBits, 0, 64)) {
    int base = 0;
    bool ok = true;
    for (size_t d = 0; d < x.size() && ok; ++d) {
      for (int i = 0; i < r.inBits[d] && ok; ++i)
        if ((x[d] >> i) & 1)
          ok = base + i < limit && !(skip && (((*skip)[d] >> i) & 1));
      base += r.inBits[d];
    }
    if (ok)
      all.push_back(x);
  }
  return all;
}

} // namespace

LL_PROP(Rank, PlusNullityIsTheInputBits, kCases, (const LinearLayout &l)) {
  bf::Ref r(l);
  std::set<bf::Coords> image = bf::image(r);
  int zeros = 0;
  for (const bf::Coords &x : bf::points(r.inBits, 0, 64))
    zeros += r.eval(x) == bf::Coords(r.outNames.size(), 0);
  RC_ASSERT(l.rank() == log2Exact(image.size()));
  RC_ASSERT(int(l.kernelBasis().size()) == log2Exact(uint64_t(zeros)));
  RC_ASSERT(l.rank() + int(l.kernelBasis().size()) == l.totalInBits());
}

LL_PROP(Rank, InjectiveAndSurjectiveAgreeWithEnumeration, kCases, (const LinearLayout &l)) {
  bf::Ref r(l);
  size_t image = bf::image(r).size();
  bool injective = image == (uint64_t(1) << r.totalInBits());
  bool surjective = image == (uint64_t(1) << r.totalOutBits());
  RC_ASSERT(l.isInjective() == injective);
  RC_ASSERT(l.isSurjective() == surjective);
  RC_ASSERT(l.isInvertible() == (injective && surjective));
}

LL_PROP(Generators, MakeWhatTheyPromise, kCases, ()) {
  LinearLayout inj = *injectiveLayout(), sur = *surjectiveLayout(), inv = *invertibleLayout();
  LinearLayout dist = *distributedLayout();
  RC_ASSERT(bf::image(bf::Ref(inj)).size() == uint64_t(1) << inj.totalInBits());
  RC_ASSERT(bf::image(bf::Ref(sur)).size() == uint64_t(1) << sur.totalOutBits());
  RC_ASSERT(bf::image(bf::Ref(inv)).size() == uint64_t(1) << inv.totalInBits());
  RC_ASSERT(inv.totalInBits() == inv.totalOutBits());
  RC_ASSERT(dist.numInDims() == 4 && dist.inDimName(0) == DimName::reg() &&
            dist.inDimName(3) == DimName::block());
  RC_ASSERT(dist.isSurjective());
  std::set<bf::Coords> distImage = bf::image(bf::Ref(dist));
  RC_ASSERT(distImage.size() == uint64_t(1) << dist.totalOutBits());
}

LL_PROP(Kernel, BasisMapsToZeroAndSpansTheNullSpace, kCases, (const LinearLayout &l)) {
  std::vector<uint64_t> k = l.kernelBasis();
  for (uint64_t v : k)
    RC_ASSERT(l.apply(v) == 0);
  LinearLayout kl = l.kernel(DimName::get("kernel"));
  RC_ASSERT(kl.isInjective());
  RC_ASSERT(kl.numInDims() == 1 && kl.inDimBits(0) == int(k.size()));
  RC_ASSERT(sameDims(kl.outDims(), l.inDims()));
  auto zero = kl.then(l);
  RC_ASSERT(zero.ok());
  for (int i = 0; i < zero->totalInBits(); ++i)
    RC_ASSERT(zero->column(i) == 0);
}

LL_PROP(Image, IsInjectiveWithTheSameImage, kCases, (const LinearLayout &l)) {
  LinearLayout im = l.image(DimName::get("image"));
  RC_ASSERT(im.isInjective());
  RC_ASSERT(sameDims(im.outDims(), l.outDims()));
  RC_ASSERT(bf::image(bf::Ref(im)) == bf::image(bf::Ref(l)));
  RC_ASSERT(int(l.imageBasis().size()) == l.rank());
}

LL_PROP(FreeVariableMasks, MarkBitsDependentOnLowerBits, kCases, (const LinearLayout &l)) {
  bf::Ref r(l);
  std::vector<uint64_t> free = masksOf(l.freeVariableMasks());
  RC_ASSERT(free.size() == r.inNames.size());
  int base = 0, count = 0;
  for (size_t d = 0; d < r.inNames.size(); ++d) {
    for (int i = 0; i < r.inBits[d]; ++i) {
      // Free exactly when its output is reached by the packed bits below it.
      std::set<bf::Coords> lower;
      for (const bf::Coords &x : inputsBelow(r, base + i))
        lower.insert(r.eval(x));
      bool dependent = lower.count(r.eval(unitInput(r, int(d), i))) > 0;
      RC_ASSERT((((free[d] >> i) & 1) != 0) == dependent);
      count += dependent;
    }
    RC_ASSERT((free[d] >> r.inBits[d]) == 0);
    base += r.inBits[d];
  }
  // As many free bits as the nullity; the other bits alone reach the whole image.
  RC_ASSERT(count == l.totalInBits() - l.rank());
  std::set<bf::Coords> pivotsOnly;
  for (const bf::Coords &x : inputsBelow(r, 64, &free))
    pivotsOnly.insert(r.eval(x));
  RC_ASSERT(pivotsOnly == bf::image(r));
  // Zero bases are always free.
  std::vector<uint64_t> zero = masksOf(l.zeroBasisMasks());
  for (size_t d = 0; d < zero.size(); ++d)
    RC_ASSERT((zero[d] & ~free[d]) == 0);
}

LL_PROP(ZeroBasisMasks, AreExactlyTheBitsThatNeverChangeTheOutput, kCases,
        (const LinearLayout &l)) {
  bf::Ref r(l);
  std::vector<uint64_t> zero = masksOf(l.zeroBasisMasks());
  uint64_t seed = sampleSeed();
  for (size_t d = 0; d < r.inNames.size(); ++d)
    for (int i = 0; i < r.inBits[d]; ++i) {
      bool never = true;
      for (const bf::Coords &x : bf::inputs(r, seed)) {
        bf::Coords flipped = x;
        flipped[d] ^= uint64_t(1) << i;
        never = never && r.eval(flipped) == r.eval(x);
      }
      RC_ASSERT((((zero[d] >> i) & 1) != 0) == never);
    }
}

namespace {

// The largest k such that registers (first in dim) 0..2^k-1 hold elements 0..2^k-1 of the first
// out dim (and 0 elsewhere), and no other input bit moves the low k bits of that out dim: the
// widest aligned vector of consecutive elements.
uint64_t consecutiveByEnumeration(const LinearLayout &l) {
  bf::Ref r(l);
  if (r.inNames.empty() || r.outNames.empty())
    return 1;
  int best = 0;
  int maxK = std::min(r.inBits[0], r.totalOutBits());
  for (int k = 1; k <= maxK; ++k) {
    if ((uint64_t(1) << k) > r.outSizes[0])
      break;
    bool ok = true;
    for (uint64_t v = 0; v < (uint64_t(1) << k) && ok; ++v) {
      bf::Coords x(r.inNames.size(), 0);
      x[0] = v;
      bf::Coords want(r.outNames.size(), 0);
      want[0] = v;
      ok = r.eval(x) == want;
    }
    for (const bf::Coords &x : bf::points(r.inBits, 0, 64)) {
      if (!ok)
        break;
      if (x[0] & ((uint64_t(1) << k) - 1))
        continue;
      ok = (r.eval(x)[0] & ((uint64_t(1) << k) - 1)) == 0;
    }
    if (!ok)
      break;
    best = k;
  }
  return uint64_t(1) << best;
}

} // namespace

LL_PROP(NumConsecutiveInOut, IsTheWidestAlignedVector, kCases, (const LinearLayout &l)) {
  RC_ASSERT(l.numConsecutiveInOut() == consecutiveByEnumeration(l));
}

LL_PROP(NumConsecutiveInOut, OnDistributedLayouts, kCases, (const Distributed &d)) {
  RC_ASSERT(d.layout.numConsecutiveInOut() == consecutiveByEnumeration(d.layout));
}

namespace {

// Whether in `l`, inputs 0..2^k-1 of `in` map to 0..2^k-1 along out dim `out`, 0 elsewhere.
bool unitRun(const LinearLayout &l, DimName in, DimName out, int k) {
  bf::Ref r(l);
  int d = l.inDimIndex(in), o = l.outDimIndex(out);
  if (d < 0 || o < 0 || k > r.inBits[d] || (uint64_t(1) << k) > r.outSizes[o])
    return false;
  for (uint64_t v = 0; v < (uint64_t(1) << k); ++v) {
    bf::Coords x(r.inNames.size(), 0);
    x[d] = v;
    bf::Coords want(r.outNames.size(), 0);
    want[o] = v;
    if (r.eval(x) != want)
      return false;
  }
  return true;
}

} // namespace

LL_PROP(CommonIdentityPrefix, IsTheLongestSharedUnitRun, kCases, ()) {
  SameOutputsPair p = *rc::gen::oneOf(distributedPair(), sameOutputsPair());
  DimName in = *rc::gen::elementOf(inNamePool());
  int got = LinearLayout::commonIdentityPrefix(p.a, p.b, in);
  int want = 0;
  for (int k = 1; k <= 16; ++k) {
    bool any = false;
    for (DimName out : p.a.outDimNames())
      any = any || (unitRun(p.a, in, out, k) && unitRun(p.b, in, out, k));
    if (!any)
      break;
    want = k;
  }
  RC_ASSERT(got == want);
}
