// wgmma on the GPU (sm_90 only): every operand form of the lowering (NVMMA swizzles of 32, 64 and
// 128 bytes and unswizzled, B N-major and K-major, A from shared memory and from registers, one
// and two warp groups, synchronous and asynchronous, f16 / bf16 / tf32, the useC flag) on one
// tile, against a double-precision reference.
#include "GpuTestSupport.h"
#include "kernels/TileKernels.h"

#include <Eigen/Core>

#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

using namespace linlayout;
using namespace linlayout::gpukernels;
using ir::ScalarKind;

namespace {

template <typename Half> void runTile(jit::Compiler &jitc, const WgmmaTileCase &c) {
  SCOPED_TRACE(c.name());
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ASSERT_OK_AND_ASSIGN(ir::Module m, wgmmaTileKernel(c));
  ASSERT_OK_AND_ASSIGN(auto k, jitc.compile(m, gputest::asBuilt()));
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<Half> a(size_t(c.m * c.k)), b(size_t(c.k * c.n));
  // f32 inputs as tf32 values (10 mantissa bits), which the tensor cores multiply exactly.
  auto draw = [&] {
    float x = d(rng);
    if constexpr (std::is_same_v<Half, float>)
      x = std::bit_cast<float>(std::bit_cast<uint32_t>(x) & 0xffffe000u);
    return Half(x);
  };
  for (Half &x : a)
    x = draw();
  for (Half &x : b)
    x = draw();
  ASSERT_OK_AND_ASSIGN(auto da, runtime::DeviceBuffer::fromHost<Half>(a));
  ASSERT_OK_AND_ASSIGN(auto db, runtime::DeviceBuffer::fromHost<Half>(b));
  ASSERT_OK_AND_ASSIGN(auto dc, runtime::DeviceBuffer::allocate(size_t(c.m * c.n) * 4));
  ASSERT_OK(dc.fill(0xff));
  ASSERT_OK(k->launch({1}, da, db, dc));
  ASSERT_OK(jitc.context().synchronize());
  ASSERT_OK_AND_ASSIGN(auto out, dc.template toHost<float>());
  double err = 0, norm = 0;
  for (int64_t i = 0; i < c.m; ++i)
    for (int64_t j = 0; j < c.n; ++j) {
      double ref = c.useC.value_or(false) ? 1.0 : 0.0; // the accumulator's ones, where added
      for (int64_t kk = 0; kk < c.k; ++kk)
        ref += double(float(a[size_t(i * c.k + kk)])) * double(float(b[size_t(kk * c.n + j)]));
      float got = out[size_t(i * c.n + j)];
      ASSERT_FALSE(std::isnan(got)) << "C(" << i << ", " << j << ") not written";
      err += (got - ref) * (got - ref);
      norm += ref * ref;
    }
  double rel = std::sqrt(err / norm);
  std::cout << "[          ] wgmma " << c.name() << ": |out - ref| / |ref| = " << rel << "\n";
  EXPECT_LT(rel, 1e-5); // f32 accumulation of exact products
}

} // namespace

TEST(WgmmaGpu, EveryOperandFormComputesTheTile) {
  REQUIRE_GPU();
  if (jitc->context().computeCapability() != 90)
    GTEST_SKIP() << "wgmma needs an sm_90 GPU, this one is sm_"
                 << jitc->context().computeCapability();
  for (const WgmmaTileCase &c : wgmmaTileCases()) {
    if (c.elem == ScalarKind::F16)
      runTile<Eigen::half>(*jitc, c);
    else if (c.elem == ScalarKind::BF16)
      runTile<Eigen::bfloat16>(*jitc, c);
    else
      runTile<float>(*jitc, c);
  }
}
