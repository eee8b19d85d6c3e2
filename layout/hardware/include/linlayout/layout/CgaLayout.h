// How the CTAs (blocks) of a cooperative grid array split a tensor: Triton's CGA layout.
//
// A CGA layout is a linear map from the `block` input dimension onto CTA-tile coordinates: basis i
// (one component per tensor dimension) says which tile block 2^i owns. A zero basis means that
// block bit broadcasts (several CTAs hold the same tile). Along dimension d the tensor is cut into
// splitNum(d) = 2 * (largest component along d) tiles (1 when every component is 0), and each CTA
// lays its own layout out over shape[d] / splitNum(d) elements. Two blocks may own the same tile.
//
// The older form (`CTAsPerCGA`, `CTASplitNum`, `CTAOrder`) converts to bases: walking dimensions
// from `cta_order[0]` (fastest) on, first log2(split[d]) bases step through the tiles of d, then
// log2(ctas[d] / split[d]) zero bases broadcast.
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace linlayout {

/// The older, per-dimension form of a CTA split, kept so a printer can write it back.
struct CtaSplit {
  std::vector<int64_t> ctasPerCga;
  std::vector<int64_t> ctaSplitNum;
  std::vector<int64_t> ctaOrder;
  friend bool operator==(const CtaSplit &, const CtaSplit &) = default;
};

/// The CTA split of a layout: one basis per block bit, each `rank` tile coordinates.
/// Ensures: toLinearLayout() maps block 2^i to bases()[i]; the default value is one CTA.
class CgaLayout {
public:
  /// The largest number of block bits accepted.
  static constexpr int kMaxBlockBits = 16;
  /// The largest tensor rank any layout spec accepts.
  static constexpr int kMaxRank = 8;

  /// One CTA of rank `rank` (no bases).
  static CgaLayout single(int rank);

  /// A CGA layout from bases.
  /// Requires: 1 <= rank <= kMaxRank; every basis has `rank` components; each component is 0 or
  /// a power of two below 2^kMaxBlockBits; at most kMaxBlockBits bases; every tile of the
  /// splitNum grid is owned by some block (the map is surjective).
  /// Example: fromBases({{0, 1}, {1, 0}}, 2): block 1 owns tile (0,1), block 2 tile (1,0).
  static Expected<CgaLayout> fromBases(std::vector<std::vector<int64_t>> bases, int rank);

  /// A CGA layout from the older form.
  /// Requires: three lists of `rank` entries; powers of two; ctaSplitNum[d] divides ctasPerCga[d];
  /// ctaOrder a permutation of 0..rank-1.
  /// Ensures: the result remembers the older form (legacySplit()).
  /// Example: ctas [2,2], split [2,1], order [1,0] -> bases {{0,0},{1,0}}.
  static Expected<CgaLayout> fromSplit(std::span<const int64_t> ctasPerCga,
                                       std::span<const int64_t> ctaSplitNum,
                                       std::span<const int64_t> ctaOrder);

  int rank() const { return rank_; }
  const std::vector<std::vector<int64_t>> &bases() const { return bases_; }
  /// The number of CTAs, 2^bases().size().
  int64_t numCtas() const { return int64_t(1) << bases_.size(); }
  /// How many tiles dimension d is cut into. Requires: 0 <= d < rank().
  int64_t splitNum(int d) const;
  /// Triton's CTASplitNum: 2 for every basis whose first non-zero component is along d, so a
  /// basis repeated counts twice. Triton's shared layouts divide the shape by it; it equals
  /// splitNum(d) unless bases repeat. Requires: 0 <= d < rank().
  int64_t ctaSplitNum(int d) const;
  /// The older form, when the layout was built from it.
  const std::optional<CtaSplit> &legacySplit() const { return legacy_; }
  /// Whether there is only one CTA.
  bool isSingle() const { return bases_.empty(); }

  /// The map block -> (dim0, ..., dim{rank-1}) in tile units; out dim d has size splitNum(d).
  LinearLayout toLinearLayout() const;

  /// The same split with dimension `dim` dropped from every basis (as a slice layout sees it).
  /// Requires: 0 <= dim < rank().
  CgaLayout dropDim(int dim) const;
  /// The same split with dimension `dim` zeroed in every basis (as a dot operand sees it along K).
  CgaLayout zeroDim(int dim) const;

  /// Equal when the bases agree (the older form is presentation only).
  friend bool operator==(const CgaLayout &a, const CgaLayout &b) {
    return a.rank_ == b.rank_ && a.bases_ == b.bases_;
  }

private:
  CgaLayout(std::vector<std::vector<int64_t>> bases, int rank)
      : bases_(std::move(bases)), rank_(rank) {}
  std::vector<std::vector<int64_t>> bases_;
  int rank_ = 0;
  std::optional<CtaSplit> legacy_;
};

} // namespace linlayout
