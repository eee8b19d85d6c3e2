#include "linlayout/layout/LayoutColumns.h"

namespace linlayout {

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
  std::vector<int> shift, bits;
  int total = 0;
  for (const DimSize &o : outs) {
    int b = o.size <= 1 ? 0 : 63 - __builtin_clzll(o.size);
    shift.push_back(total);
    bits.push_back(b);
    total += b;
  }
  std::vector<InDimBases> bases;
  bases.reserve(ins.size());
  for (const InDimColumns &in : ins) {
    InDimBases b{in.name, {}};
    for (uint64_t c : in.columns) {
      std::vector<uint64_t> v(outs.size());
      for (size_t o = 0; o < outs.size(); ++o)
        v[o] = bits[o] == 0 ? 0 : (c >> shift[o]) & ((uint64_t(1) << bits[o]) - 1);
      b.bases.push_back(std::move(v));
    }
    bases.push_back(std::move(b));
  }
  return LinearLayout::fromBases(bases, outs);
}

} // namespace linlayout
