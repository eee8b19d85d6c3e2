// Inline PTX, for the few instructions LLVM 19 has no intrinsic for (predicated global accesses
// with fall-back values and cache modifiers, stmatrix, div.full).
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <string>
#include <vector>

namespace linlayout::lower {

/// The inline-asm constraint letter for a value of type `t` (h: 8/16-bit, r: 32-bit, l: 64-bit
/// integers and pointers, f/d: floats, b: i1), or 0 for a type PTX registers cannot hold.
char ptxConstraint(llvm::Type *t);

/// Emits `asm` (operands $0.. in the order outputs, then inputs) with one output per entry of
/// `outputTypes`; each output is tied to the input at the same index in `tiedInputs` when that
/// entry is non-null (the output starts with that value). Returns the outputs. Marked as having
/// side effects and clobbering memory, so LLVM neither drops nor reorders it; with `pure`, a
/// computation of its inputs alone, which LLVM may move, merge or drop.
std::vector<llvm::Value *> emitInlinePtx(llvm::IRBuilder<> &b, const std::string &asmText,
                                         const std::vector<llvm::Type *> &outputTypes,
                                         const std::vector<llvm::Value *> &tiedInputs,
                                         const std::vector<llvm::Value *> &inputs,
                                         bool pure = false);

/// Replaces every f32 `fdiv` marked approximate (afn) in `m` by div.full.f32, Triton's `/`:
/// LLVM 19's NVPTX backend chooses between div.rn, div.full and div.approx only for a whole
/// module. Runs after LLVM's optimizations, which fold constant divisions exactly first.
void emitFullRangeDivisions(llvm::Module &m);

} // namespace linlayout::lower
