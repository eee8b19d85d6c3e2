#include "linlayout/layout/BankConflicts.h"

#include "linlayout/layout/F2Subspace.h"
#include "linlayout/layout/LayoutColumns.h"
#include "linlayout/layout/SharedMemoryModel.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <vector>

namespace linlayout {
namespace {

int log2i(uint64_t x) { return 63 - __builtin_clzll(x); }
bool isPow2(uint64_t x) { return x != 0 && (x & (x - 1)) == 0; }

struct Prepared {
  LinearLayout reg;    // register broadcast removed
  LinearLayout shared; // out dims in reg's order
  LinearLayout cvt;    // reg hardware -> shared hardware
  int vec = 1;
};

Status checkBits(int elementBits) {
  if (elementBits < 1 || elementBits > 128 || !isPow2(uint64_t(elementBits)))
    return makeError("element bitwidth " + std::to_string(elementBits) +
                     " is not a power of two between 1 and 128");
  return Status::success();
}

Expected<Prepared> prepare(const LinearLayout &reg, const LinearLayout &shared, int elementBits) {
  LL_TRY_STATUS(checkBits(elementBits));
  if (!shared.hasInDim(DimName::offset()))
    return makeError("the shared layout has no 'offset' input dimension");
  if (reg.numOutDims() != shared.numOutDims())
    return makeError("the register layout has " + std::to_string(reg.numOutDims()) +
                     " out dimensions and the shared layout " +
                     std::to_string(shared.numOutDims()));
  for (const DimSize &d : reg.outDims())
    if (!shared.hasOutDim(d.name) || shared.outDimSize(d.name) != d.size)
      return makeError("out dimension '" + std::string(d.name.str()) + "' has size " +
                       std::to_string(d.size) + " in the register layout and " +
                       std::to_string(shared.outDimSize(d.name)) + " in the shared layout");
  std::vector<DimName> order = reg.outDimNames();
  LL_ASSIGN_OR_RETURN(LinearLayout sharedAligned, shared.transposeOuts(order));
  if (!sharedAligned.isSurjective())
    return makeError("the shared layout does not cover the tensor (it is not surjective)");
  Prepared p{reg.removeZeroBases(DimName::reg()), sharedAligned, LinearLayout(), 1};
  LL_ASSIGN_OR_RETURN(p.cvt, p.reg.invertAndCompose(sharedAligned));
  p.vec = widestSharedVector(p.cvt, std::max(1, 128 / elementBits));
  return p;
}

// How many segment bases the lanes also reach, as Triton 3.6 counts them: where every basis on
// both sides is a single bit, the segment bases found among the lanes, each as often as it is
// listed (a CGA layout that repeats a block basis lists it twice); otherwise the dimension of
// the intersection of the two spans. The two agree unless the segment repeats a basis.
int sharedDims(const std::vector<uint64_t> &segment, const std::vector<uint64_t> &lanes) {
  if (!std::all_of(segment.begin(), segment.end(), isPow2) ||
      !std::all_of(lanes.begin(), lanes.end(), isPow2))
    return f2IntersectionDim(segment, lanes);
  return int(std::count_if(segment.begin(), segment.end(), [&](uint64_t s) {
    return std::find(lanes.begin(), lanes.end(), s) != lanes.end();
  }));
}

} // namespace

int widestSharedVector(const LinearLayout &regToOffset, int maxElements) {
  int offIdx = regToOffset.outDimIndex(DimName::offset());
  assert(offIdx >= 0 && "regToOffset maps to offsets");
  assert(isPow2(uint64_t(maxElements)) && "the vector limit is a power of two");
  int offShift = regToOffset.outDimOffset(offIdx);
  int regDim = regToOffset.inDimIndex(DimName::reg());
  int regBegin = regDim < 0 ? 0 : regToOffset.inDimOffset(regDim);
  int regEnd = regDim < 0 ? 0 : regBegin + regToOffset.inDimBits(regDim);
  int n = regToOffset.totalInBits();
  for (int k = log2i(uint64_t(maxElements)); k > 0; --k) {
    uint64_t used = 0;
    bool ok = true;
    for (int j = 0; j < k && ok; ++j) {
      uint64_t want = uint64_t(1) << (offShift + j);
      ok = false;
      for (int b = regBegin; b < regEnd; ++b)
        if (!(used >> b & 1) && regToOffset.column(b) == want) {
          used |= uint64_t(1) << b;
          ok = true;
          break;
        }
    }
    uint64_t lowBits = ((uint64_t(1) << k) - 1) << offShift;
    for (int b = 0; b < n && ok; ++b)
      if (!(used >> b & 1) && (regToOffset.column(b) & lowBits) != 0)
        ok = false;
    if (ok)
      return 1 << k;
  }
  return 1;
}

Expected<int> bankConflicts(const LinearLayout &reg, const LinearLayout &shared, int elementBits,
                            int banks) {
  if (banks != 32 && banks != 64)
    return makeError("bank count " + std::to_string(banks) + " is not 32 or 64");
  LL_ASSIGN_OR_RETURN(Prepared p, prepare(reg, shared, elementBits));
  // A row of all banks (128 or 256 bytes) holds rowBits / (vec * bits) vectors; the segment
  // bases are the shared layout's in bits above one row (offset bits first, then block bits, as
  // the layout packs them).
  const int rowBits = banks * 32;
  int total = p.shared.totalInBits();
  int vecBits = log2i(uint64_t(p.vec));
  int bankBits = std::min(log2i(uint64_t(std::max(1, rowBits / (p.vec * elementBits)))), total);
  std::vector<uint64_t> segment;
  for (int b = vecBits + bankBits; b < total; ++b)
    segment.push_back(p.shared.column(b));
  // Wide accesses are served in phases: only the low lane bits share a phase.
  std::vector<uint64_t> lanes = columnsOf(p.reg, DimName::lane());
  const int accessBits = p.vec * elementBits;
  if (banks == 32) { // Triton's phases: 16 lanes of 8 bytes, 8 lanes of 16 bytes
    int perPhase = accessBits / 32;
    int drop = perPhase > 1 ? log2i(uint64_t(perPhase)) : 0;
    lanes.resize(lanes.size() > size_t(drop) ? lanes.size() - drop : 0);
  } else { // as many lanes as one row of all banks serves
    int phaseLaneBits = log2i(uint64_t(rowBits / std::max(accessBits, 32)));
    lanes.resize(std::min(lanes.size(), size_t(phaseLaneBits)));
  }
  return (1 << sharedDims(segment, lanes)) - 1;
}

Expected<int> bankConflicts(const LinearLayout &reg, const LinearLayout &shared, int elementBits,
                            int banks, std::span<const PadInterval> padding) {
  if (padding.empty())
    return bankConflicts(reg, shared, elementBits, banks);
  if (banks != 32 && banks != 64)
    return makeError("bank count " + std::to_string(banks) + " is not 32 or 64");
  if (elementBits < 8)
    return makeError("element bitwidth " + std::to_string(elementBits) +
                     " is below 8: bank conflicts through a padded layout need whole bytes");
  LL_ASSIGN_OR_RETURN(Prepared p, prepare(reg, shared, elementBits));
  // A vector stays one access only where padding neither splits it (interval >= vec) nor
  // shifts it off its alignment (padding >= vec), unless that padding is never reached.
  int64_t offsets = int64_t(1) << p.shared.inDimBits(p.shared.inDimIndex(DimName::offset()));
  int vec = p.vec;
  for (const PadInterval &pad : padding)
    if (pad.interval < offsets)
      vec = int(std::min<int64_t>({int64_t(vec), pad.interval, pad.padding}));
  vec = std::max(vec, 1);
  const int vecBits = log2i(uint64_t(vec));
  const int64_t accessBytes = int64_t(vec) * elementBits / 8;
  const LinearLayout &cvt = p.cvt;
  const int offIdx = cvt.outDimIndex(DimName::offset());
  // The register bits that step inside one vector (offsets 1, 2, ..., vec / 2) are not
  // separate instructions.
  int regDim = cvt.inDimIndex(DimName::reg());
  uint64_t vectorMask = 0;
  std::vector<int> instrBits;
  if (regDim >= 0) {
    int begin = cvt.inDimOffset(regDim);
    for (int j = 0; j < vecBits; ++j)
      for (int b = begin; b < begin + cvt.inDimBits(regDim); ++b)
        if (!(vectorMask >> b & 1) && cvt.outValue(cvt.column(b), offIdx) == (uint64_t(1) << j)) {
          vectorMask |= uint64_t(1) << b;
          break;
        }
    for (int b = begin; b < begin + cvt.inDimBits(regDim); ++b)
      if (!(vectorMask >> b & 1))
        instrBits.push_back(b);
  }
  int laneDim = cvt.inDimIndex(DimName::lane());
  int laneBegin = laneDim < 0 ? 0 : cvt.inDimOffset(laneDim);
  int laneCount = laneDim < 0 ? 1 : 1 << cvt.inDimBits(laneDim);
  const int64_t rowBytes = int64_t(banks) * 4;
  const int lanesPerPhase =
      int(std::min<int64_t>(laneCount, rowBytes / std::max<int64_t>(accessBytes, 4)));
  // Few instructions are enough to see every pattern; cap the work on huge register counts.
  const int instrLog2 = std::min(int(instrBits.size()), 12);
  int worst = 1;
  std::vector<std::vector<uint64_t>> wordsOfBank(static_cast<size_t>(banks));
  for (uint64_t i = 0; i < (uint64_t(1) << instrLog2); ++i) {
    uint64_t base = 0;
    for (int k = 0; k < instrLog2; ++k)
      if (i >> k & 1)
        base |= uint64_t(1) << instrBits[size_t(k)];
    for (int first = 0; first < laneCount; first += lanesPerPhase) {
      for (auto &w : wordsOfBank)
        w.clear();
      for (int l = first; l < first + lanesPerPhase; ++l) {
        uint64_t in = base | (uint64_t(l) << laneBegin);
        int64_t offset = int64_t(cvt.outValue(cvt.apply(in), offIdx));
        int64_t byte = paddedOffset(offset, padding) * elementBits / 8;
        for (int64_t w = byte / 4; w <= (byte + accessBytes - 1) / 4; ++w) {
          auto &words = wordsOfBank[size_t(w % banks)];
          if (std::find(words.begin(), words.end(), uint64_t(w)) == words.end())
            words.push_back(uint64_t(w));
        }
      }
      for (const auto &w : wordsOfBank)
        worst = std::max(worst, int(w.size()));
    }
  }
  return worst - 1;
}

Expected<SharedLoadCost> analyzeSharedLoad(const LinearLayout &reg, const LinearLayout &shared,
                                           int elementBits) {
  if (elementBits < 8)
    return makeError("element bitwidth " + std::to_string(elementBits) +
                     " is below 8: exact bank analysis needs whole bytes");
  LL_ASSIGN_OR_RETURN(Prepared p, prepare(reg, shared, elementBits));
  SharedLoadCost c;
  c.vectorElements = p.vec;
  c.accessBytes = p.vec * elementBits / 8;
  c.phases = sharedAccessPhases(std::min(c.accessBytes, 16));
  // Lane offsets (elements) of one phase.
  int offIdx = p.cvt.outDimIndex(DimName::offset());
  std::vector<uint64_t> laneOffsets;
  int laneDim = p.cvt.inDimIndex(DimName::lane());
  if (laneDim >= 0) {
    int lanesInPhase = log2i(uint64_t(kWarpLanes / c.phases));
    int off = p.cvt.inDimOffset(laneDim);
    for (int i = 0; i < p.cvt.inDimBits(laneDim) && i < lanesInPhase; ++i)
      laneOffsets.push_back(p.cvt.outValue(p.cvt.column(off + i), offIdx));
  }
  int d = linearConflictLog2(laneOffsets, elementBits, std::max(kSharedBankBytes, c.accessBytes));
  c.extraPerPhase = (1 << d) - 1;
  c.wavefronts = c.phases << d;
  return c;
}

} // namespace linlayout
