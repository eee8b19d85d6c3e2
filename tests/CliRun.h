// Runs the linlayout CLI the way a user does, for the tests of its commands: the exit status and
// what it printed.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
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

inline bool isExecutable(const std::string &path) { return ::access(path.c_str(), X_OK) == 0; }

/// The linlayout binary the CLI tests run: $LINLAYOUT_BIN, else this build's, else one beside the
/// test binary (where scripts/gpu/package.sh unpacks both on the GPU machine, without the build
/// tree); "" when there is none.
inline std::string linlayoutBinary() {
  if (const char *env = std::getenv("LINLAYOUT_BIN"))
    return isExecutable(env) ? env : "";
  std::string built = std::string(LINLAYOUT_BIN_DIR) + "/linlayout";
  if (isExecutable(built))
    return built;
  char self[4096];
  ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return "";
  std::string dir(self, size_t(n));
  std::string beside = dir.substr(0, dir.rfind('/') + 1) + "linlayout";
  return isExecutable(beside) ? beside : "";
}

/// examples/`name` of the source tree: $LINLAYOUT_SOURCE_DIR's, the compiled-in one's, else the
/// working directory's (the GPU machine runs the tests from a copy of the repository).
inline std::string exampleFile(const std::string &name) {
  if (const char *env = std::getenv("LINLAYOUT_SOURCE_DIR"))
    return std::string(env) + "/examples/" + name;
  std::string built = std::string(LINLAYOUT_SOURCE_DIR) + "/examples/" + name;
  return ::access(built.c_str(), R_OK) == 0 ? built : "examples/" + name;
}

/// `linlayout ARGS` from this build, standard error folded into the output.
inline CliRun runLinlayout(const std::string &args) {
  std::string bin = linlayoutBinary();
  return runShell((bin.empty() ? std::string(LINLAYOUT_BIN_DIR) + "/linlayout" : bin) + " " + args +
                  " 2>&1");
}

} // namespace linlayout::testing
