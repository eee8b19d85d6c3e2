#include "linlayout/layout/DotOperand.h"

#include "BasisTable.h"
#include "MmaTile.h"
#include "SpecCheck.h"
#include "linlayout/layout/LayoutSpec.h"

#include <cassert>

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
    // As Triton: the FMA path reads whole elements, so the operand has no k_width.
    if (kWidth != 0)
      return makeError("dot_operand: k_width is " + std::to_string(kWidth) +
                       " with a blocked parent, expected 0 (FMA operands take no k_width)");
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
namespace {

// The parent's CTA split with the K dim zeroed: every CTA along K needs the whole K extent.
CgaLayout operandCga(const CgaLayout &parent, int kDim) { return parent.zeroDim(kDim); }

// Warps (or lanes) of the parent along the non-K dims; along K they broadcast.
void broadcastAlongK(spec::BasisTable &t, DimName in, std::span<const int64_t> counts,
                     std::span<const int64_t> order, int kDim) {
  for (int64_t d : order) {
    if (d == kDim)
      t.zeros(in, counts[size_t(d)], int(d));
    else
      t.identity(in, counts[size_t(d)], int(d));
  }
}

} // namespace

Expected<LinearLayout> DotOperandSpec::toLinearLayout(std::span<const int64_t> shape) const {
  int r = rank(), k = kDim();
  bool isA = operandIndex_ == 0;
  const DimName ins[] = {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};
  if (const auto *mma = parent_->as<NvidiaMmaSpec>()) {
    // One instruction's operand tile: A is [instrM, kWidth * 8] (kWidth * 4 for the fp64
    // m8n8k4), B is [kWidth * 8, 8]; each lane holds kWidth consecutive K elements.
    std::vector<int64_t> tile(size_t(r), 1);
    int64_t instrM = mma->tileShape()[size_t(r - 2)];
    int64_t kMul = instrM == 8 ? 4 : 8;
    if (isA) {
      tile[size_t(r - 2)] = instrM;
      tile[size_t(r - 1)] = kWidth_ * kMul;
    } else {
      tile[size_t(r - 2)] = kWidth_ * kMul;
      tile[size_t(r - 1)] = 8;
    }
    // K is the fastest dim of both operands (A row-major, B column-major).
    std::vector<int64_t> order = spec::matrixOrder(r, /*rowMajor=*/isA);
    spec::BasisTable t = spec::mmaTile(tile, kWidth_, order, order);
    broadcastAlongK(t, DimName::warp(), mma->warpsPerCta(),
                    spec::matrixOrder(r, !mma->isHopper()), k);
    return spec::combineCtaCga(std::move(t), operandCga(mma->cga(), k), shape, ins);
  }
  const auto *blocked = parent_->as<BlockedSpec>();
  assert(blocked && "the factory admits only mma and blocked parents");
  // FMA: every thread holds the whole K extent in registers; lanes and warps broadcast along K.
  std::vector<int64_t> perThread = blocked->sizePerThread();
  perThread[size_t(k)] = shape[size_t(k)];
  spec::BasisTable t(r);
  spec::identityND(t, DimName::reg(), perThread, blocked->order());
  broadcastAlongK(t, DimName::lane(), blocked->threadsPerWarp(), blocked->order(), k);
  broadcastAlongK(t, DimName::warp(), blocked->warpsPerCta(), blocked->order(), k);
  return spec::combineCtaCga(std::move(t), operandCga(blocked->cga(), k), shape, ins);
}

} // namespace linlayout
