#include "LayoutSyntax.h"

namespace linlayout::ir::detail {

Expected<LayoutSpec> parseLayoutAttr(std::string_view text, const AttrAliases &aliases,
                                     int rankHint) {
  AttrParseOptions options;
  if (rankHint > 0)
    options.rank = rankHint;
  LL_ASSIGN_OR_RETURN(LayoutSpec spec, linlayout::parseLayoutAttr(text, aliases, options));
  // Lowering addresses shared memory by a layout's offsets; a padded layout's addresses are not
  // its offsets, so it would be lowered wrongly.
  if (!sharedPadding(spec).empty())
    return makeError(std::string(kindName(spec.kind())) +
                     " layouts are not supported in the IR yet (their addresses are not linear)");
  return spec;
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
