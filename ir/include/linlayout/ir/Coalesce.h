// Pass: coalescing / layout assignment for global memory accesses.
//
// Each tt.load and tt.store of a tensor of pointers gets a blocked layout derived from the axis
// info of its pointers: dimensions ordered by contiguity (the most contiguous fastest; ties go
// to the later dimension), each thread holding
//   min(contiguity, alignment in elements, 16 bytes, elements per thread of the tile)
// consecutive elements along the fastest dimension, and threads spread with tileBlocked
// (BlockedTiling.h). A store whose value is computed in another distributed layout (directly,
// or before a convert that feeds the store) takes that layout instead when storing from it is as
// good for memory: vectors of 8 bytes or more and every 32-byte sector a warp's instruction
// touches written whole (AccessWidth::warpBytes), as for the f32 accumulator of mma; a
// conversion to the blocked layout would cost a trip through shared memory to save only store
// instructions. The access's operands are converted to that layout and a loaded value is
// converted back to its old layout, so the program keeps its meaning; layout propagation and the
// conversion cleanup then remove the conversions that are not needed. The CTA split (CGA layout)
// of the access's layout is kept.
//
// Runs after: verify (and PlanCtas when the kernel has several CTAs).
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

namespace linlayout::ir {

/// Assigns coalescing layouts to every global access of every function of m.
/// Requires: verify(m) is ok.
/// Ensures: verify(m) is ok; the interpreter computes the same results as before.
Status coalesce(Module &m);

} // namespace linlayout::ir
