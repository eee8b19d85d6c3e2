#include "GlobalAccess.h"

#include "InlinePtx.h"

#include <llvm/IR/Constants.h>

#include <cassert>

namespace linlayout::lower {

namespace {

// A vector access moves `words` registers of `wordBits` bits: 32-bit words from 32 bits up, one
// narrow register below.
struct Packing {
  int words;
  int wordBits;
};

Packing packingFor(int count, int bits) {
  int total = count * bits;
  if (total >= 32)
    return {total / 32, 32};
  return {1, total};
}

int bitsOf(llvm::Type *t) { return static_cast<int>(t->getPrimitiveSizeInBits()); }

// Elements -> words (bit-exact, first element in the lowest bits, as memory order on a
// little-endian GPU).
// With `byShifts`, bytes are packed by shifts and ors (prmt / bfi) instead: for the operands of
// inline PTX, where the backend lowers a bitcast of a vector of i8 through the stack (st.v2.u8 to
// local memory, ld.u16 back: 16 to 64 bytes of local memory in a kernel that stores a byte tile
// with predicates). Plain loads and stores keep the vector form, which the backend folds.
std::vector<llvm::Value *> toWords(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &elems,
                                   Packing p, bool byShifts = false) {
  llvm::Type *elemTy = elems[0]->getType();
  int n = static_cast<int>(elems.size());
  if (byShifts && bitsOf(elemTy) == 8 && n > 1) {
    llvm::Type *wordTy = b.getIntNTy(p.wordBits);
    int per = p.wordBits / 8;
    std::vector<llvm::Value *> out;
    for (int w = 0; w < p.words; ++w) {
      llvm::Value *word = nullptr;
      for (int k = 0; k < per; ++k) {
        llvm::Value *v = b.CreateZExt(b.CreateBitCast(elems[w * per + k], b.getInt8Ty()), wordTy);
        if (k)
          v = b.CreateShl(v, static_cast<uint64_t>(8 * k));
        word = word ? b.CreateOr(word, v) : v;
      }
      out.push_back(word);
    }
    return out;
  }
  llvm::Value *vec = llvm::PoisonValue::get(llvm::FixedVectorType::get(elemTy, n));
  for (int i = 0; i < n; ++i)
    vec = b.CreateInsertElement(vec, elems[i], b.getInt32(i));
  llvm::Type *wordTy = b.getIntNTy(p.wordBits);
  llvm::Value *words = b.CreateBitCast(vec, llvm::FixedVectorType::get(wordTy, p.words));
  std::vector<llvm::Value *> out;
  for (int i = 0; i < p.words; ++i)
    out.push_back(b.CreateExtractElement(words, b.getInt32(i)));
  return out;
}

std::vector<llvm::Value *> fromWords(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &words,
                                     llvm::Type *elemTy, int count, bool byShifts = false) {
  llvm::Type *wordTy = words[0]->getType();
  if (byShifts && bitsOf(elemTy) == 8 && count > 1) {
    // Bytes by shifts, as toWords packs them with byShifts.
    int per = count / static_cast<int>(words.size());
    std::vector<llvm::Value *> out;
    for (int i = 0; i < count; ++i) {
      llvm::Value *w = words[size_t(i / per)];
      if (i % per)
        w = b.CreateLShr(w, static_cast<uint64_t>(8 * (i % per)));
      out.push_back(b.CreateBitCast(b.CreateTrunc(w, b.getInt8Ty()), elemTy));
    }
    return out;
  }
  llvm::Value *vec = llvm::PoisonValue::get(llvm::FixedVectorType::get(wordTy, words.size()));
  for (size_t i = 0; i < words.size(); ++i)
    vec = b.CreateInsertElement(vec, words[i], b.getInt32(static_cast<uint32_t>(i)));
  llvm::Value *elems = b.CreateBitCast(vec, llvm::FixedVectorType::get(elemTy, count));
  std::vector<llvm::Value *> out;
  for (int i = 0; i < count; ++i)
    out.push_back(b.CreateExtractElement(elems, b.getInt32(i)));
  return out;
}

llvm::Value *offsetAddress(llvm::IRBuilder<> &b, llvm::Value *base, int64_t byteOffset) {
  if (!byteOffset)
    return base;
  return b.CreateConstGEP1_64(b.getInt8Ty(), base, static_cast<uint64_t>(byteOffset));
}

const char *cacheSuffix(CacheModifier c) {
  switch (c) {
  case CacheModifier::None:
    return "";
  case CacheModifier::Global:
    return ".cg";
  case CacheModifier::Stream:
    return ".cs";
  }
  return "";
}

// "{$a, $a+1, ...}" or "$a" for one word.
std::string operandList(int first, int n) {
  if (n == 1)
    return "$" + std::to_string(first);
  std::string s = "{";
  for (int i = 0; i < n; ++i)
    s += (i ? ", $" : "$") + std::to_string(first + i);
  return s + "}";
}

std::string vectorSuffix(Packing p) {
  return (p.words > 1 ? ".v" + std::to_string(p.words) : std::string()) + ".b" +
         std::to_string(p.wordBits);
}

std::string addressOperand(int index, int64_t byteOffset) {
  std::string s = "[$" + std::to_string(index);
  if (byteOffset)
    s += (byteOffset > 0 ? "+" : "") + std::to_string(byteOffset);
  return s + "]";
}

// PTX has no 8-bit registers: an 8-bit word travels in a 16-bit one.
llvm::Type *registerType(llvm::IRBuilder<> &b, int wordBits) {
  return b.getIntNTy(wordBits < 16 ? 16 : wordBits);
}

} // namespace

bool isVectorAccessWidth(int count, int bits) {
  int total = count * bits;
  return count >= 1 && bits >= 8 && total >= 8 && total <= 128 && (total & (total - 1)) == 0 &&
         (bits & (bits - 1)) == 0;
}

std::vector<llvm::Value *> emitGlobalLoad(llvm::IRBuilder<> &b, const GlobalLoad &load) {
  int bits = bitsOf(load.elementType);
  assert(isVectorAccessWidth(load.count, bits) && "unsupported global load width");
  assert((load.other.empty() || static_cast<int>(load.other.size()) == load.count) &&
         "one fall-back value per element");
  Packing p = packingFor(load.count, bits);
  llvm::Type *wordTy = b.getIntNTy(p.wordBits);
  bool alwaysOn = !load.mask || (llvm::isa<llvm::ConstantInt>(load.mask) &&
                                 llvm::cast<llvm::ConstantInt>(load.mask)->isOne());
  if (alwaysOn && load.cache == CacheModifier::None) {
    // A plain LLVM load: the backend picks ld.global.vN and folds the offset into the address.
    llvm::Type *vecTy = llvm::FixedVectorType::get(wordTy, p.words);
    llvm::Value *addr = offsetAddress(b, load.base, load.byteOffset);
    llvm::Value *v = b.CreateAlignedLoad(
        vecTy, addr, llvm::Align(static_cast<uint64_t>(p.words * p.wordBits / 8)));
    std::vector<llvm::Value *> words;
    for (int i = 0; i < p.words; ++i)
      words.push_back(b.CreateExtractElement(v, b.getInt32(i)));
    return fromWords(b, words, load.elementType, load.count);
  }
  // A predicated load: LLVM has no intrinsic for it, so inline PTX. Outputs start as the
  // fall-back values (tied operands), so a masked-off lane keeps them.
  llvm::Type *regTy = registerType(b, p.wordBits);
  std::vector<llvm::Value *> tied(p.words, nullptr);
  if (!load.other.empty()) {
    std::vector<llvm::Value *> otherWords = toWords(b, load.other, p, /*byShifts=*/true);
    for (int i = 0; i < p.words; ++i)
      tied[i] = regTy == wordTy ? otherWords[i] : b.CreateZExt(otherWords[i], regTy);
  }
  llvm::Value *mask = load.mask ? load.mask : b.getTrue();
  std::string text = "@$" + std::to_string(p.words + 1) + " ld.global" + cacheSuffix(load.cache) +
                     vectorSuffix(p) + " " + operandList(0, p.words) + ", " +
                     addressOperand(p.words, load.byteOffset) + ";";
  std::vector<llvm::Type *> outTypes(p.words, regTy);
  std::vector<llvm::Value *> regs = emitInlinePtx(b, text, outTypes, tied, {load.base, mask});
  if (regTy != wordTy)
    for (auto &r : regs)
      r = b.CreateTrunc(r, wordTy);
  return fromWords(b, regs, load.elementType, load.count, /*byShifts=*/true);
}

void emitGlobalStore(llvm::IRBuilder<> &b, llvm::Value *base, int64_t byteOffset,
                     const std::vector<llvm::Value *> &values, llvm::Value *mask,
                     CacheModifier cache) {
  assert(!values.empty() && "a store of nothing");
  int count = static_cast<int>(values.size());
  int bits = bitsOf(values[0]->getType());
  assert(isVectorAccessWidth(count, bits) && "unsupported global store width");
  Packing p = packingFor(count, bits);
  bool alwaysOn =
      !mask || (llvm::isa<llvm::ConstantInt>(mask) && llvm::cast<llvm::ConstantInt>(mask)->isOne());
  const bool plain = alwaysOn && cache == CacheModifier::None;
  std::vector<llvm::Value *> words = toWords(b, values, p, /*byShifts=*/!plain);
  if (plain) {
    llvm::Type *vecTy = llvm::FixedVectorType::get(b.getIntNTy(p.wordBits), p.words);
    llvm::Value *vec = llvm::PoisonValue::get(vecTy);
    for (int i = 0; i < p.words; ++i)
      vec = b.CreateInsertElement(vec, words[i], b.getInt32(i));
    b.CreateAlignedStore(vec, offsetAddress(b, base, byteOffset),
                         llvm::Align(static_cast<uint64_t>(p.words * p.wordBits / 8)));
    return;
  }
  llvm::Type *regTy = registerType(b, p.wordBits);
  std::vector<llvm::Value *> inputs = {base, mask ? mask : b.getTrue()};
  for (llvm::Value *w : words)
    inputs.push_back(regTy == w->getType() ? w : b.CreateZExt(w, regTy));
  std::string text = "@$1 st.global" + std::string(cacheSuffix(cache)) + vectorSuffix(p) + " " +
                     addressOperand(0, byteOffset) + ", " + operandList(2, p.words) + ";";
  emitInlinePtx(b, text, {}, {}, inputs);
}

} // namespace linlayout::lower
