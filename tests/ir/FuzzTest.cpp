// The parser and the verifier on hostile text: random edits of the examples and random token
// soups. Nothing may crash, hang or fail to round-trip what it accepted.
#include "Examples.h"
#include "TextEdits.h"
#include "TritonDumps.h"

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

// The examples (those for sm_90 too), and Triton's dumps (locations, generic reductions, async
// tokens, 8-bit floats).
const std::vector<std::string> &seedTexts() {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> files = exampleFiles();
    for (const ExampleRun &run : sm90Runs())
      files.push_back(run.file);
    return exampleTexts(files);
  }();
  return texts;
}

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
  const auto &texts = seedTexts();
  std::string text = texts[*rc::gen::inRange<size_t>(0, texts.size())];
  int edits = *rc::gen::inRange(1, 6);
  exercise(editText(text, edits, [](int lo, int hi) { return *rc::gen::inRange(lo, hi); }));
}

RC_GTEST_PROP(Fuzz, TokenSoupNeverCrashes, ()) {
  const auto &tokens = fuzzTokens();
  auto picks = *rc::gen::container<std::vector<size_t>>(rc::gen::inRange<size_t>(0, tokens.size()));
  std::string text;
  for (size_t i : picks)
    text += tokens[i] + " ";
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
