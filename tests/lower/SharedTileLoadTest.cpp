// local_load through ldmatrix, checked without a GPU: the instructions
// planMatrixTileLoad plans are simulated with ldmatrix's semantics (lane 8i + r
// supplies row r of matrix i; without .trans lane l receives the word at byte 4
// (l % 4) of row l / 4, with .trans the 16-bit elements of column l / 4, rows 2
// (l % 4) and 2 (l % 4) + 1), and every register of every thread must get the
// element its layout says.
#include "SharedTileLoad.h"
#include "SharedView.h"

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/F2Subspace.h"
#include "linlayout/layout/LayoutColumns.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;

namespace {

LinearLayout layoutOf(const std::string &attr, std::vector<int64_t> shape) {
  auto spec = parseLayoutAttr(attr);
  EXPECT_TRUE(spec.ok()) << spec.message();
  auto l = toLinearLayout(*spec, shape);
  EXPECT_TRUE(l.ok()) << l.message();
  return *l;
}

// Simulates the plan; returns "" when every register gets its element. With an
// `origin`, dist covers a view of the tile at that origin (its out dims widened
// to the tile's) and the plan reads with `viewXor`: the element of view
// coordinate x must be the tile's element at origin + x, added as numbers.
std::string simulate(const LinearLayout &dist, const LinearLayout &shared,
                     const MatrixTileLoadPlan &plan, std::vector<int64_t> origin = {},
                     uint64_t viewXor = 0) {
  auto parentOf = [&](uint64_t packed) {
    if (origin.empty())
      return packed;
    uint64_t out = 0;
    for (int d = 0; d < shared.numOutDims(); ++d)
      out |= (shared.outValue(packed, d) + uint64_t(origin[size_t(d)])) << shared.outDimOffset(d);
    return out;
  };
  auto regCols = columnsOf(dist, DimName::reg()), laneCols = columnsOf(dist, DimName::lane()),
       warpCols = columnsOf(dist, DimName::warp());
  auto offCols = columnsOf(shared, DimName::offset());
  auto addrLane = columnsOf(plan.address, DimName::lane()),
       addrWarp = columnsOf(plan.address, DimName::warp());
  uint64_t warps = uint64_t(1) << warpCols.size();
  size_t nRegs = size_t(1) << regCols.size();
  for (uint64_t w = 0; w < warps; ++w) {
    std::vector<std::vector<bool>> seen(32, std::vector<bool>(nRegs, false));
    for (const auto &in : plan.instructions) {
      auto row = [&](uint64_t lane) {
        return f2Apply(addrLane, lane) ^ f2Apply(addrWarp, w) ^ in.offsetConst;
      };
      int words = int(in.registers.size()) / plan.perWord;
      for (uint64_t l = 0; l < 32; ++l)
        for (int i = 0; i < words; ++i)
          for (int h = 0; h < plan.perWord; ++h) {
            uint64_t offset = plan.trans ? row(8 * i + 2 * (l % 4) + h) + l / 4
                                         : row(8 * i + l / 4) + (l % 4) * plan.perWord + h;
            int r = in.registers[size_t(i * plan.perWord + h)];
            uint64_t want =
                parentOf(f2Apply(regCols, r) ^ f2Apply(laneCols, l) ^ f2Apply(warpCols, w));
            if (f2Apply(offCols, offset ^ viewXor) != want)
              return "warp " + std::to_string(w) + " lane " + std::to_string(l) + " register " +
                     std::to_string(r) + " gets the wrong element";
            seen[l][size_t(r)] = true;
          }
    }
    for (const auto &c : plan.copies)
      for (uint64_t l = 0; l < 32; ++l) {
        if (f2Apply(regCols, c[0]) != f2Apply(regCols, c[1]))
          return "register " + std::to_string(c[0]) + " copies a different element";
        seen[l][size_t(c[0])] = true;
      }
    for (uint64_t l = 0; l < 32; ++l)
      for (size_t r = 0; r < nRegs; ++r)
        if (!seen[l][r])
          return "lane " + std::to_string(l) + " register " + std::to_string(r) + " is unset";
  }
  return "";
}

struct Case {
  std::string dist, shared;
  std::vector<int64_t> shape;
  int bits;
  bool trans;
  size_t instructions;
};

} // namespace

TEST(SharedTileLoad, LdmatrixPlansLoadEveryRegisterItsElement) {
  const std::string mma4 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
                           "[2, 2], instrShape = [16, 8]}>";
  const std::string mma1 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
                           "[1, 1], instrShape = [16, 8]}>";
  auto dot = [](int idx, const std::string &parent, int k) {
    return "#ttg.dot_op<{opIdx = " + std::to_string(idx) + ", parent = " + parent +
           ", kWidth = " + std::to_string(k) + "}>";
  };
  auto swz = [](int vec, int per, int max) {
    return "#ttg.swizzled_shared<{vec = " + std::to_string(vec) +
           ", perPhase = " + std::to_string(per) + ", maxPhase = " + std::to_string(max) +
           ", order = [1, 0]}>";
  };
  std::vector<Case> cases = {
      // The pipelined matmul's operands (4 warps, B broadcast over the warps
      // along M).
      {dot(0, mma4, 2), swz(8, 2, 4), {128, 32}, 16, false, 8},
      {dot(1, mma4, 2), swz(8, 1, 8), {32, 128}, 16, true, 8},
      // Unswizzled and one-warp tiles.
      {dot(0, mma1, 2), swz(1, 1, 1), {32, 16}, 16, false, 2},
      {dot(1, mma1, 2), swz(8, 1, 8), {16, 32}, 16, true, 2},
      {dot(0, mma4, 2), swz(8, 4, 2), {64, 64}, 16, false, 8},
      // 8-bit operands (kWidth 4): no .trans for bytes, so only A loads by
      // ldmatrix.
      {dot(0, mma4, 4), swz(16, 1, 8), {128, 64}, 8, false, 8},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.dist + " from " + c.shared);
    LinearLayout dist = layoutOf(c.dist, c.shape), shared = layoutOf(c.shared, c.shape);
    auto plan = planMatrixTileLoad(dist, shared, c.bits);
    ASSERT_TRUE(plan.ok()) << plan.message();
    ASSERT_TRUE(plan->has_value()) << "no ldmatrix plan";
    EXPECT_EQ((*plan)->trans, c.trans);
    EXPECT_EQ((*plan)->instructions.size(), c.instructions);
    EXPECT_EQ(simulate(dist, shared, **plan), "");
  }
}

// ttg.memdesc_subslice: the dot operands of K slices of the pipelined matmul's
// ring tiles, loaded by ldmatrix from the tile's layout XOR the view's origin.
TEST(SharedTileLoad, SubsliceLoadsReadTheParentsElements) {
  const std::string mma4 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
                           "[2, 2], instrShape = [16, 8]}>";
  auto dot = [&](int idx) {
    return "#ttg.dot_op<{opIdx = " + std::to_string(idx) + ", parent = " + mma4 + ", kWidth = 2}>";
  };
  struct View {
    int idx;
    std::string shared;
    std::vector<int64_t> tile, shape, origin;
  };
  const std::string sa = "#ttg.swizzled_shared<{vec = 8, perPhase = 2, "
                         "maxPhase = 4, order = [1, 0]}>";
  const std::string sb = "#ttg.swizzled_shared<{vec = 8, perPhase = 1, "
                         "maxPhase = 8, order = [1, 0]}>";
  std::vector<View> views = {
      {0, sa, {128, 32}, {128, 16}, {0, 0}},  {0, sa, {128, 32}, {128, 16}, {0, 16}},
      {0, sa, {128, 64}, {128, 16}, {0, 48}}, {0, sa, {128, 32}, {64, 16}, {64, 16}},
      {1, sb, {32, 128}, {16, 128}, {0, 0}},  {1, sb, {32, 128}, {16, 128}, {16, 0}},
      {1, sb, {64, 128}, {16, 128}, {48, 0}},
  };
  for (const View &v : views) {
    SCOPED_TRACE("operand " + std::to_string(v.idx) + " view at " + std::to_string(v.origin[0]) +
                 "," + std::to_string(v.origin[1]));
    LinearLayout shared = layoutOf(v.shared, v.tile);
    auto dist = widenToTile(layoutOf(dot(v.idx), v.shape), shared);
    ASSERT_TRUE(dist.ok()) << dist.message();
    auto x = viewOrigin(shared, v.origin);
    ASSERT_TRUE(x.ok()) << x.message();
    auto plan = planMatrixTileLoad(*dist, shared, 16);
    ASSERT_TRUE(plan.ok()) << plan.message();
    ASSERT_TRUE(plan->has_value()) << "no ldmatrix plan";
    EXPECT_EQ(simulate(*dist, shared, **plan, v.origin, *x), "");
    // XOR below a 16-byte row would break ldmatrix's rows.
    EXPECT_EQ(*x & 7, 0u);
  }
}

// The law behind views: for every swizzled layout of a 64x64 tile and every
// view whose origin is a multiple of its shape, the tile's element at
// origin + x sits at offset L^-1(x) XOR L^-1(origin) (brute force over x).
TEST(SharedTileLoad, ViewOffsetsAreTheTilesXorTheOrigin) {
  for (int vec : {1, 2, 8})
    for (int per : {1, 2, 4})
      for (int max : {1, 4, 8}) {
        std::string attr = "#ttg.swizzled_shared<{vec = " + std::to_string(vec) +
                           ", perPhase = " + std::to_string(per) +
                           ", maxPhase = " + std::to_string(max) + ", order = [1, 0]}>";
        SCOPED_TRACE(attr);
        LinearLayout l = layoutOf(attr, {64, 64});
        auto inv = l.invert();
        ASSERT_TRUE(inv.ok());
        for (int64_t s0 : {1, 8, 32})
          for (int64_t s1 : {4, 16, 64})
            for (int64_t o0 = 0; o0 < 64; o0 += s0 * 3 / 2 + 1) {
              int64_t a0 = o0 - o0 % s0;
              for (int64_t a1 = 0; a1 < 64; a1 += s1) {
                int64_t origin[] = {a0, a1};
                auto c = viewOrigin(l, origin);
                ASSERT_TRUE(c.ok()) << c.message();
                for (int64_t x0 = 0; x0 < s0; ++x0)
                  for (int64_t x1 = 0; x1 < s1; ++x1) {
                    uint64_t at = inv->apply(
                        inv->packInput(std::vector<uint64_t>{uint64_t(x0), uint64_t(x1)}));
                    uint64_t p = l.apply(at ^ *c);
                    ASSERT_EQ(l.outValue(p, 0), uint64_t(a0 + x0));
                    ASSERT_EQ(l.outValue(p, 1), uint64_t(a1 + x1));
                  }
              }
            }
      }
}

TEST(SharedTileLoad, LayoutsLdmatrixCannotLoadGetNoPlan) {
  // A swizzle that breaks the rows' 16 contiguous bytes (vec 2), and a blocked
  // destination.
  const std::string mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
                          "[1, 1], instrShape = [16, 8]}>";
  LinearLayout a = layoutOf("#ttg.dot_op<{opIdx = 0, parent = " + mma + ", kWidth = 2}>", {16, 16});
  LinearLayout s = layoutOf("#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = "
                            "[1, 0]}>",
                            {16, 16});
  auto plan = planMatrixTileLoad(a, s, 16);
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->has_value());
  LinearLayout blocked = layoutOf("#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], "
                                  "warpsPerCTA = [1, 1], order = [1, 0]}>",
                                  {16, 16});
  auto none = planMatrixTileLoad(blocked,
                                 layoutOf("#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase "
                                          "= 1, order = [1, 0]}>",
                                          {16, 16}),
                                 16);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}
