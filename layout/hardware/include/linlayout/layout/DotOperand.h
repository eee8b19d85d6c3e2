// The dot-operand layout (Triton's #ttg.dot_op, Gluon's DotOperandLayout): how the A
// (operand_index 0, shape [.., M, K]) or B (operand_index 1, shape [.., K, N]) operand of a dot is
// held in registers so that it can feed the parent layout's instruction.
//
//  - parent nvidia_mma v2 or v3: one instruction's operand tile is A [16, 8 * k_width] or
//    B [8 * k_width, 8]. Along K a lane holds k_width consecutive elements (registers), then lanes
//    0..3 step K; lanes 4..31 step the non-K dim (8 rows of A / columns of B); then registers
//    repeat the 8-row block along the non-K dim and the whole k_width * 4 block along K. Warps
//    follow the parent's warps (Ampere: last dim fastest; Hopper: dim0 fastest) and broadcast along
//    the parent dim that is not this operand's (N for A, M for B). Hopper takes only A from
//    registers.
//  - parent blocked: the FMA dot; the parent's own layout except that each thread holds the whole
//    K extent in registers, and lanes and warps broadcast along K.
// The CTA split is the parent's with the K components zeroed. Larger shapes repeat in registers,
// along K first, then the non-K dim; smaller ones broadcast.
//
// Example: A of mma v2 warps [2,2], k_width 8, over [32, 64]: register (0,1), (0,2), (0,4), (8,0),
// (0,32); lane (0,8), (0,16), (1,0), (2,0), (4,0); warp (0,0), (16,0).
#pragma once

#include "linlayout/layout/AttrFields.h"
#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout {

class LayoutSpec;

/// A dot operand of an mma or blocked parent.
class DotOperandSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "dot_operand";
  static constexpr bool kDistributed = true;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"dot_op", "", "dot_op"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked dot operand.
  /// Requires: operandIndex 0 or 1; parent is nvidia_mma or blocked with rank >= 2; for an mma
  /// parent kWidth is a power of two in 1..64 (and operandIndex is 0 for version 3); for a blocked
  /// parent kWidth is 0 or a power of two (it plays no part).
  /// Ensures: the warp bases equal the parent's (same non-K extent) with the K component zeroed.
  /// Example: make(2, mma) -> "dot_operand: operand_index is 2, expected 0 or 1".
  static Expected<DotOperandSpec> make(int64_t operandIndex, const LayoutSpec &parent,
                                       int64_t kWidth);

  int rank() const;
  int operandIndex() const { return operandIndex_; }
  int kWidth() const { return kWidth_; }
  const LayoutSpec &parent() const { return *parent_; }
  /// The K dimension: rank-1 for A, rank-2 for B.
  int kDim() const { return operandIndex_ == 0 ? rank() - 1 : rank() - 2; }

  /// The CTA split (see CtaSplit.h): the number of CTAs, the split as a CgaLayout where the parent
  /// has one (the parent's), the block bases in this layout's rank, and the same layout with split
  /// `cga`.
  int64_t numCtas() const;
  std::optional<CgaLayout> cgaSplit() const;
  std::vector<std::vector<int64_t>> ctaBases() const;
  Expected<DotOperandSpec> withCga(const CgaLayout &cga) const;

  /// The linear layout over `shape` (see the note at the top of this file and toLinearLayout in
  /// LayoutSpec.h). Requires: shape has rank() entries, each a power of two >= 1.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  friend bool operator==(const DotOperandSpec &a, const DotOperandSpec &b);

private:
  DotOperandSpec() = default;
  int operandIndex_ = 0;
  int kWidth_ = 0;
  std::shared_ptr<const LayoutSpec> parent_; // never null
};

} // namespace linlayout
