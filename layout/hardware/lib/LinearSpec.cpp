#include "linlayout/layout/LinearSpec.h"
#include "linlayout/layout/LayoutSpec.h"

#include "BasisTable.h"
#include "SpecCheck.h"
#include "linlayout/layout/CgaLayout.h"

#include <algorithm>

namespace linlayout {
namespace {

Status checkBases(const char *family, const char *field, const BasisList &bases, size_t rank,
                  std::span<const int64_t> shape) {
  if (bases.size() > size_t(LinearLayout::kMaxBits))
    return makeError(std::string(family) + ": " + field + " has " + std::to_string(bases.size()) +
                     " bases, more than " + std::to_string(LinearLayout::kMaxBits));
  for (size_t i = 0; i < bases.size(); ++i) {
    if (bases[i].size() != rank)
      return makeError(std::string(family) + ": " + field + "[" + std::to_string(i) + "] " +
                       spec::listText(bases[i]) + " has " + std::to_string(bases[i].size()) +
                       " entries, expected the rank " + std::to_string(rank));
    for (size_t d = 0; d < rank; ++d) {
      int64_t c = bases[i][d];
      int64_t limit = shape.empty() ? (int64_t(1) << 40) : shape[d];
      if (c < 0 || c >= limit)
        return makeError(std::string(family) + ": " + field + "[" + std::to_string(i) + "] " +
                         spec::listText(bases[i]) + " has entry " + std::to_string(c) +
                         (shape.empty() ? ", expected 0 to 2^40 - 1"
                                        : " outside shape[" + std::to_string(d) +
                                              "] = " + std::to_string(shape[d])));
    }
  }
  return Status::success();
}

// The layout from named bases onto dims sized `shape`.
Expected<LinearLayout> build(std::vector<std::pair<DimName, const BasisList *>> ins,
                             std::span<const int64_t> shape) {
  std::vector<InDimBases> in;
  for (auto [name, bases] : ins) {
    InDimBases b{name, {}};
    for (const auto &v : *bases)
      b.bases.emplace_back(v.begin(), v.end());
    in.push_back(std::move(b));
  }
  std::vector<DimSize> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({DimName::dim(int(d)), uint64_t(shape[d])});
  return LinearLayout::fromBases(in, outs, /*requireSurjective=*/false);
}

} // namespace

Expected<LinearSpec> LinearSpec::make(BasisList regBases, BasisList laneBases, BasisList warpBases,
                                      BasisList blockBases, std::vector<int64_t> shape) {
  const char *f = "linear";
  LL_TRY_STATUS(spec::checkRank(f, "shape", int64_t(shape.size())));
  int bits = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!spec::isPow2(shape[d]) || shape[d] > (int64_t(1) << 40))
      return makeError("linear: shape[" + std::to_string(d) + "] is " + std::to_string(shape[d]) +
                       ", expected a power of two");
    bits += spec::log2i(shape[d]);
  }
  if (bits > LinearLayout::kMaxBits)
    return makeError("linear: shape " + spec::listText(shape) + " has more than 2^64 elements");
  LL_TRY_STATUS(checkBases(f, "reg_bases", regBases, shape.size(), shape));
  LL_TRY_STATUS(checkBases(f, "lane_bases", laneBases, shape.size(), shape));
  LL_TRY_STATUS(checkBases(f, "warp_bases", warpBases, shape.size(), shape));
  LL_TRY_STATUS(checkBases(f, "block_bases", blockBases, shape.size(), shape));
  auto l = build({{DimName::reg(), &regBases},
                  {DimName::lane(), &laneBases},
                  {DimName::warp(), &warpBases},
                  {DimName::block(), &blockBases}},
                 shape);
  if (!l.ok())
    return makeError("linear: " + l.message());
  if (!l->isSurjective())
    return makeError("linear: the bases do not reach every element of shape " +
                     spec::listText(shape));
  LinearSpec s;
  s.reg_ = std::move(regBases);
  s.lane_ = std::move(laneBases);
  s.warp_ = std::move(warpBases);
  s.block_ = std::move(blockBases);
  s.shape_ = std::move(shape);
  return s;
}

Expected<LinearLayout> LinearSpec::toLinearLayout(std::span<const int64_t> shape) const {
  if (std::equal(shape.begin(), shape.end(), shape_.begin(), shape_.end()))
    return build({{DimName::reg(), &reg_},
                  {DimName::lane(), &lane_},
                  {DimName::warp(), &warp_},
                  {DimName::block(), &block_}},
                 shape_);
  // Another shape (Triton's LinearEncodingAttr::toLinearLayout): repeat in registers along the
  // dims in register order, or drop the registers (and zero the rest) past the shape.
  spec::BasisTable t(rank());
  std::vector<int64_t> order;
  for (const auto &b : reg_)
    for (int d = 0; d < rank(); ++d)
      if (b[size_t(d)] != 0) {
        if (std::find(order.begin(), order.end(), d) == order.end())
          order.push_back(d);
        break;
      }
  for (int d = rank() - 1; d >= 0; --d)
    if (std::find(order.begin(), order.end(), d) == order.end())
      order.push_back(d);
  for (int64_t d : order)
    t.touch(int(d));
  t.mutableBases(DimName::reg()) = reg_;
  t.mutableBases(DimName::lane()) = lane_;
  t.mutableBases(DimName::warp()) = warp_;
  t.mutableBases(DimName::block()) = block_;
  t.inferSizes();
  t.ensureNotSmaller(shape);
  LL_TRY_STATUS(t.ensureNotLarger(shape, /*removeRegisters=*/true));
  const DimName ins[] = {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};
  return t.toLayout(ins);
}

Expected<SharedLinearSpec> SharedLinearSpec::make(BasisList offsetBases, BasisList blockBases,
                                                  int64_t alignment) {
  const char *f = "shared_linear";
  if (offsetBases.empty())
    return makeError("shared_linear: offset_bases is empty, expected at least one basis");
  size_t rank = offsetBases.front().size();
  LL_TRY_STATUS(spec::checkRank(f, "offset_bases[0]", int64_t(rank)));
  LL_TRY_STATUS(spec::checkPow2(f, "alignment", alignment));
  LL_TRY_STATUS(checkBases(f, "offset_bases", offsetBases, rank, {}));
  LL_TRY_STATUS(checkBases(f, "block_bases", blockBases, rank, {}));
  SharedLinearSpec s;
  s.offset_ = std::move(offsetBases);
  s.block_ = std::move(blockBases);
  s.alignment_ = alignment;
  std::vector<int64_t> shape = s.shape();
  int bits = 0;
  for (int64_t x : shape)
    bits += spec::log2i(x);
  if (bits > LinearLayout::kMaxBits)
    return makeError("shared_linear: the bases imply shape " + spec::listText(shape) +
                     ", more than 2^64 elements");
  auto l = s.toLinearLayout(shape);
  if (!l.ok())
    return makeError("shared_linear: " + l.message());
  if (!l->isSurjective())
    return makeError("shared_linear: the bases do not reach every element of their shape " +
                     spec::listText(shape));
  return s;
}

std::vector<int64_t> SharedLinearSpec::shape() const {
  std::vector<int64_t> r(rank(), 1);
  for (const BasisList *bl : {&offset_, &block_})
    for (const auto &b : *bl)
      for (size_t d = 0; d < b.size(); ++d)
        while (r[d] <= b[d])
          r[d] *= 2;
  return r;
}

Expected<LinearLayout> SharedLinearSpec::toLinearLayout(std::span<const int64_t> shape) const {
  std::vector<int64_t> own = this->shape();
  if (!std::equal(shape.begin(), shape.end(), own.begin(), own.end()))
    return makeError("shared_linear: shape " + spec::listText(shape) +
                     " differs from the layout's shape " + spec::listText(own));
  return build({{DimName::offset(), &offset_}, {DimName::block(), &block_}}, shape);
}

int64_t LinearSpec::numCtas() const { return int64_t(1) << block_.size(); }

std::optional<CgaLayout> LinearSpec::cgaSplit() const { return std::nullopt; }

std::vector<std::vector<int64_t>> LinearSpec::ctaBases() const { return block_; }

Expected<LinearSpec> LinearSpec::withCga(const CgaLayout &cga) const {
  return make(reg_, lane_, warp_, cga.bases(), shape_);
}

int64_t SharedLinearSpec::numCtas() const { return int64_t(1) << block_.size(); }

std::optional<CgaLayout> SharedLinearSpec::cgaSplit() const { return std::nullopt; }

std::vector<std::vector<int64_t>> SharedLinearSpec::ctaBases() const { return block_; }

Expected<SharedLinearSpec> SharedLinearSpec::withCga(const CgaLayout &cga) const {
  return make(offset_, cga.bases(), alignment_);
}

// TritonGPU attribute syntax (AttrFields.h).

Expected<LayoutSpec> LinearSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(BasisList reg, f.bases("register"));
  LL_ASSIGN_OR_RETURN(BasisList lane, f.bases("lane"));
  LL_ASSIGN_OR_RETURN(BasisList warp, f.bases("warp"));
  LL_ASSIGN_OR_RETURN(BasisList block, f.bases("block"));
  LL_TRY_STATUS(f.done({"register", "lane", "warp", "block"}));
  // As in Triton, the tensor shape is what the bases span: per dimension the smallest power
  // of two above every component.
  size_t rank = 0;
  for (const BasisList *l : {&reg, &lane, &warp, &block})
    for (const auto &b : *l)
      rank = std::max(rank, b.size());
  if (rank == 0)
    return f.error("'" + f.full() + "' has no non-empty basis, so its rank is unknown");
  std::vector<int64_t> shape(rank, 1);
  for (const BasisList *l : {&reg, &lane, &warp, &block})
    for (const auto &b : *l)
      for (size_t d = 0; d < b.size() && d < rank; ++d) {
        if (b[d] < 0 || b[d] >= (int64_t(1) << 40))
          return f.error("'" + f.full() + "' has basis component " + std::to_string(b[d]) +
                         ", out of range");
        while (shape[d] <= b[d])
          shape[d] *= 2;
      }
  LL_ASSIGN_OR_RETURN(auto s, f.checked(make(reg, lane, warp, block, shape)));
  return LayoutSpec(std::move(s));
}

std::string LinearSpec::attrText() const {
  return "#ttg.linear<{register = " + attrBasisList(regBases()) +
         ", lane = " + attrBasisList(laneBases()) + ", warp = " + attrBasisList(warpBases()) +
         ", block = " + attrBasisList(blockBases()) + "}>";
}

Expected<LayoutSpec> SharedLinearSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(BasisList offset, f.bases("offset"));
  LL_ASSIGN_OR_RETURN(BasisList block, f.bases("block"));
  LL_ASSIGN_OR_RETURN(auto alignment, f.optInteger("alignment"));
  LL_TRY_STATUS(f.done({"offset", "block", "alignment"}));
  LL_ASSIGN_OR_RETURN(auto s, f.checked(make(offset, block, alignment.value_or(16))));
  return LayoutSpec(std::move(s));
}

std::string SharedLinearSpec::attrText() const {
  std::string t = "#ttg.shared_linear<{offset = " + attrBasisList(offsetBases());
  if (!blockBases().empty())
    t += ", block = " + attrBasisList(blockBases());
  return t + "}, alignment = " + std::to_string(alignment()) + ">";
}

} // namespace linlayout
