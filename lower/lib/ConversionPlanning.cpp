#include "ConversionPlanning.h"

#include "linlayout/layout/PlanConversion.h"

namespace linlayout::lower {

Expected<ConversionPlan> planLayoutConversion(const LinearLayout &src, const LinearLayout &dst,
                                              int elementBits, const PtxTarget &target,
                                              std::optional<ConversionPath> path,
                                              bool dstIsMmaOperand, ScratchPadding padding) {
  PlanOptions options;
  options.padding = padding;
  options.forcePath = path;
  options.dstIsMmaOperand = dstIsMmaOperand;
  options.target = target.sm >= 90 ? linlayout::GpuTarget::Sm90 : linlayout::GpuTarget::Sm80;
  return planConversion(src, dst, elementBits, options);
}

} // namespace linlayout::lower
