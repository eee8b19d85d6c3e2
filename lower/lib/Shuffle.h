// Warp shuffles (shfl.sync idx / bfly) through NVVM intrinsics, for values of any width.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstdint>

namespace linlayout::lower {

/// shfl.sync.idx: the value `v` held by lane `srcLane` (an i32) of this thread's segment of
/// `segment` lanes (a power of two <= 32; lanes are numbered within the segment).
/// Requires: v is an integer, float, or pointer-free vector of 8..64 bits in total (wider and
/// narrower values travel as 32-bit words; a 64-bit value costs two shuffles).
llvm::Value *shuffleIdx(llvm::IRBuilder<> &b, llvm::Value *v, llvm::Value *srcLane,
                        int segment = 32);

/// shfl.sync.bfly: the value `v` held by lane (this lane XOR laneMask).
/// Requires: as shuffleIdx; laneMask < 32.
llvm::Value *shuffleXor(llvm::IRBuilder<> &b, llvm::Value *v, uint32_t laneMask,
                        int segment = 32);

} // namespace linlayout::lower
