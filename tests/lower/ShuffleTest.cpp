// Warp shuffles, byte permutes and lane selects.
#include "Shuffle.h"
#include "BytePermute.h"
#include "KernelHarness.h"
#include "PtxCheck.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

// out[tid] = f(in[tid]) for a value of type `ty`.
Expected<KernelPtx> elementwise(const PtxTarget &t, llvm::Type *(*ty)(llvm::IRBuilder<> &),
                                std::function<llvm::Value *(KernelBuilder &, llvm::Value *)> f) {
  return buildKernel(t, "shuffle", 128, [&](KernelBuilder &kb, const PtxTarget &) -> Status {
    auto &b = kb.b();
    llvm::Type *type = ty(b);
    llvm::Value *in = b.CreateGEP(type, kb.param(0), kb.threadId());
    llvm::Value *out = b.CreateGEP(type, kb.param(1), kb.threadId());
    b.CreateStore(f(kb, b.CreateLoad(type, in)), out);
    return Status::success();
  });
}

llvm::Type *i32(llvm::IRBuilder<> &b) { return b.getInt32Ty(); }
llvm::Type *i64(llvm::IRBuilder<> &b) { return b.getInt64Ty(); }
llvm::Type *f16(llvm::IRBuilder<> &b) { return b.getHalfTy(); }
llvm::Type *f64(llvm::IRBuilder<> &b) { return b.getDoubleTy(); }

} // namespace

TEST(Shuffle, IdxAndButterflyOn32BitValues) {
  for (const PtxTarget &t : testTargets()) {
    auto k = elementwise(t, i32, [](KernelBuilder &kb, llvm::Value *v) {
      auto &b = kb.b();
      llvm::Value *src = b.CreateAnd(b.CreateAdd(kb.laneId(), b.getInt32(1)), 31);
      llvm::Value *x = shuffleIdx(b, v, src);
      return b.CreateAdd(x, shuffleXor(b, x, 16));
    });
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_PATTERNS(k->ptx, R"(
      CHECK: shfl.sync.idx.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, {{%r[0-9]+}}, 31, -1;
      CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 16, 31, -1;
    )");
    expectAssembles(*k);
  }
}

TEST(Shuffle, WideValuesTakeTwoShufflesNarrowOnesOne) {
  for (const PtxTarget &t : testTargets()) {
    for (auto ty : {i64, f64}) {
      auto k = elementwise(
          t, ty, [](KernelBuilder &kb, llvm::Value *v) { return shuffleXor(kb.b(), v, 1); });
      ASSERT_TRUE(k.ok()) << k.message();
      EXPECT_EQ(countLines(k->ptx, "shfl.sync.bfly.b32"), 2);
      expectAssembles(*k);
    }
    auto k = elementwise(t, f16, [](KernelBuilder &kb, llvm::Value *v) {
      return shuffleIdx(kb.b(), v, kb.b().getInt32(3));
    });
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(countLines(k->ptx, "shfl.sync.idx.b32"), 1);
    expectAssembles(*k);
  }
}

TEST(Shuffle, SegmentsSetTheClampOperand) {
  for (const PtxTarget &t : testTargets()) {
    auto k = elementwise(t, i32, [](KernelBuilder &kb, llvm::Value *v) {
      return shuffleXor(kb.b(), v, 2, /*segment=*/8);
    });
    ASSERT_TRUE(k.ok());
    // c = (32 - 8) << 8 | 31
    EXPECT_PATTERNS(k->ptx, "CHECK: shfl.sync.bfly.b32 {{%r[0-9]+}}, {{%r[0-9]+}}, 2, 6175, -1;");
    expectAssembles(*k);
  }
}

TEST(BytePermute, SelectorsAndPacking) {
  EXPECT_EQ(prmtSelector({0, 1, 4, 5}), 0x5410u);
  EXPECT_EQ(prmtSelector({3, 2, 1, 0}), 0x0123u);
  for (const PtxTarget &t : testTargets()) {
    // Four bytes of four threads' words -> one word: three prmt.
    auto k = buildKernel(t, "pack", 128, [](KernelBuilder &kb, const PtxTarget &) -> Status {
      auto &b = kb.b();
      std::vector<llvm::Value *> bytes;
      for (int i = 0; i < 4; ++i) {
        llvm::Value *p = b.CreateGEP(b.getInt8Ty(), kb.param(0),
                                     b.CreateAdd(kb.threadId(), b.getInt32(i * 128)));
        bytes.push_back(b.CreateLoad(b.getInt8Ty(), p));
      }
      std::vector<llvm::Value *> words = packWords(b, bytes);
      std::vector<llvm::Value *> halves =
          unpackWords(b, {shuffleXor(b, words[0], 1)}, b.getHalfTy(), 2);
      std::vector<llvm::Value *> again = packWords(b, halves);
      b.CreateStore(again[0], b.CreateGEP(b.getInt32Ty(), kb.param(1), kb.threadId()));
      return Status::success();
    });
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(countLines(k->ptx, "prmt.b32"), 3 + 1);
    EXPECT_EQ(countLines(k->ptx, "shfl.sync.bfly.b32"), 1);
    expectAssembles(*k);
  }
}

TEST(BytePermute, RuntimeSelectorAndLaneSelect) {
  for (const PtxTarget &t : testTargets()) {
    auto k = buildKernel(t, "sel", 128, [](KernelBuilder &kb, const PtxTarget &) -> Status {
      auto &b = kb.b();
      llvm::Value *p = b.CreateGEP(b.getInt32Ty(), kb.param(0), kb.threadId());
      llvm::Value *x = b.CreateLoad(b.getInt32Ty(), p);
      llvm::Value *y = b.CreateLoad(b.getInt32Ty(), b.CreateConstGEP1_32(b.getInt32Ty(), p, 128));
      // Even lanes keep the low halves, odd lanes the high ones: a lane-dependent selector.
      llvm::Value *sel = selectByLaneBit(b, kb.laneId(), 0, b.getInt32(0x7632), b.getInt32(0x5410));
      llvm::Value *r = bytePermute(b, x, y, sel);
      b.CreateStore(r, b.CreateGEP(b.getInt32Ty(), kb.param(1), kb.threadId()));
      return Status::success();
    });
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(countLines(k->ptx, "prmt.b32"), 1);
    EXPECT_EQ(countLines(k->ptx, "selp.b32"), 1);
    expectAssembles(*k);
  }
}
