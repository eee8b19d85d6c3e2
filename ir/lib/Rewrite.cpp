#include "linlayout/ir/Rewrite.h"

#include "linlayout/ir/Walk.h"

#include <cassert>

namespace linlayout::ir {

std::vector<int> countUses(const Function &f) {
  std::vector<int> uses(f.values.size(), 0);
  walkOps(f.body, [&](const Op &op) {
    for (ValueId v : op.operands)
      if (v < uses.size())
        ++uses[v];
  });
  return uses;
}

void replaceAllUses(Function &f, ValueId from, ValueId to) {
  assert(f.type(from) == f.type(to) && "replacing a value by one of another type");
  walkOps(f.body, [&](Op &op) {
    for (ValueId &v : op.operands)
      if (v == from)
        v = to;
  });
}

namespace {
// Removes the dead ops of one block (and of nested blocks first); `uses` is kept current.
int sweep(Block &b, std::vector<int> &uses, int depth) {
  int removed = 0;
  if (depth > 64)
    return 0;
  for (Op &op : b.ops)
    for (Block &r : op.regions)
      removed += sweep(r, uses, depth + 1);
  std::vector<Op> kept;
  kept.reserve(b.ops.size());
  // Backwards, so that a chain of dead ops goes in one sweep.
  std::vector<bool> keep(b.ops.size(), true);
  for (size_t i = b.ops.size(); i-- > 0;) {
    const Op &op = b.ops[i];
    bool dead = !hasSideEffects(op.kind) && !op.results.empty();
    for (ValueId r : op.results)
      dead = dead && uses[r] == 0;
    if (!dead)
      continue;
    keep[i] = false;
    ++removed;
    for (ValueId v : op.operands)
      --uses[v];
  }
  for (size_t i = 0; i < b.ops.size(); ++i)
    if (keep[i])
      kept.push_back(std::move(b.ops[i]));
  b.ops = std::move(kept);
  return removed;
}
} // namespace

int eraseDeadOps(Function &f) {
  std::vector<int> uses = countUses(f);
  int total = 0;
  for (int n; (n = sweep(f.body, uses, 0)) > 0;)
    total += n;
  return total;
}

namespace {
bool rewriteLoops(std::vector<Op> &ops,
                  const std::function<bool(std::vector<Op> &, size_t)> &rewrite, int depth) {
  if (depth > 64)
    return false;
  bool changed = false;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind != OpKind::For && ops[i].kind != OpKind::If)
      continue;
    for (Block &r : ops[i].regions)
      changed |= rewriteLoops(r.ops, rewrite, depth + 1);
    if (ops[i].kind != OpKind::For)
      continue;
    size_t before = ops.size();
    if (rewrite(ops, i)) {
      changed = true;
      i += ops.size() - before; // past the loop and what was put around it
    }
  }
  return changed;
}
} // namespace

bool rewriteLoopsInnermostFirst(std::vector<Op> &ops,
                                const std::function<bool(std::vector<Op> &, size_t)> &rewrite) {
  return rewriteLoops(ops, rewrite, 0);
}

Op makeConvert(Function &f, ValueId value, LayoutId layout, ValueId *result) {
  Op op;
  op.kind = OpKind::ConvertLayout;
  op.operands = {value};
  Type t = f.type(value).withLayout(layout);
  ValueId r = f.addValue(std::move(t));
  op.results = {r};
  if (result)
    *result = r;
  return op;
}

Op retypeResult(Function &f, Op &op, LayoutId layout, size_t index) {
  ValueId old = op.results[index];
  ValueId fresh = f.addValue(f.type(old).withLayout(layout), f.values[old].name);
  f.values[old].name.clear();
  op.results[index] = fresh;
  Op back;
  back.kind = OpKind::ConvertLayout;
  back.operands = {fresh};
  back.results = {old};
  return back;
}

} // namespace linlayout::ir

namespace linlayout::ir {

namespace {

struct OpKey {
  OpKind kind;
  std::vector<ValueId> operands;
  OpAttrs attrs;
  std::vector<Type> types;
  bool operator==(const OpKey &o) const {
    return kind == o.kind && operands == o.operands && attrs == o.attrs && types == o.types;
  }
};

// Scoped CSE: a table per block, inner blocks see the outer tables. Recursion follows loop
// nesting, bounded by the verifier.
int cseBlock(Function &f, Block &b,
             std::vector<std::vector<std::pair<OpKey, std::vector<ValueId>>>> &scopes, int depth) {
  if (depth > 64)
    return 0;
  int replaced = 0;
  scopes.emplace_back();
  for (Op &op : b.ops) {
    if (!op.regions.empty()) {
      for (size_t k = 0; k < op.regions.size(); ++k) {
        // A warp_specialize partition sees only its arguments: it starts with no outer table.
        if (op.kind == OpKind::WarpSpecialize && k > 0) {
          std::vector<std::vector<std::pair<OpKey, std::vector<ValueId>>>> isolated;
          replaced += cseBlock(f, op.regions[k], isolated, depth + 1);
        } else {
          replaced += cseBlock(f, op.regions[k], scopes, depth + 1);
        }
      }
      continue;
    }
    if (hasSideEffects(op.kind) || op.results.empty() || op.kind == OpKind::Load ||
        op.kind == OpKind::LocalLoad)
      continue;
    OpKey key{op.kind, op.operands, op.attrs, {}};
    for (ValueId r : op.results)
      key.types.push_back(f.type(r));
    const std::vector<ValueId> *found = nullptr;
    for (auto s = scopes.rbegin(); s != scopes.rend() && !found; ++s)
      for (auto &[k, results] : *s)
        if (k == key) {
          found = &results;
          break;
        }
    if (found) {
      for (size_t i = 0; i < op.results.size(); ++i)
        replaceAllUses(f, op.results[i], (*found)[i]);
      ++replaced;
    } else {
      scopes.back().push_back({std::move(key), op.results});
    }
  }
  scopes.pop_back();
  return replaced;
}

} // namespace

int eliminateCommonSubexpressions(Function &f) {
  std::vector<std::vector<std::pair<OpKey, std::vector<ValueId>>>> scopes;
  return cseBlock(f, f.body, scopes, 0);
}

void OpInserter::commitBlock(Block &b, int depth) {
  if (depth <= 64)
    for (Op &op : b.ops)
      for (Block &r : op.regions)
        commitBlock(r, depth + 1);
  bool any = false;
  for (const Op &op : b.ops)
    any = any || pending_.count(&op) || pendingAfter_.count(&op);
  if (!any)
    return;
  std::vector<Op> ops;
  ops.reserve(b.ops.size());
  for (Op &op : b.ops) {
    auto it = pending_.find(&op);
    if (it != pending_.end())
      for (Op &n : it->second)
        ops.push_back(std::move(n));
    auto after = pendingAfter_.find(&op);
    ops.push_back(std::move(op));
    if (after != pendingAfter_.end())
      for (Op &n : after->second)
        ops.push_back(std::move(n));
  }
  b.ops = std::move(ops);
}

void OpInserter::commit(Function &f) {
  commitBlock(f.body, 0);
  pending_.clear();
  pendingAfter_.clear();
}

} // namespace linlayout::ir
