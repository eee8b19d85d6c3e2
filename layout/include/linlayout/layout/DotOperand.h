// The dot-operand layout (Triton's #ttg.dot_op, Gluon's DotOperandLayout): how the A
// (operand_index 0, shape [.., M, K]) or B (operand_index 1, shape [.., K, N]) operand of a dot is
// held in registers so that it can feed the parent layout's instruction.
//
//  - parent nvidia_mma v2: each lane holds k_width consecutive K elements per 32-bit register
//    group; the operand is tiled by the m16n8k(4*k_width... ) instruction; warps follow the parent's
//    warps along the non-K dimension and broadcast along K.
//  - parent nvidia_mma v3: only A (registers as wgmma's A-from-registers form).
//  - parent blocked: the FMA dot; the parent's own layout with the K dimension held entirely in
//    registers of every thread (lanes and warps broadcast along K).
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <span>
#include <memory>

namespace linlayout {

class LayoutSpec;

/// A dot operand of an mma or blocked parent.
class DotOperandSpec {
public:
  /// A checked dot operand.
  /// Requires: operandIndex 0 or 1; parent is nvidia_mma or blocked; for mma v2 kWidth is a
  /// power of two in 1..16 (... ); for mma v3 operandIndex is 0 and kWidth a power of two; for a
  /// blocked parent kWidth is 0 or any power of two (ignored).
  /// Example: make(2, mma) -> "dot_operand: operand_index is 2, expected 0 or 1".
  static Expected<DotOperandSpec> make(int64_t operandIndex, const LayoutSpec &parent,
                                       int64_t kWidth);

  int rank() const;
  int operandIndex() const { return operandIndex_; }
  int kWidth() const { return kWidth_; }
  const LayoutSpec &parent() const { return *parent_; }
  /// The K dimension: rank-1 for A, rank-2 for B.
  int kDim() const { return operandIndex_ == 0 ? rank() - 1 : rank() - 2; }

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
