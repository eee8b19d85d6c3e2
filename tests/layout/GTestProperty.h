// (Test-only: testing/ must not depend on GoogleTest.)
// LL_PROP: a rapidcheck property as a GoogleTest test that runs at least a given number of cases
// (rapidcheck's default is 100, settable only through RC_PARAMS). RC_PARAMS still applies: its
// max_success is used when larger, and its seed and reproduce strings work as usual.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>

namespace linlayout::testing {

/// Checks `testable` as the current GoogleTest test with rapidcheck's `params` as given (for a
/// property whose cases are too costly for rapidcheck's default count).
template <typename Testable>
void checkPropertyWith(const rc::detail::TestParams &params, Testable &&testable) {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  auto result = rc::detail::checkProperty(rc::detail::toProperty(std::forward<Testable>(testable)),
                                          metadata, params);
  if (result.template is<rc::detail::SuccessResult>()) {
    if (!result.template get<rc::detail::SuccessResult>().distribution.empty())
      rc::detail::printResultMessage(result, std::cout);
    return;
  }
  {
    std::ostringstream ss;
    rc::detail::printResultMessage(result, ss);
    FAIL() << ss.str();
  }
}

/// Checks `testable` as the current GoogleTest test with at least `minCases` successful cases.
/// Ensures: the test fails (with rapidcheck's counterexample) exactly when the property fails.
template <typename Testable> void checkProperty(int minCases, Testable &&testable) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(params.maxSuccess, minCases);
  checkPropertyWith(params, std::forward<Testable>(testable));
}

} // namespace linlayout::testing

/// Defines a property test with at least `MinCases` cases:
///   LL_PROP(Compose, IsAssociative, 1000, (const ComposableTriple &t)) { RC_ASSERT(...); }
#define LL_PROP(Suite, Name, MinCases, ArgList)                                                    \
  void llPropImpl_##Suite##_##Name ArgList;                                                        \
  TEST(Suite, Name) {                                                                              \
    ::linlayout::testing::checkProperty(MinCases, &llPropImpl_##Suite##_##Name);                   \
  }                                                                                                \
  void llPropImpl_##Suite##_##Name ArgList
