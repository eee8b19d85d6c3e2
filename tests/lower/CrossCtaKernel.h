// A kernel whose one conversion moves data between the CTAs of a cluster: a 64x64 tile of `elem`
// loaded with its rows split over 2 CTAs, converted to a layout with its columns split over them
// (through distributed shared memory), stored from there. Run as written (no passes), one program.
#pragma once

#include <string>

namespace linlayout::lower::testing {

inline std::string crossCtaConvertKernel(const std::string &elem) {
  auto offsets = [](const std::string &p, const std::string &l) {
    const std::string row = "tensor<64xi32, #ttg.slice<{dim = 1, parent = " + l + "}>>";
    const std::string col = "tensor<64xi32, #ttg.slice<{dim = 0, parent = " + l + "}>>";
    const std::string t = "tensor<64x64xi32, " + l + ">";
    return "    %" + p + "r = tt.make_range {end = 64 : i32, start = 0 : i32} : " + row + "\n" +
           "    %" + p + "c = tt.make_range {end = 64 : i32, start = 0 : i32} : " + col + "\n" +
           "    %" + p + "r2 = tt.expand_dims %" + p + "r {axis = 1 : i32} : " + row +
           " -> tensor<64x1xi32, " + l + ">\n" + "    %" + p + "c2 = tt.expand_dims %" + p +
           "c {axis = 0 : i32} : " + col + " -> tensor<1x64xi32, " + l + ">\n" + "    %" + p +
           "k = arith.constant dense<64> : tensor<64x1xi32, " + l + ">\n" + "    %" + p +
           "rk = arith.muli %" + p + "r2, %" + p + "k : tensor<64x1xi32, " + l + ">\n" + "    %" +
           p + "rb = tt.broadcast %" + p + "rk : tensor<64x1xi32, " + l + "> -> " + t + "\n" +
           "    %" + p + "cb = tt.broadcast %" + p + "c2 : tensor<1x64xi32, " + l + "> -> " + t +
           "\n" + "    %" + p + "o = arith.addi %" + p + "rb, %" + p + "cb : " + t + "\n";
  };
  auto ptrs = [&](const std::string &p, const std::string &arg, const std::string &l) {
    const std::string pt = "tensor<64x64x!tt.ptr<" + elem + ">, " + l + ">";
    return "    %" + p + "s = tt.splat %" + arg + " : !tt.ptr<" + elem + "> -> " + pt + "\n" +
           "    %" + p + "p = tt.addptr %" + p + "s, %" + p + "o : " + pt + ", tensor<64x64xi32, " +
           l + ">\n";
  };
  return "#src = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, "
         "1], order = [1, 0], CTAsPerCGA = [2, 1], CTASplitNum = [2, 1], CTAOrder = [1, 0]}>\n"
         "#dst = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, "
         "4], order = [0, 1], CTAsPerCGA = [1, 2], CTASplitNum = [1, 2], CTAOrder = [1, 0]}>\n"
         "module attributes {\"ttg.num-ctas\" = 2 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target "
         "= \"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
         "  tt.func public @xcta(%in: !tt.ptr<" +
         elem + "> {tt.divisibility = 16 : i32}, %out: !tt.ptr<" + elem +
         "> {tt.divisibility = 16 : i32}) {\n" + offsets("a", "#src") + ptrs("a", "in", "#src") +
         "    %x = tt.load %ap : tensor<64x64x!tt.ptr<" + elem + ">, #src>\n" +
         "    %y = ttg.convert_layout %x : tensor<64x64x" + elem + ", #src> -> tensor<64x64x" +
         elem + ", #dst>\n" + offsets("b", "#dst") + ptrs("b", "out", "#dst") +
         "    tt.store %bp, %y : tensor<64x64x!tt.ptr<" + elem + ">, #dst>\n" +
         "    tt.return\n  }\n}\n";
}

} // namespace linlayout::lower::testing
