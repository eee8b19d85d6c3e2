// Pass: software pipelining of loops that load the tiles of a dot (Triton's
// pipeliner for mma.sync kernels, with num_stages S). In an scf.for whose body
// loads a tile with tt.load and feeds it to tt.dot (directly or through one
// convert_layout to a dot_op layout), each such load becomes a ring of S shared
// tiles filled by ttg.async_copy_global_to_local S-1 iterations ahead:
//
//   prologue:  for s in 0..S-2: copy the tiles of iteration s into slot s
//   (masked off unless
//              lb + s*step < ub); async_commit_group
//   loop j:    async_wait {num = S-2}          -- the group of iteration j is
//   complete
//              local_load slot j % S           -- in the dot operand's layout
//              (ldmatrix) copy iteration j+S-1's tiles into slot (j+S-1) % S
//              (masked off past ub); async_commit_group
//              ... the dot and the rest of the body ...
//   epilogue:  async_wait {num = 0}; local_dealloc the rings
//
// Before iteration j's wait, S-1+j groups are committed (S-1 in the prologue,
// one per earlier iteration), the (j+1)-th being iteration j's: allowing S-2 in
// flight completes exactly it. The wait's CTA barrier also ends every thread's
// reads of slot (j-1) % S, which is the slot the copy of iteration j+S-1 then
// overwrites.
//
// The pointers of iteration j+S-1 come from cloning the ops that compute the
// load's pointers, mask and other inside the loop, with the induction variable
// replaced by iv + (S-1)*step and each loop-carried pointer advanced by a
// loop-invariant `tt.addptr p, step` carried S-1 steps ahead (the loop then
// carries the advanced pointer instead). Anything else (a load whose address
// depends on other loop-carried values or on loads, a carried pointer used
// elsewhere or after the loop, tiles narrower than 4 bytes per thread, nested
// loops) leaves the loop as it is. With several CTAs per program each CTA rings
// the tiles its loads give it in its own shared memory.
//
// The ring's layout is the swizzled_shared layout SharedTileLayout.h chooses
// for the load's layout writing and the dot operand's layout reading.
//
// Wgmma loops: a tile whose only use is a local_alloc read by
// ttng.warp_group_dot gets a ring in the local_alloc's (NVMMA) layout, and the
// slot replaces the local_alloc. When the loop's one warp_group_dot reads two
// such slots, accumulates into a carried value nothing else reads, and its
// warp_group_dot_wait {pendings = 0} hands the result to the yield, one wgmma
// group stays in flight across iterations:
//
//   loop j:    async_wait {num = S-2}; (fence) warp_group_dot j on slot j % S
//              warp_group_dot_wait {pendings = 1}  -- dot j-1 done (this warp)
//              gpu.barrier                         -- ... in every warp
//              copy iteration j+S-1's tiles into slot (j+S-1) % S = (j-1) % S
//   epilogue:  warp_group_dot_wait {pendings = 0} on the loop's result, then
//              async_wait {num = 0}; local_dealloc the rings
//
// The copies refill the slot dot j-1 read; wgmma.wait_group 1 after dot j's
// commit completes every older group of the warp, and the barrier makes every
// warp of the CTA pass its wait before any thread copies. Dot j reads slot
// j % S, another slot for S >= 2. The accumulator goes from dot j-1 into
// dot j while dot j-1 may still run, which wgmma allows for the same
// registers and shape.
//
// Runs after: the layout passes and access-widths (it needs the loads' final
// layouts and vector widths).
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

namespace linlayout::ir {

/// Pipelines every eligible loop of m with `numStages` stages (1: nothing
/// changes). Requires: verify(m) is ok; 1 <= numStages <= 16. Ensures:
/// verify(m) is ok; the interpreter computes what it computed before; every
/// loop it changed has one async_wait {num = numStages - 2} per iteration; a
/// wgmma loop it made asynchronous waits with pendings = 1 inside and
/// pendings = 0 after it, and has one gpu.barrier between that wait and the
/// copies.
Status pipelineLoops(Module &m, int numStages);

} // namespace linlayout::ir
