// PLAN_PROP: a rapidcheck property over a random seed, run as a GoogleTest test with at least
// `MinCases` cases (RC_PARAMS may ask for more; its seed and reproduce strings still apply). The
// conversion properties draw whole layouts from the seed (RandomLayouts.h), so a failure reports
// the seed that rebuilds the case.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <string>

namespace linlayout::testing {

template <typename Testable> void checkPlanProperty(int minCases, Testable &&testable) {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::max(params.maxSuccess, minCases);
  auto result = rc::detail::checkProperty(rc::detail::toProperty(std::forward<Testable>(testable)),
                                          metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream ss;
    rc::detail::printResultMessage(result, ss);
    FAIL() << ss.str();
  }
}

} // namespace linlayout::testing

#define PLAN_PROP(Suite, Name, MinCases)                                                           \
  void planPropImpl_##Suite##_##Name(uint64_t seed);                                               \
  TEST(Suite, Name) {                                                                              \
    ::linlayout::testing::checkPlanProperty(                                                       \
        MinCases, [] { planPropImpl_##Suite##_##Name(*rc::gen::arbitrary<uint64_t>()); });         \
  }                                                                                                \
  void planPropImpl_##Suite##_##Name(uint64_t seed)
