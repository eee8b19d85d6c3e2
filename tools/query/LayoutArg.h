// A layout as a person gives it on a command line: a linear layout or a hardware layout spec in
// JSON, a spec in TritonGPU attribute syntax (`#ttg.blocked<{...}>`, `#name` through a dump's
// aliases), or a tensor type carrying one (`tensor<16x16xf32, #blocked>`, which also gives the
// shape), or a CuTe layout `cute:(4,8):(8,1)` (drawn as the shared layout offset -> dims).
#pragma once

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace linlayout::query {

/// A layout read from an argument: its linear layout, and the spec it came from (none for a
/// linear layout given directly).
struct LayoutArg {
  LinearLayout layout;
  std::optional<LayoutSpec> spec;
};

/// The parts of a tensor type's text `tensor<16x16xf32, #layout>`, views into it.
struct TensorTypeText {
  std::vector<int64_t> shape; ///< {16, 16}
  std::string_view element;   ///< "f32"
  std::string_view layout;    ///< "#layout"
};

/// Splits a tensor type's text (surrounding spaces allowed).
/// Requires: text reads `tensor<` dims `x` element `,` layout `>` (an error saying what is
/// missing otherwise); the layout part is not parsed here.
Expected<TensorTypeText> splitTensorType(std::string_view text);

/// The layout `text` describes. Specs are converted over `shape`; a linear layout keeps its own
/// out-dim sizes, which must then equal `shape` when one is given.
/// Requires: text is one of the forms above; a shape is given (or carried by a tensor type)
/// for a spec; errors say which form was read and what was wrong.
Expected<LayoutArg> layoutFromArg(std::string_view text,
                                  const std::optional<std::vector<int64_t>> &shape,
                                  const AttrAliases &aliases = {});

} // namespace linlayout::query
