// The kernels of examples/triton/: TritonGPU IR as Triton 3.6 printed it (scripts/gpu/
// triton_dumps.py), with its source locations, generic tt.reduce and async tokens. Each run gives
// the inputs the dump was compiled for (its divisibility hints hold for them) and checks the
// outputs against a reference computed here. With them, the sm_90-only examples of examples/
// that the runs of Examples.h (which also run on sm_80) leave out.
#pragma once

#include "Examples.h"
#include "Fp8Reference.h"

#include <bit>
#include <cmath>

namespace linlayout::ir::testing {

/// The dumps' file names under examples/ (triton/NAME.ttgir) with the runs that check them.
inline std::vector<ExampleRun> tritonDumpRuns() {
  std::vector<ExampleRun> runs;
  // x + y over n = 4000 floats, 4 programs of 1024 (the last one masked).
  runs.push_back({"triton/add.ttgir",
                  "add",
                  {4, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(randomFloats(4096, 31)), bytesOf(randomFloats(4096, 32)),
                                 bytesOf(std::vector<float>(4096, -1.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2),
                         ArgValue::integer(4000)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<float>(m.buffers[0]), y = valuesOf<float>(m.buffers[1]);
                    auto out = valuesOf<float>(m.buffers[2]);
                    for (size_t i = 0; i < 4096; ++i)
                      ASSERT_EQ(out[i], i < 4000 ? x[i] + y[i] : -1.f) << i;
                  }});
  // Softmax of 8 rows of 1000 (blocks of 1024, masked; tl.max is maxnumf).
  runs.push_back({"triton/softmax.ttgir",
                  "softmax",
                  {8, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(std::vector<float>(8000, -7.f)),
                                 bytesOf(randomFloats(8000, 33))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(1000),
                         ArgValue::integer(1000), ArgValue::integer(1000)};
                  },
                  [](const Memory &m) {
                    auto y = valuesOf<float>(m.buffers[0]), x = valuesOf<float>(m.buffers[1]);
                    for (size_t r = 0; r < 8; ++r) {
                      double mx = -INFINITY, sum = 0;
                      for (size_t c = 0; c < 1000; ++c)
                        mx = std::max(mx, double(x[r * 1000 + c]));
                      for (size_t c = 0; c < 1000; ++c)
                        sum += std::exp(x[r * 1000 + c] - mx);
                      for (size_t c = 0; c < 1000; ++c)
                        ASSERT_NEAR(y[r * 1000 + c], std::exp(x[r * 1000 + c] - mx) / sum, 1e-6)
                            << r << "," << c;
                    }
                  }});
  // Layer norm of 8 rows of 1000 (blocks of 256, the last masked), eps 1e-5.
  runs.push_back(
      {"triton/layer_norm.ttgir",
       "layer_norm",
       {8, 1, 1},
       [](Memory &m, std::vector<ArgValue> &a) {
         std::vector<float> x = randomFloats(8000, 34);
         for (float &v : x)
           v = 3 * v + 1.5f;
         m.buffers = {bytesOf(x), bytesOf(std::vector<float>(8000, -7.f)),
                      bytesOf(randomFloats(1000, 35)), bytesOf(randomFloats(1000, 36))};
         a = {ArgValue::pointer(0),    ArgValue::pointer(1),    ArgValue::pointer(2),
              ArgValue::pointer(3),    ArgValue::integer(1000), ArgValue::integer(1000),
              ArgValue::floating(1e-5)};
       },
       [](const Memory &m) {
         auto x = valuesOf<float>(m.buffers[0]), y = valuesOf<float>(m.buffers[1]);
         auto w = valuesOf<float>(m.buffers[2]), b = valuesOf<float>(m.buffers[3]);
         for (size_t r = 0; r < 8; ++r) {
           double mean = 0, var = 0;
           for (size_t c = 0; c < 1000; ++c)
             mean += x[r * 1000 + c];
           mean /= 1000;
           for (size_t c = 0; c < 1000; ++c)
             var += (x[r * 1000 + c] - mean) * (x[r * 1000 + c] - mean);
           double rstd = 1 / std::sqrt(var / 1000 + 1e-5);
           for (size_t c = 0; c < 1000; ++c)
             ASSERT_NEAR(y[r * 1000 + c], (x[r * 1000 + c] - mean) * rstd * w[c] + b[c], 1e-4)
                 << r << "," << c;
         }
       }});
  // A 100 x 200 f16 matrix transposed in 64 x 64 tiles (the edge tiles masked).
  runs.push_back({"triton/transpose.ttgir",
                  "transpose",
                  {2, 4, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(halfBitsOf(randomFloats(100 * 200, 37))),
                                 bytesOf(std::vector<uint16_t>(200 * 100, 0xffff))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(100),
                         ArgValue::integer(200)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<uint16_t>(m.buffers[0]), y = valuesOf<uint16_t>(m.buffers[1]);
                    for (size_t i = 0; i < 100; ++i)
                      for (size_t j = 0; j < 200; ++j)
                        ASSERT_EQ(y[j * 100 + i], x[i * 200 + j]) << i << "," << j;
                  }});
  // 3000 values counted into 64 bins (x & 63) by atomic adds.
  runs.push_back({"triton/histogram.ttgir",
                  "histogram",
                  {3, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::mt19937 g(38);
                    std::vector<int32_t> x(3072);
                    for (int32_t &v : x)
                      v = int32_t(g() % (1u << 20));
                    m.buffers = {bytesOf(x), bytesOf(std::vector<int32_t>(64, 0))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(3000)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<int32_t>(m.buffers[0]), h = valuesOf<int32_t>(m.buffers[1]);
                    std::vector<int32_t> want(64, 0);
                    for (size_t i = 0; i < 3000; ++i)
                      ++want[size_t(x[i] & 63)];
                    ASSERT_EQ(h, want);
                  }});
  // C = A B for 256 x 256 f16 matrices in 128 x 128 tiles (K steps of 32), C in f16. The inputs
  // are small halves, so every f32 sum is exact and C is the sum rounded to f16.
  for (const char *file : {"triton/matmul_mma_sync.ttgir", "triton/matmul_wgmma.ttgir"})
    runs.push_back(
        {file,
         "matmul",
         {2, 2, 1},
         [](Memory &m, std::vector<ArgValue> &a) {
           m.buffers = {bytesOf(halfBitsOf(randomFloats(256 * 256, 39))),
                        bytesOf(halfBitsOf(randomFloats(256 * 256, 40))),
                        bytesOf(std::vector<uint16_t>(256 * 256, 0xffff))};
           a = {ArgValue::pointer(0),   ArgValue::pointer(1),   ArgValue::pointer(2),
                ArgValue::integer(256), ArgValue::integer(256), ArgValue::integer(256)};
         },
         [](const Memory &m) {
           auto A = valuesOf<uint16_t>(m.buffers[0]), B = valuesOf<uint16_t>(m.buffers[1]);
           auto C = valuesOf<uint16_t>(m.buffers[2]);
           for (size_t i = 0; i < 256; i += 3)
             for (size_t j = 0; j < 256; j += 5) {
               double s = 0;
               for (size_t k = 0; k < 256; ++k)
                 s += fromHalfBits(A[i * 256 + k]) * fromHalfBits(B[k * 256 + j]);
               ASSERT_EQ(fromHalfBits(C[i * 256 + j]), roundToFloatKind(s, ScalarKind::F16))
                   << i << "," << j;
             }
         }});
  // The same product with host tensor descriptors: Triton loads A and B by TMA into rings of
  // NVMMA tiles and stores C by TMA from shared memory (each descriptor argument comes with its
  // shape and strides as scalars).
  runs.push_back({"triton/matmul_tma.ttgir",
                  "matmul_tma",
                  {2, 2, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(halfBitsOf(randomFloats(256 * 256, 39))),
                                 bytesOf(halfBitsOf(randomFloats(256 * 256, 40))),
                                 bytesOf(std::vector<uint16_t>(256 * 256, 0xffff))};
                    a.clear();
                    for (uint32_t buffer = 0; buffer < 3; ++buffer)
                      for (ArgValue v : {ArgValue::tensorDesc(buffer, {256, 256}, {256, 1}),
                                         ArgValue::integer(256), ArgValue::integer(256),
                                         ArgValue::integer(256), ArgValue::integer(1)})
                        a.push_back(v);
                    a.push_back(ArgValue::integer(256));
                  },
                  runs.back().check});
  // C = A B for i8 256 x 256 matrices of the whole range (tl.dot with out_dtype=tl.int32, held to
  // mma.sync by DISABLE_MMA_V3=1, and as Triton compiles it for sm_90: wgmma s8, B K-major in
  // shared memory), C in i32: exact.
  for (const char *file : {"triton/matmul_i8_mma_sync.ttgir", "triton/matmul_i8_wgmma.ttgir"})
    runs.push_back({file,
                    "matmul_i8",
                    {2, 2, 1},
                    [](Memory &m, std::vector<ArgValue> &a) {
                      m.buffers = {randomBytes(256 * 256, 62), randomBytes(256 * 256, 63),
                                   bytesOf(std::vector<int32_t>(256 * 256, -7))};
                      a = {ArgValue::pointer(0),   ArgValue::pointer(1),   ArgValue::pointer(2),
                           ArgValue::integer(256), ArgValue::integer(256), ArgValue::integer(256)};
                    },
                    [](const Memory &m) {
                      expectI8Product(m.buffers[0], m.buffers[1], m.buffers[2], 256, 256, 256);
                    }});
  // C = fp8(A) fp8(B) for f32 A and B (256 x 256) rounded to f8E4M3FN in the kernel and
  // multiplied as f16 by mma.sync (kWidth 4: Triton's fp8 dot held to mma.sync), or as e4m3 by
  // wgmma (A from registers, B K-major in shared memory: as Triton compiles it for sm_90), C in
  // f32: the sum of the rounded products, within f32 rounding (mma.sync) or wgmma's.
  for (const char *file : {"triton/matmul_fp8_mma_sync.ttgir", "triton/matmul_fp8_wgmma.ttgir"})
    runs.push_back(
        {file,
         "matmul_fp8",
         {2, 2, 1},
         [](Memory &m, std::vector<ArgValue> &a) {
           std::mt19937 g(65);
           std::uniform_real_distribution<float> u(-2.f, 2.f);
           std::vector<float> x(2 * 256 * 256);
           for (float &v : x)
             v = u(g);
           m.buffers = {bytesOf(std::vector<float>(x.begin(), x.begin() + 65536)),
                        bytesOf(std::vector<float>(x.begin() + 65536, x.end())),
                        bytesOf(std::vector<float>(256 * 256, -7.f))};
           a = {ArgValue::pointer(0),   ArgValue::pointer(1),   ArgValue::pointer(2),
                ArgValue::integer(256), ArgValue::integer(256), ArgValue::integer(256)};
         },
         [wgmma = std::string(file).find("wgmma") != std::string::npos](const Memory &m) {
           auto A = valuesOf<float>(m.buffers[0]), B = valuesOf<float>(m.buffers[1]);
           auto C = valuesOf<float>(m.buffers[2]);
           const ScalarKind e4 = ScalarKind::F8E4M3FN;
           // wgmma sums 8-bit float products in fewer bits than f32.
           const double tolerance = wgmma ? 1e-3 : 1e-5;
           auto q = [&](float v) { return fp8Decode(fp8Encode(v, e4), e4); };
           for (size_t i = 0; i < 256; i += 3)
             for (size_t j = 0; j < 256; j += 5) {
               double s = 0, mag = 0;
               for (size_t k = 0; k < 256; ++k) {
                 s += q(A[i * 256 + k]) * q(B[k * 256 + j]);
                 mag += std::fabs(q(A[i * 256 + k]) * q(B[k * 256 + j]));
               }
               ASSERT_NEAR(C[i * 256 + j], s, tolerance * mag) << i << "," << j;
             }
         }});
  // relu(A B + bias) for M = 100, N = 130, K = 72 in 64 x 64 tiles (K steps of 32): every edge
  // masked, the last K step too. C in f32, exact as above.
  for (const char *file :
       {"triton/matmul_bias_relu_mma_sync.ttgir", "triton/matmul_bias_relu_wgmma.ttgir"})
    runs.push_back({file,
                    "matmul_bias_relu",
                    {2, 3, 1},
                    [](Memory &m, std::vector<ArgValue> &a) {
                      m.buffers = {bytesOf(halfBitsOf(randomFloats(100 * 72, 41))),
                                   bytesOf(halfBitsOf(randomFloats(72 * 130, 42))),
                                   bytesOf(randomFloats(130, 43)),
                                   bytesOf(std::vector<float>(100 * 130, -7.f))};
                      a = {ArgValue::pointer(0), ArgValue::pointer(1),   ArgValue::pointer(2),
                           ArgValue::pointer(3), ArgValue::integer(100), ArgValue::integer(130),
                           ArgValue::integer(72)};
                    },
                    [](const Memory &m) {
                      auto A = valuesOf<uint16_t>(m.buffers[0]),
                           B = valuesOf<uint16_t>(m.buffers[1]);
                      auto bias = valuesOf<float>(m.buffers[2]), C = valuesOf<float>(m.buffers[3]);
                      for (size_t i = 0; i < 100; ++i)
                        for (size_t j = 0; j < 130; ++j) {
                          double s = bias[j];
                          for (size_t k = 0; k < 72; ++k)
                            s += fromHalfBits(A[i * 72 + k]) * fromHalfBits(B[k * 130 + j]);
                          ASSERT_EQ(C[i * 130 + j], float(std::max(s, 0.0))) << i << "," << j;
                        }
                    }});
  // Dropout of 4000 floats with p = 1/2 and seed 123 (Triton's tutorial 04: tl.rand is Philox,
  // tt.mulhiui and tt.bitcast among its ops): every element is dropped (0) or kept and doubled,
  // about half of them kept; the tail past n is untouched.
  runs.push_back({"triton/dropout.ttgir",
                  "dropout",
                  {4, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::vector<float> x = randomFloats(4096, 49);
                    for (float &v : x)
                      v += 10.5f; // none zero, so that dropped and kept differ
                    m.buffers = {bytesOf(x), bytesOf(std::vector<float>(4096, -7.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(4000),
                         ArgValue::floating(0.5), ArgValue::integer(123)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<float>(m.buffers[0]), y = valuesOf<float>(m.buffers[1]);
                    int kept = 0;
                    for (size_t i = 0; i < 4096; ++i) {
                      if (i >= 4000) {
                        ASSERT_EQ(y[i], -7.f) << i;
                        continue;
                      }
                      ASSERT_TRUE(y[i] == 0 || y[i] == 2 * x[i]) << i << ": " << y[i];
                      kept += y[i] != 0;
                    }
                    EXPECT_GT(kept, 1800);
                    EXPECT_LT(kept, 2200);
                  }});
  // Scans of a 50 x 100 matrix in 32 x 128 tiles (masked): f32 prefix sums along rows, i32
  // suffix products along rows (tl.cumprod reverse; they wrap), i32 running maxima down each
  // tile's columns (tl.associative_scan with tl.maximum).
  runs.push_back({"triton/scans.ttgir",
                  "scans",
                  {2, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::mt19937 g(50);
                    std::vector<int32_t> i(5000);
                    for (int32_t &v : i)
                      v = int32_t(g() % 7) - 3;
                    m.buffers = {bytesOf(randomFloats(5000, 51)), bytesOf(i),
                                 bytesOf(std::vector<float>(5000, -7.f)),
                                 bytesOf(std::vector<int32_t>(5000, -7)),
                                 bytesOf(std::vector<int32_t>(5000, -7))};
                    a = {ArgValue::pointer(0),  ArgValue::pointer(1), ArgValue::pointer(2),
                         ArgValue::pointer(3),  ArgValue::pointer(4), ArgValue::integer(50),
                         ArgValue::integer(100)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<float>(m.buffers[0]), y = valuesOf<float>(m.buffers[2]);
                    auto i = valuesOf<int32_t>(m.buffers[1]);
                    auto p = valuesOf<int32_t>(m.buffers[3]), r = valuesOf<int32_t>(m.buffers[4]);
                    for (size_t row = 0; row < 50; ++row) {
                      double sum = 0;
                      uint32_t prod = 1;
                      for (size_t c = 0; c < 100; ++c) {
                        sum += x[row * 100 + c];
                        ASSERT_NEAR(y[row * 100 + c], sum, 1e-5 * (1 + std::abs(sum)))
                            << row << "," << c;
                        size_t back = row * 100 + 99 - c;
                        prod *= uint32_t(i[back]);
                        ASSERT_EQ(p[back], int32_t(prod)) << row << "," << 99 - c;
                      }
                    }
                    for (size_t c = 0; c < 100; ++c)
                      for (size_t row = 0; row < 50; ++row) {
                        int32_t want = i[row * 100 + c];
                        for (size_t above = row / 32 * 32; above < row; ++above)
                          want = std::max(want, i[above * 100 + c]);
                        ASSERT_EQ(r[row * 100 + c], want) << row << "," << c;
                      }
                  }});
  // Row maxima with their first columns (tl.max with return_indices) and each tile's column
  // argmins (tl.argmin) of a 50 x 100 matrix of small integers (many ties: the first index
  // wins), in 32 x 128 tiles (masked): reductions of two tensors with a combining body.
  runs.push_back({"triton/argmax.ttgir",
                  "argmax",
                  {2, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::mt19937 g(53);
                    std::vector<float> x(5000);
                    for (float &v : x)
                      v = float(int(g() % 9) - 4);
                    m.buffers = {bytesOf(x), bytesOf(std::vector<float>(50, -7.f)),
                                 bytesOf(std::vector<int32_t>(50, -7)),
                                 bytesOf(std::vector<int32_t>(256, -7))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1),  ArgValue::pointer(2),
                         ArgValue::pointer(3), ArgValue::integer(50), ArgValue::integer(100)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<float>(m.buffers[0]), vmax = valuesOf<float>(m.buffers[1]);
                    auto imax = valuesOf<int32_t>(m.buffers[2]),
                         imin = valuesOf<int32_t>(m.buffers[3]);
                    for (size_t r = 0; r < 50; ++r) {
                      size_t best = firstArgMax(x, r * 100, 100);
                      ASSERT_EQ(vmax[r], x[r * 100 + best]) << r;
                      ASSERT_EQ(imax[r], int32_t(best)) << r;
                    }
                    for (size_t p = 0; p < 2; ++p)
                      for (size_t c = 0; c < 128; ++c) {
                        if (c >= 100) {
                          ASSERT_EQ(imin[p * 128 + c], -7) << p << "," << c;
                          continue;
                        }
                        size_t best = p * 32;
                        for (size_t r = p * 32; r < std::min<size_t>(50, p * 32 + 32); ++r)
                          if (x[r * 100 + c] < x[best * 100 + c])
                            best = r;
                        ASSERT_EQ(imin[p * 128 + c], int32_t(best - p * 32)) << p << "," << c;
                      }
                  }});
  // The linear recurrence h[j] = a[j] * h[j - 1] + x[j] along the rows of 50 x 100 matrices, and
  // from the rows' ends g[j] = a[j] * g[j + 1] + x[j], in 32 x 128 tiles (masked): scans of two
  // tensors whose combining body does not commute, forward and reversed.
  runs.push_back({"triton/recurrence.ttgir",
                  "recurrence",
                  {2, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::vector<float> coef = randomFloats(5000, 54);
                    for (float &v : coef)
                      v = 1.f + 0.5f * std::tanh(v); // in (0.5, 1.5)
                    m.buffers = {bytesOf(coef), bytesOf(randomFloats(5000, 55)),
                                 bytesOf(std::vector<float>(5000, -7.f)),
                                 bytesOf(std::vector<float>(5000, -7.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1),  ArgValue::pointer(2),
                         ArgValue::pointer(3), ArgValue::integer(50), ArgValue::integer(100)};
                  },
                  [](const Memory &m) {
                    auto coef = valuesOf<float>(m.buffers[0]), x = valuesOf<float>(m.buffers[1]);
                    auto h = valuesOf<float>(m.buffers[2]), g = valuesOf<float>(m.buffers[3]);
                    for (size_t r = 0; r < 50; ++r) {
                      double want = 0;
                      for (size_t c = 0; c < 100; ++c) {
                        want = coef[r * 100 + c] * want + x[r * 100 + c];
                        ASSERT_NEAR(h[r * 100 + c], want, 1e-4 * (1 + std::abs(want)))
                            << r << "," << c;
                      }
                      want = 0;
                      for (size_t c = 100; c-- > 0;) {
                        want = coef[r * 100 + c] * want + x[r * 100 + c];
                        ASSERT_NEAR(g[r * 100 + c], want, 1e-4 * (1 + std::abs(want)))
                            << r << "," << c;
                      }
                    }
                  }});
  // Stream compaction of 3000 floats, 3 programs of 1024: each copies its positive elements in
  // order to the front of its block of out (tl.cumsum of the kept flags gives their places) and
  // counts them; the rest of out is untouched.
  runs.push_back(
      {"triton/compact.ttgir",
       "compact",
       {3, 1, 1},
       [](Memory &m, std::vector<ArgValue> &a) {
         m.buffers = {bytesOf(randomFloats(3072, 52)), bytesOf(std::vector<float>(3072, -7.f)),
                      bytesOf(std::vector<int32_t>(3, -1))};
         a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2),
              ArgValue::integer(3000)};
       },
       [](const Memory &m) {
         auto x = valuesOf<float>(m.buffers[0]), out = valuesOf<float>(m.buffers[1]);
         auto count = valuesOf<int32_t>(m.buffers[2]);
         for (size_t p = 0; p < 3; ++p) {
           std::vector<float> want;
           for (size_t k = p * 1024; k < std::min<size_t>(3000, p * 1024 + 1024); ++k)
             if (x[k] > 0)
               want.push_back(x[k]);
           ASSERT_EQ(count[p], int32_t(want.size())) << p;
           for (size_t k = 0; k < 1024; ++k)
             ASSERT_EQ(out[p * 1024 + k], k < want.size() ? want[k] : -7.f) << p << "," << k;
         }
       }});
  // Row sums of a 100 x 300 bf16 matrix in f32, 32 rows per program, columns in blocks of 64
  // (the edges masked). Small halves: exact in bf16, and every sum exact.
  runs.push_back({"triton/row_sums.ttgir",
                  "row_sums",
                  {4, 1, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    std::vector<float> x = randomFloats(100 * 300, 44);
                    std::vector<uint16_t> bf(x.size());
                    for (size_t i = 0; i < x.size(); ++i)
                      bf[i] = toBf16Bits(x[i]);
                    m.buffers = {bytesOf(bf), bytesOf(std::vector<float>(128, -7.f))};
                    a = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(100),
                         ArgValue::integer(300)};
                  },
                  [](const Memory &m) {
                    auto x = valuesOf<uint16_t>(m.buffers[0]);
                    auto out = valuesOf<float>(m.buffers[1]);
                    for (size_t r = 0; r < 128; ++r) {
                      float s = 0;
                      for (size_t c = 0; r < 100 && c < 300; ++c)
                        s += std::bit_cast<float>(uint32_t(x[r * 300 + c]) << 16);
                      ASSERT_EQ(out[r], r < 100 ? s : -7.f) << r;
                    }
                  }});
  // Flash attention over 2 heads of 256 positions, head dim 64, scale 1/8: 128 queries per
  // program, keys in blocks of 64 (online softmax with exp2), O in f16.
  for (const char *file : {"triton/attention_mma_sync.ttgir", "triton/attention_wgmma.ttgir"})
    runs.push_back(
        {file,
         "attention",
         {2, 2, 1},
         [](Memory &m, std::vector<ArgValue> &a) {
           const size_t n = 2 * 256 * 64;
           m.buffers = {bytesOf(halfBitsOf(randomFloats(n, 45, 2))),
                        bytesOf(halfBitsOf(randomFloats(n, 46, 2))),
                        bytesOf(halfBitsOf(randomFloats(n, 47, 2))),
                        bytesOf(std::vector<uint16_t>(n, 0xffff))};
           a = {ArgValue::pointer(0), ArgValue::pointer(1),   ArgValue::pointer(2),
                ArgValue::pointer(3), ArgValue::integer(256), ArgValue::floating(0.125)};
         },
         [](const Memory &m) {
           auto q = valuesOf<uint16_t>(m.buffers[0]), k = valuesOf<uint16_t>(m.buffers[1]);
           auto v = valuesOf<uint16_t>(m.buffers[2]), o = valuesOf<uint16_t>(m.buffers[3]);
           for (size_t h = 0; h < 2; ++h)
             for (size_t i = 0; i < 256; i += 5) {
               const size_t base = h * 256 * 64;
               std::vector<double> s(256);
               double mx = -INFINITY, sum = 0;
               for (size_t j = 0; j < 256; ++j) {
                 double dot = 0;
                 for (size_t c = 0; c < 64; ++c)
                   dot += fromHalfBits(q[base + i * 64 + c]) * fromHalfBits(k[base + j * 64 + c]);
                 s[j] = dot * 0.125;
                 mx = std::max(mx, s[j]);
               }
               for (double &x : s)
                 sum += (x = std::exp(x - mx));
               for (size_t c = 0; c < 64; ++c) {
                 double want = 0;
                 for (size_t j = 0; j < 256; ++j)
                   want += s[j] * fromHalfBits(v[base + j * 64 + c]);
                 ASSERT_NEAR(fromHalfBits(o[base + i * 64 + c]), want / sum, 8e-3)
                     << h << "," << i << "," << c;
               }
             }
         }});
  return runs;
}

/// examples/tma_copy.tir: a 128 x 160 f16 tensor copied in 64x64 tiles by TMA both ways (the last
/// column of tiles reaches past the edge).
inline std::vector<ExampleRun> sm90ExampleRuns() {
  std::vector<ExampleRun> runs;
  runs.push_back({"tma_copy.tir",
                  "tma_copy",
                  {3, 2, 1},
                  [](Memory &m, std::vector<ArgValue> &a) {
                    m.buffers = {bytesOf(halfBitsOf(randomFloats(128 * 160, 48))),
                                 bytesOf(std::vector<uint16_t>(128 * 160, 0xffff))};
                    a = {ArgValue::tensorDesc(0, {128, 160}, {160, 1}),
                         ArgValue::tensorDesc(1, {128, 160}, {160, 1})};
                  },
                  [](const Memory &m) {
                    ASSERT_EQ(valuesOf<uint16_t>(m.buffers[1]), valuesOf<uint16_t>(m.buffers[0]));
                  }});
  // examples/fp8.tir on edge values (zeros, NaN, infinities, the largest finite values and past
  // them, ties, subnormals) and random ones of every magnitude: the narrowed bytes are the
  // brute-force model's (Fp8Reference.h), the widened values theirs.
  runs.push_back(
      {"fp8.tir",
       "fp8",
       {1, 1, 1},
       [](Memory &m, std::vector<ArgValue> &a) {
         std::vector<float> x = {0.f,       -0.f,       NAN,           INFINITY,     -INFINITY,
                                 448.f,     449.f,      464.f,         480.f,        1e6f,
                                 -1e6f,     57344.f,    61440.f,       65536.f,      0x1p-9f,
                                 0x1p-10f,  0x3p-11f,   1.0625f,       1.1875f,      -0.001f,
                                 0x1p-17f,  0x1p-16f,   1e-30f,        -240.f,       0x1.0p-6f,
                                 0x1.Fp-7f, 0x1.3p-15f, 0x1.fffffep0f, 3.f * 0x1p-9f};
         std::mt19937 g(64);
         std::uniform_real_distribution<float> u(-1.f, 1.f);
         while (x.size() < 1024) {
           float mant = 1.f + std::fabs(u(g));
           int e = int(g() % 48) - 24;
           float v = std::ldexp(mant, e) * (g() % 2 ? -1.f : 1.f);
           // Some exact ties between two e4m3 or e5m2 neighbours.
           if (g() % 8 == 0)
             v = std::ldexp(1.f + float(2 * (g() % 8) + 1) / 16.f, int(g() % 12) - 6);
           x.push_back(v);
         }
         m.buffers = {bytesOf(x),
                      std::vector<uint8_t>(1024, 0xab),
                      std::vector<uint8_t>(1024, 0xab),
                      std::vector<uint8_t>(1024, 0xab),
                      bytesOf(std::vector<float>(1024, -7.f)),
                      bytesOf(std::vector<uint16_t>(1024, 0xabcd)),
                      bytesOf(std::vector<uint16_t>(1024, 0xabcd))};
         a.clear();
         for (uint32_t i = 0; i < 7; ++i)
           a.push_back(ArgValue::pointer(i));
         a.push_back(ArgValue::integer(1000));
       },
       [](const Memory &m) {
         auto x = valuesOf<float>(m.buffers[0]);
         auto w4 = valuesOf<float>(m.buffers[4]);
         auto w5 = valuesOf<uint16_t>(m.buffers[5]), w4b = valuesOf<uint16_t>(m.buffers[6]);
         const ScalarKind e4 = ScalarKind::F8E4M3FN, e5 = ScalarKind::F8E5M2;
         auto same = [](double got, double want) {
           return std::isnan(want) ? std::isnan(got)
                                   : got == want && std::signbit(got) == std::signbit(want);
         };
         for (size_t i = 0; i < 1024; ++i) {
           const uint8_t q4 = m.buffers[1][i], q5 = m.buffers[2][i], q4b = m.buffers[3][i];
           if (i >= 1000) {
             ASSERT_EQ(q4, 0xab);
             ASSERT_EQ(w4[i], 1.5f) << i;
             ASSERT_EQ(w5[i], 0xabcd) << i;
             continue;
           }
           const double h = roundToFloatKind(x[i], ScalarKind::F16);
           const double bf = roundToFloatKind(x[i], ScalarKind::BF16);
           ASSERT_TRUE(same(fp8Decode(q4, e4), fp8Decode(fp8Encode(x[i], e4), e4)))
               << i << ": " << x[i] << " -> " << int(q4);
           ASSERT_TRUE(same(fp8Decode(q5, e5), fp8Decode(fp8Encode(h, e5), e5)))
               << i << ": " << x[i] << " -> " << int(q5);
           ASSERT_TRUE(same(fp8Decode(q4b, e4), fp8Decode(fp8Encode(bf, e4), e4)))
               << i << ": " << x[i] << " -> " << int(q4b);
           ASSERT_TRUE(same(w4[i], fp8Decode(q4, e4))) << i;
           const double w5v =
               (w5[i] & 0x7c00) == 0x7c00
                   ? ((w5[i] & 0x3ff) ? NAN : std::copysign(INFINITY, 0x8000 & w5[i] ? -1. : 1.))
                   : fromHalfBits(w5[i]);
           ASSERT_TRUE(same(w5v, fp8Decode(q5, e5))) << i;
           ASSERT_TRUE(same(std::bit_cast<float>(uint32_t(w4b[i]) << 16), fp8Decode(q4b, e4))) << i;
         }
       }});
  return runs;
}

/// Both lists.
inline std::vector<ExampleRun> sm90Runs() {
  std::vector<ExampleRun> runs = tritonDumpRuns();
  for (ExampleRun &r : sm90ExampleRuns())
    runs.push_back(std::move(r));
  return runs;
}

} // namespace linlayout::ir::testing
