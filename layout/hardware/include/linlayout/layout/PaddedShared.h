// The padded shared-memory layout (Triton's #ttg.padded_shared, Gluon's PaddedSharedLayout): a
// linear layout from (offset, block) to the tensor, whose offsets are then spread out in memory
// by inserting `padding` elements after every `interval` elements, for each pair.
//
// The map is not linear, so it is held as its linear part (the `linear component`: offset and
// block bases, each basis moving one dimension by a power of two, no broadcast) plus the pairs.
// toLinearLayout answers the linear part, as Triton's; paddedOffset turns an offset into the
// element address Triton computes:
//   address(offset) = offset + sum over pairs of (offset >> log2 interval) << log2 padding.
//
// Example: pairs [[32, 4]] over a 64x32 row-major tile: offset 32 (row 1) is at address 36, so
// rows start 36 elements apart and a column access no longer hits one bank.
#pragma once

#include "linlayout/layout/AttrFields.h"
#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout {

class LayoutSpec;

/// One interval/padding pair: `padding` elements after every `interval` elements.
struct PadInterval {
  int64_t interval = 1;
  int64_t padding = 1;
  friend bool operator==(const PadInterval &, const PadInterval &) = default;
};

/// The element address of `offset` under `pads` (no pairs: the offset itself).
/// Requires: offset >= 0; every interval and padding a power of two.
/// Ensures: strictly increasing in offset; paddedOffset(o) - o == sum of (o / interval) * padding.
int64_t paddedOffset(int64_t offset, std::span<const PadInterval> pads);

/// Parameters of a padded shared layout.
class PaddedSharedSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "padded_shared";
  static constexpr bool kDistributed = false;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"padded_shared", "", "shared"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked padded layout (Triton's linear component: block bases in tensor coordinates, as
  /// the attribute's `block`; Gluon's cga_layout is in CTA tiles, see tools/query/SpecJson.cpp).
  /// Requires: at least one pair; intervals and paddings powers of two, 1 to 2^31;
  /// no interval twice; shape of rank 1..CgaLayout::kMaxRank, powers of two; every basis of
  /// that rank, moving one dimension by a power of two inside the shape; the bases together
  /// reach each element of the shape exactly once (no broadcast, no repeat).
  /// Ensures: the accessors return the arguments.
  /// Example: make({{32, 4}}, {{0, 1}, {0, 2}, {1, 0}}, {}, {2, 4}) -> ok;
  /// make({{3, 4}}, ...) -> "padded_shared: interval 3 is not a power of two".
  static Expected<PaddedSharedSpec> make(std::vector<PadInterval> pads,
                                         std::vector<std::vector<int64_t>> offsetBases,
                                         std::vector<std::vector<int64_t>> blockBases,
                                         std::vector<int64_t> shape);

  /// Gluon's PaddedSharedLayout.with_identity_for: offsets fill `shape` along `order` (order[0]
  /// fastest), one CTA. Requires: as make; order a permutation of 0..rank-1.
  static Expected<PaddedSharedSpec> identityFor(std::vector<PadInterval> pads,
                                                std::vector<int64_t> shape,
                                                std::vector<int64_t> order);

  int rank() const { return int(shape_.size()); }
  const std::vector<PadInterval> &padding() const { return pads_; }
  const std::vector<std::vector<int64_t>> &offsetBases() const { return offset_; }
  const std::vector<std::vector<int64_t>> &blockBases() const { return block_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  /// Triton's getOrder: the dims in the order the offset bases first move them, then the rest
  /// from the last dim down.
  std::vector<int64_t> order() const;

  /// The element address of `offset` (see paddedOffset).
  int64_t paddedOffset(int64_t offset) const;
  /// Elements one CTA allocates, as Triton's getPaddedSize: the offsets, their padding, less
  /// the padding after the last element.
  int64_t paddedSize() const;

  /// The CTA split (see CtaSplit.h): the number of CTAs, no CgaLayout (block bases are in
  /// tensor coordinates), the block bases, and the same layout with split `cga`.
  int64_t numCtas() const;
  std::optional<CgaLayout> cgaSplit() const;
  std::vector<std::vector<int64_t>> ctaBases() const;
  Expected<PaddedSharedSpec> withCga(const CgaLayout &cga) const;

  /// The linear component (offset, block) -> tensor, without padding.
  /// Requires: shape == this->shape().
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  friend bool operator==(const PaddedSharedSpec &, const PaddedSharedSpec &) = default;

private:
  PaddedSharedSpec() = default;
  std::vector<PadInterval> pads_;
  std::vector<std::vector<int64_t>> offset_, block_;
  std::vector<int64_t> shape_;
};

} // namespace linlayout
