#include "PaddedScratch.h"

#include "AddressCost.h"

#include "linlayout/layout/F2Basis.h"
#include "linlayout/layout/F2Subspace.h"
#include "linlayout/layout/SharedMemoryModel.h"

#include <algorithm>
#include <array>
#include <bit>

namespace linlayout::planning {

namespace {

uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

uint64_t spanXor(const std::vector<uint64_t> &cols, uint64_t x, uint64_t mask) {
  uint64_t r = 0;
  for (size_t i = 0; i < cols.size(); ++i)
    if (x >> i & 1)
      r ^= cols[i];
  return r & mask;
}

// The wavefronts of every instruction of every warp of `side` through `pads`; -1 where they
// differ (a plan claims one count per instruction).
int paddedWavefronts(const SharedSidePattern &side, int m, int elementBits,
                     const std::vector<PadInterval> &pads) {
  const int bytes = elementBits / 8;
  const int lanes = 1 << side.laneMap.size();
  const int warps = 1 << side.warpMap.size();
  const int accessBytes = side.vectorElements * bytes;
  int result = -1;
  std::array<uint64_t, 32> addr;
  for (uint64_t c : instructionOffsets(side, m))
    for (int w = 0; w < warps; ++w) {
      uint64_t wa = spanXor(side.warpMap, uint64_t(w), lowMask(m));
      addr.fill(kInactiveLane);
      for (int l = 0; l < lanes && l < 32; ++l) {
        uint64_t o = c ^ wa ^ spanXor(side.laneMap, uint64_t(l), lowMask(m));
        addr[size_t(l)] = uint64_t(paddedOffset(int64_t(o), pads)) * uint64_t(bytes);
      }
      int waves = countWavefronts(std::span(addr.data(), size_t(std::min(lanes, 32))), accessBytes);
      if (result >= 0 && waves != result)
        return -1;
      result = waves;
    }
  return result;
}

// The unswizzled bases: the swizzle's chunk, then the vectors of `order` that add a dimension
// (the round vectors excluded), up to the swizzle's offset bits.
std::optional<ScratchBasis> plainBasis(const ScratchBasis &swizzled, int chunkBits,
                                       const std::vector<uint64_t> &order) {
  const size_t m = swizzled.offsets.size();
  ScratchBasis b;
  b.rounds = swizzled.rounds;
  F2Basis seen;
  for (uint64_t r : swizzled.rounds)
    seen.insert(r, 0);
  for (int i = 0; i < chunkBits && size_t(i) < m; ++i) {
    b.offsets.push_back(swizzled.offsets[size_t(i)]);
    seen.insert(swizzled.offsets[size_t(i)], 0);
  }
  for (uint64_t v : order)
    if (b.offsets.size() < m && v != 0 && seen.insert(v, 0))
      b.offsets.push_back(v);
  if (b.offsets.size() != m)
    return std::nullopt;
  return b;
}

} // namespace

std::optional<PaddedScratch> searchPaddedScratch(const SideVectors &store, const SideVectors &load,
                                                 const SwizzleChoice &swizzled, int elementBits) {
  if (isMatrixOp(swizzled.store.op) || isMatrixOp(swizzled.load.op))
    return std::nullopt;
  const int m = int(swizzled.basis.offsets.size());
  const int vec = std::max(swizzled.store.vectorElements, swizzled.load.vectorElements);
  const int chunkBits = std::countr_zero(unsigned(vec));
  const int bytes = elementBits / 8;
  // The tile in the order one side holds it: registers first (a thread's elements together), or
  // lanes first (a warp's elements together, as a row-major tile of a blocked layout is).
  std::vector<std::vector<uint64_t>> orders;
  for (const SideVectors *side : {&store, &load})
    for (bool lanesFirst : {false, true}) {
      std::vector<uint64_t> o;
      const std::vector<uint64_t> *first = lanesFirst ? &side->lanes : &side->regs;
      const std::vector<uint64_t> *second = lanesFirst ? &side->regs : &side->lanes;
      for (const std::vector<uint64_t> *part : {first, second, &side->warps})
        o.insert(o.end(), part->begin(), part->end());
      orders.push_back(std::move(o));
    }
  std::optional<PaddedScratch> best;
  int64_t bestWaves = 0;
  for (const auto &order : orders) {
    auto basis = plainBasis(swizzled.basis, chunkBits, order);
    if (!basis)
      continue;
    auto sp =
        analyzeSharedSide(store, *basis, SharedOp::Store, elementBits, swizzled.store.accessBits);
    auto lp =
        analyzeSharedSide(load, *basis, SharedOp::Load, elementBits, swizzled.load.accessBits);
    if (!sp || !lp || sp->vectorElements != swizzled.store.vectorElements ||
        lp->vectorElements != swizzled.load.vectorElements)
      continue;
    // One pair: rows of `interval` elements, each `padding` further on; vectors stay whole
    // and aligned (padding and interval at least the widest vector).
    for (int64_t interval = vec; interval < (int64_t(1) << m); interval *= 2)
      for (int64_t padding = vec; padding <= 4 * vec && padding * bytes <= 64; padding *= 2) {
        std::vector<PadInterval> pads{{interval, padding}};
        const int ops = addressOps(*sp, m, pads, bytes) + addressOps(*lp, m, pads, bytes);
        int sw = paddedWavefronts(*sp, m, elementBits, pads);
        int lw = paddedWavefronts(*lp, m, elementBits, pads);
        if (sw < 0 || lw < 0)
          continue;
        int64_t waves =
            int64_t(sp->instructionsPerThread) * sw + int64_t(lp->instructionsPerThread) * lw;
        int64_t scratch =
            (paddedOffset((int64_t(1) << m) - 1, pads) + 1) * bytes; // the last address + 1
        scratch = (scratch + 15) / 16 * 16;
        if (best &&
            (waves > bestWaves || (waves == bestWaves && ops > best->addressOps) ||
             (waves == bestWaves && ops == best->addressOps && scratch >= best->scratchBytes)))
          continue;
        best = PaddedScratch{*basis, pads, *sp, *lp, scratch, ops};
        best->store.wavefronts = sw;
        best->load.wavefronts = lw;
        bestWaves = waves;
      }
  }
  return best;
}

} // namespace linlayout::planning
