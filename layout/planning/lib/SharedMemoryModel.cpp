#include "linlayout/layout/SharedMemoryModel.h"

#include "linlayout/layout/F2Subspace.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace linlayout {

int sharedAccessPhases(int accessBytes) {
  assert(accessBytes >= 1 && accessBytes <= 16 && (accessBytes & (accessBytes - 1)) == 0 &&
         "access width must be a power of two up to 16 bytes");
  return accessBytes <= kSharedBankBytes ? 1 : accessBytes / kSharedBankBytes;
}

int minSharedWavefronts(int accessBytes) { return sharedAccessPhases(accessBytes); }

int countWavefronts(std::span<const uint64_t> byteAddress, int accessBytes) {
  assert(byteAddress.size() <= size_t(kWarpLanes) && "a warp has 32 lanes");
  int phases = sharedAccessPhases(accessBytes);
  int lanesPerPhase = kWarpLanes / phases;
  int total = 0;
  for (int p = 0; p < phases; ++p) {
    // Distinct words per bank within this phase; at most 32 lanes x 4 words, so small arrays do.
    std::array<std::array<uint64_t, 4 * kWarpLanes>, kSharedBanks> words;
    std::array<int, kSharedBanks> count{};
    bool any = false;
    for (int l = p * lanesPerPhase; l < (p + 1) * lanesPerPhase && l < int(byteAddress.size());
         ++l) {
      uint64_t a = byteAddress[l];
      if (a == kInactiveLane)
        continue;
      assert(a % uint64_t(accessBytes) == 0 && "accesses are aligned to their width");
      any = true;
      uint64_t first = a / kSharedBankBytes;
      uint64_t last = (a + accessBytes - 1) / kSharedBankBytes;
      for (uint64_t w = first; w <= last; ++w) {
        int bank = int(w % kSharedBanks);
        auto &ws = words[bank];
        if (std::find(ws.begin(), ws.begin() + count[bank], w) == ws.begin() + count[bank])
          ws[count[bank]++] = w;
      }
    }
    if (any)
      total += *std::max_element(count.begin(), count.end());
  }
  return total;
}

int linearConflictLog2(std::span<const uint64_t> laneOffsets, int elementBits, int unitBytes) {
  assert(elementBits >= 8 && elementBits % 8 == 0 && unitBytes >= kSharedBankBytes &&
         (unitBytes & (unitBytes - 1)) == 0 && "whole bytes, units of at least one bank word");
  int byteShift = 63 - __builtin_clzll(uint64_t(elementBits / 8));
  // The element-offset bits of byte-address bits [lo, hi).
  auto elementMask = [&](int lo, int hi) {
    uint64_t m = 0;
    for (int b = lo; b < hi; ++b)
      if (b - byteShift >= 0 && b - byteShift < 64)
        m |= uint64_t(1) << (b - byteShift);
    return m;
  };
  uint64_t bankMask = elementMask(63 - __builtin_clzll(uint64_t(unitBytes)), 7);
  uint64_t rowMask = elementMask(7, 64 + byteShift);
  std::vector<uint64_t> sameBank = f2KernelOfMask(laneOffsets, bankMask);
  for (uint64_t &v : sameBank)
    v &= rowMask;
  return f2Rank(sameBank);
}

} // namespace linlayout
