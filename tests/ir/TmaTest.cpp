// The Hopper copy engine in the tile IR: !tt.tensordesc, ttng.async_tma_copy_global_to_local and
// the mbarrier ops. Text round trips, every verifier error, the interpreter's copies (out-of-bounds
// elements read as zero) and barrier checks, the TMA matmul example against the plain one, and
// where the fence pass puts fences around TMA copies.
#include "Examples.h"

#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

const char *kHeader =
    "#sa = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = "
    "16}>\n"
    "#sw = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n"
    "#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>\n"
    "#bl = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
    "order = [1, 0]}>\n"
    "#smem = #ttg.shared_memory\n"
    "module attributes {\"ttg.num-ctas\" = 1 : i32, \"ttg.num-warps\" = 4 : i32, ttg.target = "
    "\"cuda:90\", \"ttg.threads-per-warp\" = 32 : i32} {\n";

const std::string kBar = "!ttg.memdesc<1xi64, #bar, #smem, mutable>";
const std::string kDesc = "!tt.tensordesc<tensor<64x64xf16, #sa>>";
const std::string kTile = "!ttg.memdesc<64x64xf16, #sa, #smem, mutable>";

// A kernel that copies the 64x64 block at (%r0, %c0) of %desc into shared memory by TMA and
// stores it to %out (row-major 64x64). `copy` replaces the barrier protocol when given.
std::string tileKernel(const std::string &copy = "") {
  std::string protocol =
      copy.empty()
          ? "    ttng.init_barrier %bar, 1 : " + kBar + "\n" +
                "    ttng.barrier_expect %bar, 8192, %true : " + kBar + "\n" +
                "    ttng.async_tma_copy_global_to_local %desc[%r0, %c0] %buf, %bar, %true : " +
                kDesc + ", " + kBar + " -> " + kTile + "\n" +
                "    ttng.wait_barrier %bar, %zero : " + kBar + "\n" +
                "    ttng.inval_barrier %bar : " + kBar + "\n"
          : copy;
  return std::string(kHeader) + "  tt.func public @tile(%desc: " + kDesc +
         ", %out: !tt.ptr<f16>, %r0: i32, %c0: i32) {\n"
         "    %true = arith.constant true\n"
         "    %false = arith.constant false\n"
         "    %zero = arith.constant 0 : i32\n"
         "    %one = arith.constant 1 : i32\n"
         "    %buf = ttg.local_alloc : () -> " +
         kTile + "\n    %bar = ttg.local_alloc : () -> " + kBar + "\n" + protocol +
         "    %t = ttg.local_load %buf : " + kTile +
         " -> tensor<64x64xf16, #bl>\n"
         "    %r = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, "
         "#ttg.slice<{dim = 1, parent = #bl}>>\n"
         "    %r2 = tt.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #ttg.slice<{dim = 1, "
         "parent = #bl}>> -> tensor<64x1xi32, #bl>\n"
         "    %c64 = arith.constant dense<64> : tensor<64x1xi32, #bl>\n"
         "    %rs = arith.muli %r2, %c64 : tensor<64x1xi32, #bl>\n"
         "    %rb = tt.broadcast %rs : tensor<64x1xi32, #bl> -> tensor<64x64xi32, #bl>\n"
         "    %c = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, "
         "#ttg.slice<{dim = 0, parent = #bl}>>\n"
         "    %c2 = tt.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #ttg.slice<{dim = 0, "
         "parent = #bl}>> -> tensor<1x64xi32, #bl>\n"
         "    %cb = tt.broadcast %c2 : tensor<1x64xi32, #bl> -> tensor<64x64xi32, #bl>\n"
         "    %offs = arith.addi %rb, %cb : tensor<64x64xi32, #bl>\n"
         "    %ov = tt.splat %out : !tt.ptr<f16> -> tensor<64x64x!tt.ptr<f16>, #bl>\n"
         "    %ptrs = tt.addptr %ov, %offs : tensor<64x64x!tt.ptr<f16>, #bl>, tensor<64x64xi32, "
         "#bl>\n"
         "    tt.store %ptrs, %t : tensor<64x64x!tt.ptr<f16>, #bl>\n"
         "    tt.return\n  }\n}\n";
}

std::string verifyError(const std::string &text) {
  auto m = parseModule(text, "v.tir");
  if (!m.ok())
    return "<parse error> " + m.message();
  Status s = verify(*m);
  return s.ok() ? std::string("<verified>") : s.message();
}

// Runs tileKernel(copy) over a rows x cols f16 tensor of small values at (r0, c0).
struct TileRun {
  Status status;
  std::vector<float> src, out;
};
TileRun runTile(const std::string &copy, int64_t rows, int64_t cols, int64_t r0, int64_t c0) {
  TileRun t;
  auto m = parseModule(tileKernel(copy), "tile.tir");
  if (!m.ok()) {
    t.status = Status(m.error());
    return t;
  }
  t.src = randomFloats(size_t(rows * cols), 11);
  std::vector<uint16_t> h = halfBitsOf(t.src);
  Memory mem;
  mem.buffers = {bytesOf(h), bytesOf(std::vector<uint16_t>(64 * 64, 0x7e00))};
  std::vector<ArgValue> args = {ArgValue::tensorDesc(0, {rows, cols}, {cols, 1}),
                                ArgValue::pointer(1), ArgValue::integer(r0), ArgValue::integer(c0)};
  t.status = interpret(*m, "tile", args, mem);
  for (uint16_t x : valuesOf<uint16_t>(mem.buffers[1])) {
    // Back from f16 bits (the tests' values are small halves).
    int e = (x >> 10) & 0x1f, mant = x & 0x3ff;
    float v = e ? std::ldexp(float(mant | 0x400), e - 25) : std::ldexp(float(mant), -24);
    t.out.push_back((x & 0x8000) ? -v : v);
  }
  return t;
}

} // namespace

TEST(Tma, ExamplesRoundTripAndVerify) {
  for (const char *name : {"matmul_tma.tir", "matmul_tma_wide.tir", "matmul_tma_mma_wide.tir"}) {
    SCOPED_TRACE(name);
    Module m = loadExample(name);
    ASSERT_TRUE(verify(m).ok()) << verify(m).message();
    std::string text = print(m);
    EXPECT_NE(text.find("!tt.tensordesc<tensor<128x64xf16, #"), std::string::npos) << text;
    for (const char *op : {"ttng.init_barrier", "ttng.barrier_expect", "ttng.wait_barrier",
                           "ttng.async_tma_copy_global_to_local", "ttng.inval_barrier"})
      EXPECT_NE(text.find(op), std::string::npos) << op;
    auto again = parseModule(text, "printed");
    ASSERT_TRUE(again.ok()) << again.message() << "\n" << text;
    EXPECT_EQ(print(*again), text);
  }
  auto tile = parseModule(tileKernel(), "tile.tir");
  ASSERT_TRUE(tile.ok()) << tile.message();
  auto again = parseModule(print(*tile), "printed");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), print(*tile));
}

TEST(Tma, WaitWithPredicateRoundTrips) {
  std::string copy =
      "    ttng.init_barrier %bar, 1 : " + kBar + "\n" +
      "    ttng.barrier_expect %bar, 8192, %true : " + kBar + "\n" +
      "    ttng.async_tma_copy_global_to_local %desc[%r0, %c0] %buf, %bar, %true : " + kDesc +
      ", " + kBar + " -> " + kTile + "\n" + "    ttng.wait_barrier %bar, %zero, %true : " + kBar +
      "\n";
  auto m = parseModule(tileKernel(copy), "tile.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  std::string text = print(*m);
  EXPECT_NE(text.find("ttng.wait_barrier %bar, %zero, %true : !ttg.memdesc<1xi64"),
            std::string::npos)
      << text;
}

TEST(Tma, VerifierErrors) {
  auto with = [&](const std::string &from, const std::string &to) {
    std::string text = tileKernel();
    size_t p = text.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    text.replace(p, from.size(), to);
    return verifyError(text);
  };
  EXPECT_EQ(verifyError(tileKernel()), "<verified>");
  // Box vs destination.
  std::string wideTile = "!ttg.memdesc<64x128xf16, #sa, #smem, mutable>";
  std::string text = tileKernel();
  for (size_t p = text.find(kTile); p != std::string::npos; p = text.find(kTile, p + 1))
    text.replace(p, kTile.size(), wideTile);
  EXPECT_NE(verifyError(text).find("does not match the destination"), std::string::npos)
      << verifyError(text);
  // Destination layout differs from the descriptor's.
  text = tileKernel();
  std::string swTile = "!ttg.memdesc<64x64xf16, #sw, #smem, mutable>";
  for (size_t p = text.find(kTile); p != std::string::npos; p = text.find(kTile, p + 1))
    text.replace(p, kTile.size(), swTile);
  EXPECT_NE(verifyError(text).find("the destination's layout must be the descriptor's"),
            std::string::npos)
      << verifyError(text);
  // Element types.
  text = tileKernel();
  std::string bfTile = "!ttg.memdesc<64x64xbf16, #sa, #smem, mutable>";
  for (size_t p = text.find(kTile); p != std::string::npos; p = text.find(kTile, p + 1))
    text.replace(p, kTile.size(), bfTile);
  EXPECT_NE(verifyError(text).find("the descriptor holds f16, the destination bf16"),
            std::string::npos)
      << verifyError(text);
  // Coordinates: count and type.
  EXPECT_NE(with("%desc[%r0, %c0]", "%desc[%r0]").find("takes 2 coordinates, got 1"),
            std::string::npos);
  EXPECT_NE(with("%desc[%r0, %c0]", "%desc[%r0, %true]").find("coordinate must be i32"),
            std::string::npos);
  // Barrier types and counts.
  EXPECT_NE(with("%bar = ttg.local_alloc : () -> " + kBar,
                 "%bar = ttg.local_alloc : () -> !ttg.memdesc<2xi64, #bar, #smem, mutable>")
                .find("has type"),
            std::string::npos); // the ops' written types no longer match
  std::string i32Bar = "!ttg.memdesc<1xi32, #bar, #smem, mutable>";
  text = tileKernel();
  for (size_t p = text.find(kBar); p != std::string::npos; p = text.find(kBar, p + 1))
    text.replace(p, kBar.size(), i32Bar);
  EXPECT_NE(verifyError(text).find("the barrier must be a !ttg.memdesc<1xi64"), std::string::npos)
      << verifyError(text);
  EXPECT_NE(with("ttng.init_barrier %bar, 1", "ttng.init_barrier %bar, 0")
                .find("arrival count 0 is outside 1..2^20-1"),
            std::string::npos);
  EXPECT_NE(with("ttng.barrier_expect %bar, 8192,", "ttng.barrier_expect %bar, 2097152,")
                .find("outside 0..2^20-1"),
            std::string::npos);
  EXPECT_NE(with("ttng.barrier_expect %bar, 8192, %true", "ttng.barrier_expect %bar, 8192, %zero")
                .find("predicate must be i1"),
            std::string::npos);
  EXPECT_NE(with("ttng.wait_barrier %bar, %zero", "ttng.wait_barrier %bar, %true")
                .find("phase must be i32"),
            std::string::npos);
  // Descriptors: a distributed layout, a block beyond the TMA box limit.
  EXPECT_NE(verifyError(std::string(kHeader) +
                        "  tt.func @f(%d: !tt.tensordesc<tensor<64x64xf16, #bl>>) {\n"
                        "    tt.return\n  }\n}\n")
                .find("has a distributed layout"),
            std::string::npos);
  EXPECT_NE(verifyError(std::string(kHeader) +
                        "  tt.func @f(%d: !tt.tensordesc<tensor<512x64xf16, #sa>>) {\n"
                        "    tt.return\n  }\n}\n")
                .find("block dim 512 exceeds 256"),
            std::string::npos);
  EXPECT_NE(verifyError(std::string(kHeader) +
                        "  tt.func @f(%d: !tt.tensordesc<tensor<64x!tt.ptr<f16>, #sa>>) {\n"
                        "    tt.return\n  }\n}\n")
                .find("not pointers"),
            std::string::npos);
}

// The copy moves exactly the block; elements past the tensor's end (or before its start) are
// zero.
TEST(Tma, InterpreterCopiesTheBoxWithZeroOutside) {
  for (auto [rows, cols, r0, c0] :
       {std::array<int64_t, 4>{128, 128, 64, 0}, std::array<int64_t, 4>{100, 72, 64, 32},
        std::array<int64_t, 4>{64, 64, -8, -16}}) {
    SCOPED_TRACE(std::to_string(rows) + "x" + std::to_string(cols) + " at " + std::to_string(r0) +
                 "," + std::to_string(c0));
    TileRun t = runTile("", rows, cols, r0, c0);
    ASSERT_TRUE(t.status.ok()) << t.status.message();
    for (int64_t r = 0; r < 64; ++r)
      for (int64_t c = 0; c < 64; ++c) {
        int64_t gr = r0 + r, gc = c0 + c;
        bool inside = gr >= 0 && gr < rows && gc >= 0 && gc < cols;
        float want = inside ? t.src[size_t(gr * cols + gc)] : 0.0f;
        ASSERT_EQ(t.out[size_t(r * 64 + c)], want) << r << "," << c;
      }
  }
}

TEST(Tma, InterpreterChecksTheBarrierProtocol) {
  std::string copy =
      "    ttng.async_tma_copy_global_to_local %desc[%r0, %c0] %buf, %bar, %true : " + kDesc +
      ", " + kBar + " -> " + kTile + "\n";
  std::string init = "    ttng.init_barrier %bar, 1 : " + kBar + "\n";
  auto expect = [&](int bytes) {
    return "    ttng.barrier_expect %bar, " + std::to_string(bytes) + ", %true : " + kBar + "\n";
  };
  auto wait = [&](const char *phase) {
    return "    ttng.wait_barrier %bar, " + std::string(phase) + " : " + kBar + "\n";
  };
  auto error = [&](const std::string &protocol) {
    TileRun t = runTile(protocol, 64, 64, 0, 0);
    return t.status.ok() ? std::string("<ok>") : t.status.message();
  };
  EXPECT_EQ(error(init + expect(8192) + copy + wait("%zero")), "<ok>");
  // Waiting before anything was expected: the phase can never complete.
  EXPECT_NE(error(init + wait("%zero")).find("has not completed: 1 arrival(s) and 0 byte(s)"),
            std::string::npos)
      << error(init + wait("%zero"));
  // Expecting more bytes than the copy brings.
  EXPECT_NE(error(init + expect(16384) + copy + wait("%zero")).find("8192 byte(s) outstanding"),
            std::string::npos);
  // Fewer: the copy overshoots the completed count.
  EXPECT_NE(error(init + expect(4096) + copy + wait("%zero")).find("4096 byte(s) more"),
            std::string::npos);
  // The wrong parity: phase 1 has not completed after one phase.
  EXPECT_NE(error(init + expect(8192) + copy + wait("%one")).find("phase parity 1"),
            std::string::npos);
  // Uninitialised and doubly initialised barriers.
  EXPECT_NE(error(expect(8192) + copy + wait("%zero")).find("not initialised"), std::string::npos);
  EXPECT_NE(error(init + init).find("already initialised"), std::string::npos);
  EXPECT_NE(error(init + "    ttng.inval_barrier %bar : " + kBar + "\n" + wait("%zero"))
                .find("not initialised"),
            std::string::npos);
  // A predicated-off wait does not wait; a predicated-off copy does not copy.
  EXPECT_EQ(error(init + "    ttng.wait_barrier %bar, %zero, %false : " + kBar + "\n"), "<ok>");
  std::string offCopy = copy;
  offCopy.replace(offCopy.find("%bar, %true"), 11, "%bar, %false");
  EXPECT_NE(error(init + expect(8192) + offCopy + wait("%zero")).find("8192 byte(s) outstanding"),
            std::string::npos);
  // More arrivals than the count (the first expect's bytes keep the phase open).
  EXPECT_NE(
      error(init + expect(8192) + expect(0)).find("more arrivals than it was initialised for"),
      std::string::npos)
      << error(init + expect(8192) + expect(0));
  // expect(0) completes a phase at once: after two, phase 1 (parity 1) is the last completed
  // one and phase 2 (parity 0) is open, as the hardware's parity wait sees it.
  EXPECT_EQ(error(init + expect(0) + expect(0) + wait("%one")), "<ok>");
  EXPECT_NE(error(init + expect(0) + expect(0) + wait("%zero")).find("current phase (number 2)"),
            std::string::npos);
}

// The TMA examples compute what matmul.tir computes: the same products, summed exactly (small
// halves), for K shorter than the prologue, no multiple of the stage count, and, against a
// reference, K no multiple of the K step (the copies read zeros past K).
TEST(Tma, MatmulExamplesAgreeWithMatmul) {
  Module plain = loadExample("matmul.tir");
  for (auto [file, fn, tileN] :
       {std::tuple<const char *, const char *, int>{"matmul_tma.tir", "matmul_tma", 128},
        {"matmul_tma_wide.tir", "matmul_tma_wide", 256},
        {"matmul_tma_mma_wide.tir", "matmul_tma_mma_wide", 256}}) {
    Module tma = loadExample(file);
    for (int K : {64, 192, 320, 96, 40}) {
      SCOPED_TRACE(std::string(file) + " K " + std::to_string(K));
      const int M = 128, N = 256;
      auto af = randomFloats(size_t(M * K), 4), bf = randomFloats(size_t(K * N), 5);
      std::vector<uint16_t> ah = halfBitsOf(af), bh = halfBitsOf(bf);
      Memory mt;
      mt.buffers = {bytesOf(ah), bytesOf(bh), bytesOf(std::vector<float>(size_t(M * N)))};
      std::vector<ArgValue> targs = {ArgValue::tensorDesc(0, {M, K}, {K, 1}),
                                     ArgValue::tensorDesc(1, {K, N}, {N, 1}), ArgValue::pointer(2),
                                     ArgValue::integer(K), ArgValue::integer(N)};
      // Written for the GPU as they are: every copy waited for, and no generic write that a
      // wgmma reads unfenced.
      InterpreterOptions strict;
      strict.checkProxyFences = true;
      Status s = interpret(tma, fn, targs, mt, Grid{M / 128, N / tileN, 1}, strict);
      ASSERT_TRUE(s.ok()) << s.message();
      auto c = valuesOf<float>(mt.buffers[2]);
      if (K % 32 == 0) {
        Memory mp;
        mp.buffers = mt.buffers;
        mp.buffers[2] = bytesOf(std::vector<float>(size_t(M * N)));
        std::vector<ArgValue> pargs = {
            ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2), ArgValue::integer(K),
            ArgValue::integer(K), ArgValue::integer(N), ArgValue::integer(N)};
        Status ps = interpret(plain, "matmul", pargs, mp, Grid{M / 128, N / 128, 1});
        ASSERT_TRUE(ps.ok()) << ps.message();
        EXPECT_EQ(mp.buffers[2], mt.buffers[2]);
      }
      for (int i = 0; i < M; i += 7)
        for (int j = 0; j < N; j += 5) {
          double ref = 0;
          for (int k = 0; k < K; ++k)
            ref += double(af[size_t(i * K + k)]) * bf[size_t(k * N + j)];
          ASSERT_EQ(c[size_t(i * N + j)], float(ref)) << i << "," << j;
        }
    }
  }
}

// TMA copies write through the async proxy: the wgmma that reads them needs no fence, and the
// pipeline keeps the TMA matmul's results. A generic write into a TMA destination does need one.
TEST(Tma, FencesOnlyWhereGenericWritesMeetAsyncAccess) {
  Module m = loadExample("matmul_tma.tir");
  ASSERT_TRUE(insertFences(m).ok());
  EXPECT_EQ(print(m).find("ttng.fence_async_shared"), std::string::npos) << print(m);
  Module piped = loadExample("matmul_tma.tir");
  ASSERT_TRUE(runPipeline(piped).ok());
  EXPECT_EQ(print(piped).find("ttng.fence_async_shared"), std::string::npos);

  std::string copy =
      "    %v = arith.constant dense<1.0> : tensor<64x64xf16, #bl>\n"
      "    ttg.local_store %v, %buf : tensor<64x64xf16, #bl> -> " +
      kTile + "\n    ttng.init_barrier %bar, 1 : " + kBar + "\n" +
      "    ttng.barrier_expect %bar, 8192, %true : " + kBar + "\n" +
      "    ttng.async_tma_copy_global_to_local %desc[%r0, %c0] %buf, %bar, %true : " + kDesc +
      ", " + kBar + " -> " + kTile + "\n" + "    ttng.wait_barrier %bar, %zero : " + kBar + "\n";
  auto g = parseModule(tileKernel(copy), "tile.tir");
  ASSERT_TRUE(g.ok()) << g.message();
  ASSERT_TRUE(insertFences(*g).ok());
  std::string text = print(*g);
  size_t fence = text.find("ttng.fence_async_shared");
  ASSERT_NE(fence, std::string::npos) << text;
  EXPECT_LT(text.find("ttg.local_store"), fence);
  EXPECT_LT(fence, text.find("ttng.async_tma_copy_global_to_local"));
  EXPECT_EQ(text.find("ttng.fence_async_shared", fence + 1), std::string::npos);
  ASSERT_TRUE(insertFences(*g).ok());
  EXPECT_EQ(print(*g), text);
}
