// The compute family: tt.dot, tt.reduce, tt.scan.
#include "../IntArith.h"
#include "FamilyTable.h"
#include "OpInterpreter.h"
#include "OpParser.h"
#include "OpPrinter.h"
#include "OpVerifier.h"
#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/Parser.h"
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

constexpr auto kPrint = familyTable<OpFamily::Compute, PrintOpFn>({
    {OpKind::Dot, printDot},
    {OpKind::Reduce, printReduce},
    {OpKind::Scan, printScan},
});

// ---- verification -------------------------------------------------------------------------------

Status checkDot(OpVerifier &v, const Op &op) {
  const Type &a = v.operandType(op, 0), &b = v.operandType(op, 1), &c = v.operandType(op, 2);
  const Type &r = v.resultType(op);
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
  const size_t n = op.operands.size();
  LL_TRY_STATUS(v.counts(op, 1, 16, n));
  const bool scan = op.kind == OpKind::Scan;
  const Type &s = v.operandType(op, 0);
  for (size_t i = 0; i < n; ++i) {
    const Type &t = v.operandType(op, i);
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
    const Type &t = v.operandType(op, i), &r = v.resultType(op, i);
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

constexpr auto kChecks = familyTable<OpFamily::Compute, VerifyOpFn>({
    {OpKind::Dot, checkDotOp},
    {OpKind::Reduce, checkReduceScan},
    {OpKind::Scan, checkReduceScan},
});

} // namespace

void printComputeOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyComputeOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

// ---- interpretation -----------------------------------------------------------------------------

namespace {

Status interpretDot(OpInterpreter &in, const Op &op) {
  RtValue r;
  dotOf(in, op, in.val(op.operands[0]), in.val(op.operands[1]), r);
  return in.setResult(op, std::move(r));
}

// The lines of a reduce's or scan's operands along its axis: `len` elements, `inner` apart; the
// first elements of the lines are those whose index along the axis is 0.
struct AxisLines {
  int64_t len, inner, outer;
};
AxisLines axisLines(const OpInterpreter &in, const Op &op) {
  const Type &st = in.type(op.operands[0]);
  AxisLines a;
  size_t axis = size_t(op.attrs.axis);
  a.len = st.shape()[axis];
  a.inner = rowMajorStrides(st.shape())[axis];
  a.outer = 1;
  for (size_t d = 0; d < axis; ++d)
    a.outer *= st.shape()[d];
  return a;
}

// Element x of each operand of a reduce or scan, as scalars; and back into `to`'s x-th.
std::vector<RtValue> elementsAt(std::span<const RtValue *const> from, size_t x) {
  std::vector<RtValue> e(from.size());
  for (size_t k = 0; k < from.size(); ++k)
    if (from[k]->f.empty())
      e[k].i = {from[k]->i[x]};
    else
      e[k].f = {from[k]->f[x]};
  return e;
}
void setElementsAt(std::vector<RtValue> &to, size_t x, const std::vector<RtValue> &e) {
  for (size_t k = 0; k < to.size(); ++k)
    if (to[k].f.empty())
      to[k].i[x] = e[k].i[0];
    else
      to[k].f[x] = e[k].f[0];
}

// lhs (+) rhs, one scalar per operand of `op`, lhs the earlier in scan order: its ReduceKind's op
// rounded to the element type, or its combining body run on them.
Status combine(OpInterpreter &in, const Op &op, const std::vector<RtValue> &lhs,
               const std::vector<RtValue> &rhs, std::vector<RtValue> &out) {
  out.clear();
  if (op.regions.empty()) {
    const ScalarKind k = in.type(op.operands[0]).elem().scalar;
    const OpKind combiner = *combinerOf(op.attrs.reduceKind, isFloat(k));
    out.resize(1);
    if (isFloat(k))
      out[0].f = {roundToFloatKind(evalFloatBinary(combiner, lhs[0].f[0], rhs[0].f[0]), k)};
    else
      out[0].i = {*evalIntBinary(combiner, lhs[0].i[0], rhs[0].i[0], k)};
    return Status::success();
  }
  const Block &body = op.regions[0];
  const size_t n = op.operands.size();
  for (size_t k = 0; k < n; ++k) {
    in.setValue(body.args[k], lhs[k]);
    in.setValue(body.args[n + k], rhs[k]);
  }
  return in.runBlock(body, &out);
}

// Each line combined in index order (lhs the combination of the elements before).
Status reduce(OpInterpreter &in, const Op &op, std::vector<RtValue> &results) {
  std::vector<const RtValue *> operands;
  for (ValueId v : op.operands)
    operands.push_back(&in.val(v));
  const auto [len, inner, outer] = axisLines(in, op);
  results.assign(operands.size(), RtValue{});
  std::vector<RtValue> acc, next;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      size_t base = size_t(o * len * inner + i);
      acc = elementsAt(operands, base);
      for (int64_t j = 1; j < len; ++j) {
        LL_TRY_STATUS(combine(in, op, acc, elementsAt(operands, base + size_t(j * inner)), next));
        std::swap(acc, next);
      }
      for (size_t k = 0; k < operands.size(); ++k) {
        results[k].i.insert(results[k].i.end(), acc[k].i.begin(), acc[k].i.end());
        results[k].f.insert(results[k].f.end(), acc[k].f.begin(), acc[k].f.end());
      }
    }
  return Status::success();
}

// Inclusive, in index order along the axis (from its end when reversed): each element is the
// combination of the one before it in that order (lhs) with itself (rhs).
Status scan(OpInterpreter &in, const Op &op, std::vector<RtValue> &results) {
  for (ValueId v : op.operands)
    results.push_back(in.val(v));
  std::vector<const RtValue *> view;
  for (const RtValue &r : results)
    view.push_back(&r);
  const auto [len, inner, outer] = axisLines(in, op);
  std::vector<RtValue> next;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      size_t base = size_t(o * len * inner + i);
      for (int64_t j = 1; j < len; ++j) {
        int64_t at = op.attrs.reverse ? len - 1 - j : j;
        int64_t prev = op.attrs.reverse ? at + 1 : at - 1;
        size_t x = base + size_t(at * inner), p = base + size_t(prev * inner);
        LL_TRY_STATUS(combine(in, op, elementsAt(view, p), elementsAt(view, x), next));
        setElementsAt(results, x, next);
      }
    }
  return Status::success();
}

Status interpretReduceOrScan(OpInterpreter &in, const Op &op) {
  std::vector<RtValue> results;
  LL_TRY_STATUS(op.kind == OpKind::Reduce ? reduce(in, op, results) : scan(in, op, results));
  for (size_t i = 0; i < op.results.size(); ++i) {
    if (in.type(op.results[i]).isIntLike())
      in.observe(op.results[i], results[i].i);
    in.setValue(op.results[i], std::move(results[i]));
  }
  return Status::success();
}

constexpr auto kInterpret = familyTable<OpFamily::Compute, InterpretOpFn>({
    {OpKind::Dot, interpretDot},
    {OpKind::Reduce, interpretReduceOrScan},
    {OpKind::Scan, interpretReduceOrScan},
});

} // namespace

void dotOf(const OpInterpreter &in, const Op &op, const RtValue &A, const RtValue &B, RtValue &r,
           bool useC) {
  const Type &at = in.type(op.operands[0]);
  const Type &ct = in.type(op.operands[2]);
  const RtValue &C = in.val(op.operands[2]);
  int rk = ct.rank();
  int64_t batch = rk == 3 ? ct.shape()[0] : 1;
  int64_t M = ct.shape()[size_t(rk - 2)], N = ct.shape()[size_t(rk - 1)];
  int64_t K = at.shape()[size_t(rk - 1)];
  ScalarKind ck = ct.elem().scalar;
  bool isF = isFloat(ck);
  if (isF)
    r.f.resize(size_t(batch * M * N));
  else
    r.i.resize(size_t(batch * M * N));
  for (int64_t bi = 0; bi < batch; ++bi)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t nn = 0; nn < N; ++nn) {
        size_t ci = size_t((bi * M + m) * N + nn);
        if (isF) {
          double acc = useC ? C.f[ci] : 0.0;
          for (int64_t k = 0; k < K; ++k)
            acc += A.f[size_t((bi * M + m) * K + k)] * B.f[size_t((bi * K + k) * N + nn)];
          r.f[ci] = roundToFloatKind(acc, ck);
        } else {
          int64_t acc = useC ? C.i[ci] : 0;
          for (int64_t k = 0; k < K; ++k)
            acc += A.i[size_t((bi * M + m) * K + k)] * B.i[size_t((bi * K + k) * N + nn)];
          r.i[ci] = wrapInt(acc, ck);
        }
      }
}

Status interpretComputeOp(OpInterpreter &in, const Op &op) {
  return kInterpret[size_t(op.kind)](in, op);
}

// ---- parsing ------------------------------------------------------------------------------------

namespace {

// The ReduceKind of a combining body that is one such op of its two arguments, returned.
// (The ops' types must all be the operand's element type `elem`.)
std::optional<ReduceKind> singleCombiner(const OpParser &p, const Block &body, const Type &elem) {
  if (body.args.size() != 2 || body.ops.size() != 2 || body.ops[1].kind != OpKind::CombineReturn ||
      body.ops[1].operands.size() != 1)
    return std::nullopt;
  const Op &c = body.ops[0];
  auto kind = reduceKindOfCombiner(c.kind);
  if (!kind || c.results.size() != 1 || body.ops[1].operands[0] != c.results[0] ||
      c.operands.size() != 2 || c.operands[0] == c.operands[1] ||
      std::any_of(c.operands.begin(), c.operands.end(),
                  [&](ValueId v) { return v != body.args[0] && v != body.args[1]; }))
    return std::nullopt;
  for (ValueId v : {body.args[0], body.args[1], c.results[0]})
    if (p.valueType(v) != elem)
      return std::nullopt;
  return kind;
}

bool parseDot(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (!p.parseOperandsExactly(op, 3, "three operands (a, b, c)"))
    return false;
  // Triton writes `inputPrecision = tf32` and `maxNumImpreciseAcc = 0` after the operands.
  while (p.token().kind == Tok::Ident && !p.isPunct(":")) {
    p.advance();
    if (!p.expectPunct("=", "after a tt.dot option"))
      return false;
    if (p.token().kind != Tok::Ident && p.token().kind != Tok::Integer)
      return p.fail("expected a tt.dot option value, got " + p.describeToken());
    p.advance();
    if (p.isPunct(","))
      p.advance();
  }
  if (!p.skipOptionalDict())
    return false;
  return p.parseDotTypes(op, results);
}

bool parseReduceOrScan(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  OpAttrs &a = op.attrs;
  const bool scan = op.kind == OpKind::Scan;
  if (!p.parseName(reduceKindFromName,
                   "a combining function (sum, prod, max, min, maxnum, minnum, umax or umin)",
                   a.reduceKind) ||
      !p.parseOperandsExactly(op, 1, "one operand"))
    return false;
  Dict d;
  if (!p.parseDict(d) || !p.dictInt(d, "axis", a.axis, true) || (scan && !p.dictReverse(d, a)))
    return false;
  return p.typeThenResult(op, results);
}

constexpr auto kParse = familyTable<OpFamily::Compute, ParseOpFn>({
    {OpKind::Dot, parseDot},
    {OpKind::Reduce, parseReduceOrScan},
    {OpKind::Scan, parseReduceOrScan},
});

} // namespace

// Triton's tt.reduce and tt.scan, after the quoted name:
//   "tt.reduce"(%x, %i) <{axis = 1 : i32}> ({
//   ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
//     %gt = arith.cmpf ogt, %a, %b : f32
//     ...
//     tt.reduce.return %v, %j : f32, i32
//   }) : (tensor<...>, tensor<...>) -> (tensor<...>, tensor<...>)
// (a scan's properties also say `reverse = false` and its body ends in tt.scan.return; one
// result type is written without parentheses). The block's arguments are the left elements of
// the operands, then the right ones. A body that combines the two arguments of a single operand
// with one op that a ReduceKind stands for becomes that kind (the op's short form); any other
// body stays the op's region.
bool parseGenericCombine(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  const bool scan = op.kind == OpKind::Scan;
  const std::string opName(mnemonic(op.kind));
  if (depth + 1 > kMaxNesting)
    return p.fail("regions nested more than " + std::to_string(kMaxNesting) + " deep");
  if (!p.expectPunct("(", "to open the operands") || !p.parseOperands(op.operands, 16) ||
      !p.expectPunct(")", "to close the operands"))
    return false;
  if (op.operands.empty())
    return p.fail(opName + " needs at least one operand");
  Dict d;
  if (!p.expectPunct("<", "to open the properties") || !p.parseDict(d) ||
      !p.dictInt(d, "axis", op.attrs.axis, true) || (scan && !p.dictReverse(d, op.attrs)) ||
      !p.expectPunct(">", "to close the properties"))
    return false;
  if (!p.expectPunct("(", "to open the region") || !p.expectPunct("{", "to open the region"))
    return false;
  if (p.token().kind != Tok::Ident || p.token().text.substr(0, 1) != "^")
    return p.fail("expected the block label of the combining function (^bb0), got " +
                  p.describeToken());
  p.advance();
  if (!p.expectPunct("(", "to open the block arguments"))
    return false;
  Block body;
  p.openRegion();
  const size_t arity = 2 * op.operands.size();
  const std::string takes = "the combining function of " + std::to_string(op.operands.size()) +
                            " operand(s) takes " + std::to_string(arity) + " arguments";
  while (!p.isPunct(")")) {
    if (!body.args.empty() && !p.expectPunct(",", "between the block arguments"))
      return false;
    if (p.token().kind != Tok::Value)
      return p.fail("expected a block argument, got " + p.describeToken());
    std::string_view name = p.token().text;
    Loc loc = p.token().loc;
    Type t;
    p.advance();
    if (!p.expectPunct(":", "after a block argument") || !p.parseType(t))
      return false;
    if (body.args.size() == arity)
      return p.failAt(loc, takes);
    ValueId a = p.addValue(t, std::string(name));
    if (!p.define(name, loc, {a}))
      return false;
    body.args.push_back(a);
  }
  p.advance();
  if (body.args.size() != arity)
    return p.fail(takes + ", got " + std::to_string(body.args.size()));
  p.combineReturns().push_back(opName + ".return");
  if (!p.expectPunct(":", "after the block arguments") || !p.parseBlockOps(body, depth + 1))
    return false;
  p.combineReturns().pop_back();
  p.advance(); // '}'
  p.closeRegion();
  if (!p.expectPunct(")", "to close the region") || !p.expectPunct(":", "before the types") ||
      !p.expectPunct("(", "to open the operand types") || !p.operandTypes(op, "operand types") ||
      !p.expectPunct(")", "to close the operand types") ||
      !p.expectPunct("->", "before the result types"))
    return false;
  const bool parenthesised = p.isPunct("(");
  if (parenthesised)
    p.advance();
  for (size_t i = 0; i < op.operands.size(); ++i) {
    Type u;
    if ((i && !p.expectPunct(",", "between the result types")) || !p.parseType(u))
      return false;
    results.push_back(u);
  }
  if (parenthesised && !p.expectPunct(")", "to close the result types"))
    return false;
  if (auto kind = singleCombiner(p, body, p.valueType(op.operands[0]).elementType()))
    op.attrs.reduceKind = *kind;
  else
    op.regions.push_back(std::move(body));
  return true;
}

bool parseComputeOp(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return kParse[size_t(op.kind)](p, op, results, depth);
}

} // namespace linlayout::ir
