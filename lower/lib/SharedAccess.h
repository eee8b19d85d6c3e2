// Shared-memory accesses: vectorised st.shared / ld.shared at (swizzled) byte offsets from the
// kernel's dynamic shared memory, and the CTA barrier.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <vector>

namespace linlayout::lower {

/// The bytes a value of type t takes in shared memory: its size, or 1 for an i1 (booleans are
/// bytes in memory).
inline int sharedBytes(llvm::Type *t) {
  return t->isIntegerTy(1) ? 1 : static_cast<int>(t->getPrimitiveSizeInBits() / 8);
}

/// The addrspace(3) address base + offset + constant (offset an i32 byte offset, may be null).
llvm::Value *sharedAddress(llvm::IRBuilder<> &b, llvm::Value *base, llvm::Value *byteOffset,
                           int64_t constantBytes);

/// st.shared of `values` (one type; 8..128 bits in total, a power of two) as one vector access at
/// `address`, which is aligned to the access size; where `predicate` (an i1) is given, by the
/// threads where it is true (`@p st.shared`).
void emitSharedStore(llvm::IRBuilder<> &b, llvm::Value *address,
                     const std::vector<llvm::Value *> &values, llvm::Value *predicate = nullptr);

/// ld.shared of `count` elements of `elemTy` as one vector access at `address` (aligned to the
/// access size; count * bits is 8..128, a power of two).
std::vector<llvm::Value *> emitSharedLoad(llvm::IRBuilder<> &b, llvm::Value *address,
                                          llvm::Type *elemTy, int count);

/// ld.shared::cluster of `count` elements of `elemTy` at `address` of this CTA's shared memory
/// mapped (mapa) into the shared memory of CTA `rank` of the cluster (an i32): one vector access,
/// as emitSharedLoad. sm_90.
std::vector<llvm::Value *> emitClusterSharedLoad(llvm::IRBuilder<> &b, llvm::Value *address,
                                                 llvm::Value *rank, llvm::Type *elemTy, int count);

/// bar.sync 0: every thread of the CTA arrives; shared-memory writes before it are visible after.
/// Where the function's barrier scope is set (setBarrierScope), `barrier.sync id, threads`
/// instead: the barrier of the warps running that code (a ttg.warp_specialize region).
void emitBarrier(llvm::IRBuilder<> &b);
/// Makes emitBarrier in `fn` a barrier of `threads` threads with id `id` (id 0 and threads 0:
/// the whole CTA again), until set otherwise.
void setBarrierScope(llvm::Function &fn, int id, int threads);
/// bar.sync 0 of the whole CTA, whatever the scope.
void emitCtaBarrier(llvm::IRBuilder<> &b);

/// barrier.cluster.arrive + barrier.cluster.wait (aligned): every thread of every CTA of the
/// cluster arrives; shared-memory writes before it (to any CTA's memory) are visible to the
/// whole cluster after it. sm_90.
void emitClusterBarrier(llvm::IRBuilder<> &b);
/// bar.warp.sync of the whole warp: orders the warp's shared-memory accesses among its lanes.
void emitWarpSync(llvm::IRBuilder<> &b);

} // namespace linlayout::lower
