// ConversionPlans as JSON: the summary the `plan` query op answers and `linlayout plan --json`
// prints (path, steps, instruction counts, wavefronts, scratch bytes, estimated cycles, the
// alternatives considered). Layout-valued fields use the linear-layout JSON of LayoutJson.h.
#pragma once

#include "linlayout/layout/ConversionPlan.h"
#include "query/JsonUtil.h"

namespace linlayout::query {

/// The plan as JSON. With `detail`, each step also lists its instructions (registers, offsets)
/// and the per-thread maps, everything a code generator needs.
/// Ensures: "path", "target", "bitwidth", "steps", "counts", "wavefronts", "scratch_bytes",
/// "cycles" and "alternatives" are always present.
Json planToJson(const ConversionPlan &plan, bool detail);

} // namespace linlayout::query
