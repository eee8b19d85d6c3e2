#include "MatrixAccess.h"

#include "InlinePtx.h"
#include "LlvmShim.h"

#include <cassert>

namespace linlayout::lower {

std::vector<llvm::Value *> emitLdmatrix(llvm::IRBuilder<> &b, llvm::Value *rowAddress, int count,
                                        bool trans) {
  assert((count == 1 || count == 2 || count == 4) && "ldmatrix count");
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  llvm::Function *f =
      shim::intrinsic(m, shim::ldmatrixIntrinsic(count, trans), {rowAddress->getType()});
  llvm::Value *r = b.CreateCall(f, {rowAddress});
  std::vector<llvm::Value *> words;
  if (count == 1)
    words.push_back(r);
  else
    for (int i = 0; i < count; ++i)
      words.push_back(b.CreateExtractValue(r, static_cast<unsigned>(i)));
  return words;
}

Status emitStmatrix(llvm::IRBuilder<> &b, const PtxTarget &target, llvm::Value *rowAddress,
                    const std::vector<llvm::Value *> &words, bool trans, llvm::Value *predicate) {
  if (!target.hasSm90Features())
    return makeError("stmatrix needs sm_90 or newer, the target is " + target.name());
  int n = static_cast<int>(words.size());
  assert((n == 1 || n == 2 || n == 4) && "stmatrix count");
  std::string text = (predicate ? "@$" + std::to_string(n + 1) + " " : std::string()) +
                     "stmatrix.sync.aligned.m8n8.x" + std::to_string(n) + (trans ? ".trans" : "") +
                     ".shared.b16 [$0], {";
  for (int i = 0; i < n; ++i)
    text += (i ? ", $" : "$") + std::to_string(i + 1);
  text += "};";
  std::vector<llvm::Value *> inputs = {rowAddress};
  inputs.insert(inputs.end(), words.begin(), words.end());
  if (predicate)
    inputs.push_back(predicate);
  emitInlinePtx(b, text, {}, {}, inputs);
  return Status::success();
}

} // namespace linlayout::lower
