// Runs a rapidcheck property as part of a gtest, with at least `cases` cases (RC_PARAMS may ask for
// more): the layout tests' runner (../layout/GTestProperty.h), with the case count last.
#pragma once

#include "../layout/GTestProperty.h"

#include <utility>

namespace linlayout::lower::testing {

template <typename Testable> void checkProperty(Testable &&testable, int cases = 1000) {
  linlayout::testing::checkProperty(cases, std::forward<Testable>(testable));
}

} // namespace linlayout::lower::testing
