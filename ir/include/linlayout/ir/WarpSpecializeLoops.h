// Pass: warp-specialize-loops. Turns a software-pipelined TMA + wgmma loop that Triton marks
// for warp specialization (`scf.for ... {tt.warp_specialize}`, what
// `tl.range(..., warp_specialize=True)` writes) into a ttg.warp_specialize: a producer partition
// of one warp that only issues the TMA copies, and the default region (the module's warp groups)
// that only waits for stages and runs wgmma. The loop it reads is the pipelined form of
// examples/matmul_tma.tir:
//
//   prologue:  for k in 0..D-1: barrier_expect full[k]; TMA copies into A[k], B[k] on full[k]
//   loop n:    wait_barrier full[n % S]; warp_group_dot A[n % S], B[n % S], acc (async);
//              warp_group_dot_wait {pendings = 1}
//              barrier_expect full[(n+D) % S]; TMA copies of step n+D into slot (n+D) % S
//   after:     warp_group_dot_wait {pendings = 0} of the accumulator
//
// with rings A, B of S stages (S = the rings' leading dim, which the pipeliner chose from
// num-stages) and one mbarrier per stage, D <= S-1 stages ahead. The stage indices and phases
// may be computed from the induction variable or carried as counters that start as constants
// (as Triton's pipeliner writes them); the pass checks them by running the loop's scalar
// arithmetic for its first rounds. The result adds an `empty` mbarrier per stage (one arrival
// completes a phase):
//
//   partition0 (1 warp):  the prologue's copies as written; then per step n the copies of step
//                         n+D, each fill f = n+D first waiting on empty[f % S] for parity
//                         ((f / S) & 1) ^ 1 (a stage's first fill passes at once), under the
//                         copies' predicate
//   default:              the loop without its copies; after step n's wait (dot n-1 done) it
//                         arrives on empty[(n-1) % S] (n > 0); then the final wait, yielded
//
// The producer issues the same copies, in the same order, into the same slots, on the same full
// barriers as the loop did; only what orders a refill after the reads of its slot changes (the
// empty barrier instead of program order), so the interpreter computes what it computed before.
// Register budgets (setmaxnreg): 40 for the producer and 232 for one consumer warp group; 24
// and 240 (or what fits the register file) for more.
//
// Loops it cannot specialize stay as they are, with their attribute, and a remark says why:
// carried values besides the accumulator other than such counters, bounds or step that are
// not constants, a body with anything but the ring's waits, copies, one wgmma and its wait
// and scalar arithmetic (a tt.load, a store, a second dot), slot indices that are not the
// ring's (n % S, (n+D) % S), rings allocated in another block or touched elsewhere before the
// loop, a prologue that is not fills 0..D-1, a final wait missing after the loop, num-warps not
// whole warp groups.
//
// Runs before: software-pipeline (a loop it specialized has no loads left to pipeline).
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

#include <string>
#include <vector>

namespace linlayout::ir {

/// Specializes every scf.for of m marked `tt.warp_specialize` that it can (see above); appends
/// to `remarks` (when given) one line per marked loop it left as it was:
/// `@fn: loop at L:C: not warp-specialized: <reason>`.
/// Requires: verify(m) is ok.
/// Ensures: verify(m) is ok; the interpreter computes what it computed before (the partitions'
/// protocol checks pass where the loop's ran); a specialized loop no longer carries the
/// attribute and sits in the default region of a ttg.warp_specialize whose partition0 has one
/// warp; an unmarked loop, and a marked one with a remark, is unchanged.
Status warpSpecializeLoops(Module &m, std::vector<std::string> *remarks = nullptr);

} // namespace linlayout::ir
