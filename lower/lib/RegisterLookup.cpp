#include "RegisterLookup.h"

#include <cassert>
#include <unordered_map>

namespace linlayout::lower {

std::optional<std::vector<int>> lookupRegisters(const LinearLayout &have,
                                                const LinearLayout &wanted) {
  // Same out dims in the same order: compare packed outputs.
  if (have.numOutDims() != wanted.numOutDims())
    return std::nullopt;
  for (int o = 0; o < have.numOutDims(); ++o)
    if (have.outDimName(o) != wanted.outDimName(o) || have.outDimBits(o) != wanted.outDimBits(o))
      return std::nullopt;
  // The thread part must agree bit by bit (both maps are linear).
  for (DimName d : {DimName::lane(), DimName::warp(), DimName::block()}) {
    int bits = std::max(have.inDimBits(d), wanted.inDimBits(d));
    for (int i = 0; i < bits; ++i) {
      uint64_t h =
          i < have.inDimBits(d) ? have.column(have.inDimOffset(have.inDimIndex(d)) + i) : 0;
      uint64_t w =
          i < wanted.inDimBits(d) ? wanted.column(wanted.inDimOffset(wanted.inDimIndex(d)) + i) : 0;
      if (h != w)
        return std::nullopt;
    }
  }
  auto regOutputs = [](const LinearLayout &l, uint64_t r) {
    int d = l.inDimIndex(DimName::reg());
    return d < 0 ? uint64_t(0) : l.apply(r << l.inDimOffset(d));
  };
  std::unordered_map<uint64_t, int> where;
  for (uint64_t r = 0; r < have.inDimSize(DimName::reg()); ++r)
    where.emplace(regOutputs(have, r), static_cast<int>(r));
  std::vector<int> out;
  for (uint64_t r = 0; r < wanted.inDimSize(DimName::reg()); ++r) {
    auto it = where.find(regOutputs(wanted, r));
    if (it == where.end())
      return std::nullopt;
    out.push_back(it->second);
  }
  return out;
}

LinearLayout coordinateMap(const std::vector<int64_t> &inShape,
                           const std::vector<int64_t> &outShape,
                           const std::function<std::pair<int, int>(int, int)> &target) {
  std::vector<InDimBases> ins;
  for (size_t d = 0; d < inShape.size(); ++d) {
    InDimBases dim{DimName::dim(static_cast<int>(d)), {}};
    for (int i = 0; (int64_t(1) << i) < inShape[d]; ++i) {
      std::vector<uint64_t> basis(outShape.size(), 0);
      auto [od, ob] = target(static_cast<int>(d), i);
      if (od >= 0)
        basis[od] = uint64_t(1) << ob;
      dim.bases.push_back(basis);
    }
    ins.push_back(dim);
  }
  std::vector<DimSize> outs;
  for (size_t d = 0; d < outShape.size(); ++d)
    outs.push_back({DimName::dim(static_cast<int>(d)), static_cast<uint64_t>(outShape[d])});
  auto l = LinearLayout::fromBases(ins, outs);
  assert(l.ok() && "coordinate map construction");
  return std::move(l).value();
}

} // namespace linlayout::lower
