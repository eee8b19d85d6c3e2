// Emits a ConversionPlan (layout/ConversionPlan.h) as LLVM IR, step by step and nothing more: the
// plan already chose every shuffle, select, packing, scratch address, vector width, matrix
// instruction and barrier, and says what each costs; this file turns each into the instruction
// it names, so the emitted counts are the plan's counts.
//
// Per-thread quantities of the plan are (constant XOR linear function of the thread); the linear
// part is computed once per map with the layout index code (LayoutIndex.h), the constant is
// folded into immediates where its bits never meet the thread's. A choice that depends on the
// thread among 2^k candidates is a select tree of 2^k - 1 selects keyed on k pivot bits.
#pragma once

#include "SharedHazards.h"

#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/lower/PtxTarget.h"

#include <llvm/IR/IRBuilder.h>

#include <functional>
#include <vector>

namespace linlayout::lower {

/// Where a conversion runs.
struct ConversionEnv {
  /// %tid.x (lane in bits 0-4, warp above) and the CTA id within the cluster (i32; may be null
  /// for single-CTA layouts).
  llvm::Value *thread = nullptr;
  llvm::Value *block = nullptr;
  /// Makes (once) the warp id (%tid.x >> 5) as a warp-uniform value; may be empty. A store
  /// predicate of warp bits reads it: ptxas branches around a uniform condition, where from
  /// %tid.x it issues the skipped stores predicated off in every warp, which still costs the
  /// shared-memory pipe.
  std::function<llvm::Value *()> uniformWarp;
  /// The scratch (addrspace(3), 16-byte aligned) for shared-memory paths.
  llvm::Value *scratch = nullptr;
  /// What the first round's stores need before them: a bar.sync where other threads may still
  /// read or write the scratch, a bar.warp.sync where only the same warps may, or nothing.
  SyncNeeded leadingSync = SyncNeeded::Cta;
  /// Whether the plan's own syncs (between each round's stores and loads, and before the later
  /// rounds) are bar.warp.sync: right only where plan.shared.withinWarps.
  bool warpSyncs = false;
  PtxTarget target;
};

/// The syncs the shared-memory (or distributed shared memory) `plan` emits under `env`.
struct SharedSyncs {
  int barriers = 0;        ///< bar.sync
  int warpSyncs = 0;       ///< bar.warp.sync
  int clusterBarriers = 0; ///< barrier.cluster.arrive + wait (through distributed shared memory)
};
SharedSyncs sharedSyncs(const ConversionEnv &env, const ConversionPlan &plan);

/// Emits the conversion of `src` (one value per source register, all of one type of
/// plan.elementBits bits) and returns one value per destination register.
/// Requires: the plan came from planConversion (or has the same meaning); a shared-memory plan
/// needs env.scratch with plan.shared.scratchBytes; stmatrix and distributed shared memory need
/// sm_90.
Expected<std::vector<llvm::Value *>> emitConversion(llvm::IRBuilder<> &b, const ConversionEnv &env,
                                                    const ConversionPlan &plan,
                                                    const std::vector<llvm::Value *> &src);

} // namespace linlayout::lower
