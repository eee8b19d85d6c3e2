// The structure family: scf.for, scf.if, scf.yield, tt.return and the combining bodies' returns.
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

// A branch of an scf.if: an empty scf.yield at its end is left out (the parser adds it back).
void printBranchOps(OpPrinter &p, std::ostream &os, const Block &b, int depth) {
  for (size_t i = 0; i < b.ops.size(); ++i)
    if (i + 1 < b.ops.size() || b.ops[i].kind != OpKind::Yield || !b.ops[i].operands.empty())
      p.printOp(os, b.ops[i], depth);
}

bool onlyEmptyYield(const Block &b) {
  return b.ops.size() == 1 && b.ops[0].kind == OpKind::Yield && b.ops[0].operands.empty();
}

// `a, b`: the types of ids.
std::string types(OpPrinter &p, const std::vector<ValueId> &ids) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i)
    s += (i ? ", " : "") + p.t(ids[i]);
  return s;
}

// Return
void printReturn(OpPrinter &p, std::ostream &os, const Op &op, int depth) {}

// CombineReturn
void printCombineReturn(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands) << " : " << types(p, op.operands);
}

// Yield
void printYield(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  if (!op.operands.empty()) {
    os << " " << p.list(op.operands) << " : ";
    for (size_t i = 0; i < op.operands.size(); ++i)
      os << (i ? ", " : "") << p.t(op.operands[i]);
  }
}

// For
void printFor(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const std::string ind(size_t(depth) * 2, ' ');
  const Block *body = op.regions.empty() ? nullptr : &op.regions[0];
  ValueId iv = body && !body->args.empty() ? body->args[0] : kNoValue;
  os << " " << p.v(iv) << " = " << p.v(op.operands.size() > 0 ? op.operands[0] : kNoValue) << " to "
     << p.v(op.operands.size() > 1 ? op.operands[1] : kNoValue) << " step "
     << p.v(op.operands.size() > 2 ? op.operands[2] : kNoValue);
  if (op.operands.size() > 3) {
    os << " iter_args(";
    for (size_t i = 3; i < op.operands.size(); ++i) {
      ValueId arg = body && i - 2 < body->args.size() ? body->args[i - 2] : kNoValue;
      os << (i > 3 ? ", " : "") << p.v(arg) << " = " << p.v(op.operands[i]);
    }
    os << ") -> (";
    for (size_t i = 0; i < op.results.size(); ++i)
      os << (i ? ", " : "") << p.t(op.results[i]);
    os << ")";
  }
  os << " : " << (iv != kNoValue ? p.t(iv) : std::string("i32")) << " {\n";
  if (body)
    p.printBlockOps(os, *body, depth + 1);
  os << ind << "}";
}

// If
void printIf(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const std::string ind(size_t(depth) * 2, ' ');
  os << " " << p.v(op.operands.empty() ? kNoValue : op.operands[0]);
  if (!op.results.empty()) {
    os << " -> (";
    for (size_t i = 0; i < op.results.size(); ++i)
      os << (i ? ", " : "") << p.t(op.results[i]);
    os << ")";
  }
  os << " {\n";
  if (!op.regions.empty())
    printBranchOps(p, os, op.regions[0], depth + 1);
  os << ind << "}";
  if (op.regions.size() > 1 && !onlyEmptyYield(op.regions[1])) {
    os << " else {\n";
    printBranchOps(p, os, op.regions[1], depth + 1);
    os << ind << "}";
  }
}

constexpr std::array<PrintOpFn, kNumOpKinds> kPrint = [] {
  std::array<PrintOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::Return)] = printReturn;
  t[size_t(OpKind::CombineReturn)] = printCombineReturn;
  t[size_t(OpKind::Yield)] = printYield;
  t[size_t(OpKind::For)] = printFor;
  t[size_t(OpKind::If)] = printIf;
  return t;
}();
static_assert(coversFamily(kPrint, OpFamily::Structure), "an op of the family has no printing");

// ---- verification -------------------------------------------------------------------------------

// Return
Status checkReturn(OpVerifier &v, const Op &op) { return v.counts(op, 0, 0, 0); }

// Yield, For, If, CombineReturn
Status checkYieldForIfCombineReturn(OpVerifier &v, const Op &op) {
  return Status::success(); // checked with the loop, the if or the combining op
}

constexpr std::array<VerifyOpFn, kNumOpKinds> kChecks = [] {
  std::array<VerifyOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::Return)] = checkReturn;
  t[size_t(OpKind::Yield)] = checkYieldForIfCombineReturn;
  t[size_t(OpKind::For)] = checkYieldForIfCombineReturn;
  t[size_t(OpKind::If)] = checkYieldForIfCombineReturn;
  t[size_t(OpKind::CombineReturn)] = checkYieldForIfCombineReturn;
  return t;
}();
static_assert(coversFamily(kChecks, OpFamily::Structure), "an op of the family has no checks");

} // namespace

void printStructureOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyStructureOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

} // namespace linlayout::ir
