#include "linlayout/layout/SharedAccessPattern.h"

#include "linlayout/layout/F2Basis.h"
#include "linlayout/layout/F2Subspace.h"
#include "linlayout/layout/SharedMemoryModel.h"

#include <algorithm>
#include <cassert>

namespace linlayout {
namespace {

int log2i(uint64_t x) { return 63 - __builtin_clzll(x); }
uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

// Solves tensor vectors in the scratch basis: packed (offset bits | round bits above them).
struct ScratchSolver {
  F2Basis basis;
  int offsetBits = 0;
  explicit ScratchSolver(const ScratchBasis &s) : offsetBits(int(s.offsets.size())) {
    for (size_t i = 0; i < s.offsets.size(); ++i) {
      [[maybe_unused]] bool fresh = basis.insert(s.offsets[i], uint64_t(1) << i);
      assert(fresh && "scratch basis vectors are independent");
    }
    for (size_t j = 0; j < s.rounds.size(); ++j) {
      [[maybe_unused]] bool fresh = basis.insert(s.rounds[j], uint64_t(1) << (offsetBits + j));
      assert(fresh && "scratch basis vectors are independent");
    }
  }
  bool solve(std::span<const uint64_t> vs, std::vector<uint64_t> &out) const {
    out.clear();
    for (uint64_t v : vs) {
      uint64_t combo = 0;
      if (basis.reduce(v, &combo) != 0)
        return false;
      out.push_back(combo);
    }
    return true;
  }
};

// The kernel and preimages of a warp's register map (F2Subspace), as register-index vectors: a
// thread's register index fits 32 bits.
std::vector<uint32_t> kernelOfMap(std::span<const uint64_t> cols, uint64_t mask) {
  std::vector<uint64_t> kernel = f2KernelOfColumns(cols, mask);
  return std::vector<uint32_t>(kernel.begin(), kernel.end());
}

std::optional<uint32_t> preimage(std::span<const uint64_t> cols, uint64_t target) {
  if (std::optional<uint64_t> r = f2Preimage(cols, target))
    return uint32_t(*r);
  return std::nullopt;
}

} // namespace

std::optional<SharedSidePattern> analyzeSharedSide(const SideVectors &side,
                                                   const ScratchBasis &scratch, SharedOp op,
                                                   int elementBits, int maxVectorBits) {
  assert((elementBits == 8 || elementBits == 16 || elementBits == 32 || elementBits == 64) &&
         "element widths are 8, 16, 32 or 64 bits");
  ScratchSolver solver(scratch);
  SharedSidePattern p;
  p.op = op;
  if (!solver.solve(side.regs, p.regMap) || !solver.solve(side.lanes, p.laneMap) ||
      !solver.solve(side.warps, p.warpMap) || !solver.solve(side.extra, p.extraMap))
    return std::nullopt;
  const int m = solver.offsetBits;
  const int roundBits = int(scratch.rounds.size());
  const uint64_t offsetMask = lowMask(m);
  if (!side.regTags.empty()) {
    assert(side.regTags.size() == side.regs.size() && "one tag per register bit");
    for (size_t j = 0; j < side.regs.size(); ++j)
      p.regMap[j] |= side.regTags[j] << (m + roundBits);
  }
  // Everything but registers is fixed per thread: it may not change the round.
  for (const auto *v : {&p.laneMap, &p.warpMap, &p.extraMap})
    for (uint64_t x : *v)
      if (x & ~offsetMask)
        return std::nullopt;

  const bool matrix = isMatrixOp(op);
  const bool trans = op == SharedOp::LdMatrixTrans || op == SharedOp::StMatrixTrans;
  if (matrix && (elementBits > 32 || (trans && elementBits != 16) || side.lanes.size() != 5))
    return std::nullopt;

  // Chunk: the low offset bits one lane's access (or one 16-byte matrix row) covers.
  int chunk = 0;
  std::vector<uint32_t> g; // register-index vectors landing on offset units 0..
  auto lanesClear = [&](int c, int firstLane) {
    uint64_t low = lowMask(c);
    for (size_t i = firstLane; i < p.laneMap.size(); ++i)
      if (p.laneMap[i] & low)
        return false;
    for (const auto *v : {&p.warpMap, &p.extraMap})
      for (uint64_t x : *v)
        if (x & low)
          return false;
    return true;
  };
  if (!matrix) {
    int maxC = log2i(uint64_t(std::max(1, std::min(maxVectorBits, 128) / elementBits)));
    for (int c = 0; c <= maxC; ++c) {
      if (c > 0) {
        auto gi = preimage(p.regMap, uint64_t(1) << (c - 1));
        if (!gi || c - 1 >= m)
          break;
        g.push_back(*gi);
      }
      if (!lanesClear(c, 0)) {
        if (c > 0)
          g.pop_back();
        break;
      }
      chunk = c;
    }
    if (!lanesClear(chunk, 0))
      return std::nullopt;
  } else if (!trans) {
    int hw = log2i(uint64_t(32 / elementBits));
    chunk = hw + 2;
    if (chunk > m)
      return std::nullopt;
    for (int i = 0; i < hw; ++i) {
      auto gi = preimage(p.regMap, uint64_t(1) << i);
      if (!gi)
        return std::nullopt;
      g.push_back(*gi);
    }
    if (p.laneMap[0] != (uint64_t(1) << hw) || p.laneMap[1] != (uint64_t(1) << (hw + 1)))
      return std::nullopt;
    if (!lanesClear(chunk, 2))
      return std::nullopt;
  } else {
    chunk = 3;
    if (chunk > m)
      return std::nullopt;
    for (int i = 0; i < 3; ++i)
      if (p.laneMap[2 + i] != (uint64_t(1) << i))
        return std::nullopt;
    if ((p.laneMap[0] & 7) || (p.laneMap[1] & 7) || !lanesClear(3, 5))
      return std::nullopt;
  }

  // Registers: chunk registers (g), duplicates (no image), and bases of instructions.
  p.duplicate = kernelOfMap(p.regMap, ~uint64_t(0));
  std::vector<uint32_t> kernelLow = kernelOfMap(p.regMap, lowMask(chunk));
  // Every register is an element of some instruction: the chunk registers and the registers
  // that leave the chunk bits alone must span them all.
  if (g.size() + kernelLow.size() != p.regMap.size())
    return std::nullopt;
  std::vector<uint32_t> bases; // complement of duplicates within kernelLow
  {
    F2Basis b;
    for (uint32_t d : p.duplicate)
      b.insert(d, 0);
    for (uint32_t k : kernelLow)
      if (b.insert(k, 0))
        bases.push_back(k);
  }
  // Vectors inside one instruction must stay within its round.
  auto roundFree = [&](std::span<const uint32_t> vs) {
    std::vector<uint64_t> imgs;
    for (uint32_t v : vs)
      imgs.push_back(f2Apply(p.regMap, v) & ~offsetMask);
    std::vector<uint32_t> out;
    // kernel of the round part, as combinations of vs
    for (uint32_t c : kernelOfMap(imgs, ~uint64_t(0))) {
      uint32_t r = 0;
      for (uint32_t x = c; x; x &= x - 1)
        r ^= vs[__builtin_ctzll(x)];
      out.push_back(r);
    }
    return out;
  };
  std::vector<uint32_t> inner; // g0 (trans rows) then matrix selectors
  if (matrix) {
    std::vector<uint32_t> free = roundFree(bases);
    int want = trans ? 3 : 2;
    for (size_t i = 0; i < free.size() && int(inner.size()) < want; ++i)
      inner.push_back(free[i]);
    if (trans && inner.empty())
      return std::nullopt; // no register to supply the row pair
    // Remaining bases: a complement of `inner` within span(bases).
    F2Basis b;
    for (uint32_t d : p.duplicate)
      b.insert(d, 0);
    for (uint32_t v : inner)
      b.insert(v, 0);
    std::vector<uint32_t> rest;
    for (uint32_t k : bases)
      if (b.insert(k, 0))
        rest.push_back(k);
    bases = std::move(rest);
  }
  p.baseBasis = bases;
  p.instructionsPerThread = 1 << bases.size();

  // Element lists and wavefronts.
  int byteShift = log2i(uint64_t(elementBits / 8));
  (void)byteShift;
  if (!matrix) {
    p.vectorElements = 1 << chunk;
    p.accessBits = p.vectorElements * elementBits;
    for (int k = 0; k < p.vectorElements; ++k) {
      uint32_t r = 0;
      for (int i = 0; i < chunk; ++i)
        if (k >> i & 1)
          r ^= g[i];
      p.element.push_back(r);
    }
    int accessBytes = p.accessBits / 8;
    int phases = sharedAccessPhases(std::min(accessBytes, 16));
    int lanesPerPhase = log2i(uint64_t(kWarpLanes / phases));
    std::vector<uint64_t> offs;
    for (int i = 0; i < int(p.laneMap.size()) && i < lanesPerPhase; ++i)
      offs.push_back(p.laneMap[i] & offsetMask);
    int d = linearConflictLog2(offs, elementBits, std::max(accessBytes, kSharedBankBytes));
    p.minWavefronts = phases;
    p.wavefronts = phases << d;
  } else {
    int slots = 32 / elementBits;
    int rowSel = trans ? 1 : 0; // inner[0] is the row-pair register for .trans
    std::vector<uint32_t> matrices(inner.begin() + rowSel, inner.end());
    int nm = 1 << matrices.size();
    for (int mu = 0; mu < nm; ++mu) {
      uint32_t mr = 0;
      for (size_t i = 0; i < matrices.size(); ++i)
        if (mu >> i & 1)
          mr ^= matrices[i];
      for (int h = 0; h < slots; ++h) {
        uint32_t r = mr;
        if (trans) {
          if (h)
            r ^= inner[0];
        } else {
          for (size_t i = 0; i < g.size(); ++i)
            if (h >> i & 1)
              r ^= g[i];
        }
        p.element.push_back(r);
      }
    }
    p.vectorElements = int(p.element.size());
    p.accessBits = p.vectorElements * elementBits;
    // Lane l supplies row (l % 8) of matrix (l / 8).
    std::array<uint64_t, 3> rows{};
    if (trans)
      rows = {f2Apply(p.regMap, inner[0]), p.laneMap[0], p.laneMap[1]};
    else
      rows = {p.laneMap[2], p.laneMap[3], p.laneMap[4]};
    for (uint64_t r : rows)
      p.addressLaneMap.push_back(r & offsetMask);
    for (int i = 0; i < 2; ++i)
      p.addressLaneMap.push_back(
          i < int(matrices.size()) ? f2Apply(p.regMap, matrices[i]) & offsetMask : 0);
    std::vector<uint64_t> offs(p.addressLaneMap.begin(), p.addressLaneMap.begin() + 3);
    int d = linearConflictLog2(offs, elementBits, 16);
    p.minWavefronts = nm;
    p.wavefronts = nm << d;
  }
  return p;
}

} // namespace linlayout
