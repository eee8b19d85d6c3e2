// Kernels that compute: the row reduction and softmax of examples/, and the tiled matmuls of
// examples/matmul.tir (ldmatrix + mma.sync) and examples/matmul_wgmma.tir (NVMMA shared tiles +
// wgmma, sm_90a), f16 and bf16 inputs, f32 accumulate, against an Eigen reference in double.
#include "GpuTestSupport.h"
#include "kernels/MatmulText.h"
#include "kernels/TileKernels.h"

#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Prefetch.h"
#include "linlayout/ir/SoftwarePipeline.h"
#include "linlayout/ir/Walk.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

using namespace linlayout;
using namespace linlayout::gpukernels;
using ir::ScalarKind;

namespace {

using MatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

std::vector<float> randomFloats(std::mt19937_64 &rng, size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(rng);
  return v;
}

int count(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
    ++n;
  return n;
}

} // namespace

TEST(ComputeGpu, RowSum) {
  REQUIRE_GPU();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ASSERT_OK_AND_ASSIGN(ir::Module m,
                       exampleKernel("row_reduce.tir", sourceDir(LINLAYOUT_SOURCE_DIR)));
  ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(m, gputest::asBuilt()));
  const int rows = 32 * 64, cols = 128, stride = 256;
  std::vector<float> x = randomFloats(rng, size_t(rows) * stride, -1, 1);
  ASSERT_OK_AND_ASSIGN(auto dx, runtime::DeviceBuffer::fromHost<float>(x));
  ASSERT_OK_AND_ASSIGN(auto dout, runtime::DeviceBuffer::allocate(size_t(rows + 32) * 4));
  ASSERT_OK(dout.fill(0xff)); // NaN
  ASSERT_OK(k->launch({unsigned(rows / 32)}, dx, dout, int32_t(stride)));
  ASSERT_OK(jitc->context().synchronize());
  ASSERT_OK_AND_ASSIGN(auto out, dout.toHost<float>());
  for (int r = 0; r < rows; ++r) {
    double ref = 0, mag = 0;
    for (int c = 0; c < cols; ++c) {
      ref += x[size_t(r) * stride + c];
      mag += std::abs(x[size_t(r) * stride + c]);
    }
    ASSERT_FALSE(std::isnan(out[r])) << "row " << r << " not written";
    ASSERT_NEAR(out[r], ref, 1e-5 * mag + 1e-6) << "row " << r;
  }
  for (int r = rows; r < rows + 32; ++r)
    ASSERT_TRUE(std::isnan(out[r])) << "written past the last row at " << r;
}

TEST(ComputeGpu, Softmax) {
  REQUIRE_GPU();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ASSERT_OK_AND_ASSIGN(ir::Module m, exampleKernel("softmax.tir", sourceDir(LINLAYOUT_SOURCE_DIR)));
  ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(m, gputest::asBuilt()));
  const int rows = 4096, stride = 128;
  for (int ncols : {128, 100, 1}) {
    SCOPED_TRACE("n_cols " + std::to_string(ncols));
    std::vector<float> x = randomFloats(rng, size_t(rows) * stride, -8, 8);
    ASSERT_OK_AND_ASSIGN(auto dx, runtime::DeviceBuffer::fromHost<float>(x));
    ASSERT_OK_AND_ASSIGN(auto dy, runtime::DeviceBuffer::allocate(x.size() * 4));
    ASSERT_OK(dy.fill(0xff));
    ASSERT_OK(k->launch({unsigned(rows)}, dx, dy, int32_t(stride), int32_t(ncols)));
    ASSERT_OK(jitc->context().synchronize());
    ASSERT_OK_AND_ASSIGN(auto y, dy.toHost<float>());
    double err = 0, norm = 0;
    for (int r = 0; r < rows; ++r) {
      const float *row = &x[size_t(r) * stride];
      double mx = -INFINITY, sum = 0;
      for (int c = 0; c < ncols; ++c)
        mx = std::max<double>(mx, row[c]);
      for (int c = 0; c < ncols; ++c)
        sum += std::exp(double(row[c]) - mx);
      for (int c = 0; c < stride; ++c) {
        float got = y[size_t(r) * stride + c];
        if (c >= ncols) {
          ASSERT_TRUE(std::isnan(got)) << "masked column written at (" << r << ", " << c << ")";
          continue;
        }
        ASSERT_FALSE(std::isnan(got)) << "(" << r << ", " << c << ") not written";
        double ref = std::exp(double(row[c]) - mx) / sum;
        err += (got - ref) * (got - ref);
        norm += ref * ref;
      }
    }
    EXPECT_LT(std::sqrt(err / norm), 1e-5);
  }
}

namespace {

// examples/<file> (128x128 tiles, K steps of kStep; matmul.tir or matmul_wgmma.tir; or
// matmul_wide.tir's 128x256 tiles, or matmul_wide_persistent.tir's or matmul_wide_flat.tir's,
// launched as 3 programs that walk the tiles),
// software-pipelined with `stages` stages when stages > 1 (cp.async rings), its dot operands
// prefetched in K slices of `prefetchK` when set (ir/Prefetch.h), plus the proxy fences wgmma
// needs. kStep is the K step the kernel runs: the example's own, or 64 for an mma.sync example
// (f16 only: testing/kernels/MatmulText.h's reshape).
template <typename Half>
void matmulCase(jit::Compiler &jitc, ScalarKind elem, double tolerance, int stages = 1,
                const std::string &file = "matmul.tir", const std::string &insn = "mma.sync",
                int kStep = 32, int prefetchK = 0) {
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + ", stages " + std::to_string(stages) + ", " + file +
               ", prefetch " + std::to_string(prefetchK));
  std::mt19937_64 rng(seed);
  const bool persistent = file == "matmul_wide_persistent.tir" || file == "matmul_wide_flat.tir";
  const bool nt = file == "matmul_wgmma_nt.tir"; // B given as N x K (row stride K)
  const int tileN =
      file == "matmul_wide.tir" || file == "matmul_wgmma_wide.tir" || persistent ? 256 : 128;
  ASSERT_OK_AND_ASSIGN(ir::Module m, matmulKernel(elem, sourceDir(LINLAYOUT_SOURCE_DIR), file));
  // The wgmma examples step K by 64 as written, the mma.sync ones by 32.
  const int writtenKStep = file.find("wgmma") != std::string::npos ? 64 : 32;
  if (kStep != writtenKStep) {
    ASSERT_TRUE(kStep == 64 && writtenKStep == 32 && elem == ScalarKind::F16)
        << "no reshape of " << file << " to K steps of " << kStep << " for " << ir::name(elem);
    ASSERT_OK_AND_ASSIGN(std::string text, exampleText(file, sourceDir(LINLAYOUT_SOURCE_DIR)));
    ASSERT_OK_AND_ASSIGN(m, ir::parseModule(linlayout::testing::reshapeMatmulText(
                                                text, linlayout::testing::MatmulReshape::KStep64),
                                            file));
  }
  ASSERT_OK(ir::pipelineLoops(m, stages));
  if (prefetchK) {
    ASSERT_OK(ir::prefetchDotOperands(m, prefetchK));
    int subslices = 0;
    ir::walkOps(m.functions[0].body,
                [&](const ir::Op &op) { subslices += op.kind == ir::OpKind::MemDescSubslice; });
    ASSERT_GT(subslices, 0) << "the prefetch pass left the loop alone";
  }
  ASSERT_OK(ir::insertFences(m));
  ASSERT_OK_AND_ASSIGN(auto k, jitc.compile(m, gputest::asBuilt()));
  const std::string &ptx = k->ptx();
  EXPECT_GT(count(ptx, insn), 0) << "the matmul must use " << insn;
  if (stages > 1) {
    EXPECT_GT(count(ptx, "cp.async.cg"), 0) << "the pipelined matmul must use cp.async";
  }
  std::cout << "[          ] " << file << " " << ir::name(elem) << " stages " << stages
            << (prefetchK ? " prefetch " + std::to_string(prefetchK) : std::string()) << ": "
            << count(ptx, insn) << " " << insn << ", " << count(ptx, "ldmatrix") << " ldmatrix, "
            << count(ptx, "cp.async.cg") << " cp.async in the PTX, " << k->metadata().registers
            << " registers, " << k->metadata().localBytes << " local bytes\n";
  // K = kStep and 2 kStep are shorter than the prologue of 3 or 4 stages; 3 kStep is no multiple
  // of it. N is a multiple of 256 for the wide tile.
  for (auto [M, N, K] :
       {std::array<int, 3>{256, 512, 512}, std::array<int, 3>{128, 256, kStep},
        std::array<int, 3>{128, 256, 2 * kStep}, std::array<int, 3>{256, 256, 3 * kStep}}) {
    SCOPED_TRACE("M N K " + std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    std::vector<float> af = randomFloats(rng, size_t(M) * K, -1, 1);
    std::vector<float> bf = randomFloats(rng, size_t(K) * N, -1, 1);
    std::vector<Half> a(af.size()), b(bf.size());
    MatrixD A(M, K), B(K, N);
    for (size_t i = 0; i < af.size(); ++i) {
      a[i] = Half(af[i]);
      A(i / K, i % K) = double(float(a[i]));
    }
    for (size_t i = 0; i < bf.size(); ++i) {
      b[i] = Half(bf[i]);
      if (nt)
        B(i % K, i / K) = double(float(b[i]));
      else
        B(i / N, i % N) = double(float(b[i]));
    }
    ASSERT_OK_AND_ASSIGN(auto da, runtime::DeviceBuffer::fromHost<Half>(a));
    ASSERT_OK_AND_ASSIGN(auto db, runtime::DeviceBuffer::fromHost<Half>(b));
    ASSERT_OK_AND_ASSIGN(auto dc, runtime::DeviceBuffer::allocate(size_t(M) * N * 4));
    ASSERT_OK(dc.fill(0xff));
    if (persistent)
      ASSERT_OK(k->launch({3u}, da, db, dc, int32_t(K), int32_t(K), int32_t(N), int32_t(N),
                          int32_t(M), int32_t(N)));
    else
      ASSERT_OK(k->launch({unsigned(M / 128), unsigned(N / tileN)}, da, db, dc, int32_t(K),
                          int32_t(K), int32_t(nt ? K : N), int32_t(N)));
    ASSERT_OK(jitc.context().synchronize());
    ASSERT_OK_AND_ASSIGN(auto c, dc.template toHost<float>());
    MatrixD ref = A * B;
    double err = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float got = c[size_t(i) * N + j];
        ASSERT_FALSE(std::isnan(got)) << "C(" << i << ", " << j << ") not written";
        err += (got - ref(i, j)) * (got - ref(i, j));
      }
    double rel = std::sqrt(err) / ref.norm();
    std::cout << "[          ] " << file << " " << ir::name(elem) << " " << M << "x" << N << "x"
              << K << ": |out - ref| / |ref| = " << rel << "\n";
    EXPECT_LT(rel, tolerance);
  }
}

} // namespace

TEST(ComputeGpu, MatmulF16) {
  REQUIRE_GPU();
  matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3);
}

TEST(ComputeGpu, MatmulBf16) {
  REQUIRE_GPU();
  matmulCase<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2);
}

TEST(ComputeGpu, MatmulF16Pipelined) {
  REQUIRE_GPU();
  for (int stages : {2, 3, 4})
    matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, stages);
}

TEST(ComputeGpu, MatmulBf16Pipelined) {
  REQUIRE_GPU();
  for (int stages : {3, 4})
    matmulCase<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, stages);
}

// f32 inputs: the dot runs on tf32 (mma.sync m16n8k8; the inputs keep 10 mantissa bits), as
// written and pipelined (the pipelined local_loads sliced into K slices of 8 by the lowering,
// or by the prefetch pass).
TEST(ComputeGpu, MatmulTf32) {
  REQUIRE_GPU();
  for (int stages : {1, 3})
    matmulCase<float>(*jitc, ScalarKind::F32, 5e-3, stages, "matmul.tir", "m16n8k8");
  matmulCase<float>(*jitc, ScalarKind::F32, 5e-3, 3, "matmul.tir", "m16n8k8", 32, 8);
}

// Hopper only: wgmma runs on sm_90a (H100 / H200).
TEST(ComputeGpu, WgmmaMatmulF16) {
  REQUIRE_GPU();
  if (jitc->context().computeCapability() != 90)
    GTEST_SKIP() << "wgmma needs an sm_90 GPU, this one is sm_"
                 << jitc->context().computeCapability();
  for (int stages : {1, 2, 3, 4})
    matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, stages, "matmul_wgmma.tir",
                            "wgmma.mma_async", 64);
}

TEST(ComputeGpu, WgmmaMatmulBf16) {
  REQUIRE_GPU();
  if (jitc->context().computeCapability() != 90)
    GTEST_SKIP() << "wgmma needs an sm_90 GPU, this one is sm_"
                 << jitc->context().computeCapability();
  for (int stages : {1, 3})
    matmulCase<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, stages, "matmul_wgmma.tir",
                                "wgmma.mma_async", 64);
}

// The NT matmul (B given as N x K, its tiles read through memdesc_trans), as written and
// pipelined through the transpose.
TEST(ComputeGpu, WgmmaMatmulNt) {
  REQUIRE_GPU();
  if (jitc->context().computeCapability() != 90)
    GTEST_SKIP() << "wgmma needs an sm_90 GPU, this one is sm_"
                 << jitc->context().computeCapability();
  for (int stages : {1, 3})
    matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, stages, "matmul_wgmma_nt.tir",
                            "wgmma.mma_async", 64);
  matmulCase<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, 3, "matmul_wgmma_nt.tir",
                              "wgmma.mma_async", 64);
}

// The 128x256 wgmma tile (two warp groups), as written and with 3 stages.
TEST(ComputeGpu, WgmmaWideMatmul) {
  REQUIRE_GPU();
  if (jitc->context().computeCapability() != 90)
    GTEST_SKIP() << "wgmma needs an sm_90 GPU, this one is sm_"
                 << jitc->context().computeCapability();
  for (int stages : {1, 3})
    matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, stages, "matmul_wgmma_wide.tir",
                            "wgmma.mma_async", 64);
  matmulCase<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, 3, "matmul_wgmma_wide.tir",
                              "wgmma.mma_async", 64);
}

// The pipelined matmuls with the prefetch pass: K slices of 16 loaded by ldmatrix from views of
// the ring slots while the previous slice's mma.sync run.
TEST(ComputeGpu, MatmulF16PipelinedPrefetch) {
  REQUIRE_GPU();
  for (int stages : {2, 3, 4})
    matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, stages, "matmul.tir", "mma.sync", 32, 16);
}

// K steps of 64: without the prefetch pass the lowering loads each operand in 4 K slices of the
// ring slot; with prefetch slices of 32, in 2 K slices of each of the pass's views (views of
// views).
TEST(ComputeGpu, MatmulK64SlicesOfViews) {
  REQUIRE_GPU();
  for (int prefetchK : {0, 32})
    matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, 3, "matmul.tir", "mma.sync", 64,
                            prefetchK);
}

TEST(ComputeGpu, MatmulBf16AndWidePipelinedPrefetch) {
  REQUIRE_GPU();
  for (int stages : {3, 4})
    matmulCase<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, stages, "matmul.tir", "mma.sync", 32,
                                16);
  matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, 3, "matmul_wide.tir", "mma.sync", 32, 16);
  matmulCase<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, 3, "matmul_wide.tir", "mma.sync", 32,
                              16);
}

// The persistent kernel: 3 programs walk the tiles (up to 4 tiles of 128x256 here, so some
// programs run two tiles through the same rings), pipelined and prefetched.
TEST(ComputeGpu, PersistentWideMatmul) {
  REQUIRE_GPU();
  for (int stages : {1, 3})
    matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, stages, "matmul_wide_persistent.tir",
                            "mma.sync", 32, stages > 1 ? 16 : 0);
  matmulCase<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, 3, "matmul_wide_persistent.tir",
                              "mma.sync", 32, 16);
}

// The flat persistent kernel (one loop over all of a program's K steps; each tile stored from a
// branch inside it): 3 programs, as written, and pipelined with 3 and 4 stages and prefetched, so
// that a program's next tile is being copied while it stores the last.
TEST(ComputeGpu, FlatPersistentWideMatmul) {
  REQUIRE_GPU();
  for (int stages : {1, 3, 4})
    matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, stages, "matmul_wide_flat.tir",
                            "mma.sync", 32, stages > 1 ? 16 : 0);
  matmulCase<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, 3, "matmul_wide_flat.tir", "mma.sync",
                              32, 16);
}

TEST(ComputeGpu, MatmulWidePipelined) {
  REQUIRE_GPU();
  matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, 1, "matmul_wide.tir");
  matmulCase<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, 3, "matmul_wide.tir");
  matmulCase<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, 3, "matmul_wide.tir");
}

// examples/attention.tir, attention_causal.tir, attention_d128.tir and (on sm_90)
// attention_wgmma.tir, attention_wgmma_d128.tir, attention_wgmma_d128_causal.tir and
// attention_wgmma_d128_bn128.tir as a user compiles them
// (the pass pipeline, software-pipelined with 1, 2 and 3 stages), and the warp-specialized
// attention_ws_*.tir (their ring is in the IR; K and V go in as tensor maps, Q and O too where the
// kernel copies them by TMA): O = softmax(Q K^T / 2) V for 3 heads of 128, 512 and 1024 positions
// (the causal kernel: query i sees keys j <= i; d128: head dim 128), f16 inputs in [-1, 1) (and
// attention.tir on bf16 inputs, P and O), against a double-precision reference on every row. The
// scale is 4x the usual 1/8 so that the softmax is far from flat and the running maximum matters.
namespace {

struct AttentionCase {
  std::string file;
  bool causal;
  int d;
  bool bf16 = false;
  bool hopper = false;
  bool ws = false;
  bool persistent = false; // takes the number of heads; runs on 3 programs
};

void attentionCases(jit::Compiler *jitc, const std::vector<AttentionCase> &cases) {
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int heads = 3;
  const double scale = 0.5;
  // LINLAYOUT_TEST_ATTENTION_MAX_CTX=N leaves out the longer sequences (compute-sanitizer's
  // racecheck runs the kernels hundreds of times slower).
  const char *maxEnv = std::getenv("LINLAYOUT_TEST_ATTENTION_MAX_CTX");
  const int maxCtx = maxEnv ? std::atoi(maxEnv) : 1 << 30;
  for (AttentionCase cs : cases)
    for (int stages : {1, 2, 3}) {
      if (cs.ws && stages > 1)
        break;
      if (cs.hopper && jitc->context().computeCapability() != 90) {
        std::cout << "[          ] " << cs.file << ": skipped, wgmma needs an sm_90 GPU\n";
        break;
      }
      const bool causal = cs.causal;
      const int d = cs.d;
      ASSERT_OK_AND_ASSIGN(ir::Module m, matmulKernel(cs.bf16 ? ScalarKind::BF16 : ScalarKind::F16,
                                                      sourceDir(LINLAYOUT_SOURCE_DIR), cs.file));
      jit::CompileOptions o;
      o.numStages = stages;
      ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(m, o));
      if (stages > 1 && !cs.ws) {
        EXPECT_GT(count(k->ptx(), "cp.async.cg"), 0) << "the pipelined kernel must use cp.async";
      }
      for (int n : {128, 512, 1024}) {
        if (n > maxCtx)
          continue;
        SCOPED_TRACE(std::string(cs.file) + (cs.bf16 ? " bf16" : "") + ", stages " +
                     std::to_string(stages) + ", n_ctx " + std::to_string(n));
        const size_t elems = size_t(heads) * n * d;
        // The inputs as floats the element type holds exactly, and their bits.
        auto bits = [&](float x) {
          return cs.bf16 ? Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(x))
                         : Eigen::numext::bit_cast<uint16_t>(Eigen::half(x));
        };
        auto value = [&](uint16_t b) {
          return cs.bf16 ? double(float(Eigen::numext::bit_cast<Eigen::bfloat16>(b)))
                         : double(float(Eigen::numext::bit_cast<Eigen::half>(b)));
        };
        std::vector<uint16_t> q(elems), kk(elems), v(elems);
        for (auto *t : {&q, &kk, &v})
          for (uint16_t &x : *t)
            x = bits(std::uniform_real_distribution<float>(-1, 1)(rng));
        ASSERT_OK_AND_ASSIGN(auto dq, runtime::DeviceBuffer::fromHost<uint16_t>(q));
        ASSERT_OK_AND_ASSIGN(auto dk, runtime::DeviceBuffer::fromHost<uint16_t>(kk));
        ASSERT_OK_AND_ASSIGN(auto dv, runtime::DeviceBuffer::fromHost<uint16_t>(v));
        ASSERT_OK_AND_ASSIGN(auto dout, runtime::DeviceBuffer::allocate(elems * 2));
        ASSERT_OK(dout.fill(0xff)); // NaN
        if (cs.ws) {
          // K and V are tensor maps over [heads * n, d]; Q and O pointers, or tensor maps where
          // the kernel copies them by TMA (its parameters say which).
          const std::vector<uint64_t> dims{uint64_t(heads) * uint64_t(n), uint64_t(d)};
          const auto &params = k->metadata().params;
          const runtime::DeviceBuffer *qkvo[] = {&dq, &dk, &dv, &dout};
          std::vector<jit::KernelArg> args;
          for (size_t i = 0; i < 4; ++i) {
            ASSERT_OK_AND_ASSIGN(jit::KernelArg arg, jit::tensorArgFor(params.at(i), *qkvo[i], dims,
                                                                       {uint64_t(d) * 2}));
            args.push_back(arg);
          }
          args.push_back(jit::KernelArg::of(int32_t(n)));
          args.push_back(jit::KernelArg::of(float(scale)));
          if (cs.persistent)
            args.push_back(jit::KernelArg::of(int32_t(heads)));
          const runtime::Dim3 grid =
              cs.persistent ? runtime::Dim3{3} : runtime::Dim3{unsigned(n / 128), unsigned(heads)};
          ASSERT_OK(k->launchArgs(grid, args, runtime::Stream::null()));
        } else {
          ASSERT_OK(k->launch({unsigned(n / 128), unsigned(heads)}, dq, dk, dv, dout, int32_t(n),
                              float(scale)));
        }
        ASSERT_OK(jitc->context().synchronize());
        ASSERT_OK_AND_ASSIGN(auto out, dout.toHost<uint16_t>());
        double worst = 0;
        for (int h = 0; h < heads; ++h) {
          const size_t base = size_t(h) * n * d;
          MatrixD Q(n, d), K(n, d), V(n, d);
          for (int i = 0; i < n; ++i)
            for (int c = 0; c < d; ++c) {
              Q(i, c) = value(q[base + size_t(i) * d + c]);
              K(i, c) = value(kk[base + size_t(i) * d + c]);
              V(i, c) = value(v[base + size_t(i) * d + c]);
            }
          MatrixD S = (Q * K.transpose()) * scale;
          if (causal)
            for (int i = 0; i < n; ++i)
              for (int j = i + 1; j < n; ++j)
                S(i, j) = -INFINITY;
          for (int i = 0; i < n; ++i) {
            S.row(i).array() -= S.row(i).maxCoeff();
            S.row(i) = S.row(i).array().exp().matrix();
            S.row(i) /= S.row(i).sum();
          }
          MatrixD O = S * V;
          for (int i = 0; i < n; ++i)
            for (int c = 0; c < d; ++c) {
              double got = value(out[base + size_t(i) * d + c]);
              ASSERT_FALSE(std::isnan(got))
                  << "O(" << h << ", " << i << ", " << c << ") not written";
              worst = std::max(worst, std::abs(got - O(i, c)));
            }
        }
        std::cout << "[          ] " << cs.file << (cs.bf16 ? " bf16" : "") << ", " << stages
                  << " stages, n_ctx " << n << ": max |O - ref| = " << worst << "\n";
        // P is rounded to f16 for the second dot and O on the store (2^-11 relative each, |O| < 1);
        // in bf16, 2^-8 each.
        EXPECT_LT(worst, cs.bf16 ? 1.5e-2 : 2e-3);
      }
    }
}
} // namespace

TEST(ComputeGpu, Attention) {
  REQUIRE_GPU();
  attentionCases(jitc, {{"attention.tir", false, 64},
                        {"attention_causal.tir", true, 64},
                        {"attention_d128.tir", false, 128},
                        {"attention.tir", false, 64, true},
                        {"attention_wgmma.tir", false, 64, false, true},
                        {"attention_wgmma_d128.tir", false, 128, false, true},
                        {"attention_wgmma_d128_causal.tir", true, 128, false, true},
                        {"attention_wgmma_d128_bn128.tir", false, 128, false, true}});
}

// examples/`file`, a warp-specialized kernel: head dim from the "_d<N>" of its name, causal
// where the name ends in "_causal", persistent (3 programs walk the tiles) where it says so.
AttentionCase wsAttentionCase(const std::string &file, bool bf16) {
  return {file,
          file.ends_with("_causal.tir"),
          attentionHeadDim(file),
          bf16,
          true,
          true,
          file.find("persistent") != std::string::npos};
}

// The warp-specialized kernels alone, so that racecheck and synccheck can take them by name:
// every examples/attention_ws*.tir (so that a new variant is tested as it lands).
TEST(ComputeGpu, WarpSpecializedAttention) {
  REQUIRE_GPU();
  std::vector<AttentionCase> cases;
  std::error_code ec;
  for (const auto &e :
       std::filesystem::directory_iterator(sourceDir(LINLAYOUT_SOURCE_DIR) + "/examples", ec)) {
    const std::string f = e.path().filename().string();
    if (f.rfind("attention_ws_", 0) != 0 || !f.ends_with(".tir"))
      continue;
    cases.push_back(wsAttentionCase(f, false));
  }
  std::sort(cases.begin(), cases.end(),
            [](const AttentionCase &x, const AttentionCase &y) { return x.file < y.file; });
  EXPECT_GE(cases.size(), 4u);
  attentionCases(jitc, cases);
}

// The fastest of them on bf16 inputs, P and O (kBf16AttentionKernels), as the benchmark's
// "bf16-ws-..." variants time them.
TEST(ComputeGpu, WarpSpecializedAttentionBf16) {
  REQUIRE_GPU();
  std::vector<AttentionCase> cases;
  for (const std::string &f : kBf16AttentionKernels)
    cases.push_back(wsAttentionCase(f, true));
  attentionCases(jitc, cases);
}
