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

  // A function of `words` i32 and `bytes` i8 arguments, the builder at its entry.
  Fixture(int words, int bytes) {
    std::vector<llvm::Type *> types(size_t(words), b.getInt32Ty());
    types.insert(types.end(), size_t(bytes), b.getInt8Ty());
    fn = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), types, false),
                                llvm::Function::ExternalLinkage, "f", module);
    b.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", fn));
  }
  llvm::Value *arg(int i) { return fn->getArg(unsigned(i)); }
};

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
  auto *cast = llvm::dyn_cast<llvm::BitCastInst>(words[0]);
  ASSERT_TRUE(cast);
  std::vector<llvm::Value *> lanes(4, nullptr);
  for (llvm::Value *v = cast->getOperand(0); auto *ins = llvm::dyn_cast<llvm::InsertElementInst>(v);
       v = ins->getOperand(0))
    lanes[llvm::cast<llvm::ConstantInt>(ins->getOperand(2))->getZExtValue()] = ins->getOperand(1);
  EXPECT_EQ(lanes, bytes);
  // A count that is no multiple of 4 stays as it is.
  std::vector<llvm::Value *> three = {f.arg(0), f.arg(1), f.arg(2)};
  EXPECT_EQ(packSubwords(f.b, three), three);
}
