#include "InlinePtx.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>

#include <cassert>

namespace linlayout::lower {

char ptxConstraint(llvm::Type *t) {
  if (t->isPointerTy())
    return t->getPointerAddressSpace() == 3 ? 'r' : 'l';
  if (t->isIntegerTy(1))
    return 'b';
  if (t->isIntegerTy(8) || t->isIntegerTy(16) || t->isHalfTy() || t->isBFloatTy())
    return 'h';
  if (t->isIntegerTy(32))
    return 'r';
  if (t->isIntegerTy(64))
    return 'l';
  if (t->isFloatTy())
    return 'f';
  if (t->isDoubleTy())
    return 'd';
  return 0;
}

std::vector<llvm::Value *> emitInlinePtx(llvm::IRBuilder<> &b, const std::string &asmText,
                                         const std::vector<llvm::Type *> &outputTypes,
                                         const std::vector<llvm::Value *> &tiedInputs,
                                         const std::vector<llvm::Value *> &inputs, bool pure) {
  std::string constraints;
  std::vector<llvm::Value *> args;
  std::vector<llvm::Type *> argTypes;
  auto comma = [&] {
    if (!constraints.empty())
      constraints += ',';
  };
  for (llvm::Type *t : outputTypes) {
    comma();
    char c = ptxConstraint(t);
    assert(c && "no ptx register class for an inline asm output");
    constraints += std::string("=") + c;
  }
  for (llvm::Value *v : inputs) {
    comma();
    char c = ptxConstraint(v->getType());
    assert(c && "no ptx register class for an inline asm input");
    constraints += c;
    args.push_back(v);
    argTypes.push_back(v->getType());
  }
  for (size_t i = 0; i < tiedInputs.size(); ++i) {
    if (!tiedInputs[i])
      continue;
    assert(tiedInputs[i]->getType() == outputTypes[i] && "tied input type mismatch");
    comma();
    constraints += std::to_string(i);
    args.push_back(tiedInputs[i]);
    argTypes.push_back(tiedInputs[i]->getType());
  }
  if (!pure) {
    comma();
    constraints += "~{memory}";
  }

  llvm::Type *ret = b.getVoidTy();
  if (outputTypes.size() == 1)
    ret = outputTypes[0];
  else if (outputTypes.size() > 1)
    ret = llvm::StructType::get(b.getContext(), outputTypes);
  auto *fnTy = llvm::FunctionType::get(ret, argTypes, false);
  auto *ia = llvm::InlineAsm::get(fnTy, asmText, constraints, /*hasSideEffects=*/!pure);
  llvm::Value *call = b.CreateCall(fnTy, ia, args);
  std::vector<llvm::Value *> outs;
  if (outputTypes.size() == 1)
    outs.push_back(call);
  else
    for (unsigned i = 0; i < outputTypes.size(); ++i)
      outs.push_back(b.CreateExtractValue(call, i));
  return outs;
}

void emitFullRangeDivisions(llvm::Module &m) {
  for (llvm::Function &f : m)
    for (llvm::Instruction &d : llvm::make_early_inc_range(llvm::instructions(f))) {
      if (d.getOpcode() != llvm::Instruction::FDiv || !d.getType()->isFloatTy() ||
          !d.hasApproxFunc())
        continue;
      llvm::IRBuilder<> b(&d);
      d.replaceAllUsesWith(emitInlinePtx(b, "div.full.f32 $0, $1, $2;", {d.getType()}, {},
                                         {d.getOperand(0), d.getOperand(1)}, /*pure=*/true)[0]);
      d.eraseFromParent();
    }
}

} // namespace linlayout::lower
