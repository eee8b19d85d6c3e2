// The one place where the IR's text form meets the layout-attribute syntax
// (`#ttg.blocked<{...}>`, aliases such as `#blocked`): the parser hands the balanced text of an
// attribute here, the printer asks for the text of a layout. Nested parents (slice, dot_op) are
// written as aliases when the printer has one for them.
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LayoutSpec.h"

#include <functional>
#include <string>
#include <string_view>

namespace linlayout::ir::detail {

/// Finds the layout an alias (with its '#') names, or nullptr.
using AliasLookup = std::function<const LayoutSpec *(std::string_view alias)>;
/// The alias (with '#') to print for a nested layout, or "" to print it in full.
using AliasName = std::function<std::string(const LayoutSpec &spec)>;

/// Parses one layout attribute. `rankHint` is the rank of the type the attribute is used in
/// (-1 when unknown), for families whose text does not say their rank (nvmma_shared).
/// Requires: text is the whole attribute, from '#' to its closing '>'.
Expected<LayoutSpec> parseLayoutAttr(std::string_view text, const AliasLookup &aliases,
                                     int rankHint);

/// The text of a layout. Ensures: parseLayoutAttr(printLayoutAttr(s)) == s.
std::string printLayoutAttr(const LayoutSpec &spec, const AliasName &aliasName);

/// The alias stem Triton dumps use for a family ("blocked", "mma", "shared", "linear", ...).
std::string aliasStem(const LayoutSpec &spec);

} // namespace linlayout::ir::detail
