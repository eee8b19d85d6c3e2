// LinearLayout: an F2-linear map between named, power-of-two-sized dimensions.
//
// Semantics (the same as Triton's LinearLayout, so that layouts copied from Triton mean the same
// thing here):
//  - A layout has ordered input dimensions (e.g. register, lane, warp, block) and ordered output
//    dimensions (e.g. dim0, dim1). Every size is a power of two, 2^k, so a dimension is k bits.
//  - Basis i of input dimension d is the output of the input whose only set bit is bit i of d.
//    The output of any input is the XOR of the bases of its set bits: L(x ^ y) = L(x) ^ L(y).
//  - Packed form: the bits of all input dimensions, first dimension in the lowest bits, form one
//    `uint64_t` input word; likewise for outputs. So the first dimension is the most minor, as in
//    Triton's flattenIns/flattenOuts and reshapeIns/reshapeOuts. At most 64 input bits and 64
//    output bits in total, at most 63 bits per dimension, at most kMaxDims dimensions per side.
//  - Output sizes are explicit. A layout is surjective when every output is reached, injective
//    when no two inputs share an output (no broadcast). Free input bits (those that change
//    nothing) are broadcast: the same element held by several registers/lanes/warps/blocks.
//
// The matrix is stored as one packed output word per input bit (a column of the F2 matrix), inline
// in the value: no heap allocation, copying is a memcpy, and `apply`, `then`, `invert` allocate
// nothing. Operations that can fail on caller input return `Expected`; partial operations whose
// "no answer" is a normal outcome (divideLeft, quotient, tryInvert) return `std::optional`.
//
// Composition order is in the name: `a.then(b)` is x -> b(a(x)) (Triton's `a.compose(b)`).
#pragma once

#include "linlayout/layout/DimName.h"
#include "linlayout/layout/Expected.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace linlayout {

/// A dimension and its size (a power of two).
struct DimSize {
  DimName name;
  uint64_t size;
};

/// A dimension and its size as log2.
struct DimBits {
  DimName name;
  int bits;
};

/// The bases of one input dimension, as given by a user: basis i is the output (one component
/// per output dimension, in order) of input 2^i.
struct InDimBases {
  DimName name;
  std::vector<std::vector<uint64_t>> bases;
};

/// A named value of one dimension, for `apply`.
struct DimValue {
  DimName name;
  uint64_t value;
};

class DimValues;

/// Per input dimension: a mask of the bits that never change the output (broadcast bits).
struct DimMask {
  DimName name;
  uint64_t mask;
};

class LinearLayout {
public:
  static constexpr int kMaxBits = 64;
  static constexpr int kMaxDims = 16;
  static constexpr int kMaxDimBits = 63;

  // ---------------------------------------------------------------------------------------------
  // Construction
  // ---------------------------------------------------------------------------------------------

  /// The layout with no input and no output dimensions.
  /// Ensures: empty().totalInBits() == 0 && empty().totalOutBits() == 0.
  LinearLayout() : cols_{} {}
  static LinearLayout empty() { return LinearLayout(); }

  /// A layout from bases with explicit output sizes.
  /// Requires: distinct in-dim names and distinct out-dim names; every basis has one component
  /// per out dim; component j < size of out dim j; sizes are powers of two; the bit limits above;
  /// if requireSurjective, every output is reached.
  /// Ensures: basis(d, i) == ins[d].bases[i] for every d, i.
  static Expected<LinearLayout> fromBases(std::span<const InDimBases> ins,
                                          std::span<const DimSize> outs,
                                          bool requireSurjective = false);

  /// A layout from bases whose output sizes are inferred as the smallest powers of two that hold
  /// every basis component (Triton's constructor without sizes).
  /// Requires: as fromBases; the result is surjective.
  static Expected<LinearLayout> fromBasesInferSizes(std::span<const InDimBases> ins,
                                                    std::span<const DimName> outNames);

  /// The identity from a dimension of `size` to a dimension of `size`: x -> x.
  /// Requires: size is a power of two no larger than 2^63.
  static Expected<LinearLayout> identity1D(uint64_t size, DimName in, DimName out);

  /// x -> x * stride over an input of `size`, into an output of size * stride.
  /// Requires: size and stride are powers of two; size * stride <= 2^63.
  /// Example: strided1D(4, 2, lane, dim0) maps lane 0,1,2,3 to 0,2,4,6.
  static Expected<LinearLayout> strided1D(uint64_t size, uint64_t stride, DimName in, DimName out);

  /// x -> 0 over an input of `size` (broadcast), into an output of `outSize` (default 1).
  /// Requires: size and outSize are powers of two.
  static Expected<LinearLayout> zeros1D(uint64_t size, DimName in, DimName out,
                                        uint64_t outSize = 1);

  /// A layout from packed columns: column k is the packed output word of packed input bit k
  /// (first dimension lowest on both sides), without building per-basis vectors.
  /// Requires: as fromBases (distinct names, power-of-two sizes, the bit limits);
  /// columns.size() == total input bits; every column below 2^(total output bits).
  /// Ensures: column(k) == columns[k]; equals fromBases of the same bases.
  static Expected<LinearLayout> fromColumns(std::span<const DimSize> ins,
                                            std::span<const DimSize> outs,
                                            std::span<const uint64_t> columns);

  // ---------------------------------------------------------------------------------------------
  // Queries
  // ---------------------------------------------------------------------------------------------

  int numInDims() const { return nIn_; }
  int numOutDims() const { return nOut_; }
  DimName inDimName(int i) const { return inNames_[i]; }
  DimName outDimName(int i) const { return outNames_[i]; }
  int inDimBits(int i) const { return inBits_[i]; }
  int outDimBits(int i) const { return outBits_[i]; }
  /// The index of a dimension, or -1 when the layout has no such dimension.
  int inDimIndex(DimName name) const {
    for (int i = 0; i < nIn_; ++i)
      if (inNames_[i] == name)
        return i;
    return -1;
  }
  int outDimIndex(DimName name) const {
    for (int i = 0; i < nOut_; ++i)
      if (outNames_[i] == name)
        return i;
    return -1;
  }
  bool hasInDim(DimName name) const { return inDimIndex(name) >= 0; }
  bool hasOutDim(DimName name) const { return outDimIndex(name) >= 0; }
  /// Size (a power of two) of a dimension; 1 for a dimension the layout does not have.
  uint64_t inDimSize(DimName name) const;
  uint64_t outDimSize(DimName name) const;
  /// log2 of the size; 0 for a dimension the layout does not have.
  int inDimBits(DimName name) const;
  int outDimBits(DimName name) const;
  /// The first packed bit of a dimension.
  int inDimOffset(int i) const;
  int outDimOffset(int i) const;
  int totalInBits() const;
  int totalOutBits() const;
  std::vector<DimSize> inDims() const;
  std::vector<DimSize> outDims() const;
  std::vector<DimName> inDimNames() const;
  std::vector<DimName> outDimNames() const;

  /// Basis `i` of input dimension `in`, one value per output dimension.
  /// Requires: in is an in dim and i < inDimBits(in) (asserts).
  std::vector<uint64_t> basis(DimName in, int i) const;
  /// The component of basis `i` of `in` along output dimension `out`.
  uint64_t basis(DimName in, int i, DimName out) const;
  /// All bases, in the form fromBases takes. Ensures: fromBases(bases(), outDims()) == *this.
  std::vector<InDimBases> bases() const;
  /// The packed output of packed input bit `bit` (column `bit` of the matrix).
  uint64_t column(int bit) const { return cols_[bit]; }

  /// Applies the layout to a packed input word. Allocation-free.
  /// Requires: input < 2^totalInBits(). Ensures: L(x ^ y) == L(x) ^ L(y); L(0) == 0.
  uint64_t apply(uint64_t input) const {
    uint64_t out = 0;
    while (input) {
      out ^= cols_[__builtin_ctzll(input)];
      input &= input - 1;
    }
    return out;
  }

  /// Applies the layout to named inputs (a missing in dim counts as 0). Answers one value per out
  /// dim, in order, held inline: allocation-free.
  /// Requires: every name is an in dim of the layout, named once, and each value is below its
  /// dimension's size.
  /// Ensures: the answer equals outValue(apply(packed input), o) for each out dim o.
  Expected<DimValues> apply(std::span<const DimValue> inputs) const;

  /// Packs one value per input dimension (in order) into an input word. Requires: each value is
  /// below its dimension's size (asserts).
  uint64_t packInput(std::span<const uint64_t> values) const;
  /// The value of output dimension `i` within a packed output word.
  uint64_t outValue(uint64_t packedOutput, int i) const;
  /// The value of input dimension `i` within a packed input word.
  uint64_t inValue(uint64_t packedInput, int i) const;

  /// The dimension of the image (number of linearly independent columns).
  /// Ensures: rank() + kernelBasis().size() == totalInBits().
  int rank() const;
  /// Ensures: true exactly when every output value is reached by some input.
  bool isSurjective() const { return rank() == totalOutBits(); }
  /// Ensures: true exactly when no two inputs map to the same output.
  bool isInjective() const { return rank() == totalInBits(); }
  /// Ensures: true exactly when the layout is a bijection.
  bool isInvertible() const { return totalInBits() == totalOutBits() && isSurjective(); }

  /// A basis of the image: packed output words, each the image of some input.
  /// Ensures: size() == rank(); the span of the words is the set of outputs.
  std::vector<uint64_t> imageBasis() const;
  /// A basis of the kernel (null space): packed input words mapped to 0.
  /// Ensures: size() == totalInBits() - rank(); apply(k) == 0 for each k.
  std::vector<uint64_t> kernelBasis() const;
  /// The kernel as a layout from a new input dimension `name` (one bit per kernel vector) to this
  /// layout's input dimensions (sized as this layout's in dims).
  /// Ensures: kernel.then(*this) maps everything to 0; kernel is injective.
  LinearLayout kernel(DimName name) const;
  /// The image as a layout from a new input dimension `name` onto this layout's outputs.
  /// Ensures: injective; its image equals this layout's image.
  LinearLayout image(DimName name) const;

  /// Per input dimension, the mask of free variables (Triton's getFreeVariableMasks): bit i is
  /// free when its column is a combination of the columns of lower bits (packed order), i.e. it
  /// has no pivot in the reduced row echelon form. A zero column is always free.
  /// Ensures: the number of free bits is the nullity; the non-free bits alone reach the whole
  /// image; zeroBasisMasks() is a subset.
  std::vector<DimMask> freeVariableMasks() const;
  /// The bits whose basis is zero: flipping them never changes the output (pure broadcast).
  std::vector<DimMask> zeroBasisMasks() const;

  friend bool operator==(const LinearLayout &a, const LinearLayout &b);
  friend bool operator!=(const LinearLayout &a, const LinearLayout &b) { return !(a == b); }
  /// Equality that ignores out-dim sizes (names, order and bases must still agree).
  bool equalIgnoringOutDimSizes(const LinearLayout &other) const;
  size_t hash() const;

  // ---------------------------------------------------------------------------------------------
  // Algebra
  // ---------------------------------------------------------------------------------------------

  /// x -> outer(this(x)), Triton's `this.compose(outer)`.
  /// Requires: this layout's out dims are outer's in dims (same names, any order) and each
  /// out-dim size of this is at most the matching in-dim size of outer.
  /// Ensures: then(outer).apply(x) == outer.apply(this.apply(x)) with names matched; out dims
  /// are outer's; (a.then(b)).then(c) == a.then(b.then(c)).
  Expected<LinearLayout> then(const LinearLayout &outer) const;

  /// The inverse. Requires: isInvertible().
  /// Ensures: then(invert()) and invert().then(*this) are identities.
  Expected<LinearLayout> invert() const;
  /// The inverse, or nullopt when the layout is not invertible.
  std::optional<LinearLayout> tryInvert() const;

  /// A right inverse with free variables set to zero: p with this(p(y)) == y.
  /// Requires: isSurjective().
  /// Ensures: p's in dims are this layout's out dims, p's out dims this layout's in dims;
  /// then-order: p.then(*this) is the identity on this layout's outputs.
  Expected<LinearLayout> pseudoInvert() const;

  /// c with outer(c(x)) == this(x) for every x (Triton's `this.invertAndCompose(outer)`): where
  /// a value lives in `outer`'s hardware for each value of this layout's hardware.
  /// Input dims that both layouts have and map identically are mapped to themselves (so
  /// broadcast warps stay on their warp) when outer's other dims reach this layout's other
  /// columns; the rest (or, when they do not, everything) is solved with free variables zero.
  /// Requires: same out dims (any order), each of outer at least as large as this layout's (as
  /// Triton 3.6: this layout's values are read as values of outer's larger dims); outer is
  /// surjective.
  /// Ensures: c.then(outer) == *this (after matching out dims and widening this layout's out
  /// dims to outer's sizes); c's in dims are this layout's, c's out dims are outer's in dims.
  Expected<LinearLayout> invertAndCompose(const LinearLayout &outer) const;

  /// c with outer(c(x)) == this(x), or nullopt when this layout's image does not lie within
  /// outer's. Free variables are zero; outer need not be surjective.
  /// Requires: same out dim names (any order) and sizes (an error otherwise).
  Expected<std::optional<LinearLayout>> factorThrough(const LinearLayout &outer) const;

  /// The direct product (Triton's operator*): inner's bits are the low bits of every dimension
  /// the two share, outer's come above them; dims of only one side are kept.
  /// Dims new to the product come after inner's, in outer's order (as in Triton).
  /// Requires: dims common to both appear in the same relative order; limits hold.
  /// Ensures: (a*b)*c == a*(b*c) whenever both sides are defined (the dim order may make one
  /// side refuse: [lane] * [register, lane] orders its dims [lane, register], which
  /// [register, lane] cannot follow); restricting a*b to the low bits of each dimension gives a,
  /// to the high bits gives b.
  static Expected<LinearLayout> product(const LinearLayout &inner, const LinearLayout &outer);

  /// Input dims of `other` appended after this layout's (disjoint names, same out dims).
  /// Ensures: the result on (x, y) is this(x) ^ other(y).
  Expected<LinearLayout> concatIns(const LinearLayout &other) const;
  /// Output dims of `other` appended after this layout's (same in dims, disjoint out names).
  /// Ensures: the result on x is (this(x), other(x)).
  Expected<LinearLayout> concatOuts(const LinearLayout &other) const;

  /// Reorders input dims. Requires: a permutation of the in dim names.
  Expected<LinearLayout> transposeIns(std::span<const DimName> order) const;
  /// Reorders output dims. Requires: a permutation of the out dim names.
  Expected<LinearLayout> transposeOuts(std::span<const DimName> order) const;

  /// Regroups the packed input bits into new dims. Requires: total size unchanged.
  /// Ensures: reshapeIns(inDims()) == *this; the packed map is unchanged.
  Expected<LinearLayout> reshapeIns(std::span<const DimSize> dims) const;
  /// Regroups the packed output bits into new dims. Requires: total size unchanged.
  Expected<LinearLayout> reshapeOuts(std::span<const DimSize> dims) const;
  /// One input dim holding all input bits, named as the first in dim (or `name`).
  LinearLayout flattenIns(std::optional<DimName> name = std::nullopt) const;
  /// One output dim holding all output bits, named as the first out dim (or `name`).
  LinearLayout flattenOuts(std::optional<DimName> name = std::nullopt) const;

  /// Changes the size of an input dim: a larger size adds zero bases (broadcast), a smaller one
  /// drops the high bases. Requires: `dim` is an in dim; size a power of two.
  Expected<LinearLayout> resizeInDim(DimName dim, uint64_t size) const;
  /// Changes the size of an output dim: larger leaves the map unchanged, smaller keeps only the
  /// low bits of that coordinate (x mod size). Requires: dim is an out dim; a power of two.
  Expected<LinearLayout> resizeOutDim(DimName dim, uint64_t size) const;

  /// The restriction to some input dims and the projection to some output dims, keeping this
  /// layout's order. Requires: names are dims of the layout.
  Expected<LinearLayout> sublayout(std::span<const DimName> ins,
                                   std::span<const DimName> outs) const;
  /// Whether sublayout(ins, outs) maps everything to zero.
  bool sublayoutIsZero(std::span<const DimName> ins, std::span<const DimName> outs) const;

  /// The layout with `dims` divided out, when it acts as the identity on them with no cross terms
  /// (Triton's quotient); nullopt otherwise.
  std::optional<LinearLayout> quotient(std::span<const DimName> dims) const;

  /// c with product(inner, c) == *this (dims compared by name), or nullopt when there is none.
  /// c has this layout's dims in this layout's order, each less inner's bits; a dim of inner
  /// that inner uses up is left out of c.
  /// Ensures: divideLeft(inner * c, inner) is c up to size-1 dims.
  std::optional<LinearLayout> divideLeft(const LinearLayout &inner) const;
  /// b with product(b, outer) == *this (dims compared by name), or nullopt when there is none.
  /// b's dims are chosen as divideLeft's. Ensures: divideRight(b * outer, outer) is b up to
  /// size-1 dims.
  std::optional<LinearLayout> divideRight(const LinearLayout &outer) const;

  /// The same map with an input / output dimension renamed. Requires: from exists; to is new.
  Expected<LinearLayout> renameInDim(DimName from, DimName to) const;
  Expected<LinearLayout> renameOutDim(DimName from, DimName to) const;

  /// Drops the zero bases of one input dim (or of every in dim): de-broadcast. The dim shrinks.
  LinearLayout removeZeroBases(std::optional<DimName> dim = std::nullopt) const;

  /// A column action: new basis i of `dim` is old basis perm[i] (a register permutation when
  /// `dim` is register). Requires: perm is a permutation of 0..inDimBits(dim)-1.
  Expected<LinearLayout> permuteInBits(DimName dim, std::span<const int> perm) const;

  // ---------------------------------------------------------------------------------------------
  // Analysis
  // ---------------------------------------------------------------------------------------------

  /// How many consecutive inputs of the first in dim map to consecutive outputs of the first out
  /// dim, as a power of two (Triton's getNumConsecutiveInOut): the vector width of that in dim.
  uint64_t numConsecutiveInOut() const;

  /// The largest k such that in both layouts the first k bases of `inDim` are the same unit
  /// steps 1, 2, 4, ... of one output dimension: both hold a common run of 2^k consecutive
  /// elements in the same 2^k consecutive inputs (the vector width a conversion may keep).
  static int commonIdentityPrefix(const LinearLayout &a, const LinearLayout &b, DimName inDim);

  /// Whether every output of this layout is also an output of `other`.
  /// Requires: same out dims (names, order, sizes).
  Expected<bool> imageWithin(const LinearLayout &other) const;

  // ---------------------------------------------------------------------------------------------
  // Printing
  // ---------------------------------------------------------------------------------------------

  /// The text Triton prints:
  ///  - register=1 -> (0, 1)
  ///    register=2 -> (0, 2)
  ///  - lane is a size 1 dimension
  /// where out dims are: [dim0 (size 32), dim1 (size 16)]
  std::string toString() const;

private:
  // The key of the constructor below: only LinearLayout can make one.
  class Unfilled {
    friend class LinearLayout;
    explicit Unfilled() = default;
  };

public:
  /// For LinearLayout's own factories (outside code cannot make the key): no dims, and columns
  /// left unwritten, so that a factory writes each column once instead of clearing 512 bytes
  /// first. The factory ends with clearColumnsFrom(its column count).
  explicit LinearLayout(Unfilled) {}

private:
  // Zeroes the columns from `n` on: unused columns are zero (== compares all of them).
  void clearColumnsFrom(int n);
  uint64_t outMask() const;
  // Rebuilds a layout from dims and columns; checks only our own invariants (asserts).
  static LinearLayout make(std::span<const DimBits> ins, std::span<const DimBits> outs,
                           std::span<const uint64_t> cols);
  // divideLeft / divideRight: writes q with product(known, q) == *this (KnownIsInner) or
  // product(q, known) == *this, and answers whether it exists.
  template <bool KnownIsInner> bool divideInto(const LinearLayout &known, LinearLayout &q) const;

  std::array<uint64_t, kMaxBits> cols_; // zeroed past totalInBits() by every constructor
  std::array<DimName, kMaxDims> inNames_{};
  std::array<DimName, kMaxDims> outNames_{};
  std::array<uint8_t, kMaxDims> inBits_{};
  std::array<uint8_t, kMaxDims> outBits_{};
  uint8_t nIn_ = 0;
  uint8_t nOut_ = 0;
};

/// The values of a layout's out dims, in its order, held inline: what `apply` by names answers
/// without touching the heap. Reads as a sequence of DimValue.
class DimValues {
public:
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const DimValue &operator[](size_t i) const { return v_[i]; }
  const DimValue *begin() const { return v_; }
  const DimValue *end() const { return v_ + n_; }
  /// A copy as a vector, for callers that keep or grow the answer.
  operator std::vector<DimValue>() const { return std::vector<DimValue>(begin(), end()); }

  DimValues() {}
  DimValues(const DimValues &) = default;
  DimValues &operator=(const DimValues &) = default;

private:
  friend class LinearLayout;
  // Only the first n_ slots are ever written or read: a union leaves the rest unconstructed, so
  // an answer costs its out dims, not kMaxDims default names.
  union {
    DimValue v_[LinearLayout::kMaxDims];
  };
  uint8_t n_ = 0;
};

/// Writes toString() (for test failure messages and logs).
std::ostream &operator<<(std::ostream &os, const LinearLayout &layout);

/// Chains products, propagating the first error: `a * b * c`.
Expected<LinearLayout> operator*(const LinearLayout &inner, const LinearLayout &outer);
Expected<LinearLayout> operator*(const Expected<LinearLayout> &inner, const LinearLayout &outer);
Expected<LinearLayout> operator*(const LinearLayout &inner, const Expected<LinearLayout> &outer);
Expected<LinearLayout> operator*(const Expected<LinearLayout> &inner,
                                 const Expected<LinearLayout> &outer);

} // namespace linlayout

template <> struct std::hash<linlayout::LinearLayout> {
  size_t operator()(const linlayout::LinearLayout &l) const { return l.hash(); }
};
