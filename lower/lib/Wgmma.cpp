#include "Wgmma.h"

#include <cassert>
#include <string>

namespace linlayout::lower {

namespace {

int log2Of(uint64_t x) { return 63 - __builtin_clzll(x); }

// The packed output of input value v of in dim d (0 when the layout has no such dim).
uint64_t applyDim(const LinearLayout &l, DimName d, uint64_t v) {
  int i = l.inDimIndex(d);
  if (i < 0 || v == 0)
    return 0;
  return l.apply(v << l.inDimOffset(i));
}

std::pair<int64_t, int64_t> rowColOf(const LinearLayout &l, uint64_t packed) {
  return {int64_t(l.outValue(packed, 0)), int64_t(l.outValue(packed, 1))};
}

std::string rc(int64_t r, int64_t c) {
  return "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
}

} // namespace

uint64_t WgmmaSmemOperand::descriptorHighBits() const {
  uint64_t mode = swizzleBytes == 128 ? 1 : swizzleBytes == 64 ? 2 : swizzleBytes == 32 ? 3 : 0;
  return ((uint64_t(leadingByteOffset) >> 4) & 0x3FFF) << 16 |
         ((uint64_t(strideByteOffset) >> 4) & 0x3FFF) << 32 | mode << 62;
}

uint64_t wgmmaElementAddress(const WgmmaSmemOperand &op, uint64_t start, uint64_t mn, uint64_t k) {
  uint64_t s = uint64_t(op.swizzleBytes), e = uint64_t(op.elemBytes);
  uint64_t lbo = uint64_t(op.leadingByteOffset), sbo = uint64_t(op.strideByteOffset);
  start &= ~uint64_t(15); // the descriptor holds the start address in units of 16 bytes
  if (s == 16) {
    // No swizzle: core matrices of 8 rows of 16 bytes, each 128 contiguous bytes. K-major, a
    // row is one mn and SBO steps 8 mn, LBO the next 16 bytes of K; MN-major, a row is one k
    // and SBO steps the next 16 bytes of mn, LBO 8 k.
    uint64_t t = 16 / e;
    if (!op.mnMajor)
      return start + (mn / 8) * sbo + (mn % 8) * 16 + (k / t) * lbo + (k % t) * e;
    return start + (mn / t) * sbo + (mn % t) * e + (k / 8) * lbo + (k % 8) * 16;
  }
  uint64_t a;
  if (!op.mnMajor) {
    a = start + (mn / 8) * sbo + (mn % 8) * s + k * e;
  } else {
    uint64_t rowElems = s / e;
    a = start + (mn / rowElems) * lbo + (k / 8) * sbo + (k % 8) * s + (mn % rowElems) * e;
  }
  uint64_t bits = uint64_t(log2Of(s / 16));
  return a ^ (((a >> 7) & ((uint64_t(1) << bits) - 1)) << 4);
}

Expected<SharedOffsets> SharedOffsets::of(const LinearLayout &shared) {
  if (shared.numOutDims() != 2 || !shared.hasInDim(DimName::offset()))
    return makeError("wgmma operands must be rank-2 shared-memory tiles");
  SharedOffsets t;
  t.rows = int64_t(shared.outDimSize(shared.outDimName(0)));
  t.cols = int64_t(shared.outDimSize(shared.outDimName(1)));
  uint64_t n = shared.inDimSize(DimName::offset());
  if (int64_t(n) != t.rows * t.cols)
    return makeError("the shared layout has " + std::to_string(n) + " offsets for a " +
                     std::to_string(t.rows) + "x" + std::to_string(t.cols) + " tile");
  t.offset.assign(size_t(n), -1);
  for (uint64_t o = 0; o < n; ++o) {
    auto [r, c] = rowColOf(shared, applyDim(shared, DimName::offset(), o));
    int64_t &slot = t.offset[size_t(r * t.cols + c)];
    if (slot >= 0)
      return makeError("the shared layout stores element " + rc(r, c) + " twice");
    slot = int64_t(o);
  }
  return t;
}

SharedOffsets SharedOffsets::view(uint64_t viewXor, int64_t r, int64_t c) const {
  assert(r <= rows && c <= cols && "a view lies inside its tile");
  SharedOffsets v;
  v.rows = r;
  v.cols = c;
  v.offset.reserve(size_t(r * c));
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j)
      v.offset.push_back(int64_t(uint64_t(at(i, j)) ^ viewXor));
  return v;
}

Expected<WgmmaSmemOperand> deriveWgmmaOperand(const SharedOffsets &tile, int kDim, int elemBytes,
                                              int64_t tileMn, const SharedOffsets *view) {
  int mnDim = 1 - kDim;
  // The descriptor's fields come from the whole tile's layout, the reads from what is read.
  const SharedOffsets &t = tile, &read = view ? *view : tile;
  int64_t ext[2] = {t.rows, t.cols};
  auto off = [&](int64_t mn, int64_t k) { return kDim == 1 ? t.at(mn, k) : t.at(k, mn); };
  auto readOff = [&](int64_t mn, int64_t k) { return kDim == 1 ? read.at(mn, k) : read.at(k, mn); };
  int64_t readExt[2] = {read.rows, read.cols};
  const int64_t instrK = wgmmaK(elemBytes);
  if (readExt[kDim] % instrK || readExt[mnDim] % tileMn)
    return makeError("a " + std::to_string(read.rows) + "x" + std::to_string(read.cols) +
                     " operand does not split into wgmma tiles of " + std::to_string(tileMn) +
                     " x " + std::to_string(instrK) + " (mn x k)");
  // The contiguous dim: the one offset 1 steps.
  int contig = -1;
  for (int d = 0; d < 2; ++d) {
    int64_t r = d == 0 ? 1 : 0, c = d == 1 ? 1 : 0;
    if (r < t.rows && c < t.cols && t.at(r, c) == 1)
      contig = d;
  }
  if (contig < 0)
    return makeError("the shared layout does not store consecutive elements of a row or a "
                     "column next to each other");
  int64_t run = 1;
  while (run * 2 * elemBytes <= 128 && run * 2 <= ext[contig]) {
    int64_t r = contig == 0 ? run : 0, c = contig == 1 ? run : 0;
    if (t.at(r, c) != run)
      break;
    run *= 2;
  }
  WgmmaSmemOperand d;
  d.elemBytes = elemBytes;
  d.swizzleBytes = int(run * elemBytes);
  d.mnMajor = contig == mnDim;
  if (d.mnMajor && elemBytes != 2)
    return makeError("the shared layout is " + std::string(kDim == 1 ? "M" : "N") +
                     "-major; wgmma reads " + std::to_string(8 * elemBytes) +
                     "-bit operands K-major only");
  if (d.swizzleBytes < 16)
    return makeError("the shared layout's rows are " + std::to_string(d.swizzleBytes) +
                     " bytes, wgmma reads 16-byte core-matrix rows or 32, 64 or 128-byte "
                     "swizzled rows");
  if (d.swizzleBytes == 16) {
    // Unswizzled: SBO steps the strided dim's core matrices (8 mn K-major, 16 bytes of mn
    // MN-major), LBO the leading dim's (16 bytes of k K-major, 8 k MN-major); 0 where the tile
    // has only one.
    int64_t t = 16 / elemBytes;
    int64_t sboStep = d.mnMajor ? t : 8, lboStep = d.mnMajor ? 8 : t;
    d.strideByteOffset = ext[mnDim] > sboStep ? off(sboStep, 0) * elemBytes : 0;
    d.leadingByteOffset = ext[kDim] > lboStep ? off(0, lboStep) * elemBytes : 0;
  } else if (!d.mnMajor) {
    d.leadingByteOffset = 16; // unused for swizzled K-major tiles ("assumed 1")
    d.strideByteOffset = ext[mnDim] > 8 ? off(8, 0) * elemBytes : 0;
  } else {
    d.strideByteOffset = off(0, 8) * elemBytes;
    d.leadingByteOffset = ext[mnDim] > run ? off(run, 0) * elemBytes : 0;
  }
  for (int64_t v : {d.leadingByteOffset, d.strideByteOffset})
    if (v % 16 || v >= (int64_t(1) << 18))
      return makeError("a wgmma stride of " + std::to_string(v) +
                       " bytes does not fit the descriptor (multiples of 16 below 2^18)");
  // Every element of every tile read where the instruction would read it.
  for (int64_t mn0 = 0; mn0 < readExt[mnDim]; mn0 += tileMn)
    for (int64_t k0 = 0; k0 < readExt[kDim]; k0 += instrK) {
      uint64_t start = uint64_t(readOff(mn0, k0) * elemBytes);
      for (int64_t mn = 0; mn < tileMn; ++mn)
        for (int64_t k = 0; k < instrK; ++k) {
          uint64_t want = uint64_t(readOff(mn0 + mn, k0 + k) * elemBytes);
          if (wgmmaElementAddress(d, start, uint64_t(mn), uint64_t(k)) != want)
            return makeError("wgmma cannot read this shared layout: element (mn " +
                             std::to_string(mn0 + mn) + ", k " + std::to_string(k0 + k) +
                             ") is at byte " + std::to_string(want) +
                             ", not where a descriptor reads it");
        }
    }
  return d;
}

std::pair<int64_t, int64_t> wgmmaAccumulatorElement(int i, int lane, int warp) {
  return {16 * warp + lane / 4 + 8 * ((i >> 1) & 1), 2 * (lane % 4) + (i & 1) + 8 * (i >> 2)};
}

Expected<WgmmaAccumulatorMap> mapWgmmaAccumulator(const LinearLayout &acc, int64_t instrN) {
  if (acc.numOutDims() != 2)
    return makeError("the wgmma accumulator must be rank 2");
  int warpBits = acc.inDimBits(DimName::warp());
  if (acc.inDimBits(DimName::lane()) != 5 || warpBits < 2)
    return makeError("wgmma needs 32 lanes and warp groups of 4 warps");
  WgmmaAccumulatorMap map;
  for (int i = 2; i < warpBits; ++i) {
    auto step = rowColOf(acc, applyDim(acc, DimName::warp(), uint64_t(1) << i));
    if (step.first % 64 || step.second % instrN)
      return makeError("warp " + std::to_string(1 << i) + " of the accumulator starts at " +
                       rc(step.first, step.second) + ", not at a tile of the instruction");
    map.warpGroupSteps.push_back(step);
  }
  uint64_t numRegs = acc.inDimSize(DimName::reg());
  for (uint64_t r = 0; r < numRegs; ++r) {
    auto [m, n] = rowColOf(acc, applyDim(acc, DimName::reg(), r));
    WgmmaAccumulatorMap::Reg reg;
    reg.row0 = m - m % 64;
    reg.col0 = n - n % instrN;
    reg.slot = int((n & 1) | ((m >> 3) & 1) << 1 | ((n % instrN) >> 3) << 2);
    for (int lane = 0; lane < 32; ++lane)
      for (int w = 0; w < 4; ++w) {
        uint64_t packed = applyDim(acc, DimName::reg(), r) ^
                          applyDim(acc, DimName::lane(), uint64_t(lane)) ^
                          applyDim(acc, DimName::warp(), uint64_t(w));
        auto got = rowColOf(acc, packed);
        auto [dr, dc] = wgmmaAccumulatorElement(reg.slot, lane, w);
        if (got != std::make_pair(reg.row0 + dr, reg.col0 + dc))
          return makeError("accumulator register " + std::to_string(r) + " of lane " +
                           std::to_string(lane) + " of warp " + std::to_string(w) + " holds " +
                           rc(got.first, got.second) + ", the m64n" + std::to_string(instrN) +
                           "k16 fragment puts " + rc(reg.row0 + dr, reg.col0 + dc) + " there");
      }
    map.regs.push_back(reg);
  }
  return map;
}

Expected<WgmmaOperandAMap> mapWgmmaOperandA(const LinearLayout &a, int elemBytes) {
  if (a.numOutDims() != 2 || a.inDimBits(DimName::lane()) != 5 || a.inDimBits(DimName::warp()) < 2)
    return makeError("a register A operand must be rank 2 over 32 lanes and 4 or more warps");
  // Per warp a 16 x instrK block: words 0 / 1 rows +0 / +8, words 2 / 3 the upper half of K;
  // lane l holds row l / 4 and, of each half of K, the (l % 4)-th element or pair of elements.
  const int64_t instrK = wgmmaK(elemBytes), perLane = 4 / elemBytes; // elements per word
  WgmmaOperandAMap map;
  uint64_t numRegs = a.inDimSize(DimName::reg());
  for (uint64_t r = 0; r < numRegs; ++r) {
    auto [m, k] = rowColOf(a, applyDim(a, DimName::reg(), r));
    WgmmaOperandAMap::Reg reg;
    reg.row0 = m - m % 64;
    reg.k0 = k - k % instrK;
    reg.word = int(((m >> 3) & 1) | ((k % instrK) / (instrK / 2)) << 1);
    reg.half = int(k % perLane);
    for (int lane = 0; lane < 32; ++lane)
      for (int w = 0; w < 4; ++w) {
        uint64_t packed = applyDim(a, DimName::reg(), r) ^
                          applyDim(a, DimName::lane(), uint64_t(lane)) ^
                          applyDim(a, DimName::warp(), uint64_t(w));
        auto got = rowColOf(a, packed);
        std::pair<int64_t, int64_t> want = {reg.row0 + 16 * w + lane / 4 + 8 * (reg.word & 1),
                                            reg.k0 + perLane * (lane % 4) +
                                                instrK / 2 * (reg.word >> 1) + reg.half};
        if (got != want)
          return makeError("A register " + std::to_string(r) + " of lane " + std::to_string(lane) +
                           " of warp " + std::to_string(w) + " holds " + rc(got.first, got.second) +
                           ", the m64k" + std::to_string(instrK) + " A fragment puts " +
                           rc(want.first, want.second) + " there");
      }
    map.regs.push_back(reg);
  }
  return map;
}

} // namespace linlayout::lower
