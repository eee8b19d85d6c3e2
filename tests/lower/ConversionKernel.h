// The reference conversion pairs and a kernel that moves a tile through one conversion, shared by
// the count tests (ConvertTest) and the GPU tests (LowerGpuTest).
#pragma once

#include "KernelHarness.h"

#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/testing/Generators.h"

#include <string>
#include <vector>

namespace linlayout::lower::testing {

/// Bounds for random distributed layouts that one CTA converts: up to 4 warps, no cluster,
/// at most 2^maxOutBits elements.
inline linlayout::testing::DistributedBounds oneCtaBounds(int maxOutBits) {
  linlayout::testing::DistributedBounds bounds;
  bounds.maxBlockBits = 0;
  bounds.maxWarpBits = 2;
  bounds.maxOutBits = maxOutBits;
  return bounds;
}

/// A source and destination layout of the planner's reference pairs.
struct Pair {
  const char *name;
  LayoutSpec src, dst;
};

/// blocked(sizePerThread, threadsPerWarp, warpsPerCTA, order) as a spec.
LayoutSpec blocked(std::vector<int64_t> spt, std::vector<int64_t> tpw, std::vector<int64_t> wpc,
                   std::vector<int64_t> order);

/// The six pairs measured against Triton 3.6 (issue 4), over 128x128 with 4 warps.
std::vector<Pair> referencePairs();

/// out = in through the conversion: each thread loads its source elements from `in` (a dense
/// row-major tile of `elementBits`-bit integers), converts with `plan`, stores its destination
/// elements to `out` at the same positions. One CTA of 32 * warps threads.
Expected<KernelPtx> conversionKernel(const PtxTarget &t, const ConversionPlan &plan,
                                     int elementBits, const std::string &name = "convert");

/// Emits the same kernel body into `kb` without compiling it.
Status emitConversionKernel(KernelBuilder &kb, const PtxTarget &t, const ConversionPlan &plan,
                            int elementBits);

} // namespace linlayout::lower::testing
