#include "linlayout/ir/AccessWidth.h"

#include <algorithm>

namespace linlayout::ir {

RegisterRun contiguousRegisters(const LinearLayout &layout) {
  DimName reg = DimName::reg();
  int regBits = layout.inDimBits(reg);
  if (regBits == 0)
    return {};
  std::vector<uint64_t> first = layout.basis(reg, 0);
  int dim = -1;
  for (size_t d = 0; d < first.size(); ++d)
    if (first[d] != 0) {
      if (dim >= 0 || first[d] != 1)
        return {};
      dim = int(d);
    }
  if (dim < 0)
    return {};
  int64_t run = 1;
  for (int i = 0; i < regBits; ++i) {
    std::vector<uint64_t> b = layout.basis(reg, i);
    bool unit = true;
    for (size_t d = 0; d < b.size(); ++d)
      unit = unit && b[d] == (int(d) == dim ? (uint64_t(1) << i) : 0);
    if (!unit)
      break;
    run <<= 1;
  }
  return {dim, run};
}

namespace {

// Whether every basis of `layout` other than register bases 0 .. regBits-1 and lane bases
// 0 .. laneBits-1 is a multiple of `run` (a power of two) along `dim`.
bool othersAligned(const LinearLayout &layout, int dim, int64_t run, int regBits, int laneBits) {
  const uint64_t low = uint64_t(run) - 1;
  auto inPrefix = [&](int bit, DimName in, int bits) {
    int i = layout.inDimIndex(in);
    return i >= 0 && bit >= layout.inDimOffset(i) && bit < layout.inDimOffset(i) + bits;
  };
  for (int bit = 0; bit < layout.totalInBits(); ++bit)
    if (!inPrefix(bit, DimName::reg(), regBits) && !inPrefix(bit, DimName::lane(), laneBits) &&
        (layout.outValue(layout.column(bit), dim) & low) != 0)
      return false;
  return true;
}

} // namespace

int64_t alignedRun(const LinearLayout &layout, int dim, int64_t run) {
  for (; run > 1; run /= 2)
    if (othersAligned(layout, dim, run, __builtin_ctzll(uint64_t(run)), 0))
      break;
  return std::max<int64_t>(run, 1);
}

AccessWidth accessWidth(const Module &m, const Function &f, const Op &op,
                        const AxisInfoAnalysis &info) {
  return accessWidthIn(m, f, op, info, f.type(op.operands[0]).layout());
}

AccessWidth accessWidthIn(const Module &m, const Function &f, const Op &op,
                          const AxisInfoAnalysis &info, LayoutId layout) {
  ValueId ptr = op.operands[0];
  const Type &pt = f.type(ptr);
  int64_t elemBytes = byteWidth(pt.elem().scalar);
  AccessWidth w;
  w.bytes = w.warpBytes = elemBytes;
  if (!pt.isTensor())
    return w;
  Expected<LinearLayout> ll = toLinearLayout(m.layouts.get(layout), pt.shape());
  if (!ll)
    return w;
  RegisterRun run = contiguousRegisters(*ll);
  if (run.dim < 0)
    return w;
  // Out dims of the linear layout are dim0..dim{rank-1} in order, so the index is the tensor dim.
  size_t d = size_t(run.dim);
  int64_t n = alignedRun(*ll, run.dim, run.elements);
  const AxisInfo *a = info.get(ptr);
  if (a) {
    n = std::min(n, a->contiguity[d]);
    n = std::min(n, std::max<int64_t>(1, a->divisibility[d] / elemBytes));
  } else {
    n = 1;
  }
  size_t maskIdx = op.kind == OpKind::Load ? 1 : 2;
  if (op.operands.size() > maskIdx) {
    const AxisInfo *mk = info.get(op.operands[maskIdx]);
    n = std::min(n, mk ? mk->constancy[d] : 1);
  }
  n = std::min(n, std::max<int64_t>(1, 16 / elemBytes));
  // Keep a power of two (every input is one, but divisibility / bytes may not be for i1).
  int64_t p = 1;
  while (p * 2 <= n)
    p *= 2;
  w.elements = p;
  w.bytes = w.warpBytes = p * elemBytes;
  w.dim = int(d);
  if (a)
    w.warpBytes = warpRun(*ll, run.dim, p, a->contiguity[d]) * elemBytes;
  return w;
}

int64_t warpRun(const LinearLayout &layout, int dim, int64_t vector, int64_t reach) {
  const DimName lane = DimName::lane();
  const int laneDim = layout.inDimIndex(lane);
  const int laneBits = laneDim < 0 ? 0 : layout.inDimBits(laneDim);
  int64_t run = vector;
  int lanes = 0;
  for (; lanes < laneBits && run * 2 <= reach; ++lanes) {
    std::vector<uint64_t> b = layout.basis(lane, lanes);
    bool step = true;
    for (size_t k = 0; k < b.size(); ++k)
      step = step && b[k] == (int(k) == dim ? uint64_t(run) : 0);
    if (!step)
      break;
    run *= 2;
  }
  // The run's offset bits along dim must belong to the vector's registers and those lanes only;
  // a shorter run (fewer lanes) may be aligned where a longer one is not.
  const int vecBits = __builtin_ctzll(uint64_t(vector));
  for (; lanes > 0 && !othersAligned(layout, dim, run, vecBits, lanes); --lanes)
    run /= 2;
  return run;
}

} // namespace linlayout::ir
