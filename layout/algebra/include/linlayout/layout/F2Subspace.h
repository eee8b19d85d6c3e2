// Subspaces of F2^64 given by spanning vectors (packed uint64_t words): rank, intersection,
// membership, complements and kernels of bit projections. These are the few subspace questions
// the conversion planner and the bank-conflict analysis ask; each answer is computed with the one
// elimination kernel (F2Basis), allocation-free apart from returned vectors.
#pragma once

#include "linlayout/layout/F2Basis.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace linlayout {

/// The dimension of span(vs).
/// Ensures: equals the number of vectors F2Basis accepts when inserting vs in order.
int f2Rank(std::span<const uint64_t> vs);

/// dim(span(a) ∩ span(b)).
/// Ensures: == f2Rank(a) + f2Rank(b) - f2Rank(a ∪ b).
int f2IntersectionDim(std::span<const uint64_t> a, std::span<const uint64_t> b);

/// A basis of span(a) ∩ span(b).
/// Ensures: size() == f2IntersectionDim(a, b); every vector lies in both spans.
std::vector<uint64_t> f2Intersection(std::span<const uint64_t> a, std::span<const uint64_t> b);

/// Whether v lies in span(vs).
bool f2InSpan(std::span<const uint64_t> vs, uint64_t v);

/// A basis of the subspace {x in span(vs) : (x & mask) == 0}.
/// Ensures: every vector is in span(vs) with no bit of mask set; size() == f2Rank(vs) -
/// rank of {v & mask}.
std::vector<uint64_t> f2KernelOfMask(std::span<const uint64_t> vs, uint64_t mask);

/// Unit vectors 1 << i (i < bits, increasing) that complete span(vs) to all of F2^bits.
/// Requires: every vector of vs is below 2^bits.
/// Ensures: span(vs) + span(result) == F2^bits and the sum is direct.
std::vector<uint64_t> f2UnitComplement(std::span<const uint64_t> vs, int bits);

/// A basis, as index vectors r (bit j selects cols[j]), of {r : (XOR of the selected cols) &
/// mask == 0}: the kernel of the masked linear map with columns cols.
/// Requires: cols.size() <= 64.
/// Ensures: every r maps to zero under the mask; size() == cols.size() - rank of masked cols.
std::vector<uint64_t> f2KernelOfColumns(std::span<const uint64_t> cols, uint64_t mask);

/// An index vector r with XOR of the selected cols == target (free variables zero), if any.
/// Requires: cols.size() <= 64.
std::optional<uint64_t> f2Preimage(std::span<const uint64_t> cols, uint64_t target);

/// A basis of span(vs) in reduced echelon form, its vectors in the order they first grow the
/// span: each has a pivot (its highest set bit) that no other has, so the coefficient of
/// vectors[j] in any element v of the span is bit pivots[j] of v.
struct F2ReducedBasis {
  std::vector<uint64_t> vectors;
  std::vector<int> pivots;
  int rank() const { return static_cast<int>(vectors.size()); }
  /// The XOR of the vectors named by the bits of `coeffs`.
  uint64_t combine(uint64_t coeffs) const;
};
F2ReducedBasis f2ReducedBasis(std::span<const uint64_t> vs);

/// The selects of a network that XORs indices by a runtime combination of `vectors` (layer j:
/// output i picks input i or input i ^ vectors[j]) when only the outputs in span(live) are needed:
/// layer j then computes span(live) + span(vectors after j), so the count is the sum over j of
/// 2^rank(live and the vectors after j).
int64_t f2XorNetworkSelects(std::span<const uint64_t> vectors, std::span<const uint64_t> live);

/// XOR of cols[j] over the set bits j of r.
/// Requires: every set bit of r indexes cols.
inline uint64_t f2Apply(std::span<const uint64_t> cols, uint64_t r) {
  uint64_t out = 0;
  for (; r; r &= r - 1)
    out ^= cols[__builtin_ctzll(r)];
  return out;
}

} // namespace linlayout
