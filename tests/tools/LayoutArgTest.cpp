// Layouts as given on the command line: JSON linear layouts and specs, attribute syntax, tensor
// types, dump aliases, and the errors of each.
#include "query/LayoutArg.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::query;

namespace {

const char *kBlockedAttr = "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], "
                           "warpsPerCTA = [1, 2], order = [1, 0]}>";
const char *kBlockedJson =
    R"({"kind": "blocked", "size_per_thread": [2, 2], "threads_per_warp": [8, 4],
                            "warps_per_cta": [1, 2], "order": [1, 0]})";
const char *kLinearJson =
    R"({"in_dims": [["register", [[0,1],[1,0]]], ["lane", [[0,2],[0,4],[2,0],[4,0],[8,0]]],
                           ["warp", [[0,8]]], ["block", []]], "out_dims": [["dim0",16],["dim1",16]]})";

std::optional<std::vector<int64_t>> shape16() { return std::vector<int64_t>{16, 16}; }

} // namespace

TEST(LayoutArg, EveryFormGivesTheSameLayout) {
  auto fromAttr = layoutFromArg(kBlockedAttr, shape16());
  ASSERT_TRUE(fromAttr.ok()) << fromAttr.message();
  EXPECT_TRUE(fromAttr->spec.has_value());
  auto fromJson = layoutFromArg(kBlockedJson, shape16());
  ASSERT_TRUE(fromJson.ok()) << fromJson.message();
  auto fromLinear = layoutFromArg(kLinearJson, std::nullopt);
  ASSERT_TRUE(fromLinear.ok()) << fromLinear.message();
  EXPECT_FALSE(fromLinear->spec.has_value());
  auto fromString = layoutFromArg(std::string("\"") + kBlockedAttr + "\"", shape16());
  ASSERT_TRUE(fromString.ok()) << fromString.message();
  auto fromTensor =
      layoutFromArg(std::string("tensor<16x16xf16, ") + kBlockedAttr + ">", std::nullopt);
  ASSERT_TRUE(fromTensor.ok()) << fromTensor.message();
  EXPECT_EQ(fromAttr->layout, fromJson->layout);
  EXPECT_EQ(fromAttr->layout, fromLinear->layout);
  EXPECT_EQ(fromAttr->layout, fromString->layout);
  EXPECT_EQ(fromAttr->layout, fromTensor->layout);
}

TEST(LayoutArg, AliasesAndRankHints) {
  auto aliases = parseAttrAliases(std::string("#blocked = ") + kBlockedAttr + "\n");
  ASSERT_TRUE(aliases.ok());
  auto a = layoutFromArg("tensor<16x16xf32, #blocked>", std::nullopt, *aliases);
  ASSERT_TRUE(a.ok()) << a.message();
  // nvmma_shared says its rank only through the shape it is used with.
  auto nv = layoutFromArg("#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
                          "elementBitWidth = 16}>",
                          std::vector<int64_t>{2, 8, 64});
  ASSERT_TRUE(nv.ok()) << nv.message();
  EXPECT_EQ(nv->spec->rank(), 3);
}

TEST(LayoutArg, Errors) {
  auto noShape = layoutFromArg(kBlockedAttr, std::nullopt);
  ASSERT_FALSE(noShape.ok());
  EXPECT_EQ(noShape.message(), "a layout spec needs a tensor shape (e.g. --shape 16x16)");
  auto wrongShape = layoutFromArg(kLinearJson, std::vector<int64_t>{16, 8});
  ASSERT_FALSE(wrongShape.ok());
  EXPECT_EQ(wrongShape.message(),
            "the linear layout's out dims have sizes 16x16, not the shape given, 16x8");
  auto tensorMismatch = layoutFromArg(std::string("tensor<16x16xf16, ") + kBlockedAttr + ">",
                                      std::vector<int64_t>{32, 16});
  ASSERT_FALSE(tensorMismatch.ok());
  EXPECT_EQ(tensorMismatch.message(),
            "the tensor type's shape 16x16 differs from the shape given, 32x16");
  auto badJson = layoutFromArg("{\"kind\": ", shape16());
  ASSERT_FALSE(badJson.ok());
  // Where and why, in the JSON parser's words after ours.
  EXPECT_EQ(badJson.message().rfind("the layout is not valid JSON at line 1, column 9: ", 0), 0u)
      << badJson.message();
  EXPECT_NE(badJson.message().find("unexpected end of input"), std::string::npos)
      << badJson.message();
  auto neither = layoutFromArg("blocked", shape16());
  ASSERT_FALSE(neither.ok());
  EXPECT_EQ(neither.message(), "expected a layout: JSON ({...}), attribute syntax (#ttg....), a "
                               "tensor type (tensor<...>) or cute:SHAPE:STRIDE");
  auto badAttr = layoutFromArg("#ttg.blocked<{sizePerThread = [2}>", shape16());
  ASSERT_FALSE(badAttr.ok());
  EXPECT_EQ(badAttr.message(), "1:33: expected ',' or ']' in a list, found '}'");
  auto noLayout = layoutFromArg("tensor<16x16xf16>", std::nullopt);
  ASSERT_FALSE(noLayout.ok());
  EXPECT_EQ(noLayout.message(), "tensor type has no layout (expected tensor<16x16xf32, #layout>)");
}

TEST(LayoutArg, CuteLayoutsAreDrawnAsSharedLayouts) {
  // (4,8):(8,1) is a row-major 4x8 tile: offset 8 is row 1, column 0.
  auto a = layoutFromArg("cute:(4,8):(8,1)", std::vector<int64_t>{4, 8});
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_EQ(a->layout.inDimName(0), DimName::offset());
  EXPECT_EQ(a->layout.apply(8), 1u);
  EXPECT_EQ(a->layout.apply(1), 4u); // column 1: dim1 is the out dim above dim0's two bits
  auto quoted = layoutFromArg("\"cute:(4,8):(8,1)\"", std::nullopt);
  ASSERT_TRUE(quoted.ok()) << quoted.message();
  EXPECT_EQ(quoted->layout, a->layout);
  auto wrongShape = layoutFromArg("cute:(4,8):(8,1)", shape16());
  ASSERT_FALSE(wrongShape.ok());
  EXPECT_EQ(wrongShape.message(),
            "the cute layout's out dims have sizes 4x8, not the shape given, 16x16");
  auto notBijective = layoutFromArg("cute:(4,8):(16,1)", std::nullopt);
  ASSERT_FALSE(notBijective.ok());
  EXPECT_EQ(notBijective.message(), "cute layout (4,8):(16,1) is not a bijection, so it has no "
                                    "shared-memory form: it reaches 32 of the 64 offsets below 64");
}
