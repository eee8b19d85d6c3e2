// What an op family's interpretation sees of the interpreter (Interpreter.cpp implements it),
// the runtime value, and the table that sends each op kind to its family's interpretation
// (ir/lib/ops/<Family>.cpp). Interpreter.h states the semantics.
#pragma once

#include "../AsyncHazards.h"
#include "../PartitionRaces.h"
#include "../PartitionScheduler.h"
#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace linlayout::ir {

/// A runtime value: a scalar is a tensor of one element. Integers (and i1) live in `i`, floats
/// in `f`, pointers as (buffer, byte offset) in (`buf`, `i`); a memdesc is (allocation index,
/// element offset of its first element, one element stride per dim) in `i`: an allocation holds
/// its elements row-major, and a tile of a ring or a sub-view steps through them with the strides.
struct RtValue {
  std::vector<int64_t> i;
  std::vector<double> f;
  std::vector<uint32_t> buf;
};

/// Element e of an elementwise operand: a scalar operand stands for every element.
inline int64_t at(const std::vector<int64_t> &v, size_t e) { return v.size() == 1 ? v[0] : v[e]; }
inline double atf(const std::vector<double> &v, size_t e) { return v.size() == 1 ? v[0] : v[e]; }

/// An element's bytes in memory (as tt.store writes them), and back (as tt.load reads them,
/// appended to `out`).
void encodeElement(uint8_t *p, ScalarKind k, int64_t iv, double fv);
void decodeElement(const uint8_t *p, ScalarKind k, RtValue &out);

/// The value of the BinaryFloat op k on p and q, before rounding to the result type (the
/// combining step of float reductions and scans too).
double evalFloatBinary(OpKind k, double p, double q);

/// A shared-memory allocation: its elements, row-major.
struct SharedAlloc {
  RtValue data;
  bool live = true;
};

/// What a memdesc value views: its allocation (index and storage) and the allocation's elements
/// it views, row-major.
struct SharedView {
  SharedAlloc *s;
  size_t alloc;
  std::vector<size_t> at;
};

/// An mbarrier's counts: `arrivals` and `bytes` still outstanding in the current phase, which is
/// number `phase` (phases completed so far).
struct MBarrier {
  bool live = false;
  int64_t count = 0;
  int64_t arrivals = 0;
  int64_t bytes = 0;
  int64_t phase = 0;
  /// In a cluster: the cluster barrier phases another CTA must have waited for before it may
  /// use this barrier (its init is visible to the cluster once the owner's next arrive
  /// completes a phase).
  int64_t visibleAfter = 0;
};

/// The partitions of the ttg.warp_specialize being run: their scheduler and the check of their
/// shared-memory protocols (region 0 is the default region, region i + 1 partition i). Alone, a
/// CTA owns both. In a cluster, the CTAs' regions are tasks of the cluster's scheduler and share
/// one check, so that a copy one CTA multicasts into another's stage is ordered like a local one:
/// there a race task is rank * regions + region, and allocation a of CTA `rank` is a * ctas + rank.
struct RunningPartitions {
  PartitionScheduler *scheduler = nullptr;
  PartitionRaces *races = nullptr;
  std::unique_ptr<PartitionScheduler> ownScheduler;
  std::unique_ptr<PartitionRaces> ownRaces;
  /// The scheduler's task of each region (empty: region i is task i).
  std::vector<size_t> taskIds;
  size_t regions = 1, rank = 0, ctas = 1;
  /// The running task's race task.
  size_t task() const {
    size_t t = scheduler->current();
    for (size_t r = 0; r < taskIds.size(); ++r)
      if (taskIds[r] == t)
        return rank * regions + r;
    return t;
  }
  /// The race check's name of allocation `alloc` (or of a barrier in it) of CTA `of`.
  size_t allocId(size_t alloc, size_t of) const { return alloc * ctas + of; }
  size_t allocId(size_t alloc) const { return allocId(alloc, rank); }
  PartitionRaces::BarrierKey key(PartitionRaces::BarrierKey k, size_t of) const {
    return {int64_t(allocId(size_t(k.first), of)), k.second};
  }
  PartitionRaces::BarrierKey key(PartitionRaces::BarrierKey k) const { return key(k, rank); }
};

class OpInterpreter;

/// The CTAs of a thread-block cluster run together: each CTA's program is a task of one
/// scheduler (its partitions too), so that a CTA waiting for a barrier another CTA completes, or
/// at the cluster barrier, lets the others go on.
struct ClusterRun {
  PartitionScheduler scheduler;
  std::vector<OpInterpreter *> ctas; ///< by cluster rank
  /// barrier.cluster: CTAs arrived in the current phase (each at most once), phases completed,
  /// and the phase each CTA arrived in (-1: none pending).
  int64_t arrived = 0, phase = 0;
  std::vector<int64_t> arrivedIn;
  /// Per CTA: cluster barrier phases it has waited for, and whether its program has ended (its
  /// shared memory is gone: a later access from another CTA is an error).
  std::vector<int64_t> waited;
  std::vector<bool> exited;
  /// The shared protocol check of each ttg.warp_specialize, made by the first CTA to run it.
  std::map<const Op *, std::unique_ptr<PartitionRaces>> races;
};

/// The interpreter's state for one program.
class OpInterpreter {
public:
  virtual const Function &function() const = 0;
  virtual const RtValue &val(ValueId v) const = 0;
  /// `op`'s error: its position, its mnemonic and the program's id, then `msg`.
  virtual Status err(const Op &op, const std::string &msg) const = 0;
  /// Sets the op's one result, checking the value hints it carries.
  virtual Status setResult(const Op &op, RtValue r) = 0;
  /// Sets a value as it is (block arguments, loop results, the results of multi-result ops).
  virtual void setValue(ValueId v, RtValue r) = 0;
  /// Shows the observer of InterpreterOptions an integer result, where there is one.
  virtual void observe(ValueId v, const std::vector<int64_t> &ints) = 0;
  /// Runs a block; for a loop body, a branch or a combining body, `yielded` receives the values
  /// its terminator yields.
  virtual Status runBlock(const Block &b, std::vector<RtValue> *yielded) = 0;
  virtual int64_t programId(int axis) const = 0;
  virtual const Grid &grid() const = 0;
  /// Global memory, the shared allocations, the mbarriers (by allocation and element) and the
  /// check of the asynchronous protocols.
  virtual Memory &memory() = 0;
  virtual std::vector<SharedAlloc> &shared() = 0;
  virtual std::map<std::pair<int64_t, int64_t>, MBarrier> &barriers() = 0;
  virtual AsyncHazards &hazards() = 0;
  /// The partitions running (WarpSpecialize.cpp sets them for the op's extent), or null outside
  /// a ttg.warp_specialize.
  virtual RunningPartitions *&partitions() = 0;
  /// The cluster this CTA runs in, or null (no cluster dims); the CTA's rank in it (0 outside).
  virtual ClusterRun *cluster() = 0;
  virtual int64_t clusterRank() const = 0;
  /// The scheduler a blocking wait yields to: the partitions' inside a warp_specialize, else the
  /// cluster's; null where nothing else runs (a wait that cannot complete is then an error).
  PartitionScheduler *scheduler() {
    if (RunningPartitions *p = partitions())
      return p->scheduler;
    return cluster() ? &cluster()->scheduler : nullptr;
  }

  const Type &type(ValueId v) const { return function().type(v); }
  /// `op`'s error for the hazard the async check found (AsyncHazards.h), or success.
  Status hazard(const Op &op, const std::string &found) const {
    return found.empty() ? Status::success() : err(op, found);
  }
  /// Inside a ttg.warp_specialize: the race check of the running task's read or write of
  /// elements `at` of allocation `alloc` (PartitionRaces.h); success outside one.
  Status partitionRead(const Op &op, size_t alloc, std::span<const size_t> at) {
    RunningPartitions *p = partitions();
    return p ? hazard(op, p->races->read(p->task(), op, p->allocId(alloc), at)) : Status::success();
  }
  Status partitionWrite(const Op &op, size_t alloc, std::span<const size_t> at) {
    RunningPartitions *p = partitions();
    return p ? hazard(op, p->races->write(p->task(), op, p->allocId(alloc), at))
             : Status::success();
  }

protected:
  ~OpInterpreter() = default;
};

/// The element at byte `offset` of global buffer `buffer`, as kind `k`, appended to `out`; and
/// an element's store there. An error names the bytes outside the buffer (Memory.cpp).
Status loadElement(OpInterpreter &in, const Op &op, uint32_t buffer, int64_t offset, ScalarKind k,
                   RtValue &out);
Status storeElement(OpInterpreter &in, const Op &op, uint32_t buffer, int64_t offset, ScalarKind k,
                    int64_t iv, double fv);

/// The live allocation a memdesc value points into, or null; what it views, or nullopt where the
/// allocation is deallocated; and a view's elements read and written, row-major (Shared.cpp).
SharedAlloc *liveAlloc(OpInterpreter &in, const RtValue &desc);
std::optional<SharedView> viewOf(OpInterpreter &in, ValueId memDesc);
/// What memdesc value `desc` (of type `t`) views in the shared memory of `owner`: the same
/// allocation and elements in another CTA of the cluster (mapa's mapping); nullopt where that
/// CTA has not allocated it (or deallocated it).
std::optional<SharedView> viewIn(OpInterpreter &owner, const RtValue &desc, const Type &t);
RtValue readShared(const SharedAlloc &s, const std::vector<size_t> &at);
void writeShared(SharedAlloc &s, const std::vector<size_t> &at, const RtValue &v);

/// c + a * b with the types of a dot's operands, `A` and `B` the operands' values; a * b where
/// `useC` is false (a warp_group_dot's useC flag) (Compute.cpp).
void dotOf(const OpInterpreter &in, const Op &op, const RtValue &A, const RtValue &B, RtValue &r,
           bool useC = true);

/// An op family's interpretation of one op: sets its results (ops with regions run them).
using InterpretOpFn = Status (*)(OpInterpreter &in, const Op &op);

#define LINLAYOUT_X(e, m, c, f) Status interpret##f##Op(OpInterpreter &, const Op &);
LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X

/// Per op kind, its family's interpretation (a family file that lacks it fails to link).
inline constexpr std::array<InterpretOpFn, kNumOpKinds> kInterpretOp = {
#define LINLAYOUT_X(e, m, c, f) &interpret##f##Op,
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
};

} // namespace linlayout::ir
