#include "PackedHalves.h"

#include <llvm/IR/InlineAsm.h>

namespace linlayout::lower {

std::pair<llvm::Value *, llvm::Value *> splitHalves(llvm::IRBuilder<> &b, llvm::Value *word) {
  llvm::Type *i16 = b.getInt16Ty();
  auto *ty = llvm::FunctionType::get(llvm::StructType::get(b.getContext(), {i16, i16}),
                                     {b.getInt32Ty()}, false);
  auto *asmFn = llvm::InlineAsm::get(ty, "mov.b32 {$0, $1}, $2;", "=h,=h,r",
                                     /*hasSideEffects=*/false);
  llvm::Value *pair = b.CreateCall(ty, asmFn, {word});
  return {b.CreateExtractValue(pair, 0), b.CreateExtractValue(pair, 1)};
}

bool pairsHalves(const std::vector<llvm::Value *> &regs) {
  if (regs.size() < 2 || regs.size() % 2)
    return false;
  llvm::Type *t = regs[0]->getType();
  if (!t->isIntegerTy(16) && !t->isHalfTy() && !t->isBFloatTy())
    return false;
  for (llvm::Value *v : regs)
    if (v->getType() != t)
      return false;
  return true;
}

std::vector<llvm::Value *> packHalves(llvm::IRBuilder<> &b,
                                      const std::vector<llvm::Value *> &regs) {
  if (!pairsHalves(regs))
    return regs;
  llvm::Type *i16 = b.getInt16Ty();
  auto asI16 = [&](llvm::Value *v) { return v->getType() == i16 ? v : b.CreateBitCast(v, i16); };
  std::vector<llvm::Value *> words;
  for (size_t i = 0; i < regs.size(); i += 2) {
    llvm::Value *v = llvm::PoisonValue::get(llvm::FixedVectorType::get(i16, 2));
    v = b.CreateInsertElement(v, asI16(regs[i]), b.getInt32(0));
    v = b.CreateInsertElement(v, asI16(regs[i + 1]), b.getInt32(1));
    words.push_back(b.CreateBitCast(v, b.getInt32Ty()));
  }
  return words;
}

std::vector<llvm::Value *> unpackHalves(llvm::IRBuilder<> &b,
                                        const std::vector<llvm::Value *> &words,
                                        const std::vector<llvm::Value *> &like) {
  if (!pairsHalves(like))
    return words;
  llvm::Type *t = like[0]->getType();
  auto fromI16 = [&](llvm::Value *v) { return t == v->getType() ? v : b.CreateBitCast(v, t); };
  std::vector<llvm::Value *> regs;
  for (llvm::Value *w : words) {
    auto [lo, hi] = splitHalves(b, w);
    regs.push_back(fromI16(lo));
    regs.push_back(fromI16(hi));
  }
  return regs;
}

} // namespace linlayout::lower
