// The AMD matrix-core (MFMA) accumulator layout of CDNA GPUs (Triton's #ttg.amd_mfma, Gluon's
// AMDMFMALayout). A wavefront has 64 lanes.
//
// One instruction computes an M x N tile (instr_shape [M, N, K]; M x N one of 32x32, 16x16,
// 64x4 and 4x64). Each lane holds `height` consecutive rows of one column (4 for 32-bit
// elements, 1 for 64-bit ones): lanes first step the N columns, then further rows; the
// registers then repeat that block down the rows until the tile is covered. `transposed`
// swaps the roles of rows and columns (a lane holds consecutive columns of one row; 64x4 is
// always transposed). Around the tile: tiles_per_warp[n] tiles along N in registers, then
// warps along N, then further tiles along N up to the tensor's width, then tiles_per_warp[m]
// along M in registers, then warps along M (and along the batch dim of a rank-3 layout);
// blocks follow the CGA layout. Versions 1-4 (gfx908, gfx90a, gfx942, gfx950) share it.
//
// Example: version 3, [32, 32, 8], warps [1, 1] over 32x32: register (1,0), (2,0), (8,0),
// (16,0); lane (0,1), (0,2), (0,4), (0,8), (0,16), (4,0).
#pragma once

#include "linlayout/layout/AttrFields.h"
#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout {

class LayoutSpec;

/// Parameters of an AMD MFMA layout.
class AmdMfmaSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "amd_mfma";
  static constexpr bool kDistributed = true;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"amd_mfma", "", "mma"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked MFMA layout.
  /// Requires: version 1..4; instrShape [M, N, K] with M x N one of 32x32, 16x16, 64x4 (then
  /// transposed), 4x64 and K a power of two; warpsPerCta of rank 2 or 3, powers of two;
  /// elementBitwidth 32 or 64; tilesPerWarp empty (all 1) or of the same rank, powers of two;
  /// cga of the same rank.
  /// Ensures: the accessors return the arguments (tilesPerWarp filled with 1s).
  /// Example: make(3, {32, 32, 8}, false, {2, 2}) -> ok; make(3, {8, 8, 4}, false, {1, 1}) ->
  /// "amd_mfma: instr_shape is [8, 8, 4], expected M x N of 32x32, 16x16, 64x4 or 4x64".
  static Expected<AmdMfmaSpec> make(int version, std::vector<int64_t> instrShape, bool transposed,
                                    std::vector<int64_t> warpsPerCta, int elementBitwidth = 32,
                                    std::vector<int64_t> tilesPerWarp = {},
                                    std::optional<CgaLayout> cga = std::nullopt);

  int rank() const { return int(warpsPerCta_.size()); }
  int version() const { return version_; }
  const std::vector<int64_t> &instrShape() const { return instrShape_; }
  bool transposed() const { return transposed_; }
  const std::vector<int64_t> &warpsPerCta() const { return warpsPerCta_; }
  int elementBitwidth() const { return elementBitwidth_; }
  const std::vector<int64_t> &tilesPerWarp() const { return tilesPerWarp_; }
  const CgaLayout &cga() const { return cga_; }
  /// The same layout with CTA split `cga` (see CtaSplit.h). Requires: cga.rank() == rank().
  Expected<AmdMfmaSpec> withCga(const CgaLayout &cga) const;

  /// The linear layout over `shape` (see the note at the top of this file and toLinearLayout in
  /// LayoutSpec.h). Requires: shape has rank() entries, each a power of two >= 1.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  /// As the parent of a dot operand (DotOperand.h): k_width a power of two up to 64; the
  /// operand's lanes hold k_width consecutive K elements, lanes step the non-K dim (M of A, N of
  /// B) then K, registers repeat along K up to the tensor's K, then tiles_per_warp along the
  /// non-K dim; warps and blocks as the parent's.
  Status checkOperand(int64_t operandIndex, int64_t kWidth) const;
  Expected<LinearLayout> operandLayout(int operandIndex, int kWidth,
                                       std::span<const int64_t> shape) const;

  friend bool operator==(const AmdMfmaSpec &, const AmdMfmaSpec &) = default;

private:
  AmdMfmaSpec() = default;
  int version_ = 3;
  std::vector<int64_t> instrShape_;
  bool transposed_ = false;
  std::vector<int64_t> warpsPerCta_;
  int elementBitwidth_ = 32;
  std::vector<int64_t> tilesPerWarp_;
  CgaLayout cga_ = CgaLayout::single(2);
};

} // namespace linlayout
