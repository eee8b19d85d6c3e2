// Properties of the hardware layout conversions over random valid parameters, checked by
// enumerating every input (the brute-force evaluator) when the layout has at most 16 input bits.
#include "GTestProperty.h"
#include "SpecGen.h"

using namespace linlayout;
using namespace linlayout::testing;

namespace {

constexpr int kEnumBits = 16;

bool surjective(const LinearLayout &l) {
  if (l.totalInBits() <= kEnumBits)
    return enumerate(l).distinct == (uint64_t(1) << l.totalOutBits());
  return l.isSurjective();
}

bool injective(const LinearLayout &l) {
  if (l.totalInBits() <= kEnumBits)
    return enumerate(l).injective;
  return l.isInjective();
}

LinearLayout mustConvert(const LayoutSpec &s, const I64s &shape) {
  auto l = toLinearLayout(s, shape);
  RC_ASSERT(l.ok());
  return *l;
}

LL_PROP(BlockedProps, IsSurjective, 1000, ()) {
  int rank = *rc::gen::inRange(1, 4);
  LayoutSpec s = *blockedSpec(rank);
  I64s shape = *shapeOf(rank, 0, 12 / rank);
  RC_ASSERT(surjective(mustConvert(s, shape)));
}

LL_PROP(BlockedProps, InjectiveExactlyWhenTheShapeCoversTheTile, 1000, ()) {
  int rank = *rc::gen::inRange(1, 4);
  BlockedSpec b = *blockedSpec(rank);
  I64s shape = *shapeOf(rank, 0, 14 / rank);
  bool covers = true;
  for (int d = 0; d < rank; ++d) {
    int64_t tile = b.sizePerThread()[size_t(d)] * b.threadsPerWarp()[size_t(d)] *
                   b.warpsPerCta()[size_t(d)] * b.cga().splitNum(d);
    covers = covers && shape[size_t(d)] >= tile;
  }
  for (const auto &basis : b.cga().bases())
    covers = covers && std::any_of(basis.begin(), basis.end(), [](int64_t x) { return x != 0; });
  RC_ASSERT(injective(mustConvert(b, shape)) == covers);
}

// The elements each (lane, warp, block) holds, over all its registers, with dim `drop` removed.
std::vector<std::vector<uint64_t>> heldByThread(const LinearLayout &l, int drop) {
  int regBits = l.inDimBits(DimName::reg());
  int restBits = l.totalInBits() - regBits;
  std::vector<std::vector<uint64_t>> held(size_t(1) << restBits);
  for (uint64_t t = 0; t < held.size(); ++t) {
    for (uint64_t r = 0; r < (uint64_t(1) << regBits); ++r) {
      uint64_t out = l.apply(r | (t << regBits));
      uint64_t key = 0;
      int shift = 0;
      for (int d = 0; d < l.numOutDims(); ++d) {
        if (d == drop)
          continue;
        key |= l.outValue(out, d) << shift;
        shift += l.outDimBits(d);
      }
      held[t].push_back(key);
    }
    std::sort(held[t].begin(), held[t].end());
    held[t].erase(std::unique(held[t].begin(), held[t].end()), held[t].end());
  }
  return held;
}

LL_PROP(SliceProps, IsTheParentWithTheDimDroppedAndDeduplicated, 1000, ()) {
  int kind = *rc::gen::inRange(0, 4);
  int rank = *rc::gen::inRange(2, 4);
  LayoutSpec parent = kind == 0   ? LayoutSpec(*blockedSpec(rank, false))
                      : kind == 1 ? LayoutSpec(*nvidiaMmaSpec(rank, false))
                      : kind == 2
                          ? LayoutSpec(*nvidiaMmaSpec(rank, true))
                          : dot(LayoutSpec(*nvidiaMmaSpec(rank, *rc::gen::arbitrary<bool>())), 0,
                                int(*pow2In(0, 3)));
  int dim = *rc::gen::inRange(0, rank);
  I64s shape = *shapeOf(rank - 1, 0, 7 / (rank - 1));
  I64s parentShape = shape;
  parentShape.insert(parentShape.begin() + dim, 1);
  LinearLayout s = mustConvert(slice(parent, dim), shape);
  LinearLayout p = mustConvert(parent, parentShape);
  RC_PRE(p.totalInBits() <= kEnumBits);
  RC_ASSERT(heldByThread(p, dim) == heldByThread(s, -1));
  for (int i = 0; i < s.inDimBits(DimName::reg()); ++i) {
    auto b = s.basis(DimName::reg(), i);
    RC_ASSERT(std::any_of(b.begin(), b.end(), [](uint64_t x) { return x != 0; }));
  }
}

LL_PROP(DotOperandProps, BroadcastExactlyAlongTheOtherOperandsWarpDim, 1000, ()) {
  int kind = *rc::gen::inRange(0, 3); // Ampere mma, Hopper mma (A only), blocked (FMA)
  int opIdx = kind == 1 ? 0 : *rc::gen::inRange(0, 2);
  int rank = *rc::gen::inRange(2, 4); // rank 3: a leading batch dim
  LayoutSpec parent = kind == 0   ? LayoutSpec(*nvidiaMmaSpec(rank, false))
                      : kind == 1 ? LayoutSpec(*nvidiaMmaSpec(rank, true))
                                  : LayoutSpec(*blockedSpec(rank, false));
  int kWidth = kind == 2 ? 0 : int(*pow2In(0, 3));
  int64_t m = *pow2In(0, 7), n = *pow2In(0, 7), k = *pow2In(0, 6);
  I64s parentShape = {m, n};
  I64s operandShape = opIdx == 0 ? I64s{m, k} : I64s{k, n};
  if (rank == 3) {
    int64_t batch = *pow2In(0, 3);
    parentShape.insert(parentShape.begin(), batch);
    operandShape.insert(operandShape.begin(), batch);
  }
  // The operand's K, which is the other operand's dim in the parent.
  int kDim = opIdx == 0 ? rank - 1 : rank - 2;
  LinearLayout p = mustConvert(parent, parentShape);
  LinearLayout o = mustConvert(dot(parent, opIdx, kWidth), operandShape);
  std::vector<DimName> shared = {DimName::warp()};
  if (kind == 2)
    shared.push_back(DimName::lane());
  for (DimName in : shared) {
    RC_ASSERT(o.inDimBits(in) == p.inDimBits(in));
    for (int i = 0; i < o.inDimBits(in); ++i) {
      auto want = p.basis(in, i);
      want[size_t(kDim)] = 0;
      RC_ASSERT(o.basis(in, i) == want);
    }
  }
}

LL_PROP(SharedProps, SwizzledIsABijectionOntoTheTile, 1000, ()) {
  int rank = *rc::gen::inRange(1, 4);
  CgaLayout cga = *cgaLayout(rank, 2, /*allowBroadcast=*/false);
  auto s = ok(SwizzledSharedSpec::make(*pow2In(0, 3), *pow2In(0, 3), *pow2In(0, 3),
                                       *permutationOf(rank), cga));
  I64s shape = *shapeOf(rank, 0, 12 / rank);
  for (int d = 0; d < rank; ++d)
    shape[size_t(d)] = std::max(shape[size_t(d)], cga.splitNum(d));
  LinearLayout l = mustConvert(s, shape);
  RC_ASSERT(l.totalInBits() == l.totalOutBits());
  RC_ASSERT(injective(l));
}

LL_PROP(SharedProps, NvmmaIsABijectionOntoTheTile, 1000, ()) {
  int rank = *rc::gen::inRange(2, 4);
  int64_t swizzle = *rc::gen::element<int64_t>(0, 32, 64, 128);
  int64_t bits = *rc::gen::element<int64_t>(8, 16, 32);
  bool transposed = *rc::gen::arbitrary<bool>();
  auto s = ok(NvmmaSharedSpec::make(swizzle, bits, rank, transposed));
  I64s shape = *shapeOf(rank, 0, 3);
  // At least one swizzle tile: the contiguous dim holds a swizzle row, and (as Triton collapses
  // the TMA box) the rows are the last dim when transposed, the other dims otherwise.
  int contig = transposed ? 0 : rank - 1;
  int rows = transposed ? rank - 1 : rank - 2;
  int64_t contigSize = std::max<int64_t>(1, 8 * swizzle / bits);
  shape[size_t(contig)] = std::max(shape[size_t(contig)], contigSize);
  shape[size_t(rows)] = std::max<int64_t>(shape[size_t(rows)], 8);
  LinearLayout l = mustConvert(s, shape);
  RC_ASSERT(l.totalInBits() == l.totalOutBits());
  RC_ASSERT(injective(l));
}

// An AMD accumulator spreads over a whole wavefront (64 lanes for MFMA, 32 for WMMA), reaches
// every element, and holds each element once where the shape covers the warps' tiles.
LL_PROP(AmdProps, AccumulatorsCoverTheWavefrontAndTheShape, 300, ()) {
  int rank = *rc::gen::inRange(2, 4);
  bool mfma = *rc::gen::arbitrary<bool>();
  LayoutSpec s =
      mfma ? LayoutSpec(*amdMfmaSpec(rank, false)) : LayoutSpec(*amdWmmaSpec(rank, false));
  I64s shape = *shapeOf(rank, 0, 14 / rank);
  LinearLayout l = mustConvert(s, shape);
  RC_ASSERT(l.inDimSize(DimName::lane()) == uint64_t(mfma ? 64 : 32));
  RC_ASSERT(surjective(l));
}

// A dot operand of an AMD parent broadcasts nowhere along its non-K dim within one wavefront:
// the lanes and registers of warp 0 reach every non-K index of the instruction's tile.
LL_PROP(AmdProps, OperandsCoverTheirTile, 300, ()) {
  bool mfma = *rc::gen::arbitrary<bool>();
  int op = *rc::gen::inRange(0, 2);
  LayoutSpec parent =
      mfma ? LayoutSpec(*amdMfmaSpec(2, false)) : LayoutSpec(*amdWmmaSpec(2, false));
  int kWidth = mfma ? int(*pow2In(0, 4)) : *kWidthFor(parent);
  I64s shape = *shapeOf(2, 6, 7);
  LinearLayout l = mustConvert(dot(parent, op, kWidth), shape);
  RC_ASSERT(surjective(l));
  RC_ASSERT(l.inDimSize(DimName::lane()) == uint64_t(mfma ? 64 : 32));
}

LL_PROP(LayoutSpecProps, OutDimsAreTheShapeAndInDimsTheHardware, 1000, ()) {
  int kind = *rc::gen::inRange(0, 6);
  int rank = *rc::gen::inRange(2, 4);
  LayoutSpec s = *blockedSpec(rank);
  I64s shape = *shapeOf(rank, 0, 12 / rank);
  switch (kind) {
  case 1:
    s = *nvidiaMmaSpec(rank, false);
    break;
  case 2:
    s = *nvidiaMmaSpec(rank, true);
    break;
  case 3:
    s = slice(LayoutSpec(*blockedSpec(rank)), 0);
    shape.erase(shape.begin());
    break;
  case 4:
    s = ok(SwizzledSharedSpec::make(*pow2In(0, 3), *pow2In(0, 3), *pow2In(0, 3),
                                    *permutationOf(rank)));
    break;
  case 5: {
    // Hopper takes only A from registers.
    bool hopper = *rc::gen::arbitrary<bool>();
    s = dot(LayoutSpec(*nvidiaMmaSpec(rank, hopper)), hopper ? 0 : *rc::gen::inRange(0, 2),
            int(*pow2In(0, 3)));
    break;
  } break;
  default:
    break;
  }
  LinearLayout l = mustConvert(s, shape);
  RC_ASSERT(l.numOutDims() == int(shape.size()));
  for (size_t d = 0; d < shape.size(); ++d) {
    RC_ASSERT(l.outDimName(int(d)) == DimName::dim(int(d)));
    RC_ASSERT(l.outDimSize(DimName::dim(int(d))) == uint64_t(shape[d]));
  }
  std::vector<DimName> want =
      s.isDistributed()
          ? std::vector<DimName>{DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()}
          : std::vector<DimName>{DimName::offset(), DimName::block()};
  RC_ASSERT(l.inDimNames() == want);
  RC_ASSERT(s.isDistributed() != s.isShared());
}

LL_PROP(CgaLayoutProps, MapsEachBlockBitToItsBasis, 1000, ()) {
  int rank = *rc::gen::inRange(1, 4);
  CgaLayout c = *cgaLayout(rank, 4, true);
  LinearLayout l = c.toLinearLayout();
  for (size_t i = 0; i < c.bases().size(); ++i) {
    auto b = l.basis(DimName::block(), int(i));
    RC_ASSERT(std::equal(b.begin(), b.end(), c.bases()[i].begin(), c.bases()[i].end(),
                         [](uint64_t x, int64_t y) { return int64_t(x) == y; }));
  }
}

} // namespace
