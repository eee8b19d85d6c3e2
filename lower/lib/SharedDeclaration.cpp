#include "SharedDeclaration.h"

#include "OpLowering.h"

#include <algorithm>
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

// The family of each op kind, as lowerBlock dispatches it. No default: a kind without a case
// reaches kindWithoutFamily.
constexpr Declaration declarationOf(ir::OpKind k) {
  using K = ir::OpKind;
  // One line per family reads as a table.
  // clang-format off
  switch (k) {
  case K::Return: case K::Yield: case K::For: case K::If: case K::CombineReturn:
    return {noFootprint, structureEffects};
  // Registers only.
  case K::Constant: case K::ProgramId: case K::NumPrograms: case K::MakeRange:
  case K::Splat: case K::Broadcast: case K::ExpandDims: case K::Join: case K::Split:
  case K::AddI: case K::SubI: case K::MulI: case K::DivSI: case K::RemSI: case K::AndI:
  case K::OrI: case K::XOrI: case K::ShLI: case K::ShRSI: case K::MinSI: case K::MaxSI:
  case K::DivUI: case K::RemUI: case K::ShRUI: case K::MinUI: case K::MaxUI: case K::MulHiUI:
  case K::AddF: case K::SubF: case K::MulF: case K::DivF: case K::MinF: case K::MaxF:
  case K::MinNumF: case K::MaxNumF: case K::RemF: case K::NegF: case K::Exp: case K::Exp2:
  case K::Log: case K::Sqrt: case K::AbsF: case K::Log2: case K::Rsqrt: case K::Floor: case K::Ceil:
  case K::CmpI: case K::CmpF: case K::Select: case K::SIToFP: case K::FPToSI: case K::UIToFP:
  case K::FPToUI: case K::ExtF: case K::TruncF: case K::ExtSI: case K::ExtUI: case K::TruncI:
  case K::Bitcast: case K::FpToFp: case K::AddPtr:
    return {};
  case K::Reshape: case K::Trans: // through a conversion's scratch where elements move
    return {shapeFootprint, scratchExchangeEffects};
  case K::Load: case K::Store: case K::AtomicRMW: case K::AtomicCAS:
    return {atomicFootprint, scratchExchangeEffects};
  case K::ConvertLayout:
    return {conversionFootprint, scratchExchangeEffects};
  case K::LocalAlloc: case K::LocalStore: case K::LocalLoad: case K::LocalDealloc:
    return {sharedBufferFootprint, sharedBufferEffects};
  case K::MemDescIndex: case K::MemDescSubslice: case K::MemDescTrans:
  case K::AsyncCopyGlobalToLocal: case K::AsyncCommitGroup: case K::AsyncWait: case K::Barrier:
    return {noFootprint, asyncEffects};
  case K::Dot:
    return {noFootprint, dotEffects};
  case K::Reduce:
    return {reduceFootprint, scratchExchangeEffects};
  case K::Scan:
    return {scanFootprint, scratchExchangeEffects};
  case K::WarpGroupDot: case K::WarpGroupDotWait: case K::FenceAsyncShared:
    return {warpGroupDotFootprint, wgmmaEffects};
  case K::AsyncTmaCopyGlobalToLocal: case K::AsyncTmaCopyLocalToGlobal:
  case K::AsyncTmaStoreWait: case K::InitBarrier: case K::InvalBarrier: case K::BarrierExpect:
  case K::WaitBarrier:
    return {noFootprint, tmaEffects};
  }
  // clang-format on
  return kindWithoutFamily();
}

constexpr Declaration kDeclarations[] = {
#define LINLAYOUT_X(e, m, c, f) declarationOf(ir::OpKind::e),
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
