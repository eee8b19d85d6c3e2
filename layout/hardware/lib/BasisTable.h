// A growable, unbounded-bit form of a tensor layout, used while a hardware layout spec is being
// converted (private to hardware/). It mirrors the way Triton builds these layouts: named input
// dimensions with explicit bases, output dimensions dim0..dim{rank-1} kept in a construction
// order that decides which dimension grows first, products, and the two shape fit-ups
// ("not smaller than" adds registers/offsets, "not larger than" zeroes the largest bases).
// Intermediate tables may exceed LinearLayout's 64-bit limits; toLayout() checks them.
#pragma once

#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/DimName.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace linlayout::spec {

class BasisTable {
public:
  using Basis = std::vector<int64_t>; // one component per tensor dimension

  /// A table with no input dims over `rank` tensor dims of size 1 (in no particular order yet).
  explicit BasisTable(int rank) : rank_(rank), outBits_(size_t(rank), 0) {}

  int rank() const { return rank_; }
  /// log2 of the size of tensor dim d.
  int outBits(int d) const { return outBits_[size_t(d)]; }
  const std::vector<int> &outOrder() const { return outOrder_; }
  /// The bases of `in`, empty when the table has no such dim.
  const std::vector<Basis> &bases(DimName in) const;
  std::vector<Basis> &mutableBases(DimName in); // adds the dim when missing

  /// Makes tensor dim d known to the order (appended) without changing its size.
  void touch(int d);
  /// Triton's `*= identity1D(size, in, dim d)`: log2(size) new bases of `in` stepping dim d above
  /// its current size. Requires: size a power of two.
  void identity(DimName in, int64_t size, int d);
  /// Triton's `*= zeros1D(size, in, dim d)`: log2(size) zero bases of `in`.
  void zeros(DimName in, int64_t size, int d);
  /// Triton's product `*this * outer`: outer's bases shifted above this table's sizes.
  void multiply(const BasisTable &outer);
  /// Reorders the output dims (the construction order); Requires: a permutation of 0..rank-1.
  void setOutOrder(std::vector<int> order) { outOrder_ = std::move(order); }

  /// Grows each dim (in outOrder) to at least shape[d] with bases of the first input dim.
  void ensureNotSmaller(std::span<const int64_t> shape);
  /// Shrinks each dim to at most shape[d] as Triton does: zeroes its largest components first
  /// (earlier input dims and bases first among equals), one halving each, until the dim fits.
  /// With removeRegisters, register bases are dropped instead of zeroed. An error (the table
  /// is then unspecified) where a component to cut is not a power of two, or where one still
  /// points past the shape afterwards (bases that repeat one another).
  Status ensureNotLarger(std::span<const int64_t> shape, bool removeRegisters = false);
  /// Recomputes each dim's size as the smallest power of two above every component.
  void inferSizes();

  /// The linear layout with out dims dim0..dim{rank-1}; in dims as added (missing dims of
  /// `inNames` are added empty, in that order first).
  Expected<LinearLayout> toLayout(std::span<const DimName> inNames) const;

  /// The CTA-tile table of a CGA layout (in dim block, components in tile units).
  static BasisTable fromCga(const CgaLayout &cga);

private:
  int rank_;
  std::vector<int> outBits_;
  std::vector<int> outOrder_;
  std::vector<std::pair<DimName, std::vector<Basis>>> ins_;
};

/// Triton's combineCtaCgaWithShape: fits the CTA layout to shape / CGA size and places the CGA
/// tiles above it.
/// Returns the result's linear layout (toLayout(inNames)), or an error where the CGA layout does
/// not fit the shape (see ensureNotLarger).
Expected<LinearLayout> combineCtaCga(BasisTable cta, const CgaLayout &cga,
                                     std::span<const int64_t> shape,
                                     std::span<const DimName> inNames);

/// Triton's identityStandardND: identity bases of `in` over `sizes`, dims walked in `order`.
void identityND(BasisTable &t, DimName in, std::span<const int64_t> sizes,
                std::span<const int64_t> order);

/// shape[d] / min(shape[d], ctaSplitNum(d)): the part of the tensor one CTA holds, as Triton's
/// shared layouts reckon it.
std::vector<int64_t> shapePerCta(const CgaLayout &cga, std::span<const int64_t> shape);

/// Bases of `in` over `counts` (dims walked in `order`), zero along kDim: the warps (or lanes) of
/// a dot operand's parent along the non-K dims; along K they broadcast.
void broadcastAlongK(BasisTable &t, DimName in, std::span<const int64_t> counts,
                     std::span<const int64_t> order, int kDim);

/// [rank-1, ..., 0] (row-major) or with the first two swapped (column-major): Triton's
/// getMatrixOrder.
std::vector<int64_t> matrixOrder(int rank, bool rowMajor);

} // namespace linlayout::spec
