// Ring buffers and asynchronous copies: ttg.memdesc_index (a tile of a ring:
// the ring's base plus index * tile bytes), ttg.async_copy_global_to_local
// (cp.async: 16-byte .cg copies, 4- or 8-byte .ca ones when the global
// contiguity or the tile's layout allow no more; masked-off elements are
// zero-filled through the copy's source size), ttg.async_commit_group
// (cp.async.commit_group) and ttg.async_wait (cp.async.wait_group N, then
// bar.sync so that every thread's copies are visible to every thread), and
// gpu.barrier (bar.sync).
//
// Hazards: a copy writes a tile that, by the pipelining protocol, no thread
// reads any more (its last reader was followed by an async_wait's barrier), so
// no barrier precedes a copy; its data is read only after an async_wait, whose
// barrier the bookkeeping records. Copies that cannot be asynchronous (fewer
// than 4 bytes per thread, or a non-zero `other`) become a masked global load
// and st.shared, which the same protocol orders.
#include "GlobalAccess.h"
#include "InlinePtx.h"
#include "LayoutIndex.h"
#include "LlvmShim.h"
#include "OpLowering.h"
#include "SharedAccess.h"
#include "SharedPadding.h"
#include "SharedView.h"

#include "linlayout/ir/SharedTileLayout.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace linlayout::lower {

namespace {

// (register, lane, warp, block) -> offset of the distributed layout's elements
// in the tile.
Expected<LinearLayout> tileOffsets(const LinearLayout &dist, const LinearLayout &shared) {
  std::vector<DimName> outs = shared.outDimNames();
  LL_ASSIGN_OR_RETURN(LinearLayout perCta,
                      shared.sublayout(std::vector<DimName>{DimName::offset()}, outs));
  auto inv = perCta.invert();
  if (!inv.ok())
    return makeError("the shared layout is not a bijection onto the tile: " + inv.message());
  return dist.then(*inv);
}

// Registers 0..v-1 at offsets 0..v-1 (then every aligned group of v is one
// contiguous vector).
int contiguousRegisters(const LinearLayout &toOffset, int maxElements) {
  int v = 1;
  int regBits = toOffset.inDimBits(DimName::reg());
  while (v * 2 <= maxElements) {
    int bit = __builtin_ctz(static_cast<unsigned>(v));
    if (bit >= regBits ||
        toOffset.basis(DimName::reg(), bit, DimName::offset()) != (uint64_t(1) << bit))
      break;
    v *= 2;
  }
  return v;
}

bool isZero(llvm::Value *v) {
  auto *c = llvm::dyn_cast<llvm::Constant>(v);
  return c && c->isNullValue();
}

// LLVM 19 selects the cp.async intrinsics with a source size only for 64-bit
// shared addresses, and lower/ uses 32-bit ones: the copies are inline PTX.
// With `guarded`, the last operand is an i32 that is non-zero where the thread
// copies (threads that hold copies of another thread's elements stay silent: a
// predicated-off copy would still write zeros).
std::string copyPtx(int bytes, bool sized, bool guarded) {
  std::string copy = std::string("cp.async.") + (bytes == 16 ? "cg" : "ca") +
                     ".shared.global [$0], [$1], " + std::to_string(bytes) +
                     (sized ? ", $2;" : ";");
  if (!guarded)
    return copy;
  std::string g = sized ? "$3" : "$2";
  return "{\n.reg .pred p;\nsetp.ne.b32 p, " + g + ", 0;\n@p " + copy + "\n}";
}

Status lowerAsyncCopy(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  const ir::Function &f = ctx.function();
  const Lowered &ptr = ctx.get(op.operands[0]);
  const Lowered &dst = ctx.get(op.operands[1]);
  const Lowered *mask = op.operands.size() > 2 ? &ctx.get(op.operands[2]) : nullptr;
  const Lowered *other = op.operands.size() > 3 ? &ctx.get(op.operands[3]) : nullptr;
  const ir::Type &dt = f.type(op.operands[1]);
  llvm::Type *elemTy = ctx.scalarType(dt.elem().scalar);
  int bytes = ir::byteWidth(dt.elem().scalar);
  LL_ASSIGN_OR_RETURN(LinearLayout src, widenToTile(ptr.layout, dst.layout));
  LL_ASSIGN_OR_RETURN(LinearLayout map, tileOffsets(src, dst.layout));
  LL_ASSIGN_OR_RETURN(LayoutIndexer ix, LayoutIndexer::create(map));
  // The vector: contiguous in the tile, in global memory (the wider of what the
  // axis analysis proves, OpPlans::accessWidths, and the op's contiguity, which
  // Triton's analysis or the access-width annotation proved), and at most 16 bytes.
  auto safe = ctx.plans().accessWidths.find(&op);
  int globalVec = int(std::max<int64_t>(
      {op.attrs.vectorWidth, 1, safe == ctx.plans().accessWidths.end() ? 1 : safe->second}));
  int vec = vectorUnderPadding(
      vectorUnderXor(contiguousRegisters(map, std::min(globalVec, 16 / bytes)), dst.viewXor),
      dst.pads);
  bool zeroOther = true;
  if (other)
    for (llvm::Value *v : other->regs)
      zeroOther &= isZero(v);
  bool async = vec * bytes >= 4 && zeroOther;
  uint64_t regFree = 0;
  for (const DimMask &m : ptr.layout.freeVariableMasks())
    if (m.name == DimName::reg())
      regFree = m.mask;
  // Threads whose lane / warp bits only repeat another thread's elements do not
  // copy.
  uint64_t tidFree = 0;
  for (const DimMask &m : ptr.layout.freeVariableMasks()) {
    if (m.name == DimName::lane())
      tidFree |= m.mask;
    if (m.name == DimName::warp())
      tidFree |= m.mask << 5;
  }
  llvm::Value *copies = nullptr;
  if (tidFree)
    copies = b.CreateZExt(
        b.CreateICmpEQ(b.CreateAnd(ctx.thread(), static_cast<uint32_t>(tidFree)), b.getInt32(0)),
        b.getInt32Ty());
  IndexEmitter em(ix, b, ctx.thread(), ctx.blockInCluster());
  llvm::Value *base = ctx.sharedBase(dst);
  for (uint64_t r = 0; r < ix.numRegisters(); r += uint64_t(vec)) {
    if (r & regFree)
      continue;
    SplitOffset so = tileByteOffset(b, em, ix, r, dst.viewXor, dst.pads, bytes);
    llvm::Value *to = sharedAddress(b, base, so.variable, so.constant);
    llvm::Value *pred = mask ? mask->regs[r] : nullptr;
    if (async) {
      int n = vec * bytes;
      std::vector<llvm::Value *> inputs{to, ptr.regs[r]};
      if (pred)
        inputs.push_back(b.CreateSelect(pred, b.getInt32(uint32_t(n)), b.getInt32(0)));
      if (copies)
        inputs.push_back(copies);
      emitInlinePtx(b, copyPtx(n, pred != nullptr, copies != nullptr), {}, {}, inputs);
      continue;
    }
    GlobalLoad ld;
    ld.base = ptr.regs[r];
    ld.elementType = elemTy;
    ld.count = vec;
    ld.mask = pred;
    if (pred)
      for (int i = 0; i < vec; ++i)
        ld.other.push_back(other ? other->regs[r + uint64_t(i)]
                                 : llvm::Constant::getNullValue(elemTy));
    emitSharedStore(b, to, emitGlobalLoad(b, ld));
  }
  return Status::success();
}

} // namespace

SharedEffects asyncEffects(const ir::Op &op, const OpPlans &) {
  if (op.kind == ir::OpKind::AsyncCopyGlobalToLocal && !op.attrs.slotFree)
    return SharedEffects().waitToWrite();
  if (op.kind == ir::OpKind::AsyncWait || op.kind == ir::OpKind::Barrier)
    return SharedEffects().barrier();
  return {}; // views of a buffer, commits: no access (a copy's writes end at its async_wait)
}

Status lowerMemDescIndex(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  const Lowered &ring = ctx.get(op.operands[0]);
  const ir::Type &tile = ctx.function().type(op.results[0]);
  int64_t tileBytes = sharedDescBytes(ctx.module(), tile);
  Lowered t;
  t.layout = ring.layout;
  t.pads = ring.pads;
  t.sharedOffset = ring.sharedOffset;
  llvm::Value *at =
      b.CreateMul(ctx.get(op.operands[1]).regs[0], b.getInt32(static_cast<uint32_t>(tileBytes)));
  t.sharedDynamic = ring.sharedDynamic ? b.CreateAdd(ring.sharedDynamic, at) : at;
  ctx.set(op.results[0], std::move(t));
  return Status::success();
}

Status lowerMemDescSubslice(LoweringContext &ctx, const ir::Op &op) {
  Lowered v = ctx.get(op.operands[0]);
  auto origin = viewOrigin(v.layout, op.attrs.offsets);
  if (!origin.ok())
    return makeError(ctx.where(op) + "ttg.memdesc_subslice: " + origin.message());
  // The operand may itself be a view: the origins are relative, so their offsets XOR.
  v.viewXor ^= *origin;
  v.regs.clear();
  ctx.set(op.results[0], std::move(v));
  return Status::success();
}

// The same bytes: the tile's layout with its dims permuted; a view keeps its origin (the same
// element, at the same offset).
Status lowerMemDescTrans(LoweringContext &ctx, const ir::Op &op) {
  Lowered v = ctx.get(op.operands[0]);
  auto t = ir::transposedTileLayout(v.layout, op.attrs.order);
  if (!t.ok())
    return makeError(ctx.where(op) + "ttg.memdesc_trans: " + t.message());
  v.layout = std::move(t).value();
  v.regs.clear();
  ctx.set(op.results[0], std::move(v));
  return Status::success();
}

Status lowerAsyncCopyGlobalToLocal(LoweringContext &ctx, const ir::Op &op) {
  // The copy may overwrite a ring slot other warps still read (Triton's schedules refill the
  // slot they just read and leave the barrier to its membar analysis): after a bar.sync when
  // shared-memory accesses are pending, unless the op says no thread read its tile since the
  // last barrier (`ll.slot_free`, the software pipeliner's copies; the interpreter checks it).
  // Its own writes become visible through the async_wait and its barrier: no hazard.
  if (!op.attrs.slotFree)
    ctx.beforeSharedWrite();
  Status s = lowerAsyncCopy(ctx, op);
  if (!s.ok())
    return makeError(ctx.where(op) + "ttg.async_copy_global_to_local: " + s.message());
  return Status::success();
}

Status lowerAsyncCommitGroup(LoweringContext &ctx, const ir::Op &) {
  auto &b = ctx.b();
  llvm::Module &mod = *b.GetInsertBlock()->getModule();
  b.CreateCall(shim::intrinsic(mod, llvm::Intrinsic::nvvm_cp_async_commit_group));
  return Status::success();
}

Status lowerAsyncWait(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  llvm::Module &mod = *b.GetInsertBlock()->getModule();
  b.CreateCall(shim::intrinsic(mod, llvm::Intrinsic::nvvm_cp_async_wait_group),
               {b.getInt32(static_cast<uint32_t>(op.attrs.num))});
  emitBarrier(b);
  ctx.barrierEmitted();
  return Status::success();
}

Status lowerBarrier(LoweringContext &ctx, const ir::Op &) {
  emitBarrier(ctx.b());
  ctx.barrierEmitted();
  return Status::success();
}

} // namespace linlayout::lower
