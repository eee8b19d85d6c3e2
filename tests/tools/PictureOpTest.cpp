// The `picture` query op: the pictures of `linlayout show` as JSON, and its errors.
#include "query/Query.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using Json = nlohmann::json;
using linlayout::query::answerLine;

namespace {

Json ask(const std::string &line) { return Json::parse(answerLine(line)); }

} // namespace

TEST(PictureOp, DrawsSpecsAndLinearLayouts) {
  Json r = ask(
      R"({"id": 1, "op": "picture", "layout": "#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], warpsPerCTA = [1, 2], order = [1, 0]}>", "shape": [16, 16], "style": "threads", "max_rows": 8})");
  ASSERT_TRUE(r.contains("result")) << r.dump();
  EXPECT_EQ(r["result"]["text"].get<std::string>().substr(0, 54),
            "[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]\n");
  Json lin = ask(
      R"({"op": "picture", "layout": {"in_dims": [["register", [[1]]], ["lane", [[0]]]], "out_dims": [["dim0", 2]]}, "inverse": true})");
  ASSERT_TRUE(lin.contains("result")) << lin.dump();
  EXPECT_EQ(lin["result"]["text"], "[T0:0|T1:0, T0:1|T1:1]\n");
  EXPECT_EQ(lin["result"]["inverse"], "     r0  r1\nT0: (0) (1)\nT1: (0) (1)\n");
  Json shared = ask(
      R"({"op": "picture", "layout": {"kind": "nvmma_shared", "swizzle_byte_width": 32, "element_bitwidth": 16}, "shape": [8, 16]})");
  ASSERT_TRUE(shared.contains("result")) << shared.dump();
  // The element width of an NVMMA layout sets the banks: 2 fp16 elements per bank.
  EXPECT_EQ(shared["result"]["banks"].get<std::string>().substr(0, 14), "[[ 0,  0,  1, ");
}

TEST(PictureOp, Errors) {
  auto error = [](const std::string &line) {
    Json r = ask(line);
    return r.contains("error") ? r["error"].get<std::string>() : std::string("no error");
  };
  const std::string lin = R"("layout": {"in_dims": [["lane", [[1]]]], "out_dims": [["dim0", 2]]})";
  EXPECT_EQ(error(R"({"op": "picture", )" + lin + R"(, "style": "fancy"})"),
            "style is 'fancy', expected 'owners' or 'threads'");
  EXPECT_EQ(error(R"({"op": "picture", )" + lin + R"(, "max_rows": 0})"),
            "max_rows is 0, expected 1 to 2^20");
  EXPECT_EQ(error(R"({"op": "picture", )" + lin + R"(, "bitwidth": 12})"),
            "bitwidth is 12, expected 8, 16, 32 or 64");
  EXPECT_EQ(error(R"({"op": "picture", "layout": "#ttg.blocked<{}>", "shape": [4]})"),
            "layout: 1:1: '#ttg.blocked' needs 'sizePerThread'");
  EXPECT_EQ(
      error(
          R"({"op": "picture", "layout": {"in_dims": [["thread", [[1]]]], "out_dims": [["dim0", 2]]}})"),
      "in-dim 'thread' is not one of register, lane, warp, block, offset, row, col");
}
