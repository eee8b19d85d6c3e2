// The layouts of a module, interned: each distinct LayoutSpec gets one LayoutId, so types compare
// layouts by id and passes can key maps on ids. The table also keeps, per layout, the alias name
// the text it was parsed from used (`#blocked1`), so that printing keeps the user's names.
#pragma once

#include "linlayout/ir/Type.h"
#include "linlayout/layout/LayoutSpec.h"

#include <string>
#include <vector>

namespace linlayout::ir {

/// An append-only set of layouts.
class LayoutTable {
public:
  /// The id of `spec`, adding it when new.
  /// Ensures: get(intern(s)) == s; intern(s) == intern(t) exactly when s == t.
  LayoutId intern(const LayoutSpec &spec);
  /// The layout of an id. Requires: id < size() (asserts).
  const LayoutSpec &get(LayoutId id) const;
  size_t size() const { return specs_.size(); }

  /// The alias a parsed text gave the layout ("" when none).
  const std::string &aliasHint(LayoutId id) const;
  /// Remembers an alias for printing. Requires: id < size().
  void setAliasHint(LayoutId id, std::string name);

private:
  std::vector<LayoutSpec> specs_;
  std::vector<std::string> aliases_;
};

} // namespace linlayout::ir
