// The Hopper copy engine on the GPU (sm_90 only): a TMA tile copy (one box and several boxes side
// by side, out-of-bounds elements zero) bit-exact, and the TMA + wgmma matmul examples
// (examples/matmul_tma.tir, matmul_tma_wide.tir) against a double-precision reference for K
// shorter than the prologue, no multiple of the stage count and no multiple of the K step, and
// the warp-specialized matmuls (examples/matmul_ws*.tir, and the fp8 ones,
// examples/matmul_fp8_ws*.tir) and the fp8 attention kernels as they are.
#include "../lower/RandomTmaCopy.h"
#include "GpuTestSupport.h"
#include "kernels/Fp8.h"
#include "kernels/TileKernels.h"

#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <initializer_list>
#include <sstream>

using namespace linlayout;
using namespace linlayout::gpukernels;
using ir::ScalarKind;

namespace {

int count(const std::string &text, const std::string &what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1))
    ++n;
  return n;
}

// Copies the 64 x cols block of %desc at (%r0, %c0) into shared memory by TMA and stores it to
// %out (row-major 64 x cols). With viewCols, the descriptor's block is 64 x viewCols and the copies
// go into the tile's views (ttg.memdesc_subslice) side by side.
std::string tileCopyKernel(int cols, const std::string &elem, int viewCols = 0) {
  std::string t = "64x" + std::to_string(cols) + "x" + elem;
  std::string tile = "!ttg.memdesc<" + t + ", #sa, #smem, mutable>";
  std::string vt = "64x" + std::to_string(viewCols) + "x" + elem;
  std::string view =
      "!ttg.memdesc<" + vt + ", #sa, #smem, mutable, 64x" + std::to_string(cols) + ">";
  std::string desc = "!tt.tensordesc<tensor<" + (viewCols ? vt : t) + ", #sa>>";
  std::string copies;
  if (!viewCols)
    copies = "    ttng.async_tma_copy_global_to_local %desc[%r0, %c0] %buf, %bar, %true : " + desc +
             ", !ttg.memdesc<1xi64, #bar, #smem, mutable> -> " + tile + "\n";
  for (int v = 0; viewCols && v < cols / viewCols; ++v) {
    std::string i = std::to_string(v), at = std::to_string(v * viewCols);
    copies += "    %dc" + i + " = arith.constant " + at + " : i32\n    %vc" + i +
              " = arith.addi %c0, %dc" + i + " : i32\n    %v" + i +
              " = ttg.memdesc_subslice %buf [0, " + at + "] : " + tile + " -> " + view +
              "\n    ttng.async_tma_copy_global_to_local %desc[%r0, %vc" + i + "] %v" + i +
              ", %bar, %true : " + desc + ", !ttg.memdesc<1xi64, #bar, #smem, mutable> -> " + view +
              "\n";
  }
  std::string bar = "!ttg.memdesc<1xi64, #bar, #smem, mutable>";
  std::string T = "tensor<" + t + ", #bl>";
  std::string I = "tensor<64x" + std::to_string(cols) + "xi32, #bl>";
  std::string P = "tensor<64x" + std::to_string(cols) + "x!tt.ptr<" + elem + ">, #bl>";
  std::string C = std::to_string(cols);
  return "#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, "
         "elementBitWidth = 16}>\n"
         "#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"
         "#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, "
         "1], order = [1, 0]}>\n"
         "#smem = #ttg.shared_memory\n"
         "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target "
         "= \"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n"
         "  tt.func public @tma_tile(%desc: " +
         desc + ", %out: !tt.ptr<" + elem +
         "> {tt.divisibility = 16 : i32}, %r0: i32, %c0: i32) {\n"
         "    %true = arith.constant true\n"
         "    %zero = arith.constant 0 : i32\n"
         "    %buf = ttg.local_alloc : () -> " +
         tile + "\n    %bar = ttg.local_alloc : () -> " + bar +
         "\n    ttng.init_barrier %bar, 1 : " + bar + "\n    ttng.barrier_expect %bar, " +
         std::to_string(64 * cols * 2) + ", %true : " + bar + "\n" + copies +
         "    ttng.wait_barrier %bar, %zero : " + bar + "\n    ttng.inval_barrier %bar : " + bar +
         "\n    %t = ttg.local_load %buf : " + tile + " -> " + T +
         "\n"
         "    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, "
         "#ttg.slice<{dim = 1, parent = #bl}>>\n"
         "    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, "
         "parent = #bl}>> -> tensor<64x1xi32, #bl>\n"
         "    %cn = arith.constant " +
         C +
         " : i32\n    %cnv = tt.splat %cn : i32 -> tensor<64x1xi32, #bl>\n"
         "    %rs = arith.muli %r2, %cnv : tensor<64x1xi32, #bl>\n"
         "    %rb = tt.broadcast %rs : tensor<64x1xi32, #bl> -> " +
         I + "\n    %c = tt.make_range {end = " + C + " : i32, start = 0 : i32} : tensor<" + C +
         "xi32, #ttg.slice<{dim = 0, parent = #bl}>>\n    %c2 = tt.expand_dims %c {axis = 0 : "
         "i32} : tensor<" +
         C + "xi32, #ttg.slice<{dim = 0, parent = #bl}>> -> tensor<1x" + C +
         "xi32, #bl>\n    %cb = tt.broadcast %c2 : tensor<1x" + C + "xi32, #bl> -> " + I +
         "\n    %offs = arith.addi %rb, %cb : " + I + "\n    %ov = tt.splat %out : !tt.ptr<" +
         elem + "> -> " + P + "\n    %ptrs = tt.addptr %ov, %offs : " + P + ", " + I +
         "\n    tt.store %ptrs, %t : " + P + "\n    tt.return\n  }\n}\n";
}

} // namespace

// REQUIRE_GPU, and a skip unless the GPU is sm_90 (TMA).
#define REQUIRE_HOPPER()                                                                           \
  REQUIRE_GPU();                                                                                   \
  if (jitc->context().computeCapability() != 90)                                                   \
  GTEST_SKIP() << "TMA needs an sm_90 GPU, this one is sm_" << jitc->context().computeCapability()

// Tensor-map arguments: their kind and bytes, and the encoder refuses a parameter that is no map
// (no GPU needed).
TEST(TmaArgs, TensorMapArgumentsAndEncoder) {
  runtime::TensorMap map;
  map.words[3] = 0x1234;
  jit::KernelArg a = jit::KernelArg::of(map);
  EXPECT_EQ(a.kind, lower::ParamKind::TensorMap);
  EXPECT_EQ(a.bits, 1024);
  EXPECT_EQ(a.map, map);
  EXPECT_EQ(jit::describe(lower::ParamKind::TensorMap, 1024), "a tensor map");
  lower::KernelParam p;
  p.name = "n";
  auto r = jit::encodeTensorMapFor(p, 0, {64, 64}, {128});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.message(), "parameter 'n' is a 32-bit integer, not a tensor map");
  p.kind = lower::ParamKind::TensorMap;
  p.bits = 1024;
  p.element = "i1";
  r = jit::encodeTensorMapFor(p, 0, {64, 64}, {128});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("which a tensor map cannot hold"), std::string::npos);
}

TEST(TmaGpu, TileCopyIsExact) {
  REQUIRE_HOPPER();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const uint64_t rows = 200, cols = 328; // neither a multiple of the box
  // The last: a 64x256 tile filled through four 64x64 views, one box each.
  for (auto [width, elem, view] : {std::tuple<int, const char *, int>{64, "f16", 0},
                                   {128, "f16", 0},
                                   {128, "bf16", 0},
                                   {256, "f16", 64}}) {
    SCOPED_TRACE(std::to_string(width) + " " + elem + (view ? " in views" : ""));
    auto m = ir::parseModule(tileCopyKernel(width, elem, view), "tma_tile");
    ASSERT_TRUE(m.ok()) << m.message();
    ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(*m, gputest::asBuilt()));
    EXPECT_EQ(count(k->ptx(), "cp.async.bulk.tensor"), width / 64);
    std::vector<uint8_t> src = gputest::randomBytes(rng, rows * cols * 2);
    ASSERT_OK_AND_ASSIGN(auto dsrc, runtime::DeviceBuffer::fromHost<uint8_t>(src));
    ASSERT_OK_AND_ASSIGN(auto map, jit::encodeTensorMapFor(k->metadata().params.at(0), dsrc.ptr(),
                                                           {rows, cols}, {cols * 2}));
    ASSERT_OK_AND_ASSIGN(auto dout, runtime::DeviceBuffer::allocate(size_t(64 * width * 2)));
    for (auto [r0, c0] : {std::pair<int, int>{0, 0}, {64, 128}, {160, 296}, {-8, -16}}) {
      SCOPED_TRACE("at " + std::to_string(r0) + ", " + std::to_string(c0));
      ASSERT_OK(dout.fill(0xff));
      ASSERT_OK(k->launch({1}, map, dout, int32_t(r0), int32_t(c0)));
      ASSERT_OK(jitc->context().synchronize());
      ASSERT_OK_AND_ASSIGN(auto out, dout.toHost<uint16_t>());
      for (int r = 0; r < 64; ++r)
        for (int c = 0; c < width; ++c) {
          int64_t gr = r0 + r, gc = c0 + c;
          uint16_t want = 0;
          if (gr >= 0 && gr < int64_t(rows) && gc >= 0 && gc < int64_t(cols))
            std::memcpy(&want, &src[size_t(gr * int64_t(cols) + gc) * 2], 2);
          ASSERT_EQ(out[size_t(r * width + c)], want) << "(" << r << ", " << c << ")";
        }
    }
  }
}

// Random tile copies (tests/lower/RandomTmaCopy.h: 1- to 8-byte elements, every swizzle, tiles
// of one or several boxes through one descriptor or one per view, blocks partly outside the
// tensor or larger than it) put in the output exactly the bytes the interpreter puts there.
TEST(TmaGpu, RandomTileCopiesMatchTheInterpreter) {
  REQUIRE_HOPPER();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 300; ++i) {
    lower::testing::RandomTmaCopy c = lower::testing::randomTmaCopy(rng);
    const std::string text = c.text();
    SCOPED_TRACE(c.describe() + "\n" + text);
    auto m = ir::parseModule(text, "tma.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    ir::Memory want = c.start(rng);
    const ir::Memory start = want;
    ASSERT_OK(ir::interpret(*m, "tma", c.args(), want));
    ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(*m, gputest::asBuilt()));
    ASSERT_OK_AND_ASSIGN(auto dsrc, runtime::DeviceBuffer::fromHost<uint8_t>(start.buffers[0]));
    ASSERT_OK_AND_ASSIGN(auto dout, runtime::DeviceBuffer::fromHost<uint8_t>(start.buffers[1]));
    ASSERT_OK_AND_ASSIGN(auto map,
                         jit::encodeTensorMapFor(k->metadata().params.at(0), dsrc.ptr(),
                                                 {uint64_t(c.tensorRows), uint64_t(c.tensorCols)},
                                                 {uint64_t(c.strideElems * c.elemBytes)}));
    ASSERT_OK(k->launch({1}, map, dout, int32_t(c.r0), int32_t(c.c0)));
    ASSERT_OK(jitc->context().synchronize());
    ASSERT_OK_AND_ASSIGN(auto out, dout.toHost<uint8_t>());
    for (int64_t e = 0; e < c.rows * c.cols; ++e)
      ASSERT_EQ(std::memcmp(&out[size_t(e * c.elemBytes)],
                            &want.buffers[1][size_t(e * c.elemBytes)], size_t(c.elemBytes)),
                0)
          << "element (" << e / c.cols << ", " << e % c.cols << "), tensor element ("
          << c.r0 + e / c.cols << ", " << c.c0 + e % c.cols << ")";
  }
}

// A cluster of two CTAs (examples/tma_multicast.tir): each CTA copies half of a block into both
// CTAs' shared memory (.multicast::cluster), both wait for the whole block and store it. The
// launch goes in clusters of 2 (cuLaunchKernelEx); a grid that is no multiple of it is refused.
TEST(TmaGpu, ClusterMulticastCopy) {
  REQUIRE_HOPPER();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::ifstream in(sourceDir(LINLAYOUT_SOURCE_DIR) + "/examples/tma_multicast.tir");
  std::stringstream text;
  text << in.rdbuf();
  auto m = ir::parseModule(text.str(), "tma_multicast.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(*m, gputest::asBuilt()));
  const std::string &ptx = k->ptx();
  EXPECT_EQ(k->metadata().clusterDims, (std::array<int, 3>{2, 1, 1}));
  EXPECT_NE(ptx.find(".reqnctapercluster 2, 1, 1"), std::string::npos);
  EXPECT_NE(ptx.find(".explicitcluster"), std::string::npos);
  EXPECT_EQ(count(ptx, ".multicast::cluster"), 2);
  EXPECT_EQ(count(ptx, "barrier.cluster.arrive"), 2);
  const uint64_t clusters = 4, rows = clusters * 64, cols = 128;
  std::vector<uint8_t> src = gputest::randomBytes(rng, rows * cols * 2);
  ASSERT_OK_AND_ASSIGN(auto dsrc, runtime::DeviceBuffer::fromHost<uint8_t>(src));
  ASSERT_OK_AND_ASSIGN(auto map, jit::encodeTensorMapFor(k->metadata().params.at(0), dsrc.ptr(),
                                                         {rows, cols}, {cols * 2}));
  ASSERT_OK_AND_ASSIGN(auto dout, runtime::DeviceBuffer::allocate(size_t(2 * rows * cols * 2)));
  ASSERT_OK(dout.fill(0xff));
  Status odd = k->launch({3}, map, dout);
  ASSERT_FALSE(odd.ok());
  EXPECT_NE(odd.message().find("not a multiple of its cluster"), std::string::npos)
      << odd.message();
  ASSERT_OK(k->launch({unsigned(2 * clusters)}, map, dout));
  ASSERT_OK(jitc->context().synchronize());
  ASSERT_OK_AND_ASSIGN(auto out, dout.toHost<uint8_t>());
  // Program p's 64 rows are cluster p / 2's block.
  for (uint64_t p = 0; p < 2 * clusters; ++p)
    ASSERT_EQ(std::memcmp(&out[p * 64 * cols * 2], &src[(p / 2) * 64 * cols * 2], 64 * cols * 2), 0)
        << "program " << p;
}

namespace {

// Checks that matmul kernel k copies by TMA, issues each of `instructions` and spills nothing;
// prints its registers, local and shared bytes (and how many clusters fit at once) after `label`.
void checkKernel(const jit::Kernel &k, const std::string &label,
                 std::initializer_list<const char *> instructions) {
  EXPECT_GT(count(k.ptx(), "cp.async.bulk.tensor"), 0);
  for (const char *instruction : instructions)
    EXPECT_GT(count(k.ptx(), instruction), 0) << instruction;
  const jit::KernelMetadata &meta = k.metadata();
  std::cout << "[          ] " << label << ": " << meta.registers << " registers, "
            << meta.localBytes << " local bytes, " << meta.dynamicSharedBytes << " shared bytes";
  if (meta.maxActiveClusters > 0)
    std::cout << ", " << meta.maxActiveClusters << " clusters of " << meta.clusterDims[0]
              << " at once";
  std::cout << "\n";
  EXPECT_EQ(meta.localBytes, 0);
}

// The tensor map of kernel parameter `param` over a row-major rows x cols matrix of
// elemBytes-byte elements in `buffer`.
Expected<runtime::TensorMap> rowMajorMap(const lower::KernelParam &param,
                                         const runtime::DeviceBuffer &buffer, int rows, int cols,
                                         size_t elemBytes) {
  return jit::encodeTensorMapFor(param, buffer.ptr(), {uint64_t(rows), uint64_t(cols)},
                                 {uint64_t(cols) * elemBytes});
}

// Launches matmul `k` on `grid` with A's and B's maps, C and then `rest`. C is `dc`, or for a
// kernel that writes it by TMA stores (matmul_*_tmastore.tir: parameter 2 is a tensor map) a
// tensor map over `dc` as M x N elements of outBytes.
template <typename... Rest>
Status launchMatmul(const jit::Kernel &k, runtime::Dim3 grid, const runtime::TensorMap &amap,
                    const runtime::TensorMap &bmap, const runtime::DeviceBuffer &dc, int M, int N,
                    size_t outBytes, const Rest &...rest) {
  const lower::KernelParam &c = k.metadata().params.at(2);
  if (c.kind != lower::ParamKind::TensorMap)
    return k.launch(grid, amap, bmap, dc, rest...);
  Expected<runtime::TensorMap> cmap = rowMajorMap(c, dc, M, N, outBytes);
  if (!cmap.ok())
    return cmap.error();
  return k.launch(grid, amap, bmap, *cmap, rest...);
}

// Element (i, j) of a row-major C of N columns of `kind` (f32, f16 or bf16).
double elementOf(const std::vector<uint8_t> &c, int N, int i, int j, ScalarKind kind) {
  auto read = [&]<typename T>(T x) {
    std::memcpy(&x, &c[(size_t(i) * N + j) * sizeof(T)], sizeof(T));
    return double(float(x));
  };
  return kind == ScalarKind::F32   ? read(0.0f)
         : kind == ScalarKind::F16 ? read(Eigen::half())
                                   : read(Eigen::bfloat16());
}

// Checks that every element of C (M x N of `kind`) was written and that its relative Frobenius
// error against ref(i, j) stays below `tolerance`; prints it and the largest absolute error after
// `label`.
template <typename Ref>
void checkProduct(const std::vector<uint8_t> &c, ScalarKind kind, int M, int N, const Ref &ref,
                  double tolerance, const std::string &label) {
  double err = 0, norm = 0, worst = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const double want = ref(i, j), got = elementOf(c, N, i, j, kind);
      ASSERT_FALSE(std::isnan(got)) << "C(" << i << ", " << j << ") not written";
      err += (got - want) * (got - want);
      norm += want * want;
      worst = std::max(worst, std::abs(got - want));
    }
  double rel = std::sqrt(err / norm);
  std::cout << "[          ] " << label << ": |out - ref| / |ref| = " << rel << ", max abs err "
            << worst << "\n";
  EXPECT_LT(rel, tolerance);
}

template <typename Half>
void tmaMatmul(jit::Compiler &jitc, ScalarKind elem, double tolerance, const std::string &file,
               const char *mmaInstruction = "wgmma.mma_async", bool runPasses = false) {
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + ", " + file);
  std::mt19937_64 rng(seed);
  ASSERT_OK_AND_ASSIGN(ir::Module m, matmulKernel(elem, sourceDir(LINLAYOUT_SOURCE_DIR), file));
  jit::CompileOptions options = gputest::asBuilt();
  options.runPasses = runPasses;
  ASSERT_OK_AND_ASSIGN(auto k, jitc.compile(m, options));
  const std::string label = file + " " + std::string(ir::name(elem));
  checkKernel(*k, label, {mmaInstruction});
  // The tile is the descriptors' blocks (A's rows, B's columns); C is f32, or of the inputs'
  // type (the "_halfout" examples).
  const ir::Function &fn = m.functions.at(0);
  const int tileM = int(fn.type(fn.body.args.at(0)).shape().at(0));
  const int tileN = int(fn.type(fn.body.args.at(1)).shape().at(1));
  const bool halfOut = fn.type(fn.body.args.at(2)).elem().scalar != ScalarKind::F32;
  const ScalarKind cKind = halfOut ? elem : ScalarKind::F32;
  const size_t outBytes = halfOut ? 2 : 4;
  // A persistent kernel (matmul_ws_persistent*.tir) also takes M and N, and walks the tiles.
  const bool persistent = fn.body.args.size() == 7;
  std::uniform_real_distribution<float> d(-1, 1);
  // K: one step, shorter than the prologue, no multiple of the stages, no multiple of 64.
  for (int K : {64, 128, 320, 1000, 2048}) {
    const int M = 256, N = 512;
    SCOPED_TRACE("M N K " + std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    std::vector<Half> a(size_t(M) * K), b(size_t(K) * N);
    for (Half &x : a)
      x = Half(d(rng));
    for (Half &x : b)
      x = Half(d(rng));
    ASSERT_OK_AND_ASSIGN(auto da, runtime::DeviceBuffer::fromHost<Half>(a));
    ASSERT_OK_AND_ASSIGN(auto db, runtime::DeviceBuffer::fromHost<Half>(b));
    ASSERT_OK_AND_ASSIGN(auto dc, runtime::DeviceBuffer::allocate(size_t(M) * N * outBytes));
    ASSERT_OK(dc.fill(0xff));
    const auto &params = k->metadata().params;
    ASSERT_OK_AND_ASSIGN(auto amap, rowMajorMap(params.at(0), da, M, K, 2));
    ASSERT_OK_AND_ASSIGN(auto bmap, rowMajorMap(params.at(1), db, K, N, 2));
    // A launch checks the kind of every argument.
    // A clustered kernel (matmul_ws_cluster*.tir) runs one cluster: its pair of CTAs walks the
    // two pair-tiles.
    const unsigned cluster = unsigned(k->metadata().clusterDims[0]);
    Status wrong = persistent ? k->launch({cluster}, int32_t(0), bmap, dc, int32_t(K), int32_t(N),
                                          int32_t(M), int32_t(N))
                              : k->launch({cluster}, int32_t(0), bmap, dc, int32_t(K), int32_t(N));
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.message().find("is a tensor map, got a 32-bit integer"), std::string::npos)
        << wrong.message();
    // C by TMA stores (matmul_ws_persistent_tmastore.tir) only in a persistent kernel.
    ASSERT_TRUE(persistent || params.at(2).kind != lower::ParamKind::TensorMap);
    if (persistent) { // 3 programs for 8 tiles: the ring's phases go on across tiles
      ASSERT_OK(launchMatmul(*k, {cluster > 1 ? cluster : 3}, amap, bmap, dc, M, N, outBytes,
                             int32_t(K), int32_t(N), int32_t(M), int32_t(N)));
    } else {
      ASSERT_OK(k->launch({unsigned(M / tileM), unsigned(N / tileN)}, amap, bmap, dc, int32_t(K),
                          int32_t(N)));
    }
    ASSERT_OK(jitc.context().synchronize());
    ASSERT_OK_AND_ASSIGN(auto c, dc.template toHost<uint8_t>());
    auto ref = [&](int i, int j) {
      double r = 0;
      for (int kk = 0; kk < K; ++kk)
        r += double(float(a[size_t(i) * K + kk])) * double(float(b[size_t(kk) * N + j]));
      return r;
    };
    ASSERT_NO_FATAL_FAILURE(checkProduct(c, cKind, M, N, ref, tolerance,
                                         label + " " + std::to_string(M) + "x" + std::to_string(N) +
                                             "x" + std::to_string(K)));
  }
}

} // namespace

TEST(TmaGpu, MatmulF16) {
  REQUIRE_HOPPER();
  tmaMatmul<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, "matmul_tma.tir");
  tmaMatmul<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, "matmul_tma_wide.tir");
}

TEST(TmaGpu, MatmulBf16) {
  REQUIRE_HOPPER();
  tmaMatmul<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, "matmul_tma.tir");
  tmaMatmul<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, "matmul_tma_wide.tir");
}

// The copy engine feeding mma.sync (examples/matmul_tma_mma_wide.tir: TMA into NVMMA tiles,
// ldmatrix from them in K slices of 16).
TEST(TmaGpu, MmaSyncMatmul) {
  REQUIRE_HOPPER();
  tmaMatmul<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, "matmul_tma_mma_wide.tir", "mma.sync");
  tmaMatmul<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, "matmul_tma_mma_wide.tir", "mma.sync");
}

// The warp-specialized matmuls (examples/matmul_ws*.tir: a 1-warp TMA producer partition, the
// default region's one or two warp groups running wgmma, full and empty mbarriers per stage,
// setmaxnreg budgets; C in f32, or in the inputs' type for "_halfout" and "_tmastore", which
// writes it by TMA stores): every
// examples/matmul_ws*.tir, so that a new variant is tested (and measured, bench/gpu) as it lands.
TEST(TmaGpu, WarpSpecializedMatmul) {
  REQUIRE_HOPPER();
  std::vector<std::string> files =
      exampleFilesStartingWith("matmul_ws", sourceDir(LINLAYOUT_SOURCE_DIR));
  EXPECT_GE(files.size(), 3u);
  for (const std::string &file : files) {
    tmaMatmul<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, file, "setmaxnreg.");
    tmaMatmul<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, file, "wgmma.mma_async");
  }
}

// The TMA matmuls marked for warp specialization (examples/matmul_tma_autows.tir, and
// matmul_tma_wide_autows.tir on two consumer warp groups) compiled with the pass pipeline, whose
// warp-specialize-loops pass makes each a producer partition and consumer warp groups
// (setmaxnreg in the PTX), against the float64 reference.
TEST(TmaGpu, AutoWarpSpecializedMatmul) {
  REQUIRE_HOPPER();
  for (const char *file : {"matmul_tma_autows.tir", "matmul_tma_wide_autows.tir"}) {
    tmaMatmul<Eigen::half>(*jitc, ScalarKind::F16, 1e-3, file, "setmaxnreg.", /*runPasses=*/true);
    tmaMatmul<Eigen::bfloat16>(*jitc, ScalarKind::BF16, 1e-2, file, "setmaxnreg.",
                               /*runPasses=*/true);
  }
}

namespace {

// One fp8 warp-specialized matmul (examples/matmul_fp8_ws*.tir, C = scale_a * scale_b * A B^T,
// A M x K and B N x K in e4m3) with C of `out` (f16 or bf16: the example's f16 C made `out` as
// the benchmark does; f32: the f32out example as written), by 3 programs over 8 tiles, against
// the float64 product of the same bytes. The inputs are exact in float64, so the error is the
// wgmma's accumulation (which keeps fewer bits than f32 does) and C's rounding: the relative
// Frobenius error must stay below `tolerance`.
void fp8Matmul(jit::Compiler &jitc, const std::string &file, ScalarKind out, double tolerance) {
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + ", " + file + ", C " + std::string(ir::name(out)));
  std::mt19937_64 rng(seed);
  ASSERT_OK_AND_ASSIGN(ir::Module m, matmulKernel(out == ScalarKind::F32 ? ScalarKind::F16 : out,
                                                  sourceDir(LINLAYOUT_SOURCE_DIR), file));
  const ir::Function &fn = m.functions.at(0);
  ASSERT_EQ(fn.type(fn.body.args.at(2)).elem().scalar, out);
  ASSERT_OK_AND_ASSIGN(auto k, jitc.compile(m, gputest::asBuilt()));
  const std::string label = file + " -> " + std::string(ir::name(out));
  checkKernel(*k, label, {"wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", "setmaxnreg."});
  const size_t outBytes = out == ScalarKind::F32 ? 4 : 2;
  const float scaleA = 0.75f, scaleB = 1.5f;
  std::array<double, 256> value;
  for (int v = 0; v < 256; ++v)
    value[size_t(v)] = linlayout::testing::decodeE4M3(uint8_t(v));
  // K: one step, a partial step (the rest reads as zero), no multiple of the stage count, long.
  for (int K : {128, 48, 400, 2048}) {
    const int M = 256, N = 512;
    SCOPED_TRACE("M N K " + std::to_string(M) + " " + std::to_string(N) + " " + std::to_string(K));
    std::vector<uint8_t> a = linlayout::testing::randomNormalE4M3(size_t(M) * K, rng),
                         b = linlayout::testing::randomNormalE4M3(size_t(N) * K, rng);
    ASSERT_OK_AND_ASSIGN(auto da, runtime::DeviceBuffer::fromHost<uint8_t>(a));
    ASSERT_OK_AND_ASSIGN(auto db, runtime::DeviceBuffer::fromHost<uint8_t>(b));
    ASSERT_OK_AND_ASSIGN(auto dc, runtime::DeviceBuffer::allocate(size_t(M) * N * outBytes));
    ASSERT_OK(dc.fill(0xff));
    const auto &params = k->metadata().params;
    ASSERT_OK_AND_ASSIGN(auto amap, rowMajorMap(params.at(0), da, M, K, 1));
    ASSERT_OK_AND_ASSIGN(auto bmap, rowMajorMap(params.at(1), db, N, K, 1));
    ASSERT_OK(launchMatmul(*k, {3}, amap, bmap, dc, M, N, outBytes, int32_t(K), int32_t(N),
                           int32_t(M), int32_t(N), scaleA, scaleB));
    ASSERT_OK(jitc.context().synchronize());
    ASSERT_OK_AND_ASSIGN(auto c, dc.template toHost<uint8_t>());
    auto ref = [&](int i, int j) {
      double r = 0;
      for (int kk = 0; kk < K; ++kk)
        r += value[a[size_t(i) * K + kk]] * value[b[size_t(j) * K + kk]];
      return r * (double(scaleA) * double(scaleB));
    };
    ASSERT_NO_FATAL_FAILURE(checkProduct(c, out, M, N, ref, tolerance,
                                         label + " " + std::to_string(M) + "x" + std::to_string(N) +
                                             "x" + std::to_string(K)));
  }
}

} // namespace

// The fp8 warp-specialized matmuls (examples/matmul_fp8_ws*.tir: e4m3 A and B^T through TMA,
// m64n256k32 wgmma, the scales applied in the epilogue) with C in f16, bf16 and f32. Tolerances
// (relative Frobenius error against float64): f16 C 2e-3 (its rounding alone is ~3e-4), bf16 C
// 1e-2 (~2e-3), f32 C 2e-3 (the accumulation's share in all three).
TEST(TmaGpu, Fp8WarpSpecializedMatmul) {
  REQUIRE_HOPPER();
  std::vector<std::string> files =
      exampleFilesStartingWith("matmul_fp8_ws", sourceDir(LINLAYOUT_SOURCE_DIR));
  EXPECT_GE(files.size(), 2u);
  for (const std::string &file : files) {
    if (file.find("f32out") != std::string::npos) {
      fp8Matmul(*jitc, file, ScalarKind::F32, 2e-3);
      continue;
    }
    fp8Matmul(*jitc, file, ScalarKind::F16, 2e-3);
    fp8Matmul(*jitc, file, ScalarKind::BF16, 1e-2);
  }
}

// The fp8 attention kernels (examples/attention_fp8_ws_pp_persistent_d128*.tir: e4m3 Q, K and V^T
// by TMA, both products on 8-bit wgmma, P made the A operand's through a scratch of each consumer
// warp group, O in bf16) on 3 programs (3 heads of 384: the tiles' edges, the ring's phases across
// tiles) and on one program per SM (8 heads of 1024), against float64 within the bound of their
// roundings (testing::fp8AttentionRow), every row or every 5th; an O left unwritten reads NaN.
TEST(TmaGpu, Fp8Attention) {
  REQUIRE_HOPPER();
  const size_t d = 128;
  const float smScale = 0.08838834764831845f, descaleQ = 2, descaleK = 1, descaleV = 0.5f;
  for (const std::string file : {"attention_fp8_ws_pp_persistent_d128.tir",
                                 "attention_fp8_ws_pp_persistent_d128_causal.tir"}) {
    const bool causal = file.ends_with("_causal.tir");
    ASSERT_OK_AND_ASSIGN(ir::Module m,
                         matmulKernel(ScalarKind::F16, sourceDir(LINLAYOUT_SOURCE_DIR), file));
    ASSERT_OK_AND_ASSIGN(auto k, jitc->compile(m, gputest::asBuilt()));
    checkKernel(*k, file, {"wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3", "setmaxnreg."});
    const unsigned sms = unsigned(jitc->context().multiprocessorCount());
    for (auto [n, heads, programs, rowStep] :
         {std::tuple<size_t, size_t, unsigned, size_t>{384, 3, 3, 1}, {1024, 8, sms, 5}}) {
      const uint64_t seed = gputest::freshSeed();
      SCOPED_TRACE(file + ", " + std::to_string(heads) + " heads of " + std::to_string(n) +
                   ", seed " + std::to_string(seed));
      std::mt19937_64 rng(seed);
      const size_t elems = heads * n * d;
      const auto q = linlayout::testing::randomNormalE4M3(elems, rng),
                 kk = linlayout::testing::randomNormalE4M3(elems, rng),
                 vt = linlayout::testing::randomNormalE4M3(elems, rng);
      ASSERT_OK_AND_ASSIGN(auto dq, runtime::DeviceBuffer::fromHost<uint8_t>(q));
      ASSERT_OK_AND_ASSIGN(auto dk, runtime::DeviceBuffer::fromHost<uint8_t>(kk));
      ASSERT_OK_AND_ASSIGN(auto dv, runtime::DeviceBuffer::fromHost<uint8_t>(vt));
      ASSERT_OK_AND_ASSIGN(auto dout, runtime::DeviceBuffer::allocate(elems * 2));
      ASSERT_OK(dout.fill(0xff));
      const auto &params = k->metadata().params;
      ASSERT_OK_AND_ASSIGN(auto qmap, rowMajorMap(params.at(0), dq, int(heads * n), int(d), 1));
      ASSERT_OK_AND_ASSIGN(auto kmap, rowMajorMap(params.at(1), dk, int(heads * n), int(d), 1));
      ASSERT_OK_AND_ASSIGN(auto vmap, rowMajorMap(params.at(2), dv, int(heads * d), int(n), 1));
      ASSERT_OK(k->launch({programs}, qmap, kmap, vmap, dout, int32_t(n), smScale, int32_t(heads),
                          descaleQ, descaleK, descaleV));
      ASSERT_OK(jitc->context().synchronize());
      ASSERT_OK_AND_ASSIGN(auto out, dout.toHost<uint8_t>());
      double worst = 0; // error over bound
      for (size_t h = 0; h < heads; ++h)
        for (size_t i = 0; i < n; i += rowStep) {
          const auto want = linlayout::testing::fp8AttentionRow(
              q, kk, vt, n, d, h, i, causal, double(smScale) * descaleQ * descaleK, descaleV);
          for (size_t c = 0; c < d; ++c) {
            const double got = elementOf(out, int(d), int(h * n + i), int(c), ScalarKind::BF16);
            ASSERT_LE(std::abs(got - want.o[c]), want.bound[c])
                << "O(" << h << ", " << i << ", " << c << ") = " << got << ", want " << want.o[c];
            worst = std::max(worst, std::abs(got - want.o[c]) / want.bound[c]);
          }
        }
      std::cout << "[          ] " << file << ", " << heads << " heads of " << n
                << ": largest |O - ref| / bound " << worst << "\n";
    }
  }
}
