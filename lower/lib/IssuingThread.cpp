#include "IssuingThread.h"

#include "InlinePtx.h"

namespace linlayout::lower {

llvm::Value *emitElectSync(llvm::IRBuilder<> &b) {
  llvm::Value *elected = emitInlinePtx(b, "elect.sync _|$0, -1;", {b.getInt1Ty()}, {}, {})[0];
  llvm::cast<llvm::CallInst>(elected)->addFnAttr(llvm::Attribute::Convergent);
  return elected;
}

void inIssuingThread(LoweringContext &ctx, llvm::Value *pred, llvm::function_ref<void()> emit) {
  auto &b = ctx.b();
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  llvm::LLVMContext &lc = b.getContext();
  auto *warp0 = llvm::BasicBlock::Create(lc, "warp0", fn);
  auto *issue = llvm::BasicBlock::Create(lc, "elected", fn);
  auto *next = llvm::BasicBlock::Create(lc, "issued", fn);
  b.CreateCondBr(b.CreateICmpEQ(ctx.kernel().uniformWarpId(), b.getInt32(0)), warp0, next);
  b.SetInsertPoint(warp0);
  llvm::Value *elected = emitElectSync(b);
  b.CreateCondBr(pred ? b.CreateAnd(elected, pred) : elected, issue, next);
  b.SetInsertPoint(issue);
  emit();
  b.CreateBr(next);
  b.SetInsertPoint(next);
}

void inIssuingWarp(LoweringContext &ctx, llvm::Value *pred,
                   llvm::function_ref<void(llvm::Value *lane0)> emit) {
  auto &b = ctx.b();
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  llvm::LLVMContext &lc = b.getContext();
  auto *warp0 = llvm::BasicBlock::Create(lc, "warp0", fn);
  auto *next = llvm::BasicBlock::Create(lc, "issued", fn);
  b.CreateCondBr(b.CreateICmpEQ(ctx.kernel().uniformWarpId(), b.getInt32(0)), warp0, next);
  b.SetInsertPoint(warp0);
  llvm::Value *lane0 = b.CreateICmpEQ(ctx.kernel().laneId(), b.getInt32(0));
  emit(pred ? b.CreateAnd(lane0, pred) : lane0);
  b.CreateBr(next);
  b.SetInsertPoint(next);
}

} // namespace linlayout::lower
