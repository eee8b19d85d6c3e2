// ttg.warp_specialize is not lowered yet: its regions need branches by warp, register budgets
// and barriers of their own warps. The interpreter runs it.
#include "OpLowering.h"

namespace linlayout::lower {

Status lowerWarpSpecialize(LoweringContext &ctx, const ir::Op &op) {
  return makeError(ctx.where(op) +
                   "ttg.warp_specialize: warp-specialized kernels are not lowered yet (the "
                   "interpreter runs them)");
}

} // namespace linlayout::lower
