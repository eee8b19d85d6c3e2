// The check that a distributed layout uses the lanes per warp, warps per CTA and CTAs of the
// module it runs in, as Triton's verifier requires: a 16-lane layout in a 32-lane module would
// leave lanes 16-31 copying lanes 0-15 without a word. Shared-memory layouts have no lanes and are
// exempt; a slice or dot operand has its parent's lanes, warps and CTAs, so its parent is what is
// checked. One difference from Triton: a layout of one CTA is accepted in a module of several,
// since plan-ctas (PlanCtas.h) starts from such layouts and splits them over the CTAs.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LayoutSpec.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace linlayout::ir {

/// What a layout must fit: lanes per warp, and where known warps per CTA and CTAs.
struct LaunchSizes {
  int64_t threadsPerWarp = 32;
  int64_t numWarps = 0; // 0: any
  int64_t numCtas = 0;  // 0: any; otherwise one CTA or numCtas
};

/// The sizes of a module's launch ("ttg.threads-per-warp", "ttg.num-warps", "ttg.num-ctas").
LaunchSizes launchSizes(const Module &m);

/// The lanes per warp a layout's family runs on when no module says: 64 for AMD's MFMA layouts
/// (CDNA wavefronts) and their slices and operands, 32 otherwise (NVIDIA warps, RDNA's WMMA).
int64_t defaultThreadsPerWarp(const LayoutSpec &spec);

/// One count of a layout that differs from what its launch requires.
struct LayoutSizeMismatch {
  const char *what;      // "lanes per warp", "warps" or "CTAs"
  const char *attribute; // the module attribute that sets it: "ttg.threads-per-warp", ...
  int64_t layout = 0, required = 0;

  /// "has 16 lanes per warp", "has 1 warp".
  std::string text() const;
};

/// The first of lanes, warps and CTAs in which `spec` over `shape` differs from `sizes`.
/// Ensures: std::nullopt when spec is shared, when its linear layout cannot be built (the type
/// checks report that) or when its lane, warp and block in-dims have sizes threadsPerWarp,
/// numWarps (unless 0) and 1 or numCtas (unless 0).
/// Example: blocked{[1], [16], [4], [0]} over {256} with {32, 4, 1} -> {"lanes per warp",
/// "ttg.threads-per-warp", 16, 32}.
std::optional<LayoutSizeMismatch> layoutSizeMismatch(const LayoutSpec &spec,
                                                     std::span<const int64_t> shape,
                                                     const LaunchSizes &sizes);

/// The same for a distributed layout already converted to a linear layout.
/// Requires: l has in dims lane, warp and block (a distributed layout's).
std::optional<LayoutSizeMismatch> layoutSizeMismatch(const LinearLayout &l,
                                                     const LaunchSizes &sizes);

/// Checks the distributed layout of every tensor value of `m` against launchSizes(m);
/// verify() calls it last.
/// Requires: each function of m passed the verifier's other checks.
/// Ensures: an error names the function, the value, the layout (its alias where the text gave
/// one, else written in full; a slice or dot operand by its parent) and both counts:
/// `@f: %r: layout #blocked has 16 lanes per warp, the module 32 ("ttg.threads-per-warp")`.
Status verifyLayoutSizes(const Module &m);

} // namespace linlayout::ir
