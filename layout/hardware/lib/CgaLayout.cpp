#include "linlayout/layout/CgaLayout.h"

#include "SpecCheck.h"

#include <algorithm>
#include <cassert>

namespace linlayout {

CgaLayout CgaLayout::single(int rank) { return CgaLayout({}, rank); }

Expected<CgaLayout> CgaLayout::fromBases(std::vector<std::vector<int64_t>> bases, int rank) {
  LL_TRY_STATUS(spec::checkRank("cga_layout", "the tensor", rank));
  if (bases.size() > size_t(kMaxBlockBits))
    return makeError("cga_layout has " + std::to_string(bases.size()) + " bases, at most " +
                     std::to_string(kMaxBlockBits) + " block bits are supported");
  for (size_t i = 0; i < bases.size(); ++i) {
    const auto &b = bases[i];
    if (b.size() != size_t(rank))
      return makeError("cga_layout basis " + std::to_string(i) + " " + spec::listText(b) + " has " +
                       std::to_string(b.size()) + " entries, expected the rank " +
                       std::to_string(rank));
    for (int64_t c : b)
      if (c != 0 && (!spec::isPow2(c) || c >= (int64_t(1) << kMaxBlockBits)))
        return makeError("cga_layout basis " + std::to_string(i) + " " + spec::listText(b) +
                         " has entry " + std::to_string(c) +
                         ", expected 0 or a power of two below " +
                         std::to_string(int64_t(1) << kMaxBlockBits));
  }
  CgaLayout r(std::move(bases), rank);
  // Every tile must belong to some block (Triton builds the CGA layout as a surjective map).
  if (!r.toLinearLayout().isSurjective())
    return makeError("cga_layout bases leave some CTA tiles without a block (each dimension's "
                     "non-zero entries must step through 1, 2, 4, ... up to the largest)");
  return r;
}

Expected<CgaLayout> CgaLayout::fromSplit(std::span<const int64_t> ctasPerCga,
                                         std::span<const int64_t> ctaSplitNum,
                                         std::span<const int64_t> ctaOrder) {
  const char *f = "cta split";
  LL_TRY_STATUS(
      spec::checkSameLength(f, "ctas_per_cga", ctasPerCga.size(), "cta_order", ctaOrder.size()));
  LL_TRY_STATUS(
      spec::checkSameLength(f, "cta_split_num", ctaSplitNum.size(), "cta_order", ctaOrder.size()));
  LL_TRY_STATUS(spec::checkRank(f, "cta_order", int64_t(ctaOrder.size())));
  LL_TRY_STATUS(spec::checkPow2List(f, "ctas_per_cga", ctasPerCga));
  LL_TRY_STATUS(spec::checkPow2List(f, "cta_split_num", ctaSplitNum));
  LL_TRY_STATUS(spec::checkPermutation(f, "cta_order", ctaOrder));
  int rank = int(ctaOrder.size());
  int bits = 0;
  for (int d = 0; d < rank; ++d) {
    if (ctaSplitNum[d] > ctasPerCga[d])
      return makeError("cta split: cta_split_num[" + std::to_string(d) + "] is " +
                       std::to_string(ctaSplitNum[d]) + ", more than ctas_per_cga[" +
                       std::to_string(d) + "] = " + std::to_string(ctasPerCga[d]));
    bits += spec::log2i(ctasPerCga[d]);
  }
  if (bits > kMaxBlockBits)
    return makeError("cta split: ctas_per_cga " + spec::listText(ctasPerCga) + " has more than " +
                     std::to_string(int64_t(1) << kMaxBlockBits) + " CTAs");
  // From the fastest dimension: first the split tiles, then the CTAs that share a tile.
  std::vector<std::vector<int64_t>> bases;
  for (int64_t d : ctaOrder) {
    for (int64_t t = 1; t < ctaSplitNum[d]; t *= 2) {
      std::vector<int64_t> b(rank, 0);
      b[d] = t;
      bases.push_back(std::move(b));
    }
    for (int64_t t = ctaSplitNum[d]; t < ctasPerCga[d]; t *= 2)
      bases.emplace_back(rank, 0);
  }
  CgaLayout r(std::move(bases), rank);
  r.legacy_ = CtaSplit{{ctasPerCga.begin(), ctasPerCga.end()},
                       {ctaSplitNum.begin(), ctaSplitNum.end()},
                       {ctaOrder.begin(), ctaOrder.end()}};
  return r;
}

int64_t CgaLayout::ctaSplitNum(int d) const {
  assert(d >= 0 && d < rank_ && "dimension out of range");
  int64_t n = 1;
  for (const auto &b : bases_) {
    auto first = std::find_if(b.begin(), b.end(), [](int64_t v) { return v != 0; });
    if (first != b.end() && first - b.begin() == d)
      n *= 2;
  }
  return n;
}

int64_t CgaLayout::splitNum(int d) const {
  assert(d >= 0 && d < rank_ && "dimension out of range");
  int64_t m = 0;
  for (const auto &b : bases_)
    m = std::max(m, b[d]);
  return m == 0 ? 1 : 2 * m;
}

LinearLayout CgaLayout::toLinearLayout() const {
  InDimBases in{DimName::block(), {}};
  for (const auto &b : bases_)
    in.bases.emplace_back(b.begin(), b.end());
  std::vector<DimSize> outs;
  for (int d = 0; d < rank_; ++d)
    outs.push_back({DimName::dim(d), uint64_t(splitNum(d))});
  auto l = LinearLayout::fromBases(std::span(&in, 1), outs);
  assert(l.ok() && "checked CGA bases form a layout");
  return *l;
}

CgaLayout CgaLayout::dropDim(int dim) const {
  assert(dim >= 0 && dim < rank_ && "dimension out of range");
  auto bases = bases_;
  for (auto &b : bases)
    b.erase(b.begin() + dim);
  return CgaLayout(std::move(bases), rank_ - 1);
}

CgaLayout CgaLayout::zeroDim(int dim) const {
  assert(dim >= 0 && dim < rank_ && "dimension out of range");
  auto bases = bases_;
  for (auto &b : bases)
    b[dim] = 0;
  return CgaLayout(std::move(bases), rank_);
}

} // namespace linlayout
