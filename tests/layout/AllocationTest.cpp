// The hot paths of LinearLayout allocate nothing: apply (packed and by names), then, invert,
// pseudoInvert, invertAndCompose, factorThrough, product, the transposes and reshapes, fromBases,
// sublayout, quotient and the divisions. Global operator new is replaced in
// this test binary by a counting version (it only counts, then calls malloc).
#include "../../bench/RealisticLayouts.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<size_t> gAllocations{0};
} // namespace

void *operator new(size_t n) {
  gAllocations.fetch_add(1, std::memory_order_relaxed);
  if (void *p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
void *operator new[](size_t n) {
  gAllocations.fetch_add(1, std::memory_order_relaxed);
  if (void *p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
// GCC 12, inlining these into the library's destructors, takes the pair for a free() of memory
// from operator new (-Wmismatched-new-delete); here both sides are malloc/free.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t) noexcept { std::free(p); }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

using namespace linlayout;

namespace {

// The number of heap allocations `body` makes.
template <typename Body> size_t allocationsOf(Body body) {
  size_t before = gAllocations.load();
  body();
  return gAllocations.load() - before;
}

} // namespace

TEST(Allocation, HotPathsAllocateNothing) {
  LinearLayout blocked = bench::blocked128(), mma = bench::mma128();
  LinearLayout broadcast = bench::broadcast128(), shared = bench::swizzledShared128();
  LinearLayout wide = bench::dense64(1), wideShared = bench::dense64Shared(2);
  std::vector<DimName> outOrder = {DimName::dim(1), DimName::dim(0)};
  std::vector<DimName> inOrder = {DimName::block(), DimName::warp(), DimName::lane(),
                                  DimName::reg()};
  LinearLayout transposed = *mma.transposeOuts(outOrder);
  uint64_t sink = 0;
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.apply(0x1234); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= wide.apply(~uint64_t(0)); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.then(shared).ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= wide.then(wideShared).ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= mma.invert().ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= wide.invert().ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= mma.tryInvert().has_value(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= broadcast.pseudoInvert().ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.invertAndCompose(mma).ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.invertAndCompose(transposed).ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= broadcast.factorThrough(mma).ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= (blocked * shared).ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.transposeOuts(outOrder).ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.transposeIns(inOrder).ok(); }), 0u);
  std::vector<DimSize> newIns = {
      {DimName::reg(), 1 << 4}, {DimName::lane(), 1 << 5}, {DimName::warp(), 1 << 5}};
  std::vector<DimSize> newOuts = {{DimName::dim(0), 1 << 4}, {DimName::dim(1), 1 << 10}};
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.reshapeIns(newIns).ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.reshapeOuts(newOuts).ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.rank() + blocked.isInjective(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.imageWithin(mma).ok(); }), 0u);
  // Building from bases reads the caller's vectors and allocates nothing of its own.
  std::vector<InDimBases> bases = blocked.bases();
  std::vector<DimSize> outs = blocked.outDims();
  EXPECT_EQ(allocationsOf([&] { sink ^= LinearLayout::fromBases(bases, outs).ok(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= LinearLayout::fromBases(bases, outs, true).ok(); }), 0u);
  std::vector<DimName> someIns = {DimName::reg(), DimName::lane()}, someOuts = {DimName::dim(1)};
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.sublayout(someIns, someOuts).ok(); }), 0u);
  std::vector<DimName> blockDim = {DimName::block()};
  LinearLayout withBlock =
      *(blocked * *LinearLayout::identity1D(2, DimName::block(), DimName::block()));
  EXPECT_EQ(allocationsOf([&] { sink ^= withBlock.quotient(blockDim).has_value(); }), 0u);
  LinearLayout inner = *blocked.sublayout(std::vector<DimName>{DimName::reg()}, outOrder);
  LinearLayout outer = *blocked.sublayout(inOrder, outOrder);
  LinearLayout prod = *(inner * outer);
  EXPECT_EQ(allocationsOf([&] { sink ^= prod.divideLeft(inner).has_value(); }), 0u);
  EXPECT_EQ(allocationsOf([&] { sink ^= prod.divideRight(outer).has_value(); }), 0u);
  std::vector<DimValue> named = {{DimName::reg(), 3}, {DimName::lane(), 17}, {DimName::warp(), 2}};
  EXPECT_EQ(allocationsOf([&] { sink ^= blocked.apply(named).ok(); }), 0u);
  EXPECT_NE(sink, 42u); // keeps the calls
}

TEST(Allocation, TheCounterSeesAllocations) {
  EXPECT_GT(allocationsOf([] { std::vector<int> v(100); }), 0u);
}
