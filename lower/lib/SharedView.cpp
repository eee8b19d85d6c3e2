#include "SharedView.h"

#include <vector>

namespace linlayout::lower {

Expected<uint64_t> viewOrigin(const LinearLayout &shared, std::span<const int64_t> origin) {
  std::vector<DimName> outs = shared.outDimNames();
  if (origin.size() != outs.size())
    return makeError("a view origin of rank " + std::to_string(origin.size()) +
                     " for a tile of rank " + std::to_string(outs.size()));
  LL_ASSIGN_OR_RETURN(LinearLayout perCta,
                      shared.sublayout(std::vector<DimName>{DimName::offset()}, outs));
  auto inv = perCta.invert();
  if (!inv.ok())
    return makeError("the shared layout is not a bijection onto the tile: " + inv.message());
  std::vector<uint64_t> coords;
  for (size_t d = 0; d < origin.size(); ++d) {
    if (origin[d] < 0 || uint64_t(origin[d]) >= shared.outDimSize(outs[d]))
      return makeError("view origin " + std::to_string(origin[d]) + " is outside dim " +
                       std::to_string(d) + " of the tile");
    coords.push_back(uint64_t(origin[d]));
  }
  return inv->apply(inv->packInput(coords));
}

Expected<LinearLayout> widenToTile(const LinearLayout &dist, const LinearLayout &shared) {
  LinearLayout out = dist;
  for (DimName d : dist.outDimNames()) {
    if (!shared.hasOutDim(d))
      return makeError("the view's layout has a dim the tile lacks");
    uint64_t want = shared.outDimSize(d);
    if (want < dist.outDimSize(d))
      return makeError("the view is larger than its tile");
    if (want != dist.outDimSize(d)) {
      LL_ASSIGN_OR_RETURN(out, out.resizeOutDim(d, want));
    }
  }
  return out;
}

int vectorUnderXor(int vec, uint64_t viewXor) {
  while (vec > 1 && (viewXor & uint64_t(vec - 1)))
    vec /= 2;
  return vec;
}

} // namespace linlayout::lower
