#include "linlayout/ir/Coalesce.h"

#include "linlayout/ir/AccessWidth.h"
#include "linlayout/ir/AxisInfo.h"
#include "linlayout/ir/BlockedTiling.h"
#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Rewrite.h"

#include <algorithm>
#include <numeric>

namespace linlayout::ir {

namespace {

class Coalescer {
public:
  Coalescer(Module &m, Function &f) : m_(m), f_(f), info_(AxisInfoAnalysis::run(m, f)) {}

  Status run() { return block(f_.body, 0); }

private:
  // Recursion follows loop and if nesting, which verify() bounds by kMaxNesting.
  Status block(Block &b, int depth) {
    if (depth > kMaxNesting)
      return Status(makeError("coalesce: loops nested too deeply"));
    for (size_t i = 0; i < b.ops.size(); ++i) {
      if (b.ops[i].kind == OpKind::For || b.ops[i].kind == OpKind::If) {
        for (Block &r : b.ops[i].regions)
          LL_TRY_STATUS(block(r, depth + 1));
        continue;
      }
      if (b.ops[i].kind != OpKind::Load && b.ops[i].kind != OpKind::Store)
        continue;
      if (!f_.type(b.ops[i].operands[0]).isTensor())
        continue;
      std::optional<LayoutId> kept;
      if (b.ops[i].kind == OpKind::Store)
        kept = wholeSectorSource(b, i);
      auto layout = kept ? Expected<LayoutId>(*kept) : chooseLayout(b.ops[i]);
      if (!layout)
        return layout.error();
      if (*layout == f_.type(b.ops[i].operands[0]).layout())
        continue;
      i = rewrite(b, i, *layout);
    }
    return Status::success();
  }

  Expected<LayoutId> chooseLayout(const Op &op) {
    ValueId ptr = op.operands[0];
    const Type &pt = f_.type(ptr);
    const AxisInfo *a = info_.get(ptr);
    int rank = pt.rank();
    std::vector<int64_t> contiguity = a ? a->contiguity : std::vector<int64_t>(size_t(rank), 1);
    std::vector<int64_t> divisibility = a ? a->divisibility : std::vector<int64_t>(size_t(rank), 1);
    // Most contiguous first; ties to the later dimension (row-major by default).
    std::vector<int64_t> order(static_cast<size_t>(rank));
    std::iota(order.rbegin(), order.rend(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
      return contiguity[size_t(x)] > contiguity[size_t(y)];
    });
    const LayoutSpec &old = m_.layoutOf(pt);
    std::optional<CgaLayout> cga = cgaOf(old);
    if (!cga || cga->numCtas() != numCtasOf(old))
      cga = broadcastCga(rank, numCtasOf(old));
    std::vector<int64_t> perCta = pt.shape();
    if (cga)
      for (int d = 0; d < rank; ++d)
        perCta[size_t(d)] = std::max<int64_t>(1, perCta[size_t(d)] / cga->splitNum(d));
    size_t fast = size_t(order[0]);
    int64_t elemBytes = byteWidth(pt.elem().scalar);
    int64_t numElems = 1;
    for (int64_t x : perCta)
      numElems *= x;
    int64_t threads = int64_t(m_.numWarps) * m_.threadsPerWarp;
    int64_t alignment = std::max<int64_t>(1, divisibility[fast] / elemBytes);
    int64_t perThread =
        std::min({alignment, contiguity[fast], perCta[fast], std::max<int64_t>(1, 16 / elemBytes),
                  std::max<int64_t>(1, numElems / threads)});
    std::vector<int64_t> spt(size_t(rank), 1);
    spt[fast] = perThread;
    auto spec = tileBlocked(pt.shape(), spt, order, m_.numWarps, m_.threadsPerWarp, cga);
    if (!spec)
      return makeError("coalesce: " + spec.message());
    return m_.layouts.intern(*spec);
  }

  // The layout the value stored by b.ops[i] is computed in (before a convert that feeds the
  // store directly; with the store's CTA split), when storing from it is as good for memory:
  // vectors of 8 bytes or more, and every 32-byte sector a warp's store instruction touches written
  // whole (AccessWidth::warpBytes). Converting such a value to the blocked layout would cost a
  // round trip through shared memory and barriers to save only store instructions; the memory
  // traffic is the same. The mma accumulator of f32 is one: pairs of columns in each thread, four
  // lanes side by side.
  std::optional<LayoutId> wholeSectorSource(const Block &b, size_t i) {
    const Op &store = b.ops[i];
    ValueId v = store.operands[1];
    for (size_t j = i; j-- > 0;)
      if (b.ops[j].kind == OpKind::ConvertLayout && b.ops[j].results[0] == v) {
        v = b.ops[j].operands[0];
        break;
      }
    LayoutId source = f_.type(v).layout();
    if (!m_.layouts.get(source).isDistributed())
      return std::nullopt;
    // The store keeps its CTA split (plan-ctas cut the tile over the CTAs; a source held whole by
    // every CTA would have each store everything, after a cross-CTA exchange): the source's
    // layout with the store's split.
    std::optional<CgaLayout> split = cgaOf(m_.layoutOf(f_.type(store.operands[0])));
    std::optional<CgaLayout> had = cgaOf(m_.layouts.get(source));
    if (split && had && *split != *had) {
      auto moved = withCga(m_.layouts.get(source), *split);
      if (!moved)
        return std::nullopt;
      source = m_.layouts.intern(*moved);
    }
    AccessWidth w = accessWidthIn(m_, f_, store, info_, source);
    if (w.bytes < 8 || w.warpBytes < 32)
      return std::nullopt;
    return source;
  }

  // Converts the operands of b.ops[i] to `layout`, gives a load a result in it converted back;
  // returns the index of the access op after the insertions.
  size_t rewrite(Block &b, size_t i, LayoutId layout) {
    std::vector<Op> before;
    for (ValueId &v : b.ops[i].operands) {
      if (!f_.type(v).isTensor())
        continue;
      ValueId converted;
      before.push_back(makeConvert(f_, v, layout, &converted));
      v = converted;
    }
    size_t at = i + before.size();
    b.ops.insert(b.ops.begin() + long(i), std::make_move_iterator(before.begin()),
                 std::make_move_iterator(before.end()));
    Op &access = b.ops[at];
    if (access.kind == OpKind::Load) {
      // The old result id keeps naming the value in the old layout, so no use changes.
      Op back = retypeResult(f_, access, layout);
      b.ops.insert(b.ops.begin() + long(at) + 1, std::move(back));
      return at + 1;
    }
    return at;
  }

  Module &m_;
  Function &f_;
  AxisInfoAnalysis info_;
};

} // namespace

Status coalesce(Module &m) {
  for (Function &f : m.functions)
    LL_TRY_STATUS(Coalescer(m, f).run());
  return Status::success();
}

} // namespace linlayout::ir
