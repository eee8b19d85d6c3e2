#include "linlayout/layout/NvidiaMma.h"
#include "linlayout/layout/LayoutSpec.h"

#include "BasisTable.h"
#include "MmaTile.h"
#include "SpecCheck.h"

namespace linlayout {

Expected<NvidiaMmaSpec> NvidiaMmaSpec::make(int versionMajor, int versionMinor,
                                            std::vector<int64_t> warpsPerCta,
                                            std::vector<int64_t> instrShape,
                                            std::optional<CgaLayout> cga) {
  const char *f = "nvidia_mma";
  if (versionMajor != 2 && versionMajor != 3)
    return makeError("nvidia_mma: version [" + std::to_string(versionMajor) + ", " +
                     std::to_string(versionMinor) +
                     "] is not supported, expected [2, 0] (Ampere) or [3, 0] (Hopper)");
  // [2, 1] is Turing's mma.sync, whose accumulator is laid out as Ampere's.
  if (versionMinor != 0 && !(versionMajor == 2 && versionMinor == 1))
    return makeError("nvidia_mma: version [" + std::to_string(versionMajor) + ", " +
                     std::to_string(versionMinor) + "] is not supported, expected minor 0" +
                     (versionMajor == 2 ? " or 1" : ""));
  LL_TRY_STATUS(spec::checkRank(f, "warps_per_cta", int64_t(warpsPerCta.size())));
  LL_TRY_STATUS(spec::checkPow2List(f, "warps_per_cta", warpsPerCta));
  int rank = int(warpsPerCta.size());
  if (versionMajor == 2) {
    if (rank != 2 && rank != 3)
      return makeError("nvidia_mma: version 2 needs rank 2 or 3, warps_per_cta " +
                       spec::listText(warpsPerCta) + " gives rank " + std::to_string(rank));
    // [16, 8] (mma.sync m16n8), or [8, 8] (the fp64 m8n8); a rank-3 layout may spell the batch.
    std::vector<int64_t> mn = instrShape;
    if (rank == 3 && mn.size() == 3 && mn[0] == 1)
      mn.erase(mn.begin());
    bool ok = mn == std::vector<int64_t>{16, 8} || mn == std::vector<int64_t>{8, 8};
    if (!ok)
      return makeError("nvidia_mma: instr_shape is " + spec::listText(instrShape) +
                       ", expected [16, 8] (or [8, 8]) for version 2");
  } else {
    // Rank 3 is a batch of wgmma tiles (Triton builds its dot operands and their slices).
    if (rank != 2 && rank != 3)
      return makeError("nvidia_mma: version 3 needs rank 2 or 3, warps_per_cta " +
                       spec::listText(warpsPerCta) + " gives rank " + std::to_string(rank));
    if (instrShape.size() != 3 || instrShape[0] != 16 || instrShape[1] < 8 || instrShape[1] > 256 ||
        !spec::isPow2(instrShape[1]) || !spec::isPow2(instrShape[2]) || instrShape[2] > 256)
      return makeError("nvidia_mma: instr_shape is " + spec::listText(instrShape) +
                       ", expected [16, N, K] with N a power of two from 8 to 256 and K a "
                       "power of two for version 3");
    int64_t warps = 1;
    for (int64_t w : warpsPerCta)
      warps *= w;
    if (warps % 4 != 0)
      return makeError("nvidia_mma: warps_per_cta " + spec::listText(warpsPerCta) + " has " +
                       std::to_string(warps) +
                       " warps, version 3 needs a multiple of 4 (whole warp groups)");
  }
  if (cga && cga->rank() != rank)
    return makeError("nvidia_mma: cga_layout has rank " + std::to_string(cga->rank()) +
                     " but warps_per_cta has " + std::to_string(rank) + " entries");
  NvidiaMmaSpec s;
  s.versionMajor_ = versionMajor;
  s.versionMinor_ = versionMinor;
  s.warpsPerCta_ = std::move(warpsPerCta);
  s.instrShape_ = std::move(instrShape);
  s.cga_ = cga ? std::move(*cga) : CgaLayout::single(rank);
  return s;
}

} // namespace linlayout

namespace linlayout {

std::vector<int64_t> NvidiaMmaSpec::tileShape() const {
  // Hopper's instrShape is [M, N, K] at every rank; Ampere's is the tile, maybe without its batch.
  size_t tileDims = isHopper() ? 2 : instrShape_.size();
  std::vector<int64_t> t(size_t(rank()) - tileDims, 1);
  t.insert(t.end(), instrShape_.begin(), instrShape_.begin() + std::ptrdiff_t(tileDims));
  return t;
}

Expected<LinearLayout> NvidiaMmaSpec::toLinearLayout(std::span<const int64_t> shape) const {
  // The accumulator holds pairs of columns per register (kWidth 2); Ampere stacks warps with the
  // last dim fastest, Hopper with dim0 fastest (a warp group covers 64 rows).
  std::vector<int64_t> rowMajor = spec::matrixOrder(rank(), true);
  spec::BasisTable t = spec::mmaTile(tileShape(), 2, rowMajor, rowMajor);
  spec::identityND(t, DimName::warp(), warpsPerCta_, spec::matrixOrder(rank(), !isHopper()));
  const DimName ins[] = {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};
  return spec::combineCtaCga(std::move(t), cga_, shape, ins);
}

Expected<NvidiaMmaSpec> NvidiaMmaSpec::withCga(const CgaLayout &cga) const {
  return make(versionMajor_, versionMinor_, warpsPerCta_, instrShape_, cga);
}

Status NvidiaMmaSpec::checkOperand(int64_t operandIndex, int64_t kWidth) const {
  LL_TRY_STATUS(spec::checkPow2("dot_operand", "k_width", kWidth));
  if (kWidth > 64)
    return makeError("dot_operand: k_width is " + std::to_string(kWidth) + ", expected at most 64");
  if (isHopper() && operandIndex != 0)
    return makeError("dot_operand: operand_index is 1 with an nvidia_mma version 3 parent; "
                     "wgmma reads only A from registers");
  return Status::success();
}

Expected<LinearLayout> NvidiaMmaSpec::operandLayout(int operandIndex, int kWidth,
                                                    std::span<const int64_t> shape) const {
  int r = rank();
  bool isA = operandIndex == 0;
  int k = isA ? r - 1 : r - 2;
  const DimName ins[] = {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};
  // One instruction's operand tile: A is [instrM, kWidth * 8] (kWidth * 4 for the fp64
  // m8n8k4), B is [kWidth * 8, 8]; each lane holds kWidth consecutive K elements.
  std::vector<int64_t> tile(size_t(r), 1);
  int64_t instrM = tileShape()[size_t(r - 2)];
  int64_t kMul = instrM == 8 ? 4 : 8;
  if (isA) {
    tile[size_t(r - 2)] = instrM;
    tile[size_t(r - 1)] = kWidth * kMul;
  } else {
    tile[size_t(r - 2)] = kWidth * kMul;
    tile[size_t(r - 1)] = 8;
  }
  // K is the fastest dim of both operands (A row-major, B column-major).
  std::vector<int64_t> order = spec::matrixOrder(r, /*rowMajor=*/isA);
  spec::BasisTable t = spec::mmaTile(tile, kWidth, order, order);
  spec::broadcastAlongK(t, DimName::warp(), warpsPerCta(), spec::matrixOrder(r, !isHopper()), k);
  // Every CTA along K needs the whole K extent.
  return spec::combineCtaCga(std::move(t), cga().zeroDim(k), shape, ins);
}

// TritonGPU attribute syntax (AttrFields.h).

Expected<LayoutSpec> NvidiaMmaSpec::parseAttr(AttrFields &f) {
  int64_t major = 0, minor = 0;
  if (f.has("version")) { // the 2022 form: {version = 2, warpsPerCTA = [..]}
    if (f.has("versionMajor"))
      return f.errorAt("version", "give either 'version' or 'versionMajor', not both");
    LL_ASSIGN_OR_RETURN(major, f.integer("version"));
  } else {
    LL_ASSIGN_OR_RETURN(major, f.integer("versionMajor"));
    LL_ASSIGN_OR_RETURN(auto m, f.optInteger("versionMinor"));
    minor = m.value_or(0);
  }
  LL_ASSIGN_OR_RETURN(auto warps, f.ints("warpsPerCTA"));
  LL_ASSIGN_OR_RETURN(auto c, f.cga(int(warps.size())));
  LL_ASSIGN_OR_RETURN(auto given, f.optInts("instrShape"));
  std::vector<int64_t> instr;
  if (given) {
    instr = std::move(*given);
  } else if (major == 2) {
    // Dumps from before instrShape existed: Ampere's m16n8 accumulator.
    instr = warps.size() == 3 ? std::vector<int64_t>{1, 16, 8} : std::vector<int64_t>{16, 8};
  } else {
    return f.error("'" + f.full() + "' needs 'instrShape' for versionMajor " +
                   std::to_string(major));
  }
  LL_TRY_STATUS(f.done({"versionMajor", "versionMinor", "version", "warpsPerCTA", "CTAsPerCGA",
                        "CTASplitNum", "CTAOrder", "CGALayout", "instrShape"}));
  LL_ASSIGN_OR_RETURN(int maj, f.smallInt(major, "versionMajor"));
  LL_ASSIGN_OR_RETURN(int min, f.smallInt(minor, "versionMinor"));
  LL_ASSIGN_OR_RETURN(auto s, f.checked(make(maj, min, warps, instr, c)));
  return LayoutSpec(std::move(s));
}

std::string NvidiaMmaSpec::attrText() const {
  return "#ttg.nvidia_mma<{versionMajor = " + std::to_string(versionMajor()) +
         ", versionMinor = " + std::to_string(versionMinor()) +
         ", warpsPerCTA = " + attrIntList(warpsPerCta()) + attrCgaText(cga()) +
         ", instrShape = " + attrIntList(instrShape()) + "}>";
}

} // namespace linlayout
