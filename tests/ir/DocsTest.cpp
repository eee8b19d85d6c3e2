// docs/ir.md quotes IR: every line of its ```mlir blocks must be a line of an example (which the
// other tests parse, verify and run), and every op kind must be quoted.
#include "Examples.h"

#include "linlayout/ir/OpKind.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {
std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}
} // namespace

TEST(Docs, IrDocQuotesRealExamplesAndEveryOp) {
  std::set<std::string> exampleLines;
  for (const auto &e :
       std::filesystem::directory_iterator(std::string(LINLAYOUT_SOURCE_DIR) + "/examples"))
    if (e.path().extension() == ".tir") {
      std::istringstream in(readFile(e.path().string()));
      for (std::string l; std::getline(in, l);)
        exampleLines.insert(trim(l));
    }
  std::istringstream doc(readFile(std::string(LINLAYOUT_SOURCE_DIR) + "/docs/ir.md"));
  bool inBlock = false;
  std::string quoted;
  int n = 0;
  for (std::string l; std::getline(doc, l);) {
    if (l.rfind("```", 0) == 0) {
      inBlock = l == "```mlir";
      continue;
    }
    if (!inBlock || trim(l).empty())
      continue;
    EXPECT_TRUE(exampleLines.count(trim(l))) << "docs/ir.md quotes a line no example has:\n" << l;
    quoted += l + "\n";
    ++n;
  }
  EXPECT_GT(n, 60);
  for (int k = 0; k < kNumOpKinds; ++k) {
    std::string m(mnemonic(OpKind(k)));
    EXPECT_TRUE(quoted.find(m + " ") != std::string::npos ||
                quoted.find(m + "\n") != std::string::npos ||
                quoted.find(m + "(") != std::string::npos) // ttg.warp_specialize(%captures)
        << "docs/ir.md has no example of " << m;
  }
}
