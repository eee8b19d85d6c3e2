#include "linlayout/ir/Rematerialize.h"

#include "linlayout/ir/ConversionCost.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Rewrite.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace linlayout::ir {

namespace {
// Recomputing an op costs one instruction per register of every thread: elements / 32 warp
// instructions, issued four per cycle by an SM (the same cycles the planner counts).
double recomputeCost(const Type &t) { return std::max(0.01, double(t.numElements()) / 128.0); }
// Sources cost (almost) nothing per register: a splat is one scalar every register shares, a
// constant is an immediate, and a make_range is per-register constants plus one thread term that
// folds into the instruction using it.
constexpr double kSourceCost = 0.01;
// Deeper chains are converted rather than followed.
constexpr int kMaxDepth = 24;
} // namespace

Rematerializer::Rematerializer(Module &m, Function &f) : m_(m), f_(f) {
  where_.resize(f.values.size());
  def_.assign(f.values.size(), nullptr);
  index(f.body, 0);
}

void Rematerializer::index(Block &b, int depth) {
  for (ValueId a : b.args)
    where_[a] = Position{&b, -1};
  for (size_t i = 0; i < b.ops.size(); ++i) {
    for (ValueId r : b.ops[i].results) {
      where_[r] = Position{&b, long(i)};
      def_[r] = &b.ops[i];
    }
    if (depth < kMaxNesting)
      for (Block &r : b.ops[i].regions)
        index(r, depth + 1);
  }
}

bool Rematerializer::operandLayouts(const Op &op, LayoutId to, std::vector<LayoutId> &out) {
  out.clear();
  if (isElementwise(op.kind) || op.kind == OpKind::Broadcast) {
    for (ValueId v : op.operands)
      out.push_back(f_.type(v).isTensor() ? to : kNoLayout);
    return true;
  }
  if (op.kind == OpKind::ExpandDims) {
    auto s = SliceSpec::make(op.attrs.axis, m_.layouts.get(to));
    if (!s)
      return false;
    out.push_back(m_.layouts.intern(*s));
    return true;
  }
  return false;
}

const Rematerializer::Plan &Rematerializer::plan(ValueId v, LayoutId to, int depth) {
  auto key = std::make_pair(v, to);
  if (auto it = plans_.find(key); it != plans_.end())
    return it->second;
  Plan p;
  const Type &t = f_.type(v);
  if (t.layout() == to) {
    p.choice = Choice::Same;
    p.cost = 0;
    return plans_[key] = p;
  }
  p.choice = Choice::Convert;
  p.cost = conversionCost(m_, t, to) + kConvertOpCost;
  const Op *def = v < def_.size() ? def_[v] : nullptr;
  if (def && depth < kMaxDepth) {
    if (def->kind == OpKind::ConvertLayout) {
      const Plan &src = plan(def->operands[0], to, depth + 1);
      // The existing convert stays wherever it has other uses, so folding saves its op cost
      // only in this chain: compare the data moved.
      if (src.cost <= p.cost) {
        Plan fold;
        fold.choice = Choice::Fold;
        fold.cost = src.cost;
        p = fold;
      }
    } else if (def->kind == OpKind::Splat || def->kind == OpKind::MakeRange ||
               def->kind == OpKind::Constant) {
      p.choice = Choice::Recompute;
      p.cost = kSourceCost;
      p.operandLayouts.assign(def->operands.size(), kNoLayout);
    } else {
      std::vector<LayoutId> ls;
      if (operandLayouts(*def, to, ls)) {
        double sum = recomputeCost(t);
        for (size_t i = 0; i < def->operands.size() && sum < p.cost; ++i)
          if (ls[i] != kNoLayout)
            sum += plan(def->operands[i], ls[i], depth + 1).cost;
        if (sum < p.cost) {
          p.choice = Choice::Recompute;
          p.cost = sum;
          p.operandLayouts = ls;
        }
      }
    }
  }
  return plans_[key] = p;
}

double Rematerializer::cost(ValueId v, LayoutId to) { return plan(v, to, 0).cost; }

bool Rematerializer::folds(ValueId v, LayoutId to) { return plan(v, to, 0).choice == Choice::Fold; }

void Rematerializer::queue(ValueId anchor, Op op) {
  const Position &pos = where_[anchor];
  assert(pos.block && "value without a position");
  pending_[pos.block][pos.index].push_back(std::move(op));
}

ValueId Rematerializer::materialize(ValueId v, LayoutId to) {
  auto key = std::make_pair(v, to);
  if (auto it = made_.find(key); it != made_.end())
    return it->second;
  Plan p = plan(v, to, 0);
  ValueId result = v;
  switch (p.choice) {
  case Choice::Same:
    break;
  case Choice::Convert: {
    Op c = makeConvert(f_, v, to, &result);
    queue(v, std::move(c));
    break;
  }
  case Choice::Fold:
    result = materialize(def_[v]->operands[0], to);
    break;
  case Choice::Recompute: {
    const Op &def = *def_[v];
    Op copy;
    copy.kind = def.kind;
    copy.attrs = def.attrs;
    copy.loc = def.loc;
    for (size_t i = 0; i < def.operands.size(); ++i)
      copy.operands.push_back(p.operandLayouts[i] == kNoLayout
                                  ? def.operands[i]
                                  : materialize(def.operands[i], p.operandLayouts[i]));
    result = f_.addValue(f_.type(v).withLayout(to), f_.values[v].name);
    copy.results = {result};
    queue(v, std::move(copy));
    break;
  }
  }
  made_[key] = result;
  return result;
}

void Rematerializer::commitBlock(Block &b, int depth) {
  if (depth <= kMaxNesting)
    for (Op &op : b.ops)
      for (Block &r : op.regions)
        commitBlock(r, depth + 1);
  auto it = pending_.find(&b);
  if (it == pending_.end())
    return;
  std::vector<Op> ops;
  ops.reserve(b.ops.size());
  auto flush = [&](long at) {
    auto p = it->second.find(at);
    if (p != it->second.end())
      for (Op &op : p->second)
        ops.push_back(std::move(op));
  };
  flush(-1);
  for (size_t i = 0; i < b.ops.size(); ++i) {
    ops.push_back(std::move(b.ops[i]));
    flush(long(i));
  }
  b.ops = std::move(ops);
}

void Rematerializer::commit() {
  commitBlock(f_.body, 0);
  pending_.clear();
  // Positions are stale now; a new Rematerializer must be made for further work.
  where_.clear();
  def_.clear();
  plans_.clear();
  made_.clear();
}

} // namespace linlayout::ir
