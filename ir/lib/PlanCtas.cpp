#include "linlayout/ir/PlanCtas.h"

#include "linlayout/ir/BlockedTiling.h"
#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/Rewrite.h"
#include "linlayout/ir/Walk.h"

#include <algorithm>
#include <map>
#include <optional>

namespace linlayout::ir {

DotCtaSplit planDotCtaSplit(int64_t m, int64_t n, int64_t numCtas) {
  DotCtaSplit s{1, numCtas};
  for (int64_t chunk = 128; chunk >= 64; chunk /= 2) {
    s.splitM = std::clamp<int64_t>(m / chunk, 1, numCtas);
    s.splitN = numCtas / s.splitM;
    if (n / s.splitN >= 64)
      break;
  }
  return s;
}

namespace {

// A CGA cutting dimension d into split[d] tiles; CTAs left over broadcast.
Expected<CgaLayout> splitCga(const std::vector<int64_t> &split, std::span<const int64_t> order,
                             int64_t numCtas) {
  std::vector<int64_t> ctas = split;
  int64_t used = 1;
  for (int64_t s : split)
    used *= s;
  ctas[size_t(order.back())] *= numCtas / used;
  return CgaLayout::fromSplit(ctas, split, order);
}

// The order of a layout's dimensions, fastest first (blocked order; row-major otherwise).
std::vector<int64_t> orderOf(const LayoutSpec &s, int rank) {
  if (const auto *b = s.as<BlockedSpec>())
    return b->order();
  std::vector<int64_t> o;
  for (int d = rank - 1; d >= 0; --d)
    o.push_back(d);
  return o;
}

std::vector<int64_t> perThreadOf(const LayoutSpec &s, int rank) {
  if (const auto *b = s.as<BlockedSpec>())
    return b->sizePerThread();
  return std::vector<int64_t>(size_t(rank), 1);
}

class CtaPlanner {
public:
  CtaPlanner(Module &m, Function &f) : m_(m), f_(f) {}

  Status run() {
    LL_TRY_STATUS(broadcastEverything());
    OpInserter edits;
    std::vector<Op *> dots, reduces, stores;
    walkOps(f_.body, [&](Op &op) {
      if (op.kind == OpKind::Dot)
        dots.push_back(&op);
      else if ((op.kind == OpKind::Reduce && f_.type(op.results[0]).isTensor()) ||
               op.kind == OpKind::Scan)
        reduces.push_back(&op);
      else if (op.kind == OpKind::Store && f_.type(op.operands[0]).isTensor())
        stores.push_back(&op);
    });
    for (Op *op : dots)
      LL_TRY_STATUS(planDot(*op, edits));
    for (Op *op : reduces)
      LL_TRY_STATUS(planReduce(*op, edits));
    for (Op *op : stores)
      LL_TRY_STATUS(planStore(*op, edits));
    edits.commit(f_);
    return Status::success();
  }

private:
  // Relabels every layout written for fewer CTAs as held whole by every CTA.
  Status broadcastEverything() {
    std::map<LayoutId, LayoutId> relabel;
    for (ValueInfo &v : f_.values) {
      Type &t = v.type;
      if (!(t.isTensor() || t.isMemDesc()) || t.layout() >= m_.layouts.size())
        continue;
      auto it = relabel.find(t.layout());
      if (it == relabel.end()) {
        const LayoutSpec &s = m_.layouts.get(t.layout());
        LayoutId to = t.layout();
        int64_t have = numCtasOf(s);
        if (have != m_.numCtas) {
          if (have != 1)
            return Status(makeError("plan-ctas: a layout covers " + std::to_string(have) +
                                    " CTAs in a kernel of " + std::to_string(m_.numCtas)));
          auto r = withCga(s, broadcastCga(s.rank(), m_.numCtas));
          if (!r)
            return Status(makeError("plan-ctas: " + r.message()));
          to = m_.layouts.intern(*r);
        }
        it = relabel.emplace(t.layout(), to).first;
      }
      t = t.withLayout(it->second);
    }
    return Status::success();
  }

  // Converts operand i of op to `layout` (queued before op).
  void convertOperand(Op &op, size_t i, LayoutId layout, OpInserter &edits) {
    ValueId v = op.operands[i];
    if (f_.type(v).layout() == layout)
      return;
    ValueId c;
    edits.before(&op, makeConvert(f_, v, layout, &c));
    op.operands[i] = c;
  }

  // Gives op's results `layout`, with a convert back to the old type for their users.
  void retypeResults(Op &op, LayoutId layout, OpInserter &edits) {
    for (size_t i = 0; i < op.results.size(); ++i)
      if (f_.type(op.results[i]).layout() != layout)
        edits.after(&op, ir::retypeResult(f_, op, layout, i));
  }

  Status planDot(Op &op, OpInserter &edits) {
    const Type &c = f_.type(op.operands[2]);
    if (c.rank() != 2)
      return Status::success(); // batched dots keep the broadcast split
    DotCtaSplit s = planDotCtaSplit(c.shape()[0], c.shape()[1], m_.numCtas);
    // Each CTA's part holds at least one instruction tile per warp (an mma fragment does not
    // split over CTAs); CTAs beyond that hold copies.
    if (const auto *mma = m_.layoutOf(c).as<NvidiaMmaSpec>()) {
      for (int d = 0; d < 2; ++d) {
        int64_t &split = d == 0 ? s.splitM : s.splitN;
        int64_t unit = mma->instrShape()[size_t(d)] * mma->warpsPerCta()[size_t(d)];
        split = std::min(split, std::max<int64_t>(1, c.shape()[size_t(d)] / unit));
      }
    }
    if (!dotSplit_)
      dotSplit_ = s;
    std::vector<int64_t> split = {s.splitM, s.splitN}, order = {1, 0};
    auto cga = splitCga(split, order, m_.numCtas);
    if (!cga)
      return Status(makeError("plan-ctas: " + cga.message()));
    auto acc = withCga(m_.layoutOf(c), *cga);
    if (!acc)
      return Status(makeError("plan-ctas: " + acc.message()));
    LayoutId accId = m_.layouts.intern(*acc);
    for (size_t i = 0; i < 2; ++i) {
      const DotOperandSpec *d = m_.layoutOf(f_.type(op.operands[i])).as<DotOperandSpec>();
      auto operand = DotOperandSpec::make(d->operandIndex(), *acc, d->kWidth());
      if (!operand)
        return Status(makeError("plan-ctas: " + operand.message()));
      convertOperand(op, i, m_.layouts.intern(*operand), edits);
    }
    convertOperand(op, 2, accId, edits);
    retypeResults(op, accId, edits);
    return Status::success();
  }

  // Cuts the dimensions other than `axis` (none when axis < 0) over the CTAs, slowest first.
  Expected<CgaLayout> cutCga(const Type &t, int64_t axis) {
    const LayoutSpec &s = m_.layoutOf(t);
    int rank = t.rank();
    std::vector<int64_t> order = orderOf(s, rank), spt = perThreadOf(s, rank);
    std::vector<int64_t> split(size_t(rank), 1);
    int64_t left = m_.numCtas;
    for (int i = rank - 1; i >= 0 && left > 1; --i) {
      size_t d = size_t(order[size_t(i)]);
      if (int64_t(d) == axis)
        continue;
      split[d] = std::clamp<int64_t>(t.shape()[d] / std::max<int64_t>(1, spt[d]), 1, left);
      left /= split[d];
    }
    return splitCga(split, order, m_.numCtas);
  }

  Status planReduce(Op &op, OpInserter &edits) {
    const Type &src = f_.type(op.operands[0]);
    const LayoutSpec &s = m_.layoutOf(src);
    if (!s.as<BlockedSpec>() && !s.as<NvidiaMmaSpec>())
      return Status::success();
    auto cga = cutCga(src, op.attrs.axis);
    if (!cga)
      return Status(makeError("plan-ctas: " + cga.message()));
    auto l = withCga(s, *cga);
    if (!l)
      return Status(makeError("plan-ctas: " + l.message()));
    for (size_t i = 0; i < op.operands.size(); ++i) // operands share a layout
      convertOperand(op, i, m_.layouts.intern(*l), edits);
    if (op.kind == OpKind::Scan) { // the results in the operands' layout
      retypeResults(op, m_.layouts.intern(*l), edits);
      return Status::success();
    }
    auto slice = SliceSpec::make(op.attrs.axis, *l);
    if (!slice)
      return Status(makeError("plan-ctas: " + slice.message()));
    retypeResults(op, m_.layouts.intern(*slice), edits);
    return Status::success();
  }

  Status planStore(Op &op, OpInserter &edits) {
    const Type &p = f_.type(op.operands[0]);
    const LayoutSpec &s = m_.layoutOf(p);
    // A 2-D store follows the first dot's tiling (the stored tile is usually its result), so no
    // data crosses CTAs between them; otherwise the tile is cut slowest dimension first.
    Expected<CgaLayout> cga = makeError("unset");
    if (dotSplit_ && p.rank() == 2) {
      std::vector<int64_t> split = {std::min(dotSplit_->splitM, p.shape()[0]),
                                    std::min(dotSplit_->splitN, p.shape()[1])};
      std::vector<int64_t> order = {1, 0};
      cga = splitCga(split, order, m_.numCtas);
    } else {
      cga = cutCga(p, -1);
    }
    if (!cga)
      return Status(makeError("plan-ctas: " + cga.message()));
    auto l = withCga(s, *cga);
    if (!l)
      return Status(makeError("plan-ctas: " + l.message()));
    LayoutId id = m_.layouts.intern(*l);
    for (size_t i = 0; i < op.operands.size(); ++i)
      convertOperand(op, i, id, edits);
    return Status::success();
  }

  Module &m_;
  Function &f_;
  std::optional<DotCtaSplit> dotSplit_;
};

} // namespace

Status planCtas(Module &m) {
  if (m.numCtas == 1)
    return Status::success();
  if (m.numCtas < 1 || (m.numCtas & (m.numCtas - 1)))
    return Status(
        makeError("plan-ctas: num-ctas " + std::to_string(m.numCtas) + " is not a power of two"));
  for (Function &f : m.functions)
    LL_TRY_STATUS(CtaPlanner(m, f).run());
  return Status::success();
}

} // namespace linlayout::ir
