// local_load through ldmatrix and local_store through stmatrix, checked without a GPU: the
// instructions planMatrixTile plans are simulated with the two instructions' common semantics
// (lane 8i + r supplies row r of matrix i; without .trans lane l holds the word at byte 4 (l % 4)
// of row l / 4, with .trans the 16-bit elements of column l / 4, rows 2 (l % 4) and
// 2 (l % 4) + 1), and every register of every thread must be the element its layout says.
#include "SharedTileMatrix.h"
#include "SharedView.h"

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/F2Subspace.h"
#include "linlayout/layout/LayoutColumns.h"

#include <gtest/gtest.h>

#include <algorithm>

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

// Simulates the plan; returns "" when every register moves to or from its element (a
// duplicate: it holds a moved register's element). With an
// `origin`, dist covers a view of the tile at that origin (its out dims widened
// to the tile's) and the plan reads with `viewXor`: the element of view
// coordinate x must be the tile's element at origin + x, added as numbers.
std::string simulate(const LinearLayout &dist, const LinearLayout &shared,
                     const MatrixTilePlan &plan, std::vector<int64_t> origin = {},
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
    for (const auto &d : plan.duplicates)
      for (uint64_t l = 0; l < 32; ++l) {
        if (f2Apply(regCols, d[0]) != f2Apply(regCols, d[1]))
          return "register " + std::to_string(d[0]) + " duplicates a different element";
        seen[l][size_t(d[0])] = true;
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

// Plans each case in `access`'s direction and simulates it; and, so that the check can fail, a
// plan with its first instruction's words rotated by one must fail the simulation.
void checkPlans(const std::vector<Case> &cases, MatrixTileAccess access) {
  for (const Case &c : cases) {
    SCOPED_TRACE(c.dist + (access == MatrixTileAccess::Load ? " from " : " into ") + c.shared);
    LinearLayout dist = layoutOf(c.dist, c.shape), shared = layoutOf(c.shared, c.shape);
    auto plan = planMatrixTile(dist, shared, c.bits, access);
    ASSERT_TRUE(plan.ok()) << plan.message();
    ASSERT_TRUE(plan->has_value()) << "no matrix plan";
    EXPECT_EQ((*plan)->trans, c.trans);
    EXPECT_EQ((*plan)->instructions.size(), c.instructions);
    EXPECT_EQ(simulate(dist, shared, **plan), "");
    MatrixTilePlan wrong = **plan;
    auto &regs = wrong.instructions.at(0).registers;
    if (regs.size() > size_t(wrong.perWord)) {
      std::rotate(regs.begin(), regs.begin() + wrong.perWord, regs.end());
      EXPECT_NE(simulate(dist, shared, wrong), "");
    }
  }
}

} // namespace

TEST(SharedTileMatrix, LdmatrixPlansLoadEveryRegisterItsElement) {
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
  checkPlans(cases, MatrixTileAccess::Load);
}

// ttg.memdesc_subslice: the dot operands of K slices of the pipelined matmul's
// ring tiles, loaded by ldmatrix from the tile's layout XOR the view's origin.
TEST(SharedTileMatrix, SubsliceLoadsReadTheParentsElements) {
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
    auto plan = planMatrixTile(*dist, shared, 16, MatrixTileAccess::Load);
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
TEST(SharedTileMatrix, ViewOffsetsAreTheTilesXorTheOrigin) {
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

// Layouts the matrix instructions cannot move get no plan (the lowering then uses ld.shared or
// st.shared): a swizzle that breaks the rows' 16 contiguous bytes (vec 2); a blocked layout,
// whose lanes run along rows; an f32 accumulator, whose pair of registers spans 8 bytes of a row,
// not the 4 of a matrix word.
TEST(SharedTileMatrix, LayoutsMatrixInstructionsCannotMoveGetNoPlan) {
  struct NoPlan {
    std::string dist, shared;
    std::vector<int64_t> shape;
    int bits;
    MatrixTileAccess access;
  };
  const std::string mma = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
                          "[1, 1], instrShape = [16, 8]}>";
  const std::string acc = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = "
                          "[4, 1], instrShape = [16, 64, 16]}>";
  const std::string nvmma = "#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                            "elementBitWidth = ";
  const std::vector<NoPlan> cases = {
      {"#ttg.dot_op<{opIdx = 0, parent = " + mma + ", kWidth = 2}>",
       "#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>",
       {16, 16},
       16,
       MatrixTileAccess::Load},
      {"#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], "
       "order = [1, 0]}>",
       "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>",
       {16, 16},
       16,
       MatrixTileAccess::Load},
      {acc, nvmma + "32}>", {64, 64}, 32, MatrixTileAccess::Store},
      {"#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], "
       "order = [1, 0]}>",
       nvmma + "16}>",
       {64, 256},
       16,
       MatrixTileAccess::Store},
  };
  for (const NoPlan &c : cases) {
    SCOPED_TRACE(c.dist + " and " + c.shared);
    auto plan =
        planMatrixTile(layoutOf(c.dist, c.shape), layoutOf(c.shared, c.shape), c.bits, c.access);
    ASSERT_TRUE(plan.ok()) << plan.message();
    EXPECT_FALSE(plan->has_value());
  }
}

// local_store of mma accumulators (rounded to 16 bits, as an epilogue writes C) through
// stmatrix: the wgmma accumulator of the warp-specialized matmuls into their 128-byte swizzled
// C tiles, row-major (stmatrix) and transposed (stmatrix.trans), and an mma.sync accumulator into
// a swizzled_shared tile.
TEST(SharedTileMatrix, StmatrixPlansStoreEveryRegisterToItsElement) {
  auto wgmma = [](int warps, int n) {
    return "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [" +
           std::to_string(warps) + ", 1], instrShape = [16, " + std::to_string(n) + ", 16]}>";
  };
  auto nvmma = [](int swizzle, bool transposed) {
    return "#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(swizzle) +
           ", transposed = " + (transposed ? "true" : "false") + ", elementBitWidth = 16}>";
  };
  const std::string mma2 = "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = "
                           "[2, 2], instrShape = [16, 8]}>";
  std::vector<Case> cases = {
      // 128 registers a thread, 8 a stmatrix.x4.
      {wgmma(8, 256), nvmma(128, false), {128, 256}, 16, false, 16},
      {wgmma(4, 128), nvmma(128, false), {128, 128}, 16, false, 16},
      {wgmma(4, 128), nvmma(64, false), {64, 128}, 16, false, 8},
      {wgmma(8, 256), nvmma(128, true), {128, 256}, 16, true, 16},
      {mma2,
       "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
       {64, 64},
       16,
       false,
       4},
      // Bytes: an 8-bit A operand (kWidth 4), as its ldmatrix load above, stored back.
      {"#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
       "warpsPerCTA = [4, 1], instrShape = [16, 8]}>, kWidth = 4}>",
       "#ttg.swizzled_shared<{vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0]}>",
       {128, 64},
       8,
       false,
       4},
  };
  checkPlans(cases, MatrixTileAccess::Store);
}

// ttg.memdesc_subslice: a quarter of C's 128x256 tile (one TMA box of 128 x 64), stored from the
// accumulator's part by stmatrix at the tile's layout XOR the view's origin.
TEST(SharedTileMatrix, SubsliceStoresWriteTheParentsElements) {
  const std::string acc = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = "
                          "[8, 1], instrShape = [16, 64, 16]}>";
  LinearLayout shared = layoutOf("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                                 "elementBitWidth = 16}>",
                                 {128, 256});
  for (int64_t n0 : {0, 64, 128, 192}) {
    SCOPED_TRACE("view at column " + std::to_string(n0));
    auto dist = widenToTile(layoutOf(acc, {128, 64}), shared);
    ASSERT_TRUE(dist.ok()) << dist.message();
    std::vector<int64_t> origin = {0, n0};
    auto x = viewOrigin(shared, origin);
    ASSERT_TRUE(x.ok()) << x.message();
    auto plan = planMatrixTile(*dist, shared, 16, MatrixTileAccess::Store);
    ASSERT_TRUE(plan.ok()) << plan.message();
    ASSERT_TRUE(plan->has_value()) << "no stmatrix plan";
    EXPECT_EQ((*plan)->instructions.size(), 4u);
    EXPECT_EQ(simulate(*dist, shared, **plan, origin, *x), "");
    EXPECT_EQ(*x & 7, 0u);
  }
}
