// Writing layout specs in TritonGPU's attribute syntax, as Triton 3.6 prints them (the reader is
// AttrSyntax.cpp).
#include "linlayout/layout/AttrSyntax.h"

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

namespace linlayout {

namespace {

std::string intList(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string basisList(const BasisList &b) {
  std::string s = "[";
  for (size_t i = 0; i < b.size(); ++i)
    s += (i ? ", " : "") + intList(b[i]);
  return s + "]";
}

std::string cgaText(const CgaLayout &c) {
  if (const auto &legacy = c.legacySplit())
    return ", CTAsPerCGA = " + intList(legacy->ctasPerCga) +
           ", CTASplitNum = " + intList(legacy->ctaSplitNum) +
           ", CTAOrder = " + intList(legacy->ctaOrder);
  if (c.isSingle())
    return "";
  return ", CGALayout = " + basisList(c.bases());
}

const char *boolText(bool b) { return b ? "true" : "false"; }

bool allOnes(const std::vector<int64_t> &v) {
  return std::all_of(v.begin(), v.end(), [](int64_t x) { return x == 1; });
}

} // namespace

std::string_view attrAliasStem(const LayoutSpec &spec) {
  switch (spec.kind()) {
  case LayoutKind::Blocked:
    return "blocked";
  case LayoutKind::Slice:
    return "slice";
  case LayoutKind::NvidiaMma:
  case LayoutKind::AmdMfma:
  case LayoutKind::AmdWmma:
    return "mma";
  case LayoutKind::DotOperand:
    return "dot_op";
  case LayoutKind::Linear:
    return "linear";
  case LayoutKind::SwizzledShared:
  case LayoutKind::NvmmaShared:
  case LayoutKind::SharedLinear:
    return "shared";
  }
  return "layout";
}

std::string printLayoutAttr(const LayoutSpec &spec) {
  return std::visit(
      [](const auto &s) -> std::string {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, BlockedSpec>) {
          return "#ttg.blocked<{sizePerThread = " + intList(s.sizePerThread()) +
                 ", threadsPerWarp = " + intList(s.threadsPerWarp()) +
                 ", warpsPerCTA = " + intList(s.warpsPerCta()) + ", order = " + intList(s.order()) +
                 cgaText(s.cga()) + "}>";
        } else if constexpr (std::is_same_v<T, SliceSpec>) {
          return "#ttg.slice<{dim = " + std::to_string(s.dim()) +
                 ", parent = " + printLayoutAttr(s.parent()) + "}>";
        } else if constexpr (std::is_same_v<T, NvidiaMmaSpec>) {
          return "#ttg.nvidia_mma<{versionMajor = " + std::to_string(s.versionMajor()) +
                 ", versionMinor = " + std::to_string(s.versionMinor()) +
                 ", warpsPerCTA = " + intList(s.warpsPerCta()) + cgaText(s.cga()) +
                 ", instrShape = " + intList(s.instrShape()) + "}>";
        } else if constexpr (std::is_same_v<T, DotOperandSpec>) {
          std::string t = "#ttg.dot_op<{opIdx = " + std::to_string(s.operandIndex()) +
                          ", parent = " + printLayoutAttr(s.parent());
          if (s.kWidth() != 0)
            t += ", kWidth = " + std::to_string(s.kWidth());
          return t + "}>";
        } else if constexpr (std::is_same_v<T, SwizzledSharedSpec>) {
          return "#ttg.swizzled_shared<{vec = " + std::to_string(s.vec()) +
                 ", perPhase = " + std::to_string(s.perPhase()) +
                 ", maxPhase = " + std::to_string(s.maxPhase()) +
                 ", order = " + intList(s.order()) + cgaText(s.cga()) + "}>";
        } else if constexpr (std::is_same_v<T, NvmmaSharedSpec>) {
          std::string t =
              "#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(s.swizzleByteWidth()) +
              ", transposed = " + boolText(s.transposed()) +
              ", elementBitWidth = " + std::to_string(s.elementBitwidth());
          if (s.fp4Padded())
            t += ", fp4Padded = true";
          if (s.rank() != 2)
            t += ", rank = " + std::to_string(s.rank());
          return t + cgaText(s.cga()) + "}>";
        } else if constexpr (std::is_same_v<T, AmdMfmaSpec>) {
          std::string t = "#ttg.amd_mfma<{version = " + std::to_string(s.version()) +
                          ", warpsPerCTA = " + intList(s.warpsPerCta()) +
                          ", instrShape = " + intList(s.instrShape()) +
                          ", isTransposed = " + boolText(s.transposed()) + cgaText(s.cga());
          if (!allOnes(s.tilesPerWarp()))
            t += ", tilesPerWarp = " + intList(s.tilesPerWarp());
          if (s.elementBitwidth() != 32)
            t += ", elementBitWidth = " + std::to_string(s.elementBitwidth());
          return t + "}>";
        } else if constexpr (std::is_same_v<T, AmdWmmaSpec>) {
          std::string t = "#ttg.amd_wmma<{version = " + std::to_string(s.version()) +
                          ", isTranspose = " + boolText(s.transposed()) +
                          ", warpsPerCTA = " + intList(s.warpsPerCta()) + cgaText(s.cga());
          if (!allOnes(s.tilesPerWarp()))
            t += ", tilesPerWarp = " + intList(s.tilesPerWarp());
          if (s.instrShape() != std::vector<int64_t>{16, 16, 16})
            t += ", instrShape = " + intList(s.instrShape());
          return t + "}>";
        } else if constexpr (std::is_same_v<T, LinearSpec>) {
          return "#ttg.linear<{register = " + basisList(s.regBases()) +
                 ", lane = " + basisList(s.laneBases()) + ", warp = " + basisList(s.warpBases()) +
                 ", block = " + basisList(s.blockBases()) + "}>";
        } else {
          static_assert(std::is_same_v<T, SharedLinearSpec>);
          std::string t = "#ttg.shared_linear<{offset = " + basisList(s.offsetBases());
          if (!s.blockBases().empty())
            t += ", block = " + basisList(s.blockBases());
          return t + "}, alignment = " + std::to_string(s.alignment()) + ">";
        }
      },
      spec.variant());
}

} // namespace linlayout
