#include "SharedDeclaration.h"

#include "OpLowering.h"

#include <algorithm>
#include <initializer_list>
#include <iterator>

namespace linlayout::lower {

namespace {

using FootprintFn = Expected<SharedFootprint> (*)(FootprintContext &, const ir::Op &);
using EffectsFn = SharedEffects (*)(const ir::Op &, const OpPlans &);

Expected<SharedFootprint> noFootprint(FootprintContext &, const ir::Op &) {
  return SharedFootprint{};
}
SharedEffects noEffects(const ir::Op &, const OpPlans &) { return {}; }

/// An op kind's declarations: its lowering family's.
struct Declaration {
  FootprintFn footprint = noFootprint;
  EffectsFn effects = noEffects;
};

// Not a constant expression: the table below does not compile while declarationOf reaches it.
Declaration kindWithoutFamily() {
  assert(false && "an op kind without a lowering family");
  return {};
}

// The declarations of an op kind: its lowering family's. An elementwise op works in registers
// only, whatever it computes, so a new one needs no line here. A kind that no line names reaches
// kindWithoutFamily, which is not a constant expression: kDeclarations then fails to compile.
constexpr Declaration declarationOf(ir::OpKind k, ir::OpFamily family) {
  using K = ir::OpKind;
  auto any = [k](std::initializer_list<K> kinds) {
    return std::find(kinds.begin(), kinds.end(), k) != kinds.end();
  };
  if (family == ir::OpFamily::Elementwise)
    return {};
  // One line per lowering family reads as a table.
  // clang-format off
  if (any({K::Return, K::Yield, K::For, K::If, K::CombineReturn, K::WarpSpecialize, K::WarpYield,
           K::WarpReturn}))
    return {noFootprint, structureEffects};
  if (any({K::Constant, K::ProgramId, K::NumPrograms, K::MakeRange, K::Splat, K::Broadcast,
           K::ExpandDims, K::Join, K::Split, K::AddPtr, K::ClusterCtaId, K::ClusterArrive,
           K::ClusterWait, K::FenceMbarrierInitCluster}))
    return {}; // registers only
  if (any({K::Reshape, K::Trans})) // through a conversion's scratch where elements move
    return {shapeFootprint, scratchExchangeEffects};
  if (any({K::Load, K::Store, K::AtomicRMW, K::AtomicCAS}))
    return {atomicFootprint, scratchExchangeEffects};
  if (any({K::ConvertLayout}))
    return {conversionFootprint, scratchExchangeEffects};
  if (any({K::LocalAlloc, K::LocalStore, K::LocalLoad, K::LocalDealloc}))
    return {sharedBufferFootprint, sharedBufferEffects};
  if (any({K::MemDescIndex, K::MemDescSubslice, K::MemDescTrans, K::AsyncCopyGlobalToLocal,
           K::AsyncCommitGroup, K::AsyncWait, K::Barrier}))
    return {noFootprint, asyncEffects};
  if (any({K::Dot}))
    return {noFootprint, dotEffects};
  if (any({K::Reduce}))
    return {reduceFootprint, scratchExchangeEffects};
  if (any({K::Scan}))
    return {scanFootprint, scratchExchangeEffects};
  if (any({K::WarpGroupDot, K::WarpGroupDotWait, K::FenceAsyncShared}))
    return {warpGroupDotFootprint, wgmmaEffects};
  if (any({K::AsyncTmaCopyGlobalToLocal, K::AsyncTmaCopyLocalToGlobal, K::AsyncTmaStoreWait,
           K::InitBarrier, K::InvalBarrier, K::BarrierExpect, K::WaitBarrier, K::ArriveBarrier}))
    return {noFootprint, tmaEffects};
  // clang-format on
  return kindWithoutFamily();
}

constexpr Declaration kDeclarations[] = {
#define LINLAYOUT_X(e, m, c, f) declarationOf(ir::OpKind::e, ir::OpFamily::f),
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
};
static_assert(std::size(kDeclarations) == size_t(ir::kNumOpKinds), "one declaration per op kind");

} // namespace

void SharedEffects::applyTo(SharedHazards &h, int *barriers) const {
  auto barrierIf = [&](bool needed) {
    if (!needed)
      return;
    if (barriers)
      ++*barriers;
    h.barrier();
  };
  for (const SharedStep &s : steps()) {
    switch (s.kind) {
    case SharedStep::Kind::WaitToWrite:
      barrierIf(h.beforeWrite(s.bytes, s.owner) == SyncNeeded::Cta);
      break;
    case SharedStep::Kind::WaitToRead:
      barrierIf(h.readNeedsBarrier(s.bytes));
      break;
    case SharedStep::Kind::Write:
      h.addWrite(s.bytes, s.owner);
      break;
    case SharedStep::Kind::Read:
      h.addRead(s.bytes, s.owner);
      break;
    case SharedStep::Kind::Barrier:
      h.barrier();
      break;
    case SharedStep::Kind::Anything:
      h.addRead(ByteRange::everything());
      h.addWrite(ByteRange::everything());
      break;
    }
  }
}

Expected<SharedFootprint> sharedFootprint(FootprintContext &ctx, const ir::Op &op) {
  auto got = kDeclarations[size_t(op.kind)].footprint(ctx, op);
  if (!got.ok())
    return makeError(opLocation(ctx.module, ctx.function, op) + ": " +
                     std::string(ir::mnemonic(op.kind)) + ": " + got.message());
  return got;
}

SharedEffects sharedEffects(const ir::Op &op, const OpPlans &plans) {
  return kDeclarations[size_t(op.kind)].effects(op, plans);
}

int exchangeElementBits(const ir::Type &t) {
  return t.elem().pointer ? 64 : std::max(8, ir::bitWidth(t.elem().scalar));
}

SharedEffects scratchExchangeEffects(const ir::Op &op, const OpPlans &plans) {
  auto s = plans.scratch.find(&op);
  if (s == plans.scratch.end())
    return {};
  if (plans.warpScratch.count(&op))
    return SharedEffects().waitToWrite(s->second, &op).write(s->second, &op).read(s->second, &op);
  return SharedEffects().waitToWrite(s->second).barrier().read(s->second);
}

} // namespace linlayout::lower
