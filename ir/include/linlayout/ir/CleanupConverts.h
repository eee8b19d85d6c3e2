// Pass: conversion cleanup. Repeats until nothing changes:
//  - a convert to the layout its operand already has goes away;
//  - a convert of a convert becomes one convert of the first source (and goes away when that
//    source already has the wanted layout);
//  - a convert whose operand can be had in the wanted layout more cheaply by recomputing its
//    producers (Rematerialize.h: splat, make_range, constants, elementwise ops, broadcast,
//    expand_dims, with conversions moved to wherever the conversion cost is lowest) is replaced
//    by that recomputation;
// then merges the copies this made of the same op (CSE) and removes the ops nobody uses.
//
// Runs after: verify; usually Coalesce and PropagateLayouts, which leave converts behind.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

namespace linlayout::ir {

/// Removes and moves conversions of every function of m.
/// Requires: verify(m) is ok.
/// Ensures: verify(m) is ok; the interpreter computes the same results as before; the total
/// conversion cost (sum of conversionCost over the converts) does not grow.
Status cleanupConverts(Module &m);

} // namespace linlayout::ir
