#include "linlayout/layout/NvmmaShared.h"
#include "linlayout/layout/LayoutSpec.h"

#include "BasisTable.h"
#include "SpecCheck.h"

#include <algorithm>

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
namespace {

// The box one TMA message moves (Triton's getTMABlockShape, tiled mode, packed size): at most 256
// per dim, and exactly one swizzle row along the contiguous dim.
Expected<std::vector<int64_t>> tmaBlockShape(const NvmmaSharedSpec &s,
                                             std::span<const int64_t> perCta) {
  std::vector<int64_t> block(perCta.begin(), perCta.end());
  size_t contig = s.transposed() ? 0 : block.size() - 1;
  if (s.fp4Padded())
    block[contig] *= 2;
  for (int64_t &x : block)
    x = std::min<int64_t>(x, 256);
  if (s.swizzleByteWidth() != 0) {
    int64_t contigSize = 8 * int64_t(s.swizzleByteWidth()) / s.elementBitwidth();
    if (block[contig] < contigSize)
      return makeError("nvmma_shared: shape per CTA " + spec::listText(perCta) + " has " +
                       std::to_string(perCta[contig]) + " elements along dim" +
                       std::to_string(contig) + ", fewer than one " +
                       std::to_string(s.swizzleByteWidth()) + "-byte swizzle row of " +
                       std::to_string(contigSize) + " elements");
    block[contig] = contigSize;
  }
  if (s.fp4Padded())
    block[contig] /= 2;
  return block;
}

// A 2-D (row, col) layout's bases, flattened row-major and re-split over `shape` (row-major):
// Triton's reshapeLayout.
spec::BasisTable::Basis reshapeRowMajor(int64_t row, int64_t col, int colBits,
                                        std::span<const int64_t> shape) {
  uint64_t v = (uint64_t(row) << colBits) | uint64_t(col);
  spec::BasisTable::Basis b(shape.size(), 0);
  for (size_t d = shape.size(); d-- > 0;) {
    int bits = spec::log2i(shape[d]);
    b[d] = int64_t(v & ((uint64_t(1) << bits) - 1));
    v >>= bits;
  }
  return b;
}

} // namespace

Expected<LinearLayout> NvmmaSharedSpec::toLinearLayout(std::span<const int64_t> shape) const {
  int r = rank();
  std::vector<int64_t> perCta = spec::shapePerCta(cga_, shape);
  LL_ASSIGN_OR_RETURN(std::vector<int64_t> tma, tmaBlockShape(*this, perCta));
  const DimName ins[] = {DimName::offset(), DimName::block()};
  DimName off = DimName::offset();
  if (swizzleByteWidth_ == 0) {
    // Unswizzled: the TMA box row-major (the last dim contiguous, `transposed` plays no part),
    // then the boxes, the last dim's first.
    spec::BasisTable t(r);
    for (int d = r - 1; d >= 0; --d)
      t.identity(off, tma[size_t(d)], d);
    t.ensureNotSmaller(perCta);
    return spec::combineCtaCga(std::move(t), cga_, shape, ins);
  }
  // One core matrix: 8 rows of one swizzle width (16 bytes wide at least); row 2^i XORs the
  // columns by (16-byte vectors) * ((2^i / perPhase) % maxPhase).
  int64_t vec = 128 / elementBitwidth_;
  int64_t perPhase = 128 / swizzleByteWidth_;
  int64_t maxPhase = swizzleByteWidth_ / 16;
  int64_t tileCols = 8 * int64_t(std::max(16, swizzleByteWidth_)) / elementBitwidth_;
  // fp4 padding: of each 16 offsets along a row the upper 8 are padding and alias the lower 8.
  auto packed = [&](int64_t c) { return fp4Padded_ ? c / 16 * 8 + c % 8 : c; };
  spec::BasisTable tile(2);
  tile.touch(0);
  tile.touch(1);
  auto &tb = tile.mutableBases(off);
  for (int64_t c = 1; c < tileCols; c *= 2)
    tb.push_back({0, packed(c)});
  for (int64_t row = 1; row < 8; row *= 2)
    tb.push_back({row, packed(vec * ((row / perPhase) % maxPhase))});
  tile.inferSizes();

  // The outer dims of the box collapse into rows (the box's contiguous dim is the columns).
  std::vector<int64_t> collapsed = {1, tma[size_t(r - 1)]};
  for (int d = 0; d + 1 < r; ++d)
    collapsed[0] *= tma[size_t(d)];
  if (transposed_)
    std::swap(collapsed[0], collapsed[1]);
  int64_t packing = fp4Padded_ ? 2 : 1;
  int64_t rows = int64_t(1) << tile.outBits(0), cols = int64_t(1) << tile.outBits(1);
  if (collapsed[1] * packing < cols || collapsed[0] < rows)
    return makeError("nvmma_shared: shape " + spec::listText(shape) +
                     " is smaller than one swizzle tile of " + std::to_string(rows) + " x " +
                     std::to_string(cols / packing) + " elements");
  tile.ensureNotSmaller(collapsed);

  // Back to the N-D box (transposed: the contiguous dim0 moved last), then into place.
  std::vector<int64_t> boxShape = tma;
  if (transposed_)
    std::rotate(boxShape.begin(), boxShape.begin() + 1, boxShape.end());
  int boxBits = 0;
  for (int64_t x : boxShape)
    boxBits += spec::log2i(x);
  if (boxBits != tile.outBits(0) + tile.outBits(1))
    return makeError("nvmma_shared: the swizzle tiles of shape " + spec::listText(shape) +
                     " do not fill the TMA box " + spec::listText(tma));
  spec::BasisTable t(r);
  for (int d = 0; d < r; ++d)
    t.touch(d);
  auto &bases = t.mutableBases(off);
  for (const auto &b : tile.bases(off)) {
    spec::BasisTable::Basis nd = reshapeRowMajor(b[0], b[1], tile.outBits(1), boxShape);
    if (transposed_)
      std::rotate(nd.rbegin(), nd.rbegin() + 1, nd.rend());
    bases.push_back(std::move(nd));
  }
  t.inferSizes();
  t.ensureNotSmaller(perCta);
  return spec::combineCtaCga(std::move(t), cga_, shape, ins);
}

Expected<NvmmaSharedSpec> NvmmaSharedSpec::withCga(const CgaLayout &cga) const {
  return make(swizzleByteWidth_, elementBitwidth_, rank_, transposed_, fp4Padded_, cga);
}

// TritonGPU attribute syntax (AttrFields.h).

Expected<LayoutSpec> NvmmaSharedSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(int64_t swizzle, f.integer("swizzlingByteWidth"));
  LL_ASSIGN_OR_RETURN(bool transposed, f.boolean("transposed", false));
  LL_ASSIGN_OR_RETURN(int64_t bits, f.integer("elementBitWidth"));
  LL_ASSIGN_OR_RETURN(bool fp4Padded, f.boolean("fp4Padded", false));
  // Triton prints the rank when it is not 2; older texts say it only through their CTA
  // split; otherwise the caller's hint, else 2.
  int rank = f.rankHint().value_or(2);
  if (f.has("rank")) {
    LL_ASSIGN_OR_RETURN(int64_t r, f.integer("rank"));
    if (r < 1 || r > 8)
      return f.error("'rank' of '" + f.full() + "' must be 1 to 8, got " + std::to_string(r));
    rank = int(r);
  } else if (auto r = f.cgaRank()) {
    rank = *r;
  }
  LL_ASSIGN_OR_RETURN(auto c, f.cga(rank));
  LL_TRY_STATUS(f.done({"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded", "rank",
                        "CTAsPerCGA", "CTASplitNum", "CTAOrder", "CGALayout"}));
  LL_ASSIGN_OR_RETURN(auto s, f.checked(make(swizzle, bits, rank, transposed, fp4Padded, c)));
  return LayoutSpec(std::move(s));
}

std::string NvmmaSharedSpec::attrText() const {
  std::string t = "#ttg.nvmma_shared<{swizzlingByteWidth = " + std::to_string(swizzleByteWidth()) +
                  ", transposed = " + attrBool(transposed()) +
                  ", elementBitWidth = " + std::to_string(elementBitwidth());
  if (fp4Padded())
    t += ", fp4Padded = true";
  if (rank() != 2)
    t += ", rank = " + std::to_string(rank());
  return t + attrCgaText(cga()) + "}>";
}

} // namespace linlayout
