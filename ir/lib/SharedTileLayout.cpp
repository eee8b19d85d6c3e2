#include "linlayout/ir/SharedTileLayout.h"

#include "linlayout/layout/LayoutColumns.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <vector>

namespace linlayout::ir {

Expected<LinearLayout> transposedTileLayout(const LinearLayout &shared,
                                            std::span<const int32_t> order) {
  assert(order.size() == size_t(shared.numOutDims()) && "one entry per out dim");
  std::vector<InDimBases> ins = shared.bases();
  for (InDimBases &in : ins)
    for (std::vector<uint64_t> &basis : in.bases) {
      std::vector<uint64_t> moved;
      for (int32_t d : order)
        moved.push_back(basis[size_t(d)]);
      basis = std::move(moved);
    }
  std::vector<DimSize> outs;
  for (size_t i = 0; i < order.size(); ++i)
    outs.push_back({DimName::dim(int(i)), shared.outDimSize(shared.outDimName(order[i]))});
  return LinearLayout::fromBases(ins, outs);
}

SideVectors sideVectorsOf(const LinearLayout &dist) {
  SideVectors s;
  s.regs = columnsOf(dist, DimName::reg());
  s.lanes = columnsOf(dist, DimName::lane());
  s.warps = columnsOf(dist, DimName::warp());
  s.extra = columnsOf(dist, DimName::block());
  return s;
}

ScratchBasis scratchBasisOf(const LinearLayout &shared) {
  ScratchBasis b;
  b.offsets = columnsOf(shared, DimName::offset());
  return b;
}

namespace {

bool sameOutDims(const LinearLayout &a, const LinearLayout &b) {
  std::vector<DimSize> x = a.outDims(), y = b.outDims();
  if (x.size() != y.size())
    return false;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i].name != y[i].name || x[i].size != y[i].size)
      return false;
  return true;
}

// A CTA split would need distributed shared memory, which tiles do not use.
bool singleCta(const LinearLayout &dist, const LinearLayout &shared) {
  for (uint64_t c : columnsOf(dist, DimName::block()))
    if (c)
      return false;
  return shared.inDimBits(DimName::block()) == 0 ||
         columnsOf(shared, DimName::block()) ==
             std::vector<uint64_t>(size_t(shared.inDimBits(DimName::block())), 0);
}

} // namespace

std::optional<SharedSidePattern> matrixLoadPattern(const LinearLayout &dist,
                                                   const LinearLayout &shared, int elementBits) {
  if (!sameOutDims(dist, shared) || !singleCta(dist, shared))
    return std::nullopt;
  if (elementBits != 8 && elementBits != 16 && elementBits != 32)
    return std::nullopt;
  SideVectors side = sideVectorsOf(dist);
  side.extra.clear();
  ScratchBasis basis = scratchBasisOf(shared);
  for (SharedOp op : {SharedOp::LdMatrix, SharedOp::LdMatrixTrans})
    if (auto p = analyzeSharedSide(side, basis, op, elementBits))
      return p;
  return std::nullopt;
}

Expected<SwizzledSharedSpec> chooseSwizzledShared(const LinearLayout &writer,
                                                  const LinearLayout &reader,
                                                  std::span<const int64_t> shape, int elementBits,
                                                  int minWriteBytes) {
  if (shape.size() != 2)
    return makeError("a shared tile of rank " + std::to_string(shape.size()) +
                     "; only rank 2 is chosen here");
  if (!sameOutDims(writer, reader))
    return makeError("the writer and the reader cover different tensors");
  // The writer's contiguous dim: the dim its first register bit steps.
  std::vector<uint64_t> regs = columnsOf(writer, DimName::reg());
  int64_t fast = 1;
  if (!regs.empty() && regs[0] && regs[0] < (uint64_t(1) << writer.outDimBits(0)))
    fast = 0;
  std::vector<int64_t> order = fast == 1 ? std::vector<int64_t>{1, 0} : std::vector<int64_t>{0, 1};
  SideVectors store = sideVectorsOf(writer), load = sideVectorsOf(reader);
  store.extra.clear();
  load.extra.clear();
  std::optional<SwizzledSharedSpec> best;
  int64_t bestCost = std::numeric_limits<int64_t>::max();
  // Vectors up to 16 bytes (16 elements of 8 bits: a 16-byte copy needs a vec that long).
  const int64_t maxVec = std::max<int64_t>(8, 128 / elementBits);
  for (int64_t vec = 1; vec <= maxVec; vec *= 2)
    for (int64_t perPhase = 1; perPhase <= 8; perPhase *= 2)
      for (int64_t maxPhase = 1; maxPhase <= 8; maxPhase *= 2) {
        auto spec = SwizzledSharedSpec::make(vec, perPhase, maxPhase, order);
        if (!spec.ok())
          continue;
        auto l = spec->toLinearLayout(shape);
        if (!l.ok())
          continue;
        ScratchBasis basis = scratchBasisOf(*l);
        auto sp = analyzeSharedSide(store, basis, SharedOp::Store, elementBits);
        if (!sp || sp->accessBits < 8 * minWriteBytes)
          continue;
        std::optional<SharedSidePattern> lp;
        for (SharedOp op : {SharedOp::LdMatrix, SharedOp::LdMatrixTrans, SharedOp::Load})
          if (!lp)
            lp = analyzeSharedSide(load, basis, op, elementBits);
        if (!lp)
          continue;
        int64_t cost = int64_t(sp->instructionsPerThread) * sp->wavefronts +
                       int64_t(lp->instructionsPerThread) * lp->wavefronts;
        if (cost < bestCost) {
          bestCost = cost;
          best = *spec;
        }
      }
  if (!best)
    return makeError("no swizzled shared layout lets the writer store " +
                     std::to_string(minWriteBytes) + "-byte vectors and the reader load the tile");
  return *best;
}

} // namespace linlayout::ir
