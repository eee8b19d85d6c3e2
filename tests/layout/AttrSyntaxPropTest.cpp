// parse ∘ print is the identity on specs of every family, written directly or through a dump's
// aliases; printing is stable.
#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/testing/Generators.h"

#include "GTestProperty.h"
#include "SpecGen.h"

using namespace linlayout;
using namespace linlayout::testing;

namespace {

CgaLayout anyCga(int rank) {
  return *rc::gen::arbitrary<bool>() ? *cgaLayout(rank, 2, true) : *legacyCgaLayout(rank);
}

BlockedSpec anyBlocked(int rank) {
  BlockedSpec b = *blockedSpec(rank, false);
  return ok(BlockedSpec::make(b.sizePerThread(), b.threadsPerWarp(), b.warpsPerCta(), b.order(),
                              anyCga(rank)));
}

NvidiaMmaSpec anyMma(int rank, bool hopper) {
  NvidiaMmaSpec m = *nvidiaMmaSpec(rank, hopper);
  return ok(NvidiaMmaSpec::make(m.versionMajor(), m.versionMinor(), m.warpsPerCta(), m.instrShape(),
                                anyCga(m.rank())));
}

// One of 0..n-1, uniformly at every rapidcheck size (families should not depend on the size).
int pick(int n) { return *rc::gen::resize(100, rc::gen::inRange(0, n)); }

// A distributed spec of rank >= 2 (a parent for slices). No rejection loops: rapidcheck's small
// sizes would draw the same rejected value forever.
LayoutSpec anyParent(int depth) {
  int rank = *rc::gen::inRange(2, 4);
  switch (pick(depth > 0 ? 8 : 7)) {
  case 5: { // AMD MFMA, or a dot operand of one
    LayoutSpec p(*amdMfmaSpec(rank));
    return *rc::gen::arbitrary<bool>() ? p : dot(p, *rc::gen::inRange(0, 2), int(*pow2In(0, 5)));
  }
  case 6: { // AMD WMMA, or a dot operand of one
    AmdWmmaSpec w = *amdWmmaSpec(rank);
    LayoutSpec p(w);
    return *rc::gen::arbitrary<bool>() ? p
                                       : dot(p, *rc::gen::inRange(0, 2), *kWidthFor(LayoutSpec(w)));
  }
  case 0:
    return anyBlocked(rank);
  case 1:
    return anyMma(rank, false);
  case 2:
    return anyMma(rank, true);
  case 3: {
    bool hopper = *rc::gen::arbitrary<bool>();
    int op = hopper ? 0 : *rc::gen::inRange(0, 2);
    return dot(LayoutSpec(anyMma(rank, hopper)), op, int(*pow2In(0, 4)));
  }
  case 4:
    return dot(LayoutSpec(anyBlocked(rank)), *rc::gen::inRange(0, 2), 0); // FMA: no k_width
  default: {
    // A slice of a rank-3 parent has rank 2: slices of slices.
    LayoutSpec p =
        *rc::gen::arbitrary<bool>() ? LayoutSpec(anyBlocked(3)) : LayoutSpec(anyMma(3, false));
    if (depth > 1 && *rc::gen::arbitrary<bool>()) {
      bool hopper = *rc::gen::arbitrary<bool>();
      p = dot(LayoutSpec(anyMma(3, hopper)), hopper ? 0 : *rc::gen::inRange(0, 2), 2);
    }
    return slice(p, *rc::gen::inRange(0, 3));
  }
  }
}

LayoutSpec anySpec() {
  int rank = *rc::gen::inRange(2, 4);
  switch (pick(10)) {
  case 0:
    return anyBlocked(*rc::gen::inRange(1, 4));
  case 1:
    return anyParent(2);
  case 2:
    return ok(SwizzledSharedSpec::make(*pow2In(0, 3), *pow2In(0, 3), *pow2In(0, 3),
                                       *permutationOf(rank), anyCga(rank)));
  case 3: {
    int64_t swizzle = *rc::gen::element<int64_t>(0, 32, 64, 128);
    int64_t bits = *rc::gen::element<int64_t>(8, 16, 32);
    bool fp4 = swizzle == 128 && bits == 8 && *rc::gen::arbitrary<bool>();
    return ok(
        NvmmaSharedSpec::make(swizzle, bits, rank, *rc::gen::arbitrary<bool>(), fp4, anyCga(rank)));
  }
  case 4:
    return LayoutSpec(*linearSpec());
  case 5:
    return LayoutSpec(*sharedLinearSpec());
  case 6:
    return LayoutSpec(*paddedSharedSpec(*rc::gen::inRange(1, 4)));
  case 7:
    return LayoutSpec(*tensorMemorySpec());
  case 8:
    return LayoutSpec(*tensorMemoryScalesSpec());
  default: {
    LayoutSpec parent = anyParent(2);
    return slice(parent, *rc::gen::inRange(0, parent.rank()));
  }
  }
}

AttrParseOptions rankOf(const LayoutSpec &s) {
  AttrParseOptions o;
  o.rank = s.rank();
  return o;
}

} // namespace

LL_PROP(AttrSyntaxProps, ParseOfPrintIsTheSpec, 1000, ()) {
  LayoutSpec s = anySpec();
  RC_TAG(std::string(kindName(s.kind())));
  std::string text = printLayoutAttr(s);
  RC_LOG() << text << "\n";
  auto back = parseLayoutAttr(text, {}, rankOf(s));
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == s);
  RC_ASSERT(printLayoutAttr(*back) == text);
}

LL_PROP(AttrSyntaxProps, ParentsReadThroughAliasesAreTheSame, 1000, ()) {
  LayoutSpec parent = anyParent(2);
  int dim = *rc::gen::inRange(0, parent.rank());
  LayoutSpec s = slice(parent, dim);
  std::string dump = "#parent = " + printLayoutAttr(parent) + "\n#loc = loc(unknown)\n";
  auto aliases = parseAttrAliases(dump);
  RC_ASSERT(aliases.ok());
  auto back = parseLayoutAttr("#ttg.slice<{dim = " + std::to_string(dim) + ", parent = #parent}>",
                              *aliases);
  RC_ASSERT(back.ok());
  RC_ASSERT(*back == s);
}

// Any prefix of a valid attribute is an error (never a crash, never a different layout).
LL_PROP(AttrSyntaxProps, TruncatedTextIsAnError, 1000, ()) {
  std::string text = printLayoutAttr(anySpec());
  size_t cut = size_t(*rc::gen::inRange<size_t>(0, text.size()));
  RC_ASSERT(!parseLayoutAttr(text.substr(0, cut)).ok());
}
