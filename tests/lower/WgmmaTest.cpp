// wgmma (sm_90a): the accumulator and register-A fragments against the mma v3 layouts, the
// shared-memory descriptors against a brute-force address check, and whole kernels through
// ptxas -arch=sm_90a.
#include "Wgmma.h"
#include "CoreMatrixLayout.h"
#include "Examples.h"
#include "PtxCheck.h"
#include "SharedView.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/DotOperand.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/layout/NvidiaMma.h"
#include "linlayout/layout/NvmmaShared.h"
#include "linlayout/layout/SwizzledShared.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <sstream>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

LinearLayout mmaV3(std::vector<int64_t> warps, int64_t n, std::vector<int64_t> shape) {
  auto spec = NvidiaMmaSpec::make(3, 0, warps, {16, n, 16});
  EXPECT_TRUE(spec.ok()) << spec.message();
  auto l = spec->toLinearLayout(shape);
  EXPECT_TRUE(l.ok()) << l.message();
  return *l;
}

Expected<LinearLayout> nvmma(int swizzle, bool transposed, std::vector<int64_t> shape) {
  LL_ASSIGN_OR_RETURN(NvmmaSharedSpec s, NvmmaSharedSpec::make(swizzle, 16, 2, transposed));
  return s.toLinearLayout(shape);
}

} // namespace

// The accumulator registers lower/ hands to wgmma are in exactly the order of layout/'s mma v3
// layout: register i of a 64xN tile is the instruction's d register i, for every N.
TEST(Wgmma, AccumulatorRegisterOrderIsTheMmaV3Layout) {
  for (int64_t n = 8; n <= 256; n *= 2) {
    SCOPED_TRACE("N = " + std::to_string(n));
    auto map = mapWgmmaAccumulator(mmaV3({4, 1}, n, {64, n}), n);
    ASSERT_TRUE(map.ok()) << map.message();
    ASSERT_EQ(map->regs.size(), size_t(n / 2));
    for (size_t r = 0; r < map->regs.size(); ++r) {
      EXPECT_EQ(map->regs[r].slot, int(r));
      EXPECT_EQ(map->regs[r].row0, 0);
      EXPECT_EQ(map->regs[r].col0, 0);
    }
    // Two tiles down: registers repeat the fragment for rows 64..127.
    auto tall = mapWgmmaAccumulator(mmaV3({4, 1}, n, {128, n}), n);
    ASSERT_TRUE(tall.ok()) << tall.message();
    ASSERT_EQ(tall->regs.size(), size_t(n));
    for (size_t r = 0; r < tall->regs.size(); ++r) {
      EXPECT_EQ(tall->regs[r].slot, int(r % size_t(n / 2)));
      EXPECT_EQ(tall->regs[r].row0, r < size_t(n / 2) ? 0 : 64);
    }
  }
}

TEST(Wgmma, WarpGroupsMoveWholeTiles) {
  auto rows = mapWgmmaAccumulator(mmaV3({8, 1}, 64, {128, 64}), 64);
  ASSERT_TRUE(rows.ok()) << rows.message();
  ASSERT_EQ(rows->warpGroupSteps.size(), 1u);
  EXPECT_EQ(rows->warpGroupSteps[0], std::make_pair(int64_t(64), int64_t(0)));
  auto cols = mapWgmmaAccumulator(mmaV3({4, 2}, 64, {64, 128}), 64);
  ASSERT_TRUE(cols.ok()) << cols.message();
  ASSERT_EQ(cols->warpGroupSteps.size(), 1u);
  EXPECT_EQ(cols->warpGroupSteps[0], std::make_pair(int64_t(0), int64_t(64)));
}

// (With warps [4, 1] an mma v2 layout over 64x64 is the v3 one; with [2, 2] it is not.)
TEST(Wgmma, AnMmaV2AccumulatorIsNotAWgmmaFragment) {
  auto spec = NvidiaMmaSpec::make(2, 0, {2, 2}, {16, 8});
  ASSERT_TRUE(spec.ok());
  auto l = spec->toLinearLayout(std::vector<int64_t>{64, 64});
  ASSERT_TRUE(l.ok());
  auto map = mapWgmmaAccumulator(*l, 64);
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.message().find("fragment puts"), std::string::npos) << map.message();
}

TEST(Wgmma, RegisterAIsTheDotOperandLayout) {
  auto parent = NvidiaMmaSpec::make(3, 0, {4, 1}, {16, 64, 16});
  ASSERT_TRUE(parent.ok());
  for (int64_t m : {64, 128})
    for (int64_t k : {16, 32, 64}) {
      auto dot = DotOperandSpec::make(0, LayoutSpec(*parent), 2);
      ASSERT_TRUE(dot.ok()) << dot.message();
      auto l = dot->toLinearLayout(std::vector<int64_t>{m, k});
      ASSERT_TRUE(l.ok()) << l.message();
      auto map = mapWgmmaOperandA(*l);
      ASSERT_TRUE(map.ok()) << m << "x" << k << ": " << map.message();
      EXPECT_EQ(map->regs.size(), size_t(m * k / 128));
    }
}

// Ensures of deriveWgmmaOperand: every NVMMA layout wgmma takes gives descriptors under which
// every element of every instruction tile is read from the byte the layout stores it at.
TEST(Wgmma, DescriptorsFromEveryNvmmaLayoutReadEveryElement) {
  int checked = 0;
  for (int swizzle : {32, 64, 128})
    for (bool transposed : {false, true})
      for (int64_t rows : {16, 32, 64, 128, 256})
        for (int64_t cols : {16, 32, 64, 128, 256}) {
          auto l = nvmma(swizzle, transposed, {rows, cols});
          if (!l.ok())
            continue; // smaller than one swizzle atom
          auto t = SharedOffsets::of(*l);
          ASSERT_TRUE(t.ok()) << t.message();
          // As A [M, K]: K-major unless transposed.
          if (rows % 64 == 0) {
            auto a = deriveWgmmaOperand(*t, 1, 2, 64);
            ASSERT_TRUE(a.ok()) << "A " << swizzle << " " << transposed << " " << rows << "x"
                                << cols << ": " << a.message();
            EXPECT_EQ(a->swizzleBytes, swizzle);
            EXPECT_EQ(a->mnMajor, transposed);
            ++checked;
          }
          // As B [K, N]: N-major unless transposed, tiles of N = min(cols, 256).
          auto b = deriveWgmmaOperand(*t, 0, 2, std::min<int64_t>(cols, 256));
          ASSERT_TRUE(b.ok()) << "B " << swizzle << " " << transposed << " " << rows << "x" << cols
                              << ": " << b.message();
          EXPECT_EQ(b->mnMajor, !transposed);
          ++checked;
        }
  EXPECT_GE(checked, 60);
}

// Views (ttg.memdesc_subslice): every view of an NVMMA tile that splits into instruction tiles,
// along K and along MN, is read element by element where the view has it, with the whole tile's
// descriptor fields, also when it is narrower than the swizzled row (K views of K-major tiles).
TEST(Wgmma, ViewsOfNvmmaTilesReadEveryElement) {
  int checked = 0;
  for (int swizzle : {32, 64, 128})
    for (bool transposed : {false, true})
      for (int64_t rows : {64, 128})
        for (int64_t cols : {32, 64, 128}) {
          auto l = nvmma(swizzle, transposed, {rows, cols});
          if (!l.ok())
            continue;
          auto tile = SharedOffsets::of(*l);
          ASSERT_TRUE(tile.ok()) << tile.message();
          // As A [M, K] (views of M >= 64 rows, K >= 16 columns), and as B [K, N] (views of
          // K >= 16 rows, all N).
          for (int kDim : {1, 0})
            for (int64_t vr = kDim == 1 ? 64 : 16; vr <= rows; vr *= 2)
              for (int64_t vc = kDim == 1 ? 16 : cols; vc <= cols; vc *= 2)
                for (int64_t r0 = 0; r0 < rows; r0 += vr)
                  for (int64_t c0 = 0; c0 < cols; c0 += vc) {
                    auto origin = viewOrigin(*l, std::vector<int64_t>{r0, c0});
                    ASSERT_TRUE(origin.ok()) << origin.message();
                    SharedOffsets view = tile->view(*origin, vr, vc);
                    int64_t tileMn = kDim == 1 ? 64 : std::min<int64_t>(vc, 256);
                    auto d = deriveWgmmaOperand(*tile, kDim, 2, tileMn, &view);
                    ASSERT_TRUE(d.ok())
                        << swizzle << " " << transposed << " " << rows << "x" << cols << " view "
                        << vr << "x" << vc << " at " << r0 << ", " << c0 << ": " << d.message();
                    EXPECT_EQ(d->swizzleBytes, swizzle);
                    ++checked;
                  }
        }
  EXPECT_GE(checked, 500);
  // Without the tile, a K view of a K-major 128-byte-swizzled tile looks like a 64-byte one.
  auto l = nvmma(128, false, {64, 64});
  auto tile = SharedOffsets::of(*l);
  SharedOffsets half = tile->view(*viewOrigin(*l, std::vector<int64_t>{0, 32}), 64, 32);
  EXPECT_FALSE(deriveWgmmaOperand(half, 1, 2, 64).ok());
}

TEST(Wgmma, DescriptorFieldsOfTheCommonTiles) {
  // A 128x64 f16, 128-byte swizzle, K-major: 8-row groups 1024 bytes apart.
  auto a = deriveWgmmaOperand(*SharedOffsets::of(*nvmma(128, false, {128, 64})), 1, 2, 64);
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_FALSE(a->mnMajor);
  EXPECT_EQ(a->strideByteOffset, 1024);
  EXPECT_EQ(a->descriptorHighBits() >> 62, 1u);
  // B 64x128 f16 N-major: 8 K rows 1024 bytes apart, the second 64 columns one 8 KiB box later.
  auto b = deriveWgmmaOperand(*SharedOffsets::of(*nvmma(128, false, {64, 128})), 0, 2, 128);
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_TRUE(b->mnMajor);
  EXPECT_EQ(b->strideByteOffset, 1024);
  EXPECT_EQ(b->leadingByteOffset, 64 * 128);
  // 64 and 32-byte swizzles: modes 2 and 3, 8-row groups 512 and 256 bytes apart.
  auto b64 = deriveWgmmaOperand(*SharedOffsets::of(*nvmma(64, false, {64, 32})), 1, 2, 64);
  ASSERT_TRUE(b64.ok()) << b64.message();
  EXPECT_EQ(b64->descriptorHighBits() >> 62, 2u);
  EXPECT_EQ(b64->strideByteOffset, 512);
  auto b32 = deriveWgmmaOperand(*SharedOffsets::of(*nvmma(32, false, {64, 16})), 1, 2, 64);
  ASSERT_TRUE(b32.ok()) << b32.message();
  EXPECT_EQ(b32->descriptorHighBits() >> 62, 3u);
  EXPECT_EQ(b32->strideByteOffset, 256);
}

// The address check is not vacuous: a row-major unswizzled tile, and descriptors off by one
// field, are caught.
TEST(Wgmma, TheAddressCheckRejectsWhatWgmmaCannotRead) {
  auto plain = SwizzledSharedSpec::make(1, 1, 1, {1, 0});
  ASSERT_TRUE(plain.ok()) << plain.message();
  auto l = plain->toLinearLayout(std::vector<int64_t>{64, 64});
  ASSERT_TRUE(l.ok()) << l.message();
  auto d = deriveWgmmaOperand(*SharedOffsets::of(*l), 1, 2, 64);
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.message().find("wgmma cannot read this shared layout"), std::string::npos)
      << d.message();

  auto t = *SharedOffsets::of(*nvmma(128, false, {64, 128}));
  auto good = *deriveWgmmaOperand(t, 0, 2, 128);
  auto misreads = [&](WgmmaSmemOperand w) {
    for (int64_t mn = 0; mn < 128; ++mn)
      for (int64_t k = 0; k < 16; ++k)
        if (wgmmaElementAddress(w, 0, uint64_t(mn), uint64_t(k)) != uint64_t(t.at(k, mn) * 2))
          return true;
    return false;
  };
  EXPECT_FALSE(misreads(good));
  WgmmaSmemOperand w = good;
  w.strideByteOffset += 16;
  EXPECT_TRUE(misreads(w));
  w = good;
  w.leadingByteOffset += 1024;
  EXPECT_TRUE(misreads(w));
  w = good;
  w.swizzleBytes = 64;
  EXPECT_TRUE(misreads(w));
  w = good;
  w.mnMajor = false;
  EXPECT_TRUE(misreads(w));
}

// tf32 (4-byte) operands: K steps of 8, K-major only; the register-A fragment of m64k8.
TEST(Wgmma, Tf32OperandsAreKMajorWithKStepsOf8) {
  auto nvmma32 = [](int swizzle, bool transposed, std::vector<int64_t> shape) {
    auto spec = NvmmaSharedSpec::make(swizzle, 32, 2, transposed);
    EXPECT_TRUE(spec.ok()) << spec.message();
    auto l = spec->toLinearLayout(shape);
    EXPECT_TRUE(l.ok()) << l.message();
    return *SharedOffsets::of(*l);
  };
  EXPECT_EQ(wgmmaK(2), 16);
  EXPECT_EQ(wgmmaK(4), 8);
  // A [64, 32] f32, 128-byte swizzle (32 elements a row): 8-row groups 1024 bytes apart.
  auto a = deriveWgmmaOperand(nvmma32(128, false, {64, 32}), 1, 4, 64);
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_FALSE(a->mnMajor);
  EXPECT_EQ(a->elemBytes, 4);
  EXPECT_EQ(a->strideByteOffset, 1024);
  // B [16, 64] K-major (transposed): 8 K elements in a 32-byte swizzle row.
  auto b = deriveWgmmaOperand(nvmma32(32, true, {16, 64}), 0, 4, 64);
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_FALSE(b->mnMajor);
  EXPECT_EQ(b->descriptorHighBits() >> 62, 3u);
  // N-major B is refused.
  auto nMajor = deriveWgmmaOperand(nvmma32(128, false, {16, 64}), 0, 4, 64);
  ASSERT_FALSE(nMajor.ok());
  EXPECT_NE(nMajor.message().find("K-major only"), std::string::npos) << nMajor.message();
  // Register A: dot_op (kWidth 1) of an mma v3 parent; 4 registers per 64x8 block.
  auto parent = NvidiaMmaSpec::make(3, 0, {4, 1}, {16, 64, 8});
  ASSERT_TRUE(parent.ok());
  for (int64_t k : {8, 16, 32}) {
    auto dot = DotOperandSpec::make(0, LayoutSpec(*parent), 1);
    ASSERT_TRUE(dot.ok()) << dot.message();
    auto l = dot->toLinearLayout(std::vector<int64_t>{64, k});
    ASSERT_TRUE(l.ok()) << l.message();
    auto map = mapWgmmaOperandA(*l, 4);
    ASSERT_TRUE(map.ok()) << k << ": " << map.message();
    EXPECT_EQ(map->regs.size(), size_t(k / 2));
    for (const auto &r : map->regs)
      EXPECT_EQ(r.half, 0);
    // The 16-bit fragment does not fit it.
    EXPECT_FALSE(mapWgmmaOperandA(*l, 2).ok());
  }
}

// Unswizzled operands: core matrices of 8 rows of 16 bytes, 128 contiguous bytes each, read
// with the descriptor's no-swizzle mode (0): K-major, SBO steps 8 rows of M / N and LBO the next
// 8 elements of K; MN-major, SBO steps the next 8 elements of M / N and LBO 8 rows of K.
TEST(Wgmma, UnswizzledTilesAreReadAsCoreMatrices) {
  auto table = [](const std::string &attr, std::vector<int64_t> shape) {
    auto spec = parseLayoutAttr(attr);
    EXPECT_TRUE(spec.ok()) << spec.message();
    auto l = toLinearLayout(*spec, shape);
    EXPECT_TRUE(l.ok()) << l.message();
    auto t = SharedOffsets::of(*l);
    EXPECT_TRUE(t.ok()) << t.message();
    return *t;
  };
  auto steps = [](std::vector<CoreMatrixBit> a, const std::vector<CoreMatrixBit> &b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  // The NVMMA tile of 16-byte rows: B [64, 8] N-major, unswizzled; one core matrix column.
  auto b8 = deriveWgmmaOperand(*SharedOffsets::of(*nvmma(0, false, {64, 8})), 0, 2, 8);
  ASSERT_TRUE(b8.ok()) << b8.message();
  EXPECT_EQ(b8->swizzleBytes, 16);
  EXPECT_TRUE(b8->mnMajor);
  EXPECT_EQ(b8->leadingByteOffset, 128);
  EXPECT_EQ(b8->strideByteOffset, 0);
  EXPECT_EQ(b8->descriptorHighBits() >> 62, 0u);

  // A [64, 32] K-major, the M core matrices first, then K's: SBO 128, LBO 8 * 128.
  auto mFirst = table(
      coreMatrixLayout(1, false, 8, steps(coreMatrixSteps(0, 8, 64), coreMatrixSteps(1, 8, 32))),
      {64, 32});
  auto a = deriveWgmmaOperand(mFirst, 1, 2, 64);
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_FALSE(a->mnMajor);
  EXPECT_EQ(a->swizzleBytes, 16);
  EXPECT_EQ(a->strideByteOffset, 128);
  EXPECT_EQ(a->leadingByteOffset, 1024);
  // K's first: LBO 128, SBO 4 * 128.
  auto kFirst = table(
      coreMatrixLayout(1, false, 8, steps(coreMatrixSteps(1, 8, 32), coreMatrixSteps(0, 8, 64))),
      {64, 32});
  a = deriveWgmmaOperand(kFirst, 1, 2, 64);
  ASSERT_TRUE(a.ok()) << a.message();
  EXPECT_EQ(a->leadingByteOffset, 128);
  EXPECT_EQ(a->strideByteOffset, 512);

  // B [32, 64] N-major, K's core matrices first: LBO 128, SBO 4 * 128.
  auto nMajor = table(
      coreMatrixLayout(0, true, 8, steps(coreMatrixSteps(0, 8, 32), coreMatrixSteps(1, 8, 64))),
      {32, 64});
  auto b = deriveWgmmaOperand(nMajor, 0, 2, 64);
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_TRUE(b->mnMajor);
  EXPECT_EQ(b->leadingByteOffset, 128);
  EXPECT_EQ(b->strideByteOffset, 512);

  // The address check: each field off, or the N core matrices of one instruction split by K's,
  // misreads.
  auto misreads = [&](const WgmmaSmemOperand &w) {
    for (int64_t mn = 0; mn < 64; ++mn)
      for (int64_t k = 0; k < 16; ++k)
        if (wgmmaElementAddress(w, 0, uint64_t(mn), uint64_t(k)) != uint64_t(nMajor.at(k, mn) * 2))
          return true;
    return false;
  };
  EXPECT_FALSE(misreads(*b));
  for (auto field : {&WgmmaSmemOperand::leadingByteOffset, &WgmmaSmemOperand::strideByteOffset}) {
    WgmmaSmemOperand w = *b;
    w.*field += 16;
    EXPECT_TRUE(misreads(w));
  }
  WgmmaSmemOperand swapped = *b;
  std::swap(swapped.leadingByteOffset, swapped.strideByteOffset);
  EXPECT_TRUE(misreads(swapped));
  auto split =
      table(coreMatrixLayout(0, true, 8, {{1, 8}, {1, 16}, {0, 8}, {1, 32}, {0, 16}}), {32, 64});
  auto bad = deriveWgmmaOperand(split, 0, 2, 64);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("wgmma cannot read this shared layout"), std::string::npos)
      << bad.message();
  // The same split between instructions (n32 each) is fine.
  EXPECT_TRUE(deriveWgmmaOperand(split, 0, 2, 32).ok());
}

namespace {

// A single-tile wgmma kernel: A [M, K] (shared, or registers when aInRegs), B [K, N] shared,
// C = A * B stored as f32.
std::string wgmmaKernel(int64_t m, int64_t n, int64_t k, int64_t instrN, const char *elem,
                        bool aInRegs, bool bTransposed, int swizzle, bool isAsync) {
  std::string M = std::to_string(m), N = std::to_string(n), K = std::to_string(k);
  std::string mma = "#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], "
                    "instrShape = [16, " +
                    std::to_string(instrN) + ", 16]}>";
  std::string sw = std::to_string(swizzle);
  std::string e = elem;
  std::string ta = "tensor<" + M + "x" + K + "x" + e + ", #blocked>";
  std::string tb = "tensor<" + K + "x" + N + "x" + e + ", #blocked>";
  std::string sa = "!ttg.memdesc<" + M + "x" + K + "x" + e + ", #sa, #smem>";
  std::string sb = "!ttg.memdesc<" + K + "x" + N + "x" + e + ", #sb, #smem>";
  std::string da =
      "tensor<" + M + "x" + K + "x" + e + ", #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>";
  std::string tc = "tensor<" + M + "x" + N + "xf32, #mma>";
  std::string aType = aInRegs ? da : sa;
  std::string t =
      R"(#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = )" +
      mma + R"(
#sa = #ttg.nvmma_shared<{swizzlingByteWidth = )" +
      sw + R"(, transposed = false, elementBitWidth = 16}>
#sb = #ttg.nvmma_shared<{swizzlingByteWidth = )" +
      sw + ", transposed = " + (bTransposed ? "true" : "false") + R"(, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func public @wg() {
)";
  t += "    %x = arith.constant dense<1.0> : " + ta + "\n";
  t += "    %y = arith.constant dense<2.0> : " + tb + "\n";
  if (aInRegs)
    t += "    %a = ttg.convert_layout %x : " + ta + " -> " + da + "\n";
  else
    t += "    %a = ttg.local_alloc %x : (" + ta + ") -> " + sa + "\n";
  t += "    %b = ttg.local_alloc %y : (" + tb + ") -> " + sb + "\n";
  t += "    ttng.fence_async_shared {bCluster = false}\n";
  t += "    %z = arith.constant dense<0.0> : " + tc + "\n";
  t += "    %d = ttng.warp_group_dot %a, %b, %z {isAsync = " +
       std::string(isAsync ? "true" : "false") + "} : " + aType + " * " + sb + " -> " + tc + "\n";
  std::string res = "%d";
  if (isAsync) {
    t += "    %w:2 = ttng.warp_group_dot_wait %d, %b {pendings = 0 : i32} : " + tc + ", " + sb +
         "\n";
    res = "%w#0";
  }
  t += "    %r = ttg.convert_layout " + res + " : " + tc + " -> tensor<" + M + "x" + N +
       "xf32, #blocked>\n";
  t += "    tt.return\n  }\n}\n";
  return t;
}

} // namespace

TEST(Wgmma, KernelsAssembleForSm90a) {
  struct Case {
    int64_t m, n, k, instrN;
    const char *elem;
    bool aInRegs, bTransposed;
    int swizzle;
    bool isAsync;
  } cases[] = {
      {64, 64, 64, 64, "f16", false, false, 128, true},
      {64, 64, 64, 64, "bf16", false, false, 128, false},
      {128, 128, 64, 128, "f16", false, false, 128, true},
      {64, 256, 16, 256, "f16", false, true, 32, true},
      {64, 128, 32, 128, "bf16", false, true, 64, false},
      {64, 64, 32, 32, "f16", false, false, 64, true},
      {64, 64, 64, 64, "f16", true, false, 128, true},
      {128, 64, 32, 64, "bf16", true, true, 64, false},
  };
  for (const Case &c : cases) {
    std::string text = wgmmaKernel(c.m, c.n, c.k, c.instrN, c.elem, c.aInRegs, c.bTransposed,
                                   c.swizzle, c.isAsync);
    SCOPED_TRACE(text);
    auto m = ir::parseModule(text, "wg.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    auto k = lowerKernel(*m);
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(k->kernel.target.name(), "sm_90a");
    const std::string &ptx = k->kernel.ptx;
    std::string insn = "wgmma.mma_async.sync.aligned.m64n" + std::to_string(c.instrN) + "k16.f32." +
                       c.elem + "." + c.elem;
    int tiles = int((c.m / 64) * (c.n / c.instrN));
    EXPECT_EQ(countLines(ptx, insn), tiles * int(c.k / 16)) << ptx;
    EXPECT_PATTERNS(ptx, R"(
      CHECK: .target sm_90a
      CHECK: .extern .shared .align 1024
      CHECK: fence.proxy.async.shared::cta;
      CHECK: bar.sync
      CHECK: wgmma.fence.sync.aligned;
      CHECK: wgmma.mma_async
      CHECK: wgmma.commit_group.sync.aligned;
      CHECK: wgmma.wait_group.sync.aligned 0;
    )");
    // B N-major <=> imm-trans-b 1; A from shared is K-major here.
    std::string trans = c.aInRegs
                            ? std::string(", p, 1, 1, ") + (c.bTransposed ? "0" : "1") + ";"
                            : std::string(", p, 1, 1, 0, ") + (c.bTransposed ? "0" : "1") + ";";
    EXPECT_GE(countLines(ptx, trans), 1) << trans;
    expectAssembles(k->kernel, /*requireNoSpills=*/true);
  }
}

TEST(Wgmma, NeedsSm90a) {
  auto m = ir::parseModule(wgmmaKernel(64, 64, 64, 64, "f16", false, false, 128, true), "wg.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  LowerOptions o;
  o.target = PtxTarget{80, 80};
  auto k = lowerKernel(*m, o);
  ASSERT_FALSE(k.ok());
  EXPECT_NE(k.message().find("needs sm_90a"), std::string::npos) << k.message();
}

// The Hopper examples (the matmuls after the passes, which add their fence; unpipelined and with
// 3 stages, where one wgmma group stays in flight across iterations) compile for sm_90a without
// spills, and ptxas does not serialize their wgmmas.
TEST(Wgmma, ExamplesAssembleWithoutSpills) {
  for (const char *name : {"wgmma_tile.tir", "wgmma_nt_tile.tir", "matmul_wgmma.tir",
                           "matmul_wgmma_wide.tir", "matmul_wgmma_nt.tir"})
    for (int stages : {1, 3}) {
      SCOPED_TRACE(std::string(name) + ", stages " + std::to_string(stages));
      auto m = ir::parseModule(exampleSource(name), name);
      ASSERT_TRUE(m.ok()) << m.message();
      ir::PipelineOptions po;
      po.numStages = stages;
      ASSERT_TRUE(ir::runPipeline(*m, po).ok());
      auto k = lowerKernel(*m);
      ASSERT_TRUE(k.ok()) << k.message();
      EXPECT_EQ(countLines(k->kernel.ptx, "fence.proxy.async.shared::cta;"), 1);
      EXPECT_GT(countLines(k->kernel.ptx, "wgmma.mma_async"), 0);
      if (stages > 1 && std::string(name).find("_tile.tir") == std::string::npos) {
        EXPECT_EQ(countLines(k->kernel.ptx, "wgmma.wait_group.sync.aligned 1;"), 1);
      }
      auto r = expectAssembles(k->kernel, /*requireNoSpills=*/true);
      if (r.accepted) {
        EXPECT_EQ(r.log.find("serialized"), std::string::npos) << r.log;
        std::cout << "[          ] " << name << ", stages " << stages << ": " << r.registers
                  << " registers\n";
      }
    }
}
