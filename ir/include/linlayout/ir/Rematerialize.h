// Having a value in another layout, the cheapest way: either convert it, or recompute the cheap
// ops that produce it in the new layout (elementwise ops, broadcast, expand_dims, and at the
// leaves splat, make_range and constants, which are free in any layout), converting their
// operands in turn only where that is cheaper. A conversion of a convert's result folds into one
// conversion of its source. Costs come from conversionCost (ConversionCost.h), so a conversion
// moves to the smaller side of a broadcast or before an elementwise op exactly when the planner
// says that is cheaper.
//
// Used by the layout passes; it is an analysis with an edit step, not a pass.
#pragma once

#include "linlayout/ir/Module.h"

#include <map>
#include <utility>
#include <vector>

namespace linlayout::ir {

/// Plans and makes values available in other layouts, for one function.
/// The function must not change between construction and commit() except through this object.
class Rematerializer {
public:
  /// Requires: verify(m) is ok; f is a function of m.
  Rematerializer(Module &m, Function &f);

  /// The cost of having v in layout `to` (0 when it already is).
  /// Requires: v is a tensor value of f; `to` a distributed layout of its rank.
  /// Ensures: cost(v, to) <= conversionCost(m, type(v), to).
  double cost(ValueId v, LayoutId to);

  /// Whether the way cost() chose converts the source of the convert that defines v (the
  /// convert itself then goes where nothing else reads v).
  bool folds(ValueId v, LayoutId to);

  /// Makes v available in `to` the way cost() chose; returns the value holding it. New ops are
  /// queued next to the definitions they copy and land in the function at commit().
  ValueId materialize(ValueId v, LayoutId to);

  /// Inserts the queued ops. Ensures: the function verifies when it did before.
  void commit();

private:
  enum class Choice : uint8_t { Same, Convert, Fold, Recompute };
  struct Plan {
    double cost = 0;
    Choice choice = Choice::Convert;
    std::vector<LayoutId> operandLayouts; // Recompute: per operand (kNoLayout for scalars)
  };
  struct Position {
    Block *block = nullptr;
    long index = -1; // op index in block, -1 for a block argument
  };

  const Plan &plan(ValueId v, LayoutId to, int depth);
  bool operandLayouts(const Op &op, LayoutId to, std::vector<LayoutId> &out);
  void index(Block &b, int depth);
  void queue(ValueId anchor, Op op);
  void commitBlock(Block &b, int depth);

  Module &m_;
  Function &f_;
  std::map<std::pair<ValueId, LayoutId>, Plan> plans_;
  std::map<std::pair<ValueId, LayoutId>, ValueId> made_;
  std::vector<Position> where_;
  std::vector<const Op *> def_;
  std::map<Block *, std::map<long, std::vector<Op>>> pending_;
};

} // namespace linlayout::ir
