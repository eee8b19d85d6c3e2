#include "MmaTile.h"

#include <cassert>

namespace linlayout::spec {

BasisTable mmaTile(std::span<const int64_t> tileShape, int64_t kWidth,
                   std::span<const int64_t> order, std::span<const int64_t> repOrder) {
  int rank = int(tileShape.size());
  assert(rank >= 2 && order.size() == size_t(rank) && repOrder.size() == size_t(rank));
  BasisTable t(rank);
  for (int64_t d : repOrder)
    t.touch(int(d));
  int inner = int(order[0]), outer = int(order[1]);
  int64_t m = tileShape[size_t(outer)], n = tileShape[size_t(inner)];
  assert(m % 8 == 0 && n % (4 * kWidth) == 0 && "tile shape does not hold whole instructions");
  t.identity(DimName::reg(), kWidth, inner);
  t.identity(DimName::lane(), 4, inner);
  t.identity(DimName::lane(), 8, outer);
  t.identity(DimName::reg(), m / 8, outer);
  t.identity(DimName::reg(), n / (4 * kWidth), inner);
  return t;
}

} // namespace linlayout::spec
