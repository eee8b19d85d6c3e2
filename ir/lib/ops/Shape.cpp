// The shape family: tt.splat, tt.broadcast, tt.expand_dims, tt.reshape, tt.trans, tt.join, tt.split
// and ttg.convert_layout. Printing and checks; parsing and interpretation are still in Parser.cpp
// and Interpreter.cpp.
#include "FamilyTable.h"
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

constexpr std::array<PrintOpFn, kNumOpKinds> kPrint = [] {
  std::array<PrintOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::Splat)] = printSplatBroadcastReshapeConvertLayout;
  t[size_t(OpKind::Broadcast)] = printSplatBroadcastReshapeConvertLayout;
  t[size_t(OpKind::Reshape)] = printSplatBroadcastReshapeConvertLayout;
  t[size_t(OpKind::ConvertLayout)] = printSplatBroadcastReshapeConvertLayout;
  t[size_t(OpKind::ExpandDims)] = printExpandDims;
  t[size_t(OpKind::Join)] = printJoinSplit;
  t[size_t(OpKind::Split)] = printJoinSplit;
  t[size_t(OpKind::Trans)] = printTrans;
  return t;
}();
static_assert(coversFamily(kPrint, OpFamily::Shape), "an op of the family has no printing");

// ---- verification -------------------------------------------------------------------------------

// Splat
Status checkSplat(OpVerifier &v, const Op &op) {
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  if (T(0).isTensor() || T(0).isMemDesc() || !R().isTensor() || R().elem() != T(0).elem())
    return v.err(&op,
                 "splats a scalar into a tensor of it, got " + v.ty(T(0)) + " -> " + v.ty(R()));
  return Status::success();
}

// Broadcast
Status checkBroadcast(OpVerifier &v, const Op &op) {
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  const Type &s = T(0);
  if (!s.isTensor() || !R().isTensor() || s.rank() != R().rank() || s.elem() != R().elem() ||
      s.layout() != R().layout())
    return v.err(&op, "operand and result must be tensors of one rank, element and layout, "
                      "got " +
                          v.ty(s) + " -> " + v.ty(R()));
  for (int d = 0; d < s.rank(); ++d)
    if (s.shape()[size_t(d)] != 1 && s.shape()[size_t(d)] != R().shape()[size_t(d)])
      return v.err(&op, "dimension " + std::to_string(d) + " of size " +
                            std::to_string(s.shape()[size_t(d)]) + " cannot broadcast to " +
                            std::to_string(R().shape()[size_t(d)]));
  return Status::success();
}

// ExpandDims
Status checkExpandDims(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  const Type &s = T(0);
  if (!s.isTensor() || !R().isTensor() || R().rank() != s.rank() + 1 || s.elem() != R().elem())
    return v.err(&op, "result must be the operand with one more dimension, got " + v.ty(s) +
                          " -> " + v.ty(R()));
  if (a.axis < 0 || a.axis > s.rank())
    return v.err(&op, "axis " + std::to_string(a.axis) + " is out of range");
  std::vector<int64_t> shape = s.shape();
  shape.insert(shape.begin() + a.axis, 1);
  if (shape != R().shape())
    return v.err(&op, "result shape must insert 1 at axis " + std::to_string(a.axis) + ", got " +
                          v.ty(R()));
  auto expected = sliceOf(v, R().layout(), a.axis);
  if (!expected || v.module().layouts.get(s.layout()) != *expected)
    return v.err(&op, "operand layout must be the slice along " + std::to_string(a.axis) +
                          " of the result layout, got " + v.ty(s) + " -> " + v.ty(R()));
  return Status::success();
}

// Join, Split
Status checkJoinSplit(OpVerifier &v, const Op &op) {
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  const bool join = op.kind == OpKind::Join;
  LL_TRY_STATUS(join ? v.counts(op, 2, 2, 1) : v.counts(op, 1, 1, 2));
  const Type &narrow = join ? T(0) : R(), &wide = join ? R() : T(0);
  if (join && T(1) != T(0))
    return v.err(&op, "operands must have one type, got " + v.ty(T(0)) + " and " + v.ty(T(1)));
  if (!join && v.type(op.results[1]) != R())
    return v.err(&op, "results must have one type");
  std::vector<int64_t> shape = narrow.isTensor() ? narrow.shape() : std::vector<int64_t>{};
  shape.push_back(2);
  if (!narrow.isTensor() || !wide.isTensor() || narrow.isMemDesc() || wide.isMemDesc() ||
      narrow.elem() != wide.elem() || wide.shape() != shape)
    return v.err(&op, std::string(join ? "the result" : "the operand") +
                          " must be the tensor with a last dimension of 2 added, got " +
                          v.ty(T(0)) + " -> " + v.ty(R()));
  return Status::success();
}

// Reshape
Status checkReshape(OpVerifier &v, const Op &op) {
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  if (!T(0).isTensor() || !R().isTensor() || T(0).elem() != R().elem() ||
      T(0).numElements() != R().numElements())
    return v.err(&op,
                 "must keep the element type and count, got " + v.ty(T(0)) + " -> " + v.ty(R()));
  return Status::success();
}

// Trans
Status checkTrans(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  const Type &s = T(0);
  if (!s.isTensor() || !R().isTensor() || s.elem() != R().elem() ||
      a.order.size() != size_t(s.rank()) || R().rank() != s.rank())
    return v.err(&op, "order must permute the operand's dimensions, got " + v.ty(s) + " -> " +
                          v.ty(R()));
  LL_TRY_STATUS(checkPermutation(v, op, s.rank()));
  for (size_t i = 0; i < a.order.size(); ++i) {
    int32_t d = a.order[i];
    if (R().shape()[i] != s.shape()[size_t(d)])
      return v.err(&op, "result dimension " + std::to_string(i) + " must be operand dimension " +
                            std::to_string(d));
  }
  return Status::success();
}

// ConvertLayout
Status checkConvertLayout(OpVerifier &v, const Op &op) {
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  if (!T(0).isTensor() || !R().isTensor() || T(0).shape() != R().shape() ||
      T(0).elem() != R().elem())
    return v.err(&op, "must keep shape and element type, got " + v.ty(T(0)) + " -> " + v.ty(R()));
  return Status::success();
}

constexpr std::array<VerifyOpFn, kNumOpKinds> kChecks = [] {
  std::array<VerifyOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::Splat)] = checkSplat;
  t[size_t(OpKind::Broadcast)] = checkBroadcast;
  t[size_t(OpKind::ExpandDims)] = checkExpandDims;
  t[size_t(OpKind::Join)] = checkJoinSplit;
  t[size_t(OpKind::Split)] = checkJoinSplit;
  t[size_t(OpKind::Reshape)] = checkReshape;
  t[size_t(OpKind::Trans)] = checkTrans;
  t[size_t(OpKind::ConvertLayout)] = checkConvertLayout;
  return t;
}();
static_assert(coversFamily(kChecks, OpFamily::Shape), "an op of the family has no checks");

} // namespace

void printShapeOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyShapeOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

} // namespace linlayout::ir
