// The ConversionPlan a convert_layout is lowered with: the planner's (layout/PlanConversion.h),
// asked with the lowering's target.
#pragma once

#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/layout/PlanConversion.h"
#include "linlayout/lower/PtxTarget.h"

namespace linlayout::lower {

/// The plan for moving a tile of `elementBits`-bit elements from `src` to `dst`.
/// Requires: both map (register, lane, warp, block) onto the same tensor dims; elementBits in
/// {8, 16, 32, 64}. With `path`, the plan takes that path (an error where it is not feasible).
/// `dstIsMmaOperand`: dst is a dot_operand of an mma (PlanOptions::dstIsMmaOperand);
/// `padding`: PlanOptions::padding.
Expected<ConversionPlan> planLayoutConversion(const LinearLayout &src, const LinearLayout &dst,
                                              int elementBits, const PtxTarget &target,
                                              std::optional<ConversionPath> path = std::nullopt,
                                              bool dstIsMmaOperand = false,
                                              ScratchPadding padding = ScratchPadding::Never);

} // namespace linlayout::lower
