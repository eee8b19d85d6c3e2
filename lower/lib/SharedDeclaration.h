// What each lowering family declares about shared memory, so that the planning before emission
// and the barrier placement read one description instead of re-describing every lowering:
//  - its footprint (SharedFootprint): the scratch bytes an op uses while it runs, the buffer its
//    result names, the alignment it needs. Lower.cpp's planOps places them by liveness;
//  - its effects (SharedEffects): the waits, reads, writes and barriers its emission performs on
//    the barrier bookkeeping (SharedHazards.h), in order. FunctionLowering.cpp replays them to
//    foresee the hazards at a loop's head and what a barrier before the loop would save.
// Each family defines both beside its emission (Lower<Family>.cpp); sharedFootprint and
// sharedEffects dispatch over a table made from the op list (LINLAYOUT_IR_OPS), which does not
// compile while an op kind has no family.
#pragma once

#include "LayoutCache.h"
#include "LoweringContext.h"
#include "SharedHazards.h"

#include "linlayout/lower/Lower.h"

#include <array>
#include <cassert>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace linlayout::lower {

/// What one op needs of the kernel's shared memory.
struct SharedFootprint {
  /// Bytes the op uses while it runs (a conversion's, reduction's or scan's exchange, an
  /// atomic's published result); 0 for none.
  int64_t scratchBytes = 0;
  /// Bytes of the buffer its result 0 names, live until that result's last use; 0 for none.
  int64_t bufferBytes = 0;
  /// The alignment it needs of the start of shared memory and of every buffer; 0 for none.
  int64_t alignment = 0;
};

/// What the footprint declarations read, and the plans they make on the way (a conversion's plan
/// and report, which size its scratch).
struct FootprintContext {
  const ir::Module &module;
  const ir::Function &function;
  const PtxTarget &target;
  LayoutCache &layouts;
  /// LowerOptions::conversionPath.
  std::optional<ConversionPath> forcedPath;
  /// LowerOptions::conversionPadding.
  ScratchPadding padding = ScratchPadding::Never;
  /// The uses of each value (ir::countUses).
  const std::vector<int> &uses;
  OpPlans &plans;
  std::vector<ConversionReport> &reports;
};

/// One thing an op's lowering does to the barrier bookkeeping, in the order it does it.
struct SharedStep {
  enum class Kind : uint8_t {
    /// A bar.sync first where a pending access overlaps `bytes` (LoweringContext::
    /// beforeSharedWrite); where only `owner`'s own accesses do, a warp sync, or nothing.
    WaitToWrite,
    /// A bar.sync first where a pending write overlaps `bytes` (beforeSharedRead).
    WaitToRead,
    /// `bytes` written by `owner`'s warps (any thread: nullptr), pending until a bar.sync.
    Write,
    /// `bytes` read, pending until a bar.sync.
    Read,
    /// A bar.sync, or an order the protocol keeps by itself: nothing is pending after it.
    Barrier,
    /// Not described (a nested loop): every byte may be left read and written.
    Anything,
  };
  Kind kind = Kind::Anything;
  ByteRange bytes = ByteRange::everything();
  HazardOwner owner = nullptr;
};

/// What one op's lowering does to shared memory: its steps, in order (none for an op that leaves
/// shared memory alone). Built as `SharedEffects().waitToRead().read()`.
class SharedEffects {
public:
  SharedEffects &waitToWrite(ByteRange r = ByteRange::everything(), HazardOwner o = nullptr) {
    return add({SharedStep::Kind::WaitToWrite, r, o});
  }
  SharedEffects &waitToRead(ByteRange r = ByteRange::everything()) {
    return add({SharedStep::Kind::WaitToRead, r});
  }
  SharedEffects &write(ByteRange r = ByteRange::everything(), HazardOwner o = nullptr) {
    return add({SharedStep::Kind::Write, r, o});
  }
  SharedEffects &read(ByteRange r = ByteRange::everything(), HazardOwner o = nullptr) {
    return add({SharedStep::Kind::Read, r, o});
  }
  SharedEffects &barrier() { return add({SharedStep::Kind::Barrier}); }
  SharedEffects &anything() { return add({SharedStep::Kind::Anything}); }

  std::span<const SharedStep> steps() const { return {steps_.data(), size_t(n_)}; }

  /// Replays the steps on `h`: what is pending after the op when `h` was pending before it.
  /// Counts in `*barriers` (when given) the bar.syncs that the pending accesses decide (a wait
  /// that found a hazard), not the unconditional ones.
  void applyTo(SharedHazards &h, int *barriers = nullptr) const;

private:
  SharedEffects &add(SharedStep s) {
    assert(n_ < int(steps_.size()) && "more steps than an op's lowering performs");
    steps_[size_t(n_++)] = s;
    return *this;
  }
  std::array<SharedStep, 4> steps_{};
  int n_ = 0;
};

/// The footprint of `op` as its lowering family declares it. Errors name the op's position.
Expected<SharedFootprint> sharedFootprint(FootprintContext &ctx, const ir::Op &op);
/// The effects of lowering `op` with `plans`, as its lowering family declares them.
SharedEffects sharedEffects(const ir::Op &op, const OpPlans &plans);

/// The bits one element of `t` takes in a shared-memory exchange: a pointer's 64, at least 8.
int exchangeElementBits(const ir::Type &t);

/// The effects of an op that exchanges values through its scratch (OpPlans::scratch), the
/// protocol of emitPlannedConversion, lowerReduce, lowerScan and the atomics: stores (after a
/// bar.sync if earlier accesses to the bytes are pending), a bar.sync, loads, which stay pending.
/// Where the scratch stays in warps (OpPlans::warpScratch), the syncs are warp syncs and every
/// access stays pending, owned by the op. None for an op without scratch.
SharedEffects scratchExchangeEffects(const ir::Op &op, const OpPlans &plans);

} // namespace linlayout::lower
