// Reshapes of examples/matmul.tir's text (128x128 tile, 4 warps, K steps of 32) that the
// prefetch tests, the lowering tests and the GPU benchmark share: the same tile with 8 warps
// (2 x 4, each warp a 64x32 block), or with K steps of 64 or 128 (four or eight 16-wide slices
// per step; these apply to examples/matmul_wide.tir's 128x256 tile too).
// Header-only and free of test frameworks, so the benchmark can include it.
#pragma once

#include <string>
#include <utility>

namespace linlayout::testing {

enum class MatmulReshape { None, Warps8, KStep64, KStep128 };

inline std::string reshapeMatmulText(std::string text, MatmulReshape r) {
  auto replaceAll = [&](const std::string &from, const std::string &to) {
    for (size_t p = text.find(from); p != std::string::npos; p = text.find(from, p + to.size()))
      text.replace(p, from.size(), to);
  };
  if (r == MatmulReshape::Warps8) {
    replaceAll("\"ttg.num-warps\" = 4", "\"ttg.num-warps\" = 8");
    replaceAll("warpsPerCTA = [4, 1]", "warpsPerCTA = [8, 1]");
    replaceAll("warpsPerCTA = [2, 2]", "warpsPerCTA = [2, 4]");
  } else if (r == MatmulReshape::KStep64 || r == MatmulReshape::KStep128) {
    const std::string k = r == MatmulReshape::KStep64 ? "64" : "128";
    replaceAll("%c32 = arith.constant 32 : i32", "%c32 = arith.constant " + k + " : i32");
    for (const auto &[from, to] : {std::pair<std::string, std::string>{"128x32x", "128x" + k + "x"},
                                   {"32x128x", k + "x128x"},
                                   {"32x256x", k + "x256x"},
                                   {"32x1xi32", k + "x1xi32"},
                                   {"1x32xi32", "1x" + k + "xi32"},
                                   {"tensor<32xi32", "tensor<" + k + "xi32"},
                                   {"end = 32 : i32", "end = " + k + " : i32"}})
      replaceAll(from, to);
  }
  return text;
}

// The program ids of examples/matmul.tir or matmul_wide.tir walked in groups of `groupM` M tiles
// (all N tiles of a group before the next group, as examples/matmul_tma*.tir do), so the
// programs that run at the same time share their A rows and B columns in L2. The grid stays
// (M tiles, N tiles). Empty when the text has no such program ids.
inline std::string groupProgramsText(std::string text, int groupM) {
  const std::string from = "    %pid_m = tt.get_program_id x : i32\n"
                           "    %pid_n = tt.get_program_id y : i32\n";
  const std::string g = std::to_string(groupM);
  const std::string to = "    %grp_x = tt.get_program_id x : i32\n"
                         "    %grp_y = tt.get_program_id y : i32\n"
                         "    %grp_nx = tt.get_num_programs x : i32\n"
                         "    %grp_ny = tt.get_num_programs y : i32\n"
                         "    %grp_yx = arith.muli %grp_y, %grp_nx : i32\n"
                         "    %grp_pid = arith.addi %grp_x, %grp_yx : i32\n"
                         "    %grp_m = arith.constant " +
                         g +
                         " : i32\n"
                         "    %grp_width = arith.muli %grp_m, %grp_ny : i32\n"
                         "    %grp = arith.divsi %grp_pid, %grp_width : i32\n"
                         "    %grp_first = arith.muli %grp, %grp_m : i32\n"
                         "    %grp_left = arith.subi %grp_nx, %grp_first : i32\n"
                         "    %grp_size = arith.minsi %grp_left, %grp_m : i32\n"
                         "    %grp_in = arith.remsi %grp_pid, %grp_width : i32\n"
                         "    %grp_inm = arith.remsi %grp_in, %grp_size : i32\n"
                         "    %pid_m = arith.addi %grp_first, %grp_inm : i32\n"
                         "    %pid_n = arith.divsi %grp_in, %grp_size : i32\n";
  size_t p = text.find(from);
  return p == std::string::npos ? std::string() : text.replace(p, from.size(), to);
}

} // namespace linlayout::testing
