#include "linlayout/layout/Blocked.h"
#include "linlayout/layout/LayoutSpec.h"

#include "BasisTable.h"
#include "SpecCheck.h"

namespace linlayout {

Expected<BlockedSpec> BlockedSpec::make(std::vector<int64_t> sizePerThread,
                                        std::vector<int64_t> threadsPerWarp,
                                        std::vector<int64_t> warpsPerCta,
                                        std::vector<int64_t> order, std::optional<CgaLayout> cga) {
  const char *f = "blocked";
  LL_TRY_STATUS(
      spec::checkSameLength(f, "size_per_thread", sizePerThread.size(), "order", order.size()));
  LL_TRY_STATUS(
      spec::checkSameLength(f, "threads_per_warp", threadsPerWarp.size(), "order", order.size()));
  LL_TRY_STATUS(
      spec::checkSameLength(f, "warps_per_cta", warpsPerCta.size(), "order", order.size()));
  LL_TRY_STATUS(spec::checkRank(f, "order", int64_t(order.size())));
  LL_TRY_STATUS(spec::checkPow2List(f, "size_per_thread", sizePerThread));
  LL_TRY_STATUS(spec::checkPow2List(f, "threads_per_warp", threadsPerWarp));
  LL_TRY_STATUS(spec::checkPow2List(f, "warps_per_cta", warpsPerCta));
  LL_TRY_STATUS(spec::checkPermutation(f, "order", order));
  int rank = int(order.size());
  if (cga && cga->rank() != rank)
    return makeError("blocked: cga_layout has rank " + std::to_string(cga->rank()) +
                     " but order has " + std::to_string(rank) + " entries");
  BlockedSpec s;
  s.sizePerThread_ = std::move(sizePerThread);
  s.threadsPerWarp_ = std::move(threadsPerWarp);
  s.warpsPerCta_ = std::move(warpsPerCta);
  s.order_ = std::move(order);
  s.cga_ = cga ? std::move(*cga) : CgaLayout::single(rank);
  return s;
}

} // namespace linlayout

namespace linlayout {

Expected<LinearLayout> BlockedSpec::toLinearLayout(std::span<const int64_t> shape) const {
  // Registers, then lanes, then warps, each walking the dims from order[0]; the tile then fits
  // the shape (extra registers or broadcast) and the CTAs go above it.
  spec::BasisTable t(rank());
  spec::identityND(t, DimName::reg(), sizePerThread_, order_);
  spec::identityND(t, DimName::lane(), threadsPerWarp_, order_);
  spec::identityND(t, DimName::warp(), warpsPerCta_, order_);
  const DimName ins[] = {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};
  return spec::combineCtaCga(std::move(t), cga_, shape, ins);
}

Expected<BlockedSpec> BlockedSpec::withCga(const CgaLayout &cga) const {
  return make(sizePerThread_, threadsPerWarp_, warpsPerCta_, order_, cga);
}

Status BlockedSpec::checkOperand(int64_t, int64_t kWidth) const {
  // As Triton: the FMA path reads whole elements, so the operand has no k_width.
  if (kWidth != 0)
    return makeError("dot_operand: k_width is " + std::to_string(kWidth) +
                     " with a blocked parent, expected 0 (FMA operands take no k_width)");
  return Status::success();
}

Expected<LinearLayout> BlockedSpec::operandLayout(int operandIndex, int,
                                                  std::span<const int64_t> shape) const {
  int r = rank();
  int k = operandIndex == 0 ? r - 1 : r - 2;
  const DimName ins[] = {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};
  // FMA: every thread holds the whole K extent in registers; lanes and warps broadcast along K.
  std::vector<int64_t> perThread = sizePerThread();
  perThread[size_t(k)] = shape[size_t(k)];
  spec::BasisTable t(r);
  spec::identityND(t, DimName::reg(), perThread, order());
  spec::broadcastAlongK(t, DimName::lane(), threadsPerWarp(), order(), k);
  spec::broadcastAlongK(t, DimName::warp(), warpsPerCta(), order(), k);
  // Every CTA along K needs the whole K extent.
  return spec::combineCtaCga(std::move(t), cga().zeroDim(k), shape, ins);
}

// TritonGPU attribute syntax (AttrFields.h).

Expected<LayoutSpec> BlockedSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(auto spt, f.ints("sizePerThread"));
  LL_ASSIGN_OR_RETURN(auto tpw, f.ints("threadsPerWarp"));
  LL_ASSIGN_OR_RETURN(auto wpc, f.ints("warpsPerCTA"));
  LL_ASSIGN_OR_RETURN(auto order, f.ints("order"));
  LL_ASSIGN_OR_RETURN(auto c, f.cga(int(order.size())));
  LL_TRY_STATUS(f.done({"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order", "CTAsPerCGA",
                        "CTASplitNum", "CTAOrder", "CGALayout"}));
  LL_ASSIGN_OR_RETURN(auto s, f.checked(make(spt, tpw, wpc, order, c)));
  return LayoutSpec(std::move(s));
}

std::string BlockedSpec::attrText() const {
  return "#ttg.blocked<{sizePerThread = " + attrIntList(sizePerThread()) +
         ", threadsPerWarp = " + attrIntList(threadsPerWarp()) +
         ", warpsPerCTA = " + attrIntList(warpsPerCta()) + ", order = " + attrIntList(order()) +
         attrCgaText(cga()) + "}>";
}

} // namespace linlayout
