#include "IssuingThread.h"

#include "InlinePtx.h"

namespace linlayout::lower {

llvm::Value *emitElectSync(llvm::IRBuilder<> &b) {
  llvm::Value *elected = emitInlinePtx(b, "elect.sync _|$0, -1;", {b.getInt1Ty()}, {}, {})[0];
  llvm::cast<llvm::CallInst>(elected)->addFnAttr(llvm::Attribute::Convergent);
  return elected;
}

namespace {

// Emits `emit(next)` in a block that only warp 0 of the code being lowered enters (its id is
// warp-uniform); `emit` ends where it should fall through to `next`, which it may also branch to.
// The builder stands in `next` on return.
void inWarpZero(LoweringContext &ctx, llvm::function_ref<void(llvm::BasicBlock *next)> emit) {
  auto &b = ctx.b();
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  auto *warp0 = llvm::BasicBlock::Create(b.getContext(), "warp0", fn);
  auto *next = llvm::BasicBlock::Create(b.getContext(), "issued", fn);
  b.CreateCondBr(b.CreateICmpEQ(ctx.kernel().uniformWarpId(), b.getInt32(0)), warp0, next);
  b.SetInsertPoint(warp0);
  emit(next);
  b.CreateBr(next);
  b.SetInsertPoint(next);
}

} // namespace

void inIssuingThread(LoweringContext &ctx, llvm::Value *pred, llvm::function_ref<void()> emit) {
  inWarpZero(ctx, [&](llvm::BasicBlock *next) {
    auto &b = ctx.b();
    llvm::Value *elected = emitElectSync(b);
    auto *issue = llvm::BasicBlock::Create(b.getContext(), "elected", next->getParent(), next);
    b.CreateCondBr(pred ? b.CreateAnd(elected, pred) : elected, issue, next);
    b.SetInsertPoint(issue);
    emit();
  });
}

void inIssuingWarp(LoweringContext &ctx, llvm::Value *pred,
                   llvm::function_ref<void(llvm::Value *lane0)> emit) {
  inWarpZero(ctx, [&](llvm::BasicBlock *) {
    auto &b = ctx.b();
    llvm::Value *lane0 = b.CreateICmpEQ(ctx.kernel().laneId(), b.getInt32(0));
    emit(pred ? b.CreateAnd(lane0, pred) : lane0);
  });
}

} // namespace linlayout::lower
