// LL_PROP: a rapidcheck property as a Google Test that runs at least kMinCases cases (more when
// RC_PARAMS asks for more); the seed and other settings still come from RC_PARAMS.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <sstream>

namespace linlayout::testing {

constexpr int kMinCases = 1000;

template <typename Testable> void checkAtLeast(Testable &&testable) {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(params.maxSuccess, kMinCases);
  auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream ss;
    rc::detail::printResultMessage(result, ss);
    FAIL() << ss.str();
  }
}

} // namespace linlayout::testing

#define LL_PROP(Suite, Name, ArgList)                                                              \
  void llProp_##Suite##_##Name ArgList;                                                            \
  TEST(Suite, Name) { ::linlayout::testing::checkAtLeast(&llProp_##Suite##_##Name); }              \
  void llProp_##Suite##_##Name ArgList
