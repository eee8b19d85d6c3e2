// The source family: arith.constant, tt.get_program_id, tt.get_num_programs, tt.make_range.
#include "../IntArith.h"
#include "FamilyTable.h"
#include "OpInterpreter.h"
#include "OpParser.h"
#include "OpPrinter.h"
#include "OpVerifier.h"
#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/SharedTileLayout.h"

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace linlayout::ir {

namespace {

// ---- printing -----------------------------------------------------------------------------------

// Constant
void printConstant(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  const Type &rt = op.results.empty() ? Type() : p.function().type(op.results[0]);
  ScalarKind k = rt.elem().scalar;
  std::string val;
  if (k == ScalarKind::I1)
    val = a.intValue ? "true" : "false";
  else if (isFloat(k))
    val = formatFloat(a.floatValue, k);
  else
    val = std::to_string(a.intValue);
  if (rt.isTensor())
    os << " dense<" << val << "> : " << p.res(op);
  else if (k == ScalarKind::I1)
    os << " " << val;
  else
    os << " " << val << " : " << p.res(op);
}

// ProgramId, NumPrograms
void printProgramIdNumPrograms(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << (a.axis == 0 ? "x" : a.axis == 1 ? "y" : "z") << " : " << p.res(op);
}

// MakeRange
void printMakeRange(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " {end = " << a.end << " : i32, start = " << a.start << " : i32} : " << p.res(op);
}

constexpr auto kPrint = familyTable<OpFamily::Source, PrintOpFn>({
    {OpKind::Constant, printConstant},
    {OpKind::ProgramId, printProgramIdNumPrograms},
    {OpKind::NumPrograms, printProgramIdNumPrograms},
    {OpKind::MakeRange, printMakeRange},
});

// ---- verification -------------------------------------------------------------------------------

// Constant
Status checkConstant(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  LL_TRY_STATUS(v.counts(op, 0, 0, 1));
  const Type &r = v.resultType(op);
  if (r.isMemDesc() || r.isPointerLike())
    return v.err(&op, "constants are integers, floats or tensors of them, got " + v.ty(r));
  if (r.elem().scalar == ScalarKind::I1 && a.intValue != 0 && a.intValue != 1)
    return v.err(&op, "an i1 constant is 0 or 1, got " + std::to_string(a.intValue));
  return Status::success();
}

// ProgramId, NumPrograms
Status checkProgramIdNumPrograms(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  LL_TRY_STATUS(v.counts(op, 0, 0, 1));
  if (a.axis < 0 || a.axis > 2)
    return v.err(&op, "axis " + std::to_string(a.axis) + " is not 0, 1 or 2");
  if (const Type &r = v.resultType(op); r != Type::scalar(ScalarKind::I32))
    return v.err(&op, "result must be i32, got " + v.ty(r));
  return Status::success();
}

// MakeRange
Status checkMakeRange(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  LL_TRY_STATUS(v.counts(op, 0, 0, 1));
  const Type &r = v.resultType(op);
  if (!r.isTensor() || r.rank() != 1 || r.elem() != ElemType{ScalarKind::I32, false})
    return v.err(&op, "result must be a 1-D i32 tensor, got " + v.ty(r));
  if (a.start < 0 || a.end > (int64_t(1) << 31) || a.end - a.start != r.shape()[0])
    return v.err(&op, "range [" + std::to_string(a.start) + ", " + std::to_string(a.end) +
                          ") does not have " + std::to_string(r.shape()[0]) +
                          " elements within [0, 2^31)");
  return Status::success();
}

constexpr auto kChecks = familyTable<OpFamily::Source, VerifyOpFn>({
    {OpKind::Constant, checkConstant},
    {OpKind::ProgramId, checkProgramIdNumPrograms},
    {OpKind::NumPrograms, checkProgramIdNumPrograms},
    {OpKind::MakeRange, checkMakeRange},
});

} // namespace

void printSourceOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifySourceOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

// ---- interpretation -----------------------------------------------------------------------------

namespace {

Status interpretConstant(OpInterpreter &in, const Op &op) {
  const Type &rt = in.type(op.results[0]);
  const ScalarKind rk = rt.elem().scalar;
  const size_t n = size_t(rt.numElements());
  RtValue r;
  if (isFloat(rk))
    r.f.assign(n, roundToFloatKind(op.attrs.floatValue, rk));
  else
    r.i.assign(n, wrapInt(op.attrs.intValue, rk));
  return in.setResult(op, std::move(r));
}

Status interpretProgramId(OpInterpreter &in, const Op &op) {
  return in.setResult(op, RtValue{{in.programId(int(op.attrs.axis))}, {}, {}});
}

Status interpretNumPrograms(OpInterpreter &in, const Op &op) {
  const Grid &g = in.grid();
  const int64_t axis = op.attrs.axis;
  return in.setResult(op, RtValue{{axis == 0 ? g.x : axis == 1 ? g.y : g.z}, {}, {}});
}

Status interpretMakeRange(OpInterpreter &in, const Op &op) {
  RtValue r;
  for (int64_t x = op.attrs.start; x < op.attrs.end; ++x)
    r.i.push_back(x);
  return in.setResult(op, std::move(r));
}

constexpr auto kInterpret = familyTable<OpFamily::Source, InterpretOpFn>({
    {OpKind::Constant, interpretConstant},
    {OpKind::ProgramId, interpretProgramId},
    {OpKind::NumPrograms, interpretNumPrograms},
    {OpKind::MakeRange, interpretMakeRange},
});

} // namespace

Status interpretSourceOp(OpInterpreter &in, const Op &op) {
  return kInterpret[size_t(op.kind)](in, op);
}

// ---- parsing ------------------------------------------------------------------------------------

namespace {

// A float constant written as its bits in hex, as dumps write NaNs and infinities.
double floatFromBits(uint64_t bits, ScalarKind k) {
  if (k == ScalarKind::F64) {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  uint32_t b32 = uint32_t(bits);
  if (k == ScalarKind::BF16)
    b32 = uint32_t(bits & 0xFFFF) << 16;
  if (k == ScalarKind::F16) {
    // The interpreter's reading of a half from memory, NaNs and infinities included.
    const uint16_t h = uint16_t(bits);
    RtValue v;
    decodeElement(reinterpret_cast<const uint8_t *>(&h), k, v);
    return v.f[0];
  }
  float f;
  std::memcpy(&f, &b32, 4);
  return f;
}

bool parseConstant(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  OpAttrs &a = op.attrs;
  Token valueTok;
  bool dense = false;
  if (p.isIdent("dense")) {
    dense = true;
    p.advance();
    if (!p.expectPunct("<", "after 'dense'"))
      return false;
  }
  valueTok = p.token();
  if (!(p.token().kind == Tok::Integer || p.token().kind == Tok::Float || p.isIdent("true") ||
        p.isIdent("false")))
    return p.fail("expected a constant value, got " + p.describeToken());
  p.advance();
  if (dense && !p.expectPunct(">", "to close dense<...>"))
    return false;
  Type t = Type::scalar(ScalarKind::I1);
  bool isBool = valueTok.kind == Tok::Ident;
  if (p.isPunct(":")) {
    p.advance();
    if (!p.parseType(t))
      return false;
  } else if (!isBool) {
    return p.fail("expected ':' and a type after the constant, got " + p.describeToken());
  }
  if (dense != t.isTensor())
    return p.failAt(valueTok.loc, dense ? "dense<...> needs a tensor type"
                                        : "a tensor constant is written dense<...>");
  ScalarKind k = t.elem().scalar;
  if (t.elem().pointer)
    return p.failAt(valueTok.loc, "pointer constants are not supported");
  if (isBool) {
    if (k != ScalarKind::I1)
      return p.failAt(valueTok.loc, "true/false needs type i1");
    a.intValue = valueTok.text == "true";
  } else if (isFloat(k)) {
    if (valueTok.kind == Tok::Integer && valueTok.text.find("0x") != std::string_view::npos) {
      auto bits = OpParser::toInt(valueTok.text);
      if (!bits)
        return p.failAt(valueTok.loc, "bad hex constant");
      a.floatValue = floatFromBits(uint64_t(*bits), k);
    } else {
      a.floatValue = std::strtod(std::string(valueTok.text).c_str(), nullptr);
    }
  } else {
    if (valueTok.kind != Tok::Integer)
      return p.failAt(valueTok.loc, "integer type " + std::string(name(k)) + " needs an integer");
    auto v = OpParser::toInt(valueTok.text);
    if (!v)
      return p.failAt(valueTok.loc, "integer constant is out of range");
    a.intValue = *v;
  }
  results.push_back(t);
  return true;
}

bool parseProgramId(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  OpAttrs &a = op.attrs;
  Type t;
  if (p.isIdent("x") || p.isIdent("y") || p.isIdent("z")) {
    a.axis = p.token().text == "x" ? 0 : p.token().text == "y" ? 1 : 2;
    p.advance();
  } else if (p.isPunct("{")) {
    Dict d;
    if (!p.parseDict(d) || !p.dictInt(d, "axis", a.axis, true))
      return false;
  } else {
    return p.fail("expected x, y or z, got " + p.describeToken());
  }
  if (!p.typeAfterColon(t))
    return false;
  results.push_back(t);
  return true;
}

bool parseMakeRange(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  OpAttrs &a = op.attrs;
  Type t;
  Dict d;
  if (!p.parseDict(d) || !p.dictInt(d, "start", a.start, true) ||
      !p.dictInt(d, "end", a.end, true) || !p.typeAfterColon(t))
    return false;
  results.push_back(t);
  return true;
}

constexpr auto kParse = familyTable<OpFamily::Source, ParseOpFn>({
    {OpKind::Constant, parseConstant},
    {OpKind::ProgramId, parseProgramId},
    {OpKind::NumPrograms, parseProgramId},
    {OpKind::MakeRange, parseMakeRange},
});

} // namespace

bool parseSourceOp(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return kParse[size_t(op.kind)](p, op, results, depth);
}

} // namespace linlayout::ir
