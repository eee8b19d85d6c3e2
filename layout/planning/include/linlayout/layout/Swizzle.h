// Optimal swizzling: the shared-memory scratch layout through which one distributed layout
// (the producer, which stores) hands a tile to another (the consumer, which loads).
//
// A scratch layout is a basis: offset bit i holds tensor vector offsets[i]. It is split into
//   [chunk | bank | segment] (+ round bits, when the exchange runs in several rounds),
// where the chunk is what one lane (or one 16-byte ldmatrix row) moves with one instruction,
// chunk + bank fill one 128-byte row of the 32 banks, and the segment picks the row.
// The search
//  1. maximises the vector width of the stores and of the loads (up to 128 bits), trying
//     ld/st.shared, and ldmatrix / stmatrix (with .trans) where the target and element width
//     allow them;
//  2. for each such chunk, picks the segment so that as few lanes of one phase as possible
//     land in the same bank of different rows, which is provably optimal
//     (docs/conversions.md, "Optimal swizzling"): with ℓ the dimension of the phase's lane
//     space modulo the chunk and b the number of bank bits, no scratch does better than
//     2^max(0, ℓ - b) wavefronts per phase on either side, and the construction reaches both
//     bounds at once;
//  3. keeps the candidate with the lowest estimated cost (wavefronts, then instructions; then,
//     for an mma operand, loads that fill consecutive registers: a fragment as one piece).
#pragma once

#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/SharedAccessPattern.h"

#include <optional>
#include <span>

namespace linlayout {

struct SwizzleOptions {
  GpuTarget target = GpuTarget::Sm90;
  /// Scratch bytes per CTA above which the exchange is split into rounds (when the layouts
  /// share registers that can index rounds).
  int64_t maxScratchBytes = 32 * 1024;
  bool allowMatrixStores = true; ///< stmatrix (where the target has it)
  bool allowMatrixLoads = true;  ///< ldmatrix (local shared memory only)
  /// Between candidates of equal cost, prefer loads whose every instruction fills consecutive
  /// registers (for an mma operand: each fragment arrives as the mma takes it).
  bool loadsInRegisterOrder = false;
};

/// The chosen scratch and how each side accesses it.
struct SwizzleChoice {
  ScratchBasis basis;
  SharedSidePattern store;
  SharedSidePattern load;
  double cycles = 0; ///< the objective: estimated cycles per CTA of the shared-memory traffic
};

/// Searches a scratch for a producer and a consumer given as tensor vectors. `tile` spans the
/// tensor space the scratch must hold (one CTA's tile); `warps` is the warps per CTA.
/// Requires: every vector of both sides lies in span(tile); elementBits in {8, 16, 32, 64}.
/// Ensures: when answered, analyzeSharedSide accepts both sides on the returned basis, and the
/// basis spans span(tile) (offsets plus rounds).
std::optional<SwizzleChoice> searchSwizzle(const SideVectors &store, const SideVectors &load,
                                           std::span<const uint64_t> tile, int elementBits,
                                           int warps, const SwizzleOptions &options);

/// A scratch layout for two distributed layouts of one CTA, as a layout.
struct SharedScratchLayout {
  LinearLayout scratch; ///< (offset, round) -> tensor dims of src
  SharedOp storeOp = SharedOp::Store;
  SharedOp loadOp = SharedOp::Load;
  int storeVectorElements = 1;
  int loadVectorElements = 1;
  int storeWavefronts = 0; ///< per instruction of one warp
  int loadWavefronts = 0;
  int storeMinWavefronts = 0;
  int loadMinWavefronts = 0;
};

/// optimalSwizzle for layouts: src and dst map (register, lane, warp[, block]) to the same
/// tensor; the block dimension is ignored (one CTA's part).
/// Requires: same out dims; src covers the tile dst reads; elementBits in {8, 16, 32, 64}.
Expected<SharedScratchLayout> optimalSwizzle(const LinearLayout &src, const LinearLayout &dst,
                                             int elementBits, const SwizzleOptions &options = {});

} // namespace linlayout
