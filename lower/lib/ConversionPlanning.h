// The ConversionPlan a convert_layout is lowered with: the planner's (layout/PlanConversion.h)
// when this build has it, else a plain but correct one (no-op, register permutation, or a
// row-major shared-memory round trip with the widest vectors both sides allow).
#pragma once

#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/lower/PtxTarget.h"

namespace linlayout::lower {

/// The plan for moving a tile of `elementBits`-bit elements from `src` to `dst`.
/// Requires: both map (register, lane, warp, block) onto the same tensor dims; elementBits in
/// {8, 16, 32, 64}.
Expected<ConversionPlan> planLayoutConversion(const LinearLayout &src, const LinearLayout &dst,
                                              int elementBits, const PtxTarget &target);

/// The plan lower/ builds itself (what planLayoutConversion answers without the planner).
Expected<ConversionPlan> fallbackConversionPlan(const LinearLayout &src, const LinearLayout &dst,
                                                int elementBits);

/// Whether this build plans conversions with layout/'s planner.
bool hasConversionPlanner();

} // namespace linlayout::lower
