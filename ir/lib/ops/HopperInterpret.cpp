// The hopper family's interpretation: wgmma and its wait, the TMA copies, the mbarriers, the
// proxy fence and the cluster ops, run on the CPU with their completion and protocol rules
// (printing, verification and parsing: Hopper.cpp).
#include "FamilyTable.h"
#include "OpInterpreter.h"
#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/SharedTileLayout.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace linlayout::ir {

namespace {

// The mbarrier whose memdesc is operand `operand` of `op`.
Expected<MBarrier *> barrier(OpInterpreter &in, const Op &op, size_t operand, bool mustBeLive) {
  const RtValue &d = in.val(op.operands[operand]);
  if (!liveAlloc(in, d))
    return makeError(in.err(op, "the barrier's memory is deallocated").message());
  MBarrier &b = in.barriers()[{d.i[0], d.i[1]}];
  if (mustBeLive && !b.live)
    return makeError(
        in.err(op, "uses a barrier that is not initialised (or was invalidated)").message());
  return &b;
}

// The barrier key of operand `operand` (its allocation and element).
PartitionRaces::BarrierKey barrierKey(const OpInterpreter &in, const Op &op, size_t operand) {
  const RtValue &d = in.val(op.operands[operand]);
  return {d.i[0], d.i[1]};
}

// `key` names the barrier in the shared memory of CTA `owner` of the cluster (this CTA's: 0
// outside clusters).
Status completePhase(OpInterpreter &in, const Op &op, MBarrier &b, PartitionRaces::BarrierKey key,
                     int64_t owner = -1) {
  if (b.arrivals == 0 && b.bytes < 0)
    return in.err(op, "the barrier received " + std::to_string(-b.bytes) +
                          " byte(s) more than its phase expected");
  if (b.arrivals == 0 && b.bytes == 0) {
    ++b.phase;
    b.arrivals = b.count;
    if (RunningPartitions *p = in.partitions())
      p->races->phaseCompleted(p->key(key, owner < 0 ? p->rank : size_t(owner)));
  }
  return Status::success();
}

// A barrier's name in messages: its value's name in the text, or its value id.
std::string barrierName(const OpInterpreter &in, ValueId v) {
  const std::string &n = in.function().values[v].name;
  return n.empty() ? "value " + std::to_string(v) : "%" + n;
}

// The cluster ranks a multicast op reaches: those that differ from this CTA's only in the bits
// of its multicastCTA mask, in increasing order.
Expected<std::vector<int64_t>> multicastTargets(OpInterpreter &in, const Op &op) {
  ClusterRun *c = in.cluster();
  if (!c)
    return makeError(in.err(op, "multicasts outside a cluster").message());
  const int64_t mask = op.attrs.multicastCta, me = in.clusterRank();
  std::vector<int64_t> out;
  for (int64_t r = 0; r < int64_t(c->ctas.size()); ++r)
    if ((r & ~mask) == (me & ~mask))
      out.push_back(r);
  return out;
}

// The mbarrier of operand `operand` in the shared memory of `owner` (CTA `rank`).
Expected<MBarrier *> remoteBarrier(OpInterpreter &in, OpInterpreter &owner, const Op &op,
                                   size_t operand, int64_t rank) {
  const RtValue &d = in.val(op.operands[operand]);
  ClusterRun &c = *in.cluster();
  if (rank != in.clusterRank() && c.exited[size_t(rank)])
    return makeError(in.err(op, "reaches CTA " + std::to_string(rank) +
                                    " of the cluster, whose program has ended (its shared memory "
                                    "is gone; a cluster_arrive and cluster_wait before the end "
                                    "keep every CTA until the others are done with it)")
                         .message());
  if (!liveAlloc(owner, d))
    return makeError(in.err(op, "uses a barrier that CTA " + std::to_string(rank) +
                                    " of the cluster has not allocated (or has deallocated)")
                         .message());
  MBarrier &b = owner.barriers()[{d.i[0], d.i[1]}];
  if (b.live && rank != in.clusterRank() && c.waited[size_t(in.clusterRank())] < b.visibleAfter)
    return makeError(in.err(op, "uses a barrier of CTA " + std::to_string(rank) +
                                    " of the cluster before its initialisation is visible here: "
                                    "after init_barrier (and fence_mbarrier_init_release_cluster) "
                                    "that CTA's cluster_arrive, then this CTA's cluster_wait")
                         .message());
  if (!b.live)
    return makeError(in.err(op, "uses a barrier of CTA " + std::to_string(rank) +
                                    " of the cluster that is not initialised (or was "
                                    "invalidated): initialise it and make it visible to the "
                                    "cluster (fence_mbarrier_init_release_cluster, then "
                                    "cluster_arrive and cluster_wait) first")
                         .message());
  return &b;
}

// `n` arrivals of the running task on the barrier of operand `operand`: more than the phase
// still waits for would complete it and count toward the next, which the GPU leaves undefined.
Status arrive(OpInterpreter &in, const Op &op, size_t operand, MBarrier &b, int64_t n,
              int64_t owner = -1) {
  if (n > b.arrivals)
    return in.err(op, "arrives " + std::to_string(n) + " time(s) on a barrier whose phase " +
                          std::to_string(b.phase) + " waits for " + std::to_string(b.arrivals) +
                          " more of the " + std::to_string(b.count) +
                          " its init_barrier set: more arrivals than it was initialised for");
  b.arrivals -= n;
  if (RunningPartitions *p = in.partitions())
    p->races->release(p->task(),
                      p->key(barrierKey(in, op, operand), owner < 0 ? p->rank : size_t(owner)));
  return Status::success();
}

// The global element offset of each element of a TMA copy's box (row-major), or -1 for one
// outside the tensor; the descriptor is operand 0, the coordinates follow it.
Expected<std::vector<int64_t>> tmaBoxOffsets(const OpInterpreter &in, const Op &op) {
  const Type &dt = in.type(op.operands[0]);
  const RtValue &desc = in.val(op.operands[0]);
  size_t rank = size_t(dt.rank());
  ScalarKind k = dt.elem().scalar;
  if (desc.i.size() != 2 * rank)
    return makeError(in.err(op, "the descriptor argument has " + std::to_string(desc.i.size() / 2) +
                                    " dims, its type " + std::to_string(rank))
                         .message());
  std::vector<int64_t> origin(rank);
  for (size_t d = 0; d < rank; ++d)
    origin[d] = in.val(op.operands[1 + d]).i[0];
  // The copy engine moves 16-byte pieces of a row: a box whose row starts elsewhere stops the
  // GPU (an illegal instruction).
  if (origin[rank - 1] * byteWidth(k) % 16 != 0)
    return makeError(in.err(op, "the box starts at element " + std::to_string(origin[rank - 1]) +
                                    " of the tensor's contiguous dim, byte " +
                                    std::to_string(origin[rank - 1] * byteWidth(k)) +
                                    " of a row: TMA needs a multiple of 16 bytes")
                         .message());
  const std::vector<int64_t> &box = dt.shape();
  std::vector<int64_t> offsets(size_t(dt.numElements()));
  std::vector<int64_t> idx(rank, 0);
  for (size_t e = 0; e < offsets.size(); ++e) {
    int64_t rem = int64_t(e);
    for (size_t d = rank; d-- > 0;) {
      idx[d] = rem % box[d];
      rem /= box[d];
    }
    bool inside = true;
    int64_t offset = 0;
    for (size_t d = 0; d < rank; ++d) {
      int64_t c = origin[d] + idx[d];
      inside &= c >= 0 && c < desc.i[d];
      offset += c * desc.i[rank + d];
    }
    offsets[e] = inside ? offset : -1;
  }
  return offsets;
}

// The wgmma reads its shared operands when it runs (here at once; an asynchronous one until a
// warp_group_dot_wait retires it). A memdesc operand may be a tile of a ring or a view: its
// strides step through it.
Status interpretWarpGroupDot(OpInterpreter &in, const Op &op) {
  uint32_t dotRecord = in.hazards().beginDot(op, op.attrs.isAsync);
  RunningPartitions *parts = in.partitions();
  if (parts)
    parts->races->beginDot(parts->task(), op, op.attrs.isAsync);
  RtValue tiles[2];
  for (size_t i = 0; i < 2; ++i) {
    if (!in.type(op.operands[i]).isMemDesc()) {
      tiles[i] = in.val(op.operands[i]);
      continue;
    }
    auto v = viewOf(in, op.operands[i]);
    if (!v)
      return in.err(op, std::string("operand ") + (i ? "B" : "A") + " is deallocated");
    LL_TRY_STATUS(in.hazard(op, in.hazards().wgmmaRead(dotRecord, v->alloc, v->at)));
    if (parts)
      LL_TRY_STATUS(
          in.hazard(op, parts->races->dotRead(parts->task(), parts->allocId(v->alloc), v->at)));
    tiles[i] = readShared(*v->s, v->at);
  }
  RtValue r;
  const bool useC = op.operands.size() < 4 || in.val(op.operands[3]).i[0] != 0;
  dotOf(in, op, tiles[0], tiles[1], r, useC);
  return in.setResult(op, std::move(r));
}

Status interpretWarpGroupDotWait(OpInterpreter &in, const Op &op) {
  in.hazards().waitDots(op.attrs.pendings);
  if (RunningPartitions *p = in.partitions())
    LL_TRY_STATUS(in.hazard(op, p->races->retireDots(p->task(), op.attrs.pendings)));
  for (size_t i = 0; i < op.operands.size(); ++i)
    in.setValue(op.results[i], in.val(op.operands[i]));
  return Status::success();
}

Status interpretFenceAsyncShared(OpInterpreter &in, const Op &) {
  in.hazards().fence();
  return Status::success();
}

Status interpretInitBarrier(OpInterpreter &in, const Op &op) {
  LL_ASSIGN_OR_RETURN(MBarrier * bar, barrier(in, op, 0, false));
  if (bar->live)
    return in.err(op, "initialises a barrier that is already initialised (inval_barrier it "
                      "first)");
  *bar = MBarrier{true, op.attrs.count, op.attrs.count, 0, 0, 0};
  // Other CTAs see the init once this CTA's next cluster arrive completes its phase.
  if (ClusterRun *c = in.cluster()) {
    size_t me = size_t(in.clusterRank());
    bar->visibleAfter = c->arrivedIn[me] >= 0 ? c->arrivedIn[me] + 2 : c->phase + 1;
  }
  return Status::success();
}

Status interpretInvalBarrier(OpInterpreter &in, const Op &op) {
  LL_ASSIGN_OR_RETURN(MBarrier * bar, barrier(in, op, 0, true));
  bar->live = false;
  return Status::success();
}

Status interpretBarrierExpect(OpInterpreter &in, const Op &op) {
  if (!in.val(op.operands[1]).i[0])
    return Status::success();
  LL_ASSIGN_OR_RETURN(MBarrier * bar, barrier(in, op, 0, true));
  bar->bytes += op.attrs.count;
  LL_TRY_STATUS(arrive(in, op, 0, *bar, 1));
  return completePhase(in, op, *bar, barrierKey(in, op, 0));
}

Status interpretArriveBarrier(OpInterpreter &in, const Op &op) {
  if (op.operands.size() > 1 && !in.val(op.operands[1]).i[0])
    return Status::success();
  if (op.attrs.multicastCta == 0) {
    LL_ASSIGN_OR_RETURN(MBarrier * bar, barrier(in, op, 0, true));
    LL_TRY_STATUS(arrive(in, op, 0, *bar, op.attrs.count));
    return completePhase(in, op, *bar, barrierKey(in, op, 0));
  }
  // The arrive reaches the barrier at the same place in each CTA of the class (mapa + a remote
  // mbarrier.arrive), this one's included.
  LL_ASSIGN_OR_RETURN(std::vector<int64_t> targets, multicastTargets(in, op));
  for (int64_t r : targets) {
    OpInterpreter &owner = *in.cluster()->ctas[size_t(r)];
    LL_ASSIGN_OR_RETURN(MBarrier * bar, remoteBarrier(in, owner, op, 0, r));
    LL_TRY_STATUS(arrive(in, op, 0, *bar, op.attrs.count, r));
    LL_TRY_STATUS(completePhase(in, op, *bar, barrierKey(in, op, 0), r));
  }
  return Status::success();
}

Status interpretWaitBarrier(OpInterpreter &in, const Op &op) {
  if (op.operands.size() > 2 && !in.val(op.operands[2]).i[0])
    return Status::success();
  LL_ASSIGN_OR_RETURN(MBarrier * bar, barrier(in, op, 0, true));
  int64_t parity = in.val(op.operands[1]).i[0] & 1;
  // In a warp_specialize or a cluster, another partition or CTA may complete the phase: block
  // until one does (the scheduler reports a deadlock where none can).
  if (PartitionScheduler *sched = in.scheduler(); sched && (bar->phase & 1) == parity) {
    std::string what = "at " + std::to_string(op.loc.line) + ":" + std::to_string(op.loc.col) +
                       " ('ttng.wait_barrier') for phase parity " + std::to_string(parity) +
                       " of " + barrierName(in, op.operands[0]) + " (barrier at element " +
                       std::to_string(in.val(op.operands[0]).i[1]) + " of its allocation, " +
                       std::to_string(bar->arrivals) + " arrival(s) and " +
                       std::to_string(bar->bytes) + " byte(s) outstanding)";
    LL_TRY_STATUS(
        sched->waitUntil([bar, parity] { return (bar->phase & 1) != parity; }, std::move(what)));
  }
  // The phase of this parity completed when the current phase has the other parity.
  if ((bar->phase & 1) == parity)
    return in.err(op, "waits for phase parity " + std::to_string(parity) +
                          " of a barrier whose current phase (number " +
                          std::to_string(bar->phase) +
                          ") has not completed: " + std::to_string(bar->arrivals) +
                          " arrival(s) and " + std::to_string(bar->bytes) +
                          " byte(s) outstanding, and nothing in flight could complete it");
  const RtValue &d = in.val(op.operands[0]);
  in.hazards().phaseSeen({d.i[0], d.i[1]}, bar->phase - 1);
  if (RunningPartitions *p = in.partitions())
    p->races->acquire(p->task(), p->key({d.i[0], d.i[1]}));
  return Status::success();
}

// The copy completes at once; its bytes (the whole box, zero-filled elements included) land on
// the barrier.
Status interpretTmaCopy(OpInterpreter &in, const Op &op) {
  size_t n = op.operands.size();
  if (!in.val(op.operands[n - 1]).i[0])
    return Status::success();
  const Type &dt = in.type(op.operands[0]);
  ScalarKind k = dt.elem().scalar;
  int64_t count = dt.numElements();
  LL_ASSIGN_OR_RETURN(std::vector<int64_t> offsets, tmaBoxOffsets(in, op));
  RtValue loaded;
  for (int64_t offset : offsets) {
    if (offset < 0) {
      if (isFloat(k))
        loaded.f.push_back(0.0);
      else
        loaded.i.push_back(0);
      continue;
    }
    LL_TRY_STATUS(
        loadElement(in, op, in.val(op.operands[0]).buf[0], offset * byteWidth(k), k, loaded));
  }
  if (op.attrs.multicastCta == 0) {
    auto v = viewOf(in, op.operands[n - 3]);
    if (!v)
      return in.err(op, "copy to a deallocated memdesc");
    LL_ASSIGN_OR_RETURN(MBarrier * bar, barrier(in, op, n - 2, true));
    const RtValue &b = in.val(op.operands[n - 2]);
    LL_TRY_STATUS(
        in.hazard(op, in.hazards().tmaCopy(op, v->alloc, v->at, {b.i[0], b.i[1]}, bar->phase)));
    LL_TRY_STATUS(in.partitionWrite(op, v->alloc, v->at));
    writeShared(*v->s, v->at, loaded);
    bar->bytes -= count * byteWidth(k);
    // The bytes land on the barrier: the copy, and what its issuer did before, come before the
    // phase's completion.
    if (RunningPartitions *p = in.partitions())
      p->races->release(p->task(), p->key({b.i[0], b.i[1]}));
    return completePhase(in, op, *bar, {b.i[0], b.i[1]});
  }
  // Multicast: the box lands at the same place of each CTA of the class, and its bytes on the
  // barrier at the same place there.
  LL_ASSIGN_OR_RETURN(std::vector<int64_t> targets, multicastTargets(in, op));
  const RtValue &b = in.val(op.operands[n - 2]);
  for (int64_t r : targets) {
    OpInterpreter &owner = *in.cluster()->ctas[size_t(r)];
    auto v = viewIn(owner, in.val(op.operands[n - 3]), in.type(op.operands[n - 3]));
    if (!v)
      return in.err(op, "copy to shared memory that CTA " + std::to_string(r) +
                            " of the cluster has not allocated (or has deallocated)");
    LL_ASSIGN_OR_RETURN(MBarrier * bar, remoteBarrier(in, owner, op, n - 2, r));
    LL_TRY_STATUS(
        in.hazard(op, owner.hazards().tmaCopy(op, v->alloc, v->at, {b.i[0], b.i[1]}, bar->phase)));
    if (RunningPartitions *p = in.partitions())
      LL_TRY_STATUS(
          in.hazard(op, p->races->write(p->task(), op, p->allocId(v->alloc, size_t(r)), v->at)));
    writeShared(*v->s, v->at, loaded);
    bar->bytes -= count * byteWidth(k);
    if (RunningPartitions *p = in.partitions())
      p->races->release(p->task(), p->key({b.i[0], b.i[1]}, size_t(r)));
    LL_TRY_STATUS(completePhase(in, op, *bar, {b.i[0], b.i[1]}, r));
  }
  return Status::success();
}

// Whose bulk groups a TMA store joins and a store wait waits for: the issuing thread's, so the
// running region's (one region's wait does not retire another's stores).
size_t storeIssuer(OpInterpreter &in) {
  RunningPartitions *p = in.partitions();
  return p ? p->task() : 0;
}

// A TMA store reads its tile at once and writes the box's elements that lie inside the tensor
// (the copy engine drops the others); the tile counts as read until a store wait retires it.
Status interpretTmaStore(OpInterpreter &in, const Op &op) {
  const Type &dt = in.type(op.operands[0]);
  ScalarKind k = dt.elem().scalar;
  LL_ASSIGN_OR_RETURN(std::vector<int64_t> offsets, tmaBoxOffsets(in, op));
  auto v = viewOf(in, op.operands.back());
  if (!v)
    return in.err(op, "copy from a deallocated memdesc");
  LL_TRY_STATUS(in.hazard(op, in.hazards().tmaStore(op, v->alloc, v->at, storeIssuer(in))));
  LL_TRY_STATUS(in.partitionRead(op, v->alloc, v->at));
  RtValue tile = readShared(*v->s, v->at);
  for (size_t e = 0; e < offsets.size(); ++e)
    if (offsets[e] >= 0)
      LL_TRY_STATUS(storeElement(in, op, in.val(op.operands[0]).buf[0], offsets[e] * byteWidth(k),
                                 k, tile.i.empty() ? 0 : tile.i[e],
                                 tile.f.empty() ? 0 : tile.f[e]));
  return Status::success();
}

Status interpretTmaStoreWait(OpInterpreter &in, const Op &op) {
  in.hazards().waitStores(op.attrs.pendings, storeIssuer(in));
  return Status::success();
}

Status interpretClusterCtaId(OpInterpreter &in, const Op &op) {
  RtValue r;
  r.i = {in.clusterRank()};
  return in.setResult(op, std::move(r));
}

// barrier.cluster: every CTA arrives once per phase; a wait returns once the phase this CTA
// arrived in has completed. Outside a cluster (a cluster of one) both return at once.
// The cluster the barrier op `op` runs in: null outside a cluster (where it returns at once), an
// error inside a partition.
Expected<ClusterRun *> clusterBarrierRun(OpInterpreter &in, const Op &op) {
  if (in.cluster() && in.partitions())
    return in
        .err(op, "inside ttg.warp_specialize: the cluster barrier counts every thread of "
                 "the CTA, so it goes outside the partitions")
        .error();
  return in.cluster();
}

Status interpretClusterArrive(OpInterpreter &in, const Op &op) {
  LL_ASSIGN_OR_RETURN(ClusterRun * c, clusterBarrierRun(in, op));
  if (!c)
    return Status::success();
  size_t me = size_t(in.clusterRank());
  if (c->arrivedIn[me] >= 0)
    return in.err(op, "arrives twice at the cluster barrier without a cluster_wait between");
  c->arrivedIn[me] = c->phase;
  if (++c->arrived == int64_t(c->ctas.size())) {
    c->arrived = 0;
    ++c->phase;
  }
  return Status::success();
}

Status interpretClusterWait(OpInterpreter &in, const Op &op) {
  LL_ASSIGN_OR_RETURN(ClusterRun * c, clusterBarrierRun(in, op));
  if (!c)
    return Status::success();
  size_t me = size_t(in.clusterRank());
  int64_t phase = c->arrivedIn[me];
  if (phase < 0)
    return in.err(op, "waits at the cluster barrier without a cluster_arrive first (on the GPU "
                      "the wait's phase is not this CTA's)");
  LL_TRY_STATUS(c->scheduler.waitUntil(
      [c, phase] { return c->phase > phase; },
      "at " + std::to_string(op.loc.line) + ":" + std::to_string(op.loc.col) +
          " ('ttng.cluster_wait') for the other CTAs of the cluster to arrive"));
  c->arrivedIn[me] = -1;
  c->waited[me] = phase + 1;
  return Status::success();
}

// Orders this CTA's barrier inits before its next cluster arrive: the interpreter's inits are
// visible at once, and the visibility rule is checked at each remote use.
Status interpretFenceMbarrierInitCluster(OpInterpreter &, const Op &) { return Status::success(); }

constexpr auto kInterpret = familyTable<OpFamily::Hopper, InterpretOpFn>({
    {OpKind::ClusterCtaId, interpretClusterCtaId},
    {OpKind::ClusterArrive, interpretClusterArrive},
    {OpKind::ClusterWait, interpretClusterWait},
    {OpKind::FenceMbarrierInitCluster, interpretFenceMbarrierInitCluster},
    {OpKind::WarpGroupDot, interpretWarpGroupDot},
    {OpKind::WarpGroupDotWait, interpretWarpGroupDotWait},
    {OpKind::FenceAsyncShared, interpretFenceAsyncShared},
    {OpKind::InitBarrier, interpretInitBarrier},
    {OpKind::InvalBarrier, interpretInvalBarrier},
    {OpKind::BarrierExpect, interpretBarrierExpect},
    {OpKind::WaitBarrier, interpretWaitBarrier},
    {OpKind::ArriveBarrier, interpretArriveBarrier},
    {OpKind::AsyncTmaCopyGlobalToLocal, interpretTmaCopy},
    {OpKind::AsyncTmaCopyLocalToGlobal, interpretTmaStore},
    {OpKind::AsyncTmaStoreWait, interpretTmaStoreWait},
});

} // namespace

Status interpretHopperOp(OpInterpreter &in, const Op &op) {
  return kInterpret[size_t(op.kind)](in, op);
}

} // namespace linlayout::ir
