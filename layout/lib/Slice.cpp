#include "linlayout/layout/Slice.h"

#include "linlayout/layout/LayoutSpec.h"

namespace linlayout {

Expected<SliceSpec> SliceSpec::make(int64_t dim, const LayoutSpec &parent) {
  if (!parent.isDistributed())
    return makeError("slice: parent is a " + std::string(kindName(parent.kind())) +
                     " layout, expected a distributed layout");
  if (parent.rank() < 2)
    return makeError("slice: parent has rank " + std::to_string(parent.rank()) +
                     ", expected at least 2");
  if (dim < 0 || dim >= parent.rank())
    return makeError("slice: dim " + std::to_string(dim) + " is out of range for a parent of rank " +
                     std::to_string(parent.rank()));
  SliceSpec s;
  s.dim_ = int(dim);
  s.parent_ = std::make_shared<const LayoutSpec>(parent);
  return s;
}

int SliceSpec::rank() const { return parent_->rank() - 1; }

bool operator==(const SliceSpec &a, const SliceSpec &b) {
  return a.dim_ == b.dim_ && *a.parent_ == *b.parent_;
}

} // namespace linlayout

namespace linlayout {
Expected<LinearLayout> SliceSpec::toLinearLayout(std::span<const int64_t>) const {
  return makeError("to_linear is not implemented yet for this family");
}
} // namespace linlayout
