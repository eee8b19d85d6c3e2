// lower/: tile IR -> PTX.
//
// Semantics note. A verified tile-IR kernel becomes one `.entry` of the same name. Every tensor
// value becomes one LLVM value per register of its linear layout (duplicates included); its
// element (register r, lane l, warp w, block b) is the layout's image of (r, l, w, b). Ops move
// data only as their layouts say: elementwise and shape ops stay in the thread, loads and stores
// are vectorised to the width the IR recorded (`ll.vec`), convert_layout follows the conversion
// planner's plan step by step, dot becomes mma.sync (or FMA), reduce shuffles across lanes and
// meets across warps in shared memory. LLVM's NVPTX backend writes the PTX; LLVM types never
// leave lower/'s .cpp files.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/layout/PlanConversion.h"
#include "linlayout/lower/KernelPtx.h"
#include "linlayout/lower/PtxTarget.h"

#include <optional>
#include <string>
#include <vector>

namespace linlayout::lower {

/// How to lower.
struct LowerOptions {
  /// The GPU; when unset, the module's `ttg.target` ("cuda:80" -> sm_80, "cuda:90" -> sm_90).
  std::optional<PtxTarget> target;
  /// The function to lower; empty: the module's only public function.
  std::string kernel;
  /// Run LLVM's O3 pipeline before code generation.
  bool optimize = true;
  /// Also return the (optimised) LLVM IR text.
  bool keepLlvmIr = false;
  /// Bracket each convert_layout's instructions with PTX comments naming it and its plan
  /// (`// begin convert_layout at file:line ...`), for reading the output. The markers are
  /// inline asm, so they also keep LLVM from moving code across them.
  bool annotateConversions = false;
  /// Lower every layout conversion (each convert_layout, and each trans or reshape that moves
  /// data) on this path instead of the cheapest; an error naming the op where the path is not
  /// feasible for it (shuffles cannot cross warps, for one). For measuring the cost model
  /// against the GPU (bench/gpu) and for comparing paths by hand.
  std::optional<ConversionPath> conversionPath;
  /// Whether a conversion through shared memory may use a padded scratch in place of the swizzle
  /// (PlanOptions::padding: where the cost model prices it lower, or always, for measuring it;
  /// docs/conversions.md, "Padding instead"). Never by default: see docs/conversions.md for the
  /// H200 measurement that decides it.
  ScratchPadding conversionPadding = ScratchPadding::Never;
  /// Let a float multiply and the add or subtract that takes its product fuse into one fma
  /// (rounded once), as Triton does by default (`enable_fp_fusion`). Off: every arith op is
  /// rounded on its own, as the interpreter computes it, so that adds, subtracts and multiplies
  /// match it bit for bit (the SFU's exp2, log2 and rsqrt still approximate).
  bool fpFusion = true;
};

/// One convert_layout of the kernel and how it was lowered.
struct ConversionReport {
  std::string where; ///< "file:line:col"
  std::string path;  ///< "no_op", "register_permute", "warp_shuffle", "shared_memory", ...
  /// The plan's instruction counts (per warp; barriers per CTA, those emitted: the first
  /// round's barrier is left out where nothing may still touch the scratch, and every barrier
  /// is a warp sync where the scratch stays in warps).
  int shuffles = 0, selects = 0, prmts = 0, sharedStores = 0, sharedLoads = 0, stmatrix = 0,
      ldmatrix = 0, barriers = 0;
  /// bar.warp.sync emitted in place of barriers: where every scratch byte is stored and loaded
  /// by one warp, and before the first round where only this conversion's warps touched it.
  int warpSyncs = 0;
  /// The plan's barriers (ConversionCost::barriers, what `linlayout plan` counts): more than
  /// `barriers` where the first round's was left out.
  int plannedBarriers = 0;
  /// barrier.cluster.arrive + wait pairs (a conversion between the CTAs of a cluster, through
  /// distributed shared memory: between each round's stores and loads, before later rounds'
  /// stores, and after the last loads).
  int clusterBarriers = 0;
  int64_t scratchBytes = 0;
  /// A padded scratch's interval/padding pairs as #ttg.padded_shared writes them ("128:+4");
  /// empty for a swizzled one (LowerOptions::conversionPadding).
  std::string padding;
};

/// A dot operand the lowering loaded from shared memory in K slices (docs/lowering.md, "Dot
/// operands in K slices").
struct SlicedOperandReport {
  std::string where; ///< the tt.dot's "file:line:col"
  int operand = 0;   ///< 0 = A, 1 = B
  int slices = 1;    ///< K slices; 1: loaded whole (the slices' registers did not map)
  int sliceK = 0;    ///< K elements per slice
};

/// How a tt.scan was lowered (LowerScan.cpp): the scanned coordinate's bits by who holds them, and
/// what joining them costs each thread.
struct ScanReport {
  std::string where;        ///< the tt.scan's "file:line:col"
  int registerBits = 0;     ///< scanned bits held by registers: joined in each thread
  int laneBits = 0;         ///< scanned bits held by lanes: a round of shuffles each
  int warpBits = 0;         ///< scanned bits held by warps: joined in shared-memory exchanges
  int shuffles = 0;         ///< shfl.sync.bfly per thread
  int exchanges = 0;        ///< shared-memory exchanges (one bar.sync each)
  int sharedStores = 0;     ///< st.shared per thread
  int64_t scratchBytes = 0; ///< shared memory the exchanges use
};

/// The lowered kernel.
struct LoweredKernel {
  KernelPtx kernel;
  std::string llvmIr;                              ///< when keepLlvmIr
  std::vector<ConversionReport> conversions;       ///< in program order
  std::vector<SlicedOperandReport> slicedOperands; ///< in program order
  std::vector<ScanReport> scans;                   ///< in program order
};

/// Lowers one kernel of `module` to PTX.
/// Requires: verify(module) passes (checked; its error is returned); the target is sm_80..sm_90;
/// the ops and layouts are ones lower/ handles (an error naming the op's position otherwise).
/// Ensures: the PTX declares one entry named as the function, parameters in argument order
/// (pointers as .u64), a block of numWarps * 32 threads (`.reqntid`, or `.maxntid` for kernels
/// with tensor-core dots or warp specialization), and kernel.sharedBytes of dynamic shared
/// memory; every PTX it returns is accepted by ptxas for the target (tested).
Expected<LoweredKernel> lowerKernel(const ir::Module &module, const LowerOptions &options = {});

/// The GPU target a module names in `ttg.target` ("cuda:80", "cuda:90", ...).
Expected<PtxTarget> targetOfModule(const ir::Module &module);

} // namespace linlayout::lower
