// Per-kind tables of an op family: each family file keeps its ops' functions in a table indexed by
// op kind, and checks at compile time that every op of the family has its entry.
#pragma once

#include "linlayout/ir/OpKind.h"

#include <cstddef>

namespace linlayout::ir {

/// Whether `table` (one entry per op kind) has an entry for every op of family `f`, for a
/// static_assert beside the table: a new op of the family without its entry fails to compile.
template <typename Table> constexpr bool coversFamily(const Table &table, OpFamily f) {
  for (size_t k = 0; k < size_t(kNumOpKinds); ++k)
    if (family(OpKind(k)) == f && !table[k])
      return false;
  return true;
}

} // namespace linlayout::ir
