// The hopper family: ttng.warp_group_dot and its wait, the TMA copies, the mbarriers and the proxy
// fence.
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

// ` %desc[%c0, %c1] `: a TMA copy's descriptor and its `coords` coordinates.
std::string tmaBox(OpPrinter &p, const Op &op, size_t coords) {
  return " " + p.list(op.operands, 0, 1) + "[" + p.list(op.operands, 1, 1 + coords) + "] ";
}

// WarpGroupDot
void printWarpGroupDot(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands) << " {isAsync = " << (a.isAsync ? "true" : "false")
     << "} : " << p.opnd(op, 0) << " * " << p.opnd(op, 1) << " -> " << p.res(op);
}

// WarpGroupDotWait
void printWarpGroupDotWait(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands) << " {pendings = " << a.pendings << " : i32} : ";
  for (size_t i = 0; i < op.operands.size(); ++i)
    os << (i ? ", " : "") << p.opnd(op, i);
}

// FenceAsyncShared
void printFenceAsyncShared(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " {bCluster = false}";
}

// InitBarrier
void printInitBarrier(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands, 0, 1) << ", " << a.count << " : " << p.opnd(op, 0);
}

// InvalBarrier
void printInvalBarrier(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands, 0, 1) << " : " << p.opnd(op, 0);
}

// BarrierExpect
void printBarrierExpect(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands, 0, 1) << ", " << a.count << ", " << p.list(op.operands, 1, 2)
     << " : " << p.opnd(op, 0);
}

// WaitBarrier
void printWaitBarrier(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands) << " : " << p.opnd(op, 0);
}

// AsyncTmaCopyLocalToGlobal
void printAsyncTmaCopyLocalToGlobal(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  size_t n = op.operands.size();
  os << tmaBox(p, op, n - 2) << p.list(op.operands, n - 1, n) << " : " << p.opnd(op, 0) << ", "
     << p.opnd(op, n - 1);
}

// AsyncTmaStoreWait
void printAsyncTmaStoreWait(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " {pendings = " << a.pendings << " : i32}";
}

// AsyncTmaCopyGlobalToLocal
void printAsyncTmaCopyGlobalToLocal(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  size_t n = op.operands.size();
  os << tmaBox(p, op, n - 4) << p.list(op.operands, n - 3, n) << " : " << p.opnd(op, 0) << ", "
     << p.opnd(op, n - 2) << " -> " << p.opnd(op, n - 3);
}

constexpr std::array<PrintOpFn, kNumOpKinds> kPrint = [] {
  std::array<PrintOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::WarpGroupDot)] = printWarpGroupDot;
  t[size_t(OpKind::WarpGroupDotWait)] = printWarpGroupDotWait;
  t[size_t(OpKind::FenceAsyncShared)] = printFenceAsyncShared;
  t[size_t(OpKind::InitBarrier)] = printInitBarrier;
  t[size_t(OpKind::InvalBarrier)] = printInvalBarrier;
  t[size_t(OpKind::BarrierExpect)] = printBarrierExpect;
  t[size_t(OpKind::WaitBarrier)] = printWaitBarrier;
  t[size_t(OpKind::AsyncTmaCopyLocalToGlobal)] = printAsyncTmaCopyLocalToGlobal;
  t[size_t(OpKind::AsyncTmaStoreWait)] = printAsyncTmaStoreWait;
  t[size_t(OpKind::AsyncTmaCopyGlobalToLocal)] = printAsyncTmaCopyGlobalToLocal;
  return t;
}();
static_assert(coversFamily(kPrint, OpFamily::Hopper), "an op of the family has no printing");

// ---- verification -------------------------------------------------------------------------------

// An mbarrier: one mutable 64-bit word of shared memory.
Status checkBarrier(OpVerifier &v, const Op &op, size_t i) {
  const Type &t = v.type(op.operands[i]);
  if (!t.isMemDesc() || t.shape() != std::vector<int64_t>{1} ||
      t.elem() != ElemType{ScalarKind::I64, false} || !t.isMutable())
    return v.err(&op, "the barrier must be a !ttg.memdesc<1xi64, ..., mutable> (index a ring "
                      "of barriers first), got " +
                          v.ty(t));
  return Status::success();
}

Status checkScalar(OpVerifier &v, const Op &op, size_t i, ScalarKind k, const char *what) {
  const Type &t = v.type(op.operands[i]);
  if (!t.isScalar() || t.elem().scalar != k)
    return v.err(&op, std::string("the ") + what + " must be " + std::string(name(k)) + ", got " +
                          v.ty(t));
  return Status::success();
}

// The descriptor (operand 0) and its `coords` i32 coordinates (operands 1..) of a TMA copy
// `from` or `into` it.
Status checkTmaBox(OpVerifier &v, const Op &op, size_t coords, const char *direction) {
  const Type &d = v.type(op.operands[0]);
  if (!d.isTensorDesc())
    return v.err(&op, "the first operand must be a !tt.tensordesc, got " + v.ty(d));
  if (coords != size_t(d.rank()))
    return v.err(&op, std::string("a copy ") + direction + " " + v.ty(d) + " takes " +
                          std::to_string(d.rank()) + " coordinates, got " + std::to_string(coords));
  for (size_t i = 0; i < coords; ++i)
    LL_TRY_STATUS(checkScalar(v, op, 1 + i, ScalarKind::I32, "coordinate"));
  return Status::success();
}

// desc[coords] -> dst, completing on a barrier: the box is the descriptor's block, and lands
// in the destination in the descriptor's shared layout.
Status checkTmaCopy(OpVerifier &v, const Op &op) {
  if (op.operands.size() < 5 || !op.results.empty())
    return v.err(&op, "takes a descriptor, its coordinates, a destination, a barrier and a "
                      "predicate, and has no results");
  size_t coords = op.operands.size() - 4;
  LL_TRY_STATUS(checkTmaBox(v, op, coords, "from"));
  const Type &d = v.type(op.operands[0]);
  const Type &m = v.type(op.operands[coords + 1]);
  if (!m.isMemDesc() || !m.isMutable() || hasBufferDims(v, m))
    return v.err(&op, "the destination must be a mutable memdesc of one tile, got " + v.ty(m));
  if (m.shape() != d.shape())
    return v.err(&op, "the box of " + v.ty(d) + " does not match the destination " + v.ty(m));
  if (m.elem() != d.elem())
    return v.err(&op, "the descriptor holds " + std::string(name(d.elem().scalar)) +
                          ", the destination " + std::string(name(m.elem().scalar)));
  if (m.layout() != d.layout())
    return v.err(&op, "the destination's layout must be the descriptor's (the copy writes the "
                      "box in it), got " +
                          v.ty(m) + " for " + v.ty(d));
  LL_TRY_STATUS(checkBarrier(v, op, coords + 2));
  return checkScalar(v, op, coords + 3, ScalarKind::I1, "predicate");
}

// src -> desc[coords]: the source tile is the descriptor's block in its shared layout.
Status checkTmaStore(OpVerifier &v, const Op &op) {
  if (op.operands.size() < 3 || !op.results.empty())
    return v.err(&op, "takes a descriptor, its coordinates and a source tile, and has no results");
  LL_TRY_STATUS(checkTmaBox(v, op, op.operands.size() - 2, "into"));
  const Type &d = v.type(op.operands[0]);
  const Type &m = v.type(op.operands.back());
  if (!m.isMemDesc() || hasBufferDims(v, m))
    return v.err(&op, "the source must be a memdesc of one tile, got " + v.ty(m));
  if (m.shape() != d.shape() || m.elem() != d.elem() || m.layout() != d.layout())
    return v.err(&op, "the source must be the block of " + v.ty(d) +
                          " in the descriptor's layout, got " + v.ty(m));
  return Status::success();
}

// wgmma: A from shared memory (nvmma_shared or shared_linear) or registers (dot_op of the
// accumulator), B from shared memory, f16 / bf16 / f32 (tf32) / 8-bit float operands into an
// f32 accumulator or i8 into i32, in an nvidia_mma version 3 layout.
Status checkWarpGroupDot(OpVerifier &v, const Op &op) {
  const Type &a = v.type(op.operands[0]);
  const Type &b = v.type(op.operands[1]);
  const Type &c = v.type(op.operands[2]);
  const Type &r = v.type(op.results[0]);
  if (r != c)
    return v.err(&op, "result must have the accumulator's type " + v.ty(c) + ", got " + v.ty(r));
  if (!c.isTensor() || c.rank() != 2 || a.rank() != 2 || b.rank() != 2 ||
      !(a.isTensor() || a.isMemDesc()) || !b.isMemDesc())
    return v.err(&op, "takes a 2-D memdesc or tensor A, a 2-D memdesc B and a 2-D tensor "
                      "accumulator, got " +
                          v.ty(a) + ", " + v.ty(b) + ", " + v.ty(c));
  if (a.shape()[1] != b.shape()[0] || c.shape()[0] != a.shape()[0] || c.shape()[1] != b.shape()[1])
    return v.err(&op, "shapes do not multiply: " + v.ty(a) + " * " + v.ty(b) + " -> " + v.ty(c));
  ScalarKind ea = a.elem().scalar, eb = b.elem().scalar, ec = c.elem().scalar;
  const bool floats =
      ea == eb && (ea == ScalarKind::F16 || ea == ScalarKind::BF16 || ea == ScalarKind::F32);
  const bool fp8 = isFp8(ea) && isFp8(eb); // e4m3 and e5m2 may mix
  const bool ints = ea == ScalarKind::I8 && eb == ScalarKind::I8;
  if (!(((floats || fp8) && ec == ScalarKind::F32) || (ints && ec == ScalarKind::I32)) ||
      a.isPointerLike() || c.isPointerLike())
    return v.err(&op, "element types " + std::string(name(ea)) + " * " + std::string(name(eb)) +
                          " -> " + std::string(name(ec)) +
                          " are not supported (f16, bf16, f32 (tf32) or 8-bit float operands "
                          "into f32, i8 into i32)");
  const LayoutSpec &lc = v.module().layouts.get(c.layout());
  const NvidiaMmaSpec *mma = lc.as<NvidiaMmaSpec>();
  if (!mma || !mma->isHopper())
    return v.err(&op, "the accumulator must be in an nvidia_mma version 3 layout, got " + v.ty(c));
  // Shared operands: NVMMA tiles, or any shared_linear layout (the lowering checks that wgmma's
  // descriptors can read it).
  auto wgmmaShared = [&](const Type &t) {
    LayoutKind k = v.module().layouts.get(t.layout()).kind();
    return k == LayoutKind::NvmmaShared || k == LayoutKind::SharedLinear;
  };
  if (a.isMemDesc() && !wgmmaShared(a))
    return v.err(&op,
                 "A in shared memory must be in an nvmma_shared or shared_linear layout, got " +
                     v.ty(a));
  if (a.isTensor()) {
    const DotOperandSpec *d = v.module().layouts.get(a.layout()).as<DotOperandSpec>();
    if (!d || d->operandIndex() != 0 || d->parent() != lc)
      return v.err(&op, "A in registers must be in a dot_op layout with opIdx = 0 whose parent "
                        "is the accumulator's layout, got " +
                            v.ty(a));
  }
  if (!wgmmaShared(b))
    return v.err(&op, "B must be in an nvmma_shared or shared_linear layout, got " + v.ty(b));
  return Status::success();
}

// WarpGroupDot
Status checkWarpGroupDotOp(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 3, 3, 1));
  return checkWarpGroupDot(v, op);
}

// WarpGroupDotWait
Status checkWarpGroupDotWait(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  if (op.operands.empty() || op.results.size() != op.operands.size())
    return v.err(&op, "returns one result per operand, got " + std::to_string(op.operands.size()) +
                          " operand(s) and " + std::to_string(op.results.size()) + " result(s)");
  for (size_t i = 0; i < op.operands.size(); ++i)
    if (v.type(op.results[i]) != T(i))
      return v.err(&op,
                   "result " + std::to_string(i) + " must have its operand's type " + v.ty(T(i)));
  if (a.pendings < 0 || a.pendings > 7)
    return v.err(&op, "pendings is " + std::to_string(a.pendings) + ", expected 0..7");
  return Status::success();
}

// FenceAsyncShared
Status checkFenceAsyncShared(OpVerifier &v, const Op &op) { return v.counts(op, 0, 0, 0); }

// InitBarrier
Status checkInitBarrier(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  LL_TRY_STATUS(v.counts(op, 1, 1, 0));
  LL_TRY_STATUS(checkBarrier(v, op, 0));
  if (a.count < 1 || a.count >= (int64_t(1) << 20))
    return v.err(&op, "arrival count " + std::to_string(a.count) + " is outside 1..2^20-1");
  return Status::success();
}

// InvalBarrier
Status checkInvalBarrier(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 1, 1, 0));
  return checkBarrier(v, op, 0);
}

// BarrierExpect
Status checkBarrierExpect(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  LL_TRY_STATUS(v.counts(op, 2, 2, 0));
  LL_TRY_STATUS(checkBarrier(v, op, 0));
  LL_TRY_STATUS(checkScalar(v, op, 1, ScalarKind::I1, "predicate"));
  if (a.count < 0 || a.count >= (int64_t(1) << 20))
    return v.err(&op, "expected bytes " + std::to_string(a.count) +
                          " are outside 0..2^20-1 (the transaction count's range)");
  return Status::success();
}

// WaitBarrier
Status checkWaitBarrier(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 2, 3, 0));
  LL_TRY_STATUS(checkBarrier(v, op, 0));
  LL_TRY_STATUS(checkScalar(v, op, 1, ScalarKind::I32, "phase"));
  if (op.operands.size() > 2)
    LL_TRY_STATUS(checkScalar(v, op, 2, ScalarKind::I1, "predicate"));
  return Status::success();
}

// AsyncTmaCopyGlobalToLocal
Status checkAsyncTmaCopyGlobalToLocal(OpVerifier &v, const Op &op) { return checkTmaCopy(v, op); }

// AsyncTmaCopyLocalToGlobal
Status checkAsyncTmaCopyLocalToGlobal(OpVerifier &v, const Op &op) { return checkTmaStore(v, op); }

// AsyncTmaStoreWait
Status checkAsyncTmaStoreWait(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  LL_TRY_STATUS(v.counts(op, 0, 0, 0));
  if (a.pendings < 0 || a.pendings > 63)
    return v.err(&op, "pendings is " + std::to_string(a.pendings) + ", expected 0..63");
  return Status::success();
}

constexpr std::array<VerifyOpFn, kNumOpKinds> kChecks = [] {
  std::array<VerifyOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::WarpGroupDot)] = checkWarpGroupDotOp;
  t[size_t(OpKind::WarpGroupDotWait)] = checkWarpGroupDotWait;
  t[size_t(OpKind::FenceAsyncShared)] = checkFenceAsyncShared;
  t[size_t(OpKind::InitBarrier)] = checkInitBarrier;
  t[size_t(OpKind::InvalBarrier)] = checkInvalBarrier;
  t[size_t(OpKind::BarrierExpect)] = checkBarrierExpect;
  t[size_t(OpKind::WaitBarrier)] = checkWaitBarrier;
  t[size_t(OpKind::AsyncTmaCopyGlobalToLocal)] = checkAsyncTmaCopyGlobalToLocal;
  t[size_t(OpKind::AsyncTmaCopyLocalToGlobal)] = checkAsyncTmaCopyLocalToGlobal;
  t[size_t(OpKind::AsyncTmaStoreWait)] = checkAsyncTmaStoreWait;
  return t;
}();
static_assert(coversFamily(kChecks, OpFamily::Hopper), "an op of the family has no checks");

} // namespace

void printHopperOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyHopperOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

} // namespace linlayout::ir
