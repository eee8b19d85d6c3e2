// Pass: proxy fences. Shared memory written by threads (the generic proxy: ttg.local_alloc with
// a value, ttg.local_store, and cp.async's ttg.async_copy_global_to_local) is not visible to the
// async proxy (wgmma operands, TMA stores) until a `fence.proxy.async.shared::cta`. This pass puts
// one `ttng.fence_async_shared` right before every async access of a buffer that a generic write
// may reach without a fence in between, and nowhere else. Async accesses are wgmma's shared
// operands and the destination of a TMA copy (ttng.async_tma_copy_global_to_local); a TMA copy's
// own writes are async-proxy, so the wgmma that reads them needs no fence (the mbarrier wait orders
// them):
//  - buffers are told apart by their allocation (a memdesc passed through
//    ttng.warp_group_dot_wait, or a tile of a ring taken by ttg.memdesc_index, is its operand's
//    buffer); a memdesc whose allocation is unknown
//    (a loop-carried one) may be any buffer;
//  - one fence covers every write before it, so after a fence (inserted or written) nothing is
//    pending;
//  - loops: what is pending at the end of the body is pending at its start too (a write in
//    iteration i reaches a read in iteration i + 1), found by iterating to a fixed point.
//
// Runs after: verify. Runs last in the pipeline (no later pass moves shared-memory ops).
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

namespace linlayout::ir {

/// Inserts ttng.fence_async_shared where generic shared writes reach async reads.
/// Requires: verify(m) is ok.
/// Ensures: verify(m) is ok; the interpreter computes the same results (fences do nothing
/// there); every path from a generic write of a buffer to an async read of it passes a fence;
/// running the pass twice inserts nothing the second time.
Status insertFences(Module &m);

} // namespace linlayout::ir
