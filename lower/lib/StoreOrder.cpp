#include "StoreOrder.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <algorithm>
#include <numeric>

namespace linlayout::lower {

namespace {

// Instructions a stored value is computed through from its loads, none of which reads memory or
// synchronizes: what a conversion or an elementwise op puts between a load and a store.
bool transparent(const llvm::Instruction &i) {
  if (llvm::isa<llvm::CastInst>(i) || llvm::isa<llvm::ExtractElementInst>(i) ||
      llvm::isa<llvm::InsertElementInst>(i) || llvm::isa<llvm::ShuffleVectorInst>(i) ||
      llvm::isa<llvm::ExtractValueInst>(i) || llvm::isa<llvm::SelectInst>(i) ||
      llvm::isa<llvm::BinaryOperator>(i))
    return true;
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&i);
  return call && call->getIntrinsicID() == llvm::Intrinsic::nvvm_prmt;
}

// The earliest load of `block` that `values` are computed from, or null. The walk visits a few
// dozen instructions at most: a stored value is a handful of steps from its loads.
const llvm::Instruction *earliestLoad(const std::vector<llvm::Value *> &values,
                                      const llvm::BasicBlock *block) {
  constexpr size_t kMostVisited = 64;
  std::vector<const llvm::Instruction *> todo, seen;
  for (const llvm::Value *v : values)
    if (const auto *i = llvm::dyn_cast<llvm::Instruction>(v))
      todo.push_back(i);
  const llvm::Instruction *earliest = nullptr;
  while (!todo.empty() && seen.size() < kMostVisited) {
    const llvm::Instruction *i = todo.back();
    todo.pop_back();
    if (i->getParent() != block || std::find(seen.begin(), seen.end(), i) != seen.end())
      continue;
    seen.push_back(i);
    if (llvm::isa<llvm::LoadInst>(i)) {
      if (!earliest || i->comesBefore(earliest))
        earliest = i;
    } else if (transparent(*i)) {
      for (const llvm::Value *op : i->operands())
        if (const auto *d = llvm::dyn_cast<llvm::Instruction>(op))
          todo.push_back(d);
    }
  }
  return earliest;
}

} // namespace

std::vector<size_t> storeOrderByLoads(const std::vector<std::vector<llvm::Value *>> &groups,
                                      const llvm::BasicBlock *block) {
  std::vector<size_t> order(groups.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::vector<const llvm::Instruction *> first(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    first[g] = earliestLoad(groups[g], block);
    if (!first[g])
      return order;
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return first[a] != first[b] && first[a]->comesBefore(first[b]);
  });
  return order;
}

} // namespace linlayout::lower
