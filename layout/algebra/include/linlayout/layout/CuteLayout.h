// CuteLayout: CuTe's `shape:stride` layouts, optionally composed with a `Swizzle<B,M,S>`, read
// into linear layouts and printed back from them.
//
// What a CuTe layout maps, and how it becomes a linear layout:
//  - A CuTe layout maps a coordinate of its (nested) shape to an integer offset: the sum of each
//    leaf coordinate times its stride, then the swizzle, if any. Coordinates are numbered
//    colexicographically (the first mode, and within a mode the first leaf, varies fastest).
//  - The linear layout has one input dimension per top-level mode (`dim0`, `dim1`, ... unless
//    named otherwise) and one output dimension, `offset`. The bits of mode i's index are in dim i,
//    inner leaves lowest, so the packed input word is CuTe's flat colexicographic index. Its size
//    is the smallest power of two above every offset (or a size the caller gives).
//  - Such a map is F2-linear exactly when every leaf has a power-of-two size and the offsets of
//    the single index bits (stride * 2^j for bit j of a leaf) share no bit: then CuTe's sum never
//    carries and equals the XOR of those offsets. Zero strides (broadcast) and size-1 leaves (any
//    stride) are fine; a stride that is not a power of two is fine only on a leaf of size 2 whose
//    offset bits no other step uses. A swizzle is an F2-linear bijection, so it keeps linearity.
//  - The shared-memory form (what Triton calls a shared layout and what `linlayout show` draws) is
//    the inverse map, `offset` -> (dim0, dim1, ...): it exists when the CuTe layout is a bijection
//    onto [0, 2^n).
//  - Printing goes the other way: the input dims become the top-level modes (names are lost), the
//    output dims, the first lowest, become the offset (for out dims dim0 of size M and dim1 that is
//    dim0 + M * dim1, CuTe's colexicographic index of a tile coordinate). A layout prints when its
//    nonzero columns share no bit, or do after one swizzle, which is then found by search.
#pragma once

#include "linlayout/layout/DimName.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout {

/// A node of a CuTe layout: a leaf (size and stride) or a tuple of nodes.
struct CuteNode {
  int64_t size = 1;               ///< a leaf's extent
  int64_t stride = 0;             ///< a leaf's stride
  std::vector<CuteNode> children; ///< a tuple's modes (empty for a leaf)
  bool isTuple = false;

  friend bool operator==(const CuteNode &, const CuteNode &) = default;
};

/// CuTe's `Swizzle<B,M,S>`: offset ^ ((offset & (2^B - 1) << (M + max(0,S))) >> S), where a
/// negative S shifts left. CuTe requires |S| >= B, which makes it its own inverse.
struct CuteSwizzle {
  int bits = 0;  ///< B
  int base = 0;  ///< M
  int shift = 0; ///< S

  /// The swizzled offset.
  uint64_t apply(uint64_t offset) const;
  friend bool operator==(const CuteSwizzle &, const CuteSwizzle &) = default;
};

/// A CuTe layout: a shape:stride tree, optionally behind a swizzle (`Sw<B,M,S> o L`).
struct CuteLayout {
  CuteNode root; ///< a tuple of the top-level modes, or a single leaf (`8:1`)
  std::optional<CuteSwizzle> swizzle;

  /// The text CuTe prints, without its static-integer underscores: `(4,8):(8,1)`,
  /// `Sw<3,4,3> o ((2,4),8):((1,16),2)`.
  /// Ensures: parseCuteLayout(toString()) == *this.
  std::string toString() const;
  friend bool operator==(const CuteLayout &, const CuteLayout &) = default;
};

/// Reads CuTe's notation: `(4,8):(8,1)`, nested tuples `((2,4),8):((1,16),2)`, a shape alone
/// `(4,8)` (CuTe's default column-major strides), static integers `_8`, and a swizzle in front:
/// `Swizzle<3,4,3> o L`, `Sw<3,4,3> o L`, `Sw<3,4,3> o _0 o L` (an offset of 0; `∘` works too).
/// Requires: sizes >= 1, strides >= 0, a stride tree congruent to the shape tree, |S| >= B.
/// Errors name the column and what was expected there.
Expected<CuteLayout> parseCuteLayout(std::string_view text);

/// How the linear layout of a CuTe layout is named and sized.
struct CuteReadOptions {
  /// One name per top-level mode; empty: dim0, dim1, ...
  std::vector<DimName> inDims;
  DimName outDim = DimName::offset();
  /// The offset's size; nullopt: the smallest power of two above every offset.
  std::optional<uint64_t> outSize;
};

/// The linear map of a CuTe layout (see the note at the top of this file).
/// Requires: every leaf size a power of two; the offsets of single index bits share no bit
/// (otherwise the error names two such bits and an index where CuTe's sum is not their XOR);
/// at most 16 top-level modes and 64 bits each side.
/// Ensures: apply(i) == the CuTe layout's offset of colexicographic index i, for every i.
/// Example: `(4,8):(8,1)` gives dim0 bases [8, 16], dim1 bases [1, 2, 4] into offset 32.
Expected<LinearLayout> cuteToLinear(const CuteLayout &layout, const CuteReadOptions &options = {});

/// The shared-memory form: the inverse of cuteToLinear, `offset` -> dim0, dim1, ...
/// Requires: cuteToLinear succeeds and is a bijection (the error names an index that shares
/// offset 0 with index 0, or how many offsets are reached, otherwise).
/// Ensures: cuteToShared(l).then(cuteToLinear(l)) is the identity.
Expected<LinearLayout> cuteToShared(const CuteLayout &layout);

/// A CuTe layout with the same map as `layout` (see the note at the top of this file), without a
/// swizzle when one is not needed.
/// Requires: the nonzero columns share no bit, or do after some Swizzle<B,M,S> within the offset's
/// bits (the error names two columns that share a bit otherwise).
/// Ensures: cuteToLinear(result, {layout's in dims, its first out dim, 2^totalOutBits}) equals
/// layout.flattenOuts().
Expected<CuteLayout> linearToCute(const LinearLayout &layout);

/// linearToCute of the inverse of a shared-memory layout (offset -> tensor dims).
/// Requires: layout is invertible.
Expected<CuteLayout> sharedToCute(const LinearLayout &layout);

} // namespace linlayout
