// The query engine on bad input: one test per kind of mistake, through answerLine, and the real
// `linlayout query` as a subprocess for what only a stream shows (huge lines, deep nesting, empty
// lines, good lines around bad ones, the exit status).
#include "CliRun.h"
#include "query/Query.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace linlayout;
using Json = nlohmann::json;

namespace {

const char *kGood =
    R"({"id": "good", "op": "is_injective", "a": {"in_dims": [["lane", [[1], [2]]]], "out_dims": [["dim0", 4]]}})";

// A layout JSON text with the given out-dims text and lane bases text.
std::string layout(const std::string &bases, const std::string &outs = R"([["dim0", 4]])") {
  return R"({"in_dims": [["lane", )" + bases + R"(]], "out_dims": )" + outs + "}";
}

std::string request(const std::string &op, const std::string &fields) {
  return R"({"id": 9, "op": ")" + op + "\"" + (fields.empty() ? "" : ", " + fields) + "}";
}

// The answer to one line, parsed.
Json answer(const std::string &line) {
  Json j = Json::parse(linlayout::query::answerLine(line), nullptr, false);
  EXPECT_FALSE(j.is_discarded()) << "the answer is not JSON";
  return j;
}

// Expects an error answer whose message contains `needle`, and the request's id (or null).
void expectError(const std::string &line, const std::string &needle, const Json &id = 9) {
  Json a = answer(line);
  ASSERT_TRUE(a.contains("error")) << a.dump();
  EXPECT_FALSE(a.contains("result"));
  std::string msg = a["error"].get<std::string>();
  EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg << "\nwanted: " << needle;
  EXPECT_EQ(a["id"], id);
  // Messages start lower-case (or with an acronym such as JSON) and have no final period.
  ASSERT_GE(msg.size(), 2u);
  auto upper = [&](size_t i) { return std::isupper(static_cast<unsigned char>(msg[i])) != 0; };
  EXPECT_TRUE(!upper(0) || upper(1)) << msg;
  EXPECT_NE(msg.back(), '.') << msg;
}

struct RunResult {
  int status = -1;
  std::vector<std::string> lines;
};

// Runs `linlayout query FILE` on `input` and collects its output lines.
RunResult runQuery(const std::string &input, const std::string &extraArgs = "") {
  namespace fs = std::filesystem;
  fs::path dir =
      fs::temp_directory_path() / ("linlayout-query-test-" + std::to_string(::getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::create_directories(dir);
  fs::path in = dir / "in.jsonl";
  {
    std::ofstream f(in, std::ios::binary);
    f << input;
  }
  linlayout::testing::CliRun run =
      linlayout::testing::runShell(std::string(LINLAYOUT_BIN_DIR) + "/linlayout query " +
                                   (extraArgs.empty() ? in.string() : extraArgs) + " 2>/dev/null");
  RunResult r;
  r.status = run.status;
  std::istringstream is(run.out);
  for (std::string line; std::getline(is, line);)
    r.lines.push_back(line);
  fs::remove_all(dir);
  return r;
}

bool isGoodAnswer(const std::string &line) {
  Json j = Json::parse(line, nullptr, false);
  return !j.is_discarded() && j.value("id", Json()) == "good" && j.contains("result") &&
         j["result"] == true;
}

std::string errorOfLine(const std::string &line) {
  Json j = Json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.contains("error"))
    return "<no error in: " + line.substr(0, 200) + ">";
  return j["error"].get<std::string>();
}

} // namespace

// --- one line at a time -----------------------------------------------------------------------

TEST(QueryErrors, GoodLineIsAnswered) {
  Json a = answer(kGood);
  EXPECT_EQ(a["id"], "good");
  EXPECT_EQ(a["result"], true);
}

TEST(QueryErrors, NotJson) {
  // Each error says where the line stops being JSON, and why.
  expectError("not json", "line is not valid JSON at line 1, column 2: ", nullptr);
  expectError(R"({"id": 1, "op": )", "line is not valid JSON at line 1, column 17: ", nullptr);
  expectError(R"({"id": 1, "op": )", "unexpected end of input", nullptr);
  expectError(R"({"op": "apply", "a": 1,})", "at line 1, column 24: ", nullptr);
  expectError(R"({"op": "apply", "a": 1,})", "unexpected '}'; expected string literal", nullptr);
  expectError("\xff\xfe", "line is not valid JSON at line 1, column 1: ", nullptr);
}

TEST(QueryErrors, NotAnObject) {
  expectError("[1, 2]", "expected a JSON object, got [1,2]", nullptr);
  expectError("42", "expected a JSON object, got 42", nullptr);
}

TEST(QueryErrors, UnknownOp) {
  expectError(request("frobnicate", ""), "unknown op 'frobnicate' (known: ");
  expectError(request("", ""), "unknown op ''");
}

TEST(QueryErrors, MissingFields) {
  expectError(R"({"id": 9})", "missing field 'op'");
  expectError(R"({"id": 9, "op": 5})", "field 'op' is 5, expected a string");
  expectError(request("invert", ""), "missing field 'a'");
  expectError(request("compose", R"("a": )" + layout("[[1]]")), "missing field 'b'");
  expectError(request("apply", R"("a": )" + layout("[[1]]")), "missing field 'inputs'");
  expectError(request("invert", R"("a": {"out_dims": []})"), "missing field 'in_dims'");
  expectError(request("invert", R"("a": {"in_dims": []})"), "missing field 'out_dims'");
  expectError(request("invert", R"("a": 5)"), "expected an object with field 'in_dims', got 5");
}

TEST(QueryErrors, StringsAndFloatsWhereIntegersBelong) {
  expectError(request("invert", R"("a": )" + layout("[[1]]", R"([["dim0", "4"]])")),
              R"(a.out_dims[0] size is "4", expected an integer)");
  expectError(request("invert", R"("a": )" + layout("[[1]]", R"([["dim0", 4.0]])")),
              "a.out_dims[0] size is 4.0, expected an integer");
  expectError(request("invert", R"("a": )" + layout(R"([["1"]])")),
              R"(a.in_dims[0] basis 0[0] is "1", expected an integer)");
  expectError(request("invert", R"("a": )" + layout("[[1.5]]")),
              "a.in_dims[0] basis 0[0] is 1.5, expected an integer");
  expectError(request("invert", R"("a": )" + layout("[[true]]")),
              "a.in_dims[0] basis 0[0] is true, expected an integer");
  expectError(request("apply", R"("a": )" + layout("[[1]]") + R"(, "inputs": [["lane", "1"]])"),
              R"(inputs[0] value is "1", expected an integer)");
  expectError(request("apply", R"("a": )" + layout("[[1]]") + R"(, "inputs": [["lane", 0.5]])"),
              "inputs[0] value is 0.5, expected an integer");
}

TEST(QueryErrors, MalformedShapes) {
  expectError(request("invert", R"("a": {"in_dims": 3, "out_dims": []})"),
              "a.in_dims is 3, expected an array");
  expectError(request("invert", R"("a": {"in_dims": [], "out_dims": {}})"),
              "a.out_dims is {}, expected an array");
  expectError(request("invert", R"("a": {"in_dims": [["lane"]], "out_dims": []})"),
              R"(a.in_dims[0] is ["lane"], expected [name, value])");
  expectError(request("invert", R"("a": {"in_dims": [[5, []]], "out_dims": []})"),
              "a.in_dims[0] name is 5, expected a string");
  expectError(request("invert", R"("a": {"in_dims": [["lane", 7]], "out_dims": []})"),
              "a.in_dims[0] bases are 7, expected an array of bases");
  expectError(request("invert", R"("a": {"in_dims": [["", []]], "out_dims": []})"),
              "a.in_dims[0] name '' is not a usable dimension name");
  expectError(request("invert", R"("a": "#ttg.blocked<{}>")"), "a is a string");
  expectError(request("invert", R"("a": )" + layout("[[1, 0]]")),
              "a: basis 0 of in dimension 'lane' has 2 components, expected 1");
  expectError(request("apply", R"("a": )" + layout("[[1]]") + R"(, "inputs": [["lane"]])"),
              R"(inputs[0] is ["lane"], expected [name, value])");
  expectError(request("apply", R"("a": )" + layout("[[1]]") + R"(, "inputs": {})"),
              "inputs is {}, expected [[name, value], ...]");
  expectError(
      request("invert", R"("a": {"in_dims": [["lane", []], ["lane", []]], "out_dims": []})"),
      "a: in dimension 'lane' appears twice");
}

TEST(QueryErrors, NegativeZeroAndHugeSizes) {
  expectError(request("invert", R"("a": )" + layout("[[1]]", R"([["dim0", -4]])")),
              "a.out_dims[0] size is -4, expected a non-negative integer");
  expectError(request("invert", R"("a": )" + layout("[[1]]", R"([["dim0", 0]])")),
              "a: out dimension 'dim0' has size 0, expected a power of two");
  expectError(request("invert", R"("a": )" + layout("[[1]]", R"([["dim0", 12]])")),
              "a: out dimension 'dim0' has size 12, expected a power of two");
  expectError(request("invert", R"("a": )" + layout("[[1]]", R"([["dim0", 9223372036854775808]])")),
              "a.out_dims[0] size is 9223372036854775808, too large");
  expectError(
      request("invert", R"("a": )" + layout("[[1]]", R"([["dim0", 18446744073709551616]])")),
      "expected an integer");
  expectError(request("invert", R"("a": )" + layout("[[1]]", R"([["dim0", 1e300]])")),
              "expected an integer");
  expectError(request("invert", R"("a": )" + layout("[[-1]]")),
              "a.in_dims[0] basis 0[0] is -1, expected a non-negative integer");
  expectError(request("apply", R"("a": )" + layout("[[1]]") + R"(, "inputs": [["lane", -1]])"),
              "inputs[0] value is -1, expected a non-negative integer");
  expectError(request("apply", R"("a": )" + layout("[[1]]") + R"(, "inputs": [["lane", 2]])"),
              "value 2 is out of range for in dimension 'lane' of size 2");
}

TEST(QueryErrors, BasesOutOfRange) {
  expectError(request("invert", R"("a": )" + layout("[[4]]")),
              "a: basis 0 of in dimension 'lane' has value 4 for out dimension 'dim0' of size 4");
  expectError(request("invert", R"("a": )" + layout("[[1], [18446744073709551615]]")), "too large");
  expectError(request("apply", R"("a": )" + layout("[[1]]") + R"(, "inputs": [["warp", 0]])"),
              "the layout has no in dimension 'warp'");
}

TEST(QueryErrors, MoreThan64Bits) {
  std::string bases = "[";
  for (int i = 0; i < 65; ++i)
    bases += std::string(i ? "," : "") + "[0]";
  bases += "]";
  expectError(request("invert", R"("a": )" + layout(bases)),
              "a.in_dims[0] has 65 bases, more than 64 bits");
  expectError(
      request(
          "invert",
          R"("a": {"in_dims": [], "out_dims": [["dim0", 1099511627776], ["dim1", 1073741824]]})"),
      "a: out dimensions have 70 bits in total, at most 64");
  std::string forty = "[", thirty = "[";
  for (int i = 0; i < 40; ++i)
    forty += std::string(i ? "," : "") + "[0]";
  for (int i = 0; i < 30; ++i)
    thirty += std::string(i ? "," : "") + "[0]";
  forty += "]";
  thirty += "]";
  expectError(request("invert", R"("a": {"in_dims": [["lane", )" + forty + R"(], ["warp", )" +
                                    thirty + R"(]], "out_dims": [["dim0", 1]]})"),
              "a: in dimensions have 70 bits in total, at most 64");
}

TEST(QueryErrors, AlgebraPreconditions) {
  std::string dup = layout("[[1], [1]]");
  expectError(request("invert", R"("a": )" + dup), "cannot invert a layout that is not bijective");
  expectError(request("pseudoinvert", R"("a": )" + dup),
              "cannot pseudo-invert a layout that is not surjective");
  expectError(request("invert_and_compose", R"("a": )" + layout("[[1], [2]]") + R"(, "b": )" + dup),
              "cannot invert and compose: the second layout is not surjective");
  expectError(request("compose", R"("a": )" + layout("[[1], [2]]") + R"(, "b": )" + dup),
              "cannot compose: out dimension 'dim0' of the first layout is not an in dimension");
}

TEST(QueryErrors, DeepNestingIsRefusedBeforeParsing) {
  std::string deep = R"({"id": 9, "op": "invert", "a": )" + std::string(20000, '[') +
                     std::string(20000, ']') + "}";
  expectError(deep, "JSON nested deeper than 64 levels", nullptr);
  // Brackets inside strings do not count.
  std::string quoted = R"({"id": 9, "op": ")" + std::string(20000, '[') + R"("})";
  expectError(quoted, "unknown op '[[[[", 9);
}

TEST(QueryErrors, EmptyLine) {
  expectError("", "empty line", nullptr);
  expectError("   \t\r", "empty line", nullptr);
}

TEST(QueryErrors, IdsOfEveryJsonTypeComeBack) {
  for (const char *id : {"1", "\"x\"", "null", "[1, 2]", "{\"k\": 1}", "1.5", "true"}) {
    Json a = answer(std::string(R"({"op": "nope", "id": )") + id + "}");
    EXPECT_EQ(a["id"], Json::parse(id));
  }
}

// --- the real CLI on streams ------------------------------------------------------------------

TEST(QueryStream, GoodLinesAroundBadOnesAreAnswered) {
  std::vector<std::string> bad = {
      "not json",
      "",
      "[1]",
      request("frobnicate", ""),
      R"({"id": 9})",
      request("invert", R"("a": )" + layout("[[1]]", R"([["dim0", "4"]])")),
      request("invert", R"("a": )" + layout("[[1]]", R"([["dim0", -4]])")),
      request("invert", R"("a": )" + layout("[[4]]")),
      std::string(R"({"op": "invert", "a": )") + std::string(20000, '[') + std::string(20000, ']') +
          "}"};
  std::string input;
  for (const std::string &b : bad)
    input += std::string(kGood) + "\n" + b + "\n";
  input += kGood; // the last line without a newline is still answered
  RunResult r = runQuery(input);
  EXPECT_EQ(r.status, 0);
  ASSERT_EQ(r.lines.size(), 2 * bad.size() + 1);
  for (size_t i = 0; i < r.lines.size(); i += 2)
    EXPECT_TRUE(isGoodAnswer(r.lines[i])) << r.lines[i];
  for (size_t i = 1; i < r.lines.size(); i += 2)
    EXPECT_NE(errorOfLine(r.lines[i]).find("<no error"), 0u) << r.lines[i];
  EXPECT_EQ(errorOfLine(r.lines[3]), "empty line");
  EXPECT_EQ(errorOfLine(r.lines[17]), "JSON nested deeper than 64 levels");
}

TEST(QueryStream, TenMegabyteLineIsAnsweredAndTheNextLineToo) {
  // 10 MB of bases: parsed (it is under the 16 MiB limit), refused for its size, no crash.
  std::string bases = "[";
  while (bases.size() < (10u << 20))
    bases += "[1],";
  bases += "[1]]";
  std::string huge = request("invert", R"("a": )" + layout(bases));
  // And 10 MB that are not JSON at all.
  std::string garbage(10u << 20, 'x');
  RunResult r = runQuery(std::string(kGood) + "\n" + huge + "\n" + kGood + "\n" + garbage + "\n" +
                         kGood + "\n");
  EXPECT_EQ(r.status, 0);
  ASSERT_EQ(r.lines.size(), 5u);
  EXPECT_TRUE(isGoodAnswer(r.lines[0]));
  EXPECT_NE(errorOfLine(r.lines[1]).find("bases, more than 64 bits"), std::string::npos)
      << r.lines[1].substr(0, 200);
  EXPECT_TRUE(isGoodAnswer(r.lines[2]));
  EXPECT_EQ(errorOfLine(r.lines[3]).rfind("line is not valid JSON at line 1, column 1: ", 0), 0u);
  EXPECT_LE(errorOfLine(r.lines[3]).size(), 300u) << "the reason is bounded";
  EXPECT_TRUE(isGoodAnswer(r.lines[4]));
}

TEST(QueryStream, LineOverTheLimitIsSkippedInPieces) {
  std::string tooLong(17u << 20, '[');
  RunResult r = runQuery(std::string(kGood) + "\n" + tooLong + "\n" + kGood + "\n");
  EXPECT_EQ(r.status, 0);
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_TRUE(isGoodAnswer(r.lines[0]));
  EXPECT_EQ(errorOfLine(r.lines[1]), "line of " + std::to_string(17u << 20) +
                                         " bytes is longer than the limit of " +
                                         std::to_string(linlayout::query::kMaxLineBytes));
  EXPECT_TRUE(isGoodAnswer(r.lines[2]));
}

TEST(QueryStream, EmptyInputAndEmptyLines) {
  RunResult none = runQuery("");
  EXPECT_EQ(none.status, 0);
  EXPECT_TRUE(none.lines.empty());
  RunResult blanks = runQuery("\n\n" + std::string(kGood) + "\n");
  EXPECT_EQ(blanks.status, 0);
  ASSERT_EQ(blanks.lines.size(), 3u);
  EXPECT_EQ(errorOfLine(blanks.lines[0]), "empty line");
  EXPECT_EQ(errorOfLine(blanks.lines[1]), "empty line");
  EXPECT_TRUE(isGoodAnswer(blanks.lines[2]));
}

TEST(QueryStream, MissingInputFileFailsWithStatus1) {
  RunResult r = runQuery("", "/nonexistent/queries.jsonl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(r.lines.empty());
}
