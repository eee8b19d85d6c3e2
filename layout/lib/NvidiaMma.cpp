#include "linlayout/layout/NvidiaMma.h"

#include "SpecCheck.h"

namespace linlayout {

Expected<NvidiaMmaSpec> NvidiaMmaSpec::make(int versionMajor, int versionMinor,
                                            std::vector<int64_t> warpsPerCta,
                                            std::vector<int64_t> instrShape,
                                            std::optional<CgaLayout> cga) {
  const char *f = "nvidia_mma";
  if (versionMajor != 2 && versionMajor != 3)
    return makeError("nvidia_mma: version [" + std::to_string(versionMajor) + ", " +
                     std::to_string(versionMinor) +
                     "] is not supported, expected [2, 0] (Ampere) or [3, 0] (Hopper)");
  if (versionMinor != 0)
    return makeError("nvidia_mma: version minor is " + std::to_string(versionMinor) +
                     ", expected 0");
  LL_TRY_STATUS(spec::checkRank(f, "warps_per_cta", int64_t(warpsPerCta.size())));
  LL_TRY_STATUS(spec::checkPow2List(f, "warps_per_cta", warpsPerCta));
  int rank = int(warpsPerCta.size());
  if (versionMajor == 2) {
    if (rank != 2 && rank != 3)
      return makeError("nvidia_mma: version 2 needs rank 2 or 3, warps_per_cta " +
                       spec::listText(warpsPerCta) + " gives rank " + std::to_string(rank));
    bool ok = instrShape == std::vector<int64_t>{16, 8} ||
              (rank == 3 && instrShape == std::vector<int64_t>{1, 16, 8});
    if (!ok)
      return makeError("nvidia_mma: instr_shape is " + spec::listText(instrShape) +
                       ", expected [16, 8] for version 2");
  } else {
    if (rank != 2)
      return makeError("nvidia_mma: version 3 needs rank 2, warps_per_cta " +
                       spec::listText(warpsPerCta) + " gives rank " + std::to_string(rank));
    if (instrShape.size() != 3 || instrShape[0] != 16 || instrShape[1] < 8 ||
        instrShape[1] > 256 || instrShape[1] % 8 != 0 || !spec::isPow2(instrShape[2]) ||
        instrShape[2] > 256)
      return makeError("nvidia_mma: instr_shape is " + spec::listText(instrShape) +
                       ", expected [16, N, K] with N a multiple of 8 up to 256 and K a power "
                       "of two for version 3");
    int64_t warps = 1;
    for (int64_t w : warpsPerCta)
      warps *= w;
    if (warps % 4 != 0)
      return makeError("nvidia_mma: warps_per_cta " + spec::listText(warpsPerCta) + " has " +
                       std::to_string(warps) +
                       " warps, version 3 needs a multiple of 4 (whole warp groups)");
  }
  if (cga && cga->rank() != rank)
    return makeError("nvidia_mma: cga_layout has rank " + std::to_string(cga->rank()) +
                     " but warps_per_cta has " + std::to_string(rank) + " entries");
  NvidiaMmaSpec s;
  s.versionMajor_ = versionMajor;
  s.versionMinor_ = versionMinor;
  s.warpsPerCta_ = std::move(warpsPerCta);
  s.instrShape_ = std::move(instrShape);
  s.cga_ = cga ? std::move(*cga) : CgaLayout::single(rank);
  return s;
}

} // namespace linlayout

namespace linlayout {
Expected<LinearLayout> NvidiaMmaSpec::toLinearLayout(std::span<const int64_t>) const {
  return makeError("to_linear is not implemented yet for this family");
}
} // namespace linlayout
