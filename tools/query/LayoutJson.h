// Linear layouts in the JSON form of docs/query.md:
//   {"in_dims": [["register", [[0,1],[0,2]]], ...], "out_dims": [["dim0", 32], ["dim1", 16]]}
#pragma once

#include "linlayout/layout/LinearLayout.h"
#include "query/JsonUtil.h"

namespace linlayout::query {

/// Parses a linear layout. `what` names it in error messages (e.g. "a").
Expected<LinearLayout> layoutFromJson(const Json &j, const std::string &what);
/// Writes a linear layout.
Json layoutToJson(const LinearLayout &l);
/// Parses `[[dim, value], ...]`.
Expected<std::vector<std::pair<std::string, uint64_t>>>
namedValuesFromJson(const Json &j, const std::string &what);
/// Interns a user-given dimension name, with an error for names that cannot be one.
Expected<DimName> dimNameFrom(const std::string &text, const std::string &what);

} // namespace linlayout::query
