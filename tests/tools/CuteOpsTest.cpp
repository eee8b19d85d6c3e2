// The CuTe query ops: from_cute (both forms, naming options) and to_cute, and
// their errors.
#include "query/Query.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using linlayout::query::answerLine;
using nlohmann::json;

namespace {

json ask(const std::string &line) { return json::parse(answerLine(line)); }

} // namespace

TEST(CuteOps, FromCuteMapForm) {
  json a = ask(R"j({"id": 1, "op": "from_cute", "layout": "(4,8):(8,1)"})j");
  EXPECT_EQ(a["result"], json::parse(R"j({"in_dims": [["dim0", [[8], [16]]],
    ["dim1", [[1], [2], [4]]]], "out_dims": [["offset", 32]]})j"));
  json named = ask(R"j({"op": "from_cute", "layout": "((32,4),2):((2,64),1)",
    "in_dims": ["thread", "register"], "out_dim": "index"})j");
  EXPECT_EQ(named["result"]["in_dims"][0][0], "thread");
  EXPECT_EQ(named["result"]["out_dims"], json::parse(R"j([["index", 256]])j"));
}

TEST(CuteOps, FromCuteSharedForm) {
  json a = ask(R"j({"op": "from_cute", "layout": "(4,8):(8,1)", "form": "shared"})j");
  EXPECT_EQ(a["result"], json::parse(R"j({"in_dims": [["offset", [[0, 1], [0, 2], [0, 4],
    [1, 0], [2, 0]]]], "out_dims": [["dim0", 4], ["dim1", 8]]})j"));
}

TEST(CuteOps, ToCute) {
  json a = ask(R"j({"op": "to_cute", "a": {"in_dims": [["dim0", [[8], [16]]],
    ["dim1", [[1], [2], [4]]]], "out_dims": [["offset", 32]]}})j");
  EXPECT_EQ(a["result"], "(4,8):(8,1)");
  json s = ask(
      R"j({"op": "to_cute", "form": "shared", "a": {"in_dims": [["offset", [[0, 1],
    [0, 2], [0, 4], [1, 0], [2, 0]]]], "out_dims": [["dim0", 4], ["dim1", 8]]}})j");
  EXPECT_EQ(s["result"], "(4,8):(8,1)");
}

TEST(CuteOps, Errors) {
  EXPECT_EQ(ask(R"j({"op": "from_cute", "layout": "(3,4):(1,3)"})j")["error"],
            "cute mode 0 has a leaf of size 3, not a power of two: a linear "
            "layout's dimensions "
            "are powers of two");
  EXPECT_EQ(ask(R"j({"op": "from_cute", "layout": "(4,8):(8,1)", "form": "tiled"})j")["error"],
            "form is 'tiled', expected 'map' or 'shared'");
  EXPECT_EQ(ask(R"j({"op": "from_cute", "layout": "(4,8):(8,1)", "in_dims": ["a"]})j")["error"],
            "cute layout has 2 top-level modes but 1 input dimension names were "
            "given");
  EXPECT_EQ(ask(R"j({"op": "from_cute", "layout": "(4,8):(8,1)", "form": "shared",
    "out_dim": "o"})j")["error"],
            "in_dims and out_dim name the map form; the shared form is always offset "
            "-> dim0, "
            "dim1, ...");
  EXPECT_EQ(ask(R"j({"op": "to_cute", "form": "shared", "a": {"in_dims": [["offset", [[1], [1]]]],
    "out_dims": [["dim0", 4]]}})j")["error"],
            "the shared layout is not invertible (rank 1 of 2 offset bits and 2 "
            "tensor bits), so "
            "no CuTe layout maps its coordinates to its offsets");
}
