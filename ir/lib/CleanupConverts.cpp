#include "linlayout/ir/CleanupConverts.h"

#include "linlayout/ir/ConversionCost.h"
#include "linlayout/ir/Rematerialize.h"
#include "linlayout/ir/Rewrite.h"
#include "linlayout/ir/Walk.h"

namespace linlayout::ir {

namespace {

// Every round removes or cheapens one convert, so this bound is never reached by real kernels;
// it only stops a pathological input from looping long.
constexpr int kMaxRounds = 4096;
constexpr double kEpsilon = 1e-6;

// Finds one convert to improve and improves it; returns whether it changed anything.
bool improveOne(Module &m, Function &f) {
  std::vector<Op *> converts;
  std::vector<const Op *> def(f.values.size(), nullptr);
  walkOps(f.body, [&](Op &op) {
    if (op.kind == OpKind::ConvertLayout)
      converts.push_back(&op);
    for (ValueId r : op.results)
      def[r] = &op;
  });
  std::vector<int> uses = countUses(f);
  for (Op *c : converts) {
    ValueId x = c->operands[0], y = c->results[0];
    if (uses[y] == 0)
      continue;
    const Type &tx = f.type(x);
    LayoutId to = f.type(y).layout();
    if (tx.layout() == to) {
      replaceAllUses(f, y, x);
      return true;
    }
    double now = conversionCost(m, tx, to) + kConvertOpCost;
    // A convert of a convert: convert the first source directly, when that is no dearer or the
    // middle value is needed nowhere else (then its conversion disappears).
    if (const Op *d = def[x]; d && d->kind == OpKind::ConvertLayout) {
      ValueId w = d->operands[0];
      if (uses[x] == 1 || conversionCost(m, f.type(w), to) + kConvertOpCost <= now + kEpsilon) {
        c->operands[0] = w;
        return true;
      }
    }
    Rematerializer remat(m, f);
    double best = remat.cost(x, to);
    if (best < now - kEpsilon) {
      ValueId v = remat.materialize(x, to);
      remat.commit();
      replaceAllUses(f, y, v);
      return true;
    }
  }
  return false;
}

} // namespace

Status cleanupConverts(Module &m) {
  for (Function &f : m.functions) {
    for (int round = 0; round < kMaxRounds && improveOne(m, f); ++round)
      eraseDeadOps(f);
    // Recomputation copies the same cheap ops for several converts; keep one of each.
    eliminateCommonSubexpressions(f);
    eraseDeadOps(f);
  }
  return Status::success();
}

} // namespace linlayout::ir
