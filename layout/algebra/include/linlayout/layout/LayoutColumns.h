// Moving between a LinearLayout and its packed columns: the tensor vector (packed output word)
// of every bit of one input dimension, and a layout rebuilt from such columns. The planner works
// on packed columns (plain uint64_t words) and turns its results back into layouts at the end.
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <cstdint>
#include <span>
#include <vector>

namespace linlayout {

/// The packed output word of each bit of input dimension `in` (empty when the layout lacks it).
/// Ensures: result.size() == inDimBits(in); result[i] == column(inDimOffset(in) + i).
std::vector<uint64_t> columnsOf(const LinearLayout &l, DimName in);

/// Every column, in packed input order. Ensures: result[i] == column(i).
std::vector<uint64_t> allColumns(const LinearLayout &l);

/// One input dimension given by its packed columns.
struct InDimColumns {
  DimName name;
  std::vector<uint64_t> columns;
};

/// The layout whose input dimension d has the packed columns ins[d].columns, with out dims
/// `outs` (packed first dim lowest, as LinearLayout packs them).
/// Requires: every column fits the packed out dims; the limits of LinearLayout::fromBases.
/// Ensures: columnsOf(result, ins[d].name) == ins[d].columns.
Expected<LinearLayout> layoutFromColumns(std::span<const InDimColumns> ins,
                                         std::span<const DimSize> outs);

} // namespace linlayout
