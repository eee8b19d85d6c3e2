// An incremental echelon basis over F2 for vectors of up to 64 bits, with each basis vector's
// combination of the inserted vectors tracked. This is the one elimination kernel the layout
// algebra uses (rank, solve, inverse, kernel, image): exact, allocation-free, O(64) per step.
#pragma once

#include <array>
#include <cstdint>

namespace linlayout {

/// A basis in echelon form: the stored vector with pivot p has p as its lowest set bit, and its
/// `combo` says which inserted vectors (by their tags) XOR to it.
class F2Basis {
public:
  /// Reduces `v` by the basis: returns the residue (0 when v lies in the span) and XORs into
  /// `*combo` (when given) the tags of the inserted vectors used.
  /// Ensures: residue == v ^ span element; the residue has no pivot bit set.
  uint64_t reduce(uint64_t v, uint64_t *combo = nullptr) const {
    uint64_t hit;
    while ((hit = v & pivots_) != 0) {
      int p = __builtin_ctzll(hit);
      v ^= vec_[p];
      if (combo)
        *combo ^= combo_[p];
    }
    return v;
  }

  /// Inserts `v` tagged `tag` (the combination it stands for). Returns false, inserting nothing,
  /// when v is already in the span.
  bool insert(uint64_t v, uint64_t tag) {
    v = reduce(v, &tag);
    if (v == 0)
      return false;
    int p = __builtin_ctzll(v);
    vec_[p] = v;
    combo_[p] = tag;
    pivots_ |= uint64_t(1) << p;
    return true;
  }

  /// Whether `v` lies in the span.
  bool contains(uint64_t v) const { return reduce(v) == 0; }
  int rank() const { return __builtin_popcountll(pivots_); }
  uint64_t pivots() const { return pivots_; }
  uint64_t vectorAt(int pivot) const { return vec_[pivot]; }
  uint64_t comboAt(int pivot) const { return combo_[pivot]; }

private:
  // Only the entries at pivots are ever read, so they are left uninitialised: building a basis
  // then costs nothing up front (the layout algebra builds one per call).
  std::array<uint64_t, 64> vec_;
  std::array<uint64_t, 64> combo_;
  uint64_t pivots_ = 0;
};

} // namespace linlayout
