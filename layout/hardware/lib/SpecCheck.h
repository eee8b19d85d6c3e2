// Parameter checks shared by the layout-spec factories (private to hardware/). Each returns an
// error "<family>: <field> ..." naming the offending value.
#pragma once

#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/Expected.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace linlayout::spec {

/// The largest single size parameter accepted (sizes per thread, warps, vec, ...).
constexpr int64_t kMaxParam = int64_t(1) << 20;

bool isPow2(int64_t v);
int log2i(int64_t v); // Requires: isPow2(v)

std::string listText(std::span<const int64_t> v);

/// A single power-of-two parameter in 1..kMaxParam.
Status checkPow2(const char *family, const char *field, int64_t v);
/// Every entry a power of two in 1..kMaxParam.
Status checkPow2List(const char *family, const char *field, std::span<const int64_t> v);
/// A permutation of 0..n-1.
Status checkPermutation(const char *family, const char *field, std::span<const int64_t> v);
/// A rank in 1..kMaxRank.
Status checkRank(const char *family, const char *field, int64_t rank);
/// Two lists of the same length.
Status checkSameLength(const char *family, const char *fa, size_t na, const char *fb, size_t nb);
/// The warp grid of AMD's MFMA and WMMA layouts: warps_per_cta powers of two of rank 2 or 3,
/// tiles_per_warp (all 1 when empty, which it fills in) of the same rank, and a CGA of that rank.
Status checkAmdWarpGrid(const char *family, std::span<const int64_t> warpsPerCta,
                        std::vector<int64_t> &tilesPerWarp, const CgaLayout *cga);

} // namespace linlayout::spec
