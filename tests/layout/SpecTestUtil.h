// Helpers shared by the layout-spec tests: terse constructors for specs and expected layouts.
#pragma once

#include "linlayout/layout/LayoutSpec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace linlayout::testing {

using Bases = std::vector<std::vector<uint64_t>>;
using I64s = std::vector<int64_t>;

/// A layout from named bases onto dim0.. of the given sizes (the expected value of a test).
inline LinearLayout layoutOf(std::vector<std::pair<std::string, Bases>> ins,
                             std::vector<uint64_t> sizes) {
  std::vector<InDimBases> in;
  for (auto &[name, b] : ins)
    in.push_back({DimName::get(name), std::move(b)});
  std::vector<DimSize> outs;
  for (size_t d = 0; d < sizes.size(); ++d)
    outs.push_back({DimName::dim(int(d)), sizes[d]});
  auto l = LinearLayout::fromBases(in, outs);
  EXPECT_TRUE(l.ok()) << (l.ok() ? "" : l.message());
  return l.ok() ? *l : LinearLayout();
}

/// Unwraps a factory result inside a test (fails the test on an error).
template <typename T> T ok(Expected<T> e) {
  if (!e.ok()) {
    ADD_FAILURE() << e.message();
    std::abort();
  }
  return std::move(e).value();
}

/// A blocked layout with Triton's older CTA split (the form of Triton's own unit tests).
inline LayoutSpec blockedLegacy(I64s spt, I64s tpw, I64s wpc, I64s cpg, I64s split, I64s order,
                                I64s ctaOrder) {
  auto cga = ok(CgaLayout::fromSplit(cpg, split, ctaOrder));
  return ok(BlockedSpec::make(spt, tpw, wpc, order, cga));
}

inline LayoutSpec blocked(I64s spt, I64s tpw, I64s wpc, I64s order,
                          std::vector<std::vector<int64_t>> cga = {}) {
  int rank = int(order.size());
  return ok(BlockedSpec::make(spt, tpw, wpc, order, ok(CgaLayout::fromBases(cga, rank))));
}

inline LayoutSpec mma(int major, I64s warps, I64s instr,
                      std::vector<std::vector<int64_t>> cga = {}) {
  int rank = int(warps.size());
  return ok(NvidiaMmaSpec::make(major, 0, warps, instr, ok(CgaLayout::fromBases(cga, rank))));
}

inline LayoutSpec mmaLegacy(int major, I64s instr, I64s warps, I64s cpg, I64s split,
                            I64s ctaOrder) {
  return ok(
      NvidiaMmaSpec::make(major, 0, warps, instr, ok(CgaLayout::fromSplit(cpg, split, ctaOrder))));
}

inline LayoutSpec dot(const LayoutSpec &parent, int opIdx, int kWidth) {
  return ok(DotOperandSpec::make(opIdx, parent, kWidth));
}

inline LayoutSpec slice(const LayoutSpec &parent, int dim) {
  return ok(SliceSpec::make(dim, parent));
}

inline LayoutSpec swizzled(int64_t vec, int64_t perPhase, int64_t maxPhase, I64s order) {
  return ok(SwizzledSharedSpec::make(vec, perPhase, maxPhase, order));
}

inline LayoutSpec nvmma(int64_t swizzle, int64_t bits, int64_t rank = 2, bool transposed = false,
                        bool fp4 = false) {
  return ok(NvmmaSharedSpec::make(swizzle, bits, rank, transposed, fp4));
}

/// toLinearLayout, failing the test on an error.
inline LinearLayout convert(const LayoutSpec &s, I64s shape) {
  auto l = toLinearLayout(s, shape);
  EXPECT_TRUE(l.ok()) << (l.ok() ? "" : l.message());
  return l.ok() ? *l : LinearLayout();
}

/// The reference conversion pairs of issue 4 (128x128 tiles, 4 warps), named as Triton's
/// benchmark of them names them (../shared/reference/gpu/gluon36_convert_h200.json).
struct GoldenPair {
  const char *name;
  LayoutSpec src, dst;
};

inline std::vector<GoldenPair> goldenPairs() {
  auto row4 = blocked({1, 4}, {4, 8}, {4, 1}, {1, 0});
  auto col4 = blocked({4, 1}, {8, 4}, {1, 4}, {0, 1});
  auto lanePerm = blocked({1, 4}, {8, 4}, {4, 1}, {1, 0});
  auto regPerm = blocked({2, 2}, {8, 4}, {4, 1}, {1, 0});
  auto regPerm2 = blocked({2, 2}, {8, 4}, {4, 1}, {0, 1});
  auto row = blocked({1, 8}, {4, 8}, {4, 1}, {1, 0});
  auto mma2 = mma(2, {2, 2}, {16, 8});
  auto mma3 = mma(3, {4, 1}, {16, 128, 16});
  return {{"transpose_blocked", row4, col4},    {"lane_permute", row4, lanePerm},
          {"register_only", regPerm, regPerm2}, {"mma2_to_blocked", mma2, row},
          {"mma3_to_blocked", mma3, row},       {"mma2_to_transposed", mma2, col4}};
}

} // namespace linlayout::testing
