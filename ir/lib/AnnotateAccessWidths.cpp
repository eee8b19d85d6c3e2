#include "linlayout/ir/AnnotateAccessWidths.h"

#include "linlayout/ir/AccessWidth.h"
#include "linlayout/ir/Walk.h"

namespace linlayout::ir {

Status annotateAccessWidths(Module &m) {
  for (Function &f : m.functions) {
    AxisInfoAnalysis info = AxisInfoAnalysis::run(m, f);
    walkOps(f.body, [&](Op &op) {
      if (op.kind == OpKind::Load || op.kind == OpKind::Store)
        op.attrs.vectorWidth = accessWidth(m, f, op, info).elements;
    });
  }
  return Status::success();
}

} // namespace linlayout::ir
