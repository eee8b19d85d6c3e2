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

// The word whose bytes `elems` (4 values of i8) are, in order, where each is an extractelement
// of one bitcast of that word to <4 x i8> (as unpackSubwords splits words); else null.
llvm::Value *splitWordOf(const std::vector<llvm::Value *> &elems) {
  llvm::Value *vec = nullptr;
  for (size_t i = 0; i < elems.size(); ++i) {
    auto *ex = llvm::dyn_cast<llvm::ExtractElementInst>(elems[i]);
    auto *at = ex ? llvm::dyn_cast<llvm::ConstantInt>(ex->getIndexOperand()) : nullptr;
    if (!at || at->getZExtValue() != i || (vec && ex->getVectorOperand() != vec))
      return nullptr;
    vec = ex->getVectorOperand();
  }
  auto *cast = llvm::dyn_cast<llvm::BitCastInst>(vec);
  return cast && cast->getOperand(0)->getType()->isIntegerTy(32) ? cast->getOperand(0) : nullptr;
}

// The 16-bit value whose low and high bytes lo and hi are, as a 16-bit register's two bytes are
// taken (trunc, and trunc of a shift by 8: the bytes of a cvt to two 8-bit floats); else null.
llvm::Value *halfOf(llvm::Value *lo, llvm::Value *hi) {
  auto *loTrunc = llvm::dyn_cast<llvm::TruncInst>(lo);
  auto *hiTrunc = llvm::dyn_cast<llvm::TruncInst>(hi);
  if (!loTrunc || !hiTrunc)
    return nullptr;
  llvm::Value *x = loTrunc->getOperand(0);
  auto *shift = llvm::dyn_cast<llvm::BinaryOperator>(hiTrunc->getOperand(0));
  if (!x->getType()->isIntegerTy(16) || !shift || shift->getOpcode() != llvm::Instruction::LShr ||
      shift->getOperand(0) != x)
    return nullptr;
  auto *by = llvm::dyn_cast<llvm::ConstantInt>(shift->getOperand(1));
  return by && by->getZExtValue() == 8 ? x : nullptr;
}

// How packSubwords packs `regs`: 2 (an even number of one 16-bit type), 4 (a multiple of 4
// bytes) or 1 (not at all).
size_t partsPerWord(const std::vector<llvm::Value *> &regs) {
  if (regs.empty())
    return 1;
  llvm::Type *t = regs[0]->getType();
  for (llvm::Value *v : regs)
    if (v->getType() != t)
      return 1;
  if (t->isIntegerTy(8) && regs.size() % 4 == 0)
    return 4;
  if ((t->isIntegerTy(16) || t->isHalfTy() || t->isBFloatTy()) && regs.size() % 2 == 0)
    return 2;
  return 1;
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
  if (llvm::Value *word = splitWordOf(elems))
    return word;
  // Two 16-bit registers' bytes in order: the two registers make the word (one mov).
  if (elems.size() == 4)
    if (llvm::Value *lo = halfOf(elems[0], elems[1]))
      if (llvm::Value *hi = halfOf(elems[2], elems[3]))
        return packPair(b, lo, hi);
  llvm::Value *v = llvm::PoisonValue::get(
      llvm::FixedVectorType::get(elems[0]->getType(), unsigned(elems.size())));
  for (size_t i = 0; i < elems.size(); ++i)
    v = b.CreateInsertElement(v, elems[i], b.getInt32(uint32_t(i)));
  return b.CreateBitCast(v, b.getInt32Ty());
}

std::vector<llvm::Value *> packSubwords(llvm::IRBuilder<> &b,
                                        const std::vector<llvm::Value *> &regs) {
  const size_t parts = partsPerWord(regs);
  if (parts == 1)
    return regs;
  std::vector<llvm::Value *> words;
  for (size_t i = 0; i < regs.size(); i += parts)
    words.push_back(joinWord(b, {regs.begin() + long(i), regs.begin() + long(i + parts)}));
  return words;
}

std::vector<llvm::Value *> unpackSubwords(llvm::IRBuilder<> &b,
                                          const std::vector<llvm::Value *> &words,
                                          const std::vector<llvm::Value *> &like) {
  const size_t parts = partsPerWord(like);
  if (parts == 1)
    return words;
  std::vector<llvm::Value *> regs;
  llvm::Type *t = like[0]->getType();
  for (llvm::Value *w : words) {
    if (parts == 4) {
      llvm::Value *v = b.CreateBitCast(w, llvm::FixedVectorType::get(b.getInt8Ty(), 4));
      for (int i = 0; i < 4; ++i)
        regs.push_back(b.CreateExtractElement(v, b.getInt32(i)));
      continue;
    }
    auto [lo, hi] = splitHalves(b, w);
    for (llvm::Value *h : {lo, hi})
      regs.push_back(t == h->getType() ? h : b.CreateBitCast(h, t));
  }
  return regs;
}

} // namespace linlayout::lower
