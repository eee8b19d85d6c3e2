// The state of lowering one tile-IR function into one kernel: what each IR value became, the
// linear layouts of the types, the shared-memory allocation and the barrier bookkeeping. Every
// op-family lowering (Lower*.cpp) reads and extends it.
#pragma once

#include "ConversionEmitter.h"
#include "KernelBuilder.h"
#include "LayoutCache.h"
#include "SharedHazards.h"

#include "linlayout/ir/Module.h"
#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/layout/PaddedShared.h"
#include "linlayout/lower/Lower.h"

#include <llvm/IR/IRBuilder.h>

#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace linlayout::lower {

class OperandSlices;

/// Where `op` of `f` is, for messages and reports: "file:line:col", or "<function> (an op a pass
/// inserted)".
std::string opLocation(const ir::Module &m, const ir::Function &f, const ir::Op &op);

/// What an IR value became.
///  - scalar or pointer: regs holds the one value;
///  - tensor: regs holds one value per register of `layout` ((register, lane, warp, block) ->
///    dim0..), duplicates included;
///  - shared-memory descriptor: `layout` is (offset[, block]) -> dims of one tile and
///    `sharedOffset` the buffer's byte offset in the kernel's dynamic shared memory; a tile of a
///    ring (ttg.memdesc_index) adds the i32 byte offset `sharedDynamic`; a view
///    (ttg.memdesc_subslice) keeps the layout of the tile it views and XORs the element offset
///    `viewXor` into every offset (SharedView.h); a padded tile's offsets go through `pads`
///    on the way to an address (SharedPadding.h).
struct Lowered {
  std::vector<llvm::Value *> regs;
  LinearLayout layout;
  int64_t sharedOffset = -1;
  llvm::Value *sharedDynamic = nullptr;
  uint64_t viewXor = 0;
  std::vector<PadInterval> pads;
  /// A local_load sliced along K (OpPlans::slicedLoads): its slices, planned where it was
  /// lowered; regs holds the first one, the others are null until its dot loads them.
  std::shared_ptr<const OperandSlices> slices;
};

/// How a local_load feeding an mma.sync dot is sliced (OperandSlices.h).
struct SlicedLoad {
  int operand = 0;             ///< the dot operand it is: 0 = A, 1 = B
  int64_t kStep = 0;           ///< K elements per slice: one mma.sync's
  const ir::Op *dot = nullptr; ///< the tt.dot that loads the later slices
};

/// Per-op decisions made before emission (plans need them to size shared memory).
struct OpPlans {
  /// convert_layout ops (and trans / reshape ops that move data) by address: their plans.
  std::map<const ir::Op *, ConversionPlan> conversions;
  /// The bytes of the scratch of each convert_layout (and moving trans / reshape) that goes
  /// through shared memory, and of each reduce across warps.
  std::map<const ir::Op *, ByteRange> scratch;
  /// The bytes of each local_alloc's buffer. A buffer may reuse bytes that earlier buffers or
  /// scratch used (the allocator shares bytes between buffers that are not live together), so
  /// the first write into it waits at a barrier for their pending accesses (a copy into a fresh
  /// ring, say, for other warps' reads of a conversion's scratch before it).
  std::map<const ir::Op *, ByteRange> buffers;
  /// The bytes each memory descriptor made in the function's body lies in (a local_alloc's
  /// buffer, and the views of it: a ring's tile at a constant index in that tile's bytes), for
  /// the barrier bookkeeping of local_load, local_store and mbarrier init and inval; a
  /// descriptor not here (a loop's or a branch's result) may lie anywhere.
  std::map<ir::ValueId, ByteRange> descBytes;
  /// The bytes descriptor `v` lies in: descBytes' entry, or everything where it has none.
  ByteRange bytesOf(ir::ValueId v) const {
    auto it = descBytes.find(v);
    return it == descBytes.end() ? ByteRange::everything() : it->second;
  }
  /// The conversions among those whose every scratch byte one warp stores and loads
  /// (SharedStep::withinWarps): their syncs are bar.warp.sync, their pending accesses owned by
  /// them.
  std::set<const ir::Op *> warpScratch;
  /// The op of each ConversionReport, in order.
  std::vector<const ir::Op *> reportOps;
  /// Bytes of dynamic shared memory the kernel needs.
  int64_t sharedBytes = 0;
  /// tt.load / tt.store of tensors by address: the widest vector (elements) that is safe for
  /// every thread (ir::accessWidth: register run, alignment of every thread's run, contiguity
  /// and divisibility of the pointers, constancy of the mask, 16 bytes).
  std::map<const ir::Op *, int64_t> accessWidths;
  /// The alignment of every buffer and of the start of shared memory: 1024 when a buffer is in
  /// an nvmma_shared layout or a wgmma reads one (wgmma and TMA swizzle by address bits 4..9),
  /// at least every shared_linear buffer's alignment.
  int64_t sharedAlignment = 128;
  /// Bracket conversions with PTX comments (LowerOptions::annotateConversions).
  bool annotate = false;
  /// The local_loads that load their first K slice only, their dot the others
  /// (planSlicedLoads).
  std::map<const ir::Op *, SlicedLoad> slicedLoads;
  /// Float adds, subtracts and multiplies may contract into fma (LowerOptions::fpFusion).
  bool fpFusion = true;
};

/// Lowering state for one function.
class LoweringContext {
public:
  LoweringContext(const ir::Module &m, const ir::Function &f, KernelBuilder &kb,
                  const PtxTarget &target, const OpPlans &plans, LayoutCache &layouts);

  llvm::IRBuilder<> &b() { return kb_.b(); }
  KernelBuilder &kernel() { return kb_; }
  const ir::Module &module() const { return m_; }
  const ir::Function &function() const { return f_; }
  const PtxTarget &target() const { return target_; }
  const OpPlans &plans() const { return plans_; }

  /// The LLVM type of one element of `t` (its scalar or pointer element).
  llvm::Type *elementType(const ir::Type &t);
  llvm::Type *scalarType(ir::ScalarKind k);

  /// The linear layout of a tensor or descriptor type (LayoutCache::of, the kernel's one cache);
  /// for a ring descriptor, the layout of one tile.
  Expected<LinearLayout> layoutOf(const ir::Type &t) { return layouts_.of(t); }

  /// What value `v` became. Requires: v was lowered (asserts).
  const Lowered &get(ir::ValueId v) const;
  void set(ir::ValueId v, Lowered l);
  /// Sets a tensor or scalar result from its registers and type.
  Status setRegs(ir::ValueId v, std::vector<llvm::Value *> regs);

  /// The shared memory at byte `offset` (an addrspace(3) pointer).
  llvm::Value *sharedAt(int64_t offset);
  /// The start of a descriptor's tile (an addrspace(3) pointer).
  llvm::Value *sharedBase(const Lowered &memDesc);
  /// The %tid.x value (lane in bits 0-4, warp above) and the CTA id within the cluster.
  llvm::Value *thread() { return kb_.threadId(); }
  llvm::Value *blockInCluster();

  // Shared-memory hazards: call before the first write / read of a shared-memory phase with the
  // bytes it touches (everything when not given); a bar.sync is emitted only when another thread
  // may still read (before a write) or write (before a read or a write) some of those bytes.
  void beforeSharedWrite(ByteRange bytes = ByteRange::everything());
  void beforeSharedRead(ByteRange bytes = ByteRange::everything());
  void afterSharedWrite(ByteRange bytes = ByteRange::everything(), HazardOwner owner = nullptr) {
    hazards_.addWrite(bytes, owner);
  }
  void afterSharedRead(ByteRange bytes = ByteRange::everything(), HazardOwner owner = nullptr) {
    hazards_.addRead(bytes, owner);
  }
  /// Records a bar.sync emitted by a lowering (clears every hazard).
  void barrierEmitted() { hazards_.barrier(); }
  /// The hazards pending now, and setting them (a loop head whose state is known).
  const SharedHazards &hazards() const { return hazards_; }
  void setHazards(SharedHazards h) { hazards_ = std::move(h); }

  /// The syncs a shared-memory conversion emitted (sharedSyncs), where they differ from its
  /// plan's count (the first round's barrier left out or made a warp sync; a scratch that stays
  /// in warps syncs warps only).
  void noteSyncs(const ir::Op &op, SharedSyncs s) { syncs_[&op] = s; }
  const std::map<const ir::Op *, SharedSyncs> &syncs() const { return syncs_; }

  /// The ops after the one being lowered in its block (lowerBlock sets them).
  std::span<const ir::Op> following() const { return following_; }
  void setFollowing(std::span<const ir::Op> ops) { following_ = ops; }

  /// Where the op is, for messages: "file:line:col: " or "".
  std::string where(const ir::Op &op) const;
  /// Where the op is (opLocation).
  std::string location(const ir::Op &op) const { return opLocation(m_, f_, op); }

  /// The dot operands loaded in K slices so far (lowerDot records them).
  void noteSlicedOperand(SlicedOperandReport r) { sliced_.push_back(std::move(r)); }
  const std::vector<SlicedOperandReport> &slicedOperands() const { return sliced_; }
  /// The scans lowered so far (lowerScan records them).
  void noteScan(ScanReport r) { scans_.push_back(std::move(r)); }
  const std::vector<ScanReport> &scans() const { return scans_; }

private:
  const ir::Module &m_;
  const ir::Function &f_;
  KernelBuilder &kb_;
  PtxTarget target_;
  const OpPlans &plans_;
  std::vector<std::unique_ptr<Lowered>> values_;
  LayoutCache &layouts_;
  SharedHazards hazards_;
  std::span<const ir::Op> following_;
  std::map<const ir::Op *, SharedSyncs> syncs_;
  std::vector<SlicedOperandReport> sliced_;
  std::vector<ScanReport> scans_;
};

} // namespace linlayout::lower
