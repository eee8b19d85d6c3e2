#include "RegisterBudget.h"

#include "SharedDeclaration.h"

#include <algorithm>

namespace linlayout::lower {

int64_t registerBudget(int threads) {
  assert(threads >= 32 && threads <= 1024 && "threads per block out of range");
  return std::min<int64_t>(255, 65536 / threads);
}

Expected<int64_t> tileWords(LayoutCache &layouts, const ir::Type &t) {
  LL_ASSIGN_OR_RETURN(LinearLayout ll, layouts.of(t));
  return (int64_t(ll.inDimSize(DimName::reg())) * exchangeElementBits(t) + 31) / 32;
}

} // namespace linlayout::lower
