// The source family: arith.constant, tt.get_program_id, tt.get_num_programs, tt.make_range.
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

constexpr std::array<PrintOpFn, kNumOpKinds> kPrint = [] {
  std::array<PrintOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::Constant)] = printConstant;
  t[size_t(OpKind::ProgramId)] = printProgramIdNumPrograms;
  t[size_t(OpKind::NumPrograms)] = printProgramIdNumPrograms;
  t[size_t(OpKind::MakeRange)] = printMakeRange;
  return t;
}();
static_assert(coversFamily(kPrint, OpFamily::Source), "an op of the family has no printing");

// ---- verification -------------------------------------------------------------------------------

// Constant
Status checkConstant(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 0, 0, 1));
  if (R().isMemDesc() || R().isPointerLike())
    return v.err(&op, "constants are integers, floats or tensors of them, got " + v.ty(R()));
  if (R().elem().scalar == ScalarKind::I1 && a.intValue != 0 && a.intValue != 1)
    return v.err(&op, "an i1 constant is 0 or 1, got " + std::to_string(a.intValue));
  return Status::success();
}

// ProgramId, NumPrograms
Status checkProgramIdNumPrograms(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 0, 0, 1));
  if (a.axis < 0 || a.axis > 2)
    return v.err(&op, "axis " + std::to_string(a.axis) + " is not 0, 1 or 2");
  if (R() != Type::scalar(ScalarKind::I32))
    return v.err(&op, "result must be i32, got " + v.ty(R()));
  return Status::success();
}

// MakeRange
Status checkMakeRange(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 0, 0, 1));
  if (!R().isTensor() || R().rank() != 1 || R().elem() != ElemType{ScalarKind::I32, false})
    return v.err(&op, "result must be a 1-D i32 tensor, got " + v.ty(R()));
  if (a.start < 0 || a.end > (int64_t(1) << 31) || a.end - a.start != R().shape()[0])
    return v.err(&op, "range [" + std::to_string(a.start) + ", " + std::to_string(a.end) +
                          ") does not have " + std::to_string(R().shape()[0]) +
                          " elements within [0, 2^31)");
  return Status::success();
}

constexpr std::array<VerifyOpFn, kNumOpKinds> kChecks = [] {
  std::array<VerifyOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::Constant)] = checkConstant;
  t[size_t(OpKind::ProgramId)] = checkProgramIdNumPrograms;
  t[size_t(OpKind::NumPrograms)] = checkProgramIdNumPrograms;
  t[size_t(OpKind::MakeRange)] = checkMakeRange;
  return t;
}();
static_assert(coversFamily(kChecks, OpFamily::Source), "an op of the family has no checks");

} // namespace

void printSourceOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifySourceOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

} // namespace linlayout::ir
