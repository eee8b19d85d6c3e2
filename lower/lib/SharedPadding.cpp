#include "SharedPadding.h"

#include <bit>

namespace linlayout::lower {

namespace {

int log2Of(int64_t v) { return std::countr_zero(uint64_t(v)); }

} // namespace

llvm::Value *emitPaddedOffset(llvm::IRBuilder<> &b, llvm::Value *offset,
                              std::span<const PadInterval> pads) {
  llvm::Value *r = offset;
  for (const PadInterval &p : pads) {
    // (o >> log2 I) << log2 P: the shift right first drops the offset's bits inside an interval.
    llvm::Value *step = b.CreateLShr(offset, uint64_t(log2Of(p.interval)));
    r = b.CreateAdd(r, b.CreateShl(step, uint64_t(log2Of(p.padding)), "", /*HasNUW=*/true), "",
                    /*HasNUW=*/true, /*HasNSW=*/true);
  }
  return r;
}

int vectorUnderPadding(int vec, std::span<const PadInterval> pads) {
  for (const PadInterval &p : pads) {
    while (vec > 1 && (vec > p.interval || vec > p.padding))
      vec /= 2;
  }
  return vec;
}

int64_t sharedDescBytes(const ir::Module &m, const ir::Type &t) {
  const int64_t bytes = ir::byteWidth(t.elem().scalar);
  const auto *padded = m.layoutOf(t).as<PaddedSharedSpec>();
  if (!padded)
    return t.numElements() * bytes;
  const int64_t tileBytes = (padded->paddedSize() * bytes + 15) / 16 * 16;
  // Ring slots (and CTAs) each hold one tile of the layout's offsets.
  return (t.numElements() >> padded->offsetBases().size()) * tileBytes;
}

SplitOffset paddedByteOffset(llvm::IRBuilder<> &b, IndexEmitter &em, const LayoutIndexer &ix,
                             uint64_t c, std::span<const PadInterval> pads, int bytes) {
  // Padding is not linear, but it adds over offsets whose bits are disjoint ((h | c) >> s is
  // (h >> s) + (c >> s) then): where the constant never meets the hardware bits, the hardware
  // part is padded once and the constant's padded offset is an immediate.
  if ((c & ix.hardwareMask(0)) == 0) {
    llvm::Value *padded = emitPaddedOffset(b, em.hardwarePart(0), pads);
    return {b.CreateMul(padded, b.getInt32(uint32_t(bytes)), "", /*HasNUW=*/true),
            paddedOffset(int64_t(c), pads) * bytes};
  }
  llvm::Value *padded = emitPaddedOffset(b, em.withConstant(0, c), pads);
  return {b.CreateMul(padded, b.getInt32(uint32_t(bytes)), "", /*HasNUW=*/true), 0};
}

SplitOffset tileByteOffset(llvm::IRBuilder<> &b, IndexEmitter &em, const LayoutIndexer &ix,
                           uint64_t r, uint64_t viewXor, std::span<const PadInterval> pads,
                           int bytes) {
  if (pads.empty()) {
    if (viewXor)
      return em.scaledWithConstant(0, ix.registerPart(r, 0) ^ viewXor, bytes);
    int64_t strides[] = {bytes};
    return em.linearOffset(r, strides);
  }
  return paddedByteOffset(b, em, ix, ix.registerPart(r, 0) ^ viewXor, pads, bytes);
}

} // namespace linlayout::lower
