// The tensor-memory layout of Blackwell's accumulators (Triton's #ttng.tensor_memory_encoding,
// Gluon's TensorMemoryLayout): how a 2-D tensor lies in the 128 rows (TMEM lanes) and the 32-bit
// columns of tensor memory.
//
// Its linear layout goes the other way from the shared families': in dims `row` (128: the TMEM
// lane, 7 bits) and `col` (32-bit columns), out dims dim0, dim1 (the tensor's). The tensor is cut
// into blockM x blockN blocks; a block of 128 rows puts tensor row r in TMEM row r; a block of 64
// rows puts rows 0-15 in TMEM rows 0-15, rows 16-31 in 32-47, rows 32-47 in 64-79, rows 48-63 in
// 96-111 (TMEM row 16 is the 5th row bit: the next block along M when the tensor has more rows,
// else the next block along N, else nothing). `col_stride` columns hold one element (the first
// log2(col_stride) column bits are zero: an unpacked 16-bit element fills a 32-bit column). The
// remaining blocks follow along the columns, M first, then N; then the CTA split, M then N.
// Two-CTA mode with blockM 64 and CTASplitM 2 swaps the last row bit with the last column bit
// (PTX's data-path layout of cta_group::2 for M = 64).
//
// A zero at row bits 5 or 6 (rows 32, 64) is a broadcast: several warps' rows hold one element; a
// zero anywhere else marks TMEM that holds no element.
//
// Example: blockM 64, blockN 64 over 128x64: row bases (1,0) (2,0) (4,0) (8,0) (64,0) (16,0)
// (32,0), column bases (0,1) ... (0,32).
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

/// The names of tensor memory's two dimensions, the in dims of a tensor-memory layout.
DimName tmemRowDim();
DimName tmemColDim();

/// Parameters of a tensor-memory layout.
class TensorMemorySpec {
public:
  /// The `kind` of the query format; neither registers nor shared memory.
  static constexpr std::string_view kKind = "tensor_memory";
  static constexpr bool kDistributed = false;
  static constexpr bool kTensorMemory = true;
  /// Its attribute, `#ttng.tensor_memory_encoding<blockM = 128, blockN = 64, colStride = 1>` as
  /// Triton 3.6 prints it (CTASplitM, CTASplitN and twoCTAs only when not 1, 1, false); the
  /// older `unpacked = true/false` reads as colStride 2/1. Ensures: parseAttr of attrText()
  /// gives the same layout.
  static constexpr AttrNames kAttr{"tensor_memory_encoding", "", "tmem", "ttng"};
  static Expected<LayoutSpec> parseAttr(AttrFields &fields);
  std::string attrText() const;

  /// A checked tensor-memory layout, as Triton's verifier checks it.
  /// Requires: blockM 64 or 128; blockN a power of two up to 512; colStride 1, 2 or 4;
  /// ctaSplitM, ctaSplitN powers of two up to 2^8.
  /// Ensures: the accessors return the arguments.
  /// Example: make(128, 128, 1) -> ok; make(32, 128, 1) -> "tensor_memory: block[0] (blockM)
  /// is 32, expected 64 or 128".
  static Expected<TensorMemorySpec> make(int64_t blockM, int64_t blockN, int64_t colStride,
                                         int64_t ctaSplitM = 1, int64_t ctaSplitN = 1,
                                         bool twoCtas = false);

  int rank() const { return 2; }
  int64_t blockM() const { return blockM_; }
  int64_t blockN() const { return blockN_; }
  int64_t colStride() const { return colStride_; }
  int64_t ctaSplitM() const { return splitM_; }
  int64_t ctaSplitN() const { return splitN_; }
  bool twoCtas() const { return twoCtas_; }

  /// The CTA split (see CtaSplit.h): CTASplitM x CTASplitN CTAs, dim0 fastest; withCga takes
  /// only such a split (an error names any other).
  int64_t numCtas() const { return splitM_ * splitN_; }
  std::optional<CgaLayout> cgaSplit() const;
  std::vector<std::vector<int64_t>> ctaBases() const;
  Expected<TensorMemorySpec> withCga(const CgaLayout &cga) const;

  /// The layout (row, col) -> (dim0, dim1) over a tensor of `shape`, as Triton 3.6 builds it.
  /// Requires: shape of rank 2, powers of two, divisible by the CTA split, each CTA's part at
  /// least blockM rows (64 for blockM 64) and one column; two-CTA blockM 64 with a CTA split
  /// needs a column bit to swap.
  /// Ensures: in dims row (128) and col; out dims dim0, dim1 of sizes `shape`.
  Expected<LinearLayout> toLinearLayout(std::span<const int64_t> shape) const;

  friend bool operator==(const TensorMemorySpec &, const TensorMemorySpec &) = default;

private:
  TensorMemorySpec() = default;
  int64_t blockM_ = 128, blockN_ = 128, colStride_ = 1, splitM_ = 1, splitN_ = 1;
  bool twoCtas_ = false;
};

} // namespace linlayout
