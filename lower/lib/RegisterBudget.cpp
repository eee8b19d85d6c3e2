#include "RegisterBudget.h"

#include "SharedDeclaration.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <algorithm>

namespace linlayout::lower {

int64_t registerBudget(int threads) {
  assert(threads >= 32 && threads <= 1024 && "threads per block out of range");
  return std::min<int64_t>(255, 65536 / threads);
}

int blockThreads(const llvm::Function &f) {
  int threads = 0;
  if (const llvm::NamedMDNode *md = f.getParent()->getNamedMetadata("nvvm.annotations"))
    for (const llvm::MDNode *n : md->operands()) {
      if (n->getNumOperands() != 3)
        continue;
      const auto *fn = llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(n->getOperand(0).get());
      const auto *key = llvm::dyn_cast_or_null<llvm::MDString>(n->getOperand(1).get());
      const auto *value = llvm::dyn_cast_or_null<llvm::ConstantAsMetadata>(n->getOperand(2).get());
      if (!fn || fn->getValue() != &f || !key || !value ||
          (key->getString() != "maxntidx" && key->getString() != "reqntidx"))
        continue;
      if (const auto *c = llvm::dyn_cast<llvm::ConstantInt>(value->getValue()))
        threads = int(c->getZExtValue());
    }
  return threads;
}

int64_t registerBudget(const llvm::Function &f) {
  const int threads = blockThreads(f);
  return threads > 0 ? registerBudget(threads) : 255;
}

int64_t packedWords(int64_t elements, int elementBits) {
  return (elements * elementBits + 31) / 32;
}

Expected<int64_t> tileWords(LayoutCache &layouts, const ir::Type &t) {
  LL_ASSIGN_OR_RETURN(LinearLayout ll, layouts.of(t));
  return packedWords(int64_t(ll.inDimSize(DimName::reg())), exchangeElementBits(t));
}

} // namespace linlayout::lower
