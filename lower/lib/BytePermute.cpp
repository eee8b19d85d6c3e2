#include "BytePermute.h"

#include "LlvmShim.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cassert>

namespace linlayout::lower {

namespace {
llvm::Value *asInt(llvm::IRBuilder<> &b, llvm::Value *v) {
  llvm::Type *intTy = b.getIntNTy(v->getType()->getPrimitiveSizeInBits());
  return v->getType() == intTy ? v : b.CreateBitCast(v, intTy);
}
} // namespace

uint32_t prmtSelector(std::array<int, 4> sources) {
  uint32_t sel = 0;
  for (int i = 0; i < 4; ++i) {
    assert(sources[i] >= 0 && sources[i] < 8 && "prmt byte source");
    sel |= uint32_t(sources[i]) << (4 * i);
  }
  return sel;
}

llvm::Value *bytePermute(llvm::IRBuilder<> &b, llvm::Value *lo, llvm::Value *hi,
                         llvm::Value *selector) {
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  return b.CreateCall(shim::intrinsic(m, llvm::Intrinsic::nvvm_prmt), {lo, hi, selector});
}

llvm::Value *bytePermute(llvm::IRBuilder<> &b, llvm::Value *lo, llvm::Value *hi,
                         std::array<int, 4> sources) {
  return bytePermute(b, lo, hi, b.getInt32(prmtSelector(sources)));
}

std::vector<llvm::Value *> packWords(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &v) {
  std::vector<llvm::Value *> words;
  if (v.empty())
    return words;
  unsigned bits = v[0]->getType()->getPrimitiveSizeInBits();
  assert((bits == 8 || bits == 16 || bits == 32) && "packWords element width");
  if (bits == 32) {
    for (llvm::Value *x : v)
      words.push_back(asInt(b, x));
    return words;
  }
  size_t perWord = 32 / bits;
  for (size_t w = 0; w * perWord < v.size(); ++w) {
    // Widen each element to a word, then merge two words at a time with prmt: for halves one
    // prmt per word, for bytes three.
    std::vector<llvm::Value *> parts;
    for (size_t i = 0; i < perWord; ++i) {
      size_t k = w * perWord + i;
      parts.push_back(k < v.size() ? b.CreateZExt(asInt(b, v[k]), b.getInt32Ty()) : b.getInt32(0));
    }
    if (bits == 16) {
      words.push_back(bytePermute(b, parts[0], parts[1], {0, 1, 4, 5}));
    } else {
      llvm::Value *lo = bytePermute(b, parts[0], parts[1], {0, 4, 0, 0});
      llvm::Value *hi = bytePermute(b, parts[2], parts[3], {0, 4, 0, 0});
      words.push_back(bytePermute(b, lo, hi, {0, 1, 4, 5}));
    }
  }
  return words;
}

std::vector<llvm::Value *> unpackWords(llvm::IRBuilder<> &b,
                                       const std::vector<llvm::Value *> &words, llvm::Type *elemTy,
                                       int count) {
  unsigned bits = elemTy->getPrimitiveSizeInBits();
  assert((bits == 8 || bits == 16 || bits == 32) && "unpackWords element width");
  llvm::Type *intTy = b.getIntNTy(bits);
  std::vector<llvm::Value *> out;
  int perWord = static_cast<int>(32 / bits);
  for (int k = 0; k < count; ++k) {
    llvm::Value *word = words[k / perWord];
    int shift = static_cast<int>(bits) * (k % perWord);
    llvm::Value *x = bits == 32 ? word : b.CreateTrunc(b.CreateLShr(word, shift), intTy);
    out.push_back(elemTy == intTy ? x : b.CreateBitCast(x, elemTy));
  }
  return out;
}

llvm::Value *selectByLaneBit(llvm::IRBuilder<> &b, llvm::Value *laneId, int bit,
                             llvm::Value *whenSet, llvm::Value *whenClear) {
  llvm::Value *isSet = b.CreateICmpNE(b.CreateAnd(laneId, uint64_t(1) << bit), b.getInt32(0));
  return b.CreateSelect(isSet, whenSet, whenClear);
}

} // namespace linlayout::lower
