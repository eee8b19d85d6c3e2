// The compute family: tt.dot, tt.reduce, tt.scan.
// Printing and checks; parsing and interpretation are still in Parser.cpp and Interpreter.cpp.
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

// Dot
void printDot(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands) << " : " << p.opnd(op, 0) << " * " << p.opnd(op, 1) << " -> "
     << p.res(op);
}

// Reduce
void printReduce(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << name(a.reduceKind) << " " << p.list(op.operands) << " {axis = " << a.axis
     << " : i32} : " << p.opnd(op, 0) << " -> " << p.res(op);
}

// Scan
void printScan(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << name(a.reduceKind) << " " << p.list(op.operands) << " {axis = " << a.axis
     << " : i32, reverse = " << (a.reverse ? "true" : "false") << "} : " << p.opnd(op, 0) << " -> "
     << p.res(op);
}

constexpr std::array<PrintOpFn, kNumOpKinds> kPrint = [] {
  std::array<PrintOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::Dot)] = printDot;
  t[size_t(OpKind::Reduce)] = printReduce;
  t[size_t(OpKind::Scan)] = printScan;
  return t;
}();
static_assert(coversFamily(kPrint, OpFamily::Compute), "an op of the family has no printing");

// ---- verification -------------------------------------------------------------------------------

Status checkDot(OpVerifier &v, const Op &op) {
  const Type &a = v.type(op.operands[0]);
  const Type &b = v.type(op.operands[1]);
  const Type &c = v.type(op.operands[2]);
  const Type &r = v.type(op.results[0]);
  if (r != c)
    return v.err(&op, "result must have the accumulator's type " + v.ty(c) + ", got " + v.ty(r));
  if (!a.isTensor() || !b.isTensor() || !c.isTensor() || a.rank() != c.rank() ||
      b.rank() != c.rank() || (c.rank() != 2 && c.rank() != 3))
    return v.err(&op, "operands must be 2-D (or batched 3-D) tensors, got " + v.ty(a) + ", " +
                          v.ty(b) + ", " + v.ty(c));
  int rk = c.rank();
  int64_t m = a.shape()[size_t(rk - 2)], k = a.shape()[size_t(rk - 1)];
  int64_t k2 = b.shape()[size_t(rk - 2)], n = b.shape()[size_t(rk - 1)];
  if (k != k2 || c.shape()[size_t(rk - 2)] != m || c.shape()[size_t(rk - 1)] != n ||
      (rk == 3 && (a.shape()[0] != c.shape()[0] || b.shape()[0] != c.shape()[0])))
    return v.err(&op, "shapes do not multiply: " + v.ty(a) + " * " + v.ty(b) + " -> " + v.ty(c));
  ScalarKind ea = a.elem().scalar, eb = b.elem().scalar, ec = c.elem().scalar;
  bool floats = isFloat(ea) && ea == eb && isFloat(ec) && bitWidth(ec) >= bitWidth(ea);
  bool ints = ea == ScalarKind::I8 && eb == ScalarKind::I8 && ec == ScalarKind::I32;
  if (a.isPointerLike() || b.isPointerLike() || c.isPointerLike() || !(floats || ints))
    return v.err(&op, "element types " + std::string(name(ea)) + " * " + std::string(name(eb)) +
                          " -> " + std::string(name(ec)) +
                          " are not supported (floats of one kind into an accumulator at least "
                          "as wide, or i8 * i8 -> i32)");
  const LayoutSpec &lc = v.module().layouts.get(c.layout());
  if (lc.kind() != LayoutKind::NvidiaMma && lc.kind() != LayoutKind::Blocked)
    return v.err(&op, "the accumulator must be in an nvidia_mma or blocked layout, got " + v.ty(c));
  for (int idx = 0; idx < 2; ++idx) {
    const Type &t = idx == 0 ? a : b;
    const DotOperandSpec *d = v.module().layouts.get(t.layout()).as<DotOperandSpec>();
    if (!d || d->operandIndex() != idx || d->parent() != lc)
      return v.err(&op, std::string(idx == 0 ? "A" : "B") +
                            " must be in a dot_op layout with opIdx = " + std::to_string(idx) +
                            " whose parent is the accumulator's layout, got " + v.ty(t));
  }
  return Status::success();
}

// Dot
Status checkDotOp(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 3, 3, 1));
  return checkDot(v, op);
}

// Reduce, Scan
Status checkReduceScan(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  const size_t n = op.operands.size();
  LL_TRY_STATUS(v.counts(op, 1, 16, n));
  const bool scan = op.kind == OpKind::Scan;
  const Type &s = T(0);
  for (size_t i = 0; i < n; ++i) {
    const Type &t = T(i);
    if (!t.isTensor() || t.isPointerLike())
      return v.err(&op, "needs tensors of numbers, got " + v.ty(t));
    if (!sameShapeAndLayout(t, s))
      return v.err(&op,
                   "operands must share one shape and layout, got " + v.ty(s) + " and " + v.ty(t));
  }
  if (op.regions.empty()) {
    if (n != 1)
      return v.err(&op, std::string(scan ? "scanning" : "reducing") +
                            " several tensors needs a combining body");
    if (bool f = isFloat(s.elem().scalar); !combinerOf(a.reduceKind, f))
      return v.err(&op, std::string(name(a.reduceKind)) + (scan ? " scans " : " reduces ") +
                            (f ? "integers" : "floats") + " only, got " + v.ty(s));
  }
  if (a.axis < 0 || a.axis >= s.rank())
    return v.err(&op, "axis " + std::to_string(a.axis) + " is out of range for " + v.ty(s));
  std::optional<LayoutSpec> sliced;
  if (!scan && s.rank() > 1) {
    auto expected = sliceOf(v, s.layout(), a.axis);
    if (!expected)
      return v.err(&op, "the operand layout has no slice along " + std::to_string(a.axis));
    sliced = std::move(expected);
  }
  for (size_t i = 0; i < n; ++i) {
    const Type &t = T(i), &r = v.type(op.results[i]);
    std::string which = n == 1 ? "the result" : "result " + std::to_string(i);
    if (scan) {
      if (r != t)
        return v.err(&op, (n == 1 ? std::string("the result must have the operand's type ")
                                  : which + " must have its operand's type ") +
                              v.ty(t) + ", got " + v.ty(r));
      continue;
    }
    if (t.rank() == 1) {
      if (r != t.elementType())
        return v.err(&op, "reducing a 1-D tensor gives a scalar " + v.ty(t.elementType()) +
                              ", got " + v.ty(r));
      continue;
    }
    std::vector<int64_t> shape = t.shape();
    shape.erase(shape.begin() + a.axis);
    if (!r.isTensor() || r.shape() != shape || r.elem() != t.elem())
      return v.err(&op, which + " must drop dimension " + std::to_string(a.axis) + ", got " +
                            v.ty(t) + " -> " + v.ty(r));
    if (v.module().layouts.get(r.layout()) != *sliced)
      return v.err(&op, which + " layout must be the slice along " + std::to_string(a.axis) +
                            " of the operand layout, got " + v.ty(r));
  }
  return Status::success();
}

constexpr std::array<VerifyOpFn, kNumOpKinds> kChecks = [] {
  std::array<VerifyOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::Dot)] = checkDotOp;
  t[size_t(OpKind::Reduce)] = checkReduceScan;
  t[size_t(OpKind::Scan)] = checkReduceScan;
  return t;
}();
static_assert(coversFamily(kChecks, OpFamily::Compute), "an op of the family has no checks");

} // namespace

void printComputeOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyComputeOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

} // namespace linlayout::ir
