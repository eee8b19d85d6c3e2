#include "SharedBytesTag.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Metadata.h>

#include <cstring>
#include <iterator>
#include <string>

namespace linlayout::lower {

namespace {

constexpr const char *kDomain = "linlayout.shared";
constexpr const char *kScope = "linlayout.shared_bytes:";

} // namespace

SharedBytesTag::SharedBytesTag(llvm::IRBuilder<> &b, ByteRange bytes) : b_(b), bytes_(bytes) {
  if (bytes == ByteRange::everything())
    return;
  block_ = b.GetInsertBlock();
  if (block_ && b.GetInsertPoint() != block_->begin())
    before_ = &*std::prev(b.GetInsertPoint());
}

SharedBytesTag::~SharedBytesTag() {
  if (!block_ || b_.GetInsertBlock() != block_)
    return;
  // An alias scope named after the bytes, in a domain of our own: LLVM's optimizations keep a
  // load's alias scopes where they rewrite it (they drop unknown metadata kinds), and without a
  // !noalias list nothing in LLVM concludes anything from it.
  llvm::LLVMContext &c = block_->getContext();
  llvm::MDBuilder mdb(c);
  llvm::MDNode *domain = mdb.createAliasScopeDomain(kDomain);
  llvm::MDNode *scope = mdb.createAliasScope(std::string(kScope) + std::to_string(bytes_.begin) +
                                                 ":" + std::to_string(bytes_.end),
                                             domain);
  llvm::MDNode *list = llvm::MDNode::get(c, {scope});
  auto from = before_ ? std::next(before_->getIterator()) : block_->begin();
  for (auto it = from; it != b_.GetInsertPoint(); ++it)
    if (it->mayReadOrWriteMemory())
      it->setMetadata(llvm::LLVMContext::MD_alias_scope, list);
}

std::optional<ByteRange> taggedSharedBytes(const llvm::Instruction &i) {
  const llvm::MDNode *list = i.getMetadata(llvm::LLVMContext::MD_alias_scope);
  if (!list || list->getNumOperands() != 1)
    return std::nullopt;
  const auto *scope = llvm::dyn_cast<llvm::MDNode>(list->getOperand(0));
  const auto *name = scope && scope->getNumOperands() >= 1
                         ? llvm::dyn_cast<llvm::MDString>(scope->getOperand(0))
                         : nullptr;
  if (!name || !name->getString().starts_with(kScope))
    return std::nullopt;
  llvm::StringRef rest = name->getString().drop_front(std::strlen(kScope));
  auto [first, second] = rest.split(':');
  ByteRange r;
  if (first.getAsInteger(10, r.begin) || second.getAsInteger(10, r.end))
    return std::nullopt;
  return r;
}

} // namespace linlayout::lower
