// Tensor-core mma.sync through NVVM intrinsics, and the FMA fallback.
//
// Fragments (PTX ISA, "Matrix Fragments for mma.m16n8k16" / "m16n8k8"), per lane l, g = l / 4,
// t = l % 4:
//  - m16n8k16 f16/bf16: A is 4 words (8 halves): rows g and g+8, columns 2t, 2t+1 and +8;
//    B is 2 words: column g, rows 2t, 2t+1 and +8; C/D are 4 floats: rows g, g+8, columns 2t,
//    2t+1.
//  - m16n8k8 tf32: A is 4 words (tf32 in 32 bits): rows g, g+8, columns t, t+4; B is 2 words:
//    rows t, t+4, column g; C/D as above.
//  - m16n8k32 s8: A is 4 words (4 bytes each): rows g and g+8, columns 4t..4t+3 and +16; B is
//    2 words: column g, rows 4t..4t+3 and +16; C/D are 4 i32 as above, wrapping on overflow (no
//    .satfinite, so that the GPU sums as the interpreter does).
// The dot-operand and mma layouts place each register where these fragments expect it.
#pragma once

#include "linlayout/ir/Type.h"

#include <llvm/IR/IRBuilder.h>

#include <optional>

#include <vector>

namespace linlayout::lower {

/// The tensor-core instructions lower/ emits.
enum class MmaShape {
  M16N8K16_F16,  ///< mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
  M16N8K16_BF16, ///< mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
  M16N8K8_TF32,  ///< mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
  M16N8K32_S8,   ///< mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32
};

/// The mma.sync lower/ emits for operands of kind `k` (f16, bf16, f32 as tf32, i8), or nullopt.
std::optional<MmaShape> mmaShapeFor(ir::ScalarKind k);

/// The K of one mma.sync for elements of `elemBytes`: 32 bytes of each row of A (16 for f16 /
/// bf16, 8 for tf32, 32 for i8).
inline int mmaK(int elemBytes) { return 32 / elemBytes; }

/// D = A * B + C for one m16n8 tile. `a` has 4 words, `b` 2 words (i32, or the packed types the
/// intrinsic takes), `c` 4 floats (4 i32 for M16N8K32_S8). Returns D's 4 values.
std::vector<llvm::Value *> emitMma(llvm::IRBuilder<> &b, MmaShape shape,
                                   const std::vector<llvm::Value *> &a,
                                   const std::vector<llvm::Value *> &bOperand,
                                   const std::vector<llvm::Value *> &c);

/// a * b + c rounded once (fma.rn), for a dot whose parent layout is not an mma layout.
llvm::Value *emitFma(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y, llvm::Value *z);

} // namespace linlayout::lower
