// What a tile costs in registers, counted from its layout, and the registers a thread of a block
// may have: the lowering's two register-pressure decisions (a conversion through shared memory
// in place of shuffles, `.minnctapersm` in the kernel's header) compare the two. Counted from the
// layouts because an estimate from the LLVM IR picked the wrong kernels.
#pragma once

#include "LayoutCache.h"

#include "linlayout/ir/Type.h"

#include <cstdint>

namespace llvm {
class Function;
} // namespace llvm

namespace linlayout::lower {

/// The 32-bit registers each thread of a block of `threads` threads may use: 65536 / threads,
/// at most 255. Requires: 32 <= threads <= 1024.
/// Ensures: registerBudget(32) == 255, registerBudget(512) == 128.
int64_t registerBudget(int threads);

/// The threads of a block of kernel `f`, from its nvvm.annotations (maxntidx or reqntidx); 0
/// where they give none.
int blockThreads(const llvm::Function &f);

/// registerBudget of `f`'s block (blockThreads), 255 where the block is not given: what the
/// passes over the LLVM IR compare a block's live words with.
int64_t registerBudget(const llvm::Function &f);

/// The 32-bit words that `elements` elements of `elementBits` bits fill, packed.
int64_t packedWords(int64_t elements, int elementBits);

/// The 32-bit words a thread holds of a tensor of type `t`, its elements packed (two 16-bit or
/// four 8-bit elements a word, two words a 64-bit element; booleans as bytes).
/// Requires: t is a tensor type with a distributed layout of the module of `layouts`.
Expected<int64_t> tileWords(LayoutCache &layouts, const ir::Type &t);

} // namespace linlayout::lower
