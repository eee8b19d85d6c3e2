// The shape family: tt.splat, tt.broadcast, tt.expand_dims, tt.reshape, tt.trans, tt.join, tt.split
// and ttg.convert_layout.
#include "FamilyTable.h"
#include "OpInterpreter.h"
#include "OpParser.h"
#include "OpPrinter.h"
#include "OpVerifier.h"
#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/SharedTileLayout.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace linlayout::ir {

namespace {

// ---- printing -----------------------------------------------------------------------------------

// Splat, Broadcast, Reshape, ConvertLayout
void printSplatBroadcastReshapeConvertLayout(OpPrinter &p, std::ostream &os, const Op &op,
                                             int depth) {
  os << " " << p.list(op.operands) << " : " << p.opnd(op, 0) << " -> " << p.res(op);
}

// ExpandDims
void printExpandDims(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands) << " {axis = " << a.axis << " : i32} : " << p.opnd(op, 0)
     << " -> " << p.res(op);
}

// Join, Split
void printJoinSplit(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands) << " : " << p.opnd(op, 0) << " -> " << p.res(op);
}

// Trans
void printTrans(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands) << " {order = array<i32: ";
  for (size_t i = 0; i < a.order.size(); ++i)
    os << (i ? ", " : "") << a.order[i];
  os << ">} : " << p.opnd(op, 0) << " -> " << p.res(op);
}

constexpr auto kPrint = familyTable<OpFamily::Shape, PrintOpFn>({
    {OpKind::Splat, printSplatBroadcastReshapeConvertLayout},
    {OpKind::Broadcast, printSplatBroadcastReshapeConvertLayout},
    {OpKind::Reshape, printSplatBroadcastReshapeConvertLayout},
    {OpKind::ConvertLayout, printSplatBroadcastReshapeConvertLayout},
    {OpKind::ExpandDims, printExpandDims},
    {OpKind::Join, printJoinSplit},
    {OpKind::Split, printJoinSplit},
    {OpKind::Trans, printTrans},
});

// ---- verification -------------------------------------------------------------------------------

// Splat
Status checkSplat(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  const Type &s = v.operandType(op, 0), &r = v.resultType(op);
  if (s.isTensor() || s.isMemDesc() || !r.isTensor() || r.elem() != s.elem())
    return v.err(&op, "splats a scalar into a tensor of it, got " + v.ty(s) + " -> " + v.ty(r));
  return Status::success();
}

// Broadcast
Status checkBroadcast(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  const Type &s = v.operandType(op, 0), &r = v.resultType(op);
  if (!s.isTensor() || !r.isTensor() || s.rank() != r.rank() || s.elem() != r.elem() ||
      s.layout() != r.layout())
    return v.err(&op, "operand and result must be tensors of one rank, element and layout, "
                      "got " +
                          v.ty(s) + " -> " + v.ty(r));
  for (int d = 0; d < s.rank(); ++d)
    if (s.shape()[size_t(d)] != 1 && s.shape()[size_t(d)] != r.shape()[size_t(d)])
      return v.err(&op, "dimension " + std::to_string(d) + " of size " +
                            std::to_string(s.shape()[size_t(d)]) + " cannot broadcast to " +
                            std::to_string(r.shape()[size_t(d)]));
  return Status::success();
}

// ExpandDims
Status checkExpandDims(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  const Type &s = v.operandType(op, 0), &r = v.resultType(op);
  if (!s.isTensor() || !r.isTensor() || r.rank() != s.rank() + 1 || s.elem() != r.elem())
    return v.err(&op, "result must be the operand with one more dimension, got " + v.ty(s) +
                          " -> " + v.ty(r));
  if (a.axis < 0 || a.axis > s.rank())
    return v.err(&op, "axis " + std::to_string(a.axis) + " is out of range");
  std::vector<int64_t> shape = s.shape();
  shape.insert(shape.begin() + a.axis, 1);
  if (shape != r.shape())
    return v.err(&op, "result shape must insert 1 at axis " + std::to_string(a.axis) + ", got " +
                          v.ty(r));
  auto expected = sliceOf(v, r.layout(), a.axis);
  if (!expected || v.module().layouts.get(s.layout()) != *expected)
    return v.err(&op, "operand layout must be the slice along " + std::to_string(a.axis) +
                          " of the result layout, got " + v.ty(s) + " -> " + v.ty(r));
  return Status::success();
}

// Join, Split
Status checkJoinSplit(OpVerifier &v, const Op &op) {
  const bool join = op.kind == OpKind::Join;
  LL_TRY_STATUS(join ? v.counts(op, 2, 2, 1) : v.counts(op, 1, 1, 2));
  const Type &s = v.operandType(op, 0), &r = v.resultType(op);
  const Type &narrow = join ? s : r, &wide = join ? r : s;
  if (join && v.operandType(op, 1) != s)
    return v.err(&op, "operands must have one type, got " + v.ty(s) + " and " +
                          v.ty(v.operandType(op, 1)));
  if (!join && v.resultType(op, 1) != r)
    return v.err(&op, "results must have one type");
  std::vector<int64_t> shape = narrow.isTensor() ? narrow.shape() : std::vector<int64_t>{};
  shape.push_back(2);
  if (!narrow.isTensor() || !wide.isTensor() || narrow.isMemDesc() || wide.isMemDesc() ||
      narrow.elem() != wide.elem() || wide.shape() != shape)
    return v.err(&op, std::string(join ? "the result" : "the operand") +
                          " must be the tensor with a last dimension of 2 added, got " + v.ty(s) +
                          " -> " + v.ty(r));
  return Status::success();
}

// Reshape
Status checkReshape(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  const Type &s = v.operandType(op, 0), &r = v.resultType(op);
  if (!s.isTensor() || !r.isTensor() || s.elem() != r.elem() || s.numElements() != r.numElements())
    return v.err(&op, "must keep the element type and count, got " + v.ty(s) + " -> " + v.ty(r));
  return Status::success();
}

// Trans
Status checkTrans(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  const Type &s = v.operandType(op, 0), &r = v.resultType(op);
  if (!s.isTensor() || !r.isTensor() || s.elem() != r.elem() ||
      a.order.size() != size_t(s.rank()) || r.rank() != s.rank())
    return v.err(&op,
                 "order must permute the operand's dimensions, got " + v.ty(s) + " -> " + v.ty(r));
  LL_TRY_STATUS(checkPermutation(v, op, s.rank()));
  for (size_t i = 0; i < a.order.size(); ++i) {
    int32_t d = a.order[i];
    if (r.shape()[i] != s.shape()[size_t(d)])
      return v.err(&op, "result dimension " + std::to_string(i) + " must be operand dimension " +
                            std::to_string(d));
  }
  return Status::success();
}

// ConvertLayout
Status checkConvertLayout(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  const Type &s = v.operandType(op, 0), &r = v.resultType(op);
  if (!s.isTensor() || !r.isTensor() || s.shape() != r.shape() || s.elem() != r.elem())
    return v.err(&op, "must keep shape and element type, got " + v.ty(s) + " -> " + v.ty(r));
  return Status::success();
}

constexpr auto kChecks = familyTable<OpFamily::Shape, VerifyOpFn>({
    {OpKind::Splat, checkSplat},
    {OpKind::Broadcast, checkBroadcast},
    {OpKind::ExpandDims, checkExpandDims},
    {OpKind::Join, checkJoinSplit},
    {OpKind::Split, checkJoinSplit},
    {OpKind::Reshape, checkReshape},
    {OpKind::Trans, checkTrans},
    {OpKind::ConvertLayout, checkConvertLayout},
});

} // namespace

void printShapeOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyShapeOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

// ---- interpretation -----------------------------------------------------------------------------

namespace {

// Element `src` of s appended to r, whatever s holds (integers, floats, pointers).
void appendElement(const RtValue &s, size_t src, RtValue &r) {
  if (!s.i.empty())
    r.i.push_back(s.i[src]);
  if (!s.f.empty())
    r.f.push_back(s.f[src]);
  if (!s.buf.empty())
    r.buf.push_back(s.buf[src]);
}

Status interpretSplat(OpInterpreter &in, const Op &op) {
  const size_t n = size_t(in.type(op.results[0]).numElements());
  const RtValue &s = in.val(op.operands[0]);
  RtValue r;
  r.i.assign(s.i.empty() ? 0 : n, s.i.empty() ? 0 : s.i[0]);
  r.f.assign(s.f.empty() ? 0 : n, s.f.empty() ? 0 : s.f[0]);
  r.buf.assign(s.buf.empty() ? 0 : n, s.buf.empty() ? 0 : s.buf[0]);
  return in.setResult(op, std::move(r));
}

Status interpretBroadcast(OpInterpreter &in, const Op &op) {
  const Type &st = in.type(op.operands[0]), &rt = in.type(op.results[0]);
  const RtValue &s = in.val(op.operands[0]);
  auto srcStrides = rowMajorStrides(st.shape());
  auto dstStrides = rowMajorStrides(rt.shape());
  RtValue r;
  for (size_t e = 0; e < size_t(rt.numElements()); ++e) {
    size_t src = 0;
    for (size_t d = 0; d < dstStrides.size(); ++d) {
      int64_t coord = (int64_t(e) / dstStrides[d]) % rt.shape()[d];
      if (st.shape()[d] != 1)
        src += size_t(coord * srcStrides[d]);
    }
    appendElement(s, src, r);
  }
  return in.setResult(op, std::move(r));
}

// The same elements in the same order: only the type changes.
Status interpretSameElements(OpInterpreter &in, const Op &op) {
  return in.setResult(op, in.val(op.operands[0]));
}

// Element 2e + k is operand k's element e.
Status interpretJoin(OpInterpreter &in, const Op &op) {
  const size_t n = size_t(in.type(op.results[0]).numElements());
  const RtValue &x = in.val(op.operands[0]), &y = in.val(op.operands[1]);
  RtValue r;
  for (size_t e = 0; e < n / 2; ++e)
    for (const RtValue *s : {&x, &y}) {
      if (!s->i.empty())
        r.i.push_back(s->i[e]);
      if (!s->f.empty())
        r.f.push_back(s->f[e]);
    }
  return in.setResult(op, std::move(r));
}

// Result k's element e is element 2e + k.
Status interpretSplit(OpInterpreter &in, const Op &op) {
  const RtValue &s = in.val(op.operands[0]);
  for (size_t k = 0; k < 2; ++k) {
    RtValue half;
    for (size_t e = k; e < s.i.size(); e += 2)
      half.i.push_back(s.i[e]);
    for (size_t e = k; e < s.f.size(); e += 2)
      half.f.push_back(s.f[e]);
    in.setValue(op.results[k], std::move(half));
  }
  return Status::success();
}

Status interpretTrans(OpInterpreter &in, const Op &op) {
  const Type &st = in.type(op.operands[0]), &rt = in.type(op.results[0]);
  const RtValue &s = in.val(op.operands[0]);
  auto srcStrides = rowMajorStrides(st.shape());
  auto dstStrides = rowMajorStrides(rt.shape());
  RtValue r;
  for (size_t e = 0; e < size_t(rt.numElements()); ++e) {
    size_t src = 0;
    for (size_t d = 0; d < dstStrides.size(); ++d) {
      int64_t coord = (int64_t(e) / dstStrides[d]) % rt.shape()[d];
      src += size_t(coord * srcStrides[size_t(op.attrs.order[d])]);
    }
    appendElement(s, src, r);
  }
  return in.setResult(op, std::move(r));
}

constexpr auto kInterpret = familyTable<OpFamily::Shape, InterpretOpFn>({
    {OpKind::Splat, interpretSplat},
    {OpKind::Broadcast, interpretBroadcast},
    {OpKind::ExpandDims, interpretSameElements},
    {OpKind::Reshape, interpretSameElements},
    {OpKind::ConvertLayout, interpretSameElements},
    {OpKind::Join, interpretJoin},
    {OpKind::Split, interpretSplit},
    {OpKind::Trans, interpretTrans},
});

} // namespace

Status interpretShapeOp(OpInterpreter &in, const Op &op) {
  return kInterpret[size_t(op.kind)](in, op);
}

// ---- parsing ------------------------------------------------------------------------------------

namespace {

bool parseJoinOrSplit(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  // `tt.join %a, %b : T -> U`; `%s:2 = tt.split %x : T -> U` (each result a U).
  const size_t n = op.kind == OpKind::Join ? 2 : 1;
  if (!p.parseOperandsExactly(op, n, n == 2 ? "two operands" : "one operand") ||
      !p.skipOptionalDict() || !p.typeThenResult(op, results))
    return false;
  if (op.kind == OpKind::Split)
    results.push_back(results.back());
  return true;
}

// `op %x : T -> U` (with its attributes: parseOneOperandOp).
bool parseOneOperand(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return parseOneOperandOp(p, op, results);
}

constexpr auto kParse = familyTable<OpFamily::Shape, ParseOpFn>({
    {OpKind::Join, parseJoinOrSplit},
    {OpKind::Split, parseJoinOrSplit},
    {OpKind::Splat, parseOneOperand},
    {OpKind::Broadcast, parseOneOperand},
    {OpKind::Reshape, parseOneOperand},
    {OpKind::ConvertLayout, parseOneOperand},
    {OpKind::ExpandDims, parseOneOperand},
    {OpKind::Trans, parseOneOperand},
});

} // namespace

bool parseShapeOp(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return kParse[size_t(op.kind)](p, op, results, depth);
}

} // namespace linlayout::ir
