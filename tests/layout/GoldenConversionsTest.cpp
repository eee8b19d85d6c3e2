// The reference pairs of issue 4, measured against Triton 3.6 on an H200 (fp16 and fp32,
// 128x128, 4 warps; ../shared/reference/gpu/gluon36_convert_h200.json). Triton's kernel converts
// src -> dst and dst -> src, so its PTX counts cover both directions: our two plans together must
// use no more shared-memory instructions and barriers, no bank conflicts, no more wavefronts
// than the data volume needs, and no more shuffles.
#include "SpecTestUtil.h"

#include "linlayout/layout/PlanConversion.h"
#include "linlayout/layout/Simulator.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::testing;

namespace {

struct TritonCounts {
  int shfl, stShared, ldShared, bar, ldmatrix, stmatrix;
};

// Triton 3.6's PTX counts for the whole kernel (both directions), from the H200 run, for each
// pair of goldenPairs(): fp16, fp32.
struct TritonRow {
  const char *name;
  TritonCounts f16, f32;
};
const TritonRow kTriton36[] = {
    {"transpose_blocked", {0, 32, 0, 64, 32, 0}, {0, 64, 64, 16, 0, 0}},
    {"lane_permute", {0, 32, 32, 32, 0, 0}, {0, 64, 64, 64, 0, 0}},
    {"register_only", {128, 0, 0, 0, 0, 0}, {256, 0, 0, 0, 0, 0}},
    {"mma2_to_blocked", {0, 16, 16, 32, 16, 16}, {0, 32, 32, 64, 32, 32}},
    {"mma3_to_blocked", {0, 32, 0, 16, 32, 0}, {0, 64, 0, 32, 64, 0}},
    {"mma2_to_transposed", {0, 32, 32, 16, 0, 0}, {0, 64, 64, 32, 0, 0}},
};

int shared(const ConversionCost &c) { return c.sharedInstructions(); }

} // namespace

TEST(GoldenConversions, NoWorseThanTriton36) {
  std::vector<int64_t> shape{128, 128};
  std::vector<GoldenPair> pairs = goldenPairs();
  ASSERT_EQ(pairs.size(), std::size(kTriton36));
  for (size_t i = 0; i < pairs.size(); ++i) {
    const GoldenPair &g = pairs[i];
    ASSERT_STREQ(g.name, kTriton36[i].name);
    for (int bits : {16, 32}) {
      SCOPED_TRACE(std::string(g.name) + " fp" + std::to_string(bits));
      const TritonCounts &t = bits == 16 ? kTriton36[i].f16 : kTriton36[i].f32;
      int ourShared = 0, ourBar = 0, ourShfl = 0;
      for (int dir = 0; dir < 2; ++dir) {
        auto plan = planConversion(dir ? g.dst : g.src, dir ? g.src : g.dst, shape, bits);
        ASSERT_TRUE(plan.ok()) << plan.message();
        auto rep = simulateConversion(*plan);
        ASSERT_TRUE(rep.ok());
        EXPECT_TRUE(rep->correct) << rep->firstProblem;
        EXPECT_TRUE(rep->claimsHold);
        const ConversionCost &c = plan->cost;
        EXPECT_EQ(c.conflictWavefronts, 0);
        // 128x128 elements over 4 warps: each warp moves 4096 * bits / 8 bytes each way.
        if (shared(c)) {
          EXPECT_EQ(c.storeWavefronts + c.loadWavefronts, 2 * 4096 * bits / 8 / 128);
        }
        ourShared += shared(c);
        ourBar += c.barriers;
        ourShfl += c.shuffles;
      }
      EXPECT_LE(ourShared, t.stShared + t.ldShared + t.ldmatrix + t.stmatrix);
      EXPECT_LE(ourBar, t.bar);
      EXPECT_LE(ourShfl, t.shfl);
    }
  }
}

// lane_permute (issue 7's "pairs shuffles can do" excludes it): its elements cross warps. Source
// warps hold rows 4 and 8 of every 16 (warp bits), destination warps rows 8 and 16 (lane bit 4
// holds row 4); so dst warp bit 0 (row 8) reads src warp bit 1, and dst lane 4 (row 4) reads src
// warp bit 0 (and the other way round for the reverse direction). Every source copy the planner
// found is at CTA level, and no warp-shuffle plan is feasible: shared memory is the only path, for
// Triton as for us.
TEST(GoldenConversions, LanePermuteNeedsDataFromOtherWarps) {
  auto row4 = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0});
  auto lanePerm = blocked({1, 4}, {8, 4}, {4, 1}, {1, 0});
  std::vector<int64_t> shape{128, 128};
  for (int dir = 0; dir < 2; ++dir)
    for (int bits : {16, 32}) {
      auto plan = planConversion(dir ? lanePerm : row4, dir ? row4 : lanePerm, shape, bits);
      ASSERT_TRUE(plan.ok()) << plan.message();
      // The source level: some dst element's source sits in another warp of the CTA.
      const LinearLayout &s = plan->sourceOf;
      bool crossesWarps = false;
      for (DimName in : {DimName::reg(), DimName::lane(), DimName::warp()})
        for (int i = 0; i < s.inDimBits(in); ++i) {
          uint64_t srcWarp = s.basis(in, i, DimName::warp());
          uint64_t ownWarp = in == DimName::warp() ? uint64_t(1) << i : 0;
          crossesWarps = crossesWarps || srcWarp != ownWarp;
        }
      EXPECT_TRUE(crossesWarps);
      if (dir == 0) {
        // row4 -> lanePerm: dst warp bit 0 (row 8) reads src warp bit 1, dst lane 4 (row 4)
        // src warp bit 0.
        EXPECT_EQ(s.basis(DimName::warp(), 0, DimName::warp()), 2u);
        EXPECT_EQ(s.basis(DimName::lane(), 4, DimName::warp()), 1u);
      } else {
        // lanePerm -> row4: dst warp bit 1 (row 8) reads src warp bit 0, dst warp bit 0 (row 4)
        // src lane 4.
        EXPECT_EQ(s.basis(DimName::warp(), 1, DimName::warp()), 1u);
        EXPECT_EQ(s.basis(DimName::warp(), 0, DimName::lane()), 16u);
      }
      EXPECT_EQ(plan->path, ConversionPath::SharedMemory);
      for (const auto &alt : plan->alternatives)
        EXPECT_NE(alt.path, ConversionPath::WarpShuffle) << alt.note;
    }
}
