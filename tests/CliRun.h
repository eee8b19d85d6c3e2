// Runs the linlayout CLI the way a user does, for the tests of its commands: the exit status and
// what it printed.
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace linlayout::testing {

struct CliRun {
  int status = -1; // the exit code; -1 where the command did not start or did not exit normally
  std::string out;
};

/// Runs `command` through the shell and collects its standard output.
inline CliRun runShell(const std::string &command) {
  CliRun r;
  FILE *p = ::popen(command.c_str(), "r");
  if (!p)
    return r;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
    r.out.append(buf, n);
  int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

/// `linlayout ARGS` from this build, standard error folded into the output.
inline CliRun runLinlayout(const std::string &args) {
  return runShell(std::string(LINLAYOUT_BIN_DIR) + "/linlayout " + args + " 2>&1");
}

} // namespace linlayout::testing
