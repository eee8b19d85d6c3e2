// Layout conversions on the GPU, as the planner plans them and lower/ emits them: every reference
// pair (the six of the Triton benchmark, both directions, 8/16/32-bit elements) and hundreds of
// random planner pairs round-trip bit-exactly. Each kernel stores the converted tile from the
// destination layout (checking src -> dst alone) and the tile converted back after adding 1
// (checking dst -> src).
#include "GpuTestSupport.h"
#include "kernels/TileKernels.h"

#include <array>
#include <map>

using namespace linlayout;
using namespace linlayout::gpukernels;
using ir::ScalarKind;

namespace {

constexpr uint8_t kPoison = 0x5a;

// Runs convert_check over `tiles` random tiles and compares bit-exactly. Returns a description of
// the first mismatch, or "" when everything matched.
std::string runConvertCheck(jit::Compiler &jitc, std::mt19937_64 &rng, ScalarKind elem,
                            int64_t rows, int64_t cols, const LayoutSpec &src,
                            const LayoutSpec &dst, int warps, int tiles, std::string *path) {
  auto m = convertCheck(elem, rows, cols, src, dst, warps);
  if (!m.ok())
    return "building the kernel: " + m.message();
  auto k = jitc.compile(*m, gputest::asBuilt());
  if (!k.ok())
    return "compiling: " + k.message();
  if (path)
    for (const auto &c : (*k)->metadata().conversions)
      *path += (path->empty() ? "" : "+") + c.path;
  int bytes = ir::byteWidth(elem);
  size_t n = size_t(rows * cols * tiles), size = n * size_t(bytes);
  std::vector<uint8_t> in = gputest::randomBytes(rng, size);
  auto dIn = runtime::DeviceBuffer::fromHost<uint8_t>(in);
  auto dDst = runtime::DeviceBuffer::allocate(size);
  auto dSrc = runtime::DeviceBuffer::allocate(size);
  if (!dIn.ok() || !dDst.ok() || !dSrc.ok())
    return "allocating";
  for (auto *b : {&*dDst, &*dSrc})
    if (Status s = b->fill(kPoison); !s.ok())
      return s.message();
  if (Status s = (*k)->launch({unsigned(tiles)}, *dIn, *dDst, *dSrc); !s.ok())
    return "launching: " + s.message();
  if (Status s = jitc.context().synchronize(); !s.ok())
    return "running: " + s.message();
  auto outDst = dDst->toHost<uint8_t>();
  auto outSrc = dSrc->toHost<uint8_t>();
  if (!outDst.ok() || !outSrc.ok())
    return "copying back";
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = 0, y = 0, z = 0;
    std::memcpy(&x, &in[i * bytes], bytes);
    std::memcpy(&y, &(*outDst)[i * bytes], bytes);
    std::memcpy(&z, &(*outSrc)[i * bytes], bytes);
    uint64_t mask = bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1;
    if (y != x)
      return "src->dst: element " + std::to_string(i) + " is " + std::to_string(y) + ", expected " +
             std::to_string(x);
    if (z != ((x + 1) & mask))
      return "dst->src: element " + std::to_string(i) + " is " + std::to_string(z) + ", expected " +
             std::to_string((x + 1) & mask);
  }
  return "";
}

} // namespace

TEST(ConvertGpu, EveryReferencePairRoundTripsBitExactly) {
  REQUIRE_GPU();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  int checked = 0;
  for (const NamedPair &p : referencePairs())
    for (int dir = 0; dir < 2; ++dir)
      for (ScalarKind elem : {ScalarKind::I8, ScalarKind::I16, ScalarKind::I32}) {
        const LayoutSpec &s = dir ? p.dst : p.src, &d = dir ? p.src : p.dst;
        std::string path;
        std::string problem = runConvertCheck(*jitc, rng, elem, 128, 128, s, d, 4, 8, &path);
        EXPECT_EQ(problem, "") << p.name << (dir ? " (reversed)" : "") << " " << ir::name(elem)
                               << " [" << path << "]";
        ++checked;
      }
  EXPECT_EQ(checked, 36);
}

TEST(ConvertGpu, RandomPlannerPairsRoundTripBitExactly) {
  REQUIRE_GPU();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  // 300 pairs; every plan is emitted (the CPU test JitKernels.RandomPlannerPairsLower lowers and
  // assembles them without a GPU), so any error or a wrong element fails the test.
  const int kPairs = 300;
  std::map<std::string, int> paths;
  int failures = 0, checked = 0;
  for (; checked < kPairs && failures < 5;) {
    RandomPair rp = randomPair(rng);
    int rowBits = rp.rowBits, colBits = rp.colBits, warpBits = rp.warpBits;
    const LayoutSpec &src = rp.src, &dst = rp.dst;
    ScalarKind elem = std::array{ScalarKind::I8, ScalarKind::I16, ScalarKind::I32}[checked % 3];
    std::string path;
    std::string problem = runConvertCheck(*jitc, rng, elem, int64_t(1) << rowBits,
                                          int64_t(1) << colBits, src, dst, 1 << warpBits, 4, &path);
    ++paths[path];
    if (!problem.empty()) {
      ++failures;
      ADD_FAILURE() << "pair " << checked << " (" << (1 << rowBits) << "x" << (1 << colBits) << ", "
                    << (1 << warpBits) << " warps, " << ir::name(elem) << ", " << path
                    << "): " << problem;
    }
    ++checked;
  }
  std::string summary;
  for (auto &[p, c] : paths)
    summary += " " + p + ":" + std::to_string(c);
  std::cout << "[          ] random pairs: " << checked << " run, " << failures << " wrong"
            << "\n[          ] random pairs by path (all conversions of a kernel):" << summary
            << "\n";
  EXPECT_EQ(checked, kPairs);
  EXPECT_EQ(failures, 0);
}

namespace {

// Bits of the half-precision number k (an integer, 0 <= k < 2048: exact).
uint16_t halfOfInt(uint32_t k) {
  if (k == 0)
    return 0;
  int e = 31 - __builtin_clz(k);
  uint32_t mant = (k << (10 - e)) & 0x3ff;
  return uint16_t(((e + 15) << 10) | mant);
}

} // namespace

// The benchmark's conversion kernels (convert_loop: load, `iters` x (src -> dst, +1, dst -> src),
// store) compute tile + iters exactly, for every reference pair in f16, f32 and i16, also in the
// form that stores the dst tile too: the loops carry 16-bit tiles as packed words and the shuffle
// pair packs and splits words with single movs, which only the GPU checks.
TEST(ConvertGpu, BenchmarkLoopKernelsAreExact) {
  REQUIRE_GPU();
  uint64_t seed = gputest::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const int tiles = 8;
  const size_t n = size_t(128 * 128 * tiles);
  for (const NamedPair &p : referencePairs())
    for (ScalarKind elem : {ScalarKind::F16, ScalarKind::F32, ScalarKind::I16})
      for (bool storeDst : {false, true}) {
        SCOPED_TRACE(p.name + " " + std::string(ir::name(elem)) + (storeDst ? " storeDst" : ""));
        auto m = convertLoop(elem, 128, 128, p.src, p.dst, 4, storeDst);
        ASSERT_TRUE(m.ok()) << m.message();
        auto k = jitc->compile(*m, gputest::asBuilt());
        ASSERT_TRUE(k.ok()) << k.message();
        int bytes = ir::byteWidth(elem);
        // Small integers (exact in f16 and f32 after a few additions).
        std::vector<uint32_t> ints(n);
        for (uint32_t &v : ints)
          v = uint32_t(rng() % 1024);
        auto encode = [&](uint32_t v) -> uint32_t {
          if (elem == ScalarKind::F16)
            return halfOfInt(v);
          if (elem == ScalarKind::F32) {
            float f = float(v);
            uint32_t u;
            std::memcpy(&u, &f, 4);
            return u;
          }
          return v;
        };
        std::vector<uint8_t> in(n * size_t(bytes));
        for (size_t i = 0; i < n; ++i) {
          uint32_t u = encode(ints[i]);
          std::memcpy(&in[i * bytes], &u, bytes);
        }
        auto dIn = runtime::DeviceBuffer::fromHost<uint8_t>(in);
        auto dOut = runtime::DeviceBuffer::allocate(in.size());
        ASSERT_TRUE(dIn.ok() && dOut.ok());
        for (int iters : {0, 1, 5}) {
          ASSERT_TRUE(dOut->fill(kPoison).ok());
          ASSERT_TRUE((*k)->launch({unsigned(tiles)}, *dIn, *dOut, int32_t(iters)).ok());
          ASSERT_TRUE(jitc->context().synchronize().ok());
          auto out = dOut->toHost<uint8_t>();
          ASSERT_TRUE(out.ok());
          for (size_t i = 0; i < n; ++i) {
            uint32_t got = 0, want = encode(ints[i] + uint32_t(iters));
            std::memcpy(&got, &(*out)[i * bytes], bytes);
            ASSERT_EQ(got, want) << "element " << i << " after " << iters << " iterations";
          }
        }
      }
}
