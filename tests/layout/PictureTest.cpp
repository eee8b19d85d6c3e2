// Pictures of layouts: the printed examples of Triton's TritonGPU attribute docs and of Gluon's
// layout tutorial, reproduced from the linear layouts of the layouts they describe.
#include "linlayout/layout/Picture.h"
#include "linlayout/layout/OwnerMap.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace linlayout;

namespace {

using Bases = std::vector<std::vector<uint64_t>>;

LinearLayout layout2D(Bases reg, Bases lane, Bases warp, Bases block, uint64_t rows,
                      uint64_t cols) {
  std::vector<InDimBases> ins;
  ins.push_back({DimName::reg(), reg});
  ins.push_back({DimName::lane(), lane});
  ins.push_back({DimName::warp(), warp});
  ins.push_back({DimName::block(), block});
  std::vector<DimSize> outs{{DimName::dim(0), rows}, {DimName::dim(1), cols}};
  auto l = LinearLayout::fromBases(ins, outs);
  EXPECT_TRUE(l.ok()) << l.message();
  return *l;
}

LinearLayout layout1D(Bases reg, Bases lane, uint64_t n) {
  std::vector<InDimBases> ins{{DimName::reg(), reg}, {DimName::lane(), lane}};
  std::vector<DimSize> outs{{DimName::dim(0), n}};
  auto l = LinearLayout::fromBases(ins, outs);
  EXPECT_TRUE(l.ok()) << l.message();
  return *l;
}

OwnerMap mapOf(const LinearLayout &l) {
  auto m = OwnerMap::build(l);
  EXPECT_TRUE(m.ok()) << m.message();
  return *m;
}

std::vector<std::string> lines(const std::string &s) {
  std::vector<std::string> out;
  std::istringstream is(s);
  std::string line;
  while (std::getline(is, line))
    out.push_back(line);
  return out;
}

// Whether `seed` is `full` with some runs of lines replaced by a line of only dots and spaces
// (published pictures sometimes draw "..." where no line is left out).
bool matchesWithElidedLines(const std::string &full, const std::string &seed) {
  std::vector<std::string> f = lines(full), s = lines(seed);
  auto isDots = [](const std::string &l) {
    return !l.empty() && l.find_first_not_of(". ") == std::string::npos;
  };
  size_t i = 0;
  for (size_t k = 0; k < s.size(); ++k) {
    if (isDots(s[k])) {
      // Skip to the next line of `full` equal to the seed's next real line.
      if (k + 1 == s.size())
        return true;
      while (i < f.size() && f[i] != s[k + 1])
        ++i;
      continue;
    }
    if (i >= f.size() || f[i] != s[k])
      return false;
    ++i;
  }
  return i == f.size();
}

std::string squeezeSpaces(const std::string &s) {
  std::string out;
  for (char c : s)
    if (c != ' ')
      out += c;
  return out;
}

// The blocked layout of the TritonGPU docs: sizePerThread [2,2], threadsPerWarp [8,4],
// warpsPerCTA [1,2], order [1,0], on 16x16.
LinearLayout docsBlocked16() {
  return layout2D({{0, 1}, {1, 0}}, {{0, 2}, {0, 4}, {2, 0}, {4, 0}, {8, 0}}, {{0, 8}}, {}, 16, 16);
}

PictureOptions docsOptions() {
  PictureOptions o;
  o.style = CellStyle::ThreadIds;
  o.maxRows = 8; // the docs elide inside each 16-row tile: 4 rows, "...", 2 rows
  o.rowHead = 4;
  o.rowTail = 2;
  return o;
}

} // namespace

// TritonGPUAttrDefs.td, BlockedEncodingAttr, Example 1.
TEST(PictureSeeds, TritonDocsBlockedExample1) {
  const std::string seed = R"([ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
...
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
)";
  OwnerMap m = mapOf(docsBlocked16());
  EXPECT_EQ(renderTensorMap(m, docsOptions()), seed);
  PictureOptions whole = docsOptions();
  whole.maxRows = 64;
  EXPECT_TRUE(matchesWithElidedLines(renderTensorMap(m, whole), seed));
}

// Example 2: the same layout on 32x32 repeats its 16x16 tile twice along each dim.
TEST(PictureSeeds, TritonDocsBlockedExample2) {
  const std::string seed =
      R"([ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35  0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35  0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39  4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39  4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
...                                                 ...
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63  28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63  28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35  0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35  0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39  4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39  4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
...                                                 ...
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63  28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63  28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
)";
  LinearLayout l = layout2D({{0, 1}, {1, 0}, {0, 16}, {16, 0}},
                            {{0, 2}, {0, 4}, {2, 0}, {4, 0}, {8, 0}}, {{0, 8}}, {}, 32, 32);
  EXPECT_EQ(renderTensorMap(mapOf(l), docsOptions()), seed);
}

// Example 3: 32x32 over 4 CTAs (2x2), each CTA a 16x16 tile of the Example 1 layout.
TEST(PictureSeeds, TritonDocsBlockedExample3Ctas) {
  const std::string seed =
      R"(CTA [0,0]                                              CTA [0,1]
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]  [ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]  [ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]  [ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]  [ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
...                                                    ...
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]  [ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]  [ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]

CTA [1,0]                                              CTA [1,1]
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]  [ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]  [ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]  [ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]  [ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
...                                                    ...
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]  [ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]  [ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
)";
  LinearLayout l = layout2D({{0, 1}, {1, 0}}, {{0, 2}, {0, 4}, {2, 0}, {4, 0}, {8, 0}}, {{0, 8}},
                            {{0, 16}, {16, 0}}, 32, 32);
  EXPECT_EQ(renderTensorMap(mapOf(l), docsOptions()), seed);
}

// DistributedEncoding: a 2x8 tensor under a 4x4 layout of 16 threads wraps along columns and
// broadcasts along rows: L(T) = [{0,8}, {1,9}, {2,10}, {3,11}, {0,8}, ...; {4,12}, ...].
TEST(PictureSeeds, TritonDocsWrapAndBroadcast) {
  LinearLayout l = layout2D({{0, 4}}, {{0, 1}, {0, 2}, {1, 0}, {0, 0}}, {}, {}, 2, 8);
  OwnerMap m = mapOf(l);
  const char *expect[2][8] = {{"0|8", "1|9", "2|10", "3|11", "0|8", "1|9", "2|10", "3|11"},
                              {"4|12", "5|13", "6|14", "7|15", "4|12", "5|13", "6|14", "7|15"}};
  for (int64_t r = 0; r < 2; ++r)
    for (int64_t c = 0; c < 8; ++c)
      EXPECT_EQ(cellText(m, r * 8 + c, CellStyle::ThreadIds), expect[r][c]) << r << "," << c;
}

// SliceEncoding: the 4x4 layout of 16 threads with dim 0 (then dim 1) squeezed out, over 8
// elements: [{0,4,8,12}, {1,5,9,13}, ..., {3,7,11,15}, {0,4,8,12}, ...].
TEST(PictureSeeds, TritonDocsSlice) {
  OwnerMap dim0 = mapOf(layout1D({{4}}, {{1}, {2}, {0}, {0}}, 8));
  OwnerMap dim1 = mapOf(layout1D({{4}}, {{0}, {0}, {1}, {2}}, 8));
  const char *e0[4] = {"0|4|8|12", "1|5|9|13", "2|6|10|14", "3|7|11|15"};
  const char *e1[4] = {"0|1|2|3", "4|5|6|7", "8|9|10|11", "12|13|14|15"};
  for (int64_t i = 0; i < 8; ++i) {
    EXPECT_EQ(cellText(dim0, i, CellStyle::ThreadIds), e0[i % 4]);
    EXPECT_EQ(cellText(dim1, i, CellStyle::ThreadIds), e1[i % 4]);
  }
}

// Gluon's layout tutorial: the registers of one thread for size_per_thread [2,4].
TEST(PictureSeeds, GluonTutorialThreadTile) {
  std::vector<InDimBases> ins{{DimName::reg(), {{0, 1}, {0, 2}, {1, 0}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 2}, {DimName::dim(1), 4}};
  OwnerMap rowMajor = mapOf(*LinearLayout::fromBases(ins, outs));
  EXPECT_EQ(renderTensorMap(rowMajor), "[[T:0, T:1, T:2, T:3],\n [T:4, T:5, T:6, T:7]]\n");
  ins[0].bases = {{1, 0}, {0, 1}, {0, 2}}; // order [0, 1]
  OwnerMap colMajor = mapOf(*LinearLayout::fromBases(ins, outs));
  EXPECT_EQ(renderTensorMap(colMajor), "[[T:0, T:2, T:4, T:6],\n [T:1, T:3, T:5, T:7]]\n");
}

// The tutorial's warp tile of threads, 2 rows of 16 lanes (it shows 3 columns, "...", 1).
TEST(PictureSeeds, GluonTutorialWarpTileOfThreads) {
  std::vector<InDimBases> ins{{DimName::lane(), {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {1, 0}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 2}, {DimName::dim(1), 16}};
  OwnerMap m = mapOf(*LinearLayout::fromBases(ins, outs));
  PictureOptions o;
  o.maxCols = 4;
  o.colHead = 3;
  o.colTail = 1;
  EXPECT_EQ(renderTensorMap(m, o), "[[ T0,  T1,  T2, ..., T15],\n [T16, T17, T18, ..., T31]]\n");
}

// The tutorial's warp tile over elements. Its text says threads_per_warp=[16, 2], but its
// pictures (T0..T15 along a row) are those of threads_per_warp=[2, 16], drawn here; its "..."
// row stands for no rows (the tile has 4).
TEST(PictureSeeds, GluonTutorialWarpTileOfElements) {
  const std::string seed = R"([[ T0:0,  T0:1,  T0:2,  T0:3, ..., T15:0, T15:1, T15:2, T15:3],
 [ T0:4,  T0:5,  T0:6,  T0:7, ..., T15:4, T15:5, T15:6, T15:7],
 ...
 [T16:0, T16:1, T16:2, T16:3, ..., T31:0, T31:1, T31:2, T31:3],
 [T16:4, T16:5, T16:6, T16:7, ..., T31:4, T31:5, T31:6, T31:7]]
)";
  LinearLayout l =
      layout2D({{0, 1}, {0, 2}, {1, 0}}, {{0, 4}, {0, 8}, {0, 16}, {0, 32}, {2, 0}}, {}, {}, 4, 64);
  PictureOptions o;
  o.maxCols = 8;
  o.colHead = 4;
  o.colTail = 4;
  EXPECT_TRUE(matchesWithElidedLines(renderTensorMap(mapOf(l), o), seed))
      << renderTensorMap(mapOf(l), o);
}

// The tutorial's broadcast picture: a tensor half the block in each dim, so all 4 warps hold
// every element. The tutorial pads its first column by hand; compared without spaces.
TEST(PictureSeeds, GluonTutorialBroadcastOverWarps) {
  const std::string seed = R"([[ T0:0|T32:0|T64:0|T96:0,  ..., T15:3|T47:3|T79:3|T111:3],
 [ T0:4|T32:4|T64:4|T96:4,  ..., T15:7|T47:7|T79:7|T111:7],
 ...
 [T16:0|T48:0|T80:0|T112:0, ..., T31:3|T63:3|T95:3|T127:3],
 [T16:4|T48:4|T80:4|T112:4, ..., T31:7|T63:7|T95:7|T127:7]]
)";
  LinearLayout l = layout2D({{0, 1}, {0, 2}, {1, 0}}, {{0, 4}, {0, 8}, {0, 16}, {0, 32}, {2, 0}},
                            {{0, 0}, {0, 0}}, {}, 4, 64);
  PictureOptions o;
  o.maxCols = 2;
  o.colHead = 1;
  o.colTail = 1;
  std::string got = renderTensorMap(mapOf(l), o);
  EXPECT_TRUE(matchesWithElidedLines(squeezeSpaces(got), squeezeSpaces(seed))) << got;
}

TEST(Picture, CtasAreQualifiedInOwnerCells) {
  LinearLayout l = layout2D({}, {{0, 1}}, {}, {{1, 0}}, 2, 2);
  OwnerMap m = mapOf(l);
  EXPECT_EQ(renderTensorMap(m), "[[C0:T0:0, C0:T1:0],\n [C1:T0:0, C1:T1:0]]\n");
}

TEST(Picture, DuplicatedCtasAreQualifiedInThreadIds) {
  LinearLayout l = layout2D({}, {{0, 1}}, {}, {{0, 0}}, 1, 2);
  PictureOptions o;
  o.style = CellStyle::ThreadIds;
  EXPECT_EQ(renderTensorMap(mapOf(l), o), "[ C0:0|C1:0 C0:1|C1:1 ]\n");
}

TEST(Picture, UnreachedElementsAreDashes) {
  std::vector<InDimBases> ins{{DimName::lane(), {{1}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 4}};
  OwnerMap m = mapOf(*LinearLayout::fromBases(ins, outs));
  EXPECT_EQ(renderTensorMap(m), "[T0, T1,  -,  -]\n");
}

TEST(Picture, RankThreeIsDrawnPerOuterIndex) {
  std::vector<InDimBases> ins{{DimName::lane(), {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 2}, {DimName::dim(1), 2}, {DimName::dim(2), 2}};
  OwnerMap m = mapOf(*LinearLayout::fromBases(ins, outs));
  EXPECT_EQ(renderTensorMap(m),
            "[0, :, :] =\n[[T0, T1],\n [T2, T3]]\n\n[1, :, :] =\n[[T4, T5],\n [T6, T7]]\n");
}

TEST(Picture, LargeTensorsAreElided) {
  // 256x256 blocked: size_per_thread [1,8], threads_per_warp [4,8], warps_per_cta [4,1].
  LinearLayout l =
      layout2D({{0, 1}, {0, 2}, {0, 4}, {0, 64}, {0, 128}, {16, 0}, {32, 0}, {64, 0}, {128, 0}},
               {{0, 8}, {0, 16}, {0, 32}, {1, 0}, {2, 0}}, {{4, 0}, {8, 0}}, {}, 256, 256);
  OwnerMap m = mapOf(l);
  std::string owners = renderTensorMap(m);
  std::vector<std::string> ls = lines(owners);
  EXPECT_LT(ls.size(), 40u);
  for (const auto &line : ls)
    EXPECT_LT(line.size(), 200u) << line;
  EXPECT_EQ(ls.front().substr(0, 12), "[[    T0:0, ");
  EXPECT_NE(owners.find(" ..."), std::string::npos);
  PictureOptions o;
  o.style = CellStyle::ThreadIds;
  for (const auto &line : lines(renderTensorMap(m, o)))
    EXPECT_LT(line.size(), 200u) << line;
}

TEST(Picture, ShownIndicesKeepsTheEnds) {
  LinearLayout l = layout2D({{0, 1}, {1, 0}, {0, 16}, {16, 0}},
                            {{0, 2}, {0, 4}, {2, 0}, {4, 0}, {8, 0}}, {{0, 8}}, {}, 32, 32);
  OwnerMap m = mapOf(l);
  EXPECT_EQ(shownIndices(m, 0, 8, 4, 2, 2, 1),
            (std::vector<int64_t>{0, 1, 2, 3, kElided, 14, 15, 16, 17, 18, 19, kElided, 30, 31}));
  EXPECT_EQ(shownIndices(m, 0, 64, 4, 2, 2, 1).size(), 32u);
}

TEST(PictureInverse, ListsEachThreadsRegisters) {
  OwnerMap m = mapOf(docsBlocked16());
  auto inv = renderInverse(m);
  ASSERT_TRUE(inv.ok()) << inv.message();
  std::vector<std::string> ls = lines(*inv);
  EXPECT_EQ(ls[0], "          r0      r1      r2      r3");
  EXPECT_EQ(ls[1], "T0:    (0,0)   (0,1)   (1,0)   (1,1)");
  EXPECT_EQ(ls[2], "T1:    (0,2)   (0,3)   (1,2)   (1,3)");
  EXPECT_EQ(ls.back(), "T63: (14,14) (14,15) (15,14) (15,15)");
}

TEST(PictureShared, OffsetsAndBanks) {
  // A 4x8 tile of 32-bit elements, row-major, rows XOR-swizzled by pairs of columns.
  std::vector<InDimBases> ins{{DimName::offset(), {{0, 1}, {0, 2}, {0, 4}, {1, 2}, {2, 4}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 4}, {DimName::dim(1), 8}};
  OwnerMap m = mapOf(*LinearLayout::fromBases(ins, outs));
  EXPECT_TRUE(m.isShared());
  EXPECT_EQ(renderTensorMap(m), "[[ 0,  1,  2,  3,  4,  5,  6,  7],\n"
                                " [10, 11,  8,  9, 14, 15, 12, 13],\n"
                                " [20, 21, 22, 23, 16, 17, 18, 19],\n"
                                " [30, 31, 28, 29, 26, 27, 24, 25]]\n");
  auto banks = renderBanks(m, 32);
  ASSERT_TRUE(banks.ok());
  EXPECT_EQ(lines(*banks)[1], " [10, 11,  8,  9, 14, 15, 12, 13],");
  auto banks16 = renderBanks(m, 16);
  ASSERT_TRUE(banks16.ok());
  EXPECT_EQ(lines(*banks16)[0], "[[ 0,  0,  1,  1,  2,  2,  3,  3],");
  EXPECT_FALSE(renderBanks(m, 12).ok());
  auto inv = renderInverse(m, {}, 32);
  ASSERT_TRUE(inv.ok()) << inv.message();
  EXPECT_EQ(lines(*inv)[1].substr(0, 21), "offset 0: (0,0) (0,1)");
}

// A padded layout (PictureOptions::padding): one element after every row of 8 moves row r to
// address 9r, so its banks turn by one per row; offsets stay as they are.
TEST(PictureShared, PaddedAddressesAndTheirBanks) {
  std::vector<InDimBases> ins{{DimName::offset(), {{0, 1}, {0, 2}, {0, 4}, {1, 0}, {2, 0}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 4}, {DimName::dim(1), 8}};
  OwnerMap m = mapOf(*LinearLayout::fromBases(ins, outs));
  PictureOptions o;
  o.padding = {{8, 1}};
  EXPECT_EQ(paddedAddress(17, o), 19u);
  EXPECT_EQ(lines(renderTensorMap(m, o))[1], " [ 8,  9, 10, 11, 12, 13, 14, 15],");
  auto addresses = renderAddresses(m, o);
  ASSERT_TRUE(addresses.ok());
  EXPECT_EQ(lines(*addresses)[3], " [27, 28, 29, 30, 31, 32, 33, 34]]");
  auto banks = renderBanks(m, 32, o);
  ASSERT_TRUE(banks.ok());
  EXPECT_EQ(lines(*banks)[3], " [27, 28, 29, 30, 31,  0,  1,  2]]");
  EXPECT_FALSE(renderAddresses(mapOf(docsBlocked16())).ok());
}

TEST(PictureErrors, RejectsForeignDims) {
  std::vector<InDimBases> ins{{DimName::get("thread"), {{1}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 2}};
  auto m = OwnerMap::build(*LinearLayout::fromBases(ins, outs));
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.message(),
            "in-dim 'thread' is not one of register, lane, warp, block, offset, row, col");
}

TEST(PictureErrors, RejectsMixedSharedAndDistributed) {
  std::vector<InDimBases> ins{{DimName::offset(), {{1}}}, {DimName::lane(), {{0}}}};
  std::vector<DimSize> outs{{DimName::dim(0), 2}};
  EXPECT_FALSE(OwnerMap::build(*LinearLayout::fromBases(ins, outs)).ok());
}

TEST(PictureErrors, RejectsHugeLayouts) {
  auto l = LinearLayout::identity1D(uint64_t(1) << 21, DimName::reg(), DimName::dim(0));
  auto m = OwnerMap::build(*l);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.message(), "layout has 21 input bits, more than the 20 a picture enumerates");
}
