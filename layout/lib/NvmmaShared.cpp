#include "linlayout/layout/NvmmaShared.h"

#include "SpecCheck.h"

namespace linlayout {

Expected<NvmmaSharedSpec> NvmmaSharedSpec::make(int64_t swizzleByteWidth, int64_t elementBitwidth,
                                                int64_t rank, bool transposed, bool fp4Padded,
                                                std::optional<CgaLayout> cga) {
  if (swizzleByteWidth != 0 && swizzleByteWidth != 32 && swizzleByteWidth != 64 &&
      swizzleByteWidth != 128)
    return makeError("nvmma_shared: swizzle_byte_width is " + std::to_string(swizzleByteWidth) +
                     ", expected 0, 32, 64 or 128");
  if (elementBitwidth != 8 && elementBitwidth != 16 && elementBitwidth != 32 &&
      elementBitwidth != 64)
    return makeError("nvmma_shared: element_bitwidth is " + std::to_string(elementBitwidth) +
                     ", expected 8, 16, 32 or 64");
  LL_TRY_STATUS(spec::checkRank("nvmma_shared", "rank", rank));
  if (fp4Padded && (swizzleByteWidth != 128 || elementBitwidth != 8))
    return makeError("nvmma_shared: fp4_padded needs swizzle_byte_width 128 and "
                     "element_bitwidth 8, got " +
                     std::to_string(swizzleByteWidth) + " and " + std::to_string(elementBitwidth));
  if (cga && cga->rank() != rank)
    return makeError("nvmma_shared: cga_layout has rank " + std::to_string(cga->rank()) +
                     " but rank is " + std::to_string(rank));
  NvmmaSharedSpec s;
  s.swizzleByteWidth_ = int(swizzleByteWidth);
  s.elementBitwidth_ = int(elementBitwidth);
  s.rank_ = int(rank);
  s.transposed_ = transposed;
  s.fp4Padded_ = fp4Padded;
  s.cga_ = cga ? std::move(*cga) : CgaLayout::single(int(rank));
  return s;
}

} // namespace linlayout

namespace linlayout {
Expected<LinearLayout> NvmmaSharedSpec::toLinearLayout(std::span<const int64_t>) const {
  return makeError("to_linear is not implemented yet for this family");
}
} // namespace linlayout
