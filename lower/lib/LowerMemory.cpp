// tt.load / tt.store. A tensor access moves `vec` consecutive registers per instruction, with the
// first register's pointer and mask: the width ir::accessWidth finds safe for every thread,
// narrowed by the op's `ll.vec` (the access-width pass sets it to the same width). Registers
// and threads that hold a copy of an element another register / thread holds (the layout's free
// variables) neither load nor store it again: loads copy the value, stores are skipped or
// predicated off.
#include "GlobalAccess.h"
#include "OpLowering.h"
#include "RegisterLookup.h"

#include <llvm/IR/Constants.h>

#include <unordered_map>

namespace linlayout::lower {

namespace {

uint64_t freeMask(const LinearLayout &l, DimName d) {
  for (const DimMask &m : l.freeVariableMasks())
    if (m.name == d)
      return m.mask;
  return 0;
}

// The vector width of a tensor access: what planning found safe for every thread (alignment,
// contiguity, mask constancy; OpPlans::accessWidths), narrowed by an ll.vec attribute when the
// op has one. Without the attribute lower/ uses the safe width itself.
int vectorWidth(const LoweringContext &ctx, const ir::Op &op) {
  auto it = ctx.plans().accessWidths.find(&op);
  int64_t safe = it == ctx.plans().accessWidths.end() ? 1 : it->second;
  int64_t v = op.attrs.vectorWidth > 0 ? std::min(op.attrs.vectorWidth, safe) : safe;
  // Keep a power of two (the attribute is one by the verifier; this is for safety).
  int p = 1;
  while (p * 2 <= v)
    p *= 2;
  return p;
}

// The element type as it sits in memory: i1 is a byte.
llvm::Type *memoryType(LoweringContext &ctx, const ir::Type &t) {
  llvm::Type *ty = ctx.elementType(t);
  return ty->isIntegerTy(1) ? ctx.b().getInt8Ty() : ty;
}

Status lowerLoad(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  const ir::Type &rt = ctx.function().type(op.results[0]);
  llvm::Type *elemTy = ctx.elementType(rt);
  llvm::Type *memTy = memoryType(ctx, rt);
  const Lowered &ptr = ctx.get(op.operands[0]);
  const Lowered *mask = op.operands.size() > 1 ? &ctx.get(op.operands[1]) : nullptr;
  const Lowered *other = op.operands.size() > 2 ? &ctx.get(op.operands[2]) : nullptr;
  auto fromMemory = [&](llvm::Value *v) {
    return memTy == elemTy ? v : b.CreateTrunc(v, elemTy);
  };
  auto toMemory = [&](llvm::Value *v) {
    return memTy == elemTy ? v : b.CreateZExt(v, memTy);
  };
  if (!rt.isTensor()) {
    GlobalLoad ld;
    ld.base = ptr.regs[0];
    ld.elementType = memTy;
    ld.mask = mask ? mask->regs[0] : nullptr;
    if (other)
      ld.other = {toMemory(other->regs[0])};
    return ctx.setRegs(op.results[0], {fromMemory(emitGlobalLoad(b, ld)[0])});
  }
  const LinearLayout &l = ptr.layout;
  int vec = vectorWidth(ctx, op);
  uint64_t regFree = freeMask(l, DimName::reg());
  size_t n = ptr.regs.size();
  std::vector<llvm::Value *> out(n, nullptr);
  for (size_t r = 0; r < n; r += vec) {
    if (r & regFree)
      continue;
    GlobalLoad ld;
    ld.base = ptr.regs[r];
    ld.elementType = memTy;
    ld.count = vec;
    ld.mask = mask ? mask->regs[r] : nullptr;
    if (other)
      for (int i = 0; i < vec; ++i)
        ld.other.push_back(toMemory(other->regs[r + i]));
    std::vector<llvm::Value *> got = emitGlobalLoad(b, ld);
    for (int i = 0; i < vec; ++i)
      out[r + i] = fromMemory(got[i]);
  }
  // Copies: the loaded register holding the same element in this thread.
  std::unordered_map<uint64_t, llvm::Value *> loaded;
  int regOffset = l.inDimOffset(l.inDimIndex(DimName::reg()));
  for (size_t r = 0; r < n; ++r)
    if (out[r])
      loaded.emplace(l.apply(uint64_t(r) << regOffset), out[r]);
  for (size_t r = 0; r < n; ++r)
    if (!out[r]) {
      auto it = loaded.find(l.apply(uint64_t(r) << regOffset));
      assert(it != loaded.end() && "a duplicate register without a loaded twin");
      out[r] = it->second;
    }
  return ctx.setRegs(op.results[0], std::move(out));
}

Status lowerStore(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  const ir::Type &vt = ctx.function().type(op.operands[1]);
  llvm::Type *elemTy = ctx.elementType(vt);
  llvm::Type *memTy = memoryType(ctx, vt);
  const Lowered &ptr = ctx.get(op.operands[0]);
  const Lowered &val = ctx.get(op.operands[1]);
  const Lowered *mask = op.operands.size() > 2 ? &ctx.get(op.operands[2]) : nullptr;
  auto toMemory = [&](llvm::Value *v) {
    return memTy == elemTy ? v : b.CreateZExt(v, memTy);
  };
  if (!vt.isTensor()) {
    emitGlobalStore(b, ptr.regs[0], 0, {toMemory(val.regs[0])}, mask ? mask->regs[0] : nullptr);
    return Status::success();
  }
  const LinearLayout &l = ptr.layout;
  int vec = vectorWidth(ctx, op);
  uint64_t regFree = freeMask(l, DimName::reg());
  // Threads holding copies (free lane / warp / block bits) stay silent.
  llvm::Value *threadPred = nullptr;
  uint64_t laneFree = freeMask(l, DimName::lane());
  uint64_t warpFree = freeMask(l, DimName::warp());
  uint64_t blockFree = freeMask(l, DimName::block());
  uint64_t tidFree = laneFree | (warpFree << 5);
  if (tidFree)
    threadPred = b.CreateICmpEQ(b.CreateAnd(ctx.thread(), static_cast<uint32_t>(tidFree)),
                                b.getInt32(0));
  if (blockFree) {
    llvm::Value *p = b.CreateICmpEQ(
        b.CreateAnd(ctx.blockInCluster(), static_cast<uint32_t>(blockFree)), b.getInt32(0));
    threadPred = threadPred ? b.CreateAnd(threadPred, p) : p;
  }
  for (size_t r = 0; r < ptr.regs.size(); r += vec) {
    if (r & regFree)
      continue;
    std::vector<llvm::Value *> vals;
    for (int i = 0; i < vec; ++i)
      vals.push_back(toMemory(val.regs[r + i]));
    llvm::Value *m = mask ? mask->regs[r] : nullptr;
    if (threadPred)
      m = m ? b.CreateAnd(m, threadPred) : threadPred;
    emitGlobalStore(b, ptr.regs[r], 0, vals, m);
  }
  return Status::success();
}

} // namespace

Status lowerMemory(LoweringContext &ctx, const ir::Op &op) {
  if (op.kind == ir::OpKind::Load)
    return lowerLoad(ctx, op);
  return lowerStore(ctx, op);
}

} // namespace linlayout::lower
