// ir::alignedRun and ir::warpRun against a brute-force evaluator: random layouts (register, lane,
// warp) -> (dim0, dim1) whose first registers step dim1 by 1, 2, 4, ...; the run alignedRun returns
// holds consecutive, aligned elements for every thread, and no longer run does; the run warpRun
// returns holds consecutive, aligned elements across the vector's registers and its lanes.
#include "linlayout/ir/AccessWidth.h"
#include "linlayout/layout/NvidiaMma.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <utility>

using namespace linlayout;

namespace {

// Whether registers 0 .. run-1 of every hardware index with those register bits clear hold
// element(h) + i along dim 1 (dim 0 equal), element(h) along dim 1 being a multiple of run.
bool runHolds(const LinearLayout &l, int64_t run) {
  int regBits = l.inDimBits(DimName::reg());
  uint64_t low = uint64_t(run) - 1;
  for (uint64_t h = 0; h < (uint64_t(1) << l.totalInBits()); ++h) {
    if (h & low) // register bits are the lowest input bits
      continue;
    uint64_t base = l.apply(h);
    if (l.outValue(base, 1) & low)
      return false;
    for (uint64_t i = 1; i < uint64_t(run); ++i) {
      uint64_t e = l.apply(h | i);
      if (l.outValue(e, 0) != l.outValue(base, 0) || l.outValue(e, 1) != l.outValue(base, 1) + i)
        return false;
    }
  }
  (void)regBits;
  return true;
}

// A random layout (register, lane, warp) -> (dim0, dim1) whose first k register bases step dim1
// by 1, 2, 4, ... (k >= 1); with `laneRuns` each lane basis continues that run half of the time,
// so that runs across lanes occur. Call inside a property.
std::pair<LinearLayout, int> genRunLayout(int maxColBits, int maxLaneBits, bool laneRuns) {
  const int rowBits = *rc::gen::inRange(0, 3), colBits = *rc::gen::inRange(2, maxColBits + 1);
  const int k = *rc::gen::inRange(1, std::min(colBits, 3) + 1);
  const int regBits = k + *rc::gen::inRange(0, 2), laneBits = *rc::gen::inRange(0, maxLaneBits + 1),
            warpBits = *rc::gen::inRange(0, 2);
  auto basis = [&] {
    return std::vector<uint64_t>{*rc::gen::inRange<uint64_t>(0, uint64_t(1) << rowBits),
                                 *rc::gen::inRange<uint64_t>(0, uint64_t(1) << colBits)};
  };
  std::vector<std::vector<uint64_t>> reg, lane, warp;
  for (int i = 0; i < regBits; ++i)
    reg.push_back(i < k ? std::vector<uint64_t>{0, uint64_t(1) << i} : basis());
  for (int i = 0; i < laneBits; ++i)
    lane.push_back(laneRuns && k + i < colBits && *rc::gen::arbitrary<bool>()
                       ? std::vector<uint64_t>{0, uint64_t(1) << (k + i)}
                       : basis());
  for (int i = 0; i < warpBits; ++i)
    warp.push_back(basis());
  std::vector<InDimBases> ins{
      {DimName::reg(), reg}, {DimName::lane(), lane}, {DimName::warp(), warp}};
  std::vector<DimSize> outs{{DimName::dim(0), uint64_t(1) << rowBits},
                            {DimName::dim(1), uint64_t(1) << colBits}};
  auto l = LinearLayout::fromBases(ins, outs);
  RC_ASSERT(l.ok());
  return {*l, k};
}

} // namespace

RC_GTEST_PROP(AccessWidth, AlignedRunIsTheLongestRunThatHoldsForEveryThread, ()) {
  auto [layout, k] = genRunLayout(5, 2, false);
  const LinearLayout *l = &layout;
  int64_t got = ir::alignedRun(*l, 1, int64_t(1) << k);
  RC_ASSERT(got >= 1 && got <= (int64_t(1) << k) && (got & (got - 1)) == 0);
  RC_ASSERT(runHolds(*l, got));
  if (got < (int64_t(1) << k))
    RC_ASSERT(!runHolds(*l, got * 2));
}

namespace {

// Whether, for every hardware index h whose registers below `vector` and lanes below
// run / vector are 0, register i and lane j index element(h) + j * vector + i along dim 1 (dim 0
// equal), element(h) along dim 1 being a multiple of run. Input bits: registers, then lanes.
bool warpRunHolds(const LinearLayout &l, int64_t vector, int64_t run) {
  const int regBits = l.inDimBits(DimName::reg());
  const uint64_t lanes = uint64_t(run / vector);
  const uint64_t clear = (uint64_t(vector) - 1) | ((lanes - 1) << regBits);
  for (uint64_t h = 0; h < (uint64_t(1) << l.totalInBits()); ++h) {
    if (h & clear)
      continue;
    uint64_t base = l.apply(h);
    if (l.outValue(base, 1) % uint64_t(run) != 0)
      return false;
    for (uint64_t j = 0; j < lanes; ++j)
      for (uint64_t i = 0; i < uint64_t(vector); ++i) {
        uint64_t e = l.apply(h | i | (j << regBits));
        if (l.outValue(e, 0) != l.outValue(base, 0) ||
            l.outValue(e, 1) != l.outValue(base, 1) + j * uint64_t(vector) + i)
          return false;
      }
  }
  return true;
}

} // namespace

RC_GTEST_PROP(AccessWidth, WarpRunIsConsecutiveAndAlignedAcrossItsLanes, ()) {
  auto [layout, k] = genRunLayout(6, 3, true);
  const LinearLayout *l = &layout;
  const int64_t vector = ir::alignedRun(*l, 1, int64_t(1) << k);
  const int64_t reach = *rc::gen::inRange<int64_t>(1, 129);
  const int64_t got = ir::warpRun(*l, 1, vector, reach);
  RC_ASSERT(got >= vector && (got & (got - 1)) == 0);
  RC_ASSERT(got == vector || got <= reach);
  RC_ASSERT(warpRunHolds(*l, vector, got));
}

// The f32 accumulator of mma.sync (m16n8, 4 warps as 2 x 2 over a 128 x 128 tile): pairs of
// columns per thread, four lanes side by side, so one store instruction writes 32 bytes of each
// of 8 rows; with contiguity 2 the run is the pair alone.
TEST(AccessWidth, MmaAccumulatorRowsAreWholeSectors) {
  auto spec = NvidiaMmaSpec::make(2, 0, {2, 2}, {16, 8});
  ASSERT_TRUE(spec.ok()) << spec.message();
  auto l = spec->toLinearLayout(std::vector<int64_t>{128, 128});
  ASSERT_TRUE(l.ok()) << l.message();
  ASSERT_EQ(ir::contiguousRegisters(*l).elements, 2);
  EXPECT_EQ(ir::warpRun(*l, 1, 2, 128), 8);
  EXPECT_EQ(ir::warpRun(*l, 1, 2, 2), 2);
  EXPECT_EQ(ir::warpRun(*l, 1, 2, 4), 4);
}
