// The tensor-memory layout of block scales for tcgen05.mma's scaled kinds (Triton's
// #ttng.tensor_memory_scales_encoding, Gluon's TensorMemoryScalesLayout).
//
// As TensorMemory.h: in dims `row` (128) and `col`, out dims dim0, dim1. PTX fixes the tile: 32
// rows of 4 scales (one 32-bit column holds 4 one-byte scales, so a column bit is a scale),
// repeated identically for the 4 warps' row groups (rows 32 and 64 are zero: broadcast), and the
// next 32 tensor rows in the next 4 columns; tiles follow along the columns, M first, then N;
// then the CTA split, M then N. Parts of the tile a smaller tensor does not reach are zero.
//
// Example: over 128x4, row bases (1,0) .. (16,0) (0,0) (0,0), column bases (0,1) (0,2) (32,0)
// (64,0).
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

/// Parameters of a tensor-memory scales layout: only its CTA split.
class TensorMemoryScalesSpec {
public:
  static constexpr std::string_view kKind = "tensor_memory_scales";
  static constexpr bool kDistributed = false;
  static constexpr bool kTensorMemory = true;
  /// `#ttng.tensor_memory_scales_encoding<>` (with CTASplitM, CTASplitN when not 1).
  /// Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"tensor_memory_scales_encoding", "", "tmem_scales", "ttng"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// Requires: ctaSplitM, ctaSplitN powers of two up to 2^8. Ensures: the accessors return them.
  static Expected<TensorMemoryScalesSpec> make(int64_t ctaSplitM = 1, int64_t ctaSplitN = 1);

  int rank() const { return 2; }
  int64_t ctaSplitM() const { return splitM_; }
  int64_t ctaSplitN() const { return splitN_; }

  /// The CTA split, as TensorMemorySpec's.
  int64_t numCtas() const { return splitM_ * splitN_; }
  std::optional<CgaLayout> cgaSplit() const;
  std::vector<std::vector<int64_t>> ctaBases() const;
  Expected<TensorMemoryScalesSpec> withCga(const CgaLayout &cga) const;

  /// The layout (row, col) -> (dim0, dim1), as Triton 3.6 builds it.
  /// Requires: shape of rank 2, powers of two, divisible by the CTA split.
  /// Ensures: in dims row (128) and col; out dims of sizes `shape`.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  friend bool operator==(const TensorMemoryScalesSpec &, const TensorMemoryScalesSpec &) = default;

private:
  TensorMemoryScalesSpec() = default;
  int64_t splitM_ = 1, splitN_ = 1;
};

} // namespace linlayout
