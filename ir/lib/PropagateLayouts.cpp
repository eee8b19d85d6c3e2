#include "linlayout/ir/PropagateLayouts.h"

#include "linlayout/ir/ConversionCost.h"
#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Rematerialize.h"
#include "linlayout/ir/Rewrite.h"
#include "linlayout/ir/Walk.h"

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <tuple>

namespace linlayout::ir {

namespace {

constexpr int kMaxRounds = 256;
constexpr size_t kMaxSlice = 4096;
constexpr double kEpsilon = 1e-6;

struct Use {
  Op *op;
  size_t index;
};

// Where values come from and go, and how deep in loops each op sits.
struct FunctionIndex {
  std::vector<Op *> def;                      // defining op (nullptr for block arguments)
  std::vector<std::pair<Op *, size_t>> owner; // loop and body-arg index for loop body args
  std::vector<std::vector<Use>> users;
  std::map<const Op *, int> depth;
  std::map<const Op *, Op *> loopOfYield;
  std::map<const Op *, Op *> ifOfYield;

  explicit FunctionIndex(Function &f) {
    def.assign(f.values.size(), nullptr);
    owner.assign(f.values.size(), {nullptr, 0});
    users.resize(f.values.size());
    visit(f.body, 0, nullptr, 0);
  }

  // `d` counts enclosing loops (the weight of an op), `nest` enclosing regions (the guard).
  void visit(Block &b, int d, Op *parent, int nest) {
    for (Op &op : b.ops) {
      depth[&op] = d;
      for (size_t i = 0; i < op.operands.size(); ++i)
        users[op.operands[i]].push_back({&op, i});
      for (ValueId r : op.results)
        def[r] = &op;
      if (op.kind == OpKind::Yield && parent)
        (parent->kind == OpKind::For ? loopOfYield : ifOfYield)[&op] = parent;
      if (nest >= kMaxNesting)
        continue;
      if (op.kind == OpKind::For) {
        Block &body = op.regions[0];
        for (size_t i = 0; i < body.args.size(); ++i)
          owner[body.args[i]] = {&op, i};
        visit(body, d + 1, &op, nest + 1);
      } else if (op.kind == OpKind::If) {
        for (Block &branch : op.regions)
          visit(branch, d, &op, nest + 1);
      }
    }
  }
};

class Propagator {
public:
  Propagator(Module &m, Function &f) : m_(m), f_(f) {}

  // Applies the best improving candidate; returns whether there was one.
  bool step() {
    FunctionIndex idx(f_);
    Rematerializer remat(m_, f_);
    std::optional<std::map<ValueId, LayoutId>> best;
    double bestGain = kEpsilon;
    auto consider = [&](ValueId seed, LayoutId layout) {
      std::map<ValueId, LayoutId> slice;
      if (!grow(idx, seed, layout, slice))
        return;
      double gain = evaluate(idx, remat, slice, nullptr);
      if (gain > bestGain) {
        bestGain = gain;
        best = std::move(slice);
      }
    };
    for (size_t v = 0; v < f_.values.size(); ++v) {
      const Op *d = idx.def[v];
      if (d && d->kind == OpKind::ConvertLayout && d->results[0] == v) {
        const Type &src = f_.type(d->operands[0]);
        if (src.layout() != f_.type(ValueId(v)).layout())
          consider(ValueId(v), src.layout());
      }
      auto [loop, argIndex] = idx.owner[v];
      if (loop && argIndex > 0 && f_.type(ValueId(v)).isTensor())
        for (const Use &u : idx.users[v])
          if (u.op->kind == OpKind::ConvertLayout &&
              f_.type(u.op->results[0]).layout() != f_.type(ValueId(v)).layout())
            consider(ValueId(v), f_.type(u.op->results[0]).layout());
    }
    if (!best)
      return false;
    apply(idx, remat, *best);
    return true;
  }

private:
  double weight(const Op *op, const FunctionIndex &idx) const {
    auto it = idx.depth.find(op);
    return std::pow(kLoopWeight, it == idx.depth.end() ? 0 : it->second);
  }

  double cost(const Type &t, LayoutId from, LayoutId to) {
    if (from == to)
      return 0;
    auto key = std::make_tuple(t.shape(), t.elem().scalar, t.elem().pointer, from, to);
    auto it = costs_.find(key);
    if (it != costs_.end())
      return it->second;
    return costs_[key] = conversionCost(m_, t.withLayout(from), to);
  }

  // The new layouts that follow from giving `seed` the layout `layout`; false on a conflict.
  bool grow(const FunctionIndex &idx, ValueId seed, LayoutId layout,
            std::map<ValueId, LayoutId> &slice) {
    std::vector<ValueId> work;
    bool ok = true;
    std::function<void(ValueId, LayoutId)> add = [&](ValueId v, LayoutId l) {
      if (!ok)
        return;
      // The CTA split plan-ctas chose distributes work; propagation may not undo it.
      if (splitsOverCtas(m_.layoutOf(f_.type(v))) && !splitsOverCtas(m_.layouts.get(l))) {
        ok = false;
        return;
      }
      auto [it, fresh] = slice.emplace(v, l);
      if (!fresh) {
        ok = it->second == l;
        return;
      }
      if (slice.size() > kMaxSlice) {
        ok = false;
        return;
      }
      work.push_back(v);
    };
    add(seed, layout);
    while (ok && !work.empty()) {
      ValueId v = work.back();
      work.pop_back();
      LayoutId l = slice[v];
      // A loop-carried value: body argument and result move together.
      if (auto [loop, i] = idx.owner[v]; loop && i > 0)
        add(loop->results[i - 1], l);
      if (const Op *d = idx.def[v]; d && d->kind == OpKind::For)
        for (size_t j = 0; j < d->results.size(); ++j)
          if (d->results[j] == v)
            add(d->regions[0].args[j + 1], l);
      for (const Use &u : idx.users[v]) {
        Op &op = *u.op;
        if (isElementwise(op.kind) || op.kind == OpKind::Broadcast) {
          for (ValueId r : op.results)
            add(r, l);
        } else if (op.kind == OpKind::Reduce) {
          // A reduction of several tensors keeps its layout (its operands share one; moving
          // them all is not a forward step): the moved operand is converted back.
          if (op.operands.size() > 1)
            continue;
          // A reduction stays inside each CTA: its axis may not be cut over the CTAs.
          if (splitsOverCtas(m_.layouts.get(l), int(op.attrs.axis))) {
            ok = false;
            return ok;
          }
          if (!f_.type(op.results[0]).isTensor())
            continue;
          auto s = SliceSpec::make(op.attrs.axis, m_.layouts.get(l));
          if (s)
            add(op.results[0], m_.layouts.intern(*s));
        } else if (op.kind == OpKind::ExpandDims) {
          const SliceSpec *s = m_.layouts.get(l).as<SliceSpec>();
          if (s && s->dim() == op.attrs.axis)
            add(op.results[0], m_.layouts.intern(s->parent()));
        } else if (op.kind == OpKind::For && u.index >= 3) {
          add(op.regions[0].args[u.index - 2], l);
        } else if (op.kind == OpKind::Yield) {
          auto it = idx.loopOfYield.find(&op);
          if (it != idx.loopOfYield.end())
            add(it->second->regions[0].args[u.index + 1], l);
          if (auto i = idx.ifOfYield.find(&op); i != idx.ifOfYield.end())
            add(i->second->results[u.index], l);
        }
      }
    }
    return ok;
  }

  // What an operand must have after the change: the layout its op will read it in.
  LayoutId required(const FunctionIndex &idx, const std::map<ValueId, LayoutId> &slice,
                    const Op &op, size_t i) {
    ValueId e = op.operands[i];
    LayoutId old = f_.type(e).layout();
    auto in = [&](ValueId v) {
      auto it = slice.find(v);
      return it == slice.end() ? std::optional<LayoutId>() : std::optional<LayoutId>(it->second);
    };
    if (isElementwise(op.kind) || op.kind == OpKind::Broadcast) {
      if (auto r = in(op.results[0]))
        return *r;
      return old;
    }
    if (op.kind == OpKind::For && i >= 3) {
      if (auto a = in(op.regions[0].args[i - 2]))
        return *a;
      return old;
    }
    if (op.kind == OpKind::Yield) {
      auto it = idx.loopOfYield.find(&op);
      if (it != idx.loopOfYield.end())
        if (auto a = in(it->second->regions[0].args[i + 1]))
          return *a;
      // Both branches of an if yield its result's layout.
      if (auto b = idx.ifOfYield.find(&op); b != idx.ifOfYield.end())
        if (auto r = in(b->second->results[i]))
          return *r;
      return old;
    }
    if (op.kind == OpKind::Reduce || op.kind == OpKind::ExpandDims) {
      // These follow their operand: if the result moved, the operand layout is what it has.
      if (in(op.results[0]))
        if (auto a = in(e))
          return *a;
      return old;
    }
    return old;
  }

  // The gain (cost removed minus cost added); with `edits`, also queues the converts to insert.
  double evaluate(const FunctionIndex &idx, Rematerializer &remat,
                  const std::map<ValueId, LayoutId> &slice, OpInserter *edits) {
    double before = 0, after = 0;
    auto now = [&](ValueId v) {
      auto it = slice.find(v);
      return it == slice.end() ? f_.type(v).layout() : it->second;
    };
    // Every op reading a value of the slice, or producing one, may need a conversion.
    std::map<const Op *, bool> seen;
    std::vector<Op *> ops;
    auto visit = [&](Op *op) {
      if (!seen[op]) {
        seen[op] = true;
        ops.push_back(op);
      }
    };
    for (const auto &[v, l] : slice) {
      for (const Use &u : idx.users[v])
        visit(u.op);
      if (Op *d = idx.def[v]) {
        visit(d);
        // A loop's or an if's result is what its body or branches yield: their yields may need
        // conversions, also where the yielded value itself keeps its layout (a value defined
        // before the loop, say).
        if (d->kind == OpKind::If || d->kind == OpKind::For)
          for (Block &region : d->regions)
            if (!region.ops.empty() && region.ops.back().kind == OpKind::Yield)
              visit(&region.ops.back());
      }
    }
    // A conversion costs what the cleanup will make of it: a value that keeps its layout can be
    // recomputed (Rematerialize.h); one whose layout changes must really be converted.
    auto conversion = [&](ValueId x, LayoutId from, LayoutId to) {
      if (from == to)
        return 0.0;
      if (!slice.count(x))
        return remat.cost(x, to);
      return cost(f_.type(x), from, to) + kConvertOpCost;
    };
    for (Op *op : ops) {
      double w = weight(op, idx);
      if (op->kind == OpKind::ConvertLayout) {
        ValueId x = op->operands[0], y = op->results[0];
        before += w * remat.cost(x, f_.type(y).layout());
        after += w * conversion(x, now(x), now(y));
        continue;
      }
      for (size_t i = 0; i < op->operands.size(); ++i) {
        ValueId e = op->operands[i];
        if (!f_.type(e).isTensor())
          continue;
        LayoutId want = required(idx, slice, *op, i);
        LayoutId have = now(e);
        if (want == have)
          continue;
        after += w * conversion(e, have, want);
        // A convert read only here folds into this conversion (CleanupConverts converts its
        // source instead), so its own cost goes: a branch of an if that converted its yield.
        if (Op *d = idx.def[e]; d && d->kind == OpKind::ConvertLayout && !slice.count(e) &&
                                !seen[d] && idx.users[e].size() == 1 && remat.folds(e, want))
          before += weight(d, idx) * remat.cost(d->operands[0], f_.type(e).layout());
        if (edits) {
          ValueId converted;
          Op c = makeConvert(f_, e, want, &converted);
          f_.values[converted].type = f_.type(e).withLayout(want);
          edits->before(op, std::move(c));
          pendingOperands_.push_back({op, i, converted});
        }
      }
    }
    return before - after;
  }

  void apply(const FunctionIndex &idx, Rematerializer &remat,
             const std::map<ValueId, LayoutId> &slice) {
    // Queue the conversions while the types are still the old ones: a convert of a slice value
    // reads it in its new layout, so its source type is set after retyping below.
    OpInserter edits;
    pendingOperands_.clear();
    evaluate(idx, remat, slice, &edits);
    for (const auto &[v, l] : slice)
      f_.values[v].type = f_.values[v].type.withLayout(l);
    for (const auto &p : pendingOperands_)
      p.op->operands[p.index] = p.value;
    edits.commit(f_);
  }

  struct PendingOperand {
    Op *op;
    size_t index;
    ValueId value;
  };

  Module &m_;
  Function &f_;
  std::vector<PendingOperand> pendingOperands_;
  std::map<std::tuple<std::vector<int64_t>, ScalarKind, bool, LayoutId, LayoutId>, double> costs_;
};

// Removes the converts of `b` (and of its regions) whose operand already has their layout.
void eraseNoOpConverts(Function &f, Block &b, int depth) {
  std::erase_if(b.ops, [&](const Op &op) {
    return op.kind == OpKind::ConvertLayout && f.type(op.operands[0]) == f.type(op.results[0]);
  });
  if (depth < kMaxNesting)
    for (Op &op : b.ops)
      for (Block &r : op.regions)
        eraseNoOpConverts(f, r, depth + 1);
}

// A step leaves converts between equal layouts where it retyped their operands; they go before
// the next step, so that its candidates grow through them.
void foldNoOpConverts(Function &f) {
  std::vector<std::pair<ValueId, ValueId>> same; // (result, operand), in program order
  walkOps(f.body, [&](const Op &op) {
    if (op.kind == OpKind::ConvertLayout && f.type(op.operands[0]) == f.type(op.results[0]))
      same.push_back({op.results[0], op.operands[0]});
  });
  if (same.empty())
    return;
  // A chain of such converts goes to its first operand.
  std::map<ValueId, ValueId> folded;
  for (auto [y, x] : same) {
    if (auto it = folded.find(x); it != folded.end())
      x = it->second;
    replaceAllUses(f, y, x);
    folded[y] = x;
  }
  eraseNoOpConverts(f, f.body, 0);
}

} // namespace

Status propagateLayouts(Module &m) {
  for (Function &f : m.functions) {
    Propagator p(m, f);
    for (int round = 0; round < kMaxRounds && p.step(); ++round)
      foldNoOpConverts(f);
  }
  return Status::success();
}

} // namespace linlayout::ir
