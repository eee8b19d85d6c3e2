// ttg.local_load of a shared tile into a distributed layout with ldmatrix: the
// instruction pattern comes from layout/'s analysis of the load side
// (ir/SharedTileLayout.h); this file emits it (one ldmatrix.x1/x2/x4[.trans]
// per instruction of the pattern, lane addresses from the pattern's lane and
// warp maps, swizzles included).
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <llvm/IR/IRBuilder.h>

#include <array>
#include <optional>
#include <vector>

namespace linlayout::lower {

/// The ldmatrix instructions that load a distributed layout from a shared tile,
/// before emission.
struct MatrixTileLoadPlan {
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
  /// {register, loaded register it copies} for registers duplicating others.
  std::vector<std::array<int, 2>> copies;
};

/// The plan, or nullopt when ldmatrix cannot load `dist` from `shared`
/// ((offset) -> dims). Ensures: when answered, every register of dist is loaded
/// by one instruction or copied.
Expected<std::optional<MatrixTileLoadPlan>>
planMatrixTileLoad(const LinearLayout &dist, const LinearLayout &shared, int elementBits);

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

} // namespace linlayout::lower
