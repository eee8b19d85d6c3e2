// Per-kind tables of an op family: each family file keeps its ops' functions in a table indexed by
// op kind, built at compile time from (kind, function) pairs that must cover every op of the
// family.
#pragma once

#include "linlayout/ir/OpKind.h"

#include <array>
#include <cstddef>

namespace linlayout::ir {

/// Whether `table` (one entry per op kind) has an entry for every op of family `f`.
template <typename Table> constexpr bool coversFamily(const Table &table, OpFamily f) {
  for (size_t k = 0; k < size_t(kNumOpKinds); ++k)
    if (family(OpKind(k)) == f && !table[k])
      return false;
  return true;
}

/// One op kind's function in a family table.
template <typename Fn> struct FamilyEntry {
  OpKind kind;
  Fn fn;
};

/// The table of family F with `entries` (null for the kinds they do not name).
/// Requires: `entries` name every op of F; if not, the table does not compile (a constant
/// expression cannot throw), so a new op of the family cannot go without its entry.
/// Example: `constexpr auto kPrint = familyTable<OpFamily::Shape, PrintOpFn>({{OpKind::Splat,
/// printSplat}, ...});`
template <OpFamily F, typename Fn, size_t N>
consteval std::array<Fn, kNumOpKinds> familyTable(const FamilyEntry<Fn> (&entries)[N]) {
  std::array<Fn, kNumOpKinds> t{};
  for (const FamilyEntry<Fn> &e : entries)
    t[size_t(e.kind)] = e.fn;
  if (!coversFamily(t, F))
    throw "an op of the family has no entry in this table";
  return t;
}

} // namespace linlayout::ir
