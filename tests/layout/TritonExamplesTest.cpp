// Named examples from Triton's published LinearLayoutConversions unit tests and from the Gluon
// layout docs: each spec, shape and expected layout is Triton's; the code under test is ours.
#include "SpecTestUtil.h"

using namespace linlayout;
using namespace linlayout::testing;

namespace {

#define EXPECT_LAYOUT(actual, expected) EXPECT_EQ((actual).toString(), (expected).toString())

const char *R = "register", *Ln = "lane", *W = "warp", *B = "block", *O = "offset";

// ---- blocked --------------------------------------------------------------------------------

TEST(TritonBlocked, SimpleBlocked) {
  EXPECT_LAYOUT(convert(blockedLegacy({1}, {4}, {4}, {1}, {1}, {0}, {0}), {16}),
                layoutOf({{R, {}}, {Ln, {{1}, {2}}}, {W, {{4}, {8}}}, {B, {}}}, {16}));
}

TEST(TritonBlocked, CtaDuplication) {
  EXPECT_LAYOUT(convert(blockedLegacy({1}, {4}, {4}, {4}, {2}, {0}, {0}), {32}),
                layoutOf({{R, {}}, {Ln, {{1}, {2}}}, {W, {{4}, {8}}}, {B, {{16}, {0}}}}, {32}));
}

TEST(TritonBlocked, CtaBroadcast) {
  EXPECT_LAYOUT(
      convert(blockedLegacy({8, 1}, {8, 4}, {1, 4}, {1, 2}, {1, 2}, {0, 1}, {1, 0}), {64, 128}),
      layoutOf({{R, {{1, 0}, {2, 0}, {4, 0}, {0, 16}, {0, 32}}},
                {Ln, {{8, 0}, {16, 0}, {32, 0}, {0, 1}, {0, 2}}},
                {W, {{0, 4}, {0, 8}}},
                {B, {{0, 64}}}},
               {64, 128}));
}

TEST(TritonBlocked, ShapeLargerThanLayoutRepeatsInRegisters) {
  EXPECT_LAYOUT(
      convert(blockedLegacy({1}, {4}, {4}, {1}, {1}, {0}, {0}), {128}),
      layoutOf({{R, {{16}, {32}, {64}}}, {Ln, {{1}, {2}}}, {W, {{4}, {8}}}, {B, {}}}, {128}));
}

TEST(TritonBlocked, ShapeLargerThanLayout2DDegenerate) {
  EXPECT_LAYOUT(
      convert(blockedLegacy({1, 1}, {4, 1}, {4, 1}, {1, 1}, {1, 1}, {0, 1}, {1, 0}), {128, 1}),
      layoutOf({{R, {{16, 0}, {32, 0}, {64, 0}}},
                {Ln, {{1, 0}, {2, 0}}},
                {W, {{4, 0}, {8, 0}}},
                {B, {}}},
               {128, 1}));
}

TEST(TritonBlocked, ShapeSmallerThanLayoutBroadcastsTheLargestBases) {
  EXPECT_LAYOUT(convert(blockedLegacy({4}, {4}, {4}, {1}, {1}, {0}, {0}), {8}),
                layoutOf({{R, {{1}, {2}}}, {Ln, {{4}, {0}}}, {W, {{0}, {0}}}, {B, {}}}, {8}));
}

TEST(TritonBlocked, ReversedOrder) {
  EXPECT_LAYOUT(
      convert(blockedLegacy({1, 1}, {32, 1}, {1, 8}, {1, 1}, {1, 1}, {0, 1}, {1, 0}), {1, 64}),
      layoutOf({{R, {{0, 8}, {0, 16}, {0, 32}}},
                {Ln, {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}},
                {W, {{0, 1}, {0, 2}, {0, 4}}},
                {B, {}}},
               {1, 64}));
}

TEST(TritonBlocked, ReplicateInRegisterDim) {
  EXPECT_LAYOUT(convert(blockedLegacy({2}, {4}, {1}, {1}, {1}, {0}, {0}), {32}),
                layoutOf({{R, {{1}, {8}, {16}}}, {Ln, {{2}, {4}}}, {W, {}}, {B, {}}}, {32}));
}

TEST(TritonBlocked, OneDimTooLargeAnotherTooSmall) {
  EXPECT_LAYOUT(
      convert(blockedLegacy({1, 4}, {8, 4}, {4, 1}, {2, 2}, {2, 1}, {1, 0}, {1, 0}), {128, 16}),
      layoutOf({{R, {{0, 1}, {0, 2}, {32, 0}}},
                {Ln, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}},
                {W, {{8, 0}, {16, 0}}},
                {B, {{0, 0}, {64, 0}}}},
               {128, 16}));
}

TEST(TritonBlocked, RepeatInCgaDimFirst) {
  EXPECT_LAYOUT(convert(blockedLegacy({1}, {1}, {4}, {2}, {2}, {0}, {0}), {4}),
                layoutOf({{R, {}}, {Ln, {}}, {W, {{1}, {0}}}, {B, {{2}}}}, {4}));
}

TEST(TritonBlocked, SmallerThanCtaLayout) {
  EXPECT_LAYOUT(convert(blockedLegacy({1}, {1}, {1}, {4}, {4}, {0}, {0}), {2}),
                layoutOf({{R, {}}, {Ln, {}}, {W, {}}, {B, {{1}, {0}}}}, {2}));
}

TEST(TritonBlocked, Skinny) {
  EXPECT_LAYOUT(
      convert(blockedLegacy({8, 1}, {8, 4}, {1, 4}, {1, 2}, {1, 2}, {0, 1}, {0, 1}), {64, 1}),
      layoutOf({{R, {{1, 0}, {2, 0}, {4, 0}}},
                {Ln, {{8, 0}, {16, 0}, {32, 0}, {0, 0}, {0, 0}}},
                {W, {{0, 0}, {0, 0}}},
                {B, {{0, 0}}}},
               {64, 1}));
}

TEST(TritonBlocked, BlockedOrder) {
  EXPECT_LAYOUT(
      convert(blockedLegacy({2, 2}, {4, 8}, {2, 2}, {2, 2}, {2, 2}, {1, 0}, {1, 0}), {1024, 128}),
      layoutOf({{R, {{0, 1}, {1, 0}, {0, 32}, {16, 0}, {32, 0}, {64, 0}, {128, 0}, {256, 0}}},
                {Ln, {{0, 2}, {0, 4}, {0, 8}, {2, 0}, {4, 0}}},
                {W, {{0, 16}, {8, 0}}},
                {B, {{0, 64}, {512, 0}}}},
               {1024, 128}));
}

TEST(TritonBlocked, Blocked4D) {
  EXPECT_LAYOUT(
      convert(blockedLegacy({1, 1, 1, 4}, {2, 1, 1, 16}, {1, 2, 4, 1}, {1, 1, 1, 1}, {1, 1, 1, 1},
                            {3, 0, 1, 2}, {3, 2, 1, 0}),
              {2, 1, 1, 1}),
      layoutOf({{R, {{0, 0, 0, 0}, {0, 0, 0, 0}}},
                {Ln, {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}}},
                {W, {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}}},
                {B, {}}},
               {2, 1, 1, 1}));
}

TEST(GluonBlocked, CgaLayoutBasesInTileUnits) {
  // From the Triton 3.6 reference cases: two blocks split dim1 into 4 tiles of 2 columns.
  EXPECT_LAYOUT(convert(blocked({4, 2}, {8, 4}, {1, 1}, {1, 0}, {{0, 2}, {0, 1}}), {4, 8}),
                layoutOf({{R, {{0, 1}, {1, 0}, {2, 0}}},
                          {Ln, {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}},
                          {W, {}},
                          {B, {{0, 4}, {0, 2}}}},
                         {4, 8}));
}

TEST(GluonBlocked, SixteenBySixteenDocExample) {
  // Gluon's layout tutorial: sizePerThread [2,2], threadsPerWarp [8,4], warpsPerCTA [1,2].
  EXPECT_LAYOUT(convert(blocked({2, 2}, {8, 4}, {1, 2}, {1, 0}), {16, 16}),
                layoutOf({{R, {{0, 1}, {1, 0}}},
                          {Ln, {{0, 2}, {0, 4}, {2, 0}, {4, 0}, {8, 0}}},
                          {W, {{0, 8}}},
                          {B, {}}},
                         {16, 16}));
}

// ---- nvidia_mma -----------------------------------------------------------------------------

TEST(TritonMma, V2_32x32) {
  EXPECT_LAYOUT(convert(mmaLegacy(2, {16, 8}, {1, 1}, {1, 1}, {1, 1}, {0, 1}), {32, 32}),
                layoutOf({{R, {{0, 1}, {8, 0}, {0, 8}, {0, 16}, {16, 0}}},
                          {Ln, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
                          {W, {}},
                          {B, {}}},
                         {32, 32}));
}

TEST(TritonMma, V2_ExtendDim2) {
  EXPECT_LAYOUT(convert(mmaLegacy(2, {16, 8}, {1, 1}, {1, 1}, {1, 1}, {0, 1}), {16, 128}),
                layoutOf({{R, {{0, 1}, {8, 0}, {0, 8}, {0, 16}, {0, 32}, {0, 64}}},
                          {Ln, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
                          {W, {}},
                          {B, {}}},
                         {16, 128}));
}

TEST(TritonMma, V2_Cga) {
  auto m = mmaLegacy(2, {1, 16, 8}, {16, 1, 1}, {4, 2, 2}, {4, 2, 1}, {2, 1, 0});
  EXPECT_LAYOUT(convert(m, {64, 128, 128}),
                layoutOf({{R,
                           {{0, 0, 1},
                            {0, 8, 0},
                            {0, 0, 8},
                            {0, 0, 16},
                            {0, 0, 32},
                            {0, 0, 64},
                            {0, 16, 0},
                            {0, 32, 0}}},
                          {Ln, {{0, 0, 2}, {0, 0, 4}, {0, 1, 0}, {0, 2, 0}, {0, 4, 0}}},
                          {W, {{1, 0, 0}, {2, 0, 0}, {4, 0, 0}, {8, 0, 0}}},
                          {B, {{0, 0, 0}, {0, 64, 0}, {16, 0, 0}, {32, 0, 0}}}},
                         {64, 128, 128}));
  EXPECT_LAYOUT(convert(m, {1, 128, 128}),
                layoutOf({{R,
                           {{0, 0, 1},
                            {0, 8, 0},
                            {0, 0, 8},
                            {0, 0, 16},
                            {0, 0, 32},
                            {0, 0, 64},
                            {0, 16, 0},
                            {0, 32, 0}}},
                          {Ln, {{0, 0, 2}, {0, 0, 4}, {0, 1, 0}, {0, 2, 0}, {0, 4, 0}}},
                          {W, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}},
                          {B, {{0, 0, 0}, {0, 64, 0}, {0, 0, 0}, {0, 0, 0}}}},
                         {1, 128, 128}));
}

TEST(TritonMma, V3_64x16_AnyN) {
  for (I64s instr : {I64s{16, 16, 8}, I64s{16, 8, 8}}) {
    EXPECT_LAYOUT(convert(mma(3, {4, 1}, instr), {64, 16}),
                  layoutOf({{R, {{0, 1}, {8, 0}, {0, 8}}},
                            {Ln, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
                            {W, {{16, 0}, {32, 0}}},
                            {B, {}}},
                           {64, 16}));
  }
}

TEST(TritonMma, V3_128x16) {
  EXPECT_LAYOUT(convert(mma(3, {4, 1}, {16, 16, 8}), {128, 16}),
                layoutOf({{R, {{0, 1}, {8, 0}, {0, 8}, {64, 0}}},
                          {Ln, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
                          {W, {{16, 0}, {32, 0}}},
                          {B, {}}},
                         {128, 16}));
}

TEST(TritonMma, V3_4x2Warps) {
  auto m = mma(3, {4, 2}, {16, 32, 16});
  EXPECT_LAYOUT(convert(m, {64, 32}), layoutOf({{R, {{0, 1}, {8, 0}, {0, 8}, {0, 16}}},
                                                {Ln, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
                                                {W, {{16, 0}, {32, 0}, {0, 0}}},
                                                {B, {}}},
                                               {64, 32}));
  EXPECT_LAYOUT(convert(m, {256, 64}),
                layoutOf({{R, {{0, 1}, {8, 0}, {0, 8}, {0, 16}, {64, 0}, {128, 0}}},
                          {Ln, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
                          {W, {{16, 0}, {32, 0}, {0, 32}}},
                          {B, {}}},
                         {256, 64}));
}

TEST(TritonMma, V3_4x4Warps) {
  auto m = mma(3, {4, 4}, {16, 16, 8});
  EXPECT_LAYOUT(convert(m, {32, 32}), layoutOf({{R, {{0, 1}, {8, 0}, {0, 8}}},
                                                {Ln, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}},
                                                {W, {{16, 0}, {0, 0}, {0, 16}, {0, 0}}},
                                                {B, {}}},
                                               {32, 32}));
}

// ---- dot_operand ----------------------------------------------------------------------------

TEST(TritonDot, MmaV2SplitWarpKWidth8) {
  auto parent = mma(2, {2, 2}, {16, 8});
  EXPECT_LAYOUT(convert(dot(parent, 0, 8), {32, 64}),
                layoutOf({{R, {{0, 1}, {0, 2}, {0, 4}, {8, 0}, {0, 32}}},
                          {Ln, {{0, 8}, {0, 16}, {1, 0}, {2, 0}, {4, 0}}},
                          {W, {{0, 0}, {16, 0}}},
                          {B, {}}},
                         {32, 64}));
  EXPECT_LAYOUT(convert(dot(parent, 1, 8), {64, 16}),
                layoutOf({{R, {{1, 0}, {2, 0}, {4, 0}, {32, 0}}},
                          {Ln, {{8, 0}, {16, 0}, {0, 1}, {0, 2}, {0, 4}}},
                          {W, {{0, 8}, {0, 0}}},
                          {B, {}}},
                         {64, 16}));
  EXPECT_LAYOUT(convert(dot(parent, 1, 8), {128, 32}),
                layoutOf({{R, {{1, 0}, {2, 0}, {4, 0}, {32, 0}, {64, 0}, {0, 16}}},
                          {Ln, {{8, 0}, {16, 0}, {0, 1}, {0, 2}, {0, 4}}},
                          {W, {{0, 8}, {0, 0}}},
                          {B, {}}},
                         {128, 32}));
}

TEST(TritonDot, SliceOfDotOperands) {
  auto v2 = slice(dot(mma(2, {1, 1}, {16, 8}), 0, 8), 1);
  EXPECT_LAYOUT(convert(v2, {16}),
                layoutOf({{R, {{8}}}, {Ln, {{0}, {0}, {1}, {2}, {4}}}, {W, {}}, {B, {}}}, {16}));
  auto v3 = slice(dot(mma(3, {4, 1}, {16, 16, 8}), 0, 2), 0);
  EXPECT_LAYOUT(
      convert(v3, {16}),
      layoutOf({{R, {{1}, {8}}}, {Ln, {{2}, {4}, {0}, {0}, {0}}}, {W, {{0}, {0}}}, {B, {}}}, {16}));
}

// Triton's GPU conversion tests slice the A operand of a batched (rank-3) wgmma layout whose
// warps ([4, 1, 1]) run along the batch: the operand is Triton's nvidiaDotToLinearLayout at rank 3
// (tile [1, 16, 8 * kWidth]; registers repeat K, then M, then the batch; warps column-major
// [1, 2, 0], broadcast along K).
TEST(TritonDot, BatchedHopperOperandAndItsSlice) {
  auto parent = mma(3, {4, 1, 1}, {16, 32, 16});
  EXPECT_LAYOUT(convert(dot(parent, 0, 2), {2, 32, 32}),
                layoutOf({{R, {{0, 0, 1}, {0, 8, 0}, {0, 0, 8}, {0, 0, 16}, {0, 16, 0}}},
                          {Ln, {{0, 0, 2}, {0, 0, 4}, {0, 1, 0}, {0, 2, 0}, {0, 4, 0}}},
                          {W, {{1, 0, 0}, {0, 0, 0}}},
                          {B, {}}},
                         {2, 32, 32}));
  // Sliced along M: the M lanes broadcast and M's registers go.
  EXPECT_LAYOUT(convert(slice(dot(parent, 0, 2), 1), {2, 32}),
                layoutOf({{R, {{0, 1}, {0, 8}, {0, 16}}},
                          {Ln, {{0, 2}, {0, 4}, {0, 0}, {0, 0}, {0, 0}}},
                          {W, {{1, 0}, {0, 0}}},
                          {B, {}}},
                         {2, 32}));
  // The accumulator itself: the rank-2 tile with a leading batch of 1.
  EXPECT_LAYOUT(
      convert(parent, {2, 64, 32}),
      layoutOf({{R, {{0, 0, 1}, {0, 8, 0}, {0, 0, 8}, {0, 0, 16}, {0, 16, 0}, {0, 32, 0}}},
                {Ln, {{0, 0, 2}, {0, 0, 4}, {0, 1, 0}, {0, 2, 0}, {0, 4, 0}}},
                {W, {{1, 0, 0}, {0, 0, 0}}},
                {B, {}}},
               {2, 64, 32}));
}

TEST(TritonDot, FmaOperandHoldsAllOfKInRegisters) {
  // A of an FMA dot over blocked [1,1],[8,4],[2,2] order [1,0]: K (dim1) entirely per thread,
  // lanes and warps along K broadcast.
  auto a = dot(blocked({1, 1}, {8, 4}, {2, 2}, {1, 0}), 0, 0);
  EXPECT_LAYOUT(convert(a, {16, 4}), layoutOf({{R, {{0, 1}, {0, 2}}},
                                               {Ln, {{0, 0}, {0, 0}, {1, 0}, {2, 0}, {4, 0}}},
                                               {W, {{0, 0}, {8, 0}}},
                                               {B, {}}},
                                              {16, 4}));
}

// ---- slice ----------------------------------------------------------------------------------

TEST(TritonSlice, SliceOfBlocked) {
  auto parent = blockedLegacy({2, 4}, {4, 2}, {2, 2}, {2, 2}, {2, 2}, {1, 0}, {1, 0});
  EXPECT_LAYOUT(
      convert(slice(parent, 0), {128}),
      layoutOf(
          {{R, {{1}, {2}, {16}, {32}}}, {Ln, {{4}, {0}, {0}}}, {W, {{8}, {0}}}, {B, {{64}, {0}}}},
          {128}));
  EXPECT_LAYOUT(
      convert(slice(parent, 1), {128}),
      layoutOf({{R, {{1}, {16}, {32}}}, {Ln, {{0}, {2}, {4}}}, {W, {{0}, {8}}}, {B, {{0}, {64}}}},
               {128}));
}

TEST(TritonSlice, SliceOfMmaV2) {
  auto parent = mma(2, {2, 2}, {16, 8});
  EXPECT_LAYOUT(
      convert(slice(parent, 0), {16}),
      layoutOf({{R, {{1}}}, {Ln, {{2}, {4}, {0}, {0}, {0}}}, {W, {{8}, {0}}}, {B, {}}}, {16}));
  EXPECT_LAYOUT(
      convert(slice(parent, 1), {128}),
      layoutOf({{R, {{8}, {32}, {64}}}, {Ln, {{0}, {0}, {1}, {2}, {4}}}, {W, {{0}, {16}}}, {B, {}}},
               {128}));
}

TEST(TritonSlice, Slice4D) {
  auto parent = blockedLegacy({1, 1, 1, 4}, {2, 1, 1, 16}, {1, 2, 4, 1}, {1, 1, 1, 1}, {1, 1, 1, 1},
                              {3, 0, 1, 2}, {3, 2, 1, 0});
  EXPECT_LAYOUT(convert(slice(parent, 3), {2, 1, 1}),
                layoutOf({{R, {}},
                          {Ln, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {1, 0, 0}}},
                          {W, {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}},
                          {B, {}}},
                         {2, 1, 1}));
}

TEST(TritonSlice, NestedSliceEqualsSliceOfTheSlice) {
  auto parent = blocked({1, 2, 4}, {2, 4, 4}, {2, 1, 2}, {2, 1, 0});
  auto twice = slice(slice(parent, 0), 1);
  // Slicing dim 1 of the rank-2 slice removes the parent's dim 2: only dim 1 of the parent stays.
  EXPECT_LAYOUT(
      convert(twice, {8}),
      layoutOf({{R, {{1}}}, {Ln, {{0}, {0}, {2}, {4}, {0}}}, {W, {{0}, {0}}}, {B, {}}}, {8}));
}

// ---- shared ---------------------------------------------------------------------------------

TEST(TritonShared, Simple1D) {
  EXPECT_LAYOUT(
      convert(swizzled(1, 1, 1, {0}), {1024}),
      layoutOf({{O, {{1}, {2}, {4}, {8}, {16}, {32}, {64}, {128}, {256}, {512}}}, {B, {}}},
               {1024}));
}

TEST(TritonShared, Swizzled2D_MaxPhaseOnly) {
  EXPECT_LAYOUT(
      convert(swizzled(1, 1, 4, {1, 0}), {32, 32}),
      layoutOf(
          {{O, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 1}, {2, 2}, {4, 0}, {8, 0}, {16, 0}}},
           {B, {}}},
          {32, 32}));
}

TEST(TritonShared, Swizzled2D_PerPhaseMaxPhase) {
  EXPECT_LAYOUT(
      convert(swizzled(1, 2, 4, {1, 0}), {32, 32}),
      layoutOf(
          {{O, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 1}, {4, 2}, {8, 0}, {16, 0}}},
           {B, {}}},
          {32, 32}));
}

TEST(TritonShared, Swizzled2D_Vec) {
  EXPECT_LAYOUT(convert(swizzled(2, 1, 4, {1, 0}), {4, 8}),
                layoutOf({{O, {{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}}}, {B, {}}}, {4, 8}));
}

TEST(TritonShared, Swizzled4D) {
  EXPECT_LAYOUT(convert(swizzled(2, 2, 4, {3, 2, 1, 0}), {2, 4, 32, 32}),
                layoutOf({{O,
                           {{0, 0, 0, 1},
                            {0, 0, 0, 2},
                            {0, 0, 0, 4},
                            {0, 0, 0, 8},
                            {0, 0, 0, 16},
                            {0, 0, 1, 0},
                            {0, 0, 2, 2},
                            {0, 0, 4, 4},
                            {0, 0, 8, 0},
                            {0, 0, 16, 0},
                            {0, 1, 0, 0},
                            {0, 2, 0, 0},
                            {1, 0, 0, 0}}},
                          {B, {}}},
                         {2, 4, 32, 32}));
}

TEST(TritonShared, Swizzled2D_Order01) {
  EXPECT_LAYOUT(convert(swizzled(1, 1, 4, {0, 1}), {4, 8}),
                layoutOf({{O, {{1, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 4}}}, {B, {}}}, {4, 8}));
}

TEST(TritonShared, Shared1DSwizzle) {
  EXPECT_LAYOUT(
      convert(swizzled(2, 2, 4, {1, 0}), {64, 1}),
      layoutOf({{O, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}}}, {B, {}}}, {64, 1}));
}

TEST(TritonNvmmaShared, LeadingOffset_8x16_32B) {
  EXPECT_LAYOUT(
      convert(nvmma(32, 16), {8, 16}),
      layoutOf({{O, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 8}}}, {B, {}}}, {8, 16}));
}

TEST(TritonNvmmaShared, LeadingOffset_128x16_32B) {
  EXPECT_LAYOUT(convert(nvmma(32, 16), {128, 16}), layoutOf({{O,
                                                              {{0, 1},
                                                               {0, 2},
                                                               {0, 4},
                                                               {0, 8},
                                                               {1, 0},
                                                               {2, 0},
                                                               {4, 8},
                                                               {8, 0},
                                                               {16, 0},
                                                               {32, 0},
                                                               {64, 0}}},
                                                             {B, {}}},
                                                            {128, 16}));
}

TEST(TritonNvmmaShared, LeadingOffset_8x32_64B) {
  EXPECT_LAYOUT(
      convert(nvmma(64, 16), {8, 32}),
      layoutOf({{O, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 8}, {4, 16}}}, {B, {}}},
               {8, 32}));
}

TEST(TritonNvmmaShared, LeadingOffset_8x64_128B) {
  EXPECT_LAYOUT(
      convert(nvmma(128, 16), {8, 64}),
      layoutOf({{O, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {0, 32}, {1, 8}, {2, 16}, {4, 32}}},
                {B, {}}},
               {8, 64}));
}

TEST(TritonNvmmaShared, LeadingOffset_8x64_128B_32bit) {
  EXPECT_LAYOUT(
      convert(nvmma(128, 32), {8, 64}),
      layoutOf({{O, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}, {1, 4}, {2, 8}, {4, 16}, {0, 32}}},
                {B, {}}},
               {8, 64}));
}

TEST(TritonNvmmaShared, Fp4Padded) {
  EXPECT_LAYOUT(convert(nvmma(128, 8, 2, false, true), {32, 64}), layoutOf({{O,
                                                                             {{0, 1},
                                                                              {0, 2},
                                                                              {0, 4},
                                                                              {0, 0},
                                                                              {0, 8},
                                                                              {0, 16},
                                                                              {0, 32},
                                                                              {1, 8},
                                                                              {2, 16},
                                                                              {4, 32},
                                                                              {8, 0},
                                                                              {16, 0}}},
                                                                            {B, {}}},
                                                                           {32, 64}));
}

TEST(TritonNvmmaShared, SmallerThanOneSwizzleTileIsAnError) {
  auto l = toLinearLayout(nvmma(128, 16), I64s{8, 32});
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.message().find("swizzle"), std::string::npos) << l.message();
}

} // namespace
