// The public family generators (linlayout/testing/Families.h, SpecsWithShapes.h) draw only specs
// the library converts, over the shapes shapeFor draws, and anyFamily reaches every family.
#include "linlayout/testing/SpecsWithShapes.h"

#include "GTestProperty.h"

#include <set>

using namespace linlayout;
using namespace linlayout::testing;

namespace {

void expectConverts(const SpecWithShape &s) {
  RC_LOG() << s << "\n";
  auto l = toLinearLayout(s.spec, s.shape);
  if (!l.ok())
    RC_FAIL(l.message());
  RC_ASSERT(l->numOutDims() == int(s.shape.size()));
  for (size_t d = 0; d < s.shape.size(); ++d)
    RC_ASSERT(l->outDimSize(DimName::dim(int(d))) == uint64_t(s.shape[d]));
}

// Each case draws one spec of every family, so every family gets all the cases.
LL_PROP(FamiliesProps, EveryFamilyConvertsOverTheShapeDrawnForIt, 300, ()) {
  for (LayoutKind kind : allFamilies()) {
    SpecWithShape s = *familyWithShape(kind);
    RC_ASSERT(s.spec.kind() == kind);
    expectConverts(s);
  }
}

// The options familySpec leaves at their defaults: no CTA split, no broadcast, rank 3 Hopper.
LL_PROP(FamiliesProps, GeneratorOptionsConvertToo, 300, ()) {
  int rank = *rc::gen::inRange(2, 4);
  LayoutSpec specs[] = {*blockedSpec(rank, false),        *blockedSpec(rank, true, false),
                        *nvidiaMmaSpec(rank, false),      *nvidiaMmaSpec(rank, true),
                        *amdMfmaSpec(rank, false),        *amdWmmaSpec(rank, false),
                        *swizzledSharedSpec(rank, false), *nvmmaSharedSpec(rank, false),
                        *paddedSharedSpec(rank, 6, false)};
  for (const LayoutSpec &spec : specs)
    expectConverts({spec, *shapeFor(spec)});
}

LL_PROP(FamiliesProps, AnyFamilyConverts, 300, ()) {
  SpecWithShape s = *anyFamily();
  RC_TAG(std::string(kindName(s.spec.kind())));
  expectConverts(s);
}

// A find-an-example test: a few hundred draws of anyFamily, at every rapidcheck size, hold each
// family (and the options a family generator picks among: Hopper, dot operands of every parent,
// slices of slices).
TEST(FamiliesProps, AnyFamilyReachesEveryFamily) {
  rc::Random random(20261203);
  std::set<LayoutKind> kinds;
  bool hopper = false, amdOperand = false, sliceOfSlice = false;
  for (int i = 0; i < 600; ++i) {
    SpecWithShape s = anyFamily()(random.split(), i % 101).value();
    kinds.insert(s.spec.kind());
    if (const auto *m = s.spec.as<NvidiaMmaSpec>())
      hopper = hopper || m->versionMajor() == 3;
    if (const auto *d = s.spec.as<DotOperandSpec>())
      amdOperand = amdOperand || d->parent().as<AmdMfmaSpec>() || d->parent().as<AmdWmmaSpec>();
    if (const auto *sl = s.spec.as<SliceSpec>())
      sliceOfSlice = sliceOfSlice || sl->parent().as<SliceSpec>();
  }
  for (LayoutKind kind : allFamilies())
    EXPECT_TRUE(kinds.count(kind)) << "anyFamily never drew " << kindName(kind);
  EXPECT_TRUE(hopper);
  EXPECT_TRUE(amdOperand);
  EXPECT_TRUE(sliceOfSlice);
}

} // namespace
