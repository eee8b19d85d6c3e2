// Golden tests of the passes: tests/ir/passes/<pass>.tir holds cases separated by `// -----`
// lines; each case is the IR before the pass and `// CHECK:` patterns the printed IR after it
// must contain, in order (`// CHECK-NOT:` patterns must not appear between the neighbouring
// matches; `// CHECK-COUNT-<n>:` patterns must appear exactly n times in the whole output).
#include "Examples.h"

#include "linlayout/ir/AnnotateAccessWidths.h"
#include "linlayout/ir/CleanupConverts.h"
#include "linlayout/ir/Coalesce.h"
#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/PlanCtas.h"
#include "linlayout/ir/Prefetch.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/PropagateLayouts.h"
#include "linlayout/ir/SoftwarePipeline.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/ir/WarpSpecializeLoops.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

using PassFn = Status (*)(Module &);

const std::map<std::string, PassFn> &passTable() {
  static const std::map<std::string, PassFn> table = {
      {"plan-ctas", planCtas},
      {"coalesce", coalesce},
      {"propagate-layouts", propagateLayouts},
      {"cleanup-converts", cleanupConverts},
      {"access-widths", annotateAccessWidths},
      {"fence-insertion", insertFences},
      {"pipeline", [](Module &m) { return runPipeline(m); }},
      {"warp-specialize-loops", [](Module &m) { return warpSpecializeLoops(m); }},
      {"software-pipeline",
       [](Module &m) { return pipelineLoops(m, m.numStages ? m.numStages : 3); }},
      {"prefetch",
       [](Module &m) {
         Status s = pipelineLoops(m, m.numStages ? m.numStages : 3);
         return s.ok() ? prefetchDotOperands(m, 16) : s;
       }},
  };
  return table;
}

struct Check {
  enum Kind { Match, Not, Count } kind;
  std::string pattern;
  int count = 0;
  int line = 0;
};

std::string trim(std::string s) {
  size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// Returns "" when every check holds, else what failed.
std::string runChecks(const std::string &out, const std::vector<Check> &checks) {
  size_t pos = 0;
  std::vector<const Check *> nots;
  for (const Check &c : checks) {
    if (c.kind == Check::Count) {
      int n = 0;
      for (size_t p = out.find(c.pattern); p != std::string::npos; p = out.find(c.pattern, p + 1))
        ++n;
      if (n != c.count)
        return "line " + std::to_string(c.line) + ": '" + c.pattern + "' appears " +
               std::to_string(n) + " times, expected " + std::to_string(c.count);
      continue;
    }
    if (c.kind == Check::Not) {
      nots.push_back(&c);
      continue;
    }
    size_t at = out.find(c.pattern, pos);
    if (at == std::string::npos)
      return "line " + std::to_string(c.line) + ": CHECK '" + c.pattern + "' not found";
    for (const Check *n : nots)
      if (out.substr(pos, at - pos).find(n->pattern) != std::string::npos)
        return "line " + std::to_string(n->line) + ": CHECK-NOT '" + n->pattern + "' found";
    nots.clear();
    pos = at + c.pattern.size();
  }
  for (const Check *n : nots)
    if (out.substr(pos).find(n->pattern) != std::string::npos)
      return "line " + std::to_string(n->line) + ": CHECK-NOT '" + n->pattern + "' found";
  return "";
}

void runGoldenFile(const std::filesystem::path &path) {
  std::string text = readFile(path.string());
  std::string pass = path.stem().string();
  auto it = passTable().find(pass);
  ASSERT_NE(it, passTable().end()) << "no pass named after " << path;
  // Split into cases, keeping line numbers (blank lines stand in for the other cases).
  std::vector<std::string> cases(1);
  int line = 0;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    ++line;
    if (trim(l) == "// -----") {
      cases.emplace_back(std::string(size_t(line), '\n'));
      continue;
    }
    cases.back() += l + "\n";
  }
  int checked = 0;
  for (const std::string &c : cases) {
    std::vector<Check> checks;
    std::istringstream lines(c);
    int n = 0;
    for (std::string l; std::getline(lines, l);) {
      ++n;
      std::string t = trim(l);
      for (auto [prefix, kind] : {std::pair<std::string, Check::Kind>{"// CHECK:", Check::Match},
                                  {"// CHECK-NOT:", Check::Not}})
        if (t.rfind(prefix, 0) == 0)
          checks.push_back({kind, trim(t.substr(prefix.size())), 0, n});
      if (t.rfind("// CHECK-COUNT-", 0) == 0) {
        size_t colon = t.find(':');
        int count = std::stoi(t.substr(15, colon - 15));
        checks.push_back({Check::Count, trim(t.substr(colon + 1)), count, n});
      }
    }
    if (checks.empty())
      continue;
    auto m = parseModule(c, path.filename().string());
    ASSERT_TRUE(m.ok()) << m.message();
    ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
    Status s = it->second(*m);
    ASSERT_TRUE(s.ok()) << s.message();
    Status v = verify(*m);
    ASSERT_TRUE(v.ok()) << path << ": after the pass: " << v.message();
    std::string out = print(*m);
    std::string bad = runChecks(out, checks);
    EXPECT_EQ(bad, "") << path.filename() << "\n" << out;
    ++checked;
  }
  EXPECT_GT(checked, 0) << path << " has no checks";
}

} // namespace

TEST(PassGolden, EveryPassHasAGoldenFileAndItHolds) {
  std::filesystem::path dir = std::filesystem::path(LINLAYOUT_SOURCE_DIR) / "tests/ir/passes";
  int files = 0;
  for (const auto &e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".tir")
      continue;
    SCOPED_TRACE(e.path().filename().string());
    runGoldenFile(e.path());
    ++files;
  }
  for (std::string_view p : pipelinePassNames())
    EXPECT_TRUE(std::filesystem::exists(dir / (std::string(p) + ".tir")))
        << "no golden file for pass " << p;
  EXPECT_GE(files, int(pipelinePassNames().size()));
}
