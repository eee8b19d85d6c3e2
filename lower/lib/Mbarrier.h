// Hopper copy-engine primitives as inline PTX (PTX ISA, "mbarrier" and "cp.async.bulk.tensor"):
// a shared-memory mbarrier (one 64-bit word) counts arrivals and, with expect_tx, the bytes
// asynchronous copies will still deliver; a phase completes when both reach zero, and waiters poll
// its parity. A TMA copy of a 2-D box moves the bytes from global memory (through a tensor map in
// parameter, constant or global space) into shared memory and signals the mbarrier as they land.
//
// Every helper takes an optional i1 `pred`: the instruction runs only in the threads where it is
// true (null: in every thread that reaches it).
#pragma once

#include <llvm/IR/IRBuilder.h>

namespace linlayout::lower {

/// mbarrier.init.shared::cta.b64 [bar], count. `bar` is an addrspace(3) pointer.
void emitMbarrierInit(llvm::IRBuilder<> &b, llvm::Value *bar, uint32_t count,
                      llvm::Value *pred = nullptr);

/// fence.mbarrier_init.release.cluster: this thread's earlier inits become visible to the copy
/// engine and the other threads (with the barrier that follows).
void emitMbarrierInitFence(llvm::IRBuilder<> &b, llvm::Value *pred = nullptr);

/// mbarrier.inval.shared::cta.b64 [bar]: the word may be used as plain memory again.
void emitMbarrierInval(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *pred = nullptr);

/// mbarrier.arrive.expect_tx.shared::cta.b64: this thread arrives and announces `bytes` more
/// bytes of asynchronous copies (an i32 value).
/// `count` arrivals on the mbarrier at `bar`, by the threads where `pred` holds.
void emitMbarrierArrive(llvm::IRBuilder<> &b, llvm::Value *bar, uint32_t count, llvm::Value *pred);
void emitMbarrierArriveExpectTx(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *bytes,
                                llvm::Value *pred = nullptr);

/// Polls mbarrier.try_wait.parity until the phase of parity `phase` (an i32 0 or 1) completed.
/// With `pred`, threads where it is false skip the wait.
void emitMbarrierWaitParity(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *phase,
                            llvm::Value *pred = nullptr);

/// cp.async.bulk.tensor.2d.global.shared::cta.bulk_group: copies the box of shared memory at `src`
/// to coordinates (c0 innermost, c1) of the tensor map at generic address `tensorMap` (i64), in
/// this thread's current bulk group.
void emitTmaStore2d(llvm::IRBuilder<> &b, llvm::Value *src, llvm::Value *tensorMap, llvm::Value *c0,
                    llvm::Value *c1, llvm::Value *pred = nullptr);

/// cp.async.bulk.commit_group: closes this thread's bulk group of stores.
void emitBulkCommitGroup(llvm::IRBuilder<> &b, llvm::Value *pred = nullptr);

/// cp.async.bulk.wait_group.read N: until at most the N newest of this thread's bulk groups may
/// still read their shared memory.
void emitBulkWaitGroupRead(llvm::IRBuilder<> &b, int pendings);

/// cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes: copies the box at
/// coordinates (c0 innermost, c1) of the tensor map at generic address `tensorMap` (i64) into
/// shared memory at `dst`, completing its bytes on `bar`.
void emitTmaLoad2d(llvm::IRBuilder<> &b, llvm::Value *dst, llvm::Value *tensorMap, llvm::Value *bar,
                   llvm::Value *c0, llvm::Value *c1, llvm::Value *pred = nullptr);

/// The same copy multicast (.multicast::cluster): the box lands at `dst` in the shared memory of
/// every CTA of the cluster whose bit is set in `ctaMask` (an i16), and its bytes complete on
/// the mbarrier at `bar` there.
void emitTmaLoad2dMulticast(llvm::IRBuilder<> &b, llvm::Value *dst, llvm::Value *tensorMap,
                            llvm::Value *bar, llvm::Value *c0, llvm::Value *c1,
                            llvm::Value *ctaMask, llvm::Value *pred = nullptr);

/// `count` arrivals on the mbarrier at `bar` of this CTA's shared memory as mapped (mapa) into
/// CTA `rank` of the cluster (an i32): a remote arrive. Its default semantics (release at CTA
/// scope, as CUTLASS's cluster barriers arrive) order this thread's earlier shared-memory reads
/// before it; a cluster-scope release would also wait for the thread's global stores, on the
/// critical path of every K step of a consumer.
void emitMbarrierArriveCluster(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *rank,
                               uint32_t count, llvm::Value *pred);

} // namespace linlayout::lower
