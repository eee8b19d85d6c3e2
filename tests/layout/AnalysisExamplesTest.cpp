// Named examples for the analyses: free variables, zero bases, consecutive elements, identity
// prefixes, image containment, rank, kernel and image.
#include "ExampleUtil.h"
#include "linlayout/layout/LinearLayout.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::testing;

TEST(NumConsecutiveInOut, CountsUnitStepsOfTheFirstOutDim) {
  // register bits 0,1 step dim0 by 1, 2; bit 2 goes to dim1: 4 consecutive elements.
  LinearLayout l = make({{reg(), {{1, 0}, {2, 0}, {0, 1}}}, {lane(), {{4, 0}, {8, 0}}}},
                        {{d0(), 16}, {d1(), 2}});
  EXPECT_EQ(l.numConsecutiveInOut(), 4u);
}

TEST(NumConsecutiveInOut, OtherBasesTouchingLowBitsCutTheRun) {
  // lane bit 0 lands on dim0's bit 1: only 2 elements in a row belong to one register run.
  LinearLayout l = make({{reg(), {{1, 0}, {2, 0}}}, {lane(), {{2, 1}}}}, {{d0(), 4}, {d1(), 2}});
  EXPECT_EQ(l.numConsecutiveInOut(), 2u);
}

TEST(NumConsecutiveInOut, UnitStepMustStayInsideTheFirstOutDim) {
  // Regression: packed column 2 = (0, 1) is bit 1 of the packed output, which is dim1's bit 0,
  // not a step of dim0 (size 2). Triton answers 2 here (a run of 2 along dim0).
  LinearLayout l = make({{reg(), {{1, 0}, {0, 1}}}}, {{d0(), 2}, {d1(), 2}});
  EXPECT_EQ(l.numConsecutiveInOut(), 2u);
  // A size-1 first out dim holds no run at all.
  LinearLayout m = make({{reg(), {{0, 1}, {0, 1}}}}, {{d0(), 1}, {d1(), 2}});
  EXPECT_EQ(m.numConsecutiveInOut(), 1u);
}

TEST(NumConsecutiveInOut, EmptyAndBroadcastLayoutsHoldOneElement) {
  EXPECT_EQ(LinearLayout::empty().numConsecutiveInOut(), 1u);
  EXPECT_EQ(LinearLayout::zeros1D(8, reg(), d0(), 8)->numConsecutiveInOut(), 1u);
  EXPECT_EQ(LinearLayout::identity1D(8, reg(), d0())->numConsecutiveInOut(), 8u);
}
