// Warp shuffles (shfl.sync idx / bfly / up / down) through NVVM intrinsics, for values of any
// width.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstdint>

namespace linlayout::lower {

/// shfl.sync.idx: the value `v` held by lane `srcLane` (an i32) of this thread's segment of
/// `segment` lanes (a power of two <= 32; lanes are numbered within the segment).
/// Requires: v is an integer, float, or pointer-free vector of 1..64 bits in total (narrower
/// values travel as 32-bit words; a 64-bit value costs two shuffles).
llvm::Value *shuffleIdx(llvm::IRBuilder<> &b, llvm::Value *v, llvm::Value *srcLane,
                        int segment = 32);

/// shfl.sync.bfly: the value `v` held by lane (this lane XOR laneMask).
/// Requires: as shuffleIdx; laneMask < 32.
llvm::Value *shuffleXor(llvm::IRBuilder<> &b, llvm::Value *v, uint32_t laneMask, int segment = 32);

/// shfl.sync.up / down over the whole warp: the value `v` held by lane (this lane - delta), or
/// (+ delta); a lane whose source is outside the warp gets its own value.
/// Requires: as shuffleIdx; 0 < delta < 32.
llvm::Value *shuffleUp(llvm::IRBuilder<> &b, llvm::Value *v, uint32_t delta);
llvm::Value *shuffleDown(llvm::IRBuilder<> &b, llvm::Value *v, uint32_t delta);

} // namespace linlayout::lower
