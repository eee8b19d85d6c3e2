// The conversion planner's working form, shared by its files (private to planning/): the
// hardware columns of both layouts, where each destination element is read from, and the cost
// model every strategy is ranked by. PlanConversion.cpp drives the strategies; the warp-shuffle
// strategy lives in PlanShuffles.cpp.
#pragma once

#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/layout/GpuTarget.h"
#include "linlayout/layout/LayoutColumns.h"
#include "linlayout/layout/LinearLayout.h"
#include "linlayout/layout/PlanConversion.h"

#include <cstdint>
#include <vector>

namespace linlayout::planning {

inline uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }
inline int log2i(uint64_t x) { return 63 - __builtin_clzll(x); }

// Levels of data movement, cheapest first.
enum Level { kThread = 0, kWarp = 1, kCta = 2, kAny = 3 };

// The hardware columns of a distributed layout (packed tensor words) per hardware dim.
struct Hw {
  std::vector<uint64_t> reg, lane, warp, block;
  const std::vector<uint64_t> &dim(int d) const {
    return d == 0 ? reg : d == 1 ? lane : d == 2 ? warp : block;
  }
  int bits(int d) const { return int(dim(d).size()); }
  int offset(int d) const {
    int o = 0;
    for (int i = 0; i < d; ++i)
      o += bits(i);
    return o;
  }
  int total() const { return offset(4); }
  std::vector<uint64_t> all() const {
    std::vector<uint64_t> v;
    for (int d = 0; d < 4; ++d)
      v.insert(v.end(), dim(d).begin(), dim(d).end());
    return v;
  }
};

inline const DimName kHwDims[4] = {DimName::reg(), DimName::lane(), DimName::warp(),
                                   DimName::block()};

inline Hw hwOf(const LinearLayout &l) {
  return {columnsOf(l, kHwDims[0]), columnsOf(l, kHwDims[1]), columnsOf(l, kHwDims[2]),
          columnsOf(l, kHwDims[3])};
}

struct Problem {
  LinearLayout src, dst;
  Hw s, d;
  int e = 32;
  PlanOptions opt;
  const TargetCosts *tc = nullptr;
  int warps() const { return 1 << d.bits(2); }
};

// Where each dst element is read from (sourceOf) and the level the conversion needs.
struct Movement {
  int level = kThread;
  std::vector<uint64_t> sourceOf; // per dst hardware bit: packed src hardware input word
};

// The estimated cycles of a plan's costs (see PlanConversion.cpp).
double cyclesOf(const Problem &p, const ConversionCost &c, int storingWarps, bool cluster);

// Plans the conversion as warp shuffles (PlanShuffles.cpp); false when shuffles cannot do it or
// need more rounds than an explicit list holds.
bool planShuffles(const Problem &p, const Movement &mv, ConversionPlan &plan);

} // namespace linlayout::planning
