// Runs a rapidcheck property as part of a gtest, with at least `cases` cases (RC_PARAMS may ask for
// more).
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <sstream>

namespace linlayout::lower::testing {

template <typename Testable> void checkProperty(Testable &&testable, int cases = 1000) {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(params.maxSuccess, cases);
  auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream ss;
    rc::detail::printResultMessage(result, ss);
    ADD_FAILURE() << ss.str();
  }
}

} // namespace linlayout::lower::testing
