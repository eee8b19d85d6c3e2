// ttg.local_alloc / local_store / local_load / local_dealloc: a shared-memory buffer in a shared
// layout ((offset[, block]) -> tensor), written and read by distributed tensors at the offsets
// layout∘shared⁻¹ gives, with the widest vectors both allow; loads use ldmatrix where the
// layouts let them (SharedTileLoad.h). A padded tile (#ttg.padded_shared) takes the same offsets
// through its padding (SharedPadding.h), with vectors that padding does not split.
#include "LayoutIndex.h"
#include "OpLowering.h"
#include "OperandSlices.h"
#include "SharedAccess.h"
#include "SharedBytesTag.h"
#include "SharedPadding.h"
#include "SharedTileLoad.h"
#include "SharedVector.h"
#include "SharedView.h"

namespace linlayout::lower {

namespace {

// (register, lane, warp, block) -> offset for a distributed layout over a shared one.
Expected<LinearLayout> offsetsOf(const LinearLayout &dist, const LinearLayout &shared) {
  std::vector<DimName> outs = shared.outDimNames();
  LL_ASSIGN_OR_RETURN(LinearLayout perCta,
                      shared.sublayout(std::vector<DimName>{DimName::offset()}, outs));
  auto inv = perCta.invert();
  if (!inv.ok())
    return makeError("the shared layout is not a bijection onto one CTA's tile: " + inv.message());
  return dist.then(*inv);
}

int vectorOf(const LinearLayout &toOffset, int bytes) { return sharedVectorWidth(toOffset, bytes); }

Status storeTile(LoweringContext &ctx, const ir::Op &op, const Lowered &value,
                 const Lowered &buffer, ByteRange range) {
  auto &b = ctx.b();
  LL_ASSIGN_OR_RETURN(LinearLayout src, widenToTile(value.layout, buffer.layout));
  LL_ASSIGN_OR_RETURN(LinearLayout map, offsetsOf(src, buffer.layout));
  LL_ASSIGN_OR_RETURN(LayoutIndexer ix, LayoutIndexer::create(map));
  llvm::Type *ty = value.regs[0]->getType();
  int bytes = sharedBytes(ty);
  int vec = vectorUnderPadding(vectorUnderXor(vectorOf(map, bytes), buffer.viewXor), buffer.pads);
  uint64_t free = 0;
  for (const DimMask &m : value.layout.freeVariableMasks())
    if (m.name == DimName::reg())
      free = m.mask;
  ctx.beforeSharedWrite(range);
  IndexEmitter em(ix, b, ctx.thread(), ctx.blockInCluster());
  for (uint64_t r = 0; r < ix.numRegisters(); r += vec) {
    if (r & free)
      continue;
    SplitOffset so = tileByteOffset(b, em, ix, r, buffer.viewXor, buffer.pads, bytes);
    std::vector<llvm::Value *> vals(value.regs.begin() + r, value.regs.begin() + r + vec);
    emitSharedStore(b, sharedAddress(b, ctx.sharedBase(buffer), so.variable, so.constant), vals);
  }
  ctx.afterSharedWrite(range);
  (void)op;
  return Status::success();
}

} // namespace

Expected<std::vector<llvm::Value *>> loadSharedTile(LoweringContext &ctx, const Lowered &buf,
                                                    const LinearLayout &view, llvm::Type *ty) {
  auto &b = ctx.b();
  // A view's coordinates are its tile's (SharedView.h).
  LL_ASSIGN_OR_RETURN(LinearLayout dist, widenToTile(view, buf.layout));
  LL_ASSIGN_OR_RETURN(LinearLayout map, offsetsOf(dist, buf.layout));
  // ldmatrix where the layouts allow it (dot operands from a swizzled tile), else ld.shared.
  // ldmatrix's rows are found on unpadded offsets: a padded tile takes ld.shared.
  if (buf.pads.empty()) {
    LL_ASSIGN_OR_RETURN(auto matrix, emitMatrixTileLoad(b, dist, buf.layout, ctx.sharedBase(buf),
                                                        ctx.thread(), ty, buf.viewXor));
    if (matrix)
      return std::move(*matrix);
  }
  LL_ASSIGN_OR_RETURN(LayoutIndexer ix, LayoutIndexer::create(map));
  int bytes = sharedBytes(ty);
  int vec = vectorUnderPadding(vectorUnderXor(vectorOf(map, bytes), buf.viewXor), buf.pads);
  IndexEmitter em(ix, b, ctx.thread(), ctx.blockInCluster());
  std::vector<llvm::Value *> regs;
  for (uint64_t r = 0; r < ix.numRegisters(); r += vec) {
    SplitOffset so = tileByteOffset(b, em, ix, r, buf.viewXor, buf.pads, bytes);
    auto vals =
        emitSharedLoad(b, sharedAddress(b, ctx.sharedBase(buf), so.variable, so.constant), ty, vec);
    regs.insert(regs.end(), vals.begin(), vals.end());
  }
  return regs;
}

Expected<SharedFootprint> sharedBufferFootprint(FootprintContext &ctx, const ir::Op &op) {
  if (op.kind != ir::OpKind::LocalAlloc)
    return SharedFootprint{};
  const ir::Type &t = ctx.function.type(op.results[0]);
  const LayoutSpec &spec = ctx.module.layoutOf(t);
  SharedFootprint fp;
  fp.bufferBytes = sharedDescBytes(ctx.module, t);
  if (spec.kind() == LayoutKind::NvmmaShared)
    fp.alignment = 1024;
  else if (const auto *linear = spec.as<SharedLinearSpec>())
    fp.alignment = linear->alignment();
  return fp;
}

SharedEffects sharedBufferEffects(const ir::Op &op, const OpPlans &plans) {
  if (op.kind == ir::OpKind::LocalAlloc) {
    SharedEffects fx;
    const ByteRange bytes = plans.buffers.at(&op);
    fx.waitToWrite(bytes);
    if (!op.operands.empty())
      fx.waitToWrite(bytes).write(bytes); // storeTile
    return fx;
  }
  if (op.kind == ir::OpKind::LocalStore) { // storeTile
    const ByteRange bytes = plans.bytesOf(op.operands[1]);
    return SharedEffects().waitToWrite(bytes).write(bytes);
  }
  if (op.kind == ir::OpKind::LocalLoad) {
    const ByteRange bytes = plans.bytesOf(op.operands[0]);
    return SharedEffects().waitToRead(bytes).read(bytes);
  }
  return {}; // local_dealloc: the allocator ends a buffer's life at its last use
}

Status lowerLocalAlloc(LoweringContext &ctx, const ir::Op &op) {
  Lowered buf;
  const ir::Type &t = ctx.function().type(op.results[0]);
  LL_ASSIGN_OR_RETURN(buf.layout, ctx.layoutOf(t));
  auto it = ctx.plans().buffers.find(&op);
  assert(it != ctx.plans().buffers.end() && "local_alloc without a buffer");
  buf.sharedOffset = it->second.begin;
  if (const auto *padded = ctx.module().layoutOf(t).as<PaddedSharedSpec>())
    buf.pads = padded->padding();
  // The allocator may give the buffer bytes that a buffer or scratch used before it, which
  // other threads may still be reading or writing: a bar.sync first where any such access is
  // pending, so that no write into the buffer (its initial value, or the first copy into a
  // ring, which the pipelining protocol otherwise orders by itself) overtakes them.
  ctx.beforeSharedWrite(it->second);
  if (!op.operands.empty()) {
    Status s = storeTile(ctx, op, ctx.get(op.operands[0]), buf, it->second);
    if (!s.ok())
      return makeError(ctx.where(op) + "ttg.local_alloc: " + s.message());
  }
  ctx.set(op.results[0], std::move(buf));
  return Status::success();
}

Status lowerLocalStore(LoweringContext &ctx, const ir::Op &op) {
  Status s = storeTile(ctx, op, ctx.get(op.operands[0]), ctx.get(op.operands[1]),
                       ctx.plans().bytesOf(op.operands[1]));
  if (!s.ok())
    return makeError(ctx.where(op) + "ttg.local_store: " + s.message());
  return Status::success();
}

Status lowerLocalLoad(LoweringContext &ctx, const ir::Op &op) {
  const Lowered &buf = ctx.get(op.operands[0]);
  const ir::Type &rt = ctx.function().type(op.results[0]);
  LL_ASSIGN_OR_RETURN(LinearLayout view, ctx.layoutOf(rt));
  if (auto sl = ctx.plans().slicedLoads.find(&op); sl != ctx.plans().slicedLoads.end()) {
    // The first K slice here, the others where the dot needs them.
    auto slices = OperandSlices::plan(ctx, op, sl->second);
    if (!slices.ok())
      return makeError(ctx.where(op) + "ttg.local_load: " + slices.message());
    Lowered sliced;
    sliced.layout = std::move(view);
    sliced.slices = std::make_shared<const OperandSlices>(std::move(slices).value());
    const ByteRange bytes = ctx.plans().bytesOf(op.operands[0]);
    ctx.beforeSharedRead(bytes);
    Status s = sliced.slices->load(ctx, 0, sliced.regs);
    if (!s.ok())
      return makeError(ctx.where(op) + "ttg.local_load: " + s.message());
    ctx.afterSharedRead(bytes);
    ctx.set(op.results[0], std::move(sliced));
    return Status::success();
  }
  const ByteRange bytes = ctx.plans().bytesOf(op.operands[0]);
  ctx.beforeSharedRead(bytes);
  SharedBytesTag tag(ctx.b(), bytes);
  auto regs = loadSharedTile(ctx, buf, view, ctx.elementType(rt));
  if (!regs.ok())
    return makeError(ctx.where(op) + "ttg.local_load: " + regs.message());
  ctx.afterSharedRead(bytes);
  return ctx.setRegs(op.results[0], std::move(regs).value());
}

// The allocator ends a buffer's life at its last use: nothing to emit.
Status lowerLocalDealloc(LoweringContext &, const ir::Op &) { return Status::success(); }

} // namespace linlayout::lower
