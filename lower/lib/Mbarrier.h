// Hopper copy-engine primitives as inline PTX, for the TMA lowering to build on (PTX ISA,
// "mbarrier" and "cp.async.bulk.tensor"): a shared-memory mbarrier (one 64-bit word) counts
// arrivals and, with expect_tx, the bytes asynchronous copies will still deliver; a phase completes
// when both reach zero, and waiters poll its parity. A TMA copy of a 2-D box moves the bytes from
// global memory (through a tensor map in parameter, constant or global space) into shared memory
// and signals the mbarrier as they land.
#pragma once

#include <llvm/IR/IRBuilder.h>

namespace linlayout::lower {

/// mbarrier.init.shared::cta.b64 [bar], count. `bar` is an addrspace(3) pointer.
void emitMbarrierInit(llvm::IRBuilder<> &b, llvm::Value *bar, uint32_t count);

/// mbarrier.arrive.expect_tx.shared::cta.b64: this thread arrives and announces `bytes` more
/// bytes of asynchronous copies (an i32 value).
void emitMbarrierArriveExpectTx(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *bytes);

/// Polls mbarrier.try_wait.parity until the phase of parity `phase` (an i32 0 or 1) completed.
void emitMbarrierWaitParity(llvm::IRBuilder<> &b, llvm::Value *bar, llvm::Value *phase);

/// cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes: copies the box at
/// coordinates (c0 innermost, c1) of the tensor map at generic address `tensorMap` (i64) into
/// shared memory at `dst`, completing its bytes on `bar`.
void emitTmaLoad2d(llvm::IRBuilder<> &b, llvm::Value *dst, llvm::Value *tensorMap,
                   llvm::Value *bar, llvm::Value *c0, llvm::Value *c1);

} // namespace linlayout::lower
