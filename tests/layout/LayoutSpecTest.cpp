#include "linlayout/layout/LayoutSpec.h"

#include <gtest/gtest.h>

using namespace linlayout;

TEST(LayoutSpec, BlockedFactoryNamesTheMismatch) {
  auto b = BlockedSpec::make({1, 8}, {16, 2}, {1, 1}, {1, 0, 2});
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.message(), "blocked: size_per_thread has 2 entries but order has 3");
}

TEST(LayoutSpec, SliceHoldsItsParentByValue) {
  auto b = BlockedSpec::make({1, 8}, {16, 2}, {1, 1}, {1, 0});
  ASSERT_TRUE(b.ok());
  auto s = SliceSpec::make(0, LayoutSpec(*b));
  ASSERT_TRUE(s.ok());
  LayoutSpec a(*s), c = a;
  EXPECT_EQ(a, c);
  EXPECT_TRUE(a.isDistributed());
  EXPECT_EQ(a.rank(), 1);
  EXPECT_EQ(a.kind(), LayoutKind::Slice);
}
