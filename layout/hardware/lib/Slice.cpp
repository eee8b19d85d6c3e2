#include "linlayout/layout/Slice.h"
#include "linlayout/layout/AttrSyntax.h"

#include "linlayout/layout/CtaSplit.h"
#include "linlayout/layout/LayoutSpec.h"

#include <algorithm>

namespace linlayout {

Expected<SliceSpec> SliceSpec::make(int64_t dim, const LayoutSpec &parent) {
  if (!parent.isDistributed())
    return makeError("slice: parent is a " + std::string(kindName(parent.kind())) +
                     " layout, expected a distributed layout");
  if (parent.rank() < 2)
    return makeError("slice: parent has rank " + std::to_string(parent.rank()) +
                     ", expected at least 2");
  if (dim < 0 || dim >= parent.rank())
    return makeError("slice: dim " + std::to_string(dim) +
                     " is out of range for a parent of rank " + std::to_string(parent.rank()));
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

Expected<LinearLayout> SliceSpec::toLinearLayout(std::span<const int64_t> shape) const {
  // The parent over the shape with a size-1 dim re-inserted: everything that moved along the
  // sliced dim is zeroed by the parent's own shape fit-up. Then drop that out dim, and the
  // registers that now hold nothing new (zero bases).
  std::vector<int64_t> parentShape(shape.begin(), shape.end());
  parentShape.insert(parentShape.begin() + dim_, 1);
  LL_ASSIGN_OR_RETURN(LinearLayout parent, linlayout::toLinearLayout(*parent_, parentShape));
  std::vector<InDimBases> ins;
  for (InDimBases b : parent.bases()) {
    std::vector<std::vector<uint64_t>> kept;
    for (auto &v : b.bases) {
      v.erase(v.begin() + dim_);
      bool zero = std::all_of(v.begin(), v.end(), [](uint64_t x) { return x == 0; });
      if (!(zero && b.name == DimName::reg()))
        kept.push_back(std::move(v));
    }
    b.bases = std::move(kept);
    ins.push_back(std::move(b));
  }
  std::vector<DimSize> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({DimName::dim(int(d)), uint64_t(shape[d])});
  return LinearLayout::fromBases(ins, outs);
}

int64_t SliceSpec::numCtas() const { return numCtasOf(*parent_); }

std::optional<CgaLayout> SliceSpec::cgaSplit() const {
  auto parent = cgaOf(*parent_);
  if (!parent)
    return std::nullopt;
  return parent->dropDim(dim_);
}

// Only a CgaLayout parent's split is read (a slice of a linear layout reports no bases).
std::vector<std::vector<int64_t>> SliceSpec::ctaBases() const {
  auto c = cgaSplit();
  return c ? c->bases() : std::vector<std::vector<int64_t>>{};
}

Expected<SliceSpec> SliceSpec::withCga(const CgaLayout &cga) const {
  // The parent sees the slice's split with the sliced dimension not split.
  std::vector<std::vector<int64_t>> bases = cga.bases();
  for (auto &b : bases)
    b.insert(b.begin() + dim_, 0);
  LL_ASSIGN_OR_RETURN(CgaLayout pc, CgaLayout::fromBases(bases, cga.rank() + 1));
  LL_ASSIGN_OR_RETURN(LayoutSpec parent, linlayout::withCga(*parent_, pc));
  return make(dim_, parent);
}

// TritonGPU attribute syntax (AttrFields.h).

Expected<LayoutSpec> SliceSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(int64_t dim, f.integer("dim"));
  LL_TRY_STATUS(f.require("parent"));
  LL_TRY_STATUS(f.done({"dim", "parent"}));
  LL_ASSIGN_OR_RETURN(LayoutSpec parent, f.spec("parent"));
  LL_ASSIGN_OR_RETURN(auto s, f.checked(make(dim, parent)));
  return LayoutSpec(std::move(s));
}

std::string SliceSpec::attrText() const {
  return "#ttg.slice<{dim = " + std::to_string(dim()) + ", parent = " + printLayoutAttr(parent()) +
         "}>";
}

} // namespace linlayout
