// tt.load / tt.store / tt.atomic_rmw / tt.atomic_cas. A tensor access moves `vec` consecutive
// registers per instruction, with the first register's pointer and mask: the width ir::accessWidth
// finds safe for every thread, narrowed by the op's `ll.vec` (the access-width pass sets it to the
// same width). Registers and threads that hold a copy of an element another register / thread holds
// (the layout's free variables) neither load nor store it again: loads copy the value, stores are
// skipped or predicated off. Atomics likewise touch each element once.
#include "GlobalAccess.h"
#include "InlinePtx.h"
#include "LayoutIndex.h"
#include "OpLowering.h"
#include "RegisterLookup.h"
#include "SharedAccess.h"
#include "StoreOrder.h"

#include <llvm/IR/Constants.h>

#include <unordered_map>

namespace linlayout::lower {

namespace {

// The free-variable bits of a layout (LinearLayout::freeVariableMasks): registers, threads
// (lane | warp << 5) and CTAs of the cluster. With every free bit zero the layout reaches each
// element exactly once.
struct FreeBits {
  uint64_t reg = 0, thread = 0, block = 0;
};

FreeBits freeBits(const LinearLayout &l) {
  FreeBits f;
  for (const DimMask &m : l.freeVariableMasks()) {
    if (m.name == DimName::reg())
      f.reg = m.mask;
    else if (m.name == DimName::lane())
      f.thread |= m.mask;
    else if (m.name == DimName::warp())
      f.thread |= m.mask << 5;
    else if (m.name == DimName::block())
      f.block = m.mask;
  }
  return f;
}

// Each register of `out` left null takes the value of the register of this thread holding the
// same element (its twin, whose free register bits are zero).
void fillRegisterCopies(const LinearLayout &l, std::vector<llvm::Value *> &out) {
  std::unordered_map<uint64_t, llvm::Value *> byElement;
  int regOffset = l.inDimOffset(l.inDimIndex(DimName::reg()));
  for (size_t r = 0; r < out.size(); ++r)
    if (out[r])
      byElement.emplace(l.apply(uint64_t(r) << regOffset), out[r]);
  for (size_t r = 0; r < out.size(); ++r)
    if (!out[r]) {
      auto it = byElement.find(l.apply(uint64_t(r) << regOffset));
      assert(it != byElement.end() && "a duplicate register without a twin");
      out[r] = it->second;
    }
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
  auto fromMemory = [&](llvm::Value *v) { return memTy == elemTy ? v : b.CreateTrunc(v, elemTy); };
  auto toMemory = [&](llvm::Value *v) { return memTy == elemTy ? v : b.CreateZExt(v, memTy); };
  // What a masked-off element takes: `other`'s element, else zero (the IR defines it).
  auto fallback = [&](size_t r) {
    return other ? toMemory(other->regs[r]) : llvm::Constant::getNullValue(memTy);
  };
  if (!rt.isTensor()) {
    GlobalLoad ld;
    ld.base = ptr.regs[0];
    ld.elementType = memTy;
    ld.mask = mask ? mask->regs[0] : nullptr;
    if (mask)
      ld.other = {fallback(0)};
    return ctx.setRegs(op.results[0], {fromMemory(emitGlobalLoad(b, ld)[0])});
  }
  const LinearLayout &l = ptr.layout;
  int vec = vectorWidth(ctx, op);
  uint64_t regFree = freeBits(l).reg;
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
    if (mask)
      for (int i = 0; i < vec; ++i)
        ld.other.push_back(fallback(r + size_t(i)));
    std::vector<llvm::Value *> got = emitGlobalLoad(b, ld);
    for (int i = 0; i < vec; ++i)
      out[r + i] = fromMemory(got[i]);
  }
  fillRegisterCopies(l, out); // copies take the loaded twin's value
  return ctx.setRegs(op.results[0], std::move(out));
}

// The threads whose copy of each element of `l` is the one that acts (every free lane / warp /
// block bit zero: with the non-free bits alone the layout reaches each element exactly once);
// null when every thread acts.
llvm::Value *actingThreads(LoweringContext &ctx, const FreeBits &free) {
  auto &b = ctx.b();
  llvm::Value *pred = nullptr;
  if (free.thread)
    pred = b.CreateICmpEQ(b.CreateAnd(ctx.thread(), static_cast<uint32_t>(free.thread)),
                          b.getInt32(0));
  if (free.block) {
    llvm::Value *p = b.CreateICmpEQ(
        b.CreateAnd(ctx.blockInCluster(), static_cast<uint32_t>(free.block)), b.getInt32(0));
    pred = pred ? b.CreateAnd(pred, p) : p;
  }
  return pred;
}

Status lowerStore(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  const ir::Type &vt = ctx.function().type(op.operands[1]);
  llvm::Type *elemTy = ctx.elementType(vt);
  llvm::Type *memTy = memoryType(ctx, vt);
  const Lowered &ptr = ctx.get(op.operands[0]);
  const Lowered &val = ctx.get(op.operands[1]);
  const Lowered *mask = op.operands.size() > 2 ? &ctx.get(op.operands[2]) : nullptr;
  auto toMemory = [&](llvm::Value *v) { return memTy == elemTy ? v : b.CreateZExt(v, memTy); };
  if (!vt.isTensor()) {
    emitGlobalStore(b, ptr.regs[0], 0, {toMemory(val.regs[0])}, mask ? mask->regs[0] : nullptr);
    return Status::success();
  }
  const LinearLayout &l = ptr.layout;
  int vec = vectorWidth(ctx, op);
  FreeBits free = freeBits(l);
  // Threads holding copies (free lane / warp / block bits) stay silent.
  llvm::Value *threadPred = actingThreads(ctx, free);
  std::vector<size_t> firstRegs;
  std::vector<std::vector<llvm::Value *>> groups;
  for (size_t r = 0; r < ptr.regs.size(); r += vec) {
    if (r & free.reg)
      continue;
    firstRegs.push_back(r);
    groups.emplace_back(val.regs.begin() + std::ptrdiff_t(r),
                        val.regs.begin() + std::ptrdiff_t(r) + vec);
  }
  // Elements narrower than a word share the words they were loaded in, so their stores go in the
  // order of those loads (StoreOrder.h); a store writes each element once, so any order stores
  // the same tile. Wider elements keep register order: each word dies at its store anyway, and
  // reordered, ptxas spilled more (convert2d/0-9/none/64x128/i64: 1768 -> 2664 bytes).
  std::vector<size_t> order(groups.size());
  for (size_t g = 0; g < order.size(); ++g)
    order[g] = g;
  if (elemTy->getPrimitiveSizeInBits() < 32)
    order = storeOrderByLoads(groups, b.GetInsertBlock());
  for (size_t g : order) {
    const size_t r = firstRegs[g];
    std::vector<llvm::Value *> vals;
    for (llvm::Value *v : groups[g])
      vals.push_back(toMemory(v));
    llvm::Value *m = mask ? mask->regs[r] : nullptr;
    if (threadPred)
      m = m ? b.CreateAnd(m, threadPred) : threadPred;
    emitGlobalStore(b, ptr.regs[r], 0, vals, m);
  }
  return Status::success();
}

// `atom.SEM.SCOPE.global.OP.TYPE` for an atomic op (tt.atomic_rmw's operation, or cas) on
// elements of kind k: the PTX names of the orders and scopes are the IR's.
std::string atomInstruction(const ir::Op &op, ir::ScalarKind k) {
  // Per ir::AtomicKind: the PTX operation and the type letter it takes.
  static constexpr std::pair<std::string_view, char> kOps[] = {
      {"and", 'b'}, {"or", 'b'},  {"xor", 'b'}, {"add", 'u'}, {"add", 'f'},
      {"max", 's'}, {"min", 's'}, {"max", 'u'}, {"min", 'u'}, {"exch", 'b'}};
  const ir::OpAttrs &a = op.attrs;
  auto [name, letter] = op.kind == ir::OpKind::AtomicCAS
                            ? std::pair<std::string_view, char>{"cas", 'b'}
                            : kOps[size_t(a.atomicKind)];
  const std::string prefix = "atom." + std::string(ir::name(a.semantic)) + "." +
                             std::string(ir::name(a.scope)) + ".global." + std::string(name) + ".";
  // 16-bit float adds are `add.noftz.f16` / `.bf16`.
  if (letter == 'f' && ir::bitWidth(k) == 16)
    return prefix + "noftz." + std::string(ir::name(k));
  return prefix + letter + std::to_string(ir::bitWidth(k));
}

// One predicated atomic on `values` (the value; or, for cas, the compare value and the new
// value): the value memory held, or 0 where `pred` is off.
llvm::Value *emitAtomic(llvm::IRBuilder<> &b, const std::string &instruction, llvm::Value *ptr,
                        const std::vector<llvm::Value *> &values, llvm::Value *pred) {
  llvm::Type *t = values[0]->getType();
  std::string text = "@$2 " + instruction + " $0, [$1]";
  std::vector<llvm::Value *> inputs = {ptr, pred ? pred : b.getTrue()};
  for (llvm::Value *v : values) {
    text += ", $" + std::to_string(1 + inputs.size());
    inputs.push_back(v);
  }
  return emitInlinePtx(b, text + ";", {t}, {llvm::Constant::getNullValue(t)}, inputs)[0];
}

// Hands the values the acting copies got (`out`, set for the acting registers of the acting
// threads) to every copy, through the op's scratch: the acting threads store each element at its
// row-major place, a barrier, every register loads its element. `l` is the value's layout (null
// for a scalar: one element).
Status publishAtomicResult(LoweringContext &ctx, const ir::Op &op, const LinearLayout *l,
                           llvm::Value *acting, std::vector<llvm::Value *> &out) {
  auto &b = ctx.b();
  const ByteRange scratch = ctx.plans().scratch.at(&op);
  const ir::Type &vt = ctx.function().type(op.operands[1]);
  llvm::Type *ty = ctx.elementType(vt);
  int64_t bytes = ir::byteWidth(vt.elem().scalar);
  llvm::Value *base = ctx.sharedAt(scratch.begin);
  std::optional<LayoutIndexer> ix;
  std::vector<int64_t> strides;
  if (l) {
    LL_ASSIGN_OR_RETURN(LayoutIndexer made, LayoutIndexer::create(*l));
    ix.emplace(std::move(made));
    strides.assign(size_t(l->numOutDims()), bytes);
    for (int o = l->numOutDims() - 1; o > 0; --o)
      strides[size_t(o - 1)] = strides[size_t(o)] << l->outDimBits(o);
  }
  auto address = [&](IndexEmitter *em, size_t r) {
    if (!em)
      return sharedAddress(b, base, nullptr, 0);
    SplitOffset so = em->linearOffset(r, strides);
    return sharedAddress(b, base, so.variable, so.constant);
  };
  ctx.beforeSharedWrite(scratch);
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  llvm::BasicBlock *store = llvm::BasicBlock::Create(b.getContext(), "atomic.publish", fn);
  llvm::BasicBlock *after = llvm::BasicBlock::Create(b.getContext(), "atomic.published", fn);
  b.CreateCondBr(acting, store, after);
  b.SetInsertPoint(store);
  {
    std::optional<IndexEmitter> em;
    if (ix)
      em.emplace(*ix, b, ctx.thread(), ctx.blockInCluster());
    for (size_t r = 0; r < out.size(); ++r)
      if (out[r])
        emitSharedStore(b, address(em ? &*em : nullptr, r), {out[r]});
  }
  b.CreateBr(after);
  b.SetInsertPoint(after);
  emitBarrier(b);
  ctx.barrierEmitted();
  std::optional<IndexEmitter> em;
  if (ix)
    em.emplace(*ix, b, ctx.thread(), ctx.blockInCluster());
  for (size_t r = 0; r < out.size(); ++r)
    out[r] = emitSharedLoad(b, address(em ? &*em : nullptr, r), ty, 1)[0];
  ctx.afterSharedRead(scratch);
  return Status::success();
}

// tt.atomic_rmw and tt.atomic_cas: each element once, by the register and thread whose copy acts
// (free register bits skip, free thread bits predicate off, as for stores; a scalar: thread 0). The
// values memory held come back to the acting copy; a register copy takes them from its twin in the
// same thread, and where copies sit in other threads (and the result is used) the acting threads
// hand them over through shared memory (publishAtomicResult).
Status lowerAtomic(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  const ir::Type &vt = ctx.function().type(op.operands[1]);
  if (op.kind == ir::OpKind::AtomicRMW && vt.elem().scalar == ir::ScalarKind::BF16 &&
      ctx.target().sm < 90)
    return makeError(ctx.where(op) + std::string(ir::mnemonic(op.kind)) +
                     ": an atomic add on bf16 needs sm_90; the target is " + ctx.target().name());
  std::string instruction = atomInstruction(op, vt.elem().scalar);
  const Lowered &ptr = ctx.get(op.operands[0]);
  // The value operands: one for rmw, the compare value and the new value for cas.
  const size_t numValues = ir::atomicValueOperands(op.kind);
  std::vector<const Lowered *> vals;
  for (size_t v = 1; v <= numValues; ++v)
    vals.push_back(&ctx.get(op.operands[v]));
  auto valuesAt = [&](size_t r) {
    std::vector<llvm::Value *> out;
    for (const Lowered *v : vals)
      out.push_back(v->regs[r]);
    return out;
  };
  const Lowered *mask =
      op.operands.size() > 1 + numValues ? &ctx.get(op.operands[1 + numValues]) : nullptr;
  bool publish = ctx.plans().scratch.count(&op) > 0;
  if (!vt.isTensor()) {
    // One thread of the CTA acts.
    llvm::Value *first = b.CreateICmpEQ(ctx.thread(), b.getInt32(0));
    llvm::Value *pred = mask ? b.CreateAnd(mask->regs[0], first) : first;
    std::vector<llvm::Value *> out = {emitAtomic(b, instruction, ptr.regs[0], valuesAt(0), pred)};
    if (publish)
      LL_TRY_STATUS(publishAtomicResult(ctx, op, nullptr, first, out));
    return ctx.setRegs(op.results[0], std::move(out));
  }
  const LinearLayout &l = ptr.layout;
  FreeBits free = freeBits(l);
  llvm::Value *threadPred = actingThreads(ctx, free);
  std::vector<llvm::Value *> out(ptr.regs.size(), nullptr);
  for (size_t r = 0; r < out.size(); ++r) {
    if (r & free.reg)
      continue;
    llvm::Value *m = mask ? mask->regs[r] : nullptr;
    if (threadPred)
      m = m ? b.CreateAnd(m, threadPred) : threadPred;
    out[r] = emitAtomic(b, instruction, ptr.regs[r], valuesAt(r), m);
  }
  if (publish) {
    assert(threadPred && "a published atomic without copies in other threads");
    LL_TRY_STATUS(publishAtomicResult(ctx, op, &l, threadPred, out));
  } else {
    fillRegisterCopies(l, out);
  }
  return ctx.setRegs(op.results[0], std::move(out));
}

} // namespace

int64_t atomicResultScratchBytes(const ir::Type &valueType, const LinearLayout *layout,
                                 int threads) {
  int64_t bytes = ir::byteWidth(valueType.elem().scalar);
  if (!layout)
    return threads > 1 ? bytes : 0;
  FreeBits free = freeBits(*layout);
  return free.thread || free.block ? valueType.numElements() * bytes : 0;
}

Expected<SharedFootprint> atomicFootprint(FootprintContext &ctx, const ir::Op &op) {
  if ((op.kind != ir::OpKind::AtomicRMW && op.kind != ir::OpKind::AtomicCAS) ||
      ctx.uses[op.results[0]] == 0)
    return SharedFootprint{};
  const ir::Type &vt = ctx.function.type(op.operands[1]);
  std::optional<LinearLayout> l;
  if (vt.isTensor()) {
    LL_ASSIGN_OR_RETURN(l, ctx.layouts.of(vt));
  }
  SharedFootprint fp;
  fp.scratchBytes = atomicResultScratchBytes(vt, l ? &*l : nullptr,
                                             ctx.module.numWarps * ctx.module.threadsPerWarp);
  return fp;
}

Status lowerMemory(LoweringContext &ctx, const ir::Op &op) {
  if (op.kind == ir::OpKind::Load)
    return lowerLoad(ctx, op);
  if (op.kind == ir::OpKind::AtomicRMW || op.kind == ir::OpKind::AtomicCAS)
    return lowerAtomic(ctx, op);
  return lowerStore(ctx, op);
}

} // namespace linlayout::lower
