#include "linlayout/ir/LayoutTable.h"

#include <cassert>

namespace linlayout::ir {

LayoutId LayoutTable::intern(const LayoutSpec &spec) {
  // Modules hold a handful of layouts; a linear scan is cheaper than hashing nested specs.
  for (size_t i = 0; i < specs_.size(); ++i)
    if (specs_[i] == spec)
      return LayoutId(i);
  specs_.push_back(spec);
  aliases_.emplace_back();
  return LayoutId(specs_.size() - 1);
}

const LayoutSpec &LayoutTable::get(LayoutId id) const {
  assert(id < specs_.size() && "layout id out of range");
  return specs_[id];
}

const std::string &LayoutTable::aliasHint(LayoutId id) const {
  assert(id < aliases_.size() && "layout id out of range");
  return aliases_[id];
}

void LayoutTable::setAliasHint(LayoutId id, std::string name) {
  assert(id < aliases_.size() && "layout id out of range");
  aliases_[id] = std::move(name);
}

} // namespace linlayout::ir
