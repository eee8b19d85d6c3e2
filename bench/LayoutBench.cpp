// The layout core on realistic layouts (a 128x128 tile over 4 warps: 14 in bits) and on 64-bit
// extremes. Each benchmark reports allocs/iter (heap allocations per call).
#include "AllocationCounter.h"
#include "RealisticLayouts.h"

#include <benchmark/benchmark.h>

using namespace linlayout;
using namespace linlayout::bench;

namespace {

// Runs `body` in the benchmark loop and reports heap allocations per iteration.
template <typename Body> void measure(benchmark::State &state, Body body) {
  size_t before = allocationCount();
  for (auto _ : state)
    body();
  state.counters["allocs/iter"] =
      benchmark::Counter(double(allocationCount() - before), benchmark::Counter::kAvgIterations);
}

void BM_Apply_14bit(benchmark::State &state) {
  LinearLayout l = blocked128();
  uint64_t x = 0;
  measure(state, [&] {
    benchmark::DoNotOptimize(l.apply(x));
    x = (x + 0x2f1b) & 0x3fff;
  });
}
BENCHMARK(BM_Apply_14bit);

void BM_Apply_64bit(benchmark::State &state) {
  LinearLayout l = dense64(1);
  uint64_t x = 0x9e3779b97f4a7c15ull;
  measure(state, [&] {
    benchmark::DoNotOptimize(l.apply(x));
    x = x * 6364136223846793005ull + 1442695040888963407ull;
  });
}
BENCHMARK(BM_Apply_64bit);

void BM_Then_14bit(benchmark::State &state) {
  LinearLayout a = blocked128(), s = swizzledShared128();
  measure(state, [&] { benchmark::DoNotOptimize(a.then(s)); });
}
BENCHMARK(BM_Then_14bit);

void BM_Then_64bit(benchmark::State &state) {
  LinearLayout a = dense64(1), s = dense64Shared(2);
  measure(state, [&] { benchmark::DoNotOptimize(a.then(s)); });
}
BENCHMARK(BM_Then_64bit);

void BM_Invert_14bit(benchmark::State &state) {
  LinearLayout l = mma128();
  measure(state, [&] { benchmark::DoNotOptimize(l.invert()); });
}
BENCHMARK(BM_Invert_14bit);

void BM_Invert_64bit(benchmark::State &state) {
  LinearLayout l = dense64(3);
  measure(state, [&] { benchmark::DoNotOptimize(l.invert()); });
}
BENCHMARK(BM_Invert_64bit);

void BM_Invert_32bit(benchmark::State &state) {
  LinearLayout l = dense32(3);
  measure(state, [&] { benchmark::DoNotOptimize(l.invert()); });
}
BENCHMARK(BM_Invert_32bit);

void BM_PseudoInvert_16to14bit(benchmark::State &state) {
  LinearLayout l = broadcast128();
  measure(state, [&] { benchmark::DoNotOptimize(l.pseudoInvert()); });
}
BENCHMARK(BM_PseudoInvert_16to14bit);

void BM_InvertAndCompose_14bit(benchmark::State &state) {
  LinearLayout a = blocked128(), b = mma128();
  measure(state, [&] { benchmark::DoNotOptimize(a.invertAndCompose(b)); });
}
BENCHMARK(BM_InvertAndCompose_14bit);

void BM_InvertAndCompose_Broadcast16bit(benchmark::State &state) {
  LinearLayout
      a = broadcast128(),
      b = mma128().resizeInDim(DimName::warp(), 8)->resizeInDim(DimName::block(), 2).value();
  measure(state, [&] { benchmark::DoNotOptimize(a.invertAndCompose(b)); });
}
BENCHMARK(BM_InvertAndCompose_Broadcast16bit);

void BM_InvertAndCompose_32bit(benchmark::State &state) {
  LinearLayout a = dense32(4), b = dense32(5);
  measure(state, [&] { benchmark::DoNotOptimize(a.invertAndCompose(b)); });
}
BENCHMARK(BM_InvertAndCompose_32bit);

void BM_InvertAndCompose_64bit(benchmark::State &state) {
  LinearLayout a = dense64(4), b = dense64(5);
  measure(state, [&] { benchmark::DoNotOptimize(a.invertAndCompose(b)); });
}
BENCHMARK(BM_InvertAndCompose_64bit);

void BM_Product_14bit(benchmark::State &state) {
  // Registers and lanes of a tile times the warps and register repeats above it.
  LinearLayout inner = mustBuild({{DimName::reg(), {{0, 1}, {0, 2}}},
                                  {DimName::lane(), {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}}},
                                 {{DimName::dim(0), 4}, {DimName::dim(1), 32}});
  LinearLayout outer = mustBuild({{DimName::reg(), {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}},
                                  {DimName::warp(), {{8, 0}, {16, 0}}}},
                                 {{DimName::dim(0), 32}, {DimName::dim(1), 4}});
  measure(state, [&] { benchmark::DoNotOptimize(LinearLayout::product(inner, outer)); });
}
BENCHMARK(BM_Product_14bit);

void BM_Product_64bit(benchmark::State &state) {
  LinearLayout a = dense64(6), b = dense64(7);
  // Two 32-bit halves: inner holds register+lane onto 32 out bits, outer warp+block onto 32.
  std::vector<InDimBases> ib = a.bases(), ob = b.bases();
  std::vector<InDimBases> innerBases = {ib[0], ib[1]}, outerBases = {ob[2], ob[3]};
  for (auto *v : {&innerBases, &outerBases})
    for (auto &d : *v)
      for (auto &basis : d.bases)
        basis = {basis[0] & 0xffff, basis[1] & 0xffff};
  LinearLayout in = mustBuild(innerBases, {{DimName::dim(0), 1 << 16}, {DimName::dim(1), 1 << 16}});
  LinearLayout out =
      mustBuild(outerBases, {{DimName::dim(0), 1 << 16}, {DimName::dim(1), 1 << 16}});
  measure(state, [&] { benchmark::DoNotOptimize(LinearLayout::product(in, out)); });
}
BENCHMARK(BM_Product_64bit);

void BM_FreeVariableMasks_16bit(benchmark::State &state) {
  LinearLayout l = broadcast128();
  measure(state, [&] { benchmark::DoNotOptimize(l.freeVariableMasks()); });
}
BENCHMARK(BM_FreeVariableMasks_16bit);

void BM_FreeVariableMasks_64bit(benchmark::State &state) {
  LinearLayout l = dense64(8);
  measure(state, [&] { benchmark::DoNotOptimize(l.freeVariableMasks()); });
}
BENCHMARK(BM_FreeVariableMasks_64bit);

void BM_FromBases_14bit(benchmark::State &state) {
  LinearLayout l = blocked128();
  std::vector<InDimBases> bases = l.bases();
  std::vector<DimSize> outs = l.outDims();
  measure(state, [&] { benchmark::DoNotOptimize(LinearLayout::fromBases(bases, outs)); });
}
BENCHMARK(BM_FromBases_14bit);

void BM_FromBases_64bit(benchmark::State &state) {
  LinearLayout l = dense64(9);
  std::vector<InDimBases> bases = l.bases();
  std::vector<DimSize> outs = l.outDims();
  measure(state, [&] { benchmark::DoNotOptimize(LinearLayout::fromBases(bases, outs)); });
}
BENCHMARK(BM_FromBases_64bit);

// The ops Triton's side was closest on (issue 43): divideLeft, sublayout, apply by names.
void BM_DivideLeft_14bit(benchmark::State &state) {
  LinearLayout inner = mustBuild({{DimName::reg(), {{0, 1}, {0, 2}}},
                                  {DimName::lane(), {{0, 4}, {0, 8}, {0, 16}, {1, 0}, {2, 0}}}},
                                 {{DimName::dim(0), 4}, {DimName::dim(1), 32}});
  LinearLayout outer = mustBuild({{DimName::reg(), {{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}},
                                  {DimName::warp(), {{8, 0}, {16, 0}}}},
                                 {{DimName::dim(0), 32}, {DimName::dim(1), 4}});
  LinearLayout prod = *LinearLayout::product(inner, outer);
  measure(state, [&] { benchmark::DoNotOptimize(prod.divideLeft(inner)); });
}
BENCHMARK(BM_DivideLeft_14bit);

void BM_Sublayout_14bit(benchmark::State &state) {
  LinearLayout l = blocked128();
  std::vector<DimName> ins{DimName::reg(), DimName::lane()}, outs{DimName::dim(1)};
  measure(state, [&] { benchmark::DoNotOptimize(l.sublayout(ins, outs)); });
}
BENCHMARK(BM_Sublayout_14bit);

void BM_ApplyNamed_14bit(benchmark::State &state) {
  LinearLayout l = blocked128();
  std::vector<DimValue> in{{DimName::reg(), 3}, {DimName::lane(), 17}, {DimName::warp(), 2}};
  measure(state, [&] { benchmark::DoNotOptimize(l.apply(in)); });
}
BENCHMARK(BM_ApplyNamed_14bit);

// The structural ops issue 43 also compares with Triton's (bench/triton/ times the same cases).
void BM_ReshapeIns_14bit(benchmark::State &state) {
  LinearLayout l = blocked128();
  std::vector<DimSize> ins{
      {DimName::reg(), 1 << 4}, {DimName::lane(), 1 << 5}, {DimName::warp(), 1 << 5}};
  measure(state, [&] { benchmark::DoNotOptimize(l.reshapeIns(ins)); });
}
BENCHMARK(BM_ReshapeIns_14bit);

void BM_ReshapeOuts_14bit(benchmark::State &state) {
  LinearLayout l = blocked128();
  std::vector<DimSize> outs{{DimName::dim(0), 1 << 4}, {DimName::dim(1), 1 << 10}};
  measure(state, [&] { benchmark::DoNotOptimize(l.reshapeOuts(outs)); });
}
BENCHMARK(BM_ReshapeOuts_14bit);

void BM_TransposeIns_14bit(benchmark::State &state) {
  LinearLayout l = blocked128();
  std::vector<DimName> order{DimName::lane(), DimName::reg(), DimName::block(), DimName::warp()};
  measure(state, [&] { benchmark::DoNotOptimize(l.transposeIns(order)); });
}
BENCHMARK(BM_TransposeIns_14bit);

void BM_TransposeOuts_14bit(benchmark::State &state) {
  LinearLayout l = blocked128();
  std::vector<DimName> order{DimName::dim(1), DimName::dim(0)};
  measure(state, [&] { benchmark::DoNotOptimize(l.transposeOuts(order)); });
}
BENCHMARK(BM_TransposeOuts_14bit);

void BM_Quotient_15bit(benchmark::State &state) {
  LinearLayout l = blocked128PerCta();
  std::vector<DimName> dims{DimName::block()};
  measure(state, [&] { benchmark::DoNotOptimize(l.quotient(dims)); });
}
BENCHMARK(BM_Quotient_15bit);

} // namespace
