// Pass: records the access width (AccessWidth.h) of every global load and store in the op's
// `vectorWidth` attribute (printed `{ll.vec = N : i32}`), for lowering and for people reading
// the IR. It is the last pass: the width depends on the final layouts.
//
// Runs after: every pass that changes layouts (Coalesce, PropagateLayouts, CleanupConverts).
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

namespace linlayout::ir {

/// Sets vectorWidth on every tt.load and tt.store of m.
/// Requires: verify(m) is ok.
/// Ensures: every load and store has vectorWidth == accessWidth(...).elements >= 1.
Status annotateAccessWidths(Module &m);

} // namespace linlayout::ir
