// Hopper copies and barriers: ttng.async_tma_copy_global_to_local (cp.async.bulk.tensor from a
// tensor map passed as a grid-constant kernel parameter), ttng.async_tma_copy_local_to_global and
// ttng.async_tma_store_wait (the reverse copy, one bulk group per store, and
// cp.async.bulk.wait_group.read), ttng.init_barrier / inval_barrier / barrier_expect /
// wait_barrier (mbarrier). One elected lane of warp 0 initialises, invalidates, expects and issues
// the copies (IssuingThread.h); every thread waits.
//
// Hazards: an mbarrier is a word of shared memory, so init and inval are writes (a bar.sync before
// them when other threads may still use the word, and before the first use after them), an
// expect_tx changes the barrier and a copy overwrites a tile other warps' wgmmas may still have
// been reading: both come after a bar.sync when reads are pending. A copy's own writes are
// async-proxy and become visible through the wait, so they set no hazard. A store reads its tile:
// it comes after a bar.sync when other threads' writes to it are pending (their fence came
// before), and its store wait leaves reads pending, so that the next write to the tile comes
// after a bar.sync that follows the issuing thread's wait.
#include "IssuingThread.h"
#include "Mbarrier.h"
#include "OpLowering.h"
#include "SharedAccess.h"
#include "Wgmma.h"

#include "LlvmShim.h"
#include "linlayout/layout/NvmmaShared.h"

#include <algorithm>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace linlayout::lower {

Expected<TmaBoxPlan> planTmaBox(const ir::Module &m, const ir::Type &desc) {
  if (!desc.isTensorDesc() || desc.rank() != 2)
    return makeError("only 2-d tensor descriptors are lowered");
  const LayoutSpec &spec = m.layoutOf(desc);
  TmaBoxPlan p;
  if (const auto *nv = spec.as<NvmmaSharedSpec>())
    p.swizzleBytes = nv->swizzleByteWidth();
  int64_t e = ir::byteWidth(desc.elem().scalar);
  int64_t rows = desc.shape()[0], cols = desc.shape()[1];
  int64_t inner = cols;
  if (p.swizzleBytes > 0)
    inner = std::min(cols, p.swizzleBytes / e);
  if (inner * e % 16 != 0)
    return makeError("the box's rows are " + std::to_string(inner * e) +
                     " bytes, TMA needs a multiple of 16");
  p.box = {rows, inner};
  p.copies = int(cols / inner);
  p.elemBytes = e;
  LL_ASSIGN_OR_RETURN(LinearLayout ll, toLinearLayout(spec, desc.shape()));
  LL_ASSIGN_OR_RETURN(SharedOffsets offsets, SharedOffsets::of(ll));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      int64_t addr = p.byteOf(r, c);
      if (offsets.at(r, c) * e != addr)
        return makeError("the layout of " + std::to_string(rows) + "x" + std::to_string(cols) +
                         " block is not the one a TMA copy with a " +
                         std::to_string(p.swizzleBytes) + "-byte swizzle writes (element (" +
                         std::to_string(r) + ", " + std::to_string(c) + ") is at byte " +
                         std::to_string(offsets.at(r, c) * e) + ", TMA puts it at " +
                         std::to_string(addr) + ")");
    }
  return p;
}

int64_t TmaBoxPlan::byteOf(int64_t r, int64_t c) const {
  const int64_t rows = box[0], inner = box[1], e = elemBytes;
  int64_t chunkMask = swizzleBytes ? (swizzleBytes / 16 - 1) << 4 : 0;
  int64_t addr = (c / inner) * rows * inner * e + r * inner * e + (c % inner) * e;
  return addr ^ ((addr >> 3) & chunkMask);
}

Expected<int64_t> tmaTileStart(const Lowered &to, const ir::Type &dstType, const TmaBoxPlan &p) {
  if (!to.pads.empty())
    return makeError("the tile is padded_shared: a TMA box is written without padding");
  if (dstType.allocShape().empty())
    return int64_t(0);
  LL_ASSIGN_OR_RETURN(SharedOffsets buffer, SharedOffsets::of(to.layout));
  const SharedOffsets view = buffer.view(to.viewXor, dstType.shape()[0], dstType.shape()[1]);
  const int64_t e = p.elemBytes;
  auto byteAt = [&](int64_t r, int64_t c) { return view.at(r, c) * e; };
  const int64_t start = byteAt(0, 0);
  // The copy engine swizzles by address bits: a box starts where the pattern starts over.
  const int64_t align = p.swizzleBytes ? int64_t(p.swizzleBytes) * 8 : 128;
  if (start % align != 0)
    return makeError("the view starts at byte " + std::to_string(start) +
                     " of its buffer; a TMA box " +
                     (p.swizzleBytes ? "with a " + std::to_string(p.swizzleBytes) + "-byte swizzle "
                                     : std::string()) +
                     "must start at a multiple of " + std::to_string(align));
  for (int64_t r = 0; r < dstType.shape()[0]; ++r)
    for (int64_t c = 0; c < dstType.shape()[1]; ++c)
      if (byteAt(r, c) != start + p.byteOf(r, c))
        return makeError("the view's element (" + std::to_string(r) + ", " + std::to_string(c) +
                         ") is at byte " + std::to_string(byteAt(r, c)) +
                         " of its buffer; the copy would put it at byte " +
                         std::to_string(start + p.byteOf(r, c)));
  return start;
}

namespace {

// A TMA copy between its tile (operand `tile`) and the tensor map of its descriptor (operand 0)
// at the coordinates of operands 1 and 2: the box plan and where in the tile the block starts.
struct TmaCopyPlan {
  TmaBoxPlan plan;
  int64_t start = 0;
};
Expected<TmaCopyPlan> planTmaCopy(LoweringContext &ctx, const ir::Op &op, size_t tile) {
  const ir::Function &f = ctx.function();
  LL_ASSIGN_OR_RETURN(TmaBoxPlan plan, planTmaBox(ctx.module(), f.type(op.operands[0])));
  LL_ASSIGN_OR_RETURN(int64_t start,
                      tmaTileStart(ctx.get(op.operands[tile]), f.type(op.operands[tile]), plan));
  return TmaCopyPlan{plan, start};
}

// The values the copy instructions of such a copy take.
struct TmaCopyValues {
  llvm::Value *map, *row, *col, *tile; // the block's first byte in shared memory
};
TmaCopyValues tmaCopyValues(LoweringContext &ctx, const ir::Op &op, size_t tile,
                            const TmaCopyPlan &p) {
  auto &b = ctx.b();
  TmaCopyValues v{nullptr, nullptr, nullptr, nullptr};
  v.map = b.CreatePtrToInt(ctx.get(op.operands[0]).regs[0], b.getInt64Ty());
  v.row = ctx.get(op.operands[1]).regs[0];
  v.col = ctx.get(op.operands[2]).regs[0];
  v.tile = b.CreateGEP(b.getInt8Ty(), ctx.sharedBase(ctx.get(op.operands[tile])),
                       b.getInt32(uint32_t(p.start)));
  return v;
}

// `emit(shared address, column)` for each box of the block (several where the block is wider
// than the swizzle): box j starts where the block's column j * box[1] does.
template <class Emit>
void forEachBox(llvm::IRBuilderBase &b, const TmaBoxPlan &p, const TmaCopyValues &v, Emit emit) {
  for (int j = 0; j < p.copies; ++j) {
    llvm::Value *at =
        b.CreateGEP(b.getInt8Ty(), v.tile, b.getInt32(uint32_t(p.byteOf(0, j * p.box[1]))));
    emit(at, b.CreateAdd(v.col, b.getInt32(uint32_t(j * p.box[1]))));
  }
}
} // namespace

SharedEffects tmaEffects(const ir::Op &op, const OpPlans &plans) {
  using K = ir::OpKind;
  // The issuing thread's write of the mbarrier's bytes: inits of different barriers, one after
  // the other, need no barrier between them.
  if (op.kind == K::InitBarrier || op.kind == K::InvalBarrier) {
    const ByteRange bytes = plans.bytesOf(op.operands[0]);
    return SharedEffects().waitToWrite(bytes).write(bytes);
  }
  // The leader's arrive, and the copy engine's writes, which the mbarrier orders: a wait for
  // pending accesses, then nothing of theirs pending.
  if (op.kind == K::BarrierExpect || op.kind == K::AsyncTmaCopyGlobalToLocal ||
      op.kind == K::ArriveBarrier)
    return SharedEffects().waitToWrite();
  // The tile's writers done before the copy engine reads it; the issuing thread's reads end at
  // the store wait.
  if (op.kind == K::WaitBarrier || op.kind == K::AsyncTmaCopyLocalToGlobal)
    return SharedEffects().waitToRead().read();
  assert(op.kind == K::AsyncTmaStoreWait && "not a TMA or mbarrier op");
  return SharedEffects().read();
}

namespace {

Error tmaError(LoweringContext &ctx, const ir::Op &op, const std::string &m) {
  return makeError(ctx.where(op) + std::string(ir::mnemonic(op.kind)) + ": " + m);
}

// The target checks every TMA and mbarrier op starts with.
Status checkTarget(LoweringContext &ctx, const ir::Op &op) {
  if (!ctx.target().hasSm90Features())
    return tmaError(ctx, op, "TMA and mbarriers need sm_90, the target is " + ctx.target().name());
  if (ctx.module().numCtas != 1)
    return tmaError(ctx, op, "TMA and mbarriers are lowered for one CTA per cluster only");
  return Status::success();
}

// Operand i's i1 predicate, or null (always) where the op has no operand i.
llvm::Value *predicateAt(LoweringContext &ctx, const ir::Op &op, size_t i) {
  return op.operands.size() > i ? ctx.get(op.operands[i]).regs[0] : nullptr;
}

llvm::Value *barrierAt(LoweringContext &ctx, const ir::Op &op, size_t i) {
  return ctx.sharedBase(ctx.get(op.operands[i]));
}

// A multicast op reaches the CTAs whose rank differs from this one's only in the bits of `mask`:
// (rank & ~mask) | sub for each sub of mask. As a ctaMask, that is the bits sub of mask (a
// constant pattern) shifted by rank & ~mask.
uint32_t multicastPattern(int64_t mask) {
  uint32_t pattern = 0;
  for (int64_t sub = mask;; sub = (sub - 1) & mask) {
    pattern |= 1u << sub;
    if (sub == 0)
      break;
  }
  return pattern;
}

llvm::Value *clusterRank(LoweringContext &ctx) {
  return ctx.b().CreateCall(
      shim::intrinsic(ctx.kernel().module(), llvm::Intrinsic::nvvm_read_ptx_sreg_cluster_ctarank));
}

} // namespace

Status lowerInitBarrier(LoweringContext &ctx, const ir::Op &op) {
  LL_TRY_STATUS(checkTarget(ctx, op));
  auto &b = ctx.b();
  const ByteRange bytes = ctx.plans().bytesOf(op.operands[0]);
  ctx.beforeSharedWrite(bytes);
  llvm::Value *bar = barrierAt(ctx, op, 0);
  // One fence after a run of inits makes them all visible: the issuing thread inits them all.
  auto laterInit = std::find_if(ctx.following().begin(), ctx.following().end(), [](auto &o) {
    return o.kind != ir::OpKind::Constant && o.kind != ir::OpKind::MemDescIndex;
  });
  const bool fence =
      laterInit == ctx.following().end() || laterInit->kind != ir::OpKind::InitBarrier;
  inIssuingThread(ctx, nullptr, [&] {
    emitMbarrierInit(b, bar, uint32_t(op.attrs.count));
    if (fence)
      emitMbarrierInitFence(b);
  });
  ctx.afterSharedWrite(bytes);
  return Status::success();
}

Status lowerInvalBarrier(LoweringContext &ctx, const ir::Op &op) {
  LL_TRY_STATUS(checkTarget(ctx, op));
  const ByteRange bytes = ctx.plans().bytesOf(op.operands[0]);
  ctx.beforeSharedWrite(bytes);
  llvm::Value *bar = barrierAt(ctx, op, 0);
  inIssuingThread(ctx, nullptr, [&] { emitMbarrierInval(ctx.b(), bar); });
  ctx.afterSharedWrite(bytes);
  return Status::success();
}

Status lowerBarrierExpect(LoweringContext &ctx, const ir::Op &op) {
  LL_TRY_STATUS(checkTarget(ctx, op));
  auto &b = ctx.b();
  ctx.beforeSharedWrite();
  llvm::Value *bar = barrierAt(ctx, op, 0);
  inIssuingThread(ctx, predicateAt(ctx, op, 1), [&] {
    emitMbarrierArriveExpectTx(b, bar, b.getInt32(uint32_t(op.attrs.count)));
  });
  return Status::success();
}

Status lowerArriveBarrier(LoweringContext &ctx, const ir::Op &op) {
  LL_TRY_STATUS(checkTarget(ctx, op));
  auto &b = ctx.b();
  ctx.beforeSharedWrite();
  llvm::Value *bar = barrierAt(ctx, op, 0);
  const int64_t mask = op.attrs.multicastCta;
  if (mask == 0) {
    inIssuingWarp(ctx, predicateAt(ctx, op, 1), [&](llvm::Value *lane0) {
      emitMbarrierArrive(b, bar, uint32_t(op.attrs.count), lane0);
    });
    return Status::success();
  }
  // One remote arrive per CTA of the class (this one's through the cluster window too).
  llvm::Value *base = b.CreateAnd(clusterRank(ctx), b.getInt32(~uint32_t(mask)));
  inIssuingThread(ctx, predicateAt(ctx, op, 1), [&] {
    for (int64_t sub = mask;; sub = (sub - 1) & mask) {
      llvm::Value *rank = b.CreateOr(base, b.getInt32(uint32_t(sub)));
      emitMbarrierArriveCluster(b, bar, rank, uint32_t(op.attrs.count), nullptr);
      if (sub == 0)
        break;
    }
  });
  return Status::success();
}

Status lowerWaitBarrier(LoweringContext &ctx, const ir::Op &op) {
  LL_TRY_STATUS(checkTarget(ctx, op)); // every thread waits
  ctx.beforeSharedRead();
  emitMbarrierWaitParity(ctx.b(), barrierAt(ctx, op, 0), ctx.get(op.operands[1]).regs[0],
                         predicateAt(ctx, op, 2));
  ctx.afterSharedRead();
  return Status::success();
}

Status lowerTmaLoad(LoweringContext &ctx, const ir::Op &op) {
  LL_TRY_STATUS(checkTarget(ctx, op));
  auto &b = ctx.b();
  size_t n = op.operands.size();
  auto plan = planTmaCopy(ctx, op, n - 3);
  if (!plan.ok())
    return tmaError(ctx, op, plan.message());
  ctx.beforeSharedWrite();
  const TmaCopyValues v = tmaCopyValues(ctx, op, n - 3, *plan);
  llvm::Value *bar = barrierAt(ctx, op, n - 2);
  const int64_t mask = op.attrs.multicastCta;
  llvm::Value *ctaMask = nullptr;
  if (mask != 0) {
    llvm::Value *base = b.CreateAnd(clusterRank(ctx), b.getInt32(~uint32_t(mask)));
    ctaMask = b.CreateTrunc(b.CreateShl(b.getInt32(multicastPattern(mask)), base), b.getInt16Ty());
  }
  inIssuingThread(ctx, predicateAt(ctx, op, n - 1), [&] {
    forEachBox(b, plan->plan, v, [&](llvm::Value *to, llvm::Value *c0) {
      if (ctaMask)
        emitTmaLoad2dMulticast(b, to, v.map, bar, c0, v.row, ctaMask);
      else
        emitTmaLoad2d(b, to, v.map, bar, c0, v.row);
    });
  });
  return Status::success();
}

Status lowerTmaStore(LoweringContext &ctx, const ir::Op &op) {
  LL_TRY_STATUS(checkTarget(ctx, op));
  auto &b = ctx.b();
  const size_t src = op.operands.size() - 1;
  auto plan = planTmaCopy(ctx, op, src);
  if (!plan.ok())
    return tmaError(ctx, op, plan.message());
  ctx.beforeSharedRead();
  const TmaCopyValues v = tmaCopyValues(ctx, op, src, *plan);
  inIssuingThread(ctx, nullptr, [&] {
    forEachBox(b, plan->plan, v, [&](llvm::Value *from, llvm::Value *c0) {
      emitTmaStore2d(b, from, v.map, c0, v.row);
    });
    emitBulkCommitGroup(b);
  });
  ctx.afterSharedRead();
  return Status::success();
}

Status lowerTmaStoreWait(LoweringContext &ctx, const ir::Op &op) {
  LL_TRY_STATUS(checkTarget(ctx, op)); // every thread waits
  // Threads without bulk groups pass at once. The warp sync holds the issuing warp's other lanes
  // until its issuing lane has waited too, so that an mbarrier arrive after the wait (lane 0's,
  // inIssuingWarp) tells the waiter that the stores have read their tiles.
  emitBulkWaitGroupRead(ctx.b(), int(op.attrs.pendings));
  emitWarpSync(ctx.b());
  ctx.afterSharedRead();
  return Status::success();
}

} // namespace linlayout::lower
