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

} // namespace linlayout::ir
