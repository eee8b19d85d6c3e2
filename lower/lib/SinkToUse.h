// Moves cheap register-only instructions down to just before their first use in their block, so
// that a value unpacked, selected or shuffled ahead of time does not hold a register until its
// use. NVPTX schedules each block in the order of its IR, and ptxas does not reorder enough to
// undo it: a conversion emits every shuffle or shared-memory load and its unpacking before the
// op after it uses any result, so a tile wider than the registers (i64 words, bytes of a dot
// operand held by every warp, pairs of halves re-paired) spilled where Triton's kernels, which
// interleave, do not.
#pragma once

namespace llvm {
class Module;
} // namespace llvm

namespace linlayout::lower {

/// Moves every movable instruction of `m` (casts, vector element moves, selects, arithmetic with
/// a constant operand, constant-offset address arithmetic, warp shuffles, byte permutes and pure
/// inline PTX) to just before its first user, when all its users are in its block and none is a
/// phi; global loads down past shared stores (in one-warp blocks, in their order where a global
/// store stops them), and shared loads down past global stores and past shared stores into bytes
/// they do not read (SharedBytesTag.h; only when they pass such a store); then a
/// select of two computed inputs used nowhere else up to where they are made. Runs after LLVM's
/// optimizations, before code generation.
/// Ensures: the module computes the same values; each block holds the same instructions.
void sinkToUses(llvm::Module &m);

} // namespace linlayout::lower
