// The memory family: tt.addptr, tt.load, tt.store, tt.atomic_rmw, tt.atomic_cas.
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

// AddPtr
void printAddPtr(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands) << valueHints(a) << " : " << p.opnd(op, 0) << ", "
     << p.opnd(op, 1);
}

// Load, Store
void printLoadStore(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands);
  if (a.vectorWidth)
    os << " {ll.vec = " << a.vectorWidth << " : i32}";
  os << " : " << p.opnd(op, 0);
}

// AtomicCAS
void printAtomicCAS(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << name(a.semantic) << ", " << name(a.scope) << ", " << p.list(op.operands) << " : (";
  for (size_t i = 0; i < op.operands.size(); ++i)
    os << (i ? ", " : "") << p.opnd(op, i);
  os << ") -> " << p.res(op);
}

// AtomicRMW
void printAtomicRMW(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << name(a.atomicKind) << ",";
  printAtomicCAS(p, os, op, depth);
}

constexpr std::array<PrintOpFn, kNumOpKinds> kPrint = [] {
  std::array<PrintOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::AddPtr)] = printAddPtr;
  t[size_t(OpKind::Load)] = printLoadStore;
  t[size_t(OpKind::Store)] = printLoadStore;
  t[size_t(OpKind::AtomicRMW)] = printAtomicRMW;
  t[size_t(OpKind::AtomicCAS)] = printAtomicCAS;
  return t;
}();
static_assert(coversFamily(kPrint, OpFamily::Memory), "an op of the family has no printing");

// ---- verification -------------------------------------------------------------------------------

bool isPow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

// AddPtr
Status checkAddPtr(OpVerifier &v, const Op &op) {
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 2, 2, 1));
  if (!T(0).isPointerLike() || T(0).isMemDesc() || R() != T(0))
    return v.err(&op, "first operand and result must be the same pointer type, got " + v.ty(T(0)) +
                          " and " + v.ty(R()));
  if (!T(1).isIntLike() || T(1).isMemDesc() || T(1).elem().scalar == ScalarKind::I1 ||
      !sameShapeAndLayout(T(0), T(1)))
    return v.err(&op,
                 "offset must be an integer of the pointer's shape and layout, got " + v.ty(T(1)));
  return Status::success();
}

// Load, Store
Status checkLoadStore(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  bool isLoad = op.kind == OpKind::Load;
  LL_TRY_STATUS(v.counts(op, isLoad ? 1 : 2, 3, isLoad ? 1 : 0));
  const Type &p = T(0);
  if (!p.isPointerLike() || p.isMemDesc())
    return v.err(&op, "needs a pointer or tensor of pointers, got " + v.ty(p));
  Type value = p.withElem(ElemType{p.elem().scalar, false});
  if (isLoad && R() != value)
    return v.err(&op, "result must be " + v.ty(value) + ", got " + v.ty(R()));
  if (!isLoad && T(1) != value)
    return v.err(&op, "stored value must be " + v.ty(value) + ", got " + v.ty(T(1)));
  size_t maskIdx = isLoad ? 1 : 2;
  if (op.operands.size() > maskIdx) {
    Type mask = p.withElem(ElemType{ScalarKind::I1, false});
    if (T(maskIdx) != mask)
      return v.err(&op, "mask must be " + v.ty(mask) + ", got " + v.ty(T(maskIdx)));
  }
  if (isLoad && op.operands.size() > 2 && T(2) != value)
    return v.err(&op, "other must be " + v.ty(value) + ", got " + v.ty(T(2)));
  if (a.vectorWidth < 0 || a.vectorWidth > 64 || (a.vectorWidth && !isPow2(a.vectorWidth)))
    return v.err(&op, "vector width " + std::to_string(a.vectorWidth) +
                          " is not a power of two up to 64");
  return Status::success();
}

// AtomicRMW, AtomicCAS
Status checkAtomicRMWAtomicCAS(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  // Pointers, then one value (rmw) or a compare value and a new value (cas) of the pointee
  // type, then an optional mask.
  const size_t values = atomicValueOperands(op.kind);
  LL_TRY_STATUS(v.counts(op, 1 + values, 2 + values, 1));
  const Type &p = T(0);
  if (!p.isPointerLike() || p.isMemDesc())
    return v.err(&op, "needs a pointer or tensor of pointers, got " + v.ty(p));
  Type value = p.withElem(ElemType{p.elem().scalar, false});
  for (size_t i = 1; i <= values; ++i)
    if (T(i) != value)
      return v.err(&op, std::string(i == values ? "value" : "compare value") + " must be " +
                            v.ty(value) + ", got " + v.ty(T(i)));
  if (R() != value)
    return v.err(&op, "result must be " + v.ty(value) + ", got " + v.ty(R()));
  if (op.operands.size() > 1 + values) {
    Type mask = p.withElem(ElemType{ScalarKind::I1, false});
    if (T(1 + values) != mask)
      return v.err(&op, "mask must be " + v.ty(mask) + ", got " + v.ty(T(1 + values)));
  }
  ScalarKind k = p.elem().scalar;
  int bits = bitWidth(k);
  bool ok = bits == 32 || bits == 64;
  if (op.kind == OpKind::AtomicCAS) {
    if (!ok && bits != 16)
      return v.err(&op, "no atomic compare-and-swap on " + std::string(name(k)) +
                            " (it takes 16-, 32- or 64-bit elements)");
    return Status::success();
  }
  switch (a.atomicKind) {
  case AtomicKind::FAdd:
    ok = isFloat(k); // f16, bf16 (sm_90), f32, f64
    break;
  case AtomicKind::Exch:
    break;
  case AtomicKind::And:
  case AtomicKind::Or:
  case AtomicKind::Xor:
  case AtomicKind::Add:
  case AtomicKind::Max:
  case AtomicKind::Min:
  case AtomicKind::UMax:
  case AtomicKind::UMin:
    ok = ok && isInt(k);
    break;
  }
  if (!ok)
    return v.err(&op, "no atomic " + std::string(name(a.atomicKind)) + " on " +
                          std::string(name(k)) +
                          " (fadd takes f16, bf16, f32 or f64; exch any 32- or 64-bit element; "
                          "the others i32 or i64)");
  return Status::success();
}

constexpr std::array<VerifyOpFn, kNumOpKinds> kChecks = [] {
  std::array<VerifyOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::AddPtr)] = checkAddPtr;
  t[size_t(OpKind::Load)] = checkLoadStore;
  t[size_t(OpKind::Store)] = checkLoadStore;
  t[size_t(OpKind::AtomicRMW)] = checkAtomicRMWAtomicCAS;
  t[size_t(OpKind::AtomicCAS)] = checkAtomicRMWAtomicCAS;
  return t;
}();
static_assert(coversFamily(kChecks, OpFamily::Memory), "an op of the family has no checks");

} // namespace

void printMemoryOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyMemoryOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

} // namespace linlayout::ir
