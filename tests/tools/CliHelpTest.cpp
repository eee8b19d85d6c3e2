// The command line as a newcomer meets it: --help on every command, `help COMMAND`, --version,
// usage errors reported one way, and one spelling printed per concept.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using linlayout::testing::CliRun;
using linlayout::testing::runLinlayout;

bool has(const std::string &s, const std::string &part) {
  return s.find(part) != std::string::npos;
}

TEST(CliHelp, EveryCommandHasHelpAndHelpCommandPrintsIt) {
  for (const char *cmd : {"query", "show", "plan", "opt", "compile", "run"}) {
    CliRun r = runLinlayout(std::string(cmd) + " --help");
    EXPECT_EQ(r.status, 0) << cmd << ": " << r.out;
    EXPECT_TRUE(has(r.out, std::string("Usage: linlayout ") + cmd)) << r.out;
    CliRun h = runLinlayout(std::string("help ") + cmd);
    EXPECT_EQ(h.status, 0) << h.out;
    EXPECT_EQ(h.out, r.out) << cmd;
  }
  CliRun top = runLinlayout("--help");
  EXPECT_EQ(top.status, 0);
  for (const char *cmd : {"query", "show", "plan", "opt", "compile", "run", "help"})
    EXPECT_TRUE(has(top.out, std::string("  ") + cmd)) << top.out;
  CliRun unknown = runLinlayout("help frobnicate");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_TRUE(has(unknown.out, "linlayout help: unknown command 'frobnicate'")) << unknown.out;
}

TEST(CliHelp, Version) {
  CliRun r = runLinlayout("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind("linlayout ", 0), 0u) << r.out;
}

TEST(CliHelp, UsageErrorsNameTheCommandAndItsHelp) {
  CliRun r = runLinlayout("show --frobnicate");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(has(r.out, "linlayout show: ")) << r.out;
  EXPECT_TRUE(has(r.out, "Run 'linlayout show --help' for usage.")) << r.out;
  CliRun none = runLinlayout("");
  EXPECT_EQ(none.status, 2);
  EXPECT_TRUE(has(none.out, "Usage: linlayout")) << none.out;
  CliRun cmd = runLinlayout("frobnicate");
  EXPECT_EQ(cmd.status, 2);
  EXPECT_TRUE(has(cmd.out, "frobnicate")) << cmd.out;
}

TEST(CliHelp, TargetsAndPathsAreListedAsAccepted) {
  CliRun compile = runLinlayout("compile --help");
  EXPECT_TRUE(has(compile.out, "sm_90a")) << compile.out;
  EXPECT_TRUE(has(compile.out, "shared-memory")) << compile.out;
  CliRun plan = runLinlayout("plan --help");
  EXPECT_TRUE(has(plan.out, "sm_90a")) << plan.out;
  EXPECT_TRUE(has(plan.out, "shared-memory")) << plan.out;
  CliRun show = runLinlayout("show --help");
  EXPECT_TRUE(has(show.out, "elided as the text picture is")) << show.out;
}

} // namespace
