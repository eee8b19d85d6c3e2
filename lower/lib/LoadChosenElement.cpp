#include "LoadChosenElement.h"

#include "RegisterBudget.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <vector>

namespace linlayout::lower {

namespace {

bool plainGlobalLoad(const llvm::Instruction &i) {
  const auto *ld = llvm::dyn_cast<llvm::LoadInst>(&i);
  return ld && ld->isSimple() && ld->getPointerAddressSpace() == 1;
}

// A store to global memory: a plain one or GlobalAccess.cpp's predicated inline PTX.
bool globalStore(const llvm::Instruction &i) {
  if (const auto *st = llvm::dyn_cast<llvm::StoreInst>(&i))
    return st->getPointerAddressSpace() == 1;
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
  const auto *asmFn = call ? llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()) : nullptr;
  return asmFn && llvm::StringRef(asmFn->getAsmString()).starts_with("@$1 st.global");
}

// The 32-bit words that global loads of `bb` bring in ahead of its first global store.
int64_t wordsLoadedAheadOfStore(const llvm::BasicBlock &bb) {
  const llvm::DataLayout &dl = bb.getModule()->getDataLayout();
  int64_t words = 0;
  for (const llvm::Instruction &i : bb) {
    if (globalStore(i))
      break;
    if (plainGlobalLoad(i))
      words += int64_t(dl.getTypeSizeInBits(i.getType()).getFixedValue() + 31) / 32;
  }
  return words;
}

// Rewrites `sel` when it picks between two constant-index elements of one vector global load
// used by nothing else.
void rewrite(llvm::SelectInst &sel, const llvm::DataLayout &dl) {
  auto *a = llvm::dyn_cast<llvm::ExtractElementInst>(sel.getTrueValue());
  auto *b = llvm::dyn_cast<llvm::ExtractElementInst>(sel.getFalseValue());
  if (!a || !b || a == b || a->getVectorOperand() != b->getVectorOperand() || !a->hasOneUse() ||
      !b->hasOneUse())
    return;
  auto *ld = llvm::dyn_cast<llvm::LoadInst>(a->getVectorOperand());
  auto *ia = llvm::dyn_cast<llvm::ConstantInt>(a->getIndexOperand());
  auto *ib = llvm::dyn_cast<llvm::ConstantInt>(b->getIndexOperand());
  if (!ld || !plainGlobalLoad(*ld) || !ia || !ib || !ld->hasNUses(2))
    return;
  llvm::Type *elem = sel.getType();
  // The element is loaded where the vector was, or just after the condition where that comes
  // later and nothing between writes memory.
  llvm::Instruction *at = ld;
  llvm::Value *cond = sel.getCondition();
  if (auto *c = llvm::dyn_cast<llvm::Instruction>(cond)) {
    if (c->getParent() != ld->getParent()) {
      // Another block: only the entry block, which comes before every other.
      if (c->getParent() != &c->getFunction()->getEntryBlock())
        return;
    } else if (ld->comesBefore(c)) {
      if (llvm::isa<llvm::PHINode>(c))
        return;
      for (llvm::Instruction *i = ld->getNextNode(); i != c->getNextNode(); i = i->getNextNode())
        if (i->mayWriteToMemory() || i->mayThrow() || !i->willReturn())
          return;
      at = c->getNextNode();
    }
  }
  llvm::IRBuilder<> ir(at);
  llvm::Value *index =
      ir.CreateSelect(cond, ir.getInt64(ia->getZExtValue()), ir.getInt64(ib->getZExtValue()));
  llvm::Value *address = ir.CreateGEP(elem, ld->getPointerOperand(), index);
  llvm::Align align =
      llvm::commonAlignment(ld->getAlign(), dl.getTypeAllocSize(elem).getFixedValue());
  llvm::LoadInst *one = ir.CreateAlignedLoad(elem, address, align);
  sel.replaceAllUsesWith(one);
  sel.eraseFromParent();
  a->eraseFromParent();
  b->eraseFromParent();
  ld->eraseFromParent();
}

} // namespace

void loadChosenElements(llvm::Module &m) {
  for (llvm::Function &f : m) {
    const int64_t budget = registerBudget(f);
    for (llvm::BasicBlock &bb : f) {
      if (wordsLoadedAheadOfStore(bb) <= budget)
        continue;
      std::vector<llvm::SelectInst *> selects;
      for (llvm::Instruction &i : bb)
        if (auto *sel = llvm::dyn_cast<llvm::SelectInst>(&i))
          selects.push_back(sel);
      for (llvm::SelectInst *sel : selects)
        rewrite(*sel, m.getDataLayout());
    }
  }
}

} // namespace linlayout::lower
