#include "linlayout/lower/Occupancy.h"

#include <algorithm>
#include <climits>
#include <utility>
#include <vector>

namespace linlayout::lower {

SmLimits smLimits(const PtxTarget &target) {
  SmLimits l;
  if (target.sm >= 90)
    return l;
  if (target.sm == 80) {
    l.sharedBytes = 164 << 10;
    return l;
  }
  l.maxWarps = 48;
  l.maxBlocks = target.sm == 86 ? 16 : 24;
  l.sharedBytes = 100 << 10;
  return l;
}

Occupancy occupancy(const PtxTarget &target, int threadsPerBlock, int registersPerThread,
                    int64_t sharedBytes) {
  const SmLimits l = smLimits(target);
  const int warps = std::max(1, (threadsPerBlock + 31) / 32);
  const int regsPerWarp = ((std::max(registersPerThread, 1) + 7) / 8) * 8 * 32;
  const int64_t smemPerBlock = std::max<int64_t>(sharedBytes, 0) + l.reservedPerBlock;
  const std::vector<std::pair<const char *, int64_t>> limits = {
      {"registers", l.registers / (int64_t(regsPerWarp) * warps)},
      {"shared memory", l.sharedBytes / smemPerBlock},
      {"warps", l.maxWarps / warps},
      {"CTAs", l.maxBlocks}};
  int64_t fit = INT_MAX;
  for (const auto &lim : limits)
    fit = std::min(fit, lim.second);
  Occupancy o;
  o.ctasPerSm = int(fit);
  o.warpsPerSm = int(fit) * warps;
  for (const auto &[what, n] : limits)
    if (n == fit)
      o.limitedBy += (o.limitedBy.empty() ? "" : " and ") + std::string(what);
  return o;
}

} // namespace linlayout::lower
