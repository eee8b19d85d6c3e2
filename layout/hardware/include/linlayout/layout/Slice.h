// The slice layout (Triton's #ttg.slice, Gluon's SliceLayout): the layout of a tensor obtained by
// removing dimension `dim` of a parent-layout tensor (e.g. the result of a reduction along dim).
//
// As a linear layout: the parent's layout over `shape` with a size-1 dim inserted at `dim` (so
// every basis that moved along `dim` is zero), with output `dim` dropped and the register bases
// that are now zero removed (a register that would only repeat an element goes away). Lanes,
// warps and blocks keep all their bits; those that moved along `dim` broadcast.
//
// Example: slice dim 1 of mma v2 (warps [1,1]) over [32]: register (8), (16); lane 0, 0, 1, 2, 4
// (the four lanes of a quad hold the same rows).
#pragma once

#include "linlayout/layout/AttrFields.h"
#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout {

class LayoutSpec;

/// A slice of a distributed parent layout.
class SliceSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "slice";
  static constexpr bool kDistributed = true;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"slice", "", "slice"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked slice.
  /// Requires: parent is distributed with rank >= 2; 0 <= dim < parent rank.
  /// Ensures: rank() == parent rank - 1; for each (lane, warp, block) the elements its registers
  /// hold are the parent's (over the shape with dim re-inserted as 1) with dim dropped.
  /// Example: make(2, blocked of rank 2) -> "slice: dim 2 is out of range for a parent of rank 2".
  static Expected<SliceSpec> make(int64_t dim, const LayoutSpec &parent);

  /// parent rank - 1.
  int rank() const;
  int dim() const { return dim_; }
  const LayoutSpec &parent() const { return *parent_; }

  /// The CTA split (see CtaSplit.h): the number of CTAs, the split as a CgaLayout where the parent
  /// has one (its split with dim dropped), the block bases in this layout's rank, and the same
  /// layout with split `cga`.
  int64_t numCtas() const;
  std::optional<CgaLayout> cgaSplit() const;
  std::vector<std::vector<int64_t>> ctaBases() const;
  Expected<SliceSpec> withCga(const CgaLayout &cga) const;

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
