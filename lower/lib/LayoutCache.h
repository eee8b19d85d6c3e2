// The linear layouts of one module's types, each computed once per (layout, shape): the planning
// before emission and every op-family lowering read them from the one cache of a kernel.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/LayoutSpec.h"

#include <map>
#include <utility>
#include <vector>

namespace linlayout::lower {

class LayoutCache {
public:
  explicit LayoutCache(const ir::Module &m) : m_(m) {}

  /// The linear layout of a tensor or shared-memory descriptor type of the module; for a ring
  /// descriptor (more dims than its layout has), the layout of one tile.
  /// Ensures: the same value as toLinearLayout(m.layoutOf(t), the tile's shape), or its error.
  Expected<LinearLayout> of(const ir::Type &t);

private:
  const ir::Module &m_;
  std::map<std::pair<ir::LayoutId, std::vector<int64_t>>, LinearLayout> layouts_;
};

} // namespace linlayout::lower
