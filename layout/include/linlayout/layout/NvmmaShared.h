// The NVMMA shared-memory layout (Triton's #ttg.nvmma_shared, Gluon's NVMMASharedLayout): the
// layout TMA and wgmma/tcgen05 read, with the hardware's 32/64/128-byte swizzle.
//
// As a linear layout (in dims offset, block): the contiguous dimension is the last one (the
// first one when transposed). A tile is 8 rows by swizzle_byte_width * 8 / element_bitwidth
// columns; offset bits step the tile's columns, then its 8 rows, where row 2^i is XOR-ed to column
// (16 bytes / element) * ((2^i / per_phase) % max_phase) with (per_phase, max_phase) = (4, 2),
// (2, 4), (1, 8) for 32, 64, 128 bytes (no swizzle for 0 bytes, whose tile is 8 x 16 bytes...).
// The remaining offset bits repeat the tile along the columns, then the rows, then the leading
// dimensions. Bijective onto each CTA's tile.
#pragma once

#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <span>
#include <optional>

namespace linlayout {

/// Parameters of an NVMMA shared layout.
class NvmmaSharedSpec {
public:
  /// A checked NVMMA shared layout.
  /// Requires: swizzleByteWidth in {0, 32, 64, 128}; elementBitwidth in {8, 16, 32, 64};
  /// 2 <= rank <= CgaLayout::kMaxRank (rank 1 is accepted too, as Triton does: identity);
  /// fp4Padded only with 128-byte swizzle and 8-bit elements; cga of the same rank.
  /// Example: make(128, 16, 2, false) -> ok; make(48, 16, 2, false) -> "nvmma_shared:
  /// swizzle_byte_width is 48, expected 0, 32, 64 or 128".
  static Expected<NvmmaSharedSpec> make(int64_t swizzleByteWidth, int64_t elementBitwidth,
                                        int64_t rank, bool transposed, bool fp4Padded = false,
                                        std::optional<CgaLayout> cga = std::nullopt);

  int rank() const { return rank_; }
  int swizzleByteWidth() const { return swizzleByteWidth_; }
  int elementBitwidth() const { return elementBitwidth_; }
  bool transposed() const { return transposed_; }
  bool fp4Padded() const { return fp4Padded_; }
  const CgaLayout &cga() const { return cga_; }

  /// The linear layout over `shape` (see the note at the top of this file and toLinearLayout in
  /// LayoutSpec.h). Requires: shape has rank() entries, each a power of two >= 1.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  friend bool operator==(const NvmmaSharedSpec &, const NvmmaSharedSpec &) = default;

private:
  NvmmaSharedSpec() = default;
  int swizzleByteWidth_ = 0, elementBitwidth_ = 16, rank_ = 2;
  bool transposed_ = false, fp4Padded_ = false;
  CgaLayout cga_ = CgaLayout::single(2);
};

} // namespace linlayout
