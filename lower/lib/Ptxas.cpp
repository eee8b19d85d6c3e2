#include "linlayout/lower/Ptxas.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace linlayout::lower {

namespace {

int intAfter(const std::string &log, const std::regex &re) {
  std::smatch m;
  if (std::regex_search(log, m, re))
    return std::stoi(m[1].str());
  return -1;
}

// `s` in single quotes for the shell.
std::string quoted(const std::string &s) {
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// What a file holds, byte for byte ("" where it cannot be read).
std::string fileText(const std::filesystem::path &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A fresh path in the temporary directory ending in `suffix`.
std::filesystem::path tempFile(const std::string &suffix) {
  static std::mt19937_64 rng(std::random_device{}());
  return std::filesystem::temp_directory_path() /
         ("linlayout-ptxas-" + std::to_string(::getpid()) + "-" + std::to_string(rng()) + suffix);
}

} // namespace

std::optional<std::string> findPtxas(const std::string &fallback) {
  const char *env = std::getenv("LINLAYOUT_PTXAS");
  std::string path = env && *env ? env : fallback;
  if (path.empty() || ::access(path.c_str(), X_OK) != 0)
    return std::nullopt;
  return path;
}

Expected<PtxasReport> runPtxas(const std::string &ptxas, const std::string &ptx,
                               const std::string &arch) {
  for (char c : arch)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return makeError("ptxas: '" + arch + "' is not a target name such as sm_80");
  const auto in = tempFile(".ptx"), out = tempFile(".cubin"), log = tempFile(".log");
  {
    std::ofstream f(in, std::ios::binary);
    if (!f || !(f << ptx))
      return makeError("ptxas: cannot write " + in.string());
  }
  const std::string cmd = quoted(ptxas) + " -v -arch=" + arch + " -o " + quoted(out.string()) +
                          " " + quoted(in.string()) + " > " + quoted(log.string()) + " 2>&1";
  const int status = std::system(cmd.c_str());
  PtxasReport r;
  r.log = fileText(log);
  r.accepted = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (r.accepted)
    r.cubin = fileText(out);
  std::error_code ec;
  std::filesystem::remove(in, ec);
  std::filesystem::remove(out, ec);
  std::filesystem::remove(log, ec);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) == 126 ||
      WEXITSTATUS(status) == 127)
    return makeError("ptxas: cannot run " + ptxas + (r.log.empty() ? "" : ": " + r.log));
  r.registers = intAfter(r.log, std::regex(R"(Used (\d+) registers)"));
  r.stackBytes = intAfter(r.log, std::regex(R"((\d+) bytes stack frame)"));
  r.spillStoreBytes = intAfter(r.log, std::regex(R"((\d+) bytes spill stores)"));
  r.spillLoadBytes = intAfter(r.log, std::regex(R"((\d+) bytes spill loads)"));
  return r;
}

} // namespace linlayout::lower
