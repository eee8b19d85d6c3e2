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

  /// Inserts v[0], ..., v[n-1] in that order, v[k] tagged `firstTag << k` (no tags when
  /// firstTag is 0), and returns the mask of the k whose v[k] was already in the span (nothing is
  /// inserted for those). Requires: n <= 64.
  /// Ensures: the same basis and mask as n calls of insert; faster for many vectors.
  uint64_t insertAll(const uint64_t *v, int n, uint64_t firstTag = 0) {
    return firstTag ? insertBlocks<true>(v, n, firstTag) : insertBlocks<false>(v, n, 0);
  }

  /// Whether `v` lies in the span.
  bool contains(uint64_t v) const { return reduce(v) == 0; }
  int rank() const { return __builtin_popcountll(pivots_); }
  uint64_t pivots() const { return pivots_; }
  uint64_t vectorAt(int pivot) const { return vec_[pivot]; }
  uint64_t comboAt(int pivot) const { return combo_[pivot]; }

private:
  // Each reduction is a chain of dependent steps (the next pivot hit depends on the last XOR).
  // A block of vectors is first reduced by the basis before the block, all of them: independent
  // chains the CPU overlaps. Each residue then has no pivot bit of that basis, so it only needs
  // the block's own new vectors, in order. A residue is unique (no pivot bits, the basis fixed),
  // so the basis is the one that inserting one vector at a time builds.
  template <bool Tags> uint64_t insertBlocks(const uint64_t *v, int n, uint64_t firstTag) {
    constexpr int kBlock = 8;
    uint64_t inSpan = 0;
    for (int i0 = 0; i0 < n; i0 += kBlock) {
      const int m = n - i0 < kBlock ? n - i0 : kBlock;
      uint64_t res[kBlock], tag[kBlock];
      for (int k = 0; k < m; ++k) {
        uint64_t x = v[i0 + k], t = Tags ? firstTag << (i0 + k) : 0, hit;
        while ((hit = x & pivots_) != 0) {
          int p = __builtin_ctzll(hit);
          x ^= vec_[p];
          if (Tags)
            t ^= combo_[p];
        }
        res[k] = x;
        tag[k] = t;
      }
      uint64_t fresh = 0;
      for (int k = 0; k < m; ++k) {
        uint64_t x = res[k], t = tag[k], hit;
        while ((hit = x & fresh) != 0) {
          int p = __builtin_ctzll(hit);
          x ^= vec_[p];
          if (Tags)
            t ^= combo_[p];
        }
        if (x == 0) {
          inSpan |= uint64_t(1) << (i0 + k);
          continue;
        }
        int p = __builtin_ctzll(x);
        vec_[p] = x;
        combo_[p] = t;
        fresh |= uint64_t(1) << p;
      }
      pivots_ |= fresh;
    }
    return inSpan;
  }

  // Only the entries at pivots are ever read, so they are left uninitialised: building a basis
  // then costs nothing up front (the layout algebra builds one per call).
  std::array<uint64_t, 64> vec_;
  std::array<uint64_t, 64> combo_;
  uint64_t pivots_ = 0;
};

} // namespace linlayout
