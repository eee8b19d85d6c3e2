// The memory family: tt.addptr, tt.load, tt.store, tt.atomic_rmw, tt.atomic_cas.
#include "../IntArith.h"
#include "FamilyTable.h"
#include "OpInterpreter.h"
#include "OpParser.h"
#include "OpPrinter.h"
#include "OpVerifier.h"
#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/SharedTileLayout.h"

#include <array>
#include <bit>
#include <cmath>
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

constexpr auto kPrint = familyTable<OpFamily::Memory, PrintOpFn>({
    {OpKind::AddPtr, printAddPtr},
    {OpKind::Load, printLoadStore},
    {OpKind::Store, printLoadStore},
    {OpKind::AtomicRMW, printAtomicRMW},
    {OpKind::AtomicCAS, printAtomicCAS},
});

// ---- verification -------------------------------------------------------------------------------

bool isPow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

// AddPtr
Status checkAddPtr(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 2, 2, 1));
  const Type &p = v.operandType(op, 0), &off = v.operandType(op, 1), &r = v.resultType(op);
  if (!p.isPointerLike() || p.isMemDesc() || r != p)
    return v.err(&op, "first operand and result must be the same pointer type, got " + v.ty(p) +
                          " and " + v.ty(r));
  if (!off.isIntLike() || off.isMemDesc() || off.elem().scalar == ScalarKind::I1 ||
      !sameShapeAndLayout(p, off))
    return v.err(&op,
                 "offset must be an integer of the pointer's shape and layout, got " + v.ty(off));
  return Status::success();
}

// Load, Store
Status checkLoadStore(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  bool isLoad = op.kind == OpKind::Load;
  LL_TRY_STATUS(v.counts(op, isLoad ? 1 : 2, 3, isLoad ? 1 : 0));
  const Type &p = v.operandType(op, 0);
  if (!p.isPointerLike() || p.isMemDesc())
    return v.err(&op, "needs a pointer or tensor of pointers, got " + v.ty(p));
  Type value = p.withElem(ElemType{p.elem().scalar, false});
  if (isLoad && v.resultType(op) != value)
    return v.err(&op, "result must be " + v.ty(value) + ", got " + v.ty(v.resultType(op)));
  if (!isLoad && v.operandType(op, 1) != value)
    return v.err(&op,
                 "stored value must be " + v.ty(value) + ", got " + v.ty(v.operandType(op, 1)));
  size_t maskIdx = isLoad ? 1 : 2;
  if (op.operands.size() > maskIdx) {
    Type mask = p.withElem(ElemType{ScalarKind::I1, false});
    if (const Type &m = v.operandType(op, maskIdx); m != mask)
      return v.err(&op, "mask must be " + v.ty(mask) + ", got " + v.ty(m));
  }
  if (isLoad && op.operands.size() > 2 && v.operandType(op, 2) != value)
    return v.err(&op, "other must be " + v.ty(value) + ", got " + v.ty(v.operandType(op, 2)));
  if (a.vectorWidth < 0 || a.vectorWidth > 64 || (a.vectorWidth && !isPow2(a.vectorWidth)))
    return v.err(&op, "vector width " + std::to_string(a.vectorWidth) +
                          " is not a power of two up to 64");
  return Status::success();
}

// AtomicRMW, AtomicCAS
Status checkAtomicRMWAtomicCAS(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  // Pointers, then one value (rmw) or a compare value and a new value (cas) of the pointee
  // type, then an optional mask.
  const size_t values = atomicValueOperands(op.kind);
  LL_TRY_STATUS(v.counts(op, 1 + values, 2 + values, 1));
  const Type &p = v.operandType(op, 0), &r = v.resultType(op);
  if (!p.isPointerLike() || p.isMemDesc())
    return v.err(&op, "needs a pointer or tensor of pointers, got " + v.ty(p));
  Type value = p.withElem(ElemType{p.elem().scalar, false});
  for (size_t i = 1; i <= values; ++i)
    if (const Type &t = v.operandType(op, i); t != value)
      return v.err(&op, std::string(i == values ? "value" : "compare value") + " must be " +
                            v.ty(value) + ", got " + v.ty(t));
  if (r != value)
    return v.err(&op, "result must be " + v.ty(value) + ", got " + v.ty(r));
  if (op.operands.size() > 1 + values) {
    Type mask = p.withElem(ElemType{ScalarKind::I1, false});
    if (const Type &m = v.operandType(op, 1 + values); m != mask)
      return v.err(&op, "mask must be " + v.ty(mask) + ", got " + v.ty(m));
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

constexpr auto kChecks = familyTable<OpFamily::Memory, VerifyOpFn>({
    {OpKind::AddPtr, checkAddPtr},
    {OpKind::Load, checkLoadStore},
    {OpKind::Store, checkLoadStore},
    {OpKind::AtomicRMW, checkAtomicRMWAtomicCAS},
    {OpKind::AtomicCAS, checkAtomicRMWAtomicCAS},
});

} // namespace

void printMemoryOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyMemoryOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

// ---- interpretation -----------------------------------------------------------------------------

namespace {

// The integer binary op an atomic applies (nullopt for fadd and exch).
std::optional<OpKind> integerOpOf(AtomicKind k) {
  switch (k) {
  case AtomicKind::And:
    return OpKind::AndI;
  case AtomicKind::Or:
    return OpKind::OrI;
  case AtomicKind::Xor:
    return OpKind::XOrI;
  case AtomicKind::Add:
    return OpKind::AddI;
  case AtomicKind::Max:
    return OpKind::MaxSI;
  case AtomicKind::Min:
    return OpKind::MinSI;
  case AtomicKind::UMax:
    return OpKind::MaxUI;
  case AtomicKind::UMin:
    return OpKind::MinUI;
  case AtomicKind::FAdd:
  case AtomicKind::Exch:
    break;
  }
  return std::nullopt;
}

// Whether two floats of kind k (held as doubles) have the same bits in memory, as an atomic
// compare-and-swap compares them (0.0 and -0.0 differ, a NaN equals itself; the interpreter
// keeps NaN payloads of f32 and f64 only).
bool sameBits(double a, double b, ScalarKind k) {
  if (k == ScalarKind::F32)
    return std::bit_cast<uint32_t>(float(a)) == std::bit_cast<uint32_t>(float(b));
  if (k == ScalarKind::F64)
    return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b);
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

Status interpretAddPtr(OpInterpreter &in, const Op &op) {
  const Type &rt = in.type(op.results[0]);
  const RtValue &p = in.val(op.operands[0]);
  const auto &o = in.val(op.operands[1]).i;
  int64_t width = byteWidth(rt.elem().scalar);
  RtValue r;
  for (size_t e = 0; e < size_t(rt.numElements()); ++e) {
    r.buf.push_back(p.buf[e]);
    r.i.push_back(int64_t(uint64_t(p.i[e]) + uint64_t(at(o, e)) * uint64_t(width)));
  }
  return in.setResult(op, std::move(r));
}

Status interpretLoad(OpInterpreter &in, const Op &op) {
  const Type &rt = in.type(op.results[0]);
  const ScalarKind rk = rt.elem().scalar;
  const RtValue &p = in.val(op.operands[0]);
  const RtValue *mask = op.operands.size() > 1 ? &in.val(op.operands[1]) : nullptr;
  const RtValue *other = op.operands.size() > 2 ? &in.val(op.operands[2]) : nullptr;
  RtValue r;
  for (size_t e = 0; e < size_t(rt.numElements()); ++e) {
    if (mask && !mask->i[e]) {
      if (isFloat(rk))
        r.f.push_back(other ? other->f[e] : 0.0);
      else
        r.i.push_back(other ? other->i[e] : 0);
      continue;
    }
    LL_TRY_STATUS(loadElement(in, op, p.buf[e], p.i[e], rk, r));
  }
  return in.setResult(op, std::move(r));
}

Status interpretStore(OpInterpreter &in, const Op &op) {
  const RtValue &p = in.val(op.operands[0]);
  const RtValue &v = in.val(op.operands[1]);
  const RtValue *mask = op.operands.size() > 2 ? &in.val(op.operands[2]) : nullptr;
  ScalarKind k = in.type(op.operands[1]).elem().scalar;
  size_t count = size_t(in.type(op.operands[1]).numElements());
  for (size_t e = 0; e < count; ++e) {
    if (mask && !mask->i[e])
      continue;
    LL_TRY_STATUS(storeElement(in, op, p.buf[e], p.i[e], k, v.i.empty() ? 0 : v.i[e],
                               v.f.empty() ? 0 : v.f[e]));
  }
  return Status::success();
}

// Element by element, in index order (the GPU applies them in some order: only the values each
// element gets back may differ).
Status interpretAtomic(OpInterpreter &in, const Op &op) {
  const Type &rt = in.type(op.results[0]);
  const ScalarKind rk = rt.elem().scalar;
  const bool cas = op.kind == OpKind::AtomicCAS;
  const size_t maskAt = 1 + atomicValueOperands(op.kind);
  const RtValue &p = in.val(op.operands[0]);
  const RtValue &v = in.val(op.operands[maskAt - 1]); // the (new) value
  const RtValue *mask = op.operands.size() > maskAt ? &in.val(op.operands[maskAt]) : nullptr;
  bool isF = isFloat(rk);
  RtValue r;
  for (size_t e = 0; e < size_t(rt.numElements()); ++e) {
    if (mask && !at(mask->i, e)) { // masked off: nothing happens, the result is 0
      if (isF)
        r.f.push_back(0.0);
      else
        r.i.push_back(0);
      continue;
    }
    RtValue old;
    LL_TRY_STATUS(loadElement(in, op, p.buf[e], p.i[e], rk, old));
    if (cas) {
      // The new value goes in where memory holds the compare value's bits.
      const RtValue &c = in.val(op.operands[1]);
      bool same = isF ? sameBits(old.f[0], atf(c.f, e), rk) : old.i[0] == at(c.i, e);
      if (same)
        LL_TRY_STATUS(storeElement(in, op, p.buf[e], p.i[e], rk, isF ? 0 : at(v.i, e),
                                   isF ? atf(v.f, e) : 0));
      if (isF)
        r.f.push_back(old.f[0]);
      else
        r.i.push_back(old.i[0]);
      continue;
    }
    if (isF) {
      double o = old.f[0], x = atf(v.f, e);
      double next = op.attrs.atomicKind == AtomicKind::FAdd ? roundToFloatKind(o + x, rk) : x;
      LL_TRY_STATUS(storeElement(in, op, p.buf[e], p.i[e], rk, 0, next));
      r.f.push_back(o);
      continue;
    }
    // The integer operations are the binary ops of their names; exch stores the value.
    int64_t o = old.i[0], x = at(v.i, e), next = x;
    if (std::optional<OpKind> k = integerOpOf(op.attrs.atomicKind))
      next = *evalIntBinary(*k, o, x, rk);
    LL_TRY_STATUS(storeElement(in, op, p.buf[e], p.i[e], rk, next, 0));
    r.i.push_back(o);
  }
  return in.setResult(op, std::move(r));
}

constexpr auto kInterpret = familyTable<OpFamily::Memory, InterpretOpFn>({
    {OpKind::AddPtr, interpretAddPtr},
    {OpKind::Load, interpretLoad},
    {OpKind::Store, interpretStore},
    {OpKind::AtomicRMW, interpretAtomic},
    {OpKind::AtomicCAS, interpretAtomic},
});

} // namespace

Status loadElement(OpInterpreter &in, const Op &op, uint32_t buffer, int64_t offset, ScalarKind k,
                   RtValue &out) {
  if (buffer >= in.memory().buffers.size())
    return in.err(op, "pointer into buffer " + std::to_string(buffer) + ", which does not exist");
  const auto &bytes = in.memory().buffers[buffer];
  int64_t n = byteWidth(k);
  if (offset < 0 || offset + n > int64_t(bytes.size()))
    return in.err(op, "reads bytes [" + std::to_string(offset) + ", " + std::to_string(offset + n) +
                          ") of buffer " + std::to_string(buffer) + " of " +
                          std::to_string(bytes.size()) + " bytes");
  decodeElement(bytes.data() + offset, k, out);
  return Status::success();
}

Status storeElement(OpInterpreter &in, const Op &op, uint32_t buffer, int64_t offset, ScalarKind k,
                    int64_t iv, double fv) {
  if (buffer >= in.memory().buffers.size())
    return in.err(op, "pointer into buffer " + std::to_string(buffer) + ", which does not exist");
  auto &bytes = in.memory().buffers[buffer];
  int64_t n = byteWidth(k);
  if (offset < 0 || offset + n > int64_t(bytes.size()))
    return in.err(op, "writes bytes [" + std::to_string(offset) + ", " +
                          std::to_string(offset + n) + ") of buffer " + std::to_string(buffer) +
                          " of " + std::to_string(bytes.size()) + " bytes");
  encodeElement(bytes.data() + offset, k, iv, fv);
  return Status::success();
}

Status interpretMemoryOp(OpInterpreter &in, const Op &op) {
  return kInterpret[size_t(op.kind)](in, op);
}

// ---- parsing ------------------------------------------------------------------------------------

namespace {

bool parseAddPtr(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  Type t, u;
  if (!p.parseOperandsExactly(op, 2, "two operands"))
    return false;
  if (!p.parseOptionalHints(op.attrs))
    return false;
  if (!p.expectPunct(":", "before the types"))
    return false;
  if (!p.parseTypeOf(op.operands[0], t))
    return false;
  if (!p.expectPunct(",", "between the pointer and offset types"))
    return false;
  if (!p.parseTypeOf(op.operands[1], u))
    return false;
  results.push_back(t);
  return true;
}

bool parseLoadOrStore(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  OpAttrs &a = op.attrs;
  Type t;
  bool isLoad = op.kind == OpKind::Load;
  if (!p.parseOperands(op.operands, 3))
    return false;
  if (op.operands.size() < (isLoad ? 1u : 2u))
    return p.fail(isLoad ? "tt.load takes a pointer [, mask [, other]]"
                         : "tt.store takes a pointer, a value [, mask]");
  if (!p.parseOptionalVectorWidth(a))
    return false;
  if (!p.expectPunct(":", "before the pointer type"))
    return false;
  if (!p.parseTypeOf(op.operands[0], t))
    return false;
  if (isLoad)
    results.push_back(t.withElem(ElemType{t.elem().scalar, false}));
  return true;
}

bool parseAtomic(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  OpAttrs &a = op.attrs;
  Type u;
  // tt.atomic_rmw KIND, SEM, SCOPE, %ptr, %val [, %mask] : (types) -> type
  if (op.kind == OpKind::AtomicRMW &&
      (!p.parseName(atomicKindFromName,
                    "an atomic operation (and, or, xor, add, fadd, max, min, umax, umin, exch)",
                    a.atomicKind) ||
       !p.expectPunct(",", "after the atomic operation")))
    return false;
  // tt.atomic_cas SEM, SCOPE, %ptr, %cmp, %val [, %mask] : (types) -> type
  const bool cas = op.kind == OpKind::AtomicCAS;
  if (!p.parseName(memSemanticFromName, "a memory ordering (relaxed, acquire, release, acq_rel)",
                   a.semantic) ||
      !p.expectPunct(",", "after the memory ordering") ||
      !p.parseName(memScopeFromName, "a memory scope (gpu, cta, sys)", a.scope))
    return false;
  const size_t values = atomicValueOperands(op.kind);
  if (!p.expectPunct(",", "after the memory scope") || !p.parseOperands(op.operands, 2 + values))
    return false;
  if (op.operands.size() < 1 + values)
    return p.fail(cas ? "tt.atomic_cas takes a pointer, a compare value, a new value [, mask]"
                      : "tt.atomic_rmw takes a pointer, a value [, mask]");
  return p.operandTypesThenResult(op, results);
}

constexpr auto kParse = familyTable<OpFamily::Memory, ParseOpFn>({
    {OpKind::AddPtr, parseAddPtr},
    {OpKind::Load, parseLoadOrStore},
    {OpKind::Store, parseLoadOrStore},
    {OpKind::AtomicRMW, parseAtomic},
    {OpKind::AtomicCAS, parseAtomic},
});

} // namespace

bool parseMemoryOp(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return kParse[size_t(op.kind)](p, op, results, depth);
}

} // namespace linlayout::ir
