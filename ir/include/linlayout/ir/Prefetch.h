// Pass: prefetch of dot operands from shared memory into registers, for loops the
// software-pipeline pass made (SoftwarePipeline.h). In such a loop the dot reads its operands
// with `ttg.local_load` of a ring slot (`ttg.memdesc_index %ring[%ri]`, %ri loop-carried) after
// an `async_wait` at the top of the body, so every iteration first waits for all of its operand
// loads (ldmatrix) and only then runs its mma.sync. The pass splits the K dimension of that dot
// into slices of `sliceK` and overlaps loads with math:
//
//   before the loop: async_wait {num = n}
//                    local_load slice 0 of slot ri0 (ttg.memdesc_subslice [0, 0])  -> a0, b0
//   iteration j:     (a, b of slice 0 are carried in registers)
//                    ... the body up to the dot (the cp.async copies included) ...
//                    local_load slice 1; dot slice 0; local_load slice 2; dot slice 1; ...
//                    ... the rest of the body ...
//                    async_wait {num = n}
//                    local_load slice 0 of the next slot (the carried ri's next value) -> yield
//                    dot of the last slice (its operands are already in registers)
//
// The last slice's dot comes after the wait so that its mma.sync run while the next slot's first
// loads are in flight, and a warp reaches the wait's barrier with a slice of math still to
// issue; it stays before the wait when something other than the yield uses its result.
//
// The wait moves from the top of iteration j + 1 to the end of iteration j (and before the loop
// for iteration 0): the groups committed by then are the same, so `num` is unchanged, and its
// CTA barrier still separates every read of slot j % S (slices 1.. in iteration j, all loaded
// before it) from the copies into that slot issued in iteration j + 1; the reads after it are of
// slot (j + 1) % S, which no copy of iteration j + 1 touches (it writes slot (j + S) % S = j % S).
//
// A loop qualifies when its body has exactly one tt.dot whose A and B are local_loads (used only
// by the dot) of memdesc_index tiles of rings defined before the loop, indexed by loop-carried
// i32 values; exactly one async_wait, before those loads; K a multiple of sliceK and larger
// than it; and sliceK no smaller than the mma's K (16 for 16-bit operands, 32 for 8-bit) nor
// than the K that the operands' lanes span (4 kWidth: a thread's kWidth elements, 4 lanes).
// Other loops stay as they are.
//
// Runs after: software-pipeline (it needs its rings and waits); before fence-insertion.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

namespace linlayout::ir {

/// Prefetches the dot operands of every qualifying loop of m in K slices of `sliceK`.
/// Requires: verify(m) is ok; sliceK a power of two in 8..256.
/// Ensures: verify(m) is ok; the interpreter computes what it computed before up to the
/// rounding of the accumulator once per slice instead of once per iteration (exact when every
/// partial sum is representable); every loop it changed carries one more value per operand.
Status prefetchDotOperands(Module &m, int sliceK);

} // namespace linlayout::ir
