// The cost is the conversion planner's estimate (PlanConversion.h) for the module's target. When
// the planner cannot plan a pair (e.g. a cross-CTA exchange on sm_80), a coarse estimate from what
// the two linear layouts say must move stands in: registers within a thread, lanes within a warp
// (shuffles), or data across warps (a shared-memory round trip with a barrier).
#include "linlayout/ir/ConversionCost.h"

#include "linlayout/layout/PlanConversion.h"

#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace linlayout::ir {

namespace {

// Cycle estimates for one CTA (sm_80-like): a shuffle round per warp per register, 128 bytes of
// shared memory per cycle, a barrier of a few tens of cycles.
constexpr double kRegisterMove = 0.5;
constexpr double kShuffle = 4;
constexpr double kSharedBytesPerCycle = 128;
constexpr double kBarrier = 40;

bool sameSub(const LinearLayout &a, const LinearLayout &b, std::vector<DimName> ins) {
  std::vector<DimName> outs = a.outDimNames();
  std::vector<DimName> keep;
  for (DimName d : ins)
    if (a.hasInDim(d) || b.hasInDim(d))
      keep.push_back(d);
  std::vector<DimName> ka, kb;
  for (DimName d : keep) {
    if (a.hasInDim(d))
      ka.push_back(d);
    if (b.hasInDim(d))
      kb.push_back(d);
  }
  auto sa = a.sublayout(ka, outs);
  auto sb = b.sublayout(kb, outs);
  if (!sa || !sb)
    return false;
  // Sizes 1 dims may be missing on one side: compare the bases dim by dim. A source that
  // broadcasts a level (all its bases zero) already holds the data at every index of it.
  for (DimName d : keep) {
    bool srcBroadcast = true;
    for (int i = 0; i < a.inDimBits(d); ++i)
      for (uint64_t x : a.basis(d, i))
        srcBroadcast = srcBroadcast && x == 0;
    if (srcBroadcast)
      continue;
    int bits = std::max(a.inDimBits(d), b.inDimBits(d));
    for (int i = 0; i < bits; ++i) {
      std::vector<uint64_t> x =
          i < a.inDimBits(d) ? a.basis(d, i) : std::vector<uint64_t>(outs.size(), 0);
      std::vector<uint64_t> y =
          i < b.inDimBits(d) ? b.basis(d, i) : std::vector<uint64_t>(outs.size(), 0);
      if (x != y)
        return false;
    }
  }
  return true;
}

struct Pair {
  LinearLayout src, dst;
};

std::optional<Pair> linearPair(const Module &m, const Type &t, LayoutId to) {
  if (!t.isTensor() || t.layout() >= m.layouts.size() || to >= m.layouts.size())
    return std::nullopt;
  auto a = toLinearLayout(m.layouts.get(t.layout()), t.shape());
  auto b = toLinearLayout(m.layouts.get(to), t.shape());
  if (!a || !b)
    return std::nullopt;
  return Pair{*a, *b};
}

} // namespace

bool isNoOpConversion(const Module &m, const Type &t, LayoutId to) {
  if (t.layout() == to)
    return true;
  auto p = linearPair(m, t, to);
  return p && p->src == p->dst;
}

namespace {

GpuTarget targetOf(const Module &m) {
  std::string_view t = m.target;
  if (t.substr(0, 5) == "cuda:")
    t.remove_prefix(5);
  if (auto g = parseGpuTarget(t))
    return *g;
  if (auto g = parseGpuTarget("sm_" + std::string(t)))
    return *g;
  return GpuTarget::Sm80;
}

int elementBitsOf(const Type &t) {
  if (t.elem().pointer)
    return 64;
  return std::max(8, bitWidth(t.elem().scalar));
}

// Passes ask about the same few pairs many times; plans are worth keeping for a while.
using PlanKey = std::tuple<size_t, size_t, int, int>;
struct CachedCost {
  LinearLayout src, dst;
  double cycles;
};

std::optional<double> plannedCycles(const Module &m, const LinearLayout &src,
                                    const LinearLayout &dst, int bits) {
  thread_local std::map<PlanKey, std::vector<CachedCost>> cache;
  GpuTarget target = targetOf(m);
  PlanKey key{src.hash(), dst.hash(), bits, int(target)};
  auto &bucket = cache[key];
  for (const CachedCost &c : bucket)
    if (c.src == src && c.dst == dst)
      return c.cycles;
  PlanOptions options;
  options.target = target;
  auto plan = planConversion(src, dst, bits, options);
  if (!plan)
    return std::nullopt;
  double cycles = plan->path == ConversionPath::NoOp ? 0 : std::max(plan->cost.cycles, 0.01);
  if (cache.size() > 4096)
    cache.clear();
  cache[key].push_back({src, dst, cycles});
  return cycles;
}

} // namespace

double conversionCost(const Module &m, const Type &t, LayoutId to) {
  if (t.layout() == to)
    return 0;
  auto p = linearPair(m, t, to);
  if (!p)
    return std::numeric_limits<double>::infinity();
  if (p->src == p->dst)
    return 0;
  if (auto cycles = plannedCycles(m, p->src, p->dst, elementBitsOf(t)))
    return *cycles;
  double elements = double(t.numElements());
  double bytes =
      elements * std::max(1, byteWidth(t.elem().pointer ? ScalarKind::I64 : t.elem().scalar));
  int64_t threads = int64_t(m.numWarps) * m.threadsPerWarp;
  double regsPerThread = std::max(1.0, elements / double(threads));
  DimName lane = DimName::lane(), warp = DimName::warp(), block = DimName::block();
  if (sameSub(p->src, p->dst, {lane, warp, block}))
    return kRegisterMove * regsPerThread;
  if (sameSub(p->src, p->dst, {warp, block}))
    return kShuffle * regsPerThread * m.numWarps;
  // A round trip through shared memory: every byte stored and loaded once, plus a barrier.
  double shared = 2 * bytes / kSharedBytesPerCycle + kBarrier;
  if (!sameSub(p->src, p->dst, {block}))
    shared *= 2; // across CTAs: distributed shared memory and a cluster barrier
  return shared;
}

} // namespace linlayout::ir
