#include "linlayout/layout/DotOperand.h"

#include "SpecCheck.h"
#include "linlayout/layout/LayoutSpec.h"

namespace linlayout {

Expected<DotOperandSpec> DotOperandSpec::make(int64_t operandIndex, const LayoutSpec &parent,
                                              int64_t kWidth) {
  if (operandIndex != 0 && operandIndex != 1)
    return makeError("dot_operand: operand_index is " + std::to_string(operandIndex) +
                     ", expected 0 or 1");
  if (const auto *mma = parent.as<NvidiaMmaSpec>()) {
    LL_TRY_STATUS(spec::checkPow2("dot_operand", "k_width", kWidth));
    if (kWidth > 64)
      return makeError("dot_operand: k_width is " + std::to_string(kWidth) +
                       ", expected at most 64");
    if (mma->isHopper() && operandIndex != 0)
      return makeError("dot_operand: operand_index is 1 with an nvidia_mma version 3 parent; "
                       "wgmma reads only A from registers");
  } else if (parent.as<BlockedSpec>()) {
    if (kWidth != 0)
      LL_TRY_STATUS(spec::checkPow2("dot_operand", "k_width", kWidth));
  } else {
    return makeError("dot_operand: parent is a " + std::string(kindName(parent.kind())) +
                     " layout, expected nvidia_mma or blocked");
  }
  if (parent.rank() < 2)
    return makeError("dot_operand: parent has rank " + std::to_string(parent.rank()) +
                     ", expected at least 2");
  DotOperandSpec s;
  s.operandIndex_ = int(operandIndex);
  s.kWidth_ = int(kWidth);
  s.parent_ = std::make_shared<const LayoutSpec>(parent);
  return s;
}

int DotOperandSpec::rank() const { return parent_->rank(); }

bool operator==(const DotOperandSpec &a, const DotOperandSpec &b) {
  return a.operandIndex_ == b.operandIndex_ && a.kWidth_ == b.kWidth_ && *a.parent_ == *b.parent_;
}

} // namespace linlayout

namespace linlayout {
Expected<LinearLayout> DotOperandSpec::toLinearLayout(std::span<const int64_t>) const {
  return makeError("to_linear is not implemented yet for this family");
}
} // namespace linlayout
