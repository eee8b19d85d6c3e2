// What converting a tensor from one layout to another costs, in estimated SM cycles per CTA:
// the one question layout passes ask the conversion planner (planConversion for the module's
// target; a coarse estimate from the differing hardware levels where it cannot plan a pair). 0
// means the conversion is free (both layouts put every element in the same register of the same
// thread).
#pragma once

#include "linlayout/ir/Module.h"

namespace linlayout::ir {

/// What a convert op costs the passes besides the data it moves (about one instruction): a no-op
/// convert (two specs of one linear layout) still clutters the IR, so passes remove it when
/// recomputing its source is about as cheap.
constexpr double kConvertOpCost = 1.0;

/// The cost of converting a value of type `t` to layout `to` (same shape and element).
/// Requires: t is a tensor of m whose layout, and `to`, are distributed layouts of its rank.
/// Ensures: 0 when the two layouts are the same linear layout over t's shape (in particular
/// when to == t.layout()); positive otherwise; +infinity when the layouts cannot be compared.
double conversionCost(const Module &m, const Type &t, LayoutId to);

/// Whether the conversion of `t` to `to` moves nothing (the same linear layout).
bool isNoOpConversion(const Module &m, const Type &t, LayoutId to);

} // namespace linlayout::ir
