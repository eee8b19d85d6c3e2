// F2Basis::insertAll builds the basis that inserting one vector at a time builds.
#include "PropertySupport.h"

#include "linlayout/layout/F2Basis.h"

using namespace linlayout;
using linlayout::proptest::kCases;

namespace {

// Vectors that are often dependent: some narrow, some the XOR of two earlier ones.
std::vector<uint64_t> someVectors(int n) {
  std::vector<uint64_t> v;
  for (int k = 0; k < n; ++k) {
    int kind = *rc::gen::inRange(0, 3);
    uint64_t x = *rc::gen::arbitrary<uint64_t>();
    if (kind == 1)
      x &= 0xff;
    if (kind == 2 && k >= 2)
      x = v[*rc::gen::inRange(0, k)] ^ v[*rc::gen::inRange(0, k)];
    v.push_back(x);
  }
  return v;
}

} // namespace

LL_PROP(F2Basis, InsertAllIsInsertingOneByOne, kCases, ()) {
  F2Basis one, all;
  for (uint64_t x : someVectors(*rc::gen::inRange(0, 12))) {
    one.insert(x, 0);
    all.insert(x, 0);
  }
  int n = *rc::gen::inRange(0, 65);
  std::vector<uint64_t> v = someVectors(n);
  int shift = *rc::gen::inRange(0, 65 - std::max(n, 1));
  uint64_t firstTag = *rc::gen::element(0, 1) ? uint64_t(1) << shift : 0;
  uint64_t inSpan = 0;
  for (int k = 0; k < n; ++k)
    if (!one.insert(v[k], firstTag << k))
      inSpan |= uint64_t(1) << k;
  RC_ASSERT(all.insertAll(v.data(), n, firstTag) == inSpan);
  RC_ASSERT(all.pivots() == one.pivots());
  for (uint64_t p = one.pivots(); p; p &= p - 1) {
    int i = __builtin_ctzll(p);
    RC_ASSERT(all.vectorAt(i) == one.vectorAt(i));
    RC_ASSERT(all.comboAt(i) == one.comboAt(i));
  }
}
