// Addresses in a padded shared tile (#ttg.padded_shared, PaddedShared.h): its element offsets
// are its linear layout's, and each offset is stored `padding` elements further for every
// `interval` elements before it, per pair. The lowerings of local_alloc / local_store /
// local_load, async copies and views compute a padded tile's offsets as for any other tile and
// pass them through here on the way to an address.
#pragma once

#include "LayoutIndex.h"

#include "linlayout/ir/Module.h"
#include "linlayout/layout/PaddedShared.h"

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <span>

namespace linlayout::lower {

/// The element address of the i32 element offset `offset` under `pads`:
/// offset + sum over pairs of (offset >> log2 interval) << log2 padding (offset itself when there
/// are no pairs). Requires: every interval and padding a power of two.
llvm::Value *emitPaddedOffset(llvm::IRBuilder<> &b, llvm::Value *offset,
                              std::span<const PadInterval> pads);

/// The widest vector, at most `vec` (a power of two), that padding neither splits nor misaligns:
/// at most the smallest interval (a run of aligned offsets stays contiguous) and the smallest
/// padding (its first address stays a multiple of the vector).
/// Ensures: for every offset o with o % result == 0 and i < result,
/// paddedOffset(o + i) == paddedOffset(o) + i and paddedOffset(o) % result == 0.
int vectorUnderPadding(int vec, std::span<const PadInterval> pads);

/// The bytes a shared-memory descriptor of type `t` (a tile, or a ring of them) takes: its
/// elements, or for a padded layout each tile's paddedSize rounded up to 16 bytes (so that every
/// tile of a ring starts aligned for 16-byte vectors).
/// Requires: t is a memdesc type of m.
int64_t sharedDescBytes(const ir::Module &m, const ir::Type &t);

/// The byte offset of the element at out dim 0 of `ix` (the element offset; `em` emits `ix`)
/// XOR `c`, through `pads`, times `bytes`: the hardware part padded once and the constant's
/// padded offset an immediate where their bits never meet (padding adds over offsets with
/// disjoint bits), else the whole offset padded.
SplitOffset paddedByteOffset(llvm::IRBuilder<> &b, IndexEmitter &em, const LayoutIndexer &ix,
                             uint64_t c, std::span<const PadInterval> pads, int bytes);

/// The byte offset of register r's element of a tile access: the element offset `ix` gives at
/// register r, XOR the view's `viewXor` (SharedView.h), through `pads`, times `bytes`. Without
/// pairs the constant part stays an immediate (as every unpadded access is emitted).
SplitOffset tileByteOffset(llvm::IRBuilder<> &b, IndexEmitter &em, const LayoutIndexer &ix,
                           uint64_t r, uint64_t viewXor, std::span<const PadInterval> pads,
                           int bytes);

} // namespace linlayout::lower
