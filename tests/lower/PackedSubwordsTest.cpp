// Sub-word registers in 32-bit words (PackedHalves.h): the parts of a split word, halves or bytes,
// join back into that very word (no instruction, so a tile that crosses a loop's back edge in
// words reaches a wgmma operand in the registers it arrived in), and parts from anywhere else
// pack lowest first.
#include "PackedHalves.h"

#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

using namespace linlayout::lower;

namespace {

struct Fixture {
  llvm::LLVMContext context;
  llvm::Module module{"packed", context};
  llvm::IRBuilder<> b{context};
  llvm::Function *fn = nullptr;

  // A function of `words` i32, `bytes` i8 and `halves` i16 arguments, the builder at its entry.
  Fixture(int words, int bytes, int halves = 0) {
    std::vector<llvm::Type *> types(size_t(words), b.getInt32Ty());
    types.insert(types.end(), size_t(bytes), b.getInt8Ty());
    types.insert(types.end(), size_t(halves), b.getInt16Ty());
    fn = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), types, false),
                                llvm::Function::ExternalLinkage, "f", module);
    b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", fn));
  }
  llvm::Value *arg(int i) { return fn->getArg(unsigned(i)); }
};

// The values a word packed anew holds, lane by lane: the inserts under its bitcast (empty where
// the word is no such bitcast).
std::vector<llvm::Value *> packedLanes(llvm::Value *word) {
  auto *cast = llvm::dyn_cast<llvm::BitCastInst>(word);
  auto *vt = cast ? llvm::dyn_cast<llvm::FixedVectorType>(cast->getOperand(0)->getType()) : nullptr;
  if (!vt)
    return {};
  std::vector<llvm::Value *> lanes(vt->getNumElements(), nullptr);
  for (llvm::Value *v = cast->getOperand(0); auto *ins = llvm::dyn_cast<llvm::InsertElementInst>(v);
       v = ins->getOperand(0))
    lanes[llvm::cast<llvm::ConstantInt>(ins->getOperand(2))->getZExtValue()] = ins->getOperand(1);
  return lanes;
}

} // namespace

TEST(PackedSubwords, SplitWordsJoinBackIntoThemselves) {
  Fixture f(2, 0);
  std::vector<llvm::Value *> words = {f.arg(0), f.arg(1)};
  // As bytes: 8 i8 registers, then the same two words again.
  std::vector<llvm::Value *> like(8, llvm::ConstantInt::get(f.b.getInt8Ty(), 0));
  std::vector<llvm::Value *> bytes = unpackSubwords(f.b, words, like);
  ASSERT_EQ(bytes.size(), 8u);
  EXPECT_EQ(packSubwords(f.b, bytes), words);
  EXPECT_EQ(joinWord(f.b, {bytes[4], bytes[5], bytes[6], bytes[7]}), words[1]);
  // Out of order, or from two words, they are packed anew.
  EXPECT_NE(joinWord(f.b, {bytes[1], bytes[0], bytes[2], bytes[3]}), words[0]);
  EXPECT_NE(joinWord(f.b, {bytes[0], bytes[1], bytes[6], bytes[7]}), words[0]);
  // As halves: 4 f16 registers.
  std::vector<llvm::Value *> halfLike(4, llvm::ConstantFP::get(f.b.getHalfTy(), 0.0));
  std::vector<llvm::Value *> halves = unpackSubwords(f.b, words, halfLike);
  ASSERT_EQ(halves.size(), 4u);
  EXPECT_TRUE(halves[0]->getType()->isHalfTy());
  EXPECT_EQ(packSubwords(f.b, halves), words);
}

TEST(PackedSubwords, BytesPackLowestFirst) {
  Fixture f(0, 4);
  std::vector<llvm::Value *> bytes = {f.arg(0), f.arg(1), f.arg(2), f.arg(3)};
  std::vector<llvm::Value *> words = packSubwords(f.b, bytes);
  ASSERT_EQ(words.size(), 1u);
  // bitcast (insertelement ... byte i at lane i) to i32: lane 0 is the low byte.
  EXPECT_EQ(packedLanes(words[0]), bytes);
  // A count that is no multiple of 4 stays as it is.
  std::vector<llvm::Value *> three = {f.arg(0), f.arg(1), f.arg(2)};
  EXPECT_EQ(packSubwords(f.b, three), three);
}

// The bytes of two 16-bit registers (as a cvt to two e4m3 values gives them: trunc, and trunc of
// a shift by 8), in order, make a word of those two registers, not four byte inserts.
TEST(PackedSubwords, BytePairsOfHalvesJoinAsTheirHalves) {
  Fixture f(0, 0, 2);
  llvm::IRBuilder<> &b = f.b;
  std::vector<llvm::Value *> bytes;
  for (int i : {0, 1})
    for (int shift : {0, 8})
      bytes.push_back(
          b.CreateTrunc(shift ? b.CreateLShr(f.arg(i), shift) : f.arg(i), b.getInt8Ty()));
  EXPECT_EQ(packedLanes(joinWord(b, bytes)), (std::vector<llvm::Value *>{f.arg(0), f.arg(1)}));
  // The high byte first is no such pair: four bytes.
  EXPECT_EQ(packedLanes(joinWord(b, {bytes[1], bytes[0], bytes[2], bytes[3]})).size(), 4u);
}
