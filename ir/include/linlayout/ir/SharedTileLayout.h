// How distributed tensors move into and out of a shared-memory tile, and the
// choice of the tile's swizzled layout: the bridge between a memdesc's shared
// layout and layout/'s shared-access analysis (SharedAccessPattern.h). A shared
// tile layout is (offset[, block]) -> tensor dims; a distributed one (register,
// lane, warp[, block]) -> the same dims. Both are described to the analysis by
// packed tensor vectors (LinearLayout's column words, which agree because the
// out dims are the same).
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/layout/SharedAccessPattern.h"

#include <cstdint>
#include <optional>
#include <span>

namespace linlayout::ir {

/// The layout of a ttg.memdesc_trans of a tile in `shared`: result dim i (named dim i) is the
/// tile's dim order[i]. Requires: order is a permutation of the out dims' indices.
Expected<LinearLayout> transposedTileLayout(const LinearLayout &shared,
                                            std::span<const int32_t> order);

/// The hardware-bit tensor vectors of a distributed layout (blocks go to
/// `extra`). Requires: dist has in dims among register, lane, warp, block.
SideVectors sideVectorsOf(const LinearLayout &dist);

/// The scratch basis of a shared tile layout: its offset bits, no rounds.
ScratchBasis scratchBasisOf(const LinearLayout &shared);

/// The ldmatrix (or, failing that, ldmatrix.trans) pattern that loads `dist`
/// from a tile in `shared`, or nullopt when neither instruction can (elements
/// not 16-bit in .trans, rows not 16 contiguous bytes, a CTA split, out dims
/// that differ). Ensures: when answered, op is LdMatrix or LdMatrixTrans and
/// analyzeSharedSide accepted it.
std::optional<SharedSidePattern> matrixLoadPattern(const LinearLayout &dist,
                                                   const LinearLayout &shared, int elementBits);

/// A swizzled_shared layout for a tile of `shape` that `writer` fills (one lane
/// writing up to 16 contiguous bytes) and `reader` loads (ldmatrix when it can,
/// else ld.shared): the candidate (per_phase and max_phase in 1..8, vec in 1..8
/// or up to 16 bytes where that is more, order of the writer's contiguous dim
/// first) with the fewest wavefronts over both
/// sides, ties to the smaller parameters. Requires: writer and reader are
/// distributed layouts over `shape` (rank 2); elementBits in {8, 16, 32, 64}.
/// Ensures: the result's store side accepts a vector of `minWriteBytes` or
/// more; an error when no candidate does.
Expected<SwizzledSharedSpec> chooseSwizzledShared(const LinearLayout &writer,
                                                  const LinearLayout &reader,
                                                  std::span<const int64_t> shape, int elementBits,
                                                  int minWriteBytes);

} // namespace linlayout::ir
