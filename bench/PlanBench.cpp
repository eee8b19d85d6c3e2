// Conversion planning and bank-conflict analysis: planning a 128x128, 4-warp conversion
// (including the swizzle search) and answering one bank_conflicts question.
#include "AllocationCounter.h"

#include "linlayout/layout/BankConflicts.h"
#include "linlayout/layout/PlanConversion.h"

#include <benchmark/benchmark.h>

#include <cstdlib>

using namespace linlayout;

namespace {

LinearLayout layoutOf(const Expected<LayoutSpec> &spec, std::vector<int64_t> shape) {
  if (!spec.ok())
    std::abort();
  auto l = toLinearLayout(*spec, shape);
  if (!l.ok())
    std::abort();
  return *l;
}

LayoutSpec blocked(std::vector<int64_t> spt, std::vector<int64_t> tpw, std::vector<int64_t> wpc,
                   std::vector<int64_t> order) {
  auto b = BlockedSpec::make(spt, tpw, wpc, order);
  if (!b.ok())
    std::abort();
  return *b;
}

LayoutSpec mma(int major, std::vector<int64_t> warps, std::vector<int64_t> instr) {
  auto m = NvidiaMmaSpec::make(major, 0, warps, instr);
  if (!m.ok())
    std::abort();
  return *m;
}

const std::vector<int64_t> kShape{128, 128};

struct Pair {
  LinearLayout src, dst;
};

Pair pair(int which) {
  LayoutSpec row4 = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0});
  LayoutSpec col4 = blocked({4, 1}, {8, 4}, {1, 4}, {0, 1});
  LayoutSpec row = blocked({1, 8}, {4, 8}, {4, 1}, {1, 0});
  switch (which) {
  case 0: // transpose between blocked layouts
    return {layoutOf(row4, kShape), layoutOf(col4, kShape)};
  case 1: // epilogue: mma v2 accumulator -> coalesced blocked
    return {layoutOf(mma(2, {2, 2}, {16, 8}), kShape), layoutOf(row, kShape)};
  case 2: // mma v3 accumulator -> coalesced blocked
    return {layoutOf(mma(3, {4, 1}, {16, 128, 16}), kShape), layoutOf(row, kShape)};
  default: // register/lane permutation inside warps (shuffles)
    return {layoutOf(blocked({2, 2}, {8, 4}, {4, 1}, {1, 0}), kShape),
            layoutOf(blocked({2, 2}, {8, 4}, {4, 1}, {0, 1}), kShape)};
  }
}

void BM_PlanConversion128x128(benchmark::State &state) {
  Pair p = pair(int(state.range(0)));
  int bits = int(state.range(1));
  size_t before = bench::allocationCount();
  for (auto _ : state) {
    auto plan = planConversion(p.src, p.dst, bits);
    benchmark::DoNotOptimize(plan);
  }
  state.counters["allocs/iter"] = benchmark::Counter(double(bench::allocationCount() - before),
                                                     benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_PlanConversion128x128)
    ->ArgNames({"pair", "bits"})
    ->Args({0, 16})
    ->Args({1, 16})
    ->Args({2, 16})
    ->Args({3, 16})
    ->Args({0, 32})
    ->Args({1, 32})
    ->Unit(benchmark::kMicrosecond);

void BM_BankConflicts(benchmark::State &state) {
  LinearLayout reg = layoutOf(mma(2, {2, 2}, {16, 8}), kShape);
  auto nv = NvmmaSharedSpec::make(128, 16, 2, false);
  if (!nv.ok())
    std::abort();
  LinearLayout shared = layoutOf(LayoutSpec(*nv), kShape);
  size_t before = bench::allocationCount();
  for (auto _ : state) {
    auto c = bankConflicts(reg, shared, 16);
    benchmark::DoNotOptimize(c);
  }
  state.counters["allocs/iter"] = benchmark::Counter(double(bench::allocationCount() - before),
                                                     benchmark::Counter::kAvgIterations);
}
BENCHMARK(BM_BankConflicts)->Unit(benchmark::kMicrosecond);

} // namespace
