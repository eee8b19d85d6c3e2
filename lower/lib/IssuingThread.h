// The one thread that issues the copy engine's and the mbarriers' single-thread instructions
// (TMA copies and stores, mbarrier init, inval and expect_tx): an elected lane of warp 0 of the
// code being lowered (the CTA's, or a warp_specialize region's own first warp). A plain mbarrier
// arrive is issued by lane 0 of that warp instead, predicated (inIssuingWarp).
//
// Warp 0 branches on its warp-uniform id, then `elect.sync` picks one of its lanes. Both are
// branches ptxas knows the shape of: the first is taken by whole warps, the second by one thread,
// so the block it guards runs once and ptxas moves its operands to uniform registers directly.
// Predicating each instruction on "thread 0" instead makes ptxas wrap every one that needs
// uniform operands (UTMALDG, SYNCS) in a loop over the active threads' values.
//
// elect.sync with a full member mask needs every lane of warp 0 at it: the ops are lowered where
// the warp is converged (the tile IR has no thread-dependent control flow). The election is
// deterministic (PTX ISA: the same member mask elects the same lane), so the thread that
// initialises an mbarrier is the one that later fences its init.
#pragma once

#include "LoweringContext.h"

#include <llvm/ADT/STLFunctionalExtras.h>

namespace linlayout::lower {

/// elect.sync _|p, 0xffffffff: true in one lane of the warp. Marked convergent, so LLVM neither
/// duplicates it into nor moves it across control flow. Requires: sm_90, every lane at it.
llvm::Value *emitElectSync(llvm::IRBuilder<> &b);

/// Emits `emit()` in a block that only the issuing thread enters (where `pred`, an i1 or null for
/// always, holds); the builder stands after it on return. Requires: the warp is converged.
void inIssuingThread(LoweringContext &ctx, llvm::Value *pred, llvm::function_ref<void()> emit);

/// Emits `emit(lane0)` in a block that only warp 0 of the code being lowered enters, `lane0` being
/// true in its lane 0 where `pred` (an i1 or null) holds: for a plain mbarrier arrive, which takes
/// the predicate itself. Measured on the H200 (ping-pong attention, 2026-12-03): 4-5 % faster
/// than an elect.sync-elected arrive. No election, so no convergence is needed either.
void inIssuingWarp(LoweringContext &ctx, llvm::Value *pred,
                   llvm::function_ref<void(llvm::Value *lane0)> emit);

} // namespace linlayout::lower
