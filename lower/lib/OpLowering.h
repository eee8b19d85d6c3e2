// The lowering of each op family of the tile IR to LLVM IR, one .cpp file per family. Each
// function lowers one op whose category it handles, reading operands from and writing results to
// the LoweringContext; it returns an error naming the op's position for what it cannot lower.
// FunctionLowering.cpp dispatches over every OpKind. Beside its lowering, a family that touches
// shared memory declares its footprint and effects (SharedDeclaration.h; the table in
// SharedDeclaration.cpp names each kind's).
#pragma once

#include "LoweringContext.h"
#include "SharedDeclaration.h"

#include <optional>

namespace linlayout::lower {

/// Lowers a block (a function body or a loop body) op by op. Structure ops are handled here.
Status lowerBlock(LoweringContext &ctx, const ir::Block &block);
/// scf.for and scf.if as one op of a block: a loop may leave anything pending; an if's branches
/// are followed by the barrier placement itself (FunctionLowering.cpp).
SharedEffects structureEffects(const ir::Op &op, const OpPlans &plans);
/// Whether every op of category `c` leaves shared memory to others: register-only ops and global
/// memory accesses (where one needs scratch, as a shape op that moves data or an atomic whose
/// result is used, it is in OpPlans::scratch).
bool leavesSharedMemoryAlone(ir::OpCategory c);

/// arith.constant, tt.get_program_id, tt.get_num_programs, tt.make_range.
Status lowerConstant(LoweringContext &ctx, const ir::Op &op);
Status lowerProgramId(LoweringContext &ctx, const ir::Op &op);
Status lowerNumPrograms(LoweringContext &ctx, const ir::Op &op);
Status lowerMakeRange(LoweringContext &ctx, const ir::Op &op);
/// tt.splat, tt.broadcast, tt.expand_dims, tt.reshape, tt.trans: register re-indexing.
Status lowerShape(LoweringContext &ctx, const ir::Op &op);
/// A tt.trans / tt.reshape whose result layout does not keep elements in their threads is a
/// conversion (planConversion); other shape ops need no shared memory.
Expected<SharedFootprint> shapeFootprint(FootprintContext &ctx, const ir::Op &op);
/// tt.join / tt.split: registers interleaved or taken apart, in each thread.
Status lowerJoinSplit(LoweringContext &ctx, const ir::Op &op);
/// tt.fp_to_fp (8-bit floats to and from f16, bf16 and f32; sm_89 and newer).
Status lowerFpToFp(LoweringContext &ctx, const ir::Op &op);
/// Binary, unary, compare, select, cast and addptr ops, register by register.
Status lowerElementwise(LoweringContext &ctx, const ir::Op &op);
/// `kind` (a BinaryInt or BinaryFloat op) of two registers, as the interpreter defines it.
llvm::Value *binary(LoweringContext &ctx, ir::OpKind kind, llvm::Value *x, llvm::Value *y);
/// tt.load / tt.store / tt.atomic_rmw / tt.atomic_cas: vectorised (not atomics), masked, each
/// element stored or updated once.
Status lowerMemory(LoweringContext &ctx, const ir::Op &op);
/// The shared-memory bytes an atomic (rmw or cas) whose result is used needs to hand the values
/// memory held to every copy (0 when each copy's own thread acts: no free lane / warp / block bit);
/// `layout` is its value's layout (null for a scalar, which one thread of `threads` updates).
int64_t atomicResultScratchBytes(const ir::Type &valueType, const LinearLayout *layout,
                                 int threads);
/// The scratch of an atomic whose result is used (atomicResultScratchBytes); loads and stores
/// need none.
Expected<SharedFootprint> atomicFootprint(FootprintContext &ctx, const ir::Op &op);
/// ttg.convert_layout: the steps of the op's ConversionPlan.
Status lowerConvertLayout(LoweringContext &ctx, const ir::Op &op);
/// Plans the conversion of `op` (a convert_layout, or a trans / reshape that moves elements)
/// from `src` to its result's layout into ctx.plans.conversions, with its report: its scratch is
/// the plan's where it goes through shared memory.
Expected<SharedFootprint> planConversion(FootprintContext &ctx, const ir::Op &op,
                                         const LinearLayout &src);
/// ttg.convert_layout: planConversion from the operand's layout.
Expected<SharedFootprint> conversionFootprint(FootprintContext &ctx, const ir::Op &op);
/// The conversion `plan` of `op` (a convert_layout, or a trans / reshape that moves elements)
/// applied to `src`, with the barrier bookkeeping of its scratch (OpPlans::scratch): the first
/// round's barrier only where earlier accesses to the scratch's bytes may be pending.
Expected<std::vector<llvm::Value *>> emitPlannedConversion(LoweringContext &ctx, const ir::Op &op,
                                                           const ConversionPlan &plan,
                                                           const std::vector<llvm::Value *> &src);
/// ttg.local_alloc / local_store / local_load / local_dealloc. A local_load in
/// OpPlans::slicedLoads loads its first K slice only (OperandSlices.h).
Status lowerLocalAlloc(LoweringContext &ctx, const ir::Op &op);
Status lowerLocalStore(LoweringContext &ctx, const ir::Op &op);
Status lowerLocalLoad(LoweringContext &ctx, const ir::Op &op);
Status lowerLocalDealloc(LoweringContext &ctx, const ir::Op &op);
/// A local_alloc's buffer, and the alignment its layout needs (1024 for nvmma_shared, whose
/// swizzle reads address bits 4..9; a shared_linear layout's own).
Expected<SharedFootprint> sharedBufferFootprint(FootprintContext &ctx, const ir::Op &op);
/// local_alloc waits for pending accesses to its bytes (the allocator may reuse them) and, with
/// an initial value, stores the tile; local_store stores, local_load loads.
SharedEffects sharedBufferEffects(const ir::Op &op, const OpPlans &plans);
/// One value per register of `view` (its out dims the tile's, sizes up to the tile's) from the
/// tile or view `buf`, with ldmatrix where the layouts allow it, else ld.shared; no hazard
/// bookkeeping (the caller's).
Expected<std::vector<llvm::Value *>> loadSharedTile(LoweringContext &ctx, const Lowered &buf,
                                                    const LinearLayout &view, llvm::Type *ty);
/// The views of a buffer (ttg.memdesc_index, memdesc_subslice, memdesc_trans), cp.async
/// (ttg.async_copy_global_to_local, async_commit_group, async_wait).
Status lowerMemDescIndex(LoweringContext &ctx, const ir::Op &op);
Status lowerMemDescSubslice(LoweringContext &ctx, const ir::Op &op);
Status lowerMemDescTrans(LoweringContext &ctx, const ir::Op &op);
Status lowerAsyncCopyGlobalToLocal(LoweringContext &ctx, const ir::Op &op);
Status lowerAsyncCommitGroup(LoweringContext &ctx, const ir::Op &op);
Status lowerAsyncWait(LoweringContext &ctx, const ir::Op &op);
/// gpu.barrier: a bar.sync.
Status lowerBarrier(LoweringContext &ctx, const ir::Op &op);
/// The async copy waits before overwriting a slot others may read (unless `ll.slot_free`); the
/// wait for copies and gpu.barrier are bar.syncs; views and commits touch nothing.
SharedEffects asyncEffects(const ir::Op &op, const OpPlans &plans);
/// tt.dot: mma.sync for an nvidia_mma v2 accumulator, FMA for a blocked one.
Status lowerDot(LoweringContext &ctx, const ir::Op &op);
/// A dot with operands loaded in K slices (OpPlans::slicedLoads) reads the later slices.
SharedEffects dotEffects(const ir::Op &op, const OpPlans &plans);
/// ttng.warp_group_dot: wgmma.mma_async (sm_90a) with shared-memory descriptors.
Status lowerWarpGroupDot(LoweringContext &ctx, const ir::Op &op);
/// ttng.warp_group_dot_wait (wgmma.wait_group) and ttng.fence_async_shared (fence.proxy.async).
Status lowerWarpGroupDotWait(LoweringContext &ctx, const ir::Op &op);
Status lowerFenceAsyncShared(LoweringContext &ctx, const ir::Op &op);
/// wgmma swizzles its shared operands by address bits 4..9: shared memory aligned to 1024.
Expected<SharedFootprint> warpGroupDotFootprint(FootprintContext &ctx, const ir::Op &op);
/// ttng.warp_group_dot reads its shared operands; the wait and the fence are not described
/// (anything).
SharedEffects wgmmaEffects(const ir::Op &op, const OpPlans &plans);
/// The TMA copies (ttng.async_tma_copy_global_to_local, async_tma_copy_local_to_global,
/// async_tma_store_wait) and the mbarrier ops (init, inval, expect, wait).
Status lowerTmaLoad(LoweringContext &ctx, const ir::Op &op);
Status lowerTmaStore(LoweringContext &ctx, const ir::Op &op);
Status lowerTmaStoreWait(LoweringContext &ctx, const ir::Op &op);
Status lowerInitBarrier(LoweringContext &ctx, const ir::Op &op);
Status lowerInvalBarrier(LoweringContext &ctx, const ir::Op &op);
Status lowerBarrierExpect(LoweringContext &ctx, const ir::Op &op);
Status lowerWaitBarrier(LoweringContext &ctx, const ir::Op &op);
Status lowerArriveBarrier(LoweringContext &ctx, const ir::Op &op);
/// LowerCluster.cpp: ttng.cluster_cta_id, and ttng.cluster_arrive / cluster_wait /
/// fence_mbarrier_init_release_cluster (registers only: no shared-memory effects declared).
Status lowerClusterCtaId(LoweringContext &ctx, const ir::Op &op);
Status lowerClusterSync(LoweringContext &ctx, const ir::Op &op);
/// LowerWarpSpecialize.cpp.
Status lowerWarpSpecialize(LoweringContext &ctx, const ir::Op &op);
/// The mbarrier ops and the TMA copies' waits, reads and writes.
SharedEffects tmaEffects(const ir::Op &op, const OpPlans &plans);

/// How the block of a tensor descriptor is copied: boxes of `box` (rows, inner elements) with a
/// `swizzleBytes` swizzle, `copies` of them side by side along the inner dim (a block wider than
/// the swizzle takes several).
struct TmaBoxPlan {
  std::vector<int64_t> box;
  int swizzleBytes = 0;
  int copies = 1;
  int64_t elemBytes = 0;
  /// The byte (from the first box's start) the copies write element (r, c) of the block to:
  /// boxes side by side, rows of box[1] elements, the 16-byte chunks of each 128-byte line XORed
  /// with the line's index bits (32/64/128-byte swizzle).
  int64_t byteOf(int64_t r, int64_t c) const;
};
/// Requires: desc is a tensor descriptor type of m.
/// Ensures: an error when the block is not 2-d or its shared layout is not the one such copies
/// write (checked element by element).
Expected<TmaBoxPlan> planTmaBox(const ir::Module &m, const ir::Type &desc);

/// Where a TMA copy of box plan `p` into or out of `to` (of type `dstType`) starts, in bytes
/// from its tile: 0 for a whole tile; for a view (ttg.memdesc_subslice), its first element.
/// Ensures: an error when the view starts off the swizzle pattern's period or the copy would put
/// any element elsewhere than the view's layout has it (checked element by element).
Expected<int64_t> tmaTileStart(const Lowered &to, const ir::Type &dstType, const TmaBoxPlan &p);

/// The values of a tt.reduce's or tt.scan's operands at one element, one per operand.
using Tuple = std::vector<llvm::Value *>;

/// Register r of each of op's operands (a tt.reduce's or tt.scan's), as a tuple.
Tuple operandsAt(LoweringContext &ctx, const ir::Op &op, size_t r);

/// The combining function of a tt.reduce / tt.scan on tuples (lhs the earlier in scan order):
/// its ReduceKind's op, or its body lowered op by op on the tuples' values. The first error of a
/// body's lowering is kept in status() (lhs is returned then).
class Combiner {
public:
  Combiner(LoweringContext &ctx, const ir::Op &op) : ctx_(ctx), op_(op) {}
  Tuple operator()(const Tuple &lhs, const Tuple &rhs);
  /// Whether lhs and rhs may be swapped: a ReduceKind's op commutes (a body is not assumed to).
  bool commutes() const { return op_.regions.empty(); }
  const Status &status() const { return status_; }

private:
  LoweringContext &ctx_;
  const ir::Op &op_;
  Status status_;
};

/// Where each operand's part of a reduce's or scan's shared-memory exchange starts (bytes from the
/// exchange's start): `slots` elements of bytes[i] each, the wider parts first, so that every
/// part is aligned to its elements (the sizes are powers of two).
std::vector<int64_t> exchangeParts(const std::vector<int> &bytes, int64_t slots);

/// tt.reduce: in-thread, butterfly shuffles across lanes, shared memory across warps.
Status lowerReduce(LoweringContext &ctx, const ir::Op &op);
/// The exchange across warps of a tt.reduce (reduceScratchBytes).
Expected<SharedFootprint> reduceFootprint(FootprintContext &ctx, const ir::Op &op);
/// tt.scan: over the bits of the scanned coordinate, lowest first: in registers, by butterfly
/// shuffles, by shared memory between warps.
Status lowerScan(LoweringContext &ctx, const ir::Op &op);
/// The exchanges between warps of a tt.scan (scanScratchBytes).
Expected<SharedFootprint> scanFootprint(FootprintContext &ctx, const ir::Op &op);

} // namespace linlayout::lower

namespace linlayout::lower {

/// Bytes of shared memory a tt.reduce along `axis` of tensors in layout `l` needs (0 when no
/// warps share a row: the reduction then stays in registers and shuffles); `elemBytes` is the sum
/// of the operands' element bytes.
/// Requires: l maps onto the tensor dims; axis < their number. Errors for layouts whose lanes or
/// warps mix the reduced dim with others, and for reductions across CTAs.
Expected<int64_t> reduceScratchBytes(const LinearLayout &l, int axis, int elemBytes);
/// Bytes of shared memory a tt.scan along `axis` of tensors in layout `l` needs (0 when no warp
/// bit steps along the axis); `elemBytes` is the sum of the operands' element bytes, `widestBytes`
/// the largest. Errors for
/// layouts in which some bit of the scanned coordinate is not held by exactly one register, lane or
/// warp bit that moves along it alone, and for scans across CTAs.
Expected<int64_t> scanScratchBytes(const LinearLayout &l, int axis, int elemBytes, int widestBytes);

/// For a tt.trans / tt.reshape whose result layout does not keep elements in their threads: the
/// operand's layout with the result's coordinates (the source of the conversion the op needs);
/// nullopt when the op only re-indexes registers (or is another op).
Expected<std::optional<LinearLayout>> movedShapeSource(const ir::Op &op, const LinearLayout &src,
                                                       const LinearLayout &dst,
                                                       const std::vector<int64_t> &srcShape,
                                                       const std::vector<int64_t> &dstShape);

} // namespace linlayout::lower
