// The one place where the IR's text form meets the layout-attribute syntax of layout/
// (AttrSyntax.h): the parser hands the balanced text of an attribute here, the printer asks for
// the text of a layout with the parents of slice and dot_op layouts written as aliases.
#pragma once

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LayoutSpec.h"

#include <functional>
#include <string>
#include <string_view>

namespace linlayout::ir::detail {

/// The alias (with '#') to print for a nested layout, or "" to print it in full.
using AliasName = std::function<std::string(const LayoutSpec &spec)>;

/// Parses one layout attribute. `rankHint` is the rank of the type the attribute is used in
/// (-1 when unknown), for families whose text does not say their rank (nvmma_shared).
Expected<LayoutSpec> parseLayoutAttr(std::string_view text, const AttrAliases &aliases,
                                     int rankHint);

/// The text of a layout, parents written as aliases where aliasName has one.
/// Ensures: parseLayoutAttr(printLayoutAttr(s)) == s (with the aliases defined).
std::string printLayoutAttr(const LayoutSpec &spec, const AliasName &aliasName);

/// The alias stem Triton dumps use for a family ("blocked", "mma", "shared", "linear", ...).
std::string aliasStem(const LayoutSpec &spec);

} // namespace linlayout::ir::detail
