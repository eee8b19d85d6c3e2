// OwnerMap: a layout turned around, element by element: for every element of the tensor, the
// hardware places that hold it. It is what the pictures draw.
//
// A distributed layout (in dims among register, lane, warp, block) places an element in a
// register of a lane of a warp of a block (CTA); a shared layout (in dims among offset, block)
// places it at an offset of a block's shared memory; a tensor-memory layout (in dims row, col)
// places it at a row and a 32-bit column of Blackwell's tensor memory. Out dims are the tensor
// dims, the first out
// dim the outermost (the row of a matrix), so elements are numbered row-major. An element held by
// several places (broadcast) has several holders; an element no input reaches has none.
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <compare>
#include <cstdint>
#include <span>
#include <vector>

namespace linlayout {

/// One place that holds an element. For a shared layout warp and lane are 0 and `index` is the
/// offset; for a distributed layout `index` is the register; for tensor memory `index` is the
/// column and the row is lane + 32 * warp (warp w % 4 is the warp that can reach that row).
struct Holder {
  uint32_t block = 0;
  uint32_t warp = 0;
  uint32_t lane = 0;
  uint64_t index = 0;
  friend auto operator<=>(const Holder &, const Holder &) = default;
};

/// The holders of every element of a layout's tensor.
/// Ensures: for every input x of the layout, the holder of x is listed under element layout(x),
/// and nothing else is listed; each element's holders are sorted ascending (block, warp, lane,
/// index) and distinct.
class OwnerMap {
public:
  /// The most input bits (and the most element bits) a map enumerates: 2^20 each.
  static constexpr int kMaxBits = 20;

  /// Enumerates every input of `layout`.
  /// Requires: in dims are among {register, lane, warp, block}, among {offset, block} or among
  /// {row, col}, not from two of these; at most kMaxBits input bits and kMaxBits output bits.
  /// Example: build(register [[0,1]], lane [[1,0]] -> dim0 2, dim1 2) holds element (1,1) at
  /// lane 1, register 1.
  static Expected<OwnerMap> build(const LinearLayout &layout);

  /// Whether the layout is a shared-memory layout (in dims offset, block).
  bool isShared() const { return shared_; }
  /// Whether the layout is a tensor-memory layout (in dims row, col).
  bool isTensorMemory() const { return tmem_; }
  /// The tensor shape: one size per out dim, outermost first.
  const std::vector<int64_t> &shape() const { return shape_; }
  int rank() const { return int(shape_.size()); }
  int64_t numElements() const { return int64_t(start_.size()) - 1; }
  /// The holders of element `e` (row-major index). Requires: 0 <= e < numElements().
  std::span<const Holder> holders(int64_t e) const {
    return {holders_.data() + start_[e], holders_.data() + start_[e + 1]};
  }
  /// Row-major index of coordinates. Requires: one in-range coordinate per dim.
  int64_t elementIndex(std::span<const int64_t> coords) const;
  /// Coordinates of a row-major index. Requires: 0 <= e < numElements().
  std::vector<int64_t> coords(int64_t e) const;

  /// Sizes of the hardware dims (1 for a dim the layout lacks).
  uint32_t lanesPerWarp() const { return lanes_; }
  uint32_t numWarps() const { return warps_; }
  uint32_t numBlocks() const { return blocks_; }
  /// Registers per thread, or offsets per block for a shared layout.
  uint64_t numIndices() const { return indices_; }
  /// Whether the layout names a lane or a warp dim (false: a single, anonymous thread).
  bool hasThreads() const { return hasThreads_; }
  /// The thread id of a holder within its block: lane + lanesPerWarp() * warp.
  uint64_t threadId(const Holder &h) const { return h.lane + uint64_t(lanes_) * h.warp; }

  /// The layout the map was built from.
  const LinearLayout &layout() const { return layout_; }

private:
  OwnerMap() = default;
  LinearLayout layout_;
  std::vector<int64_t> shape_;
  std::vector<uint64_t> start_;
  std::vector<Holder> holders_;
  uint32_t lanes_ = 1, warps_ = 1, blocks_ = 1;
  uint64_t indices_ = 1;
  bool shared_ = false;
  bool tmem_ = false;
  bool hasThreads_ = false;
};

} // namespace linlayout
