// planConversion: the cheapest correct way to move a tile from one distributed layout to
// another, as an explicit ConversionPlan (see ConversionPlan.h for what each step means).
//
// Both layouts map (register, lane, warp, block) to the same tensor. The planner
//  1. finds, for every destination element, a source copy: in the same thread if one exists,
//     else in the same warp, else in the same CTA, else anywhere (`sourceOf`). The largest
//     level any element needs decides which paths are possible;
//  2. plans every possible path (register moves; warp shuffles; a swizzled shared-memory
//     scratch; the cluster-scoped scratch of distributed shared memory) and costs each with the
//     target's throughput table (GpuTarget.h);
//  3. answers the cheapest, with the others as `alternatives`.
// Simulator.h executes any plan on a virtual CTA and checks it.
#pragma once

#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LayoutSpec.h"

#include <optional>
#include <span>

namespace linlayout {

/// Whether a shared-memory exchange may use a padded scratch (an unswizzled one whose rows are
/// spread out by padding, as #ttg.padded_shared does) in place of the optimal swizzle
/// (ld/st.shared only, one CTA, the same vector widths; docs/conversions.md, "Padding instead").
enum class ScratchPadding : unsigned char {
  Never,        ///< the swizzle (the default)
  WhereCheaper, ///< the padded scratch where the cost model prices it lower
  Always,       ///< the padded scratch wherever one exists: for measuring padding and for tests
};

struct PlanOptions {
  GpuTarget target = GpuTarget::Sm90;
  /// Scratch bytes per CTA above which a shared-memory exchange runs in rounds (when the layouts
  /// share registers to index the rounds).
  int64_t maxScratchBytes = 32 * 1024;
  bool allowShuffles = true;
  bool allowMatrixOps = true;
  /// Plan this path instead of the cheapest (it must be feasible); for tests and explanations.
  std::optional<ConversionPath> forcePath;
  /// dst is an mma operand (a dot_operand over nvidia_mma; the spec overload sets it): between
  /// shared-memory scratches of equal cost, prefer loads that fill consecutive registers, since
  /// mma.sync takes each fragment from consecutive registers and scattered ones cost moves.
  bool dstIsMmaOperand = false;
  /// A padded scratch in place of the swizzle: WhereCheaper takes it where its cycles are fewer,
  /// or as many with fewer instructions issued (address arithmetic counted, AddressCost.h). Off
  /// by default: the lowering's plans stay the swizzled ones.
  ScratchPadding padding = ScratchPadding::Never;
};

/// Plans the conversion of a tile of `elementBits`-bit elements from `src` to `dst`.
/// Requires: src and dst have in dims among register, lane, warp, block (missing ones have size
/// 1) with equal lane, warp and block sizes; the same out dims (names and sizes, any order);
/// every element dst holds is held by src; elementBits in {8, 16, 32, 64}; a cross-CTA exchange
/// needs a target with clusters (sm_90).
/// Ensures: simulateConversion(plan) reports every dst register correct and the wavefronts the
/// plan claims; plan.path is the cheapest feasible path under plan.cost.cycles (unless forced).
Expected<ConversionPlan> planConversion(const LinearLayout &src, const LinearLayout &dst,
                                        int elementBits, const PlanOptions &options = {});

/// planConversion for hardware layout specs over a tensor of `shape`.
/// Requires: both specs are distributed layouts of rank shape.size().
Expected<ConversionPlan> planConversion(const LayoutSpec &src, const LayoutSpec &dst,
                                        std::span<const int64_t> shape, int elementBits,
                                        const PlanOptions &options = {});

} // namespace linlayout
