#include "linlayout/layout/LayoutColumns.h"

#include <array>
#include <string>

namespace linlayout {

std::vector<uint64_t> allColumns(const LinearLayout &l) {
  std::vector<uint64_t> cols;
  cols.reserve(l.totalInBits());
  for (int i = 0; i < l.totalInBits(); ++i)
    cols.push_back(l.column(i));
  return cols;
}

std::vector<uint64_t> columnsOf(const LinearLayout &l, DimName in) {
  std::vector<uint64_t> cols;
  int d = l.inDimIndex(in);
  if (d < 0)
    return cols;
  int off = l.inDimOffset(d);
  cols.reserve(l.inDimBits(d));
  for (int i = 0; i < l.inDimBits(d); ++i)
    cols.push_back(l.column(off + i));
  return cols;
}

Expected<LinearLayout> layoutFromColumns(std::span<const InDimColumns> ins,
                                         std::span<const DimSize> outs) {
  std::array<DimSize, LinearLayout::kMaxDims> dims{};
  std::array<uint64_t, LinearLayout::kMaxBits> cols{};
  if (ins.size() > dims.size())
    return makeError("more than " + std::to_string(dims.size()) + " input dimensions");
  size_t n = 0;
  for (size_t d = 0; d < ins.size(); ++d) {
    if (ins[d].columns.size() > 63 || n + ins[d].columns.size() > cols.size())
      return makeError("more than " + std::to_string(cols.size()) + " input bits");
    dims[d] = {ins[d].name, uint64_t(1) << ins[d].columns.size()};
    for (uint64_t c : ins[d].columns)
      cols[n++] = c;
  }
  return LinearLayout::fromColumns(std::span(dims.data(), ins.size()), outs,
                                   std::span(cols.data(), n));
}

} // namespace linlayout
