// The shared family: ttg.local_alloc / local_store / local_load / local_dealloc, the memdesc views,
// the cp.async copies and gpu.barrier.
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

constexpr std::array<PrintOpFn, kNumOpKinds> kPrint = [] {
  std::array<PrintOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::MemDescTrans)] = printMemDescTrans;
  t[size_t(OpKind::LocalAlloc)] = printLocalAlloc;
  t[size_t(OpKind::LocalStore)] = printLocalStore;
  t[size_t(OpKind::LocalLoad)] = printLocalLoad;
  t[size_t(OpKind::LocalDealloc)] = printLocalDealloc;
  t[size_t(OpKind::MemDescIndex)] = printMemDescIndex;
  t[size_t(OpKind::MemDescSubslice)] = printMemDescSubslice;
  t[size_t(OpKind::AsyncCopyGlobalToLocal)] = printAsyncCopyGlobalToLocal;
  t[size_t(OpKind::AsyncCommitGroup)] = printAsyncCommitGroupBarrier;
  t[size_t(OpKind::Barrier)] = printAsyncCommitGroupBarrier;
  t[size_t(OpKind::AsyncWait)] = printAsyncWait;
  return t;
}();
static_assert(coversFamily(kPrint, OpFamily::Shared), "an op of the family has no printing");

// ---- verification -------------------------------------------------------------------------------

bool isPow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

// ttg.memdesc_subslice. With power-of-two sizes, an offset that is a multiple of the view's
// size in its dim has no bit in common with the view's coordinates, so parent coordinate
// o + x is o XOR x, and for the (linear) shared layout L of the viewed tile the view's element
// x sits at offset L^-1(o) XOR L^-1(x): the parent's addressing XOR one constant. Any other
// offset would add with carries, which no XOR of a constant expresses; such views are
// rejected.
Status checkSubslice(OpVerifier &v, const Op &op) {
  const Type &s = v.type(op.operands[0]);
  const Type &r = v.type(op.results[0]);
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
  const Type &s = v.type(op.operands[0]);
  const Type &r = v.type(op.results[0]);
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
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 0, 1, 1));
  if (!R().isMemDesc())
    return v.err(&op, "result must be a memdesc, got " + v.ty(R()));
  if (!op.operands.empty() && (!T(0).isTensor() || T(0).shape() != R().shape() ||
                               T(0).elem() != R().elem() || hasBufferDims(v, R())))
    return v.err(&op, "initial value must be a tensor of the memdesc's shape and element, got " +
                          v.ty(T(0)));
  if (op.operands.empty() && !R().isMutable())
    return v.err(&op, "an allocation without a value must be mutable");
  if (!R().allocShape().empty())
    return v.err(&op, "allocates a whole tile; " + v.ty(R()) + " is a view (alloc shape)");
  return Status::success();
}

// LocalStore
Status checkLocalStore(OpVerifier &v, const Op &op) {
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  LL_TRY_STATUS(v.counts(op, 2, 2, 0));
  if (T(1).isMemDesc() && hasBufferDims(v, T(1)))
    return v.err(&op, "stores to a whole ring " + v.ty(T(1)) + "; index one tile first");
  if (!T(1).isMemDesc() || !T(1).isMutable())
    return v.err(&op, "second operand must be a mutable memdesc, got " + v.ty(T(1)));
  if (!T(0).isTensor() || T(0).shape() != T(1).shape() || T(0).elem() != T(1).elem())
    return v.err(&op, "value must match the memdesc's shape and element, got " + v.ty(T(0)));
  return Status::success();
}

// LocalLoad
Status checkLocalLoad(OpVerifier &v, const Op &op) {
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 1, 1, 1));
  if (T(0).isMemDesc() && hasBufferDims(v, T(0)))
    return v.err(&op, "loads a whole ring " + v.ty(T(0)) + "; index one tile first");
  if (!T(0).isMemDesc() || !R().isTensor() || T(0).shape() != R().shape() ||
      T(0).elem() != R().elem())
    return v.err(&op, "loads a memdesc into a tensor of its shape and element, got " + v.ty(T(0)) +
                          " -> " + v.ty(R()));
  return Status::success();
}

// LocalDealloc
Status checkLocalDealloc(OpVerifier &v, const Op &op) {
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  LL_TRY_STATUS(v.counts(op, 1, 1, 0));
  if (!T(0).isMemDesc())
    return v.err(&op, "needs a memdesc, got " + v.ty(T(0)));
  return Status::success();
}

// MemDescIndex
Status checkMemDescIndex(OpVerifier &v, const Op &op) {
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  auto R = [&]() -> const Type & { return v.type(op.results[0]); };
  LL_TRY_STATUS(v.counts(op, 2, 2, 1));
  const Type &s = T(0);
  if (!s.isMemDesc() || s.rank() < 2 || !R().isMemDesc() || R().layout() != s.layout() ||
      R().elem() != s.elem() || R().isMutable() != s.isMutable() ||
      std::vector<int64_t>(s.shape().begin() + 1, s.shape().end()) != R().shape())
    return v.err(&op, "takes a memdesc of rank >= 2 to one of its tiles (same layout, element "
                      "and mutability, the leading dim dropped), got " +
                          v.ty(s) + " -> " + v.ty(R()));
  if (!T(1).isScalar() || T(1).elem().scalar != ScalarKind::I32)
    return v.err(&op, "index must be i32, got " + v.ty(T(1)));
  if (!s.allocShape().empty() || !R().allocShape().empty())
    return v.err(&op,
                 "indexes a ring, not a view (alloc shape), got " + v.ty(s) + " -> " + v.ty(R()));
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
  auto T = [&](size_t i) -> const Type & { return v.type(op.operands[i]); };
  LL_TRY_STATUS(v.counts(op, 2, 4, 0));
  const Type &p = T(0), &d = T(1);
  if (!p.isTensor() || !p.isPointerLike())
    return v.err(&op, "first operand must be a tensor of pointers, got " + v.ty(p));
  if (!d.isMemDesc() || !d.isMutable() || d.shape() != p.shape() || hasBufferDims(v, d) ||
      d.elem().scalar != p.elem().scalar)
    return v.err(&op, "destination must be a mutable memdesc of the pointers' shape and "
                      "pointee, got " +
                          v.ty(d));
  if (op.operands.size() > 2 &&
      (!T(2).isTensor() || T(2).elem() != ElemType{ScalarKind::I1, false} ||
       T(2).shape() != p.shape() || T(2).layout() != p.layout()))
    return v.err(&op, "mask must be an i1 tensor shaped like the pointers, got " + v.ty(T(2)));
  if (op.operands.size() > 3 && T(3) != p.withElem(ElemType{p.elem().scalar, false}))
    return v.err(&op, "other must be " + v.ty(p.withElem(ElemType{p.elem().scalar, false})) +
                          ", got " + v.ty(T(3)));
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

constexpr std::array<VerifyOpFn, kNumOpKinds> kChecks = [] {
  std::array<VerifyOpFn, kNumOpKinds> t{};
  t[size_t(OpKind::LocalAlloc)] = checkLocalAlloc;
  t[size_t(OpKind::LocalStore)] = checkLocalStore;
  t[size_t(OpKind::LocalLoad)] = checkLocalLoad;
  t[size_t(OpKind::LocalDealloc)] = checkLocalDealloc;
  t[size_t(OpKind::MemDescIndex)] = checkMemDescIndex;
  t[size_t(OpKind::MemDescSubslice)] = checkMemDescSubslice;
  t[size_t(OpKind::MemDescTrans)] = checkMemDescTransOp;
  t[size_t(OpKind::AsyncCopyGlobalToLocal)] = checkAsyncCopyGlobalToLocal;
  t[size_t(OpKind::AsyncCommitGroup)] = checkAsyncCommitGroup;
  t[size_t(OpKind::AsyncWait)] = checkAsyncWait;
  t[size_t(OpKind::Barrier)] = checkBarrierOp;
  return t;
}();
static_assert(coversFamily(kChecks, OpFamily::Shared), "an op of the family has no checks");

} // namespace

void printSharedOp(OpPrinter &p, std::ostream &os, const Op &op, int depth) {
  kPrint[size_t(op.kind)](p, os, op, depth);
}

Status verifySharedOp(OpVerifier &v, const Op &op) { return kChecks[size_t(op.kind)](v, op); }

} // namespace linlayout::ir
