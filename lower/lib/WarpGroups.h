// Where the regions of a ttg.warp_specialize run in the kernel's warps, and the register budget
// of each warp group. The default region keeps warps 0..num-warps-1; each partition takes the
// next warps, aligned to its size up to a warp group (a 4-warp partition fills one warp group,
// as wgmma needs); the kernel's warps are rounded up to whole warp groups, because setmaxnreg
// acts on a whole warp group (the padding warps only take part in it and the final barrier).
// With `actualRegisters`, every region of a warp group must ask for one budget, and the budgets
// must fit the register file (64K registers per CTA).
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

#include <cstdint>
#include <vector>

namespace linlayout::lower {

struct WarpGroupPlan {
  /// The first warp of each region (the default region's is 0).
  std::vector<int> start;
  /// The warps of each region.
  std::vector<int> warps;
  /// The kernel's warps (a multiple of 4 when budgets are given).
  int totalWarps = 0;
  /// Per warp group, the registers setmaxnreg sets (empty: no budgets).
  std::vector<int> groupRegisters;
};

/// The plan of one ttg.warp_specialize of `m`.
/// Requires: op is a verified ttg.warp_specialize.
Expected<WarpGroupPlan> planWarpGroups(const ir::Module &m, const ir::Op &op);

/// The warps a kernel of function `f` launches: the module's, or the most any of its
/// warp_specialize ops needs; and the `.maxnreg` it is compiled with (0: none; with register
/// budgets, what every thread holds before setmaxnreg moves registers: as many as fit).
struct KernelWarps {
  int warps = 0;
  int maxRegisters = 0;
};
Expected<KernelWarps> kernelWarps(const ir::Module &m, const ir::Function &f);

} // namespace linlayout::lower
