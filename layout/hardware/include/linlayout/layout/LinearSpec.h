// Layouts given directly by their bases: Gluon's DistributedLinearLayout (#ttg.linear) and
// SharedLinearLayout (#ttg.shared_linear).
//
// A distributed linear spec maps register, lane, warp, block bases (each basis one component per
// tensor dimension) onto a tensor of `shape`; to_linear with the same shape returns exactly those
// bases. A shared linear spec maps offset and block bases; its shape is implied by the bases
// (twice the largest component per dimension).
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

using BasisList = std::vector<std::vector<int64_t>>;

/// An explicit distributed linear layout.
class LinearSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "linear";
  static constexpr bool kDistributed = true;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"linear", "", "linear"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked distributed linear layout.
  /// Requires: 1 <= rank(shape) <= CgaLayout::kMaxRank; shape entries powers of two; every basis
  /// has rank components, each 0 or a value below shape[d]; the bases together reach every
  /// element of `shape` (surjective); at most 64 bits in total.
  /// Example: make({{0,1}}, {{0,2},{0,4},{1,0},{2,0},{4,0}}, {}, {}, {8, 8}) -> ok.
  static Expected<LinearSpec> make(BasisList regBases, BasisList laneBases, BasisList warpBases,
                                   BasisList blockBases, std::vector<int64_t> shape);

  int rank() const { return int(shape_.size()); }
  const BasisList &regBases() const { return reg_; }
  const BasisList &laneBases() const { return lane_; }
  const BasisList &warpBases() const { return warp_; }
  const BasisList &blockBases() const { return block_; }
  const std::vector<int64_t> &shape() const { return shape_; }

  /// The CTA split (see CtaSplit.h): the number of CTAs, the split as a CgaLayout where one exists
  /// (never: block bases are free-form), the block bases in this layout's rank, and the same layout
  /// with split `cga`.
  int64_t numCtas() const;
  std::optional<CgaLayout> cgaSplit() const;
  std::vector<std::vector<int64_t>> ctaBases() const;
  Expected<LinearSpec> withCga(const CgaLayout &cga) const;

  /// The layout with these bases over `shape`. Requires: shape == this->shape() (Triton checks
  /// the same).
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  friend bool operator==(const LinearSpec &, const LinearSpec &) = default;

private:
  LinearSpec() = default;
  BasisList reg_, lane_, warp_, block_;
  std::vector<int64_t> shape_;
};

/// An explicit shared-memory linear layout.
class SharedLinearSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "shared_linear";
  static constexpr bool kDistributed = false;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"shared_linear", "", "shared"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked shared linear layout.
  /// Requires: at least one offset basis; all bases have the same rank 1..CgaLayout::kMaxRank;
  /// components 0 or below 2^20... (each a value, not necessarily a power of two); alignment a
  /// power of two >= 1; the map from (offset, block) is onto its implied shape.
  static Expected<SharedLinearSpec> make(BasisList offsetBases, BasisList blockBases,
                                         int64_t alignment = 16);

  int rank() const { return int(offset_.front().size()); }
  const BasisList &offsetBases() const { return offset_; }
  const BasisList &blockBases() const { return block_; }
  int64_t alignment() const { return alignment_; }

  /// The CTA split (see CtaSplit.h): the number of CTAs, no CgaLayout (block bases are
  /// free-form), the block bases, and the same layout with split `cga`.
  int64_t numCtas() const;
  std::optional<CgaLayout> cgaSplit() const;
  std::vector<std::vector<int64_t>> ctaBases() const;
  Expected<SharedLinearSpec> withCga(const CgaLayout &cga) const;
  /// The implied shape: per dimension, twice the largest component (1 when all are 0)... rounded
  /// up to a power of two.
  std::vector<int64_t> shape() const;

  /// The layout with these bases. Requires: shape == this->shape().
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  friend bool operator==(const SharedLinearSpec &, const SharedLinearSpec &) = default;

private:
  SharedLinearSpec() = default;
  BasisList offset_, block_;
  int64_t alignment_ = 16;
};

} // namespace linlayout
