// Helpers of the GPU tests: one compiler per process (skipping, with the reason, where there is no
// GPU), checked CUDA calls, fresh random inputs with their seed in every failure message.
#pragma once

#include "linlayout/jit/Compiler.h"
#include "linlayout/runtime/DeviceBuffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace linlayout::gputest {

/// The process's compiler for device 0, or nullptr with `why` set.
inline jit::Compiler *compiler(std::string *why) {
  static std::string reason;
  static auto c = [] {
    auto r = jit::Compiler::create(0);
    if (!r.ok())
      reason = r.message();
    return r.ok() ? std::make_unique<jit::Compiler>(std::move(*r)) : nullptr;
  }();
  if (why)
    *why = reason;
  return c.get();
}

/// Compile options for the tests' kernels: lowered as built (their layouts are what a test checks
/// or a benchmark measures), without the IR pass pipeline.
inline jit::CompileOptions asBuilt() {
  jit::CompileOptions o;
  o.runPasses = false;
  return o;
}

/// A fresh seed, printed by SCOPED_TRACE in the test that uses it.
inline uint64_t freshSeed() {
  return (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
}

/// Random bytes.
inline std::vector<uint8_t> randomBytes(std::mt19937_64 &rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i += 8) {
    uint64_t x = rng();
    std::memcpy(v.data() + i, &x, std::min<size_t>(8, n - i));
  }
  return v;
}

} // namespace linlayout::gputest

#define REQUIRE_GPU()                                                                              \
  std::string gpu_why_;                                                                            \
  jit::Compiler *jitc = ::linlayout::gputest::compiler(&gpu_why_);                                 \
  if (!jitc)                                                                                       \
  GTEST_SKIP() << "no GPU here: " << gpu_why_

/// Asserts that an Expected or Status is ok, printing its message.
#define ASSERT_OK(expr)                                                                            \
  do {                                                                                             \
    auto &&ll_ok_ = (expr);                                                                        \
    ASSERT_TRUE(ll_ok_.ok()) << #expr << ": " << ll_ok_.message();                                 \
  } while (0)

/// `ASSERT_OK_AND_ASSIGN(auto x, expr)`.
#define ASSERT_OK_AND_ASSIGN(decl, expr)                                                           \
  auto LL_CONCAT(ll_ok_tmp_, __LINE__) = (expr);                                                   \
  ASSERT_TRUE(LL_CONCAT(ll_ok_tmp_, __LINE__).ok())                                                \
      << #expr << ": " << LL_CONCAT(ll_ok_tmp_, __LINE__).message();                               \
  decl = std::move(LL_CONCAT(ll_ok_tmp_, __LINE__)).value()
