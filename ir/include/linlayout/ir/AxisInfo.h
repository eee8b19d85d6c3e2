// Axis info: for every integer or pointer value, per tensor dimension d (a scalar counts as one
// dimension of size 1), three powers of two (Triton's AxisInfo):
//  - contiguity c: along d the value splits into runs of c elements, starting at index multiples
//    of c, in which each element is the previous one plus 1 (plus one element, for a pointer);
//  - divisibility t: the first element of every such run is a multiple of t (bytes, for pointers);
//  - constancy k: along d the value splits into runs of k equal elements, starting at index
//    multiples of k.
// Plus the value itself when it is a known constant. The rules follow make_range, splat,
// broadcast, expand_dims, add / sub / mul, addptr, comparisons, select, casts, loads, loop
// induction variables and iteration arguments (joined to a fixed point), scf.if results (the
// join of what the two branches yield), and the argument hints
// (tt.divisibility, tt.contiguity, tt.constancy); everything else gets the pessimistic (1, 1, 1).
// The analysis is conservative: a claim it makes holds for every run of the program in which
// the index arithmetic that makes a run does not wrap (as Triton assumes; folded constants do
// wrap to their element type, as the GPU computes them).
#pragma once

#include "linlayout/ir/Module.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace linlayout::ir {

/// What is known about one integer or pointer value.
struct AxisInfo {
  /// The divisibility of 0 (and the cap of all divisibilities).
  static constexpr int64_t kMaxDivisor = int64_t(1) << 62;

  std::vector<int64_t> contiguity;
  std::vector<int64_t> divisibility;
  std::vector<int64_t> constancy;
  std::optional<int64_t> constant;

  int rank() const { return int(contiguity.size()); }
  /// Nothing known: every entry 1.
  static AxisInfo pessimistic(int rank);
  /// The largest power of two dividing x (kMaxDivisor for 0).
  /// Ensures: x % highestPowerOfTwoDivisor(x) == 0.
  static int64_t highestPowerOfTwoDivisor(int64_t x);
  /// What holds for both a and b (per entry gcd; the constant when both agree).
  /// Ensures: join(a, a) == a; join is commutative.
  static AxisInfo join(const AxisInfo &a, const AxisInfo &b);
  /// What an op's value hints (OpAttrs::hintDivisibility, ...) claim of its result of type t:
  /// pessimistic where they say nothing; runs at most a dimension long.
  static AxisInfo fromHints(const OpAttrs &a, const Type &t);
  /// What in the elements `e` of a value of type `t` (row-major; a pointer's elements are byte
  /// offsets) breaks these claims, or "" when they all hold (brute force, every line along every
  /// dimension).
  std::string violation(const Type &t, std::span<const int64_t> e) const;

  friend bool operator==(const AxisInfo &, const AxisInfo &) = default;
};

/// Axis info of every integer and pointer value of one function.
class AxisInfoAnalysis {
public:
  /// Analyses `f`. Requires: verify(m) is ok and f belongs to m.
  /// Ensures: for every integer or pointer tensor value v and dimension d, the claims of
  /// get(v) hold in every run (checked against the interpreter in tests).
  static AxisInfoAnalysis run(const Module &m, const Function &f);

  /// The info of an integer or pointer value (nullptr for other values).
  const AxisInfo *get(ValueId v) const;

private:
  std::vector<std::optional<AxisInfo>> info_;
  friend class AxisInfoBuilder;
};

} // namespace linlayout::ir
