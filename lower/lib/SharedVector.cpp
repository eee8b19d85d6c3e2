#include "SharedVector.h"

#include "linlayout/ir/AccessWidth.h"

namespace linlayout::lower {

int sharedVectorWidth(const LinearLayout &toOffset, int bytes) {
  int out = toOffset.outDimIndex(DimName::offset());
  int regDim = toOffset.inDimIndex(DimName::reg());
  if (out < 0 || regDim < 0)
    return 1;
  int regBits = toOffset.inDimBits(regDim);
  int v = 1;
  while (v * 2 * bytes <= 16) {
    int bit = __builtin_ctz(static_cast<unsigned>(v));
    if (bit >= regBits)
      break;
    uint64_t col = toOffset.column(toOffset.inDimOffset(regDim) + bit);
    bool unit = true;
    for (int d = 0; d < toOffset.numOutDims(); ++d)
      unit = unit && toOffset.outValue(col, d) == (d == out ? uint64_t(1) << bit : 0);
    if (!unit)
      break;
    v *= 2;
  }
  return static_cast<int>(ir::alignedRun(toOffset, out, v));
}

} // namespace linlayout::lower
