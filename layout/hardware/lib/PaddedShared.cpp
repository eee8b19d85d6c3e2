#include "linlayout/layout/PaddedShared.h"
#include "linlayout/layout/LayoutSpec.h"

#include "SpecCheck.h"

#include <algorithm>
#include <utility>

namespace linlayout {

namespace {

using BasisVec = std::vector<std::vector<int64_t>>;

constexpr const char *kF = "padded_shared";
// Triton keeps intervals and paddings as 32-bit values; a few pairs is all a layout needs.
constexpr int64_t kMaxPad = int64_t(1) << 31;
constexpr size_t kMaxPairs = 16;
// Padded addresses must fit comfortably in 64 bits.
constexpr __int128 kMaxAddress = __int128(1) << 62;

__int128 wideOffset(int64_t offset, std::span<const PadInterval> pads) {
  __int128 r = offset;
  for (const PadInterval &p : pads)
    r += __int128(offset >> spec::log2i(p.interval)) << spec::log2i(p.padding);
  return r;
}

Status checkPads(std::span<const PadInterval> pads) {
  if (pads.empty())
    return makeError("padded_shared: interval_padding_pairs is empty, expected at least one "
                     "[interval, padding] pair");
  if (pads.size() > kMaxPairs)
    return makeError("padded_shared: " + std::to_string(pads.size()) +
                     " interval/padding pairs, expected at most " + std::to_string(kMaxPairs));
  for (size_t i = 0; i < pads.size(); ++i) {
    const PadInterval &p = pads[i];
    if (!spec::isPow2(p.interval) || p.interval > kMaxPad)
      return makeError("padded_shared: interval " + std::to_string(p.interval) +
                       " is not a power of two (1 to 2^31)");
    if (!spec::isPow2(p.padding) || p.padding > kMaxPad)
      return makeError("padded_shared: padding " + std::to_string(p.padding) + " of interval " +
                       std::to_string(p.interval) + " is not a power of two (1 to 2^31)");
    for (size_t j = 0; j < i; ++j)
      if (pads[j].interval == p.interval)
        return makeError("padded_shared: interval " + std::to_string(p.interval) +
                         " is given twice");
  }
  return Status::success();
}

// Each basis moves one dimension by a power of two, inside the shape.
Status checkBases(const char *field, const BasisVec &bases, std::span<const int64_t> shape) {
  for (size_t i = 0; i < bases.size(); ++i) {
    const auto &b = bases[i];
    std::string name = std::string(field) + "[" + std::to_string(i) + "] " + spec::listText(b);
    if (b.size() != shape.size())
      return makeError("padded_shared: " + name + " has " + std::to_string(b.size()) +
                       " entries, expected the rank " + std::to_string(shape.size()));
    int moved = 0;
    for (size_t d = 0; d < b.size(); ++d) {
      if (b[d] == 0)
        continue;
      if (!spec::isPow2(b[d]) || b[d] >= shape[d])
        return makeError("padded_shared: " + name + " has entry " + std::to_string(b[d]) +
                         ", expected 0 or a power of two below shape[" + std::to_string(d) +
                         "] = " + std::to_string(shape[d]));
      ++moved;
    }
    if (moved != 1)
      return makeError("padded_shared: " + name +
                       (moved == 0 ? " is zero (a broadcast)" : " moves more than one dimension") +
                       ", expected each basis to move one dimension");
  }
  return Status::success();
}

Expected<LinearLayout> build(const BasisVec &offset, const BasisVec &block,
                             std::span<const int64_t> shape) {
  std::vector<InDimBases> in(2);
  in[0].name = DimName::offset();
  in[1].name = DimName::block();
  for (const auto &b : offset)
    in[0].bases.emplace_back(b.begin(), b.end());
  for (const auto &b : block)
    in[1].bases.emplace_back(b.begin(), b.end());
  std::vector<DimSize> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back({DimName::dim(int(d)), uint64_t(shape[d])});
  return LinearLayout::fromBases(in, outs, /*requireSurjective=*/false);
}

} // namespace

int64_t paddedOffset(int64_t offset, std::span<const PadInterval> pads) {
  return int64_t(wideOffset(offset, pads));
}

Expected<PaddedSharedSpec> PaddedSharedSpec::make(std::vector<PadInterval> pads,
                                                  BasisVec offsetBases, BasisVec blockBases,
                                                  std::vector<int64_t> shape) {
  LL_TRY_STATUS(checkPads(pads));
  LL_TRY_STATUS(spec::checkRank(kF, "shape", int64_t(shape.size())));
  int bits = 0;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (!spec::isPow2(shape[d]) || shape[d] > (int64_t(1) << 40))
      return makeError("padded_shared: shape[" + std::to_string(d) + "] is " +
                       std::to_string(shape[d]) + ", expected a power of two");
    bits += spec::log2i(shape[d]);
  }
  if (bits > 40)
    return makeError("padded_shared: shape " + spec::listText(shape) +
                     " has more than 2^40 elements");
  LL_TRY_STATUS(checkBases("offset_bases", offsetBases, shape));
  LL_TRY_STATUS(checkBases("cga_layout", blockBases, shape));
  auto l = build(offsetBases, blockBases, shape);
  if (!l.ok())
    return makeError("padded_shared: " + l.message());
  // Triton requires the linear component to be invertible: no broadcast, no element twice.
  if (!l->isInvertible())
    return makeError("padded_shared: the bases do not reach each element of shape " +
                     spec::listText(shape) + " exactly once (" +
                     std::to_string(offsetBases.size() + blockBases.size()) + " bases for " +
                     std::to_string(bits) + " bits)");
  int64_t offsets = int64_t(1) << offsetBases.size();
  if (wideOffset(offsets - 1, pads) >= kMaxAddress)
    return makeError("padded_shared: padded addresses of " + std::to_string(offsets) +
                     " offsets pass 2^62");
  PaddedSharedSpec s;
  s.pads_ = std::move(pads);
  s.offset_ = std::move(offsetBases);
  s.block_ = std::move(blockBases);
  s.shape_ = std::move(shape);
  return s;
}

Expected<PaddedSharedSpec> PaddedSharedSpec::identityFor(std::vector<PadInterval> pads,
                                                         std::vector<int64_t> shape,
                                                         std::vector<int64_t> order) {
  LL_TRY_STATUS(spec::checkRank(kF, "shape", int64_t(shape.size())));
  LL_TRY_STATUS(spec::checkSameLength(kF, "shape", shape.size(), "order", order.size()));
  LL_TRY_STATUS(spec::checkPermutation(kF, "order", order));
  BasisVec offset;
  for (int64_t d : order) {
    if (!spec::isPow2(shape[size_t(d)]) || shape[size_t(d)] > (int64_t(1) << 40))
      return makeError("padded_shared: shape[" + std::to_string(d) + "] is " +
                       std::to_string(shape[size_t(d)]) + ", expected a power of two");
    for (int64_t v = 1; v < shape[size_t(d)]; v *= 2) {
      std::vector<int64_t> b(shape.size(), 0);
      b[size_t(d)] = v;
      offset.push_back(std::move(b));
    }
  }
  return make(std::move(pads), std::move(offset), {}, std::move(shape));
}

std::vector<int64_t> PaddedSharedSpec::order() const {
  std::vector<int64_t> r;
  for (const auto &b : offset_)
    for (size_t d = 0; d < b.size(); ++d)
      if (b[d] != 0 && std::find(r.begin(), r.end(), int64_t(d)) == r.end())
        r.push_back(int64_t(d));
  for (int64_t d = rank() - 1; d >= 0; --d)
    if (std::find(r.begin(), r.end(), d) == r.end())
      r.push_back(d);
  return r;
}

int64_t PaddedSharedSpec::paddedOffset(int64_t offset) const {
  return linlayout::paddedOffset(offset, pads_);
}

int64_t PaddedSharedSpec::paddedSize() const {
  int64_t size = int64_t(1) << offset_.size();
  int64_t r = size;
  for (const PadInterval &p : pads_) {
    r += (size >> spec::log2i(p.interval)) << spec::log2i(p.padding);
    if (size % p.interval == 0) // no padding after the last element
      r -= p.padding;
  }
  return r;
}

int64_t PaddedSharedSpec::numCtas() const { return int64_t(1) << block_.size(); }

std::optional<CgaLayout> PaddedSharedSpec::cgaSplit() const { return std::nullopt; }

std::vector<std::vector<int64_t>> PaddedSharedSpec::ctaBases() const { return block_; }

Expected<PaddedSharedSpec> PaddedSharedSpec::withCga(const CgaLayout &cga) const {
  return make(pads_, offset_, cga.bases(), shape_);
}

Expected<LinearLayout> PaddedSharedSpec::toLinearLayout(std::span<const int64_t> shape) const {
  if (!std::equal(shape.begin(), shape.end(), shape_.begin(), shape_.end()))
    return makeError("padded_shared: shape " + spec::listText(shape) +
                     " differs from the layout's shape " + spec::listText(shape_));
  return build(offset_, block_, shape_);
}

// TritonGPU attribute syntax (AttrFields.h): `#ttg.padded_shared<[32:+4, 64:+8] {offset =
// [[0, 1], ...], block = []}>`, or `{order = [1, 0], shape = [64, 64]}` for an identity in
// that order with one CTA (the form Triton prints it in when it is one).
Expected<LayoutSpec> PaddedSharedSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(auto pairs, f.leadingPairs());
  std::vector<PadInterval> pads;
  for (auto [interval, padding] : pairs)
    pads.push_back({interval, padding});
  if (f.has("offset") || f.has("block")) {
    LL_ASSIGN_OR_RETURN(BasisVec offset, f.bases("offset"));
    LL_ASSIGN_OR_RETURN(BasisVec block, f.bases("block"));
    LL_TRY_STATUS(f.done({"offset", "block"}));
    // As for #ttg.linear, the shape is what the bases span.
    size_t rank = 0;
    for (const BasisVec *l : {&offset, &block})
      for (const auto &b : *l)
        rank = std::max(rank, b.size());
    if (rank == 0)
      return f.error("'" + f.full() + "' has no non-empty basis, so its rank is unknown");
    std::vector<int64_t> shape(rank, 1);
    for (const BasisVec *l : {&offset, &block})
      for (const auto &b : *l)
        for (size_t d = 0; d < b.size(); ++d) {
          if (b[d] < 0 || b[d] >= (int64_t(1) << 40))
            return f.error("'" + f.full() + "' has basis component " + std::to_string(b[d]) +
                           ", out of range");
          while (shape[d] <= b[d])
            shape[d] *= 2;
        }
    LL_ASSIGN_OR_RETURN(auto s, f.checked(make(std::move(pads), std::move(offset), std::move(block),
                                               std::move(shape))));
    return LayoutSpec(std::move(s));
  }
  LL_ASSIGN_OR_RETURN(auto order, f.ints("order"));
  LL_ASSIGN_OR_RETURN(auto shape, f.ints("shape"));
  LL_TRY_STATUS(f.done({"offset", "block", "order", "shape"}));
  LL_ASSIGN_OR_RETURN(auto s, f.checked(identityFor(std::move(pads), shape, order)));
  return LayoutSpec(std::move(s));
}

std::string PaddedSharedSpec::attrText() const {
  std::string t = "#ttg.padded_shared<[";
  for (size_t i = 0; i < pads_.size(); ++i)
    t += (i ? ", " : "") + std::to_string(pads_[i].interval) + ":+" +
         std::to_string(pads_[i].padding);
  t += "] {";
  auto identity = identityFor(pads_, shape_, order());
  if (block_.empty() && identity.ok() && identity->offset_ == offset_)
    t += "order = " + attrIntList(order()) + ", shape = " + attrIntList(shape_);
  else
    t += "offset = " + attrBasisList(offset_) + ", block = " + attrBasisList(block_);
  return t + "}>";
}

} // namespace linlayout
