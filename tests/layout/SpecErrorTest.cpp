// Every caller mistake a layout-spec factory or conversion reports: each returns an error (never
// crashes) whose message names the offending parameter.
#include "SpecTestUtil.h"

using namespace linlayout;
using namespace linlayout::testing;

namespace {

template <typename T> void expectError(const Expected<T> &r, const std::string &needle) {
  ASSERT_FALSE(r.ok()) << "expected an error mentioning '" << needle << "'";
  EXPECT_NE(r.message().find(needle), std::string::npos)
      << "message '" << r.message() << "' does not mention '" << needle << "'";
}

LayoutSpec someBlocked() { return blocked({1, 1}, {8, 4}, {1, 1}, {1, 0}); }
LayoutSpec someMma() { return mma(2, {1, 1}, {16, 8}); }

TEST(CgaLayoutErrors, FromBases) {
  expectError(CgaLayout::fromBases({}, 0), "rank 0");
  expectError(CgaLayout::fromBases({}, 9), "rank 9");
  expectError(CgaLayout::fromBases(std::vector<std::vector<int64_t>>(17, {0}), 1), "17 bases");
  expectError(CgaLayout::fromBases({{1}}, 2), "has 1 entries, expected the rank 2");
  expectError(CgaLayout::fromBases({{3, 0}}, 2), "entry 3");
  expectError(CgaLayout::fromBases({{-1, 0}}, 2), "entry -1");
  expectError(CgaLayout::fromBases({{0, 2}}, 2), "leave some CTA tiles");
}

TEST(CgaLayoutErrors, FromSplit) {
  expectError(CgaLayout::fromSplit(I64s{1}, I64s{1, 1}, I64s{1, 0}), "ctas_per_cga has 1 entries");
  expectError(CgaLayout::fromSplit(I64s{1, 1}, I64s{1}, I64s{1, 0}), "cta_split_num has 1");
  expectError(CgaLayout::fromSplit(I64s{}, I64s{}, I64s{}), "rank 0");
  expectError(CgaLayout::fromSplit(I64s{3, 1}, I64s{1, 1}, I64s{1, 0}), "ctas_per_cga[0] is 3");
  expectError(CgaLayout::fromSplit(I64s{2, 1}, I64s{0, 1}, I64s{1, 0}), "cta_split_num[0] is 0");
  expectError(CgaLayout::fromSplit(I64s{2, 1}, I64s{1, 1}, I64s{0, 0}), "cta_order");
  expectError(CgaLayout::fromSplit(I64s{2, 1}, I64s{4, 1}, I64s{1, 0}), "cta_split_num[0] is 4");
  expectError(CgaLayout::fromSplit(I64s{1 << 10, 1 << 10}, I64s{1, 1}, I64s{1, 0}),
              "more than 65536 CTAs");
}

TEST(BlockedErrors, Factory) {
  EXPECT_EQ(BlockedSpec::make({1, 8}, {16, 2}, {1, 1}, {1, 0, 2}).message(),
            "blocked: size_per_thread has 2 entries but order has 3");
  expectError(BlockedSpec::make({1, 1}, {16}, {1, 1}, {1, 0}), "threads_per_warp has 1");
  expectError(BlockedSpec::make({1, 1}, {16, 2}, {1}, {1, 0}), "warps_per_cta has 1");
  expectError(BlockedSpec::make({}, {}, {}, {}), "rank 0");
  expectError(BlockedSpec::make({3, 1}, {16, 2}, {1, 1}, {1, 0}), "size_per_thread[0] is 3");
  expectError(BlockedSpec::make({1, 1}, {16, 0}, {1, 1}, {1, 0}), "threads_per_warp[1] is 0");
  expectError(BlockedSpec::make({1, 1}, {16, 2}, {1, -4}, {1, 0}), "warps_per_cta[1] is -4");
  expectError(BlockedSpec::make({1, 1}, {16, 2}, {1, int64_t(1) << 40}, {1, 0}),
              "warps_per_cta[1]");
  expectError(BlockedSpec::make({1, 1}, {16, 2}, {1, 1}, {1, 1}), "order [1, 1]");
  expectError(BlockedSpec::make({1, 1}, {16, 2}, {1, 1}, {1, 0}, CgaLayout::single(3)),
              "cga_layout has rank 3");
}

TEST(NvidiaMmaErrors, Factory) {
  expectError(NvidiaMmaSpec::make(1, 0, {1, 1}, {16, 8}), "version [1, 0]");
  expectError(NvidiaMmaSpec::make(3, 1, {4, 1}, {16, 64, 16}), "version [3, 1] is not supported");
  EXPECT_TRUE(NvidiaMmaSpec::make(2, 1, {1, 1}, {16, 8}).ok()); // Turing
  expectError(NvidiaMmaSpec::make(2, 0, {}, {16, 8}), "rank 0");
  expectError(NvidiaMmaSpec::make(2, 0, {3, 1}, {16, 8}), "warps_per_cta[0] is 3");
  expectError(NvidiaMmaSpec::make(2, 0, {1}, {16, 8}), "version 2 needs rank 2 or 3");
  expectError(NvidiaMmaSpec::make(2, 0, {4, 1}, {16, 16}), "instr_shape is [16, 16]");
  EXPECT_TRUE(NvidiaMmaSpec::make(3, 0, {4, 1, 1}, {16, 64, 16}).ok()); // a batch of wgmma tiles
  expectError(NvidiaMmaSpec::make(3, 0, {4, 1, 1, 1}, {16, 64, 16}), "version 3 needs rank 2 or 3");
  expectError(NvidiaMmaSpec::make(3, 0, {4, 1}, {16, 24, 16}), "instr_shape is [16, 24, 16]");
  expectError(NvidiaMmaSpec::make(3, 0, {4, 1}, {16, 64}), "instr_shape is [16, 64]");
  expectError(NvidiaMmaSpec::make(3, 0, {2, 1}, {16, 64, 16}), "multiple of 4");
  expectError(NvidiaMmaSpec::make(2, 0, {1, 1}, {16, 8}, CgaLayout::single(3)),
              "cga_layout has rank 3");
}

TEST(DotOperandErrors, Factory) {
  expectError(DotOperandSpec::make(2, someMma(), 2), "operand_index is 2");
  expectError(DotOperandSpec::make(0, someMma(), 3), "k_width is 3");
  expectError(DotOperandSpec::make(0, someMma(), 0), "k_width is 0");
  expectError(DotOperandSpec::make(0, someMma(), 128), "k_width is 128");
  expectError(DotOperandSpec::make(1, mma(3, {4, 1}, {16, 64, 16}), 2), "operand_index is 1");
  expectError(DotOperandSpec::make(0, someBlocked(), 3), "k_width is 3");
  expectError(DotOperandSpec::make(1, someBlocked(), 2),
              "k_width is 2 with a blocked parent, expected 0");
  expectError(DotOperandSpec::make(0, slice(someBlocked(), 0), 2), "parent is a slice");
  expectError(DotOperandSpec::make(0, blocked({1}, {32}, {1}, {0}), 0), "parent has rank 1");
}

TEST(SliceErrors, Factory) {
  expectError(SliceSpec::make(0, swizzled(1, 1, 1, {1, 0})), "parent is a swizzled_shared");
  expectError(SliceSpec::make(0, blocked({1}, {32}, {1}, {0})), "parent has rank 1");
  expectError(SliceSpec::make(2, someBlocked()), "dim 2 is out of range");
  expectError(SliceSpec::make(-1, someBlocked()), "dim -1 is out of range");
}

TEST(SwizzledSharedErrors, Factory) {
  EXPECT_EQ(SwizzledSharedSpec::make(3, 1, 1, {1, 0}).message(),
            "swizzled_shared: vec is 3, expected a power of two between 1 and 1048576");
  expectError(SwizzledSharedSpec::make(1, 0, 1, {1, 0}), "per_phase is 0");
  expectError(SwizzledSharedSpec::make(1, 1, 6, {1, 0}), "max_phase is 6");
  expectError(SwizzledSharedSpec::make(1, 1, 1, {}), "rank 0");
  expectError(SwizzledSharedSpec::make(1, 1, 1, {0, 2}), "order [0, 2]");
  expectError(SwizzledSharedSpec::make(1, 1, 1, {1, 0}, CgaLayout::single(1)),
              "cga_layout has rank 1");
}

TEST(NvmmaSharedErrors, Factory) {
  EXPECT_EQ(NvmmaSharedSpec::make(48, 16, 2, false).message(),
            "nvmma_shared: swizzle_byte_width is 48, expected 0, 32, 64 or 128");
  expectError(NvmmaSharedSpec::make(128, 12, 2, false), "element_bitwidth is 12");
  expectError(NvmmaSharedSpec::make(128, 16, 0, false), "rank 0");
  expectError(NvmmaSharedSpec::make(64, 8, 2, false, true), "fp4_padded needs");
  expectError(NvmmaSharedSpec::make(128, 16, 2, false, false, CgaLayout::single(3)),
              "cga_layout has rank 3");
}

TEST(LinearSpecErrors, Factory) {
  expectError(LinearSpec::make({}, {}, {}, {}, {}), "rank 0");
  expectError(LinearSpec::make({}, {}, {}, {}, {3}), "shape[0] is 3");
  expectError(LinearSpec::make({}, {}, {}, {}, {int64_t(1) << 40, int64_t(1) << 40}),
              "more than 2^64");
  expectError(LinearSpec::make({{1, 0}}, {}, {}, {}, {2}), "reg_bases[0] [1, 0] has 2 entries");
  expectError(LinearSpec::make({{1}}, {{4}}, {}, {}, {4}), "lane_bases[0] [4] has entry 4");
  expectError(LinearSpec::make({{1}}, {{1}}, {}, {}, {4}), "do not reach every element");
}

TEST(SharedLinearSpecErrors, Factory) {
  expectError(SharedLinearSpec::make({}, {}), "offset_bases is empty");
  expectError(SharedLinearSpec::make({{}}, {}), "rank 0");
  expectError(SharedLinearSpec::make({{1}}, {}, 3), "alignment is 3");
  expectError(SharedLinearSpec::make({{1}, {2, 0}}, {}), "offset_bases[1]");
  expectError(SharedLinearSpec::make({{1}, {-2}}, {}), "has entry -2");
  expectError(SharedLinearSpec::make({{2}}, {}), "do not reach every element");
}

TEST(ToLinearLayoutErrors, Shapes) {
  expectError(toLinearLayout(someBlocked(), I64s{16}), "has rank 1, the layout has rank 2");
  expectError(toLinearLayout(someBlocked(), I64s{16, 48}), "dim1 has size 48");
  expectError(toLinearLayout(someBlocked(), I64s{16, 0}), "dim1 has size 0");
  expectError(toLinearLayout(someBlocked(), I64s{16, -16}), "dim1 has size -16");
  expectError(toLinearLayout(someBlocked(), I64s{int64_t(1) << 40, int64_t(1) << 40}),
              "more than 2^64");
  expectError(toLinearLayout(nvmma(128, 16), I64s{8, 32}), "swizzle row");
  expectError(toLinearLayout(nvmma(128, 16), I64s{4, 64}), "smaller than one swizzle tile");
  expectError(toLinearLayout(ok(SharedLinearSpec::make({{1}, {2}}, {})), I64s{8}),
              "differs from the layout's shape");
}

TEST(ToLinearLayoutErrors, LayoutsThatCannotBeCutToTheShape) {
  // As Triton 3.6: the largest bases are cut, one halving each, until a dim fits; bases that
  // repeat one another (two CTAs sharing a tile) can still point past the shape then.
  expectError(toLinearLayout(blocked({2}, {32}, {2}, {0}, {{1}, {1}}), I64s{1}),
              "cga_layout: the layout does not fit size 1 along dim 0: after its largest bases "
              "are cut, block basis 1 (component 1 along dim 0) still points past it");
  expectError(toLinearLayout(mma(2, {1, 1}, {16, 8}, {{0, 1}, {0, 1}, {0, 1}}), I64s{64, 1}),
              "still points past it");
  // Enough room for the split, or no repeated bases: the layout is cut as usual.
  EXPECT_TRUE(toLinearLayout(blocked({2}, {32}, {2}, {0}, {{1}, {1}}), I64s{2}).ok());
  EXPECT_TRUE(toLinearLayout(blocked({2}, {32}, {2}, {0}, {{1}, {2}}), I64s{2}).ok());
  // A linear layout's component that is not a power of two cannot be cut.
  auto lin = ok(
      LinearSpec::make({{0, 3}}, {{1, 0}, {0, 2}, {0, 7}, {1, 0}, {3, 0}}, {{0, 6}}, {}, {4, 8}));
  expectError(toLinearLayout(lin, I64s{4, 2}),
              "linear over shape [4, 2]: cannot cut the layout to size 2 along dim 1: lane basis "
              "2 (component 7 along dim 1) is not a power of two");
}

TEST(ToLinearLayoutErrors, TooManyBitsIsAnErrorNotACrash) {
  // 2^20 registers per thread in each of 4 dims: 80 register bits, more than a layout holds.
  int64_t big = int64_t(1) << 20;
  auto b = ok(BlockedSpec::make({big, big, big, big}, {1, 1, 1, 1}, {1, 1, 1, 1}, {3, 2, 1, 0}));
  expectError(toLinearLayout(b, I64s{1, 1, 1, 1}),
              "blocked over shape [1, 1, 1, 1]: in dimension 'register' has 80 bases");
}

} // namespace
