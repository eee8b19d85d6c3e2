// The parser and the verifier on hostile text: random edits of the examples and random token
// soups. Nothing may crash, hang or fail to round-trip what it accepted.
#include "Examples.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

const std::vector<std::string> &exampleTexts() {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> t;
    for (const std::string &f : exampleFiles())
      t.push_back(readFile(examplePath(f)));
    return t;
  }();
  return texts;
}

const std::vector<std::string> kTokens = {
    "%0", "%1", "%x#1", "%a:2", "=", ",", ":", "->", "(", ")", "{", "}", "<", ">", "[", "]", "*",
    "tensor<", "64x", "1x", "i32", "f32", "f16", "i1", "!tt.ptr<f32>", "!ttg.memdesc<", "#blocked",
    "#ttg.blocked<{", "#ttg.slice<{dim = 0, parent = ", "#mma", "dense<", "0", "-1", "1.5",
    "0xFF800000", "true", "scf.for", "scf.yield", "tt.return", "tt.func", "@f", "module",
    "arith.addi", "arith.constant", "tt.load", "tt.store", "tt.dot", "tt.reduce", "sum",
    "tt.expand_dims", "{axis = 1 : i32}", "iter_args", "to", "step", "\n", " ", "\"", "//",
    "ttg.convert_layout", "tt.make_range", "{end = 64 : i32, start = 0 : i32}"};

// Parses, verifies, and when both accept, checks the round trip.
void exercise(const std::string &text) {
  auto m = parseModule(text, "fuzz");
  if (!m.ok()) {
    RC_ASSERT(m.message().rfind("fuzz:", 0) == 0);
    return;
  }
  Status s = verify(*m);
  if (!s.ok())
    return;
  std::string printed = print(*m);
  auto again = parseModule(printed, "printed");
  RC_ASSERT(again.ok());
  RC_ASSERT(verify(*again).ok());
  RC_ASSERT(print(*again) == printed);
  // The passes take whatever verifies: an error is fine, a crash or unverifiable output is not.
  if (runPipeline(*m).ok())
    RC_ASSERT(verify(*m).ok());
}

} // namespace

RC_GTEST_PROP(Fuzz, EditedExamplesNeverCrash, ()) {
  const auto &texts = exampleTexts();
  std::string text = texts[*rc::gen::inRange<size_t>(0, texts.size())];
  int edits = *rc::gen::inRange(1, 6);
  for (int e = 0; e < edits && !text.empty(); ++e) {
    size_t pos = *rc::gen::inRange<size_t>(0, text.size());
    size_t len = *rc::gen::inRange<size_t>(0, std::min<size_t>(40, text.size() - pos) + 1);
    switch (*rc::gen::inRange(0, 4)) {
    case 0: // delete a range
      text.erase(pos, len);
      break;
    case 1: // duplicate a range
      text.insert(pos, text.substr(pos, len));
      break;
    case 2: // insert a token
      text.insert(pos, kTokens[*rc::gen::inRange<size_t>(0, kTokens.size())]);
      break;
    case 3: // replace a character
      text[pos] = *rc::gen::element('0', '9', 'x', '%', '#', '<', '>', '{', '}', ',', ' ', '-');
      break;
    }
  }
  exercise(text);
}

RC_GTEST_PROP(Fuzz, TokenSoupNeverCrashes, ()) {
  auto picks = *rc::gen::container<std::vector<size_t>>(
      rc::gen::inRange<size_t>(0, kTokens.size()));
  std::string text;
  for (size_t i : picks)
    text += kTokens[i] + " ";
  exercise(text);
}

RC_GTEST_PROP(Fuzz, ArbitraryBytesNeverCrash, (const std::string &text)) { exercise(text); }

TEST(Fuzz, PathologicalInputsAreErrors) {
  // Long runs of openers must not recurse deeply anywhere.
  for (std::string opener : {"[", "<", "{", "(", "#ttg.slice<{dim = 0, parent = "}) {
    std::string text = "#a = #ttg.blocked<{sizePerThread = ";
    for (int i = 0; i < 100000; ++i)
      text += opener;
    auto m = parseModule(text, "p");
    EXPECT_FALSE(m.ok());
  }
  std::string huge = "module {\n tt.func @f() {\n %0 = arith.constant 1 : tensor<";
  huge += std::string(5000, '9') + "xi32, #b>\n";
  EXPECT_FALSE(parseModule(huge, "p").ok());
}
