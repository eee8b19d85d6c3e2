#include "Shuffle.h"

#include "LlvmShim.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cassert>

namespace linlayout::lower {

namespace {

// The c operand of shfl.sync: segment mask in bits 8-12, the clamp lane in bits 0-4 (31, the
// last source lane of idx / bfly / down; 0, the first of up).
uint32_t clampOperand(int segment, llvm::Intrinsic::ID id) {
  assert(segment >= 1 && segment <= 32 && (segment & (segment - 1)) == 0 && "segment size");
  return (uint32_t(32 - segment) << 8) | (id == llvm::Intrinsic::nvvm_shfl_sync_up_i32 ? 0 : 0x1f);
}

// Shuffles a 32-bit word with `id` and `lane`/`mask` operand `laneArg`.
llvm::Value *shuffleWord(llvm::IRBuilder<> &b, llvm::Intrinsic::ID id, llvm::Value *word,
                         llvm::Value *laneArg, int segment) {
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  return b.CreateCall(shim::intrinsic(m, id), {b.getInt32(0xffffffffu), word, laneArg,
                                               b.getInt32(clampOperand(segment, id))});
}

llvm::Value *shuffleAny(llvm::IRBuilder<> &b, llvm::Intrinsic::ID id, llvm::Value *v,
                        llvm::Value *laneArg, int segment) {
  llvm::Type *t = v->getType();
  unsigned bits = t->getPrimitiveSizeInBits();
  assert(bits >= 1 && bits <= 64 && "shuffle of an unsupported width");
  llvm::Type *intTy = b.getIntNTy(bits);
  llvm::Value *asInt = t == intTy ? v : b.CreateBitCast(v, intTy);
  llvm::Value *result;
  if (bits <= 32) {
    llvm::Value *word = bits == 32 ? asInt : b.CreateZExt(asInt, b.getInt32Ty());
    llvm::Value *moved = shuffleWord(b, id, word, laneArg, segment);
    result = bits == 32 ? moved : b.CreateTrunc(moved, intTy);
  } else {
    llvm::Value *lo = b.CreateTrunc(asInt, b.getInt32Ty());
    llvm::Value *hi = b.CreateTrunc(b.CreateLShr(asInt, 32), b.getInt32Ty());
    lo = b.CreateZExt(shuffleWord(b, id, lo, laneArg, segment), intTy);
    hi = b.CreateZExt(shuffleWord(b, id, hi, laneArg, segment), intTy);
    result = b.CreateOr(lo, b.CreateShl(hi, 32));
  }
  return t == intTy ? result : b.CreateBitCast(result, t);
}

} // namespace

llvm::Value *shuffleIdx(llvm::IRBuilder<> &b, llvm::Value *v, llvm::Value *srcLane, int segment) {
  return shuffleAny(b, llvm::Intrinsic::nvvm_shfl_sync_idx_i32, v, srcLane, segment);
}

llvm::Value *shuffleXor(llvm::IRBuilder<> &b, llvm::Value *v, uint32_t laneMask, int segment) {
  assert(laneMask < 32 && "butterfly lane mask");
  return shuffleAny(b, llvm::Intrinsic::nvvm_shfl_sync_bfly_i32, v, b.getInt32(laneMask), segment);
}

llvm::Value *shuffleUp(llvm::IRBuilder<> &b, llvm::Value *v, uint32_t delta) {
  assert(delta > 0 && delta < 32 && "shuffle distance");
  return shuffleAny(b, llvm::Intrinsic::nvvm_shfl_sync_up_i32, v, b.getInt32(delta), 32);
}

llvm::Value *shuffleDown(llvm::IRBuilder<> &b, llvm::Value *v, uint32_t delta) {
  assert(delta > 0 && delta < 32 && "shuffle distance");
  return shuffleAny(b, llvm::Intrinsic::nvvm_shfl_sync_down_i32, v, b.getInt32(delta), 32);
}

} // namespace linlayout::lower
