// Uses the installed linlayout: builds and inverts a layout, then checks a law with the shipped
// generators (of layouts and of every hardware family). Exits 0 when all is well.
#include <linlayout/layout/LinearLayout.h>
#include <linlayout/testing/Generators.h>
#include <linlayout/testing/SpecsWithShapes.h>

#include <rapidcheck.h>

#include <iostream>

using namespace linlayout;

int main() {
  auto lanes = LinearLayout::identity1D(32, DimName::lane(), DimName::dim(0));
  auto regs = LinearLayout::identity1D(4, DimName::reg(), DimName::dim(0));
  if (!lanes.ok() || !regs.ok())
    return 1;
  auto tile = *regs * *lanes; // 4 consecutive elements per lane
  if (!tile.ok() || tile->numConsecutiveInOut() != 4)
    return 1;
  auto inv = tile->invert();
  if (!inv.ok() || inv->apply(tile->apply(77)) != 77)
    return 1;
  std::cout << *tile << "\n";

  bool ok = rc::check("invert undoes an invertible layout", [](const testing::Invertible &l) {
    auto i = l.layout.invert();
    RC_ASSERT(i.ok());
    uint64_t n =
        l.layout.totalInBits() >= 64 ? ~uint64_t(0) : (uint64_t(1) << l.layout.totalInBits()) - 1;
    uint64_t x = *rc::gen::inRange<uint64_t>(0, n == ~uint64_t(0) ? n : n + 1);
    RC_ASSERT(i->apply(l.layout.apply(x)) == x);
  });
  ok = ok && rc::check("distributed layouts are surjective",
                       [](const testing::Distributed &d) { RC_ASSERT(d.layout.isSurjective()); });
  ok = ok && rc::check("every family converts over the shape drawn for it", [] {
         testing::SpecWithShape s = *testing::anyFamily();
         RC_ASSERT(toLinearLayout(s.spec, s.shape).ok());
       });
  return ok ? 0 : 1;
}
