// The order of a tile's global stores. A tile's stores go out in register order, but a tile just
// read from shared memory may hold each loaded vector's elements in registers far apart (a 16-byte
// load of an i8 tile whose threads store byte pairs: bytes 0 and 8 in one store, 1 and 9 in the
// next, ...), so every loaded word stays live until its last byte is stored and the whole tile
// is held at once (convert2d/6-9/none/64x128/i8: 128 words, 16 bytes of spills at 80
// registers). Stored in the order of the loads their values come from, each word dies soon after
// it is loaded.
#pragma once

#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/Value.h>

#include <cstddef>
#include <vector>

namespace linlayout::lower {

/// The order in which to emit the stores of one tile, store i storing `groups[i]`: by the
/// earliest load in `block` that each store's values are computed from (through casts, vector
/// element moves, byte permutes, selects and arithmetic of that block), ties in the given order;
/// the given order where some store's values come from no load of `block`.
/// Ensures: the result is a permutation of 0 .. groups.size() - 1.
std::vector<size_t> storeOrderByLoads(const std::vector<std::vector<llvm::Value *>> &groups,
                                      const llvm::BasicBlock *block);

} // namespace linlayout::lower
