#include "linlayout/layout/AmdWmma.h"
#include "linlayout/layout/LayoutSpec.h"

#include "BasisTable.h"
#include "SpecCheck.h"

#include <algorithm>

namespace linlayout {

namespace {

constexpr int64_t kWave = 32; // lanes of an RDNA wavefront

const DimName kIns[] = {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};

} // namespace

Expected<AmdWmmaSpec> AmdWmmaSpec::make(int version, bool transposed,
                                        std::vector<int64_t> warpsPerCta,
                                        std::vector<int64_t> instrShape,
                                        std::vector<int64_t> tilesPerWarp,
                                        std::optional<CgaLayout> cga) {
  const char *f = "amd_wmma";
  if (version < 1 || version > 3)
    return makeError("amd_wmma: version is " + std::to_string(version) +
                     ", expected 1 to 3 (RDNA3, RDNA4, gfx1250)");
  if (instrShape.empty())
    instrShape = {16, 16, 16};
  bool shapeOk = instrShape.size() == 3 && instrShape[0] == 16 && instrShape[1] == 16;
  if (version < 3 && !(shapeOk && instrShape[2] == 16))
    return makeError("amd_wmma: instr_shape is " + spec::listText(instrShape) +
                     ", expected [16, 16, 16] for version " + std::to_string(version));
  if (version == 3 && !(shapeOk && (instrShape[2] == 4 || instrShape[2] == 32 ||
                                    instrShape[2] == 64 || instrShape[2] == 128)))
    return makeError("amd_wmma: instr_shape is " + spec::listText(instrShape) +
                     ", expected [16, 16, K] with K one of 4, 32, 64, 128 for version 3");
  LL_TRY_STATUS(spec::checkAmdWarpGrid(f, warpsPerCta, tilesPerWarp, cga ? &*cga : nullptr));
  int rank = int(warpsPerCta.size());
  AmdWmmaSpec s;
  s.version_ = version;
  s.transposed_ = transposed;
  s.warpsPerCta_ = std::move(warpsPerCta);
  s.instrShape_ = std::move(instrShape);
  s.tilesPerWarp_ = std::move(tilesPerWarp);
  s.cga_ = cga ? std::move(*cga) : CgaLayout::single(rank);
  return s;
}

Expected<AmdWmmaSpec> AmdWmmaSpec::withCga(const CgaLayout &cga) const {
  return make(version_, transposed_, warpsPerCta_, instrShape_, tilesPerWarp_, cga);
}

Expected<LinearLayout> AmdWmmaSpec::toLinearLayout(std::span<const int64_t> shape) const {
  const int r = rank();
  // Lanes step `across` (N, or M when transposed); registers step `along`.
  const int across = transposed_ ? r - 2 : r - 1, along = transposed_ ? r - 1 : r - 2;
  spec::BasisTable t(r);
  auto basis = [&](int d, int64_t v) {
    std::vector<int64_t> b(size_t(r), 0);
    b[size_t(d)] = v;
    return b;
  };
  // (mutableBases may add a dim, so each list is filled before the next is asked for.)
  if (version_ == 1) {
    // Every second row in registers; lane 16 takes the rows between.
    t.mutableBases(DimName::reg()) = {basis(along, 2), basis(along, 4), basis(along, 8)};
    t.mutableBases(DimName::lane()) = {basis(across, 1), basis(across, 2), basis(across, 4),
                                       basis(across, 8), basis(along, 1)};
  } else {
    t.mutableBases(DimName::reg()) = {basis(along, 1), basis(along, 2), basis(along, 4)};
    t.mutableBases(DimName::lane()) = {basis(across, 1), basis(across, 2), basis(across, 4),
                                       basis(across, 8), basis(along, 8)};
  }
  t.inferSizes();
  // The tile grows over the shape in the repetition order: N, then M, then the batch.
  std::vector<int> repOrder;
  for (int64_t d : spec::matrixOrder(r, true))
    repOrder.push_back(int(d));
  t.setOutOrder(repOrder);
  // Tiles are numbered N first over the whole tensor width, as for MFMA (AmdMfma.cpp): the
  // warp's own tiles along N, the warps along N, the rest of the width, then along M.
  const int m = r - 2, n = r - 1;
  const int64_t tilesN = tilesPerWarp_[size_t(n)], warpsN = warpsPerCta_[size_t(n)];
  t.identity(DimName::reg(), tilesN, n);
  t.identity(DimName::warp(), warpsN, n);
  t.identity(DimName::reg(),
             std::max<int64_t>(1, shape[size_t(n)] / (instrShape_[1] * warpsN * tilesN)), n);
  t.identity(DimName::reg(), tilesPerWarp_[size_t(m)], m);
  t.identity(DimName::warp(), warpsPerCta_[size_t(m)], m);
  if (r == 3)
    t.identity(DimName::warp(), warpsPerCta_[0], 0);
  return spec::combineCtaCga(std::move(t), cga_, shape, kIns);
}

Status AmdWmmaSpec::checkOperand(int64_t, int64_t kWidth) const {
  std::vector<int64_t> allowed = version_ == 1   ? std::vector<int64_t>{8, 16}
                                 : version_ == 2 ? std::vector<int64_t>{4, 8, 16}
                                                 : std::vector<int64_t>{2, 8, 16};
  if (std::find(allowed.begin(), allowed.end(), kWidth) == allowed.end())
    return makeError("dot_operand: k_width is " + std::to_string(kWidth) + ", expected " +
                     spec::listText(allowed) + " with an amd_wmma version " +
                     std::to_string(version_) + " parent");
  return Status::success();
}

Expected<LinearLayout> AmdWmmaSpec::operandLayout(int operandIndex, int kWidth,
                                                  std::span<const int64_t> shape) const {
  const int r = rank();
  const int k = operandIndex == 0 ? r - 1 : r - 2, nonK = operandIndex == 0 ? r - 2 : r - 1;
  const int64_t nonKDim = instrShape_[operandIndex == 0 ? 0 : 1], kDim = instrShape_[2];
  const int64_t depth = kWave / nonKDim;
  spec::BasisTable t(r);
  t.identity(DimName::reg(), kWidth, k);
  t.identity(DimName::lane(), nonKDim, nonK);
  // Version 1 repeats the values of lanes 0-15 in lanes 16-31; later versions give them the
  // next k_width elements of K.
  if (version_ == 1)
    t.zeros(DimName::lane(), depth, k);
  else
    t.identity(DimName::lane(), depth, k);
  t.identity(DimName::reg(), std::max<int64_t>(1, kDim / (depth * kWidth)), k);
  // Registers repeat along K up to the tensor's K, counted in instruction tiles of K extent
  // max(K, depth * k_width) (version 1's repeated lanes count too), then take the warp's own
  // tiles along the non-K dim.
  int64_t tileK = std::max(kDim, depth * kWidth);
  // Triton 3.6 counts A's K per CTA and B's K over the whole tensor (extra repeats are then
  // broadcast registers); MFMA counts the whole K for both.
  int64_t kSize = operandIndex == 0 ? spec::shapePerCta(cga_, shape)[size_t(k)] : shape[size_t(k)];
  if (kSize > tileK)
    t.identity(DimName::reg(), kSize / tileK, k);
  t.identity(DimName::reg(), tilesPerWarp_[size_t(nonK)], nonK);
  t.setOutOrder({k, nonK});
  if (r == 3)
    t.touch(0);
  spec::broadcastAlongK(t, DimName::warp(), warpsPerCta_, spec::matrixOrder(r, true), k);
  return spec::combineCtaCga(std::move(t), cga_, shape, kIns);
}

// TritonGPU attribute syntax (AttrFields.h).

// Triton spells the WMMA flag isTranspose, and omits instrShape when it is [16, 16, 16].
Expected<LayoutSpec> AmdWmmaSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(int64_t version, f.integer("version"));
  LL_ASSIGN_OR_RETURN(bool transposed, f.boolean("isTranspose", false));
  LL_ASSIGN_OR_RETURN(auto warps, f.ints("warpsPerCTA"));
  LL_ASSIGN_OR_RETURN(auto c, f.cga(int(warps.size())));
  LL_ASSIGN_OR_RETURN(auto tiles, f.optInts("tilesPerWarp"));
  LL_ASSIGN_OR_RETURN(auto instr, f.optInts("instrShape"));
  LL_TRY_STATUS(f.done({"version", "isTranspose", "warpsPerCTA", "CTAsPerCGA", "CTASplitNum",
                        "CTAOrder", "CGALayout", "tilesPerWarp", "instrShape"}));
  LL_ASSIGN_OR_RETURN(int ver, f.smallInt(version, "version"));
  LL_ASSIGN_OR_RETURN(auto s,
                      f.checked(make(ver, transposed, warps, instr.value_or(std::vector<int64_t>{}),
                                     tiles.value_or(std::vector<int64_t>{}), c)));
  return LayoutSpec(std::move(s));
}

std::string AmdWmmaSpec::attrText() const {
  std::string t = "#ttg.amd_wmma<{version = " + std::to_string(version()) +
                  ", isTranspose = " + attrBool(transposed()) +
                  ", warpsPerCTA = " + attrIntList(warpsPerCta()) + attrCgaText(cga());
  if (!std::all_of(tilesPerWarp().begin(), tilesPerWarp().end(), [](int64_t x) { return x == 1; }))
    t += ", tilesPerWarp = " + attrIntList(tilesPerWarp());
  if (instrShape() != std::vector<int64_t>{16, 16, 16})
    t += ", instrShape = " + attrIntList(instrShape());
  return t + "}>";
}

} // namespace linlayout
