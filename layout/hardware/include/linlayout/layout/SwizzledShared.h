// The swizzled shared-memory layout (Triton's #ttg.swizzled_shared, the older #triton_gpu.shared,
// Gluon's SwizzledSharedLayout): elements are stored row by row along order[0] (the columns),
// and the columns of row r are XOR-ed in groups of `vec` with the phase (r / per_phase) %
// max_phase, so that a column of a tile falls into different banks.
//
// As a linear layout (in dims offset, block; out dims dim0..dim{rank-1}), per CTA (shape / CTA
// split): offset bits first step the columns (order[0]) 1, 2, 4, ..., then the rows (order[1]):
// row 2^i starts at column (vec * ((2^i / per_phase) % max_phase)) % columns; then the remaining
// dims in order. It is a bijection from offsets onto each CTA's part; blocks follow the CGA
// layout.
//
// Example: vec 2, per_phase 1, max_phase 4, order [1, 0] on [4, 8]: offset (0,1), (0,2), (0,4),
// (1,2), (2,4).
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

/// Parameters of a swizzled shared layout.
class SwizzledSharedSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "swizzled_shared";
  static constexpr bool kDistributed = false;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"swizzled_shared", "shared", "shared"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked swizzled shared layout.
  /// Requires: vec, perPhase, maxPhase powers of two >= 1 (at most 2^20); order a permutation of
  /// 0..rank-1 with 1 <= rank <= CgaLayout::kMaxRank; cga of the same rank.
  /// Ensures: toLinearLayout is a bijection from offsets onto each CTA's part.
  /// Example: make(8, 4, 2, {1, 0}) -> ok; make(3, 1, 1, {1, 0}) -> "swizzled_shared: vec is 3,
  /// expected a power of two between 1 and 1048576".
  static Expected<SwizzledSharedSpec> make(int64_t vec, int64_t perPhase, int64_t maxPhase,
                                           std::vector<int64_t> order,
                                           std::optional<CgaLayout> cga = std::nullopt);

  int rank() const { return int(order_.size()); }
  int64_t vec() const { return vec_; }
  int64_t perPhase() const { return perPhase_; }
  int64_t maxPhase() const { return maxPhase_; }
  const std::vector<int64_t> &order() const { return order_; }
  const CgaLayout &cga() const { return cga_; }
  /// The same layout with CTA split `cga` (see CtaSplit.h). Requires: cga.rank() == rank().
  Expected<SwizzledSharedSpec> withCga(const CgaLayout &cga) const;

  /// The linear layout over `shape` (see the note at the top of this file and toLinearLayout in
  /// LayoutSpec.h). Requires: shape has rank() entries, each a power of two >= 1.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  friend bool operator==(const SwizzledSharedSpec &, const SwizzledSharedSpec &) = default;

private:
  SwizzledSharedSpec() = default;
  int64_t vec_ = 1, perPhase_ = 1, maxPhase_ = 1;
  std::vector<int64_t> order_;
  CgaLayout cga_ = CgaLayout::single(1);
};

} // namespace linlayout
