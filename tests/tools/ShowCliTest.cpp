// `linlayout show` end to end: the pictures it prints and writes, and its usage errors.
#include "CliRun.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

fs::path scratch() {
  fs::path dir =
      fs::temp_directory_path() / ("linlayout-show-test-" + std::to_string(::getpid()) + "-" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::create_directories(dir);
  return dir;
}

using ShowRun = linlayout::testing::CliRun;

// Runs `linlayout show ARGS` (stderr folded into the output).
ShowRun show(const std::string &args) { return linlayout::testing::runLinlayout("show " + args); }

std::string readFile(const fs::path &p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

const char *kBlocked = "'#ttg.blocked<{sizePerThread = [2, 2], threadsPerWarp = [8, 4], "
                       "warpsPerCTA = [1, 2], order = [1, 0]}>'";

} // namespace

TEST(ShowCli, DrawsTheDocsExample) {
  ShowRun r = show(std::string(kBlocked) + " --shape 16x16 --threads --max-rows 8");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, R"(16x16 tensor, 64 threads (2 warps of 32 lanes), 4 registers per thread
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 0  0  1  1  2  2  3  3  ; 32 32 33 33 34 34 35 35 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
[ 4  4  5  5  6  6  7  7  ; 36 36 37 37 38 38 39 39 ]
...
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
[ 28 28 29 29 30 30 31 31 ; 60 60 61 61 62 62 63 63 ]
)");
}

TEST(ShowCli, WritesSvgAndHtml) {
  fs::path dir = scratch();
  fs::path svg = dir / "p.svg", html = dir / "p.html";
  ShowRun one = show(std::string(kBlocked) + " --shape 16x16 --svg " + svg.string());
  EXPECT_EQ(one.status, 0) << one.out;
  std::string s = readFile(svg);
  EXPECT_EQ(s.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(s.find("data-owners=\"T32:0\""), std::string::npos);
  ShowRun two = show(std::string(kBlocked) +
                     " 'tensor<16x8xf32, #ttg.nvidia_mma<{versionMajor = 2, "
                     "versionMinor = 0, warpsPerCTA = [1, 1], instrShape = "
                     "[16, 8]}>>' --shape 16x16 --html " +
                     html.string());
  // The tensor type's shape wins over nothing: it must agree with --shape, so this fails...
  EXPECT_EQ(two.status, 1) << two.out;
  ShowRun three = show(std::string(kBlocked) + " @" + (dir / "mma.txt").string() +
                       " --shape 16x16 " + "--html " + html.string());
  EXPECT_EQ(three.status, 1); // ...and so does a missing @FILE
  std::ofstream(dir / "mma.txt") << "#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, "
                                    "warpsPerCTA = [1, 1], instrShape = [16, 8]}>\n";
  ShowRun four = show(std::string(kBlocked) + " @" + (dir / "mma.txt").string() +
                      " --shape 16x16 " + "--html " + html.string());
  EXPECT_EQ(four.status, 0) << four.out;
  std::string h = readFile(html);
  EXPECT_EQ(h.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(std::count(h.begin(), h.end(), '\n') > 10, true);
  size_t svgs = 0;
  for (size_t p = h.find("<svg "); p != std::string::npos; p = h.find("<svg ", p + 1))
    ++svgs;
  EXPECT_EQ(svgs, 2u);
  fs::remove_all(dir);
}

TEST(ShowCli, SharedLayoutsShowOffsetsBanksAndInverse) {
  ShowRun r = show("'#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>' "
                   "--shape 4x8 --bitwidth 32 --inverse");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("offsets:\n[[ 0,  1,  2,  3,  4,  5,  6,  7],\n [10, 11,  8,  9, 14, 15, "
                       "12, 13],"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("banks (32-bit elements, 32 banks of 4 bytes):"), std::string::npos);
  EXPECT_NE(r.out.find("elements by offset:"), std::string::npos);
}

TEST(ShowCli, AliasesFromADump) {
  fs::path dir = scratch();
  std::ofstream(dir / "dump.ttgir")
      << "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], "
         "instrShape = [16, 8]}>\n#loc = loc(\"x.py\":1:2)\nmodule attributes {\"ttg.num-warps\" = 1 : "
         "i32} {\n}\n";
  ShowRun r = show("'tensor<16x16xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>' "
                   "--aliases " +
                   (dir / "dump.ttgir").string());
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("[[ T0:0,  T0:1,  T1:0,  T1:1,"), std::string::npos) << r.out;
  ShowRun bad = show("'#loc' --shape 4 --aliases " + (dir / "dump.ttgir").string());
  EXPECT_EQ(bad.status, 1);
  EXPECT_EQ(bad.out, "linlayout show: 1:1: alias '#loc' is 'loc(\"x.py\":1:2)', not a layout\n");
  fs::remove_all(dir);
}

TEST(ShowCli, UsageErrors) {
  EXPECT_EQ(show("").status, 2);
  EXPECT_EQ(show(std::string(kBlocked) + " --shape 16xq").status, 2);
  EXPECT_EQ(show(std::string(kBlocked) + " --bitwidth 12").status, 2);
  EXPECT_EQ(show(std::string(kBlocked) + " --frobnicate").status, 2);
  EXPECT_EQ(show(std::string(kBlocked) + " " + kBlocked + " --shape 16x16 --svg x.svg").status, 2);
  ShowRun missing = show(kBlocked);
  EXPECT_EQ(missing.status, 1);
  EXPECT_EQ(missing.out,
            "linlayout show: a layout spec needs a tensor shape (e.g. --shape 16x16)\n");
  ShowRun syntax = show("'#ttg.blocked<{sizePerThread = [2, 2]>' --shape 16x16");
  EXPECT_EQ(syntax.status, 1);
  EXPECT_EQ(syntax.out, "linlayout show: 1:37: expected ',' or '}' after the value of "
                        "'sizePerThread', found '>'\n");
  ShowRun help = show("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("Usage: linlayout show"), std::string::npos) << help.out;
}

// An SVG's title wraps between words: every title line but the last ends after a space, a comma
// or an opening bracket (the issue's title broke inside "threadsPerWarp").
TEST(ShowCli, SvgTitleWrapsBetweenWords) {
  fs::path dir = scratch();
  std::string svgPath = (dir / "title.svg").string();
  ShowRun r = show("'#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = "
                   "[1, 1], order = [1, 0]}>' --shape 16x16 --svg " +
                   svgPath);
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream in(svgPath);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);)
    if (l.rfind("<text x=\"4\" y=\"", 0) == 0 && l.find("font-size=\"12\"") != std::string::npos)
      lines.push_back(l.substr(l.find('>') + 1, l.rfind("</text>") - l.find('>') - 1));
  ASSERT_GT(lines.size(), 1u) << "the title fits one line; use a longer one";
  for (size_t i = 0; i + 1 < lines.size(); ++i)
    EXPECT_TRUE(std::string(" ,{[").find(lines[i].back()) != std::string::npos ||
                lines[i].ends_with("&lt;"))
        << lines[i];
  fs::remove_all(dir);
}
