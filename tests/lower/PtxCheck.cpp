#include "PtxCheck.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <vector>

namespace linlayout::lower::testing {

std::optional<std::string> ptxasPath() { return lower::findPtxas(LINLAYOUT_PTXAS); }

PtxasReport runPtxas(const std::string &ptx, const std::string &arch) {
  Expected<PtxasReport> r = lower::runPtxas(*ptxasPath(), ptx, arch);
  if (r.ok())
    return *r;
  PtxasReport failed;
  failed.log = r.message();
  return failed;
}

std::string ptxasRejection(const KernelPtx &kernel) {
  if (!ptxasPath())
    return "";
  PtxasReport r = runPtxas(kernel.ptx, kernel.target.name());
  return r.accepted ? "" : r.log;
}

PtxasReport expectAssembles(const KernelPtx &kernel, bool requireNoSpills) {
  if (const char *dir = std::getenv("LINLAYOUT_DUMP_PTX")) {
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::ofstream(std::string(dir) + "/" + info->test_suite_name() + "." + info->name() + "." +
                  kernel.name + "." + kernel.target.name() + ".ptx")
        << kernel.ptx;
  }
  if (!ptxasPath()) {
    [&] {
      GTEST_SKIP() << "ptxas not found (looked at $LINLAYOUT_PTXAS and " LINLAYOUT_PTXAS
                      "): the PTX of '"
                   << kernel.name << "' was not assembled";
    }();
    return {};
  }
  PtxasReport r = runPtxas(kernel.ptx, kernel.target.name());
  EXPECT_TRUE(r.accepted) << "ptxas rejected '" << kernel.name << "' for " << kernel.target.name()
                          << ":\n"
                          << r.log << "\n--- ptx ---\n"
                          << kernel.ptx;
  if (r.accepted) {
    EXPECT_EQ(r.cubin.substr(0, 4), "\177ELF")
        << "ptxas accepted '" << kernel.name << "' but no cubin came back";
  }
  if (r.accepted && requireNoSpills) {
    EXPECT_EQ(r.stackBytes, 0) << kernel.name << " " << kernel.target.name() << "\n" << r.log;
    EXPECT_EQ(r.spillStoreBytes, 0) << kernel.name << " " << kernel.target.name() << "\n" << r.log;
    EXPECT_EQ(r.spillLoadBytes, 0) << kernel.name << " " << kernel.target.name() << "\n" << r.log;
  }
  return r;
}

namespace {

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos)
    return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      if (start < text.size())
        lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// A pattern: literal text with {{regex}} pieces, compiled to one regex.
std::regex compilePattern(std::string_view p) {
  std::string re;
  size_t i = 0;
  while (i < p.size()) {
    if (p.substr(i, 2) == "{{") {
      size_t end = p.find("}}", i + 2);
      if (end == std::string_view::npos)
        end = p.size();
      re += "(?:" + std::string(p.substr(i + 2, end - i - 2)) + ")";
      i = end + 2;
      continue;
    }
    char c = p[i++];
    if (c == ' ' || c == '\t') {
      // As FileCheck: a run of blanks matches any run of blanks (PTX separates with tabs).
      while (i < p.size() && (p[i] == ' ' || p[i] == '\t'))
        ++i;
      re += "[ \\t]+";
      continue;
    }
    if (std::string_view(".^$|()[]{}*+?\\").find(c) != std::string_view::npos)
      re += '\\';
    re += c;
  }
  return std::regex(re);
}

// Finds the pattern in `line` at or after column `from`: the end column of the match.
std::optional<size_t> findIn(std::string_view line, const std::regex &re, size_t from) {
  if (from > line.size())
    return std::nullopt;
  std::match_results<std::string_view::const_iterator> m;
  if (std::regex_search(line.begin() + from, line.end(), m, re))
    return from + m.position(0) + m.length(0);
  return std::nullopt;
}

} // namespace

int countLines(std::string_view text, std::string_view pattern) {
  std::regex re = compilePattern(trim(pattern));
  int n = 0;
  for (std::string_view line : splitLines(text))
    if (findIn(line, re, 0))
      ++n;
  return n;
}

std::string checkPatterns(std::string_view text, std::string_view patterns) {
  std::vector<std::string_view> lines = splitLines(text);
  size_t line = 0, col = 0; // position after the previous match
  bool matchedAny = false;
  std::vector<std::pair<std::string, std::regex>> pendingNot;
  auto notFailure = [&](size_t endLine, size_t endCol) -> std::string {
    for (auto &[src, re] : pendingNot)
      for (size_t l = line; l <= endLine && l < lines.size(); ++l) {
        std::string_view s = lines[l];
        size_t from = l == line ? col : 0;
        if (l == endLine)
          s = s.substr(0, std::min(endCol, s.size()));
        if (from <= s.size() && findIn(s, re, from))
          return "CHECK-NOT: " + src + " matched line " + std::to_string(l + 1) + ": " +
                 std::string(lines[l]);
      }
    pendingNot.clear();
    return "";
  };
  for (std::string_view raw : splitLines(patterns)) {
    std::string d = trim(raw);
    if (d.empty())
      continue;
    size_t colon = d.find(':');
    if (colon == std::string::npos)
      return "bad directive: " + d;
    std::string kind = d.substr(0, colon);
    std::string pat = trim(d.substr(colon + 1));
    std::regex re = compilePattern(pat);
    if (kind == "CHECK-NOT") {
      pendingNot.emplace_back(pat, re);
      continue;
    }
    if (kind == "CHECK") {
      bool found = false;
      for (size_t l = line; l < lines.size() && !found; ++l)
        if (auto end = findIn(lines[l], re, l == line ? col : 0)) {
          if (auto e = notFailure(l, *end - 0); !e.empty())
            return e;
          line = l;
          col = *end;
          found = true;
        }
      if (!found)
        return "CHECK: " + pat + " not found after line " + std::to_string(line + 1);
    } else if (kind == "CHECK-NEXT" || kind == "CHECK-SAME") {
      if (!matchedAny)
        return kind + " without a previous match: " + pat;
      size_t l = kind == "CHECK-NEXT" ? line + 1 : line;
      size_t from = kind == "CHECK-NEXT" ? 0 : col;
      auto end = l < lines.size() ? findIn(lines[l], re, from) : std::nullopt;
      if (!end)
        return kind + ": " + pat + " not on line " + std::to_string(l + 1) + ": " +
               (l < lines.size() ? std::string(lines[l]) : std::string("<end>"));
      if (auto e = notFailure(l, *end); !e.empty())
        return e;
      line = l;
      col = *end;
    } else if (kind.rfind("CHECK-COUNT-", 0) == 0) {
      int want = std::atoi(kind.c_str() + 12);
      int got = 0;
      for (size_t l = line; l < lines.size() && got < want; ++l)
        if (auto end = findIn(lines[l], re, l == line ? col : 0)) {
          if (++got == want) {
            if (auto e = notFailure(l, *end); !e.empty())
              return e;
            line = l;
            col = *end;
          }
        }
      if (got != want)
        return kind + ": " + pat + " found on " + std::to_string(got) + " lines, expected " +
               std::to_string(want);
    } else {
      return "unknown directive: " + kind;
    }
    matchedAny = true;
  }
  if (auto e = notFailure(lines.empty() ? 0 : lines.size() - 1, std::string::npos); !e.empty())
    return e;
  return "";
}

} // namespace linlayout::lower::testing
