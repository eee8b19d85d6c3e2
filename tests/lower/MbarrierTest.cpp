// The mbarrier and TMA primitives assemble for sm_90: one thread initialises the barrier, expects
// a box's bytes and issues the copy; every thread waits on the phase's parity.
#include "Mbarrier.h"
#include "KernelHarness.h"
#include "PtxCheck.h"
#include "SharedAccess.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

TEST(Mbarrier, TmaCopyAndPhaseWaitAssemble) {
  PtxTarget sm90{90, 80};
  auto k = buildKernel(sm90, "tma", 128, [](KernelBuilder &kb, const PtxTarget &) -> Status {
    auto &b = kb.b();
    kb.useSharedBytes(1024 + 16384);
    llvm::Value *bar = sharedAddress(b, kb.sharedBase(), nullptr, 16384);
    llvm::Value *tile = sharedAddress(b, kb.sharedBase(), nullptr, 0);
    // The tensor map's generic address (here a global pointer parameter).
    llvm::Value *map = b.CreatePtrToInt(kb.param(0), b.getInt64Ty());
    llvm::Function *fn = b.GetInsertBlock()->getParent();
    auto *issue = llvm::BasicBlock::Create(b.getContext(), "issue", fn);
    auto *wait = llvm::BasicBlock::Create(b.getContext(), "wait", fn);
    b.CreateCondBr(b.CreateICmpEQ(kb.threadId(), b.getInt32(0)), issue, wait);
    b.SetInsertPoint(issue);
    emitMbarrierInit(b, bar, 1);
    emitMbarrierArriveExpectTx(b, bar, b.getInt32(16384));
    emitTmaLoad2d(b, tile, map, bar, b.getInt32(64), b.getInt32(128));
    b.CreateBr(wait);
    b.SetInsertPoint(wait);
    emitMbarrierWaitParity(b, bar, b.getInt32(0));
    emitMbarrierWaitParity(b, bar, b.getInt32(1));
    llvm::Value *x = b.CreateLoad(b.getInt32Ty(), tile);
    b.CreateStore(x, b.CreateGEP(b.getInt32Ty(), kb.param(1), kb.threadId()));
    return Status::success();
  });
  ASSERT_TRUE(k.ok()) << k.message();
  EXPECT_PATTERNS(k->ptx, R"(
    CHECK: mbarrier.init.shared::cta.b64
    CHECK: mbarrier.arrive.expect_tx.shared::cta.b64 _,
    CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
    CHECK: mbarrier.try_wait.parity.shared::cta.b64
    CHECK: mbarrier.try_wait.parity.shared::cta.b64
  )");
  expectAssembles(*k);
}
