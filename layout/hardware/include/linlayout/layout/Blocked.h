// The blocked layout (Triton's #ttg.blocked, Gluon's BlockedLayout): each thread holds a small
// block of contiguous elements, threads of a warp and warps of a CTA tile the tensor, dimensions
// walked from order[0] (fastest) to order[rank-1].
//
// As a linear layout (in dims register, lane, warp, block; out dims dim0..dim{rank-1}):
// for each level in turn (register from size_per_thread, lane from threads_per_warp, warp from
// warps_per_cta), the bits of that level step through dimensions order[0], order[1], ... with
// unit strides inside the level's tile; the CTA tile is their product (tile[d] = size_per_thread[d]
// * threads_per_warp[d] * warps_per_cta[d]). A shape larger than the tile repeats it with extra
// register bits (outermost); a smaller shape broadcasts: the bases that would step past the shape
// become zero (highest first). Blocks follow the CGA layout.
//
// Example: size_per_thread [2,2], threads_per_warp [8,4], warps_per_cta [1,2], order [1,0] on
// 16x16: register (0,1),(1,0); lane (0,2),(0,4),(2,0),(4,0),(8,0); warp (0,8). Row 0 reads
// T0 T0 T1 T1 T2 T2 T3 T3 T32 T32 ...
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

/// Parameters of a blocked layout.
class BlockedSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "blocked";
  static constexpr bool kDistributed = true;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"blocked", "", "blocked"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked blocked layout.
  /// Requires: the four lists have the same length rank, 1 <= rank <= CgaLayout::kMaxRank; every
  /// size is a power of two >= 1 (at most 2^20); order is a permutation of 0..rank-1; cga has the
  /// same rank.
  /// Ensures: the accessors return the arguments; toLinearLayout is surjective for every shape,
  /// and injective exactly when shape[d] >= tile[d] * cga.splitNum(d) for all d and no CGA basis
  /// is zero.
  /// Example: make({1, 8}, {16, 2}, {1, 1}, {1, 0}) -> ok;
  ///          make({1, 8}, {16, 2}, {1, 1}, {1, 0, 2}) -> "blocked: size_per_thread has 2
  ///          entries but order has 3".
  static Expected<BlockedSpec> make(std::vector<int64_t> sizePerThread,
                                    std::vector<int64_t> threadsPerWarp,
                                    std::vector<int64_t> warpsPerCta, std::vector<int64_t> order,
                                    std::optional<CgaLayout> cga = std::nullopt);

  int rank() const { return int(order_.size()); }
  const std::vector<int64_t> &sizePerThread() const { return sizePerThread_; }
  const std::vector<int64_t> &threadsPerWarp() const { return threadsPerWarp_; }
  const std::vector<int64_t> &warpsPerCta() const { return warpsPerCta_; }
  const std::vector<int64_t> &order() const { return order_; }
  const CgaLayout &cga() const { return cga_; }
  /// The same layout with CTA split `cga` (see CtaSplit.h). Requires: cga.rank() == rank().
  Expected<BlockedSpec> withCga(const CgaLayout &cga) const;

  /// The linear layout over `shape` (see the note at the top of this file and toLinearLayout in
  /// LayoutSpec.h). Requires: shape has rank() entries, each a power of two >= 1.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  /// As the parent of a dot operand (DotOperand.h): whether operand `operandIndex` (0 or 1)
  /// may have `kWidth` (an error naming the offending value), and the operand's linear layout
  /// over `shape` (K is dim rank-1 of A, dim rank-2 of B).
  Status checkOperand(int64_t operandIndex, int64_t kWidth) const;
  Expected<LinearLayout> operandLayout(int operandIndex, int kWidth,
                                       std::span<const int64_t> shape) const;

  friend bool operator==(const BlockedSpec &, const BlockedSpec &) = default;

private:
  BlockedSpec() = default;
  std::vector<int64_t> sizePerThread_, threadsPerWarp_, warpsPerCta_, order_;
  CgaLayout cga_ = CgaLayout::single(1);
};

} // namespace linlayout
