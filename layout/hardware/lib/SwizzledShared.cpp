#include "linlayout/layout/SwizzledShared.h"
#include "linlayout/layout/LayoutSpec.h"

#include "BasisTable.h"
#include "SpecCheck.h"

namespace linlayout {

Expected<SwizzledSharedSpec> SwizzledSharedSpec::make(int64_t vec, int64_t perPhase,
                                                      int64_t maxPhase, std::vector<int64_t> order,
                                                      std::optional<CgaLayout> cga) {
  const char *f = "swizzled_shared";
  LL_TRY_STATUS(spec::checkPow2(f, "vec", vec));
  LL_TRY_STATUS(spec::checkPow2(f, "per_phase", perPhase));
  LL_TRY_STATUS(spec::checkPow2(f, "max_phase", maxPhase));
  LL_TRY_STATUS(spec::checkRank(f, "order", int64_t(order.size())));
  LL_TRY_STATUS(spec::checkPermutation(f, "order", order));
  int rank = int(order.size());
  if (cga && cga->rank() != rank)
    return makeError("swizzled_shared: cga_layout has rank " + std::to_string(cga->rank()) +
                     " but order has " + std::to_string(rank) + " entries");
  SwizzledSharedSpec s;
  s.vec_ = vec;
  s.perPhase_ = perPhase;
  s.maxPhase_ = maxPhase;
  s.order_ = std::move(order);
  s.cga_ = cga ? std::move(*cga) : CgaLayout::single(rank);
  return s;
}

} // namespace linlayout

namespace linlayout {

Expected<LinearLayout> SwizzledSharedSpec::toLinearLayout(std::span<const int64_t> shape) const {
  std::vector<int64_t> perCta = spec::shapePerCta(cga_, shape);
  const DimName ins[] = {DimName::offset(), DimName::block()};
  spec::BasisTable t(rank());
  if (rank() == 1) {
    t.identity(DimName::offset(), perCta[0], 0);
    return spec::combineCtaCga(std::move(t), cga_, shape, ins);
  }
  // Offsets walk the columns (order[0]) contiguously, then the rows (order[1]); row 2^i starts
  // at the column phase vec * ((2^i / per_phase) % max_phase), wrapped to the row length.
  int col = int(order_[0]), row = int(order_[1]);
  int64_t numCols = perCta[size_t(col)], numRows = perCta[size_t(row)];
  t.touch(row);
  t.touch(col);
  auto &off = t.mutableBases(DimName::offset());
  for (int64_t c = 1; c < numCols; c *= 2) {
    spec::BasisTable::Basis b(size_t(rank()), 0);
    b[size_t(col)] = c;
    off.push_back(std::move(b));
  }
  for (int64_t r = 1; r < numRows; r *= 2) {
    spec::BasisTable::Basis b(size_t(rank()), 0);
    b[size_t(row)] = r;
    b[size_t(col)] = (vec_ * ((r / perPhase_) % maxPhase_)) % numCols;
    off.push_back(std::move(b));
  }
  t.inferSizes();
  for (int i = 2; i < rank(); ++i)
    t.identity(DimName::offset(), perCta[size_t(order_[size_t(i)])], int(order_[size_t(i)]));
  return spec::combineCtaCga(std::move(t), cga_, shape, ins);
}

Expected<SwizzledSharedSpec> SwizzledSharedSpec::withCga(const CgaLayout &cga) const {
  return make(vec_, perPhase_, maxPhase_, order_, cga);
}

// TritonGPU attribute syntax (AttrFields.h).

Expected<LayoutSpec> SwizzledSharedSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(int64_t vec, f.integer("vec"));
  LL_ASSIGN_OR_RETURN(int64_t perPhase, f.integer("perPhase"));
  LL_ASSIGN_OR_RETURN(int64_t maxPhase, f.integer("maxPhase"));
  LL_ASSIGN_OR_RETURN(auto order, f.ints("order"));
  LL_ASSIGN_OR_RETURN(auto c, f.cga(int(order.size())));
  LL_ASSIGN_OR_RETURN(bool leadingOffset, f.boolean("hasLeadingOffset", false));
  LL_TRY_STATUS(f.done({"vec", "perPhase", "maxPhase", "order", "CTAsPerCGA", "CTASplitNum",
                        "CTAOrder", "CGALayout", "hasLeadingOffset"}));
  if (!leadingOffset) {
    LL_ASSIGN_OR_RETURN(auto s, f.checked(make(vec, perPhase, maxPhase, order, c)));
    return LayoutSpec(std::move(s));
  }
  // Triton 3.0-3.2 wrote Hopper's NVMMA layout as a shared layout with a leading offset: a
  // 16-byte vector (vec elements), phases spanning 8 rows of 128 bytes.
  bool ok = vec >= 1 && vec <= 16 && (vec & (vec - 1)) == 0 && perPhase >= 1 &&
            perPhase * maxPhase == 8 && (perPhase & (perPhase - 1)) == 0 && !order.empty();
  if (!ok)
    return f.error("'" + f.full() +
                   "' with hasLeadingOffset = true needs vec * element "
                   "size = 16 bytes and perPhase * maxPhase = 8 (an NVMMA swizzle), "
                   "got vec " +
                   std::to_string(vec) + ", perPhase " + std::to_string(perPhase) + ", maxPhase " +
                   std::to_string(maxPhase));
  int64_t rank = int64_t(order.size());
  bool transposed = order[0] != rank - 1;
  LL_ASSIGN_OR_RETURN(auto s, f.checked(NvmmaSharedSpec::make(128 / perPhase, 128 / vec, rank,
                                                              transposed, false, c)));
  return LayoutSpec(std::move(s));
}

std::string SwizzledSharedSpec::attrText() const {
  return "#ttg.swizzled_shared<{vec = " + std::to_string(vec()) +
         ", perPhase = " + std::to_string(perPhase()) +
         ", maxPhase = " + std::to_string(maxPhase()) + ", order = " + attrIntList(order()) +
         attrCgaText(cga()) + "}>";
}

} // namespace linlayout
