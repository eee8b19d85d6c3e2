#include "PackedHalves.h"

#include "InlinePtx.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>

namespace linlayout::lower {

namespace {
constexpr const char *kSplitAsm = "mov.b32 {$0, $1}, $2;";

// The splitHalves call and the half (0: low, 1: high) that `v` is, looking through a bitcast;
// {nullptr, -1} for anything else.
std::pair<llvm::CallInst *, int> splitHalf(llvm::Value *v) {
  if (auto *cast = llvm::dyn_cast<llvm::BitCastInst>(v))
    v = cast->getOperand(0);
  auto *ev = llvm::dyn_cast<llvm::ExtractValueInst>(v);
  if (!ev || ev->getNumIndices() != 1)
    return {nullptr, -1};
  auto *call = llvm::dyn_cast<llvm::CallInst>(ev->getAggregateOperand());
  auto *asmFn = call ? llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()) : nullptr;
  if (!asmFn || asmFn->getAsmString() != kSplitAsm)
    return {nullptr, -1};
  return {call, int(ev->getIndices()[0])};
}

// lo and hi (16-bit values of one type) packed into a new 32-bit word, lo in the low half.
llvm::Value *packPair(llvm::IRBuilder<> &b, llvm::Value *lo, llvm::Value *hi) {
  llvm::Type *i16 = b.getInt16Ty();
  auto asI16 = [&](llvm::Value *v) { return v->getType() == i16 ? v : b.CreateBitCast(v, i16); };
  llvm::Value *v = llvm::PoisonValue::get(llvm::FixedVectorType::get(i16, 2));
  v = b.CreateInsertElement(v, asI16(lo), b.getInt32(0));
  v = b.CreateInsertElement(v, asI16(hi), b.getInt32(1));
  return b.CreateBitCast(v, b.getInt32Ty());
}
} // namespace

std::pair<llvm::Value *, llvm::Value *> splitHalves(llvm::IRBuilder<> &b, llvm::Value *word) {
  llvm::Type *i16 = b.getInt16Ty();
  auto halves = emitInlinePtx(b, kSplitAsm, {i16, i16}, {}, {word}, /*pure=*/true);
  return {halves[0], halves[1]};
}

llvm::Value *joinHalves(llvm::IRBuilder<> &b, llvm::Value *lo, llvm::Value *hi) {
  auto [loCall, loIdx] = splitHalf(lo);
  auto [hiCall, hiIdx] = splitHalf(hi);
  if (loCall && loCall == hiCall && loIdx == 0 && hiIdx == 1)
    return loCall->getArgOperand(0);
  return packPair(b, lo, hi);
}

llvm::Value *joinWord(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &elems) {
  if (elems.size() == 1)
    return b.CreateBitCast(elems[0], b.getInt32Ty());
  if (elems.size() == 2)
    return joinHalves(b, elems[0], elems[1]);
  llvm::Value *v = llvm::PoisonValue::get(
      llvm::FixedVectorType::get(elems[0]->getType(), unsigned(elems.size())));
  for (size_t i = 0; i < elems.size(); ++i)
    v = b.CreateInsertElement(v, elems[i], b.getInt32(uint32_t(i)));
  return b.CreateBitCast(v, b.getInt32Ty());
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
  std::vector<llvm::Value *> words;
  for (size_t i = 0; i < regs.size(); i += 2)
    words.push_back(joinHalves(b, regs[i], regs[i + 1]));
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
