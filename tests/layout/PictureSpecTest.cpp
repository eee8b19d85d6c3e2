// The published pictures again, this time from the layouts as Triton and Gluon write them:
// attribute text -> LayoutSpec -> linear layout -> picture.
#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/OwnerMap.h"
#include "linlayout/layout/Picture.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace linlayout;

namespace {

OwnerMap mapOf(std::string_view attr, std::vector<int64_t> shape) {
  auto spec = parseLayoutAttr(attr);
  EXPECT_TRUE(spec.ok()) << spec.message();
  auto l = toLinearLayout(*spec, shape);
  EXPECT_TRUE(l.ok()) << l.message();
  auto m = OwnerMap::build(*l);
  EXPECT_TRUE(m.ok()) << m.message();
  return *m;
}

PictureOptions docsOptions() {
  PictureOptions o;
  o.style = CellStyle::ThreadIds;
  o.maxRows = 8;
  return o;
}

std::vector<std::string> tokens(const std::string &line) {
  std::vector<std::string> out;
  std::istringstream is(line);
  std::string t;
  while (is >> t)
    if (t != "[" && t != "]" && t != ";")
      out.push_back(t);
  return out;
}

const char *kDocsBlocked = "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [1, 2], order = [1, 0]}>";

} // namespace

TEST(PictureFromSpec, TritonDocsBlockedExample1) {
  EXPECT_EQ(renderTensorMap(mapOf(kDocsBlocked, {16, 16}), docsOptions()),
            R"([ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
...
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
)");
}

TEST(PictureFromSpec, TritonDocsBlockedExample2) {
  std::string got = renderTensorMap(mapOf(kDocsBlocked, {32, 32}), docsOptions());
  std::istringstream is(got);
  std::string first;
  std::getline(is, first);
  EXPECT_EQ(first, "[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35  0  0  1  1  2  2  3  3  "
                   "; 32 32 33 33 34 34 35 35 ]");
  EXPECT_NE(got.find("\n...                                                 ...\n"),
            std::string::npos)
      << got;
}

TEST(PictureFromSpec, TritonDocsBlockedExample3Ctas) {
  std::string got = renderTensorMap(
      mapOf("#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], "
            "order = [1, 0], CTAsPerCGA = [2, 2], CTASplitNum = [2, 2], CTAOrder = [1, 0]}>",
            {32, 32}),
      docsOptions());
  std::istringstream is(got);
  std::string l0, l1;
  std::getline(is, l0);
  std::getline(is, l1);
  EXPECT_EQ(l0, "CTA [0,0]                                              CTA [0,1]");
  EXPECT_EQ(l1, "[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]  [ 0  0  1  1  2  2  3  3  "
                "; 32 32 33 33 34 34 35 35 ]");
  EXPECT_NE(got.find("\n\nCTA [1,0]                                              CTA [1,1]\n"),
            std::string::npos)
      << got;
}

// TritonGPUAttrDefs.td, NvidiaMmaEncodingAttr, version 2: "the matrix L corresponding to
// blockTileSize=[32,16]" (warps 2x2 of m16n8 tiles). Its rows, token by token.
TEST(PictureFromSpec, TritonDocsMmaV2Accumulator) {
  OwnerMap m = mapOf("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
                     "instrShape = [16, 8]}>",
                     {32, 16});
  PictureOptions o;
  o.style = CellStyle::ThreadIds;
  std::vector<std::string> rows;
  std::istringstream is(renderTensorMap(m, o));
  for (std::string line; std::getline(is, line);)
    rows.push_back(line);
  ASSERT_EQ(rows.size(), 32u);
  auto expectRow = [&](size_t r, const char *seed) {
    EXPECT_EQ(tokens(rows[r]), tokens(seed)) << "row " << r << ": " << rows[r];
  };
  expectRow(0, "0   0   1   1   2   2   3   3   32  32  33  33  34  34  35  35");
  expectRow(1, "4   4   5   5   6   6   7   7   36  36  37  37  38  38  39  39");
  expectRow(7, "28  28  29  29  30  30  31  31  60  60  61  61  62  62  63  63");
  expectRow(8, "0   0   1   1   2   2   3   3   32  32  33  33  34  34  35  35");
  expectRow(9, "4   4   5   5   6   6   7   7   36  36  37  37  38  38  39  39");
  expectRow(15, "28  28  29  29  30  30  31  31  60  60  61  61  62  62  63  63");
  expectRow(16, "64  64  65  65  66  66  67  67  96  96  97  97  98  98  99  99");
  expectRow(17, "68  68  69  69  70  70  71  71  100 100 101 101 102 102 103 103");
  expectRow(23, "92  92  93  93  94  94  95  95  124 124 125 125 126 126 127 127");
  expectRow(24, "64  64  65  65  66  66  67  67  96  96  97  97  98  98  99  99");
  expectRow(31, "92  92  93  93  94  94  95  95  124 124 125 125 126 126 127 127");
}

// Gluon's layout tutorial, its warp tile of elements (drawn with threads_per_warp [2, 16]; see
// PictureTest.cpp) and its broadcast over 4 warps.
TEST(PictureFromSpec, GluonTutorialWarpTiles) {
  PictureOptions o;
  o.maxCols = 8;
  o.colHead = 4;
  o.colTail = 4;
  EXPECT_EQ(renderTensorMap(mapOf("#ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [2, 16], "
                                  "warpsPerCTA = [1, 1], order = [1, 0]}>",
                                  {4, 64}),
                            o),
            R"([[ T0:0,  T0:1,  T0:2,  T0:3, ..., T15:0, T15:1, T15:2, T15:3],
 [ T0:4,  T0:5,  T0:6,  T0:7, ..., T15:4, T15:5, T15:6, T15:7],
 [T16:0, T16:1, T16:2, T16:3, ..., T31:0, T31:1, T31:2, T31:3],
 [T16:4, T16:5, T16:6, T16:7, ..., T31:4, T31:5, T31:6, T31:7]]
)");
  OwnerMap b = mapOf("#ttg.blocked<{sizePerThread = [2, 4], threadsPerWarp = [2, 16], "
                     "warpsPerCTA = [2, 2], order = [1, 0]}>",
                     {4, 64});
  EXPECT_EQ(cellText(b, 0, CellStyle::Owners), "T0:0|T32:0|T64:0|T96:0");
  EXPECT_EQ(cellText(b, 63, CellStyle::Owners), "T15:3|T47:3|T79:3|T111:3");
  EXPECT_EQ(cellText(b, 3 * 64, CellStyle::Owners), "T16:4|T48:4|T80:4|T112:4");
  EXPECT_EQ(cellText(b, 4 * 64 - 1, CellStyle::Owners), "T31:7|T63:7|T95:7|T127:7");
}
