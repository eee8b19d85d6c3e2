// The elementwise family: integer and float arithmetic (BinaryInt, BinaryFloat, UnaryFloat),
// arith.cmpi / arith.cmpf, arith.select and the casts. Every operand and the result share one
// shape and layout. An arithmetic op is defined by its line in LINLAYOUT_IR_OPS plus its scalar
// semantics in a table below (integer ops: IntArith.cpp); its syntax, checks and loops over
// elements follow from its category.
#include "../IntArith.h"
#include "OpInterpreter.h"
#include "OpParser.h"
#include "OpPrinter.h"
#include "OpVerifier.h"
#include "linlayout/ir/Interpreter.h"

#include <array>
#include <cassert>
#include <cmath>
#include <limits>
#include <optional>

namespace linlayout::ir {

namespace {

bool isArithmetic(OpCategory c) {
  return c == OpCategory::BinaryInt || c == OpCategory::BinaryFloat || c == OpCategory::UnaryFloat;
}

// ---- semantics ----------------------------------------------------------------------------------

// The smaller / larger of two numbers (not NaN), -0 below +0.
double orderedMin(double p, double q) {
  return p == q ? (std::signbit(p) ? p : q) : std::min(p, q);
}
double orderedMax(double p, double q) {
  return p == q ? (std::signbit(p) ? q : p) : std::max(p, q);
}

// Per op kind, a BinaryFloat op's value before rounding to the result type (floats are computed
// in double). -0 is below +0 (IEEE 754-2019 minimum / maximum, LLVM's llvm.minimum, the GPU's
// FMNMX); minimumf / maximumf give NaN for a NaN operand, the *numf forms the other operand.
using FloatBinaryFn = double (*)(double, double);
constexpr std::array<FloatBinaryFn, kNumOpKinds> kFloatBinary = [] {
  std::array<FloatBinaryFn, kNumOpKinds> t{};
  auto set = [&](OpKind k, FloatBinaryFn fn) { t[size_t(k)] = fn; };
  set(OpKind::AddF, [](double p, double q) { return p + q; });
  set(OpKind::SubF, [](double p, double q) { return p - q; });
  set(OpKind::MulF, [](double p, double q) { return p * q; });
  set(OpKind::DivF, [](double p, double q) { return p / q; });
  set(OpKind::MinF,
      [](double p, double q) { return std::isnan(p) || std::isnan(q) ? NAN : orderedMin(p, q); });
  set(OpKind::MaxF,
      [](double p, double q) { return std::isnan(p) || std::isnan(q) ? NAN : orderedMax(p, q); });
  set(OpKind::MinNumF, [](double p, double q) {
    return std::isnan(p) ? q : std::isnan(q) ? p : orderedMin(p, q);
  });
  set(OpKind::MaxNumF, [](double p, double q) {
    return std::isnan(p) ? q : std::isnan(q) ? p : orderedMax(p, q);
  });
  // C's fmod: the remainder of the quotient truncated toward zero, with p's sign.
  set(OpKind::RemF, [](double p, double q) { return std::fmod(p, q); });
  // Triton's div_rn: the quotient rounded once to the element type (a double holds it exactly
  // enough that rounding it again to f32 or f16 is the correct rounding).
  set(OpKind::PreciseDivF, [](double p, double q) { return p / q; });
  return t;
}();
static_assert(coversCategory(kFloatBinary, OpCategory::BinaryFloat),
              "a BinaryFloat op has no entry in kFloatBinary");

// Per op kind, a UnaryFloat op's value before rounding to the result type.
using FloatUnaryFn = double (*)(double);
constexpr std::array<FloatUnaryFn, kNumOpKinds> kFloatUnary = [] {
  std::array<FloatUnaryFn, kNumOpKinds> t{};
  auto set = [&](OpKind k, FloatUnaryFn fn) { t[size_t(k)] = fn; };
  set(OpKind::NegF, [](double p) { return -p; });
  set(OpKind::Exp, [](double p) { return std::exp(p); });
  set(OpKind::Exp2, [](double p) { return std::exp2(p); });
  set(OpKind::Log, [](double p) { return std::log(p); });
  set(OpKind::Sqrt, [](double p) { return std::sqrt(p); });
  set(OpKind::AbsF, [](double p) { return std::fabs(p); });
  set(OpKind::Log2, [](double p) { return std::log2(p); });
  set(OpKind::Rsqrt, [](double p) { return 1 / std::sqrt(p); });
  set(OpKind::Floor, [](double p) { return std::floor(p); });
  set(OpKind::Ceil, [](double p) { return std::ceil(p); });
  return t;
}();
static_assert(coversCategory(kFloatUnary, OpCategory::UnaryFloat),
              "a UnaryFloat op has no entry in kFloatUnary");

// Float predicates are ordered (false where either is NaN) but for une.
bool compare(CmpPredicate pred, double p, double q) {
  const bool unordered = std::isnan(p) || std::isnan(q);
  switch (pred) {
  case CmpPredicate::Oeq:
    return !unordered && p == q;
  case CmpPredicate::One:
    return !unordered && p != q;
  case CmpPredicate::Olt:
    return !unordered && p < q;
  case CmpPredicate::Ole:
    return !unordered && p <= q;
  case CmpPredicate::Ogt:
    return !unordered && p > q;
  case CmpPredicate::Oge:
    return !unordered && p >= q;
  case CmpPredicate::Une:
    return unordered || p != q;
  case CmpPredicate::Eq:
  case CmpPredicate::Ne:
  case CmpPredicate::Slt:
  case CmpPredicate::Sle:
  case CmpPredicate::Sgt:
  case CmpPredicate::Sge:
  case CmpPredicate::Ult:
  case CmpPredicate::Ule:
  case CmpPredicate::Ugt:
  case CmpPredicate::Uge:
    break; // the verifier keeps integer predicates off cmpf
  }
  return false;
}

// Per cast kind, whether it may convert `from` to `to` (tt.fp_to_fp: checkFpToFp).
using CastAllowedFn = bool (*)(ScalarKind from, ScalarKind to);
constexpr std::array<CastAllowedFn, kNumOpKinds> kCastAllowed = [] {
  std::array<CastAllowedFn, kNumOpKinds> t{};
  auto set = [&](OpKind k, CastAllowedFn fn) { t[size_t(k)] = fn; };
  auto intToFloat = [](ScalarKind from, ScalarKind to) { return isInt(from) && isFloat(to); };
  auto floatToInt = [](ScalarKind from, ScalarKind to) { return isFloat(from) && isInt(to); };
  auto extI = [](ScalarKind from, ScalarKind to) {
    return isInt(from) && isInt(to) && bitWidth(to) > bitWidth(from);
  };
  set(OpKind::SIToFP, intToFloat);
  set(OpKind::UIToFP, intToFloat);
  set(OpKind::FPToSI, floatToInt);
  set(OpKind::FPToUI, floatToInt);
  set(OpKind::ExtF, [](ScalarKind from, ScalarKind to) {
    return isFloat(from) && isFloat(to) && bitWidth(to) > bitWidth(from);
  });
  set(OpKind::TruncF, [](ScalarKind from, ScalarKind to) {
    return isFloat(from) && isFloat(to) && bitWidth(to) < bitWidth(from);
  });
  set(OpKind::ExtSI, extI);
  set(OpKind::ExtUI, extI);
  set(OpKind::TruncI, [](ScalarKind from, ScalarKind to) {
    return isInt(from) && isInt(to) && bitWidth(to) < bitWidth(from);
  });
  // The same bits read as another type of their width.
  set(OpKind::Bitcast, [](ScalarKind from, ScalarKind to) {
    return bitWidth(to) == bitWidth(from) && from != ScalarKind::I1;
  });
  set(OpKind::FpToFp, [](ScalarKind, ScalarKind) { return true; });
  return t;
}();
static_assert(coversCategory(kCastAllowed, OpCategory::Cast),
              "a cast has no entry in kCastAllowed");

Status checkFpToFp(OpVerifier &v, const Op &op, ScalarKind from, ScalarKind to) {
  auto convertible = [](ScalarKind k) {
    return isFp8(k) || k == ScalarKind::F16 || k == ScalarKind::BF16 || k == ScalarKind::F32;
  };
  if (!convertible(from) || !convertible(to) || from == to || (!isFp8(from) && !isFp8(to)))
    return v.err(&op, "converts between an 8-bit float and f16, bf16, f32 or the other 8-bit "
                      "float, not " +
                          std::string(name(from)) + " to " + std::string(name(to)));
  // Narrowing: to an 8-bit float from anything, or from one to the other.
  const bool narrows = isFp8(to);
  if (narrows && op.attrs.rounding == Rounding::None)
    return v.err(&op, "converting " + std::string(name(from)) + " to " + std::string(name(to)) +
                          " needs a rounding (rounding = rtne)");
  if (narrows && op.attrs.rounding == Rounding::Rtz)
    return v.err(&op, "rounding = rtz to an 8-bit float is not supported; use rtne");
  return Status::success();
}

// Per cast kind, its value of element x (integers in `xi`, floats in `xf`) of kind `from`, as
// kind `to`, appended to r.
using CastElementFn = void (*)(ScalarKind from, ScalarKind to, int64_t xi, double xf, RtValue &r);
constexpr std::array<CastElementFn, kNumOpKinds> kCastElement = [] {
  std::array<CastElementFn, kNumOpKinds> t{};
  auto set = [&](OpKind k, CastElementFn fn) { t[size_t(k)] = fn; };
  set(OpKind::SIToFP, [](ScalarKind from, ScalarKind to, int64_t xi, double, RtValue &r) {
    r.f.push_back(roundToFloatKind(double(asSigned(xi, from)), to));
  });
  set(OpKind::UIToFP, [](ScalarKind from, ScalarKind to, int64_t xi, double, RtValue &r) {
    r.f.push_back(roundToFloatKind(double(asUnsigned(xi, from)), to));
  });
  // Saturating, as PTX's cvt.rzi does: NaN and negatives give 0, too large the maximum.
  set(OpKind::FPToUI, [](ScalarKind, ScalarKind to, int64_t, double xf, RtValue &r) {
    const int bits = bitWidth(to);
    double hi = std::ldexp(1.0, bits);
    double t = std::isnan(xf) || xf < 0 ? 0 : std::trunc(xf);
    uint64_t v = t >= hi ? (bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1) : uint64_t(t);
    r.i.push_back(wrapInt(int64_t(v), to));
  });
  set(OpKind::FPToSI, [](ScalarKind, ScalarKind to, int64_t, double xf, RtValue &r) {
    const int bits = bitWidth(to);
    double hi = bits >= 64 ? 9.2233720368547748e18 : std::ldexp(1.0, bits - 1);
    double t = std::isnan(xf) ? 0 : std::trunc(xf);
    int64_t v = t >= hi   ? (bits >= 64 ? std::numeric_limits<int64_t>::max() : int64_t(hi) - 1)
                : t < -hi ? (bits >= 64 ? std::numeric_limits<int64_t>::min() : -int64_t(hi))
                          : int64_t(t);
    r.i.push_back(wrapInt(v, to));
  });
  set(OpKind::ExtSI, [](ScalarKind from, ScalarKind to, int64_t xi, double, RtValue &r) {
    r.i.push_back(wrapInt(asSigned(xi, from), to));
  });
  set(OpKind::ExtUI, [](ScalarKind from, ScalarKind to, int64_t xi, double, RtValue &r) {
    r.i.push_back(wrapInt(int64_t(asUnsigned(xi, from)), to));
  });
  set(OpKind::TruncI, [](ScalarKind, ScalarKind to, int64_t xi, double, RtValue &r) {
    r.i.push_back(wrapInt(xi, to));
  });
  // The element's bytes, read as the result type.
  set(OpKind::Bitcast, [](ScalarKind from, ScalarKind to, int64_t xi, double xf, RtValue &r) {
    uint8_t bytes[8] = {};
    encodeElement(bytes, from, isFloat(from) ? 0 : xi, isFloat(from) ? xf : 0);
    decodeElement(bytes, to, r);
  });
  // Exact, or rounded to nearest even (and saturated, to an 8-bit float).
  auto round = [](ScalarKind, ScalarKind to, int64_t, double xf, RtValue &r) {
    r.f.push_back(roundToFloatKind(xf, to));
  };
  set(OpKind::ExtF, round);
  set(OpKind::TruncF, round);
  set(OpKind::FpToFp, round);
  return t;
}();
static_assert(coversCategory(kCastElement, OpCategory::Cast),
              "a cast has no entry in kCastElement");

} // namespace

double evalFloatBinary(OpKind k, double p, double q) {
  assert(kFloatBinary[size_t(k)] && "not a BinaryFloat op");
  return kFloatBinary[size_t(k)](p, q);
}

// ---- parsing ------------------------------------------------------------------------------------

bool parseElementwiseOp(OpParser &p, Op &op, std::vector<Type> &results, int) {
  const OpCategory c = category(op.kind);
  const std::string name(mnemonic(op.kind));
  Type t, u;
  if (isArithmetic(c)) {
    size_t n = c == OpCategory::UnaryFloat ? 1 : 2;
    if (!p.parseOperands(op.operands, n, false))
      return false;
    if (op.operands.size() != n)
      return p.fail(name + " takes " + std::to_string(n) + " operand(s), got " +
                    std::to_string(op.operands.size()));
    if (!p.parseOptionalHints(op.attrs)) // value hints; fastmath and the like are skipped
      return false;
    if (!p.expectPunct(":", "before the type") || !p.parseTypeOfAll(op.operands, t))
      return false;
    results.push_back(t);
    return true;
  }
  if (c == OpCategory::Compare) {
    auto text = p.peekIdent();
    if (!text)
      return p.fail("expected a predicate such as slt, got " + p.describeToken());
    auto pred = cmpPredicateFromName(*text);
    if (!pred || isFloatPredicate(*pred) != (op.kind == OpKind::CmpF))
      return p.fail("unknown " + name + " predicate " + p.describeToken());
    op.attrs.predicate = *pred;
    p.advance();
    if (!p.expectPunct(",", "after the predicate") ||
        !p.parseOperandsExactly(op, 2, "two operands"))
      return false;
    if (!p.expectPunct(":", "before the operand type") || !p.parseTypeOfAll(op.operands, t))
      return false;
    results.push_back(t.withElem(ElemType{ScalarKind::I1, false}));
    return true;
  }
  if (c == OpCategory::Select) {
    if (!p.parseOperandsExactly(op, 3, "three operands"))
      return false;
    if (!p.expectPunct(":", "before the type"))
      return false;
    Loc tloc = p.loc();
    if (!p.parseType(t, false))
      return false;
    if (p.isPunct(",")) { // `: i1, T` or `: tensor<..xi1>, T`: the condition's type first
      p.advance();
      if (!p.checkType(op.operands[0], t, tloc))
        return false;
      tloc = p.loc();
      if (!p.parseType(t, false))
        return false;
    }
    if (!p.checkType(op.operands[1], t, tloc) || !p.checkType(op.operands[2], t, tloc))
      return false;
    results.push_back(t);
    return true;
  }
  // Casts: `arith.X %x : T to U`, `tt.bitcast %x : T -> U`, `tt.fp_to_fp %x[, rounding = rtne]
  // : T -> U` (parseOperands takes the comma before `rounding`).
  if (!p.parseOperandsExactly(op, 1, "one operand"))
    return false;
  if (op.kind == OpKind::FpToFp && p.isIdent("rounding")) {
    p.advance();
    if (!p.expectPunct("=", "after rounding"))
      return false;
    if (!p.isIdent("rtne") && !p.isIdent("rtz"))
      return p.fail("rounding must be rtne or rtz, got '" +
                    std::string(p.peekIdent().value_or(p.describeToken())) + "'");
    op.attrs.rounding = p.isIdent("rtne") ? Rounding::Rtne : Rounding::Rtz;
    p.advance();
  }
  if (!p.expectPunct(":", "before the operand type") || !p.parseTypeOf(op.operands[0], t))
    return false;
  const bool arrow = op.kind == OpKind::Bitcast || op.kind == OpKind::FpToFp;
  if (arrow ? !p.expectPunct("->", "between the operand and result types")
            : !p.expectIdent("to", "between the operand and result types"))
    return false;
  if (!p.parseType(u, false))
    return false;
  results.push_back(u);
  return true;
}

// ---- printing -----------------------------------------------------------------------------------

void printElementwiseOp(OpPrinter &p, std::ostream &os, const Op &op, int) {
  const OpCategory c = category(op.kind);
  const OpAttrs &a = op.attrs;
  if (isArithmetic(c)) {
    os << " " << p.list(op.operands) << valueHints(a) << " : " << p.res(op);
  } else if (c == OpCategory::Compare) {
    os << " " << name(a.predicate) << ", " << p.list(op.operands) << " : " << p.opnd(op, 0);
  } else if (c == OpCategory::Select) {
    os << " " << p.list(op.operands) << " : ";
    if (!op.operands.empty() && p.function().isValid(op.operands[0]) &&
        p.function().type(op.operands[0]).isTensor())
      os << p.opnd(op, 0) << ", ";
    os << p.res(op);
  } else if (op.kind == OpKind::Bitcast) {
    os << " " << p.list(op.operands) << " : " << p.opnd(op, 0) << " -> " << p.res(op);
  } else if (op.kind == OpKind::FpToFp) {
    os << " " << p.list(op.operands)
       << (a.rounding == Rounding::Rtne  ? ", rounding = rtne"
           : a.rounding == Rounding::Rtz ? ", rounding = rtz"
                                         : "")
       << " : " << p.opnd(op, 0) << " -> " << p.res(op);
  } else {
    os << " " << p.list(op.operands) << " : " << p.opnd(op, 0) << " to " << p.res(op);
  }
}

// ---- verification -------------------------------------------------------------------------------

Status verifyElementwiseOp(OpVerifier &v, const Op &op) {
  const OpCategory c = category(op.kind);
  if (isArithmetic(c)) {
    size_t n = c == OpCategory::UnaryFloat ? 1 : 2;
    LL_TRY_STATUS(v.counts(op, n, n, 1));
    const Type &r = v.resultType(op);
    bool wantFloat = c != OpCategory::BinaryInt;
    if (r.isMemDesc() || (wantFloat ? !r.isFloatLike() : !r.isIntLike()))
      return v.err(&op, std::string("needs ") + (wantFloat ? "float" : "integer") +
                            " operands, got " + v.ty(r));
    for (size_t i = 0; i < n; ++i)
      if (const Type &t = v.operandType(op, i); t != r)
        return v.err(&op, "operand " + std::to_string(i) + " has type " + v.ty(t) + ", expected " +
                              v.ty(r));
    return Status::success();
  }
  if (c == OpCategory::Compare) {
    LL_TRY_STATUS(v.counts(op, 2, 2, 1));
    const Type &x = v.operandType(op, 0), &y = v.operandType(op, 1), &r = v.resultType(op);
    bool f = op.kind == OpKind::CmpF;
    if (isFloatPredicate(op.attrs.predicate) != f)
      return v.err(&op, "predicate " + std::string(name(op.attrs.predicate)) + " does not fit");
    if (x != y || x.isMemDesc() || (f ? !x.isFloatLike() : !x.isIntLike()))
      return v.err(&op, "operands must share one " + std::string(f ? "float" : "integer") +
                            " type, got " + v.ty(x) + " and " + v.ty(y));
    if (r != x.withElem(ElemType{ScalarKind::I1, false}))
      return v.err(&op, "result must be i1 of the operands' shape and layout, got " + v.ty(r));
    return Status::success();
  }
  if (c == OpCategory::Select) {
    LL_TRY_STATUS(v.counts(op, 3, 3, 1));
    const Type &cond = v.operandType(op, 0), &r = v.resultType(op);
    if (v.operandType(op, 1) != r || v.operandType(op, 2) != r || r.isMemDesc())
      return v.err(&op, "both choices must have the result type " + v.ty(r));
    if (cond.elem() != ElemType{ScalarKind::I1, false} || cond.isMemDesc() ||
        (cond.isTensor() && !sameShapeAndLayout(cond, r)))
      return v.err(&op, "condition must be i1 (scalar, or of the result's shape and layout), "
                        "got " +
                            v.ty(cond));
    return Status::success();
  }
  LL_TRY_STATUS(v.checkElementCast(op));
  ScalarKind from = v.operandType(op, 0).elem().scalar, to = v.resultType(op).elem().scalar;
  if (op.kind == OpKind::FpToFp)
    return checkFpToFp(v, op, from, to);
  if (!kCastAllowed[size_t(op.kind)](from, to))
    return v.err(&op, "cannot cast " + std::string(name(from)) + " to " + std::string(name(to)));
  return Status::success();
}

// ---- interpretation -----------------------------------------------------------------------------

Status interpretElementwiseOp(OpInterpreter &in, const Op &op) {
  const OpCategory c = category(op.kind);
  const Type &rt = in.type(op.results[0]);
  const ScalarKind rk = rt.elem().scalar;
  const size_t n = size_t(rt.numElements());
  RtValue r;
  if (c == OpCategory::BinaryInt) {
    const auto &x = in.val(op.operands[0]).i, &y = in.val(op.operands[1]).i;
    r.i.reserve(n);
    for (size_t e = 0; e < n; ++e) {
      std::optional<int64_t> v = evalIntBinary(op.kind, at(x, e), at(y, e), rk);
      if (!v)
        return in.err(op, "division by zero");
      r.i.push_back(*v);
    }
  } else if (c == OpCategory::BinaryFloat) {
    const FloatBinaryFn fn = kFloatBinary[size_t(op.kind)];
    const auto &x = in.val(op.operands[0]).f, &y = in.val(op.operands[1]).f;
    for (size_t e = 0; e < n; ++e)
      r.f.push_back(roundToFloatKind(fn(atf(x, e), atf(y, e)), rk));
  } else if (c == OpCategory::UnaryFloat) {
    const FloatUnaryFn fn = kFloatUnary[size_t(op.kind)];
    const auto &x = in.val(op.operands[0]).f;
    for (size_t e = 0; e < n; ++e)
      r.f.push_back(roundToFloatKind(fn(atf(x, e)), rk));
  } else if (c == OpCategory::Compare) {
    const RtValue &x = in.val(op.operands[0]), &y = in.val(op.operands[1]);
    const ScalarKind ok = in.type(op.operands[0]).elem().scalar;
    for (size_t e = 0; e < n; ++e) {
      if (op.kind == OpKind::CmpI) {
        r.i.push_back(evalIntCompare(op.attrs.predicate, at(x.i, e), at(y.i, e), ok));
      } else {
        r.i.push_back(compare(op.attrs.predicate, atf(x.f, e), atf(y.f, e)));
      }
    }
  } else if (c == OpCategory::Select) {
    const RtValue &cond = in.val(op.operands[0]), &x = in.val(op.operands[1]),
                  &y = in.val(op.operands[2]);
    for (size_t e = 0; e < n; ++e) {
      const RtValue &s = at(cond.i, e) ? x : y;
      if (!s.i.empty())
        r.i.push_back(s.i[e]);
      if (!s.f.empty())
        r.f.push_back(s.f[e]);
      if (!s.buf.empty())
        r.buf.push_back(s.buf[e]);
    }
  } else { // casts
    const ScalarKind from = in.type(op.operands[0]).elem().scalar;
    const RtValue &x = in.val(op.operands[0]);
    const bool fromFloat = isFloat(from);
    for (size_t e = 0; e < n; ++e)
      kCastElement[size_t(op.kind)](from, rk, fromFloat ? 0 : at(x.i, e),
                                    fromFloat ? atf(x.f, e) : 0, r);
  }
  return in.setResult(op, std::move(r));
}

} // namespace linlayout::ir
