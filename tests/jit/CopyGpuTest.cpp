// memcpy 1-D and 2-D, and the 2-D copy between tensors of opposite strides (two layouts and one
// convert), on the GPU: poisoned outputs, fresh random inputs, bit-exact results, and nothing
// written outside what the kernel owns.
#include "GpuTestSupport.h"
#include "kernels/TileKernels.h"

using namespace linlayout;
using namespace linlayout::gpukernels;
using ir::ScalarKind;

namespace {

constexpr uint8_t kPoison = 0xa5;

} // namespace

TEST(CopyGpu, Memcpy1dEveryWidthAndVectorLeavesTheTailAlone) {
  REQUIRE_GPU();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (ScalarKind elem : {ScalarKind::I8, ScalarKind::F16, ScalarKind::F32})
    for (int64_t spt : {1, 4, 8}) {
      int bytes = ir::byteWidth(elem);
      int64_t block = spt * 128 * 2; // two repeats of the layout per program
      SCOPED_TRACE(std::string(ir::name(elem)) + " spt " + std::to_string(spt));
      ASSERT_OK_AND_ASSIGN(ir::Module m, memcpy1d(elem, block, spt, 4));
      ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(m, gputest::asBuilt()));
      // n is not a multiple of the block (the last program is masked) but a multiple of 16, as
      // the kernel's divisibility hint on n promises.
      int64_t n = block * 37 + 112;
      int64_t cap = (n / block + 1) * block;
      auto in = gputest::randomBytes(rng, size_t(cap * bytes));
      ASSERT_OK_AND_ASSIGN(auto src, runtime::DeviceBuffer::fromHost<uint8_t>(in));
      ASSERT_OK_AND_ASSIGN(auto dst, runtime::DeviceBuffer::allocate(size_t(cap * bytes)));
      ASSERT_OK(dst.fill(kPoison));
      ASSERT_OK(k->launch({unsigned((n + block - 1) / block)}, src, dst, int32_t(n)));
      ASSERT_OK(jitc->context().synchronize());
      ASSERT_OK_AND_ASSIGN(auto out, dst.toHost<uint8_t>());
      for (int64_t i = 0; i < cap * bytes; ++i)
        ASSERT_EQ(out[i], i < n * bytes ? in[i] : kPoison) << "byte " << i << " of " << n * bytes;
    }
}

TEST(CopyGpu, Memcpy2dInSeveralLayouts) {
  REQUIRE_GPU();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int64_t rows = 512, cols = 768, ld = 1024; // the row stride leaves a gap that must stay
  std::vector<LayoutSpec> layouts{
      blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}), blocked({1, 8}, {2, 16}, {2, 2}, {1, 0}),
      blocked({4, 1}, {8, 4}, {1, 4}, {0, 1}), blocked({1, 1}, {32, 1}, {4, 1}, {0, 1})};
  for (ScalarKind elem : {ScalarKind::F16, ScalarKind::F32})
    for (size_t li = 0; li < layouts.size(); ++li) {
      SCOPED_TRACE(std::string(ir::name(elem)) + " layout " + std::to_string(li));
      ASSERT_OK_AND_ASSIGN(ir::Module m, memcpy2d(elem, 64, 64, layouts[li], 4));
      ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(m, gputest::asBuilt()));
      int bytes = ir::byteWidth(elem);
      auto in = gputest::randomBytes(rng, size_t(rows * ld * bytes));
      ASSERT_OK_AND_ASSIGN(auto src, runtime::DeviceBuffer::fromHost<uint8_t>(in));
      ASSERT_OK_AND_ASSIGN(auto dst, runtime::DeviceBuffer::allocate(in.size()));
      ASSERT_OK(dst.fill(kPoison));
      ASSERT_OK(k->launch({unsigned(rows / 64), unsigned(cols / 64)}, src, dst, int32_t(ld)));
      ASSERT_OK(jitc->context().synchronize());
      ASSERT_OK_AND_ASSIGN(auto out, dst.toHost<uint8_t>());
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < ld * bytes; ++c) {
          size_t i = size_t(r * ld * bytes + c);
          ASSERT_EQ(out[i], c < cols * bytes ? in[i] : kPoison) << "row " << r << " byte " << c;
        }
    }
}

TEST(CopyGpu, TransposedCopyWithTwoLayoutsAndOneConvert) {
  REQUIRE_GPU();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  // The layout tutorial's pair: rows of the input, columns of the output, one per lane.
  LayoutSpec lin = blocked({1, 1}, {1, 32}, {1, 4}, {1, 0});
  LayoutSpec lout = blocked({1, 1}, {32, 1}, {4, 1}, {0, 1});
  LayoutSpec linV = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0});
  LayoutSpec loutV = blocked({4, 1}, {8, 4}, {1, 4}, {0, 1});
  struct Case {
    LayoutSpec in, out;
  };
  std::vector<Case> cases{{lin, lout}, {linV, loutV}};
  const int64_t xn = 1008, yn = 528; // not multiples of the tile (masked edges), of 16 (hints)
  for (ScalarKind elem : {ScalarKind::F16, ScalarKind::F32})
    for (size_t ci = 0; ci < cases.size(); ++ci) {
      SCOPED_TRACE(std::string(ir::name(elem)) + " case " + std::to_string(ci));
      ASSERT_OK_AND_ASSIGN(ir::Module m,
                           copy2dInOut(elem, 128, 128, cases[ci].in, cases[ci].out, 4));
      ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(m, gputest::asBuilt()));
      ASSERT_EQ(k->metadata().conversions.size(), 1u);
      int bytes = ir::byteWidth(elem);
      // in is row-major (strides yn, 1); out is column-major (strides 1, xn).
      auto in = gputest::randomBytes(rng, size_t(xn * yn * bytes));
      ASSERT_OK_AND_ASSIGN(auto src, runtime::DeviceBuffer::fromHost<uint8_t>(in));
      ASSERT_OK_AND_ASSIGN(auto dst, runtime::DeviceBuffer::allocate(in.size() + 256));
      ASSERT_OK(dst.fill(kPoison));
      ASSERT_OK(k->launch({unsigned((xn + 127) / 128), unsigned((yn + 127) / 128)}, src, dst,
                          int32_t(xn), int32_t(yn), int32_t(yn), int32_t(1), int32_t(1),
                          int32_t(xn)));
      ASSERT_OK(jitc->context().synchronize());
      ASSERT_OK_AND_ASSIGN(auto out, dst.toHost<uint8_t>());
      for (int64_t x = 0; x < xn; ++x)
        for (int64_t y = 0; y < yn; ++y)
          for (int b = 0; b < bytes; ++b)
            ASSERT_EQ(out[size_t((y * xn + x) * bytes + b)], in[size_t((x * yn + y) * bytes + b)])
                << "element (" << x << ", " << y << ")";
      for (size_t i = in.size(); i < out.size(); ++i)
        ASSERT_EQ(out[i], kPoison) << "written past the end at byte " << i;
    }
}
