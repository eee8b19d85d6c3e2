// ldmatrix (x1/x2/x4, .trans) and stmatrix (sm_90).
#include "KernelHarness.h"
#include "MatrixAccess.h"
#include "PtxCheck.h"
#include "SharedAccess.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

// Lane l points at row l % 8 of matrix l / 8 in a row-major 16-bit tile with 64-byte rows; the
// words loaded go to out[tid * count + i].
Expected<KernelPtx> ldmatrixKernel(const PtxTarget &t, int count, bool trans) {
  return buildKernel(t, "ldm", 128, [&](KernelBuilder &kb, const PtxTarget &) -> Status {
    auto &b = kb.b();
    kb.useSharedBytes(4 * 8 * 64);
    llvm::Value *lane = kb.laneId();
    llvm::Value *row = b.CreateAnd(lane, 7);
    llvm::Value *mat = b.CreateLShr(lane, 3);
    llvm::Value *off =
        b.CreateAdd(b.CreateMul(row, b.getInt32(64)), b.CreateMul(mat, b.getInt32(16)));
    auto words = emitLdmatrix(b, sharedAddress(b, kb.sharedBase(), off, 0), count, trans);
    for (int i = 0; i < count; ++i) {
      llvm::Value *idx = b.CreateAdd(b.CreateMul(kb.threadId(), b.getInt32(count)), b.getInt32(i));
      b.CreateStore(words[i], b.CreateGEP(b.getInt32Ty(), kb.param(1), idx));
    }
    return Status::success();
  });
}

Expected<KernelPtx> stmatrixKernel(const PtxTarget &t, int count, bool trans) {
  return buildKernel(t, "stm", 128, [&](KernelBuilder &kb, const PtxTarget &target) -> Status {
    auto &b = kb.b();
    kb.useSharedBytes(4 * 8 * 64);
    std::vector<llvm::Value *> words;
    for (int i = 0; i < count; ++i) {
      llvm::Value *idx = b.CreateAdd(b.CreateMul(kb.threadId(), b.getInt32(count)), b.getInt32(i));
      words.push_back(b.CreateLoad(b.getInt32Ty(), b.CreateGEP(b.getInt32Ty(), kb.param(0), idx)));
    }
    llvm::Value *lane = kb.laneId();
    llvm::Value *off = b.CreateAdd(b.CreateMul(b.CreateAnd(lane, 7), b.getInt32(64)),
                                   b.CreateMul(b.CreateLShr(lane, 3), b.getInt32(16)));
    LL_TRY_STATUS(emitStmatrix(b, target, sharedAddress(b, kb.sharedBase(), off, 0), words, trans));
    emitBarrier(b);
    llvm::Value *back =
        b.CreateLoad(b.getInt32Ty(), sharedAddress(b, kb.sharedBase(),
                                                   b.CreateMul(kb.threadId(), b.getInt32(4)), 0));
    b.CreateStore(back, b.CreateGEP(b.getInt32Ty(), kb.param(1), kb.threadId()));
    return Status::success();
  });
}

} // namespace

TEST(Matrix, LdmatrixAllCountsBothOrientations) {
  for (const PtxTarget &t : testTargets())
    for (int count : {1, 2, 4})
      for (bool trans : {false, true}) {
        auto k = ldmatrixKernel(t, count, trans);
        ASSERT_TRUE(k.ok()) << k.message();
        std::string insn = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(count) +
                           (trans ? ".trans" : "") + ".shared.b16";
        EXPECT_EQ(countLines(k->ptx, insn), 1) << insn << "\n" << k->ptx;
        // Shared addresses are 32-bit registers.
        EXPECT_PATTERNS(k->ptx, "CHECK: " + insn + " {{.*}}, [{{%r[0-9]+}}];");
        expectAssembles(*k);
      }
}

TEST(Matrix, StmatrixOnSm90) {
  PtxTarget sm90{90, 80};
  for (int count : {1, 2, 4})
    for (bool trans : {false, true}) {
      auto k = stmatrixKernel(sm90, count, trans);
      ASSERT_TRUE(k.ok()) << k.message();
      std::string insn = "stmatrix.sync.aligned.m8n8.x" + std::to_string(count) +
                         (trans ? ".trans" : "") + ".shared.b16 [{{%r[0-9]+}}]";
      EXPECT_EQ(countLines(k->ptx, insn), 1) << k->ptx;
      expectAssembles(*k);
    }
}

TEST(Matrix, StmatrixNeedsSm90) {
  auto k = stmatrixKernel(PtxTarget{80, 80}, 4, false);
  ASSERT_FALSE(k.ok());
  EXPECT_EQ(k.message(), "stmatrix needs sm_90 or newer, the target is sm_80");
}
