#include "linlayout/layout/AmdMfma.h"
#include "linlayout/layout/LayoutSpec.h"

#include "BasisTable.h"
#include "SpecCheck.h"

#include <algorithm>

namespace linlayout {

namespace {

constexpr int64_t kWavefront = 64; // lanes of a CDNA wavefront

const DimName kIns[] = {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};

bool isShape(const std::vector<int64_t> &instr, int64_t m, int64_t n) {
  return instr[0] == m && instr[1] == n;
}

} // namespace

Expected<AmdMfmaSpec> AmdMfmaSpec::make(int version, std::vector<int64_t> instrShape,
                                        bool transposed, std::vector<int64_t> warpsPerCta,
                                        int elementBitwidth, std::vector<int64_t> tilesPerWarp,
                                        std::optional<CgaLayout> cga) {
  const char *f = "amd_mfma";
  if (version < 1 || version > 4)
    return makeError("amd_mfma: version is " + std::to_string(version) +
                     ", expected 1 to 4 (gfx908, gfx90a, gfx942, gfx950)");
  if (instrShape.size() != 3)
    return makeError("amd_mfma: instr_shape is " + spec::listText(instrShape) +
                     ", expected [M, N, K]");
  if (!isShape(instrShape, 32, 32) && !isShape(instrShape, 16, 16) && !isShape(instrShape, 64, 4) &&
      !isShape(instrShape, 4, 64))
    return makeError("amd_mfma: instr_shape is " + spec::listText(instrShape) +
                     ", expected M x N of 32x32, 16x16, 64x4 or 4x64");
  LL_TRY_STATUS(spec::checkPow2(f, "instr_shape", instrShape[2]));
  if (isShape(instrShape, 64, 4) && !transposed)
    return makeError("amd_mfma: instr_shape " + spec::listText(instrShape) +
                     " needs transposed = true (64x4 is computed as a transposed 4x64)");
  if (elementBitwidth != 32 && elementBitwidth != 64)
    return makeError("amd_mfma: element_bitwidth is " + std::to_string(elementBitwidth) +
                     ", expected 32 or 64");
  LL_TRY_STATUS(spec::checkAmdWarpGrid(f, warpsPerCta, tilesPerWarp, cga ? &*cga : nullptr));
  int rank = int(warpsPerCta.size());
  AmdMfmaSpec s;
  s.version_ = version;
  s.instrShape_ = std::move(instrShape);
  s.transposed_ = transposed;
  s.warpsPerCta_ = std::move(warpsPerCta);
  s.elementBitwidth_ = elementBitwidth;
  s.tilesPerWarp_ = std::move(tilesPerWarp);
  s.cga_ = cga ? std::move(*cga) : CgaLayout::single(rank);
  return s;
}

Expected<AmdMfmaSpec> AmdMfmaSpec::withCga(const CgaLayout &cga) const {
  return make(version_, instrShape_, transposed_, warpsPerCta_, elementBitwidth_, tilesPerWarp_,
              cga);
}

Expected<LinearLayout> AmdMfmaSpec::toLinearLayout(std::span<const int64_t> shape) const {
  const int r = rank(), m = r - 2, n = r - 1;
  const int64_t mDim = instrShape_[0], nDim = instrShape_[1];
  // A lane holds `height` consecutive elements along `along` (M, or N when transposed); lanes
  // step the other dim of the tile first.
  const int64_t height = elementBitwidth_ == 64 ? 1 : 4;
  const int along = transposed_ ? n : m, across = transposed_ ? m : n;
  const int64_t acrossDim = transposed_ ? mDim : nDim;
  spec::BasisTable t(r);
  t.identity(DimName::reg(), height, along);
  t.identity(DimName::lane(), acrossDim, across);
  t.identity(DimName::lane(), kWavefront / acrossDim, along);
  // The registers repeat the lanes' block along `along` until the tile is covered.
  t.identity(DimName::reg(), std::max<int64_t>(1, mDim * nDim / (kWavefront * height)), along);
  t.setOutOrder({n, m});
  // Tiles are numbered N first over the whole tensor width (the dot lowering walks them so):
  // the warp's own tiles along N, the warps along N, the rest of the width, then along M.
  const int64_t tilesN = tilesPerWarp_[size_t(n)], warpsN = warpsPerCta_[size_t(n)];
  t.identity(DimName::reg(), tilesN, n);
  t.identity(DimName::warp(), warpsN, n);
  t.identity(DimName::reg(), std::max<int64_t>(1, shape[size_t(n)] / (nDim * warpsN * tilesN)), n);
  t.identity(DimName::reg(), tilesPerWarp_[size_t(m)], m);
  t.identity(DimName::warp(), warpsPerCta_[size_t(m)], m);
  if (r == 3) {
    t.touch(0);
    t.identity(DimName::warp(), warpsPerCta_[0], 0);
  }
  return spec::combineCtaCga(std::move(t), cga_, shape, kIns);
}

Status AmdMfmaSpec::checkOperand(int64_t, int64_t kWidth) const {
  LL_TRY_STATUS(spec::checkPow2("dot_operand", "k_width", kWidth));
  if (kWidth > 64)
    return makeError("dot_operand: k_width is " + std::to_string(kWidth) + ", expected at most 64");
  return Status::success();
}

Expected<LinearLayout> AmdMfmaSpec::operandLayout(int operandIndex, int kWidth,
                                                  std::span<const int64_t> shape) const {
  const int r = rank();
  const int k = operandIndex == 0 ? r - 1 : r - 2, nonK = operandIndex == 0 ? r - 2 : r - 1;
  const int64_t mDim = instrShape_[0], nDim = instrShape_[1];
  const int64_t nonKDim = operandIndex == 0 ? mDim : nDim;
  spec::BasisTable t(r);
  t.identity(DimName::reg(), kWidth, k);
  t.identity(DimName::lane(), nonKDim, nonK);
  t.identity(DimName::lane(), kWavefront / nonKDim, k);
  int64_t kTile = kWavefront / nonKDim * kWidth;
  // The 64-wide operand of 64x4 (A) and 4x64 (B) spans 16 blocks of K in registers.
  if ((isShape(instrShape_, 64, 4) && operandIndex == 0) ||
      (isShape(instrShape_, 4, 64) && operandIndex == 1)) {
    t.identity(DimName::reg(), 16, k);
    kTile *= 16;
  }
  if (shape[size_t(k)] > kTile)
    t.identity(DimName::reg(), shape[size_t(k)] / kTile, k);
  t.identity(DimName::reg(), tilesPerWarp_[size_t(nonK)], nonK);
  t.setOutOrder({k, nonK});
  if (r == 3)
    t.touch(0);
  spec::identityND(t, DimName::warp(), warpsPerCta_, spec::matrixOrder(r, true));
  return spec::combineCtaCga(std::move(t), cga_, shape, kIns);
}

// TritonGPU attribute syntax (AttrFields.h).

// Triton prints isTransposed, tilesPerWarp and elementBitWidth only where they differ from
// false, all 1 and 32.
Expected<LayoutSpec> AmdMfmaSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(int64_t version, f.integer("version"));
  LL_ASSIGN_OR_RETURN(auto warps, f.ints("warpsPerCTA"));
  LL_ASSIGN_OR_RETURN(auto instr, f.ints("instrShape"));
  LL_ASSIGN_OR_RETURN(bool transposed, f.boolean("isTransposed", false));
  LL_ASSIGN_OR_RETURN(auto c, f.cga(int(warps.size())));
  LL_ASSIGN_OR_RETURN(auto tiles, f.optInts("tilesPerWarp"));
  LL_ASSIGN_OR_RETURN(auto bits, f.optInteger("elementBitWidth"));
  LL_TRY_STATUS(
      f.done({"version", "warpsPerCTA", "instrShape", "isTransposed", "CTAsPerCGA", "CTASplitNum",
              "CTAOrder", "CGALayout", "tilesPerWarp", "elementBitWidth"}));
  LL_ASSIGN_OR_RETURN(int ver, f.smallInt(version, "version"));
  LL_ASSIGN_OR_RETURN(int width, f.smallInt(bits.value_or(32), "elementBitWidth"));
  LL_ASSIGN_OR_RETURN(auto s, f.checked(make(ver, instr, transposed, warps, width,
                                             tiles.value_or(std::vector<int64_t>{}), c)));
  return LayoutSpec(std::move(s));
}

std::string AmdMfmaSpec::attrText() const {
  std::string t = "#ttg.amd_mfma<{version = " + std::to_string(version()) +
                  ", warpsPerCTA = " + attrIntList(warpsPerCta()) +
                  ", instrShape = " + attrIntList(instrShape()) +
                  ", isTransposed = " + attrBool(transposed()) + attrCgaText(cga());
  if (!std::all_of(tilesPerWarp().begin(), tilesPerWarp().end(), [](int64_t x) { return x == 1; }))
    t += ", tilesPerWarp = " + attrIntList(tilesPerWarp());
  if (elementBitwidth() != 32)
    t += ", elementBitWidth = " + std::to_string(elementBitwidth());
  return t + "}>";
}

} // namespace linlayout
