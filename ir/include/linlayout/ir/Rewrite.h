// Editing a function in a pass: use counts, replacing uses, dead-op removal, and the
// conversions passes insert. Values are ids, so an op that changes its result type gets a new
// result value, and the old id can keep naming the value its users expect.
#pragma once

#include "linlayout/ir/Module.h"

#include <cstddef>
#include <functional>
#include <map>
#include <vector>

namespace linlayout::ir {

/// How many operands (of all ops, in all blocks) name each value.
/// Ensures: result.size() == f.values.size().
std::vector<int> countUses(const Function &f);

/// Makes every operand that names `from` name `to`.
/// Requires: both are values of f of the same type (asserts in debug builds).
void replaceAllUses(Function &f, ValueId from, ValueId to);

/// Removes ops without side effects whose results nobody uses, until none is left.
/// Returns how many ops it removed.
int eraseDeadOps(Function &f);

/// Rewrites each scf.for of `ops` and of the blocks nested in them, inner loops first.
/// `rewrite(ops, i)` gets the loop at ops[i]; it may put ops before and after it (a prologue, an
/// epilogue) and says whether it changed anything. The walk goes on after what it left there.
/// Returns whether any call changed anything. Nesting deeper than the verifier allows is left.
bool rewriteLoopsInnermostFirst(std::vector<Op> &ops,
                                const std::function<bool(std::vector<Op> &, size_t)> &rewrite);

/// An op `result = ttg.convert_layout value` (result a new value of value's type with `layout`).
/// Requires: value is a tensor of f.
Op makeConvert(Function &f, ValueId value, LayoutId layout, ValueId *result);

/// Gives op's result `index` `layout`: the op gets a new result value (which takes over the old
/// one's name), and the returned op, `old = ttg.convert_layout new`, is to go right after it, so
/// that the old id keeps naming the value in the layout its users expect and no use changes.
/// Requires: that result is a tensor of f.
Op retypeResult(Function &f, Op &op, LayoutId layout, size_t index = 0);

} // namespace linlayout::ir

namespace linlayout::ir {

/// Replaces each op without side effects or regions that repeats an earlier op (same kind,
/// operands, attributes and result types) visible at its position (earlier in its block or in
/// an enclosing block) by that op's results. Returns how many ops it replaced (they are left
/// unused; eraseDeadOps removes them).
int eliminateCommonSubexpressions(Function &f);

/// Ops queued for insertion before other ops, inserted all at once by commit(). Anchors are op
/// addresses, valid until commit.
class OpInserter {
public:
  void before(const Op *anchor, Op op) { pending_[anchor].push_back(std::move(op)); }
  void after(const Op *anchor, Op op) { pendingAfter_[anchor].push_back(std::move(op)); }
  bool empty() const { return pending_.empty() && pendingAfter_.empty(); }
  /// Inserts the queued ops into f.
  void commit(Function &f);

private:
  void commitBlock(Block &b, int depth);
  std::map<const Op *, std::vector<Op>> pending_;
  std::map<const Op *, std::vector<Op>> pendingAfter_;
};

} // namespace linlayout::ir
