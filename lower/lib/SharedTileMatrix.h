// ttg.local_load and ttg.local_store of a shared tile with ldmatrix and stmatrix: the
// instruction pattern comes from layout/'s analysis of the load or store side
// (ir/SharedTileLayout.h); this file emits it (one ldmatrix or stmatrix .x1/x2/x4[.trans]
// per instruction of the pattern, lane addresses from the pattern's lane and warp maps,
// swizzles included).
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"
#include "linlayout/lower/PtxTarget.h"

#include <llvm/IR/IRBuilder.h>

#include <array>
#include <optional>
#include <vector>

namespace linlayout::lower {

/// Which way a matrix instruction moves a tile.
enum class MatrixTileAccess : unsigned char { Load, Store };

/// The ldmatrix or stmatrix instructions that move a distributed layout between registers and
/// a shared tile, before emission.
struct MatrixTilePlan {
  bool trans = false;
  /// Elements per 32-bit matrix word (2 for .trans, else 32 / element bits).
  int perWord = 2;
  /// (lane, warp) -> offset: the row address each lane supplies, XOR an
  /// instruction's constant.
  LinearLayout address;
  struct Instruction {
    uint64_t offsetConst = 0;
    /// Per matrix word in order, its perWord element registers (low bits
    /// first).
    std::vector<int> registers;
  };
  std::vector<Instruction> instructions;
  /// {register, moved register it duplicates}: registers that hold the same element as one
  /// the instructions move (broadcast register bits). A load copies them; a store skips them.
  std::vector<std::array<int, 2>> duplicates;
};

/// The plan, or nullopt when the matrix instructions cannot move `dist` to or from `shared`
/// ((offset) -> dims). Ensures: when answered, every register of dist is moved by one
/// instruction or listed in duplicates.
Expected<std::optional<MatrixTilePlan>> planMatrixTile(const LinearLayout &dist,
                                                       const LinearLayout &shared, int elementBits,
                                                       MatrixTileAccess access);

/// Loads the tile at `base` (addrspace(3)) laid out by `shared` ((offset) ->
/// dims) into one value of `elemTy` per register of `dist`, with ldmatrix;
/// nullopt when ldmatrix cannot load this pair of layouts (the caller then uses
/// ld.shared). With `viewXor` (a view of the tile, SharedView.h) every element
/// offset is XORed with it; ldmatrix is used only when that keeps its 16-byte
/// rows whole. Requires: dist's dims are shared's (dist may cover part of the
/// tile); thread is %tid.x.
Expected<std::optional<std::vector<llvm::Value *>>>
emitMatrixTileLoad(llvm::IRBuilder<> &b, const LinearLayout &dist, const LinearLayout &shared,
                   llvm::Value *base, llvm::Value *thread, llvm::Type *elemTy,
                   uint64_t viewXor = 0);

/// Stores `regs` (one value per register of `dist`) into the tile at `base` with stmatrix, as
/// emitMatrixTileLoad loads; false (nothing emitted) when the target has no stmatrix (before
/// sm_90) or stmatrix cannot store this pair of layouts, and the caller then uses st.shared.
/// Requires: as emitMatrixTileLoad; every thread of each warp runs it (stmatrix is a warp's
/// collective).
Expected<bool> emitMatrixTileStore(llvm::IRBuilder<> &b, const PtxTarget &target,
                                   const LinearLayout &dist, const LinearLayout &shared,
                                   llvm::Value *base, llvm::Value *thread,
                                   const std::vector<llvm::Value *> &regs, uint64_t viewXor = 0);

} // namespace linlayout::lower
