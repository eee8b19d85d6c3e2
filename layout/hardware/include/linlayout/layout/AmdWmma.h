// The AMD matrix-core layout of RDNA GPUs and gfx1250 (Triton's #ttg.amd_wmma, Gluon's
// AMDWMMALayout). A wavefront of these instructions has 32 lanes.
//
// One instruction computes a 16 x 16 tile (instr_shape [16, 16, K]). Version 1 (RDNA3): lanes
// 0-15 step the 16 columns, lane 16 the next row, and a lane's 8 registers every second row;
// versions 2 (RDNA4) and 3 (gfx1250): lanes 0-15 step the columns, a lane's 8 registers 8
// consecutive rows, lane 16 the row 8 further. `transposed` swaps rows and columns. Warps tile
// the dims last dim first; larger shapes repeat the CTA tile in registers, N first. Blocks
// follow the CGA layout.
//
// Example: version 2, warps [1, 1] over 16x16: register (1,0), (2,0), (4,0); lane (0,1), (0,2),
// (0,4), (0,8), (8,0).
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

/// Parameters of an AMD WMMA layout.
class AmdWmmaSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "amd_wmma";
  static constexpr bool kDistributed = true;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"amd_wmma", "", "mma"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked WMMA layout.
  /// Requires: version 1..3; instrShape empty ([16, 16, 16]) or [16, 16, K] with K 16 for
  /// versions 1 and 2, K one of 4, 32, 64, 128 for version 3; warpsPerCta of rank 2 or 3,
  /// powers of two; tilesPerWarp empty (all 1) or of the same rank, powers of two; cga of the
  /// same rank.
  /// Ensures: the accessors return the arguments (defaults filled in).
  /// Example: make(2, false, {2, 2}) -> ok; make(3, false, {1, 1}) -> "amd_wmma: instr_shape is
  /// [16, 16, 16], expected [16, 16, K] with K one of 4, 32, 64, 128 for version 3".
  static Expected<AmdWmmaSpec> make(int version, bool transposed, std::vector<int64_t> warpsPerCta,
                                    std::vector<int64_t> instrShape = {},
                                    std::vector<int64_t> tilesPerWarp = {},
                                    std::optional<CgaLayout> cga = std::nullopt);

  int rank() const { return int(warpsPerCta_.size()); }
  int version() const { return version_; }
  bool transposed() const { return transposed_; }
  const std::vector<int64_t> &warpsPerCta() const { return warpsPerCta_; }
  const std::vector<int64_t> &instrShape() const { return instrShape_; }
  const std::vector<int64_t> &tilesPerWarp() const { return tilesPerWarp_; }
  const CgaLayout &cga() const { return cga_; }
  /// The same layout with CTA split `cga` (see CtaSplit.h). Requires: cga.rank() == rank().
  Expected<AmdWmmaSpec> withCga(const CgaLayout &cga) const;

  /// The linear layout over `shape` (see the note at the top of this file and toLinearLayout in
  /// LayoutSpec.h). Requires: shape has rank() entries, each a power of two >= 1.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  /// As the parent of a dot operand (DotOperand.h): k_width 8 or 16 (version 1), 4, 8 or 16
  /// (version 2), 2, 8 or 16 (version 3). A lane holds k_width consecutive K elements, lanes
  /// 0-15 step the non-K dim, lane 16 repeats them (version 1) or steps K by k_width (versions
  /// 2, 3); registers repeat along K up to the instruction's K; warps broadcast along K.
  Status checkOperand(int64_t operandIndex, int64_t kWidth) const;
  Expected<LinearLayout> operandLayout(int operandIndex, int kWidth,
                                       std::span<const int64_t> shape) const;

  friend bool operator==(const AmdWmmaSpec &, const AmdWmmaSpec &) = default;

private:
  AmdWmmaSpec() = default;
  int version_ = 2;
  bool transposed_ = false;
  std::vector<int64_t> warpsPerCta_, instrShape_, tilesPerWarp_;
  CgaLayout cga_ = CgaLayout::single(2);
};

} // namespace linlayout
