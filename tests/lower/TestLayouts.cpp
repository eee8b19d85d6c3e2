#include "TestLayouts.h"

#include <cassert>

namespace linlayout::lower::testing {

namespace {
LinearLayout must(Expected<LinearLayout> e) {
  assert(e.ok() && "test layout construction failed");
  return std::move(e).value();
}
} // namespace

LinearLayout blockedLayout(std::vector<int> spt, std::vector<int> tpw, std::vector<int> wpc,
                           std::vector<int> order, std::vector<int> shape) {
  LinearLayout l;
  auto mulAll = [&](const std::vector<int> &sizes, DimName in) {
    for (int d : order)
      l = must(l * must(LinearLayout::identity1D(sizes[d], in, DimName::dim(d))));
  };
  mulAll(spt, DimName::reg());
  mulAll(tpw, DimName::lane());
  mulAll(wpc, DimName::warp());
  std::vector<int> reps(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) {
    int tile = spt[d] * tpw[d] * wpc[d];
    assert(shape[d] % tile == 0 && "shape smaller than the CTA tile");
    reps[d] = shape[d] / tile;
  }
  mulAll(reps, DimName::reg());
  std::vector<DimName> outs;
  for (size_t d = 0; d < shape.size(); ++d)
    outs.push_back(DimName::dim(static_cast<int>(d)));
  return must(l.transposeOuts(outs));
}

LinearLayout rowMajorOffsets(const LinearLayout &layout) {
  std::vector<DimName> rev;
  for (int o = layout.numOutDims() - 1; o >= 0; --o)
    rev.push_back(layout.outDimName(o));
  return must(layout.transposeOuts(rev)).flattenOuts(DimName::offset());
}

rc::Gen<LinearLayout> genDistributedLayout(int maxRegBits, int maxWarpBits, int maxBlockBits) {
  return rc::gen::exec([=] {
    int regBits = *rc::gen::inRange(0, maxRegBits + 1);
    int laneBits = *rc::gen::inRange(0, 6);
    int warpBits = *rc::gen::inRange(0, maxWarpBits + 1);
    int blockBits = *rc::gen::inRange(0, maxBlockBits + 1);
    int nOut = *rc::gen::inRange(1, 3);
    std::vector<int> outBits;
    for (int o = 0; o < nOut; ++o)
      outBits.push_back(*rc::gen::inRange(0, 9));
    std::vector<DimSize> outs;
    for (int o = 0; o < nOut; ++o)
      outs.push_back({DimName::dim(o), uint64_t(1) << outBits[o]});
    auto basis = [&] {
      std::vector<uint64_t> v;
      bool unit = *rc::gen::inRange(0, 3) != 0; // mostly single bits, like hardware layouts
      int which = *rc::gen::inRange(0, nOut);
      for (int o = 0; o < nOut; ++o) {
        uint64_t size = uint64_t(1) << outBits[o];
        if (unit)
          v.push_back(o == which && outBits[o] ? uint64_t(1) << *rc::gen::inRange(0, outBits[o])
                                               : 0);
        else
          v.push_back(*rc::gen::inRange<uint64_t>(0, size));
      }
      return v;
    };
    std::vector<InDimBases> ins;
    auto dim = [&](DimName n, int bits) {
      InDimBases d{n, {}};
      for (int i = 0; i < bits; ++i)
        d.bases.push_back(basis());
      ins.push_back(d);
    };
    dim(DimName::reg(), regBits);
    dim(DimName::lane(), laneBits);
    dim(DimName::warp(), warpBits);
    dim(DimName::block(), blockBits);
    return must(LinearLayout::fromBases(ins, outs));
  });
}

} // namespace linlayout::lower::testing
