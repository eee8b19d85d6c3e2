// Where does each register of one layout find its element in another layout?
// Build two layouts of a 32x16 tile over 4 warps, then solve dst(c(x)) == src(x).
#include "linlayout/layout/LinearLayout.h"

#include <array>
#include <cstdio>

using namespace linlayout;

int main() {
  DimName reg = DimName::reg(), lane = DimName::lane(), warp = DimName::warp();
  DimName d0 = DimName::dim(0), d1 = DimName::dim(1);
  // blocked([1,4],[8,4],[4,1],[1,0]): each thread holds 4 consecutive elements of a row, 4 lanes
  // span the 16 columns, 8 lanes go down the rows, 4 warps stack along dim0.
  InDimBases srcIns[] = {{reg, {{0, 1}, {0, 2}}},
                         {lane, {{0, 4}, {0, 8}, {1, 0}, {2, 0}, {4, 0}}},
                         {warp, {{8, 0}, {16, 0}}}};
  // blocked([4,1],[4,8],[2,2],[0,1]): each thread holds 4 consecutive elements of a column.
  InDimBases dstIns[] = {{reg, {{1, 0}, {2, 0}}},
                         {lane, {{4, 0}, {8, 0}, {0, 1}, {0, 2}, {0, 4}}},
                         {warp, {{16, 0}, {0, 8}}}};
  DimSize outs[] = {{d0, 32}, {d1, 16}};
  auto src = LinearLayout::fromBases(srcIns, outs);
  auto dst = LinearLayout::fromBases(dstIns, outs);
  if (!src.ok() || !dst.ok()) {
    std::fprintf(stderr, "error: %s\n", (!src.ok() ? src : dst).message().c_str());
    return 1;
  }
  // c maps (register, lane, warp) of src to the (register, lane, warp) of dst holding the same
  // element: the conversion src -> dst as a map between hardware locations.
  auto c = src->invertAndCompose(*dst);
  if (!c.ok()) {
    std::fprintf(stderr, "error: %s\n", c.message().c_str());
    return 1;
  }
  std::printf("src -> dst as hardware moves:%s\n", c->toString().c_str());
  // Warp 1 of src holds rows 8..15; where does its first element live in dst?
  uint64_t w = c->apply(c->packInput(std::array<uint64_t, 3>{0, 0, 1}));
  std::printf("src warp 1 register 0 lane 0 lives in dst register %llu lane %llu warp %llu\n",
              (unsigned long long)c->outValue(w, 0), (unsigned long long)c->outValue(w, 1),
              (unsigned long long)c->outValue(w, 2));
  return 0;
}
