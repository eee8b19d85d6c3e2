#include "LayoutSyntax.h"

namespace linlayout::ir::detail {

Expected<LayoutSpec> parseLayoutAttr(std::string_view text, const AttrAliases &aliases,
                                     int rankHint) {
  AttrParseOptions options;
  if (rankHint > 0)
    options.rank = rankHint;
  return linlayout::parseLayoutAttr(text, aliases, options);
}

std::string printLayoutAttr(const LayoutSpec &spec, const AliasName &aliasName) {
  std::string text = linlayout::printLayoutAttr(spec);
  // Parents are printed inline; swap each for its alias (walking down nested parents).
  const LayoutSpec *cur = &spec;
  for (int depth = 0; depth < kMaxAttrDepth && aliasName; ++depth) {
    const LayoutSpec *parent = nullptr;
    if (const auto *s = cur->as<SliceSpec>())
      parent = &s->parent();
    else if (const auto *d = cur->as<DotOperandSpec>())
      parent = &d->parent();
    if (!parent)
      break;
    std::string alias = aliasName(*parent);
    if (!alias.empty()) {
      std::string inner = linlayout::printLayoutAttr(*parent);
      size_t at = text.find(inner);
      if (at != std::string::npos)
        text.replace(at, inner.size(), alias);
      break;
    }
    cur = parent;
  }
  return text;
}

std::string aliasStem(const LayoutSpec &spec) { return std::string(attrAliasStem(spec)); }

} // namespace linlayout::ir::detail
