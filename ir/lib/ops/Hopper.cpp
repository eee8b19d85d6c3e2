// The hopper family: ttng.warp_group_dot and its wait, the TMA copies, the mbarriers, the proxy
// fence and the cluster ops; printed, verified and parsed here, interpreted in HopperInterpret.cpp.
#include "FamilyTable.h"
#include "OpInterpreter.h"
#include "OpParser.h"
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

// ` {multicastCTA = N : i32}` where the op multicasts, as Triton prints the attribute.
std::string multicastAttr(const Op &op) {
  return op.attrs.multicastCta
             ? " {multicastCTA = " + std::to_string(op.attrs.multicastCta) + " : i32}"
             : "";
}

// ArriveBarrier
void printArriveBarrier(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands, 0, 1) << ", " << op.attrs.count;
  if (op.operands.size() > 1)
    os << ", " << p.list(op.operands, 1, 2);
  os << multicastAttr(op) << " : " << p.opnd(op, 0);
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
  os << tmaBox(p, op, n - 4) << p.list(op.operands, n - 3, n) << multicastAttr(op) << " : "
     << p.opnd(op, 0) << ", " << p.opnd(op, n - 2) << " -> " << p.opnd(op, n - 3);
}

// ClusterCtaId
void printClusterCtaId(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " : " << p.res(op);
}

// ClusterArrive
void printClusterArrive(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  if (op.attrs.relaxed)
    os << " {relaxed = true}";
}

// ClusterWait, FenceMbarrierInitCluster
void printNoOperands(OpPrinter &p, std::ostream &os, const Op &op, int depth) {}

constexpr auto kPrint = familyTable<OpFamily::Hopper, PrintOpFn>({
    {OpKind::WarpGroupDot, printWarpGroupDot},
    {OpKind::WarpGroupDotWait, printWarpGroupDotWait},
    {OpKind::FenceAsyncShared, printFenceAsyncShared},
    {OpKind::InitBarrier, printInitBarrier},
    {OpKind::InvalBarrier, printInvalBarrier},
    {OpKind::BarrierExpect, printBarrierExpect},
    {OpKind::WaitBarrier, printWaitBarrier},
    {OpKind::ArriveBarrier, printArriveBarrier},
    {OpKind::AsyncTmaCopyLocalToGlobal, printAsyncTmaCopyLocalToGlobal},
    {OpKind::AsyncTmaStoreWait, printAsyncTmaStoreWait},
    {OpKind::AsyncTmaCopyGlobalToLocal, printAsyncTmaCopyGlobalToLocal},
    {OpKind::ClusterCtaId, printClusterCtaId},
    {OpKind::ClusterArrive, printClusterArrive},
    {OpKind::ClusterWait, printNoOperands},
    {OpKind::FenceMbarrierInitCluster, printNoOperands},
});

// ---- verification -------------------------------------------------------------------------------

// An mbarrier: one mutable 64-bit word of shared memory.
Status checkBarrier(OpVerifier &v, const Op &op, size_t i) {
  const Type &t = v.operandType(op, i);
  if (!t.isMemDesc() || t.shape() != std::vector<int64_t>{1} ||
      t.elem() != ElemType{ScalarKind::I64, false} || !t.isMutable())
    return v.err(&op, "the barrier must be a !ttg.memdesc<1xi64, ..., mutable> (index a ring "
                      "of barriers first), got " +
                          v.ty(t));
  return Status::success();
}

Status checkScalar(OpVerifier &v, const Op &op, size_t i, ScalarKind k, const char *what) {
  const Type &t = v.operandType(op, i);
  if (!t.isScalar() || t.elem().scalar != k)
    return v.err(&op, std::string("the ") + what + " must be " + std::string(name(k)) + ", got " +
                          v.ty(t));
  return Status::success();
}

// The descriptor (operand 0) and its `coords` i32 coordinates (operands 1..) of a TMA copy
// `from` or `into` it.
Status checkTmaBox(OpVerifier &v, const Op &op, size_t coords, const char *direction) {
  const Type &d = v.operandType(op, 0);
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
  const Type &d = v.operandType(op, 0);
  const Type &m = v.operandType(op, coords + 1);
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
  const Type &d = v.operandType(op, 0);
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
  const Type &a = v.operandType(op, 0), &b = v.operandType(op, 1), &c = v.operandType(op, 2);
  const Type &r = v.resultType(op);
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
  LL_TRY_STATUS(v.counts(op, 3, 4, 1));
  if (op.operands.size() == 4)
    LL_TRY_STATUS(checkScalar(v, op, 3, ScalarKind::I1, "useC flag"));
  return checkWarpGroupDot(v, op);
}

// WarpGroupDotWait
Status checkWarpGroupDotWait(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  if (op.operands.empty() || op.results.size() != op.operands.size())
    return v.err(&op, "returns one result per operand, got " + std::to_string(op.operands.size()) +
                          " operand(s) and " + std::to_string(op.results.size()) + " result(s)");
  for (size_t i = 0; i < op.operands.size(); ++i)
    if (const Type &t = v.operandType(op, i); v.resultType(op, i) != t)
      return v.err(&op, "result " + std::to_string(i) + " must have its operand's type " + v.ty(t));
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

// A multicastCTA mask: bits of the cluster rank, in a cluster of a power-of-two size.
Status checkMulticast(OpVerifier &v, const Op &op) {
  const int64_t mask = op.attrs.multicastCta;
  if (mask == 0)
    return Status::success();
  const int64_t ctas = v.module().clusterSize();
  if (ctas < 2)
    return v.err(&op, "multicastCTA = " + std::to_string(mask) +
                          " in a module without a cluster (\"ttg.cluster-dim-x\" etc.)");
  if ((ctas & (ctas - 1)) != 0)
    return v.err(&op, "multicastCTA in a cluster of " + std::to_string(ctas) +
                          " CTAs: multicast needs a power-of-two cluster");
  if (mask < 0 || mask > ctas - 1)
    return v.err(&op, "multicastCTA = " + std::to_string(mask) + " is outside 1.." +
                          std::to_string(ctas - 1) + " (bits of a rank in a cluster of " +
                          std::to_string(ctas) + ")");
  return Status::success();
}

// ArriveBarrier
Status checkArriveBarrier(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(checkMulticast(v, op));
  LL_TRY_STATUS(v.counts(op, 1, 2, 0));
  LL_TRY_STATUS(checkBarrier(v, op, 0));
  if (op.operands.size() > 1)
    LL_TRY_STATUS(checkScalar(v, op, 1, ScalarKind::I1, "predicate"));
  if (op.attrs.count < 1 || op.attrs.count >= (int64_t(1) << 20))
    return v.err(&op, "arrival count " + std::to_string(op.attrs.count) + " is outside 1..2^20-1");
  return Status::success();
}

// AsyncTmaCopyGlobalToLocal
Status checkAsyncTmaCopyGlobalToLocal(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(checkMulticast(v, op));
  return checkTmaCopy(v, op);
}

// ClusterCtaId
Status checkClusterCtaId(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 0, 0, 1));
  if (const Type &r = v.resultType(op); r != Type::scalar(ScalarKind::I32))
    return v.err(&op, "result must be i32, got " + v.ty(r));
  return Status::success();
}

// ClusterArrive, ClusterWait, FenceMbarrierInitCluster
Status checkClusterSync(OpVerifier &v, const Op &op) { return v.counts(op, 0, 0, 0); }

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

constexpr auto kChecks = familyTable<OpFamily::Hopper, VerifyOpFn>({
    {OpKind::WarpGroupDot, checkWarpGroupDotOp},
    {OpKind::WarpGroupDotWait, checkWarpGroupDotWait},
    {OpKind::FenceAsyncShared, checkFenceAsyncShared},
    {OpKind::InitBarrier, checkInitBarrier},
    {OpKind::InvalBarrier, checkInvalBarrier},
    {OpKind::BarrierExpect, checkBarrierExpect},
    {OpKind::WaitBarrier, checkWaitBarrier},
    {OpKind::ArriveBarrier, checkArriveBarrier},
    {OpKind::AsyncTmaCopyGlobalToLocal, checkAsyncTmaCopyGlobalToLocal},
    {OpKind::AsyncTmaCopyLocalToGlobal, checkAsyncTmaCopyLocalToGlobal},
    {OpKind::AsyncTmaStoreWait, checkAsyncTmaStoreWait},
    {OpKind::ClusterCtaId, checkClusterCtaId},
    {OpKind::ClusterArrive, checkClusterSync},
    {OpKind::ClusterWait, checkClusterSync},
    {OpKind::FenceMbarrierInitCluster, checkClusterSync},
});

} // namespace

void printHopperOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifyHopperOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

// ---- parsing ------------------------------------------------------------------------------------

namespace {

bool parseWarpGroupDot(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  OpAttrs &a = op.attrs;
  // Triton's optional fourth operand, useC: an i1 that, where false, ignores the accumulator.
  if (!p.parseOperands(op.operands, 4))
    return false;
  if (op.operands.size() < 3)
    return p.fail("ttng.warp_group_dot takes three or four operands (a, b, c and useC)");
  if (p.isPunct("{")) {
    Dict d;
    if (!p.parseDict(d))
      return false;
    int64_t async = 0;
    if (!p.dictInt(d, "isAsync", async, false))
      return false;
    a.isAsync = async != 0;
  }
  return p.parseDotTypes(op, results);
}

bool parseWarpGroupDotWait(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  OpAttrs &a = op.attrs;
  Type t;
  if (!p.parseOperands(op.operands, 256))
    return false;
  if (op.operands.empty())
    return p.fail("ttng.warp_group_dot_wait takes at least one operand");
  Dict d;
  if (!p.parseDict(d) || !p.dictInt(d, "pendings", a.pendings, true))
    return false;
  if (!p.expectPunct(":", "before the operand types"))
    return false;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (i && !p.expectPunct(",", "between operand types"))
      return false;
    if (!p.parseTypeOf(op.operands[i], t))
      return false;
    results.push_back(t);
  }
  return true;
}

bool parseFenceAsyncShared(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return p.skipOptionalDict();
}

// `ttng.init_barrier %bar, 1 : T`, `ttng.inval_barrier %bar : T`,
// `ttng.barrier_expect %bar, 32768, %pred : T`, `ttng.wait_barrier %bar, %phase[, %pred] : T`.
bool parseBarrierOp(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (!p.parseOperand(op))
    return false;
  if (op.kind == OpKind::InitBarrier || op.kind == OpKind::BarrierExpect) {
    if (!p.expectPunct(",", op.kind == OpKind::InitBarrier ? "before the arrival count"
                                                           : "before the expected bytes") ||
        !p.parseInt(op.attrs.count,
                    op.kind == OpKind::InitBarrier ? "an arrival count" : "a byte count"))
      return false;
    if (op.attrs.count < 0 || op.attrs.count > (int64_t(1) << 30))
      return p.fail("count " + std::to_string(op.attrs.count) + " is out of range");
  }
  if (op.kind == OpKind::BarrierExpect &&
      (!p.expectPunct(",", "before the predicate") || !p.parseOperand(op)))
    return false;
  if (op.kind == OpKind::WaitBarrier) {
    if (!p.expectPunct(",", "before the phase") || !p.parseOperand(op))
      return false;
    if (p.isPunct(",")) {
      p.advance();
      if (!p.parseOperand(op))
        return false;
    }
  }
  if (!p.skipOptionalDict())
    return false;
  if (!p.expectPunct(":", "before the barrier type"))
    return false;
  Type t;
  return p.parseTypeOf(op.operands[0], t);
}

// An optional `{multicastCTA = N : i32}` (other entries skipped).
bool parseOptionalMulticast(OpParser &p, Op &op) {
  if (!p.isPunct("{"))
    return true;
  Dict d;
  return p.parseDict(d) && p.dictInt(d, "multicastCTA", op.attrs.multicastCta, false);
}

// `%desc[%c0, %c1]`, the descriptor and the box coordinates of a TMA copy, into the operands.
bool parseTmaBox(OpParser &p, Op &op) {
  if (!p.parseOperand(op) || !p.expectPunct("[", "before the box coordinates"))
    return false;
  while (true) {
    if (!p.parseOperand(op))
      return false;
    if (op.operands.size() > 6)
      return p.fail("a TMA copy takes at most 5 coordinates");
    if (p.isPunct("]"))
      break;
    if (!p.expectPunct(",", "or ']' after a coordinate"))
      return false;
  }
  p.advance();
  return true;
}

// `ttng.async_tma_copy_global_to_local %desc[%c0, %c1] %dst, %bar, %pred : D, B -> M`.
bool parseTmaCopy(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (!parseTmaBox(p, op))
    return false;
  size_t coords = op.operands.size() - 1;
  if (!p.parseOperand(op) || !p.expectPunct(",", "after the destination") || !p.parseOperand(op) ||
      !p.expectPunct(",", "after the barrier") || !p.parseOperand(op))
    return false;
  if (!parseOptionalMulticast(p, op))
    return false;
  if (!p.expectPunct(":", "before the types"))
    return false;
  Type t;
  if (!p.parseTypeOf(op.operands[0], t) ||
      !p.expectPunct(",", "between the descriptor and barrier types"))
    return false;
  if (!p.parseTypeOf(op.operands[coords + 2], t) ||
      !p.expectPunct("->", "before the destination type"))
    return false;
  return p.parseTypeOf(op.operands[coords + 1], t);
}

// `ttng.async_tma_copy_local_to_global %desc[%c0, %c1] %src : D, M`.
bool parseTmaStore(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (!parseTmaBox(p, op) || !p.parseOperand(op) || !p.skipOptionalDict() ||
      !p.expectPunct(":", "before the types"))
    return false;
  Type t;
  return p.parseTypeOf(op.operands[0], t) &&
         p.expectPunct(",", "between the descriptor and source types") &&
         p.parseTypeOf(op.operands.back(), t);
}

// `ttng.arrive_barrier %bar, 2[, %pred] : T`.
bool parseArriveBarrier(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (!p.parseOperand(op) || !p.expectPunct(",", "before the arrival count") ||
      !p.parseInt(op.attrs.count, "an arrival count"))
    return false;
  if (op.attrs.count < 0 || op.attrs.count > (int64_t(1) << 30))
    return p.fail("count " + std::to_string(op.attrs.count) + " is out of range");
  if (p.isPunct(",")) {
    p.advance();
    if (!p.parseOperand(op))
      return false;
  }
  if (!parseOptionalMulticast(p, op) || !p.expectPunct(":", "before the barrier type"))
    return false;
  Type t;
  return p.parseTypeOf(op.operands[0], t);
}

// `%r = ttng.cluster_cta_id : i32`.
bool parseClusterCtaId(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  Type t;
  if (!p.skipOptionalDict() || !p.typeAfterColon(t))
    return false;
  results.push_back(t);
  return true;
}

// `ttng.cluster_arrive [{relaxed = true}]`.
bool parseClusterArrive(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (!p.isPunct("{"))
    return true;
  Dict d;
  int64_t relaxed = 0;
  if (!p.parseDict(d) || !p.dictInt(d, "relaxed", relaxed, false))
    return false;
  op.attrs.relaxed = relaxed != 0;
  return true;
}

// `ttng.cluster_wait`, `ttng.fence_mbarrier_init_release_cluster`.
bool parseNoOperands(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return p.skipOptionalDict();
}

bool parseTmaStoreWait(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  Dict d;
  return p.parseDict(d) && p.dictInt(d, "pendings", op.attrs.pendings, true);
}

constexpr auto kParse = familyTable<OpFamily::Hopper, ParseOpFn>({
    {OpKind::WarpGroupDot, parseWarpGroupDot},
    {OpKind::WarpGroupDotWait, parseWarpGroupDotWait},
    {OpKind::FenceAsyncShared, parseFenceAsyncShared},
    {OpKind::InitBarrier, parseBarrierOp},
    {OpKind::InvalBarrier, parseBarrierOp},
    {OpKind::BarrierExpect, parseBarrierOp},
    {OpKind::WaitBarrier, parseBarrierOp},
    {OpKind::ArriveBarrier, parseArriveBarrier},
    {OpKind::AsyncTmaCopyGlobalToLocal, parseTmaCopy},
    {OpKind::AsyncTmaCopyLocalToGlobal, parseTmaStore},
    {OpKind::AsyncTmaStoreWait, parseTmaStoreWait},
    {OpKind::ClusterCtaId, parseClusterCtaId},
    {OpKind::ClusterArrive, parseClusterArrive},
    {OpKind::ClusterWait, parseNoOperands},
    {OpKind::FenceMbarrierInitCluster, parseNoOperands},
});

} // namespace

bool parseHopperOp(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return kParse[size_t(op.kind)](p, op, results, depth);
}

} // namespace linlayout::ir
