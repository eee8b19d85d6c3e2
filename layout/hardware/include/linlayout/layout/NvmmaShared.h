// The NVMMA shared-memory layout (Triton's #ttg.nvmma_shared, Gluon's NVMMASharedLayout): the
// layout TMA and wgmma/tcgen05 read, with the hardware's 32/64/128-byte swizzle.
//
// As a linear layout (in dims offset, block), per CTA (shape / CTA split):
//  - The TMA box: each dim at most 256; along the contiguous dim (the last, or dim0 when
//    transposed) exactly one swizzle row, swizzle_byte_width * 8 / element_bitwidth elements.
//  - swizzle 0: the box row-major (the last dim contiguous, whatever `transposed` says), then
//    copies of the box along the last dim first.
//  - swizzle 32/64/128: a core matrix of 8 rows x one swizzle row; offset bits step its columns,
//    then its rows, row 2^i starting at column (16 bytes / element) * ((2^i / per_phase) %
//    max_phase), (per_phase, max_phase) = (4, 2), (2, 4), (1, 8). More rows fill the box (its
//    outer dims flattened row-major, which is the order the rows are stacked in), then copies of
//    the box along dim0 first. Transposed layouts build the same with dim0 moved last.
//  - fp4_padded: each 16-byte group is 8 real bytes and 8 of padding that alias them.
// It is a bijection from offsets onto each CTA's part (fp4 padding aside); blocks follow the CGA
// layout.
//
// Example: 32-byte swizzle, 16-bit, [8, 16]: offset (0,1), (0,2), (0,4), (0,8), (1,0), (2,0),
// (4,8).
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

namespace linlayout {

class LayoutSpec;

/// Parameters of an NVMMA shared layout.
class NvmmaSharedSpec {
public:
  /// The `kind` of the query format; whether the layout places elements in registers.
  static constexpr std::string_view kKind = "nvmma_shared";
  static constexpr bool kDistributed = false;
  /// Its TritonGPU attribute (see AttrFields.h): mnemonic and alias stem, reading, and
  /// printing as Triton 3.6 prints it. Ensures: parseAttr of attrText() gives the same layout.
  static constexpr AttrNames kAttr{"nvmma_shared", "", "shared"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked NVMMA shared layout.
  /// Requires: swizzleByteWidth in {0, 32, 64, 128}; elementBitwidth in {8, 16, 32, 64};
  /// 1 <= rank <= CgaLayout::kMaxRank (a swizzled layout also needs a shape of at least one core
  /// matrix when converted); fp4Padded only with 128-byte swizzle and 8-bit elements; cga of the
  /// same rank.
  /// Ensures: toLinearLayout over a shape holding a core matrix is a bijection per CTA.
  /// Example: make(128, 16, 2, false) -> ok; make(48, 16, 2, false) -> "nvmma_shared:
  /// swizzle_byte_width is 48, expected 0, 32, 64 or 128".
  static Expected<NvmmaSharedSpec> make(int64_t swizzleByteWidth, int64_t elementBitwidth,
                                        int64_t rank, bool transposed, bool fp4Padded = false,
                                        std::optional<CgaLayout> cga = std::nullopt);

  int rank() const { return rank_; }
  int swizzleByteWidth() const { return swizzleByteWidth_; }
  int elementBitwidth() const { return elementBitwidth_; }
  bool transposed() const { return transposed_; }
  bool fp4Padded() const { return fp4Padded_; }
  const CgaLayout &cga() const { return cga_; }
  /// The same layout with CTA split `cga` (see CtaSplit.h). Requires: cga.rank() == rank().
  Expected<NvmmaSharedSpec> withCga(const CgaLayout &cga) const;

  /// The linear layout over `shape` (see the note at the top of this file and toLinearLayout in
  /// LayoutSpec.h). Requires: shape has rank() entries, each a power of two >= 1.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  friend bool operator==(const NvmmaSharedSpec &, const NvmmaSharedSpec &) = default;

private:
  NvmmaSharedSpec() = default;
  int swizzleByteWidth_ = 0, elementBitwidth_ = 16, rank_ = 2;
  bool transposed_ = false, fp4Padded_ = false;
  CgaLayout cga_ = CgaLayout::single(2);
};

} // namespace linlayout
