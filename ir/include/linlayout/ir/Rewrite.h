// Editing a function in a pass: use counts, replacing uses, dead-op removal, and the
// conversions passes insert. Values are ids, so an op that changes its result type gets a new
// result value, and the old id can keep naming the value its users expect.
#pragma once

#include "linlayout/ir/Module.h"

#include <vector>

namespace linlayout::ir {

/// How many operands (of all ops, in all blocks) name each value.
/// Ensures: result.size() == f.values.size().
std::vector<int> countUses(const Function &f);

/// Makes every operand that names `from` name `to`.
/// Requires: both are values of f of the same type (asserts in debug builds).
void replaceAllUses(Function &f, ValueId from, ValueId to);

/// Removes ops without side effects whose results nobody uses, until none is left.
/// Returns how many ops it removed.
int eraseDeadOps(Function &f);

/// An op `result = ttg.convert_layout value` (result a new value of value's type with `layout`).
/// Requires: value is a tensor of f.
Op makeConvert(Function &f, ValueId value, LayoutId layout, ValueId *result);

} // namespace linlayout::ir
