// The slice layout (Triton's #ttg.slice, Gluon's SliceLayout): the layout of a tensor obtained by
// removing dimension `dim` of a parent-layout tensor (e.g. the result of a reduction along dim).
//
// As a linear layout: take the parent's layout over the shape with a size-1 entry inserted at
// `dim`... precisely, the parent over `shape` with `dim` re-inserted at the parent's own size
// along it, drop output `dim`, and remove the register bases that became zero or duplicates of
// earlier register bases (those registers would hold the same element again). Lanes, warps and
// blocks keep their bits; the ones that only moved along `dim` broadcast.
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <span>
#include <memory>

namespace linlayout {

class LayoutSpec;

/// A slice of a distributed parent layout.
class SliceSpec {
public:
  /// A checked slice.
  /// Requires: parent is distributed with rank >= 2; 0 <= dim < parent rank.
  /// Example: make(2, blocked of rank 2) -> "slice: dim 2 is out of range for a parent of rank 2".
  static Expected<SliceSpec> make(int64_t dim, const LayoutSpec &parent);

  /// parent rank - 1.
  int rank() const;
  int dim() const { return dim_; }
  const LayoutSpec &parent() const { return *parent_; }

  /// The linear layout over `shape` (see the note at the top of this file and toLinearLayout in
  /// LayoutSpec.h). Requires: shape has rank() entries, each a power of two >= 1.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  friend bool operator==(const SliceSpec &a, const SliceSpec &b);

private:
  SliceSpec() = default;
  int dim_ = 0;
  std::shared_ptr<const LayoutSpec> parent_; // never null; immutable, so sharing is a value
};

} // namespace linlayout
