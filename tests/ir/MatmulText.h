// Reshapes of examples/matmul.tir's text (128x128 tile, 4 warps, K steps of 32) that the
// prefetch tests, the lowering tests and the GPU benchmark share: the same tile with 8 warps
// (2 x 4, each warp a 64x32 block), or with K steps of 64 (four 16-wide slices per step).
// Header-only and free of test frameworks, so the benchmark can include it.
#pragma once

#include <string>
#include <utility>

namespace linlayout::testing {

enum class MatmulReshape { None, Warps8, KStep64 };

inline std::string reshapeMatmulText(std::string text, MatmulReshape r) {
  auto replaceAll = [&](const std::string &from, const std::string &to) {
    for (size_t p = text.find(from); p != std::string::npos; p = text.find(from, p + to.size()))
      text.replace(p, from.size(), to);
  };
  if (r == MatmulReshape::Warps8) {
    replaceAll("\"ttg.num-warps\" = 4", "\"ttg.num-warps\" = 8");
    replaceAll("warpsPerCTA = [4, 1]", "warpsPerCTA = [8, 1]");
    replaceAll("warpsPerCTA = [2, 2]", "warpsPerCTA = [2, 4]");
  } else if (r == MatmulReshape::KStep64) {
    replaceAll("%c32 = arith.constant 32 : i32", "%c32 = arith.constant 64 : i32");
    for (const auto &[from, to] : {std::pair<std::string, std::string>{"128x32", "128x64"},
                                   {"32x128", "64x128"},
                                   {"32x1xi32", "64x1xi32"},
                                   {"1x32xi32", "1x64xi32"},
                                   {"tensor<32xi32", "tensor<64xi32"},
                                   {"end = 32 : i32", "end = 64 : i32"}})
      replaceAll(from, to);
  }
  return text;
}

} // namespace linlayout::testing
