// Hardware layout specs in the JSON form of docs/query.md ("Hardware layout specs"):
//   {"kind": "blocked", "size_per_thread": [1, 8], "threads_per_warp": [16, 2],
//    "warps_per_cta": [1, 1], "order": [1, 0]}
// or a string in TritonGPU's attribute syntax ("#ttg.blocked<{...}>"), handed to specFromText.
// Reading is strict: unknown fields, wrong types, negative, zero or huge values are errors that
// name the field.
#pragma once

#include "linlayout/layout/LayoutSpec.h"
#include "query/JsonUtil.h"

#include <string>
#include <string_view>

namespace linlayout::query {

/// Reads a spec; `what` names it in errors (e.g. "layout").
/// Requires: j is an object as in docs/query.md, or a string in the attribute syntax.
/// Ensures: specFromJson(specToJson(s)) == s for every spec s.
Expected<LayoutSpec> specFromJson(const Json &j, const std::string &what);

/// Writes a spec as JSON (CGA splits as `cga_layout` bases; omitted when there is one CTA).
Json specToJson(const LayoutSpec &spec);

/// Reads a spec written in TritonGPU's attribute syntax. Provided by the attribute-syntax parser.
Expected<LayoutSpec> specFromText(std::string_view text);

} // namespace linlayout::query
