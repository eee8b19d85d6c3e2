// The NVIDIA tensor-core accumulator layouts (Triton's #ttg.nvidia_mma, Gluon's
// NVMMADistributedLayout).
//
//  - version 2 (Ampere mma.sync m16n8, instr_shape [16, 8], rank 2 or 3 with a leading batch
//    dim): in one 16x8 tile, register bit 0 steps a column, lanes 0..3 step columns 2, 4, lanes
//    4..31 step rows 1, 2, 4, register bit 1 steps row 8. Warps then tile the dims last dim
//    first (row-major warp order).
//  - version 3 (Hopper wgmma, instr_shape [16, N, K], rank 2 or 3 with a leading batch dim): the
//    same 16x8 pattern with more register bits stepping columns 8, 16, ... up to N; warps tile the
//    rows first, so a warp group of 4 stacks 16-row tiles (warps 0..3 -> rows 0, 16, 32, 48), then
//    the columns, then the batch (Triton's column-major warp order [1, 2, 0] at rank 3).
// Larger shapes repeat the CTA tile in registers, the last dim first; smaller ones broadcast.
//
// Example: v2, warps [1,1], over [32, 32]: register (0,1), (8,0), (0,8), (0,16), (16,0);
// lane (0,2), (0,4), (1,0), (2,0), (4,0).
// Shapes larger than the tile repeat in registers, smaller ones broadcast; blocks follow the CGA
// layout.
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

/// Parameters of an NVIDIA mma (tensor core accumulator) layout.
class NvidiaMmaSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "nvidia_mma";
  static constexpr bool kDistributed = true;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"nvidia_mma", "mma", "mma"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked mma layout.
  /// Requires: versionMajor 2 (instrShape [16, 8] or the fp64 [8, 8], optionally with a leading
  /// 1 at rank 3; rank 2 or 3) or 3 (instrShape [16, N, K], N a power of two from 8 to 256, K a
  /// power of two; rank 2 or 3; the product of warpsPerCta a multiple of 4); versionMinor 0 (or 1,
  /// Turing, for version 2);
  /// warpsPerCta powers of two; cga of the same rank.
  /// Ensures: toLinearLayout is surjective for every shape.
  /// Example: make(2, 0, {4, 1}, {16, 8}) -> ok; make(2, 0, {4, 1}, {16, 16}) -> error naming
  /// instr_shape.
  static Expected<NvidiaMmaSpec> make(int versionMajor, int versionMinor,
                                      std::vector<int64_t> warpsPerCta,
                                      std::vector<int64_t> instrShape,
                                      std::optional<CgaLayout> cga = std::nullopt);

  int rank() const { return int(warpsPerCta_.size()); }
  int versionMajor() const { return versionMajor_; }
  int versionMinor() const { return versionMinor_; }
  bool isAmpere() const { return versionMajor_ == 2; }
  bool isHopper() const { return versionMajor_ == 3; }
  const std::vector<int64_t> &warpsPerCta() const { return warpsPerCta_; }
  const std::vector<int64_t> &instrShape() const { return instrShape_; }
  const CgaLayout &cga() const { return cga_; }
  /// The same layout with CTA split `cga` (see CtaSplit.h). Requires: cga.rank() == rank().
  Expected<NvidiaMmaSpec> withCga(const CgaLayout &cga) const;
  /// The shape of one instruction tile, one entry per tensor dim: instrShape with leading 1s
  /// for version 2 ([1, 16, 8] at rank 3), [16, N] for version 3 ([1, 16, N] at rank 3).
  std::vector<int64_t> tileShape() const;

  /// The linear layout over `shape` (see the note at the top of this file and toLinearLayout in
  /// LayoutSpec.h). Requires: shape has rank() entries, each a power of two >= 1.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  /// As the parent of a dot operand (DotOperand.h): whether operand `operandIndex` (0 or 1)
  /// may have `kWidth` (an error naming the offending value), and the operand's linear layout
  /// over `shape` (K is dim rank-1 of A, dim rank-2 of B).
  Status checkOperand(int64_t operandIndex, int64_t kWidth) const;
  Expected<LinearLayout> operandLayout(int operandIndex, int kWidth,
                                       std::span<const int64_t> shape) const;

  friend bool operator==(const NvidiaMmaSpec &, const NvidiaMmaSpec &) = default;

private:
  NvidiaMmaSpec() = default;
  int versionMajor_ = 2;
  int versionMinor_ = 0;
  std::vector<int64_t> warpsPerCta_, instrShape_;
  CgaLayout cga_ = CgaLayout::single(1);
};

} // namespace linlayout
