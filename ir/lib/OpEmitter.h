// Appending new ops to an op list from inside a pass (ir/lib only; the passes that build whole
// loops: software-pipeline, prefetch).
#pragma once

#include "linlayout/ir/Function.h"

#include <optional>
#include <vector>

namespace linlayout::ir {

// Appends ops to a list, creating their result values in f.
class Emitter {
public:
  Emitter(Function &f, std::vector<Op> &out) : f_(f), out_(out) {}

  ValueId op(OpKind kind, std::vector<ValueId> operands, std::optional<Type> result,
             OpAttrs attrs = {}) {
    Op o;
    o.kind = kind;
    o.operands = std::move(operands);
    o.attrs = std::move(attrs);
    ValueId r = kNoValue;
    if (result) {
      r = f_.addValue(*result);
      o.results.push_back(r);
    }
    out_.push_back(std::move(o));
    return r;
  }
  ValueId constant(int64_t v, const Type &t) {
    OpAttrs a;
    a.intValue = v;
    return op(OpKind::Constant, {}, t, a);
  }
  ValueId binary(OpKind k, ValueId a, ValueId b) { return op(k, {a, b}, f_.type(a)); }
  ValueId cmp(CmpPredicate p, ValueId a, ValueId b) {
    OpAttrs at;
    at.predicate = p;
    Type t = f_.type(a).withElem(ElemType{ScalarKind::I1, false});
    return op(OpKind::CmpI, {a, b}, t, at);
  }

private:
  Function &f_;
  std::vector<Op> &out_;
};

} // namespace linlayout::ir
