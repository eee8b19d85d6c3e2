#include "SpecCheck.h"

#include "linlayout/layout/CgaLayout.h"

namespace linlayout::spec {

bool isPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int log2i(int64_t v) { return 63 - __builtin_clzll(uint64_t(v)); }

std::string listText(std::span<const int64_t> v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size() && i < 16; ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  if (v.size() > 16)
    s += ", ...";
  return s + "]";
}

Status checkPow2(const char *family, const char *field, int64_t v) {
  if (!isPow2(v) || v > kMaxParam)
    return makeError(std::string(family) + ": " + field + " is " + std::to_string(v) +
                     ", expected a power of two between 1 and " + std::to_string(kMaxParam));
  return Status::success();
}

Status checkPow2List(const char *family, const char *field, std::span<const int64_t> v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (!isPow2(v[i]) || v[i] > kMaxParam)
      return makeError(std::string(family) + ": " + field + "[" + std::to_string(i) + "] is " +
                       std::to_string(v[i]) + ", expected a power of two between 1 and " +
                       std::to_string(kMaxParam));
  return Status::success();
}

Status checkPermutation(const char *family, const char *field, std::span<const int64_t> v) {
  std::vector<bool> seen(v.size(), false);
  for (int64_t x : v) {
    if (x < 0 || x >= int64_t(v.size()) || seen[size_t(x)])
      return makeError(std::string(family) + ": " + field + " " + listText(v) +
                       " is not a permutation of 0.." + std::to_string(int64_t(v.size()) - 1));
    seen[size_t(x)] = true;
  }
  return Status::success();
}

Status checkRank(const char *family, const char *field, int64_t rank) {
  if (rank < 1 || rank > CgaLayout::kMaxRank)
    return makeError(std::string(family) + ": " + field + " gives rank " + std::to_string(rank) +
                     ", expected 1 to " + std::to_string(CgaLayout::kMaxRank));
  return Status::success();
}

Status checkSameLength(const char *family, const char *fa, size_t na, const char *fb, size_t nb) {
  if (na != nb)
    return makeError(std::string(family) + ": " + fa + " has " + std::to_string(na) +
                     " entries but " + fb + " has " + std::to_string(nb));
  return Status::success();
}

Status checkAmdWarpGrid(const char *family, std::span<const int64_t> warpsPerCta,
                        std::vector<int64_t> &tilesPerWarp, const CgaLayout *cga) {
  LL_TRY_STATUS(checkPow2List(family, "warps_per_cta", warpsPerCta));
  int rank = int(warpsPerCta.size());
  if (rank != 2 && rank != 3)
    return makeError(std::string(family) + ": warps_per_cta " + listText(warpsPerCta) +
                     " has rank " + std::to_string(rank) + ", expected 2 or 3");
  if (tilesPerWarp.empty())
    tilesPerWarp.assign(size_t(rank), 1);
  LL_TRY_STATUS(checkSameLength(family, "tiles_per_warp", tilesPerWarp.size(), "warps_per_cta",
                                warpsPerCta.size()));
  LL_TRY_STATUS(checkPow2List(family, "tiles_per_warp", tilesPerWarp));
  if (cga && cga->rank() != rank)
    return makeError(std::string(family) + ": cga_layout has rank " + std::to_string(cga->rank()) +
                     " but warps_per_cta has " + std::to_string(rank) + " entries");
  return Status::success();
}

} // namespace linlayout::spec
