// Edits of tile-IR text for tests: one named replacement, for the tests that break an example in
// a known way and expect an error, and random edits for the fuzz properties: the parser's and
// verifier's (tests/ir/FuzzTest.cpp) and the lowering's (tests/lower/LowerFuzzTest.cpp).
// Header-only; the caller supplies the randomness, so rapidcheck can shrink what it draws.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace linlayout::ir::testing {

/// The text with the first occurrence of `from` replaced by `to` (the test fails where it has
/// none).
inline std::string edit(std::string text, const std::string &from, const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

/// Tokens of the IR's syntax to splice into text.
inline const std::vector<std::string> &fuzzTokens() {
  static const std::vector<std::string> tokens = {"%0",
                                                  "%1",
                                                  "%x#1",
                                                  "%a:2",
                                                  "=",
                                                  ",",
                                                  ":",
                                                  "->",
                                                  "(",
                                                  ")",
                                                  "{",
                                                  "}",
                                                  "<",
                                                  ">",
                                                  "[",
                                                  "]",
                                                  "*",
                                                  "tensor<",
                                                  "64x",
                                                  "1x",
                                                  "i32",
                                                  "f32",
                                                  "f16",
                                                  "i1",
                                                  "!tt.ptr<f32>",
                                                  "!ttg.memdesc<",
                                                  "#blocked",
                                                  "#ttg.blocked<{",
                                                  "#ttg.slice<{dim = 0, parent = ",
                                                  "#mma",
                                                  "dense<",
                                                  "0",
                                                  "-1",
                                                  "1.5",
                                                  "0xFF800000",
                                                  "true",
                                                  "scf.for",
                                                  "scf.yield",
                                                  "tt.return",
                                                  "tt.func",
                                                  "@f",
                                                  "module",
                                                  "arith.addi",
                                                  "arith.constant",
                                                  "tt.load",
                                                  "tt.store",
                                                  "tt.dot",
                                                  "tt.reduce",
                                                  "sum",
                                                  "tt.expand_dims",
                                                  "{axis = 1 : i32}",
                                                  "iter_args",
                                                  "to",
                                                  "step",
                                                  "\n",
                                                  " ",
                                                  "\"",
                                                  "//",
                                                  "ttg.convert_layout",
                                                  "tt.make_range",
                                                  "{end = 64 : i32, start = 0 : i32}",
                                                  "2 : i32",
                                                  "cuda:80",
                                                  "cuda:90",
                                                  "ttg.local_alloc",
                                                  "ttg.local_load",
                                                  "ttg.async_wait",
                                                  "ttng.warp_group_dot",
                                                  "ttng.barrier_expect",
                                                  "ttng.wait_barrier",
                                                  "ttg.memdesc_subslice"};
  return tokens;
}

/// `text` after `edits` random edits: a range deleted, a range duplicated, a token inserted or a
/// character replaced. pick(lo, hi) must return a number in [lo, hi).
template <typename Pick> std::string editText(std::string text, int edits, Pick &&pick) {
  static const std::string chars = "09x%#<>{}, -";
  for (int e = 0; e < edits && !text.empty(); ++e) {
    size_t pos = size_t(pick(0, int(text.size())));
    size_t len = size_t(pick(0, int(std::min<size_t>(40, text.size() - pos)) + 1));
    switch (pick(0, 4)) {
    case 0:
      text.erase(pos, len);
      break;
    case 1:
      text.insert(pos, text.substr(pos, len));
      break;
    case 2:
      text.insert(pos, fuzzTokens()[size_t(pick(0, int(fuzzTokens().size())))]);
      break;
    default:
      text[pos] = chars[size_t(pick(0, int(chars.size())))];
      break;
    }
  }
  return text;
}

} // namespace linlayout::ir::testing
