// Dot operands loaded from shared memory one K slice at a time. A local_load whose only user is
// an mma.sync dot with a K of several instructions (a Q K^T whose K^T tile spans the head dim,
// a pipelined matmul's K step) would hold the whole operand in registers before the first
// mma.sync; sliced, it loads its first K slice where it stands and leaves the others to the dot,
// which loads each one slice ahead of the mma.sync that takes it. Only two slices of the operand
// are then live at a time, which is what lets a kernel keep a large accumulator (and its Q tile
// in shared memory) without spilling.
#pragma once

#include "LoweringContext.h"

#include <set>
#include <utility>
#include <vector>

namespace linlayout::lower {

/// The local_loads to slice, each with how (OpPlans::slicedLoads): those whose result is used
/// once, as operand A or B of a tt.dot with an nvidia_mma v2 accumulator later in the same
/// block, whose K spans more than one mma.sync, with nothing between them that writes shared
/// memory other than async copies (which the pipelining protocol orders, not program order),
/// uses scratch or synchronises: moving the reads of slices 1.. to the dot then changes nothing
/// the barrier bookkeeping sees.
std::map<const ir::Op *, SlicedLoad> planSlicedLoads(const ir::Module &m, const ir::Function &f,
                                                     const OpPlans &plans);

/// The K slices of one sliced load, planned where the local_load is lowered and carried on its
/// value (Lowered::slices) to the dot that loads the later ones.
class OperandSlices {
public:
  /// Slices of `how.kStep` elements along K of the tensor `load` (a local_load in
  /// OpPlans::slicedLoads) loads. Where a slice's registers do not map onto the operand's (its
  /// lane, warp or block bases differ), the whole operand is one slice.
  static Expected<OperandSlices> plan(LoweringContext &ctx, const ir::Op &load,
                                      const SlicedLoad &how);

  int64_t count() const { return count_; }
  /// K elements per slice (the operand's K when it is one slice).
  int64_t sliceK() const { return kStep_; }

  /// Loads slice `s` into the operand's registers `regs` (one per register of its layout),
  /// with the load's ldmatrix or ld.shared; no hazard bookkeeping.
  Status load(LoweringContext &ctx, int64_t s, std::vector<llvm::Value *> &regs) const;

private:
  const ir::Op *load_ = nullptr;
  int kDim_ = 0;
  int64_t kStep_ = 0;
  int64_t count_ = 1;
  LinearLayout slice_;
  llvm::Type *elemTy_ = nullptr;
  std::vector<std::pair<int, int>> sliceOf_; // operand register -> (slice, slice register)
};

/// (row, col) of a rank-2 layout's packed output value.
std::pair<uint64_t, uint64_t> rowCol(const LinearLayout &l, uint64_t packed);
/// The packed output of register `r` of thread 0.
uint64_t regOutput(const LinearLayout &l, uint64_t r);
/// The (row, col) step of bit i of in dim d of a rank-2 layout (0 when it has no such bit).
std::pair<uint64_t, uint64_t> step(const LinearLayout &l, DimName d, int i);

} // namespace linlayout::lower
