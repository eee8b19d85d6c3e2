// The verifier: checks that a module is well formed before any pass or lowering reads it.
//  - types: tensor shapes are powers of two with at most 2^20 elements; every tensor carries a
//    distributed layout of its rank that converts to a linear layout over its shape; memdescs
//    carry shared layouts;
//  - ops: operand and result counts, element types and shapes per kind; layouts agree where the
//    op keeps them (elementwise ops, broadcast); expand_dims and reduce go through the slice of
//    the result / operand layout along their axis; dot operands are dot_op layouts of the
//    accumulator's layout with matching operand indices;
//  - structure: every use is dominated by its definition (defined earlier in the same block or in
//    an enclosing one; a value defined in a branch of an scf.if is not seen after it), each value
//    is defined once, a function body ends in tt.return, a loop body in scf.yield matching the
//    loop's iteration arguments, each branch of an scf.if (an i1 scalar condition) in scf.yield
//    matching its results; loops and ifs nest at most kMaxNesting deep.
// Bad IR gets an error naming the op and where it is, never a crash.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

namespace linlayout::ir {

/// Checks every function of `m`.
/// Ensures: ok exactly when every rule above holds; the message starts with the op's position
/// (`file:line:col: `) when the op came from text, else with the function and op index.
Status verify(const Module &m);

} // namespace linlayout::ir
