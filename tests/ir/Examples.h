// The examples of examples/ with inputs to run them on: shared by the interpreter tests (results
// against a reference computed here) and the pipeline tests (results before and after the passes).
#pragma once

#include "linlayout/ir/Builder.h"
#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace linlayout::ir::testing {

inline std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// examples/NAME of the source tree: $LINLAYOUT_SOURCE_DIR's, else the working directory's when it
/// has one (test binaries carried to the GPU machine run from a checkout at another path), else
/// the tree the tests were built from.
inline std::string examplePath(const std::string &name) {
  if (const char *env = std::getenv("LINLAYOUT_SOURCE_DIR"))
    return std::string(env) + "/examples/" + name;
  if (std::ifstream("examples/" + name))
    return "examples/" + name;
  return std::string(LINLAYOUT_SOURCE_DIR) + "/examples/" + name;
}

/// The index (from 0) of the first greatest of `count` values of v from `begin`, `stride` apart.
inline size_t firstArgMax(const std::vector<float> &v, size_t begin, size_t count,
                          size_t stride = 1) {
  size_t best = 0;
  for (size_t k = 1; k < count; ++k)
    if (v[begin + k * stride] > v[begin + best * stride])
      best = k;
  return best;
}

/// The .tir examples, by file name.
inline std::vector<std::string> exampleFiles() {
  return {"memcpy_1d.tir",        "memcpy_2d.tir",
          "transpose_copy.tir",   "row_reduce.tir",
          "matmul.tir",           "softmax.tir",
          "layernorm.tir",        "ops.tir",
          "matmul_wide.tir",      "matmul_wide_persistent.tir",
          "matmul_wide_flat.tir", "warp_convert.tir",
          "convert_loop.tir",     "memcpy_tail.tir",
          "transpose_tail.tir",   "branch_convert.tir",
          "histogram.tir",        "attention.tir",
          "attention_causal.tir", "attention_d128.tir",
          "join_split.tir",       "combine.tir",
          "matmul_i8.tir"};
}

/// The text of example `file` with every "kWidth = from" made "kWidth = to": the same kernel
/// with dot operands whose threads hold `to` consecutive elements of K.
inline std::string withKWidth(const std::string &file, int from, int to) {
  std::string text = readFile(examplePath(file));
  const std::string a = "kWidth = " + std::to_string(from), b = "kWidth = " + std::to_string(to);
  for (size_t at = text.find(a); at != std::string::npos; at = text.find(a, at + b.size()))
    text.replace(at, a.size(), b);
  return text;
}

/// The matmuls with kWidths past one 32-bit word of K (f16 4 and 8, i8 8 and 16), as
/// (file, kWidth as written, kWidth): Triton's own choice for an fp8 dot upcast to f16 is 4.
struct KWidthVariant {
  const char *file;
  int from, to;
};
inline std::vector<KWidthVariant> kWidthVariants() {
  return {{"matmul.tir", 2, 4},
          {"matmul.tir", 2, 8},
          {"matmul_i8.tir", 4, 8},
          {"matmul_i8.tir", 4, 16}};
}

/// The texts of the examples `names`, in order ("" for a file that cannot be read).
inline std::vector<std::string> exampleTexts(const std::vector<std::string> &names) {
  std::vector<std::string> texts;
  for (const std::string &n : names)
    texts.push_back(readFile(examplePath(n)));
  return texts;
}

/// Parses an example; fails the test on error.
inline Module loadExample(const std::string &name) {
  auto m = parseModule(readFile(examplePath(name)), name);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.message());
  return m.ok() ? std::move(*m) : Module();
}

template <typename T> std::vector<uint8_t> bytesOf(const std::vector<T> &v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!v.empty())
    std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <typename T> std::vector<T> valuesOf(const std::vector<uint8_t> &b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty())
    std::memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}

/// The f16 bits of a float that f16 holds exactly (the small halves the tests use).
inline uint16_t toHalfBits(float x) {
  if (x == 0)
    return 0;
  uint16_t sign = x < 0 ? 0x8000 : 0;
  double r = std::fabs(double(x));
  int e;
  double m = std::frexp(r, &e);
  return uint16_t(sign | uint16_t((e - 1 + 15) << 10) | (uint16_t(std::ldexp(m, 11)) & 0x3FF));
}

/// toHalfBits of each float.
inline std::vector<uint16_t> halfBitsOf(const std::vector<float> &v) {
  std::vector<uint16_t> h;
  h.reserve(v.size());
  for (float x : v)
    h.push_back(toHalfBits(x));
  return h;
}

/// The value of f16 bits (subnormals included; the tests write no infinities or NaNs).
inline double fromHalfBits(uint16_t h) {
  int e = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double v = e == 0 ? std::ldexp(mant, -24) : std::ldexp(1024 + mant, e - 25);
  return (h & 0x8000) ? -v : v;
}

/// The bf16 bits of a float that bf16 holds exactly: the high half of its f32 bits.
inline uint16_t toBf16Bits(float x) {
  uint32_t bits = 0;
  std::memcpy(&bits, &x, 4);
  return uint16_t(bits >> 16);
}

/// The value of bf16 bits (the high half of an f32's).
inline double fromBf16Bits(uint16_t h) {
  const uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// One runnable example: the kernel, its inputs, and a check of the outputs.
struct ExampleRun {
  std::string file;
  std::string function;
  Grid grid;
  std::function<void(Memory &, std::vector<ArgValue> &)> setup;
  /// Checks memory after a run against a reference computed here.
  std::function<void(const Memory &)> check;
};

/// n random normal f16 values (magnitudes 2^-7 to below 2^0), as bytes.
inline std::vector<uint8_t> randomHalves(size_t n, std::mt19937_64 &rng) {
  std::vector<uint16_t> h(n);
  for (uint16_t &x : h)
    x = uint16_t((rng() % 2 ? 0x8000 : 0) | ((8 + rng() % 7) << 10) | (rng() % 1024));
  return bytesOf(h);
}

/// n random bytes (i8 values of the whole range).
inline std::vector<uint8_t> randomBytes(size_t n, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<uint8_t> v(n);
  for (uint8_t &x : v)
    x = uint8_t(g());
  return v;
}

/// Checks that `c` holds the i32 product of the row-major i8 matrices `a` (M x K) and `b`
/// (K x N), every element.
inline void expectI8Product(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b,
                            const std::vector<uint8_t> &c, size_t M, size_t N, size_t K) {
  auto C = valuesOf<int32_t>(c);
  ASSERT_EQ(C.size(), M * N);
  for (size_t i = 0; i < M; ++i)
    for (size_t j = 0; j < N; ++j) {
      int64_t s = 0;
      for (size_t k = 0; k < K; ++k)
        s += int64_t(int8_t(a[i * K + k])) * int8_t(b[k * N + j]);
      ASSERT_EQ(C[i * N + j], int32_t(s)) << i << "," << j;
    }
}

/// The float64 product of the row-major M x K matrix `a` and a K x N matrix `b` whose element
/// (k, j) is b[k * kStride + j * nStride] (N, 1 for row-major; 1, K for N x K storage), row-major.
inline std::vector<double> productF64(const std::vector<double> &a, const std::vector<double> &b,
                                      int M, int N, int K, size_t kStride, size_t nStride) {
  std::vector<double> c(size_t(M) * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += a[size_t(i) * K + k] * b[k * kStride + j * nStride];
      c[size_t(i) * N + j] = s;
    }
  return c;
}

inline std::vector<float> randomFloats(size_t n, unsigned seed, int range = 8) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> d(-range, range);
  std::vector<float> v(n);
  for (float &x : v)
    x = float(d(g)) / 2; // small halves: exact in f16, sums exact in f32
  return v;
}

inline std::vector<ExampleRun> exampleRuns() {
  std::vector<ExampleRun> runs;
  // The 1-D copies: 3 programs of 1024 floats over n = 2992, the last block partial.
  for (auto [file, seed] : {std::pair<const char *, unsigned>{"memcpy_1d", 1}, {"memcpy_tail", 12}})
    runs.push_back({std::string(file) + ".tir",
                    file,
                    {3, 1, 1},
                    [seed](Memory &m, std::vector<ArgValue> &a) {
                      m.buffers = {bytesOf(randomFloats(3072, seed)),
                                   bytesOf(std::vector<float>(3072, -1.f))};
                      a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(2992)};
                    },
                    [](const Memory &m) {
                      auto src = valuesOf<float>(m.buffers[0]), dst = valuesOf<float>(m.buffers[1]);
                      for (size_t i = 0; i < 3072; ++i)
                        ASSERT_EQ(dst[i], i < 2992 ? src[i] : -1.f) << i;
                    }});
  // An 80 x 112 matrix: tile (0, 0) is inside, the other three lie on an edge.
  runs.push_back({"transpose_tail.tir",
                  "transpose_tail",
                  {2, 2, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::vector<uint16_t> in(80 * 112);
                    for (size_t i = 0; i < in.size(); ++i)
                      in[i] = uint16_t((i * 7 + 3) % 30000); // finite halves (no NaN patterns)
                    m.buffers = {bytesOf(in), bytesOf(std::vector<uint16_t>(80 * 112, 0xffff))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(80),
                         ArgValue::integer(112)};
                  },
                  [](const Memory &m) {
                    auto in = valuesOf<uint16_t>(m.buffers[0]);
                    auto out = valuesOf<uint16_t>(m.buffers[1]);
                    for (size_t r = 0; r < 80; ++r)
                      for (size_t c = 0; c < 112; ++c)
                        ASSERT_EQ(out[r + c * 80], in[r * 112 + c]) << r << "," << c;
                  }});
  runs.push_back({"branch_convert.tir",
                  "branch_convert",
                  {2, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(randomFloats(2 * 4096, 13)),
                                 bytesOf(std::vector<float>(2 * 4096, 0.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1)};
                  },
                  [](const Memory &m) {
                    auto in = valuesOf<float>(m.buffers[0]), out = valuesOf<float>(m.buffers[1]);
                    for (size_t i = 0; i < in.size(); ++i)
                      ASSERT_EQ(out[i], i < 4096 ? in[i] + in[i] : in[i] * in[i]) << i;
                  }});
  // 3000 values over 3 programs (the last one masked): each bin counts its values.
  runs.push_back({"histogram.tir",
                  "histogram",
                  {3, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::vector<int32_t> x(3072);
                    std::mt19937 g(14);
                    for (int32_t &v : x)
                      v = int32_t(g() % 100000) - 50000; // negative values too: bin = low 8 bits
                    m.buffers = {bytesOf(x), bytesOf(std::vector<int32_t>(256, 0))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(3000)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<int32_t>(m.buffers[0]);
                    std::vector<int32_t> want(256, 0);
                    for (size_t i = 0; i < 3000; ++i)
                      ++want[size_t(x[i] & 255)];
                    ASSERT_EQ(valuesOf<int32_t>(m.buffers[1]), want);
                  }});
  runs.push_back({"memcpy_2d.tir",
                  "memcpy_2d",
                  {2, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(randomFloats(128 * 64, 2)),
                                 bytesOf(std::vector<float>(128 * 64, 0.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(64)};
                  },
                  [](const Memory &m) { ASSERT_EQ(m.buffers[0], m.buffers[1]); }});
  // x and x + 1 joined along a new last dimension and stored interleaved; split back: back is
  // (x + 1) - x, in f32.
  runs.push_back({"join_split.tir",
                  "join_split",
                  {1, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(randomFloats(32 * 64, 53)),
                                 bytesOf(std::vector<float>(32 * 128, -7.f)),
                                 bytesOf(std::vector<float>(32 * 64, -7.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<float>(m.buffers[0]), out = valuesOf<float>(m.buffers[1]);
                    auto back = valuesOf<float>(m.buffers[2]);
                    for (size_t i = 0; i < 32; ++i)
                      for (size_t j = 0; j < 64; ++j) {
                        float v = x[i * 64 + j], v1 = v + 1.f;
                        ASSERT_EQ(out[i * 128 + 2 * j], v) << i << "," << j;
                        ASSERT_EQ(out[i * 128 + 2 * j + 1], v1) << i << "," << j;
                        ASSERT_EQ(back[i * 64 + j], v1 - v) << i << "," << j;
                      }
                  }});
  // Each row's maximum and its first column (values of few kinds: many ties), and the reversed
  // linear recurrence h[i][j] = a[i][j] * h[i][j+1] + x[i][j]; whether each row holds a positive
  // element (an i1 reduction across warps).
  runs.push_back({"combine.tir",
                  "combine",
                  {1, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::vector<float> x = randomFloats(32 * 64, 56),
                                       coef = randomFloats(32 * 64, 57);
                    for (float &v : x)
                      v = std::round(4 * v);
                    for (size_t j = 0; j < 64; ++j) { // rows 0 and 5: no positive element
                      x[j] = std::min(x[j], 0.f);
                      x[5 * 64 + j] = std::min(x[5 * 64 + j], 0.f);
                    }
                    for (float &v : coef)
                      v = 1.f + 0.5f * std::tanh(v);
                    m.buffers = {bytesOf(x),
                                 bytesOf(coef),
                                 bytesOf(std::vector<float>(32, -7.f)),
                                 bytesOf(std::vector<int32_t>(32, -7)),
                                 bytesOf(std::vector<float>(32 * 64, -7.f)),
                                 bytesOf(std::vector<int32_t>(32, -7))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2),
                         ArgValue::pointer(3), ArgValue::pointer(4), ArgValue::pointer(5)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<float>(m.buffers[0]), coef = valuesOf<float>(m.buffers[1]);
                    auto vmax = valuesOf<float>(m.buffers[2]), h = valuesOf<float>(m.buffers[4]);
                    auto imax = valuesOf<int32_t>(m.buffers[3]);
                    auto pos = valuesOf<int32_t>(m.buffers[5]);
                    for (size_t i = 0; i < 32; ++i) {
                      size_t best = firstArgMax(x, i * 64, 64);
                      ASSERT_EQ(vmax[i], x[i * 64 + best]) << i;
                      ASSERT_EQ(imax[i], int32_t(best)) << i;
                      ASSERT_EQ(pos[i], x[i * 64 + best] > 0 ? 1 : 0) << i;
                      double want = 0;
                      for (size_t j = 64; j-- > 0;) {
                        want = coef[i * 64 + j] * want + x[i * 64 + j];
                        ASSERT_NEAR(h[i * 64 + j], want, 1e-4 * (1 + std::abs(want)))
                            << i << "," << j;
                      }
                    }
                  }});
  runs.push_back({"transpose_copy.tir",
                  "transpose_copy",
                  {1, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::vector<uint16_t> in(64 * 64);
                    for (size_t i = 0; i < in.size(); ++i)
                      in[i] = uint16_t(i * 7 + 3);
                    m.buffers = {bytesOf(in), bytesOf(std::vector<uint16_t>(64 * 64, 0))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(64),
                         ArgValue::integer(64)};
                  },
                  [](const Memory &m) {
                    auto in = valuesOf<uint16_t>(m.buffers[0]);
                    auto out = valuesOf<uint16_t>(m.buffers[1]);
                    for (int r = 0; r < 64; ++r)
                      for (int c = 0; c < 64; ++c)
                        ASSERT_EQ(out[size_t(r + c * 64)], in[size_t(r * 64 + c)]) << r << "," << c;
                  }});
  runs.push_back({"warp_convert.tir",
                  "warp_convert",
                  {1, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(randomFloats(32 * 64, 9)),
                                 bytesOf(std::vector<float>(32 * 64, 0.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1)};
                  },
                  [](const Memory &m) { ASSERT_EQ(m.buffers[0], m.buffers[1]); }});
  runs.push_back({"convert_loop.tir",
                  "convert_loop",
                  {1, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(randomFloats(128 * 64, 11)),
                                 bytesOf(std::vector<float>(128 * 64, 0.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(5)};
                  },
                  [](const Memory &m) {
                    auto in = valuesOf<float>(m.buffers[0]), out = valuesOf<float>(m.buffers[1]);
                    for (size_t i = 0; i < in.size(); ++i)
                      ASSERT_EQ(out[i], in[i] + 5.f) << i;
                  }});
  runs.push_back({"row_reduce.tir",
                  "row_sum",
                  {2, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(randomFloats(64 * 128, 3)),
                                 bytesOf(std::vector<float>(64, 0.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(128)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<float>(m.buffers[0]), out = valuesOf<float>(m.buffers[1]);
                    for (size_t r = 0; r < 64; ++r) {
                      float s = 0;
                      for (size_t c = 0; c < 128; ++c)
                        s += x[r * 128 + c];
                      ASSERT_EQ(out[r], s) << r;
                    }
                  }});
  runs.push_back({"matmul.tir",
                  "matmul",
                  {2, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    // M = 256, N = 128, K = 64.
                    auto af = randomFloats(256 * 64, 4), bf = randomFloats(64 * 128, 5);
                    std::vector<uint16_t> ah = halfBitsOf(af), bh = halfBitsOf(bf);
                    m.buffers = {bytesOf(ah), bytesOf(bh), bytesOf(std::vector<float>(256 * 128)),
                                 bytesOf(af), bytesOf(bf)};
                    a = {ArgValue::pointer(0),  ArgValue::pointer(1),  ArgValue::pointer(2),
                         ArgValue::integer(64), ArgValue::integer(64), ArgValue::integer(128),
                         ArgValue::integer(128)};
                  },
                  [](const Memory &m) {
                    auto c = valuesOf<float>(m.buffers[2]);
                    auto af = valuesOf<float>(m.buffers[3]), bf = valuesOf<float>(m.buffers[4]);
                    for (size_t i = 0; i < 256; i += 7)
                      for (size_t j = 0; j < 128; j += 5) {
                        double s = 0;
                        for (size_t k = 0; k < 64; ++k)
                          s += double(af[i * 64 + k]) * bf[k * 128 + j];
                        ASSERT_EQ(c[i * 128 + j], float(s)) << i << "," << j;
                      }
                  }});
  // C = A B for i8 A (256 x 192) and B (192 x 256) of the whole range, in 128 x 128 tiles (three
  // K steps of 64), C in i32: exact.
  runs.push_back({"matmul_i8.tir",
                  "matmul_i8",
                  {2, 2, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {randomBytes(256 * 192, 60), randomBytes(192 * 256, 61),
                                 bytesOf(std::vector<int32_t>(256 * 256, -7))};
                    a = {ArgValue::pointer(0),   ArgValue::pointer(1),   ArgValue::pointer(2),
                         ArgValue::integer(192), ArgValue::integer(192), ArgValue::integer(256),
                         ArgValue::integer(256)};
                  },
                  [](const Memory &m) {
                    expectI8Product(m.buffers[0], m.buffers[1], m.buffers[2], 256, 256, 192);
                  }});
  runs.push_back({"softmax.tir",
                  "softmax",
                  {4, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(randomFloats(4 * 128, 6)),
                                 bytesOf(std::vector<float>(4 * 128, -7.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(128),
                         ArgValue::integer(100)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<float>(m.buffers[0]), y = valuesOf<float>(m.buffers[1]);
                    for (size_t r = 0; r < 4; ++r) {
                      double mx = -INFINITY, sum = 0;
                      for (size_t c = 0; c < 100; ++c)
                        mx = std::max(mx, double(x[r * 128 + c]));
                      for (size_t c = 0; c < 100; ++c)
                        sum += std::exp(double(x[r * 128 + c]) - mx);
                      for (size_t c = 0; c < 128; ++c) {
                        if (c >= 100) {
                          ASSERT_EQ(y[r * 128 + c], -7.f);
                          continue;
                        }
                        double want = std::exp(double(x[r * 128 + c]) - mx) / sum;
                        ASSERT_NEAR(y[r * 128 + c], want, 1e-6) << r << "," << c;
                      }
                    }
                  }});
  // 3 rows of 400 columns (two blocks of 256, the second masked) with row stride 512; the
  // columns past 400 keep their -7.
  runs.push_back({"layernorm.tir",
                  "layernorm",
                  {3, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::vector<float> x = randomFloats(3 * 512, 21);
                    for (size_t i = 0; i < x.size(); ++i)
                      x[i] = 3 * x[i] + 1.5f; // a mean and a spread far from 0 and 1
                    m.buffers = {bytesOf(x), bytesOf(std::vector<float>(3 * 512, -7.f)),
                                 bytesOf(randomFloats(400, 22)), bytesOf(randomFloats(400, 23))};
                    a = {ArgValue::pointer(0),    ArgValue::pointer(1),   ArgValue::pointer(2),
                         ArgValue::pointer(3),    ArgValue::integer(512), ArgValue::integer(400),
                         ArgValue::floating(1e-5)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<float>(m.buffers[0]), y = valuesOf<float>(m.buffers[1]);
                    auto w = valuesOf<float>(m.buffers[2]), b = valuesOf<float>(m.buffers[3]);
                    for (size_t r = 0; r < 3; ++r) {
                      double mean = 0, var = 0;
                      for (size_t c = 0; c < 400; ++c)
                        mean += x[r * 512 + c];
                      mean /= 400;
                      for (size_t c = 0; c < 400; ++c)
                        var += (x[r * 512 + c] - mean) * (x[r * 512 + c] - mean);
                      double rstd = 1 / std::sqrt(var / 400 + 1e-5);
                      for (size_t c = 0; c < 512; ++c) {
                        if (c >= 400) {
                          ASSERT_EQ(y[r * 512 + c], -7.f);
                          continue;
                        }
                        double want = (x[r * 512 + c] - mean) * rstd * w[c] + b[c];
                        ASSERT_NEAR(y[r * 512 + c], want, 1e-4) << r << "," << c;
                      }
                    }
                  }});
  // Attention over 2 heads of 256 positions (2 query blocks per head), causal attention (query i
  // sees keys j <= i) on the same inputs, and attention with head dim 128.
  struct AttentionCase {
    const char *file, *function;
    bool causal;
    size_t d;
  };
  for (AttentionCase c : {AttentionCase{"attention.tir", "attention", false, 64},
                          AttentionCase{"attention_causal.tir", "attention_causal", true, 64},
                          AttentionCase{"attention_d128.tir", "attention_d128", false, 128}})
    runs.push_back(
        {c.file,
         c.function,
         {2, 2, 1},
         [d = c.d](Memory &m, std::vector<ArgValue> &a) {
           const size_t n = 2 * 256 * d;
           std::vector<uint16_t> q = halfBitsOf(randomFloats(n, 15, 2)),
                                 k = halfBitsOf(randomFloats(n, 16, 2)),
                                 v = halfBitsOf(randomFloats(n, 17, 8));
           m.buffers = {bytesOf(q), bytesOf(k), bytesOf(v),
                        bytesOf(std::vector<uint16_t>(n, 0x7C00))}; // +inf: unwritten
           a = {ArgValue::pointer(0), ArgValue::pointer(1),   ArgValue::pointer(2),
                ArgValue::pointer(3), ArgValue::integer(256), ArgValue::floating(0.125)};
         },
         [causal = c.causal, d = c.d](const Memory &m) {
           auto q = valuesOf<uint16_t>(m.buffers[0]), k = valuesOf<uint16_t>(m.buffers[1]),
                v = valuesOf<uint16_t>(m.buffers[2]), o = valuesOf<uint16_t>(m.buffers[3]);
           for (size_t h = 0; h < 2; ++h)
             for (size_t i = 0; i < 256; i += 5) {
               const size_t base = h * 256 * d, keys = causal ? i + 1 : 256;
               std::vector<double> s(keys);
               double mx = -INFINITY, sum = 0;
               for (size_t j = 0; j < keys; ++j) {
                 double dot = 0;
                 for (size_t c = 0; c < d; ++c)
                   dot += fromHalfBits(q[base + i * d + c]) * fromHalfBits(k[base + j * d + c]);
                 s[j] = dot * 0.125;
                 mx = std::max(mx, s[j]);
               }
               for (double &x : s)
                 sum += x = std::exp(x - mx);
               for (size_t c = 0; c < d; ++c) {
                 double want = 0;
                 for (size_t j = 0; j < keys; ++j)
                   want += s[j] * fromHalfBits(v[base + j * d + c]);
                 want /= sum;
                 // P is rounded to f16 before the second dot, O on the store: both relative
                 // 2^-11, of values |v| <= 4.
                 ASSERT_NEAR(fromHalfBits(o[base + i * d + c]), want, 8e-3)
                     << "head " << h << ", row " << i << ", column " << c;
               }
             }
         }});
  runs.push_back({"ops.tir",
                  "ops",
                  {2, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(randomFloats(128, 7)),
                                 bytesOf(std::vector<float>(128, -3.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(100)};
                  },
                  [](const Memory &m) {
                    auto y = valuesOf<float>(m.buffers[1]);
                    for (size_t i = 0; i < 128; ++i) {
                      if (i >= 100)
                        ASSERT_EQ(y[i], -3.f) << i;
                      else
                        // Each row's maximum plus sum + 3 * 256 (the dot of ones is 16 per entry,
                        // summed over 16 rows, the minimum over the columns), + 3 (the -3 the
                        // compare-and-swap took out of y, subtracted).
                        ASSERT_GE(y[i], 771.f) << i;
                    }
                  }});
  return runs;
}

/// With the Builder, in the open function: the row-major offsets r * width + c of a rows x width
/// tile, in the 2-D blocked layout `blocked` (from make_range in its two slices).
inline ValueId tileOffsets(Builder &b, const BlockedSpec &blocked, int64_t rows, int64_t width) {
  LayoutId bl = b.layout(blocked);
  ValueId r = b.expandDims(b.makeRange(0, rows, b.layout(SliceSpec::make(1, blocked).value())), 1);
  ValueId c = b.expandDims(b.makeRange(0, width, b.layout(SliceSpec::make(0, blocked).value())), 0);
  ValueId rw =
      b.binary(OpKind::MulI, r,
               b.constantInt(width, Type::tensor({rows, 1}, ElemType{ScalarKind::I32}, bl)));
  return b.binary(OpKind::AddI, b.broadcast(rw, {rows, width}), b.broadcast(c, {rows, width}));
}

/// Runs an example's kernel on its inputs; returns the memory afterwards.
inline Memory runExample(const Module &m, const ExampleRun &run, InterpreterOptions options = {}) {
  Memory mem;
  std::vector<ArgValue> args;
  run.setup(mem, args);
  Status s = interpret(m, run.function, args, mem, run.grid, std::move(options));
  EXPECT_TRUE(s.ok()) << run.file << ": " << (s.ok() ? "" : s.message());
  return mem;
}

} // namespace linlayout::ir::testing
