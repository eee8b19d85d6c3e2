// Walking the ops of a block and of the regions nested in it, in program order, without
// recursion (hostile input must not exhaust the stack).
#pragma once

#include "linlayout/ir/Op.h"

#include <utility>
#include <vector>

namespace linlayout::ir {

/// Calls fn(op) for every op in `block` and in nested regions, each op before the ops of its
/// regions, in program order. fn must not add or remove ops of the blocks being walked.
template <typename BlockT, typename Fn> void walkOps(BlockT &block, Fn &&fn) {
  using OpT = std::remove_reference_t<decltype(block.ops.front())>;
  std::vector<std::pair<BlockT *, size_t>> stack;
  stack.push_back({&block, 0});
  while (!stack.empty()) {
    auto &[b, i] = stack.back();
    if (i >= b->ops.size()) {
      stack.pop_back();
      continue;
    }
    OpT &op = b->ops[i++];
    fn(op);
    // Regions are pushed in reverse so the first region is walked first.
    for (size_t r = op.regions.size(); r-- > 0;)
      stack.push_back({&op.regions[r], 0});
  }
}

/// Calls fn on `op` and then on every op of its regions, as walkOps does for a block.
template <typename OpT, typename Fn> void walkOp(OpT &op, Fn &&fn) {
  fn(op);
  for (auto &region : op.regions)
    walkOps(region, fn);
}

} // namespace linlayout::ir
