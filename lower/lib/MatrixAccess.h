// ldmatrix and stmatrix: eight 8x8 matrices of 16-bit elements moved between shared memory and
// registers by a warp in one instruction. Lane l supplies the address of row l % 8 of matrix
// l / 8; afterwards lane l holds, per matrix, the 32-bit word of row l / 4, columns 2(l % 4) and
// 2(l % 4) + 1 (transposed: of column l / 4, rows 2(l % 4) and 2(l % 4) + 1).
#pragma once

#include "linlayout/lower/PtxTarget.h"

#include <llvm/IR/IRBuilder.h>

#include <vector>

namespace linlayout::lower {

/// ldmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16 through LLVM's intrinsic.
/// Requires: count is 1, 2 or 4; rowAddress an addrspace(3) pointer, 16-byte aligned.
/// Ensures: count i32 words, word i from matrix i.
std::vector<llvm::Value *> emitLdmatrix(llvm::IRBuilder<> &b, llvm::Value *rowAddress, int count,
                                        bool trans);

/// stmatrix.sync.aligned.m8n8.x{words.size()}[.trans].shared.b16 (inline PTX: LLVM 19 has no
/// intrinsic); where `predicate` (an i1, the same in every lane of a warp) is given, by the warps
/// where it is true. Requires: target sm_90 or newer (an error otherwise); 1, 2 or 4 i32 words.
Status emitStmatrix(llvm::IRBuilder<> &b, const PtxTarget &target, llvm::Value *rowAddress,
                    const std::vector<llvm::Value *> &words, bool trans,
                    llvm::Value *predicate = nullptr);

} // namespace linlayout::lower
