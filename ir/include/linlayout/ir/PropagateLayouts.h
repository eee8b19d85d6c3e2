// Pass: layout propagation. A layout chosen for one value (a coalesced load's, a loop-carried
// pointer's) spreads forward through the ops that can run in any layout, when that removes more
// conversion cost than it adds.
//
// Candidates:
//  - a convert `y = convert x` (x in A): y and what is computed from it take A instead, so the
//    convert vanishes (the conversion moves downstream, where it may meet and cancel another);
//  - a loop-carried value converted inside the loop body to a layout L: the loop carries it in
//    L, converted once before the loop instead of on every iteration.
// From the candidate the new layouts flow forward through elementwise ops (every tensor operand
// and result in one layout), broadcast, reduce (its result in the slice of the new layout),
// expand_dims (when the new layout is a slice along its axis), and loop-carried values (the init,
// the body argument, the yielded value and the result take one layout). Other users keep the old
// layout through a convert back; other operands are converted (or recomputed, Rematerialize.h)
// into the new layout. The change is made when the sum of the conversion costs it removes is
// larger than the sum it adds, conversions inside loops counting kLoopWeight times per level.
// The converts a change leaves between equal layouts are removed before the next candidate is
// sought, so that it grows through them; chained converts are left to CleanupConverts. Through
// an scf.if, a value yielded by a branch gives its layout to the if's result, and both branches
// then yield that layout (converting where they computed another).
//
// Runs after: Coalesce. Runs before: CleanupConverts.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

namespace linlayout::ir {

/// How many times a conversion inside a loop counts per level of nesting (an unknown trip count
/// is taken to be this).
constexpr double kLoopWeight = 8;

/// Propagates layouts in every function of m.
/// Requires: verify(m) is ok.
/// Ensures: verify(m) is ok; the interpreter computes the same results as before; the weighted
/// conversion cost of every function does not grow.
Status propagateLayouts(Module &m);

} // namespace linlayout::ir
