#include "linlayout/layout/LinearLayout.h"

#include <gtest/gtest.h>

using namespace linlayout;

TEST(LinearLayoutSmoke, IdentityAppliesToItself) {
  auto id = LinearLayout::identity1D(16, DimName::lane(), DimName::dim(0));
  ASSERT_TRUE(id.ok());
  for (uint64_t x = 0; x < 16; ++x)
    EXPECT_EQ(id->apply(x), x);
}
