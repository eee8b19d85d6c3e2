#include "linlayout/layout/SwizzledShared.h"

#include "SpecCheck.h"

namespace linlayout {

Expected<SwizzledSharedSpec> SwizzledSharedSpec::make(int64_t vec, int64_t perPhase,
                                                      int64_t maxPhase, std::vector<int64_t> order,
                                                      std::optional<CgaLayout> cga) {
  const char *f = "swizzled_shared";
  LL_TRY_STATUS(spec::checkPow2(f, "vec", vec));
  LL_TRY_STATUS(spec::checkPow2(f, "per_phase", perPhase));
  LL_TRY_STATUS(spec::checkPow2(f, "max_phase", maxPhase));
  LL_TRY_STATUS(spec::checkRank(f, "order", int64_t(order.size())));
  LL_TRY_STATUS(spec::checkPermutation(f, "order", order));
  int rank = int(order.size());
  if (cga && cga->rank() != rank)
    return makeError("swizzled_shared: cga_layout has rank " + std::to_string(cga->rank()) +
                     " but order has " + std::to_string(rank) + " entries");
  SwizzledSharedSpec s;
  s.vec_ = vec;
  s.perPhase_ = perPhase;
  s.maxPhase_ = maxPhase;
  s.order_ = std::move(order);
  s.cga_ = cga ? std::move(*cga) : CgaLayout::single(rank);
  return s;
}

} // namespace linlayout

namespace linlayout {
Expected<LinearLayout> SwizzledSharedSpec::toLinearLayout(std::span<const int64_t>) const {
  return makeError("to_linear is not implemented yet for this family");
}
} // namespace linlayout
