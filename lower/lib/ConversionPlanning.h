// The ConversionPlan a convert_layout is lowered with: the planner's (layout/PlanConversion.h),
// and a plain but correct one of lower/'s own (no-op, register permutation, or a row-major
// shared-memory round trip with the widest vectors both sides allow) for pairs the planner
// declines.
#pragma once

#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/lower/PtxTarget.h"

namespace linlayout::lower {

/// The plan for moving a tile of `elementBits`-bit elements from `src` to `dst`.
/// Requires: both map (register, lane, warp, block) onto the same tensor dims; elementBits in
/// {8, 16, 32, 64}. With `path`, the plan takes that path (an error where it is not feasible).
/// `dstIsMmaOperand`: dst is a dot_operand of an mma (PlanOptions::dstIsMmaOperand).
Expected<ConversionPlan> planLayoutConversion(const LinearLayout &src, const LinearLayout &dst,
                                              int elementBits, const PtxTarget &target,
                                              std::optional<ConversionPath> path = std::nullopt,
                                              bool dstIsMmaOperand = false);

/// The plan lower/ builds itself, used where the planner declines.
Expected<ConversionPlan> fallbackConversionPlan(const LinearLayout &src, const LinearLayout &dst,
                                                int elementBits);

/// Whether plans come from layout/'s planner (always, in this build).
bool hasConversionPlanner();

} // namespace linlayout::lower
