#include "LayoutCache.h"

namespace linlayout::lower {

Expected<LinearLayout> LayoutCache::of(const ir::Type &t) {
  const LayoutSpec &spec = m_.layoutOf(t);
  std::vector<int64_t> shape = t.shape();
  if (t.isMemDesc() && spec.rank() < t.rank())
    shape.erase(shape.begin(), shape.end() - spec.rank());
  auto key = std::make_pair(t.layout(), shape);
  if (auto it = layouts_.find(key); it != layouts_.end())
    return it->second;
  LL_ASSIGN_OR_RETURN(LinearLayout l, toLinearLayout(spec, shape));
  layouts_.emplace(std::move(key), l);
  return l;
}

} // namespace linlayout::lower
