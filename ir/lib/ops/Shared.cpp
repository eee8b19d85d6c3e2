// The shared family: ttg.local_alloc / local_store / local_load / local_dealloc, the memdesc views,
// the cp.async copies and gpu.barrier.
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

// MemDescTrans
void printMemDescTrans(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands) << " {order = array<i32: ";
  for (size_t i = 0; i < a.order.size(); ++i)
    os << (i ? ", " : "") << a.order[i];
  os << ">} : " << p.opnd(op, 0) << " -> " << p.res(op);
}

// LocalAlloc
void printLocalAlloc(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  if (op.operands.empty())
    os << " : () -> " << p.res(op);
  else
    os << " " << p.list(op.operands) << " : (" << p.opnd(op, 0) << ") -> " << p.res(op);
}

// LocalStore
void printLocalStore(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands) << " : " << p.opnd(op, 0) << " -> " << p.opnd(op, 1);
}

// LocalLoad
void printLocalLoad(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands) << " : " << p.opnd(op, 0) << " -> " << p.res(op);
}

// LocalDealloc
void printLocalDealloc(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands) << " : " << p.opnd(op, 0);
}

// MemDescIndex
void printMemDescIndex(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  os << " " << p.list(op.operands, 0, 1) << "[" << p.list(op.operands, 1, 2)
     << "] : " << p.opnd(op, 0) << " -> " << p.res(op);
}

// MemDescSubslice
void printMemDescSubslice(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands) << " [";
  for (size_t i = 0; i < a.offsets.size(); ++i)
    os << (i ? ", " : "") << a.offsets[i];
  os << "] : " << p.opnd(op, 0) << " -> " << p.res(op);
}

// AsyncCopyGlobalToLocal
void printAsyncCopyGlobalToLocal(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " " << p.list(op.operands, 0, 2);
  if (op.operands.size() > 2)
    os << " mask " << p.list(op.operands, 2, 3);
  if (op.operands.size() > 3)
    os << " other " << p.list(op.operands, 3, 4);
  if (a.vectorWidth || a.slotFree) {
    os << " {";
    if (a.vectorWidth)
      os << "ll.vec = " << a.vectorWidth << " : i32" << (a.slotFree ? ", " : "");
    if (a.slotFree)
      os << "ll.slot_free = true";
    os << "}";
  }
  os << " : " << p.opnd(op, 0) << " -> " << p.opnd(op, 1);
}

// AsyncCommitGroup, Barrier
void printAsyncCommitGroupBarrier(OpPrinter &p, std::ostream &os, const Op &op, int depth) {}

// AsyncWait
void printAsyncWait(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  const OpAttrs &a = op.attrs;
  os << " {num = " << a.num << " : i32}";
}

constexpr auto kPrint = familyTable<OpFamily::Shared, PrintOpFn>({
    {OpKind::MemDescTrans, printMemDescTrans},
    {OpKind::LocalAlloc, printLocalAlloc},
    {OpKind::LocalStore, printLocalStore},
    {OpKind::LocalLoad, printLocalLoad},
    {OpKind::LocalDealloc, printLocalDealloc},
    {OpKind::MemDescIndex, printMemDescIndex},
    {OpKind::MemDescSubslice, printMemDescSubslice},
    {OpKind::AsyncCopyGlobalToLocal, printAsyncCopyGlobalToLocal},
    {OpKind::AsyncCommitGroup, printAsyncCommitGroupBarrier},
    {OpKind::Barrier, printAsyncCommitGroupBarrier},
    {OpKind::AsyncWait, printAsyncWait},
});

// ---- verification -------------------------------------------------------------------------------

bool isPow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

// ttg.memdesc_subslice. With power-of-two sizes, an offset that is a multiple of the view's
// size in its dim has no bit in common with the view's coordinates, so parent coordinate
// o + x is o XOR x, and for the (linear) shared layout L of the viewed tile the view's element
// x sits at offset L^-1(o) XOR L^-1(x): the parent's addressing XOR one constant. Any other
// offset would add with carries, which no XOR of a constant expresses; such views are
// rejected.
Status checkSubslice(OpVerifier &v, const Op &op) {
  const Type &s = v.operandType(op, 0), &r = v.resultType(op);
  const std::vector<int64_t> &off = op.attrs.offsets;
  if (!s.isMemDesc() || !r.isMemDesc() || r.layout() != s.layout() || r.elem() != s.elem() ||
      r.isMutable() != s.isMutable() || r.rank() != s.rank())
    return v.err(&op, "takes a memdesc to a view of the same rank, layout, element and "
                      "mutability, got " +
                          v.ty(s) + " -> " + v.ty(r));
  if (hasBufferDims(v, s))
    return v.err(&op, "slices a whole ring " + v.ty(s) + "; index one tile first");
  if (r.viewedTileShape() != s.viewedTileShape())
    return v.err(&op, "the result's alloc shape must be the shape of the tile the operand "
                      "views, got " +
                          v.ty(s) + " -> " + v.ty(r));
  if (off.size() != size_t(s.rank()))
    return v.err(&op, std::to_string(off.size()) + " offset(s) for a memdesc of rank " +
                          std::to_string(s.rank()));
  for (size_t d = 0; d < off.size(); ++d) {
    int64_t n = r.shape()[d], size = s.shape()[d];
    if (off[d] < 0 || n > size || off[d] > size - n)
      return v.err(&op, "offset " + std::to_string(off[d]) + " of dim " + std::to_string(d) +
                            " puts the view (size " + std::to_string(n) + ") outside 0.." +
                            std::to_string(size - 1));
    if (off[d] % n != 0)
      return v.err(&op, "offset " + std::to_string(off[d]) + " of dim " + std::to_string(d) +
                            " is not a multiple of the view's size " + std::to_string(n) +
                            " there: only such views are the parent's layout XOR a constant "
                            "offset");
  }
  return Status::success();
}

// A view of the same bytes with the dims permuted: its layout must be the operand's with the
// dims permuted (as TritonGPU writes it: a swizzled nvmma_shared of the other `transposed`,
// the swizzled_shared of the permuted order, or any layout of the same map).
Status checkMemDescTrans(OpVerifier &v, const Op &op) {
  const Type &s = v.operandType(op, 0), &r = v.resultType(op);
  const std::vector<int32_t> &order = op.attrs.order;
  if (!s.isMemDesc() || !r.isMemDesc() || r.elem() != s.elem() || r.isMutable() != s.isMutable() ||
      r.rank() != s.rank() || order.size() != size_t(s.rank()))
    return v.err(&op, "takes a memdesc to one of the same element, mutability and rank, with an "
                      "order for each dim, got " +
                          v.ty(s) + " -> " + v.ty(r));
  if (hasBufferDims(v, s) || hasBufferDims(v, r))
    return v.err(&op, "transposes a whole ring " + v.ty(s) + "; index one tile first");
  LL_TRY_STATUS(checkPermutation(v, op, s.rank()));
  if (r.allocShape().empty() != s.allocShape().empty())
    return v.err(&op, "a view transposes to a view and a tile to a tile, got " + v.ty(s) + " -> " +
                          v.ty(r));
  for (size_t i = 0; i < order.size(); ++i)
    if (r.shape()[i] != s.shape()[size_t(order[i])] ||
        r.viewedTileShape()[i] != s.viewedTileShape()[size_t(order[i])])
      return v.err(&op, "result dimension " + std::to_string(i) + " must be operand dimension " +
                            std::to_string(order[i]) + " (and so must its alloc shape), got " +
                            v.ty(s) + " -> " + v.ty(r));
  Expected<LinearLayout> from =
      toLinearLayout(v.module().layouts.get(s.layout()), s.viewedTileShape());
  Expected<LinearLayout> to =
      toLinearLayout(v.module().layouts.get(r.layout()), r.viewedTileShape());
  if (!from.ok() || !to.ok()) // the types' own checks say why
    return Status::success();
  Expected<LinearLayout> want = transposedTileLayout(*from, order);
  if (!want.ok())
    return v.err(&op, want.message());
  if (*want != *to)
    return v.err(&op, "the result's layout must store each element where the operand's does, "
                      "with the dims permuted (a swizzled nvmma_shared operand transposes to the "
                      "other `transposed`), got " +
                          v.ty(s) + " -> " + v.ty(r));
  return Status::success();
}

// LocalAlloc
Status checkLocalAlloc(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 0, 1, 1));
  const Type &r = v.resultType(op);
  if (!r.isMemDesc())
    return v.err(&op, "result must be a memdesc, got " + v.ty(r));
  if (!op.operands.empty()) {
    const Type &s = v.operandType(op, 0);
    if (!s.isTensor() || s.shape() != r.shape() || s.elem() != r.elem() || hasBufferDims(v, r))
      return v.err(&op, "initial value must be a tensor of the memdesc's shape and element, got " +
                            v.ty(s));
  }
  if (op.operands.empty() && !r.isMutable())
    return v.err(&op, "an allocation without a value must be mutable");
  if (!r.allocShape().empty())
    return v.err(&op, "allocates a whole tile; " + v.ty(r) + " is a view (alloc shape)");
  return Status::success();
}

// LocalStore
Status checkLocalStore(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 2, 2, 0));
  const Type &s = v.operandType(op, 0), &d = v.operandType(op, 1);
  if (d.isMemDesc() && hasBufferDims(v, d))
    return v.err(&op, "stores to a whole ring " + v.ty(d) + "; index one tile first");
  if (!d.isMemDesc() || !d.isMutable())
    return v.err(&op, "second operand must be a mutable memdesc, got " + v.ty(d));
  if (!s.isTensor() || s.shape() != d.shape() || s.elem() != d.elem())
    return v.err(&op, "value must match the memdesc's shape and element, got " + v.ty(s));
  return Status::success();
}

// LocalLoad
Status checkLocalLoad(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  const Type &s = v.operandType(op, 0), &r = v.resultType(op);
  if (s.isMemDesc() && hasBufferDims(v, s))
    return v.err(&op, "loads a whole ring " + v.ty(s) + "; index one tile first");
  if (!s.isMemDesc() || !r.isTensor() || s.shape() != r.shape() || s.elem() != r.elem())
    return v.err(&op, "loads a memdesc into a tensor of its shape and element, got " + v.ty(s) +
                          " -> " + v.ty(r));
  return Status::success();
}

// LocalDealloc
Status checkLocalDealloc(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 1, 1, 0));
  if (const Type &s = v.operandType(op, 0); !s.isMemDesc())
    return v.err(&op, "needs a memdesc, got " + v.ty(s));
  return Status::success();
}

// MemDescIndex
Status checkMemDescIndex(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 2, 2, 1));
  const Type &s = v.operandType(op, 0), &i = v.operandType(op, 1), &r = v.resultType(op);
  if (!s.isMemDesc() || s.rank() < 2 || !r.isMemDesc() || r.layout() != s.layout() ||
      r.elem() != s.elem() || r.isMutable() != s.isMutable() ||
      std::vector<int64_t>(s.shape().begin() + 1, s.shape().end()) != r.shape())
    return v.err(&op, "takes a memdesc of rank >= 2 to one of its tiles (same layout, element "
                      "and mutability, the leading dim dropped), got " +
                          v.ty(s) + " -> " + v.ty(r));
  if (!i.isScalar() || i.elem().scalar != ScalarKind::I32)
    return v.err(&op, "index must be i32, got " + v.ty(i));
  if (!s.allocShape().empty() || !r.allocShape().empty())
    return v.err(&op,
                 "indexes a ring, not a view (alloc shape), got " + v.ty(s) + " -> " + v.ty(r));
  return Status::success();
}

// MemDescSubslice
Status checkMemDescSubslice(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  return checkSubslice(v, op);
}

// MemDescTrans
Status checkMemDescTransOp(OpVerifier &v, const Op &op) {
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  return checkMemDescTrans(v, op);
}

// AsyncCopyGlobalToLocal
Status checkAsyncCopyGlobalToLocal(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  LL_TRY_STATUS(v.counts(op, 2, 4, 0));
  const Type &p = v.operandType(op, 0), &d = v.operandType(op, 1);
  if (!p.isTensor() || !p.isPointerLike())
    return v.err(&op, "first operand must be a tensor of pointers, got " + v.ty(p));
  if (!d.isMemDesc() || !d.isMutable() || d.shape() != p.shape() || hasBufferDims(v, d) ||
      d.elem().scalar != p.elem().scalar)
    return v.err(&op, "destination must be a mutable memdesc of the pointers' shape and "
                      "pointee, got " +
                          v.ty(d));
  if (op.operands.size() > 2) {
    const Type &m = v.operandType(op, 2);
    if (!m.isTensor() || m.elem() != ElemType{ScalarKind::I1, false} || m.shape() != p.shape() ||
        m.layout() != p.layout())
      return v.err(&op, "mask must be an i1 tensor shaped like the pointers, got " + v.ty(m));
  }
  Type value = p.withElem(ElemType{p.elem().scalar, false});
  if (op.operands.size() > 3 && v.operandType(op, 3) != value)
    return v.err(&op, "other must be " + v.ty(value) + ", got " + v.ty(v.operandType(op, 3)));
  if (a.vectorWidth < 0 || a.vectorWidth > 64 || (a.vectorWidth && !isPow2(a.vectorWidth)))
    return v.err(&op, "vector width " + std::to_string(a.vectorWidth) +
                          " is not a power of two up to 64");
  return Status::success();
}

// AsyncCommitGroup
Status checkAsyncCommitGroup(OpVerifier &v, const Op &op) { return v.counts(op, 0, 0, 0); }

// AsyncWait
Status checkAsyncWait(OpVerifier &v, const Op &op) {
  const OpAttrs &a = op.attrs;
  LL_TRY_STATUS(v.counts(op, 0, 0, 0));
  if (a.num < 0 || a.num > 1024)
    return v.err(&op, "num " + std::to_string(a.num) + " is outside 0..1024");
  return Status::success();
}

// Barrier
Status checkBarrierOp(OpVerifier &v, const Op &op) { return v.counts(op, 0, 0, 0); }

constexpr auto kChecks = familyTable<OpFamily::Shared, VerifyOpFn>({
    {OpKind::LocalAlloc, checkLocalAlloc},
    {OpKind::LocalStore, checkLocalStore},
    {OpKind::LocalLoad, checkLocalLoad},
    {OpKind::LocalDealloc, checkLocalDealloc},
    {OpKind::MemDescIndex, checkMemDescIndex},
    {OpKind::MemDescSubslice, checkMemDescSubslice},
    {OpKind::MemDescTrans, checkMemDescTransOp},
    {OpKind::AsyncCopyGlobalToLocal, checkAsyncCopyGlobalToLocal},
    {OpKind::AsyncCommitGroup, checkAsyncCommitGroup},
    {OpKind::AsyncWait, checkAsyncWait},
    {OpKind::Barrier, checkBarrierOp},
});

} // namespace

void printSharedOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifySharedOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

// ---- interpretation -----------------------------------------------------------------------------

namespace {

// The allocation's element index of each element of the memdesc `desc` of `shape`, in row-major
// order of the shape.
std::vector<size_t> elementsOf(const RtValue &desc, const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<size_t> out;
  out.reserve(size_t(n));
  std::vector<int64_t> x(shape.size(), 0);
  for (int64_t e = 0; e < n; ++e) {
    int64_t at = desc.i[1];
    for (size_t k = 0; k < shape.size(); ++k)
      at += x[k] * desc.i[2 + k];
    out.push_back(size_t(at));
    for (size_t k = shape.size(); k-- > 0;) {
      if (++x[k] < shape[k])
        break;
      x[k] = 0;
    }
  }
  return out;
}

Status interpretLocalAlloc(OpInterpreter &in, const Op &op) {
  const Type &rt = in.type(op.results[0]);
  const size_t n = size_t(rt.numElements());
  SharedAlloc s;
  if (!op.operands.empty()) {
    s.data = in.val(op.operands[0]);
  } else if (isFloat(rt.elem().scalar)) {
    s.data.f.assign(n, 0.0);
  } else {
    s.data.i.assign(n, 0);
  }
  size_t elements = std::max(s.data.f.size(), s.data.i.size());
  std::vector<SharedAlloc> &shared = in.shared();
  shared.push_back(std::move(s));
  RtValue r;
  r.i = {int64_t(shared.size() - 1), 0};
  for (int64_t st : rowMajorStrides(rt.shape()))
    r.i.push_back(st);
  in.hazards().allocate(shared.size() - 1, elements, op.operands.empty() ? nullptr : &op);
  return in.setResult(op, std::move(r));
}

Status interpretLocalStore(OpInterpreter &in, const Op &op) {
  auto v = viewOf(in, op.operands[1]);
  if (!v)
    return in.err(op, "store to a deallocated memdesc");
  LL_TRY_STATUS(in.hazard(op, in.hazards().store(op, v->alloc, v->at)));
  LL_TRY_STATUS(in.partitionWrite(op, v->alloc, v->at));
  writeShared(*v->s, v->at, in.val(op.operands[0]));
  return Status::success();
}

Status interpretLocalLoad(OpInterpreter &in, const Op &op) {
  auto v = viewOf(in, op.operands[0]);
  if (!v)
    return in.err(op, "load from a deallocated memdesc");
  LL_TRY_STATUS(in.hazard(op, in.hazards().load(op, v->alloc, v->at)));
  LL_TRY_STATUS(in.partitionRead(op, v->alloc, v->at));
  return in.setResult(op, readShared(*v->s, v->at));
}

Status interpretLocalDealloc(OpInterpreter &in, const Op &op) {
  SharedAlloc *s = liveAlloc(in, in.val(op.operands[0]));
  if (!s)
    return in.err(op, "memdesc deallocated twice");
  LL_TRY_STATUS(in.hazard(op, in.hazards().dealloc(size_t(in.val(op.operands[0]).i[0]))));
  s->live = false;
  return Status::success();
}

Status interpretMemDescIndex(OpInterpreter &in, const Op &op) {
  const RtValue &d = in.val(op.operands[0]);
  int64_t index = in.val(op.operands[1]).i[0];
  int64_t tiles = in.type(op.operands[0]).shape()[0];
  if (index < 0 || index >= tiles)
    return in.err(op, "tile index " + std::to_string(index) + " is outside 0.." +
                          std::to_string(tiles - 1));
  RtValue r;
  r.i = {d.i[0], d.i[1] + index * d.i[2]};
  r.i.insert(r.i.end(), d.i.begin() + 3, d.i.end());
  return in.setResult(op, std::move(r));
}

// The verifier keeps the view inside the operand.
Status interpretMemDescSubslice(OpInterpreter &in, const Op &op) {
  const RtValue &d = in.val(op.operands[0]);
  RtValue r;
  r.i = d.i;
  for (size_t k = 0; k < op.attrs.offsets.size(); ++k)
    r.i[1] += op.attrs.offsets[k] * d.i[2 + k];
  return in.setResult(op, std::move(r));
}

// The same elements, the strides permuted with the dims.
Status interpretMemDescTrans(OpInterpreter &in, const Op &op) {
  const RtValue &d = in.val(op.operands[0]);
  RtValue r;
  r.i = {d.i[0], d.i[1]};
  for (int32_t k : op.attrs.order)
    r.i.push_back(d.i[2 + size_t(k)]);
  return in.setResult(op, std::move(r));
}

// The copy completes at once: commit groups and waits only order the hardware's copies.
Status interpretAsyncCopy(OpInterpreter &in, const Op &op) {
  const RtValue &p = in.val(op.operands[0]);
  const RtValue *mask = op.operands.size() > 2 ? &in.val(op.operands[2]) : nullptr;
  const RtValue *other = op.operands.size() > 3 ? &in.val(op.operands[3]) : nullptr;
  ScalarKind k = in.type(op.operands[1]).elem().scalar;
  size_t count = size_t(in.type(op.operands[1]).numElements());
  RtValue loaded;
  for (size_t e = 0; e < count; ++e) {
    if (mask && !mask->i[e]) {
      if (isFloat(k))
        loaded.f.push_back(other ? other->f[e] : 0.0);
      else
        loaded.i.push_back(other ? other->i[e] : 0);
      continue;
    }
    LL_TRY_STATUS(loadElement(in, op, p.buf[e], p.i[e], k, loaded));
  }
  auto v = viewOf(in, op.operands[1]);
  if (!v)
    return in.err(op, "copy to a deallocated memdesc");
  LL_TRY_STATUS(in.hazard(op, in.hazards().asyncCopy(op, v->alloc, v->at)));
  LL_TRY_STATUS(in.partitionWrite(op, v->alloc, v->at));
  writeShared(*v->s, v->at, loaded);
  return Status::success();
}

Status interpretAsyncCommitGroup(OpInterpreter &in, const Op &) {
  in.hazards().commitGroup();
  return Status::success();
}

// Lowered with a bar.sync after the wait.
Status interpretAsyncWait(OpInterpreter &in, const Op &op) {
  in.hazards().waitGroups(op.attrs.num);
  in.hazards().ctaBarrier();
  return Status::success();
}

Status interpretBarrier(OpInterpreter &in, const Op &) {
  in.hazards().ctaBarrier();
  return Status::success();
}

constexpr auto kInterpret = familyTable<OpFamily::Shared, InterpretOpFn>({
    {OpKind::LocalAlloc, interpretLocalAlloc},
    {OpKind::LocalStore, interpretLocalStore},
    {OpKind::LocalLoad, interpretLocalLoad},
    {OpKind::LocalDealloc, interpretLocalDealloc},
    {OpKind::MemDescIndex, interpretMemDescIndex},
    {OpKind::MemDescSubslice, interpretMemDescSubslice},
    {OpKind::MemDescTrans, interpretMemDescTrans},
    {OpKind::AsyncCopyGlobalToLocal, interpretAsyncCopy},
    {OpKind::AsyncCommitGroup, interpretAsyncCommitGroup},
    {OpKind::AsyncWait, interpretAsyncWait},
    {OpKind::Barrier, interpretBarrier},
});

} // namespace

SharedAlloc *liveAlloc(OpInterpreter &in, const RtValue &desc) {
  size_t idx = size_t(desc.i[0]);
  if (idx >= in.shared().size() || !in.shared()[idx].live)
    return nullptr;
  return &in.shared()[idx];
}

std::optional<SharedView> viewOf(OpInterpreter &in, ValueId memDesc) {
  const RtValue &d = in.val(memDesc);
  SharedAlloc *s = liveAlloc(in, d);
  if (!s)
    return std::nullopt;
  return SharedView{s, size_t(d.i[0]), elementsOf(d, in.type(memDesc).shape())};
}

std::optional<SharedView> viewIn(OpInterpreter &owner, const RtValue &desc, const Type &t) {
  SharedAlloc *s = liveAlloc(owner, desc);
  if (!s)
    return std::nullopt;
  return SharedView{s, size_t(desc.i[0]), elementsOf(desc, t.shape())};
}

void writeShared(SharedAlloc &s, const std::vector<size_t> &at, const RtValue &v) {
  for (size_t e = 0; e < at.size(); ++e) {
    if (!v.f.empty())
      s.data.f[at[e]] = v.f[e];
    if (!v.i.empty())
      s.data.i[at[e]] = v.i[e];
  }
}

RtValue readShared(const SharedAlloc &s, const std::vector<size_t> &at) {
  RtValue r;
  for (size_t e : at) {
    if (!s.data.f.empty())
      r.f.push_back(s.data.f[e]);
    else
      r.i.push_back(s.data.i[e]);
  }
  return r;
}

Status interpretSharedOp(OpInterpreter &in, const Op &op) {
  return kInterpret[size_t(op.kind)](in, op);
}

// ---- parsing ------------------------------------------------------------------------------------

namespace {

// `op %x : T -> U` (with its attributes: parseOneOperandOp).
bool parseOneOperand(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return parseOneOperandOp(p, op, results);
}

bool parseLocalAlloc(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return p.parseOperands(op.operands, 1) && p.operandTypesThenResult(op, results);
}

bool parseLocalStore(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  Type t, u;
  if (!p.parseOperandsExactly(op, 2, "a value and a memdesc"))
    return false;
  if (!p.expectPunct(":", "before the types"))
    return false;
  if (!p.parseTypeOf(op.operands[0], t))
    return false;
  if (!p.expectPunct("->", "between the value and memdesc types"))
    return false;
  if (!p.parseTypeOf(op.operands[1], u))
    return false;
  return true;
}

bool parseLocalDealloc(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  Type t;
  if (!p.parseOperandsExactly(op, 1, "one operand"))
    return false;
  if (!p.expectPunct(":", "before the type"))
    return false;
  return p.parseTypeOf(op.operands[0], t);
}

bool parseMemDescIndex(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return p.parseOperand(op) && p.expectPunct("[", "before the tile index") && p.parseOperand(op) &&
         p.expectPunct("]", "after the tile index") &&
         p.typeThenResult(op, results, "before the types");
}

bool parseMemDescSubslice(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  OpAttrs &a = op.attrs;
  // ttg.memdesc_subslice %src [0, 32] : !ttg.memdesc<...> -> !ttg.memdesc<..., 128x64>
  if (!p.parseOperand(op) || !p.expectPunct("[", "before the offsets"))
    return false;
  while (!p.isPunct("]")) {
    if (!a.offsets.empty() && !p.expectPunct(",", "between offsets"))
      return false;
    int64_t off;
    if (!p.parseInt(off, "an offset"))
      return false;
    a.offsets.push_back(off);
    if (a.offsets.size() > size_t(Type::kMaxRank))
      return p.fail("more than " + std::to_string(Type::kMaxRank) + " offsets");
  }
  p.advance();
  return p.typeThenResult(op, results, "before the types");
}

bool parseAsyncCopy(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  Type t, u;
  if (!p.parseOperandsExactly(op, 2, "pointers and a memdesc"))
    return false;
  for (std::string_view word : {"mask", "other"}) {
    if (!p.isIdent(word))
      continue;
    if (op.operands.size() != (word == "mask" ? 2u : 3u))
      return p.fail("'other' needs a mask before it");
    p.advance();
    ValueId v;
    if (!p.lookupValue(v))
      return false;
    op.operands.push_back(v);
  }
  if (!p.parseOptionalVectorWidth(op.attrs, /*slotFree=*/true))
    return false;
  if (!p.expectPunct(":", "before the types"))
    return false;
  if (!p.parseTypeOf(op.operands[0], t) ||
      !p.expectPunct("->", "between the pointer and memdesc types"))
    return false;
  Loc loc = p.token().loc;
  return p.parseType(u, /*bareMemDesc=*/true) && p.checkType(op.operands[1], u, loc);
}

bool parseAsyncCommitGroup(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  if (p.isIdent("tokens")) { // Triton's `tokens %t, ...`
    p.advance();
    return p.parseTokens();
  }
  return true;
}

bool parseBarrier(OpParser &p, Op &op, std::vector<Type> &results, int depth) { return true; }

bool parseAsyncWait(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  OpAttrs &a = op.attrs;
  Type t;
  if (!p.parseTokens()) // Triton's `%t, ...` before the attributes
    return false;
  Dict d;
  if (!p.parseDict(d) || !p.dictInt(d, "num", a.num, true))
    return false;
  if (a.num < 0 || a.num > 1024)
    return p.fail("ttg.async_wait num must be in 0..1024");
  return true;
}

constexpr auto kParse = familyTable<OpFamily::Shared, ParseOpFn>({
    {OpKind::LocalLoad, parseOneOperand},
    {OpKind::MemDescTrans, parseOneOperand},
    {OpKind::LocalAlloc, parseLocalAlloc},
    {OpKind::LocalStore, parseLocalStore},
    {OpKind::LocalDealloc, parseLocalDealloc},
    {OpKind::MemDescIndex, parseMemDescIndex},
    {OpKind::MemDescSubslice, parseMemDescSubslice},
    {OpKind::AsyncCopyGlobalToLocal, parseAsyncCopy},
    {OpKind::AsyncCommitGroup, parseAsyncCommitGroup},
    {OpKind::Barrier, parseBarrier},
    {OpKind::AsyncWait, parseAsyncWait},
});

} // namespace

bool parseSharedOp(OpParser &p, Op &op, std::vector<Type> &results, int depth) {
  return kParse[size_t(op.kind)](p, op, results, depth);
}

} // namespace linlayout::ir
