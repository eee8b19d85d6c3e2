#include "linlayout/ir/InsertFences.h"

#include <map>
#include <set>

namespace linlayout::ir {

namespace {

// A buffer: the value id of its allocation, or kNoValue for "unknown, may be any".
using Buffer = ValueId;
using Pending = std::set<Buffer>;

class FencePass {
public:
  explicit FencePass(Function &f) : f_(f) {}

  void run() {
    resolveRoots(f_.body);
    block(f_.body, Pending(), true);
  }

private:
  // The allocation every memdesc value comes from (kNoValue when not known).
  void resolveRoots(const Block &b) {
    for (const Op &op : b.ops) {
      // Only allocations, views and the wgmma wait (which passes its operands through) make
      // memdescs.
      if (op.kind == OpKind::LocalAlloc) {
        root_[op.results[0]] = op.results[0];
      } else if (op.kind == OpKind::WarpGroupDotWait) {
        for (size_t i = 0; i < op.results.size(); ++i)
          root_[op.results[i]] = rootOf(op.operands[i]);
      } else if (op.kind == OpKind::MemDescIndex || op.kind == OpKind::MemDescSubslice ||
                 op.kind == OpKind::MemDescTrans) {
        root_[op.results[0]] = rootOf(op.operands[0]);
      }
      // A partition's arguments are its captures.
      if (op.kind == OpKind::WarpSpecialize)
        for (size_t r = 1; r < op.regions.size(); ++r)
          for (size_t i = 0; i < op.regions[r].args.size() && i < op.operands.size(); ++i)
            root_[op.regions[r].args[i]] = rootOf(op.operands[i]);
      for (const Block &r : op.regions)
        resolveRoots(r);
    }
  }

  Buffer rootOf(ValueId v) const {
    auto it = root_.find(v);
    return it == root_.end() ? kNoValue : it->second;
  }

  static bool reaches(const Pending &p, Buffer b) {
    if (p.empty())
      return false;
    return b == kNoValue || p.count(kNoValue) || p.count(b);
  }

  // Puts a fence before b.ops[i]; i moves with the op.
  static void fenceBefore(Block &b, size_t &i) {
    Op fence;
    fence.kind = OpKind::FenceAsyncShared;
    b.ops.insert(b.ops.begin() + long(i), std::move(fence));
    ++i;
  }

  // Walks a block from `in`; inserts fences when `insert`. Returns what is pending at its end.
  // A loop walks its body several times, for each loop around it too, so the walks that only
  // analyse are memoized per block and entry: a nest of depth d then costs polynomial time, not
  // 3^d. (A block is analysed before fences go into it, and not after.)
  Pending block(Block &b, Pending in, bool insert) {
    if (insert)
      return walk(b, std::move(in), true);
    auto key = std::make_pair(&b, in);
    if (auto it = analysed_.find(key); it != analysed_.end()) {
      needed_ += it->second.second;
      return it->second.first;
    }
    const int before = needed_;
    Pending out = walk(b, std::move(in), false);
    analysed_.emplace(std::move(key), std::make_pair(out, needed_ - before));
    return out;
  }

  Pending walk(Block &b, Pending in, bool insert) {
    Pending p = std::move(in);
    for (size_t i = 0; i < b.ops.size(); ++i) {
      Op &op = b.ops[i];
      switch (op.kind) {
      case OpKind::LocalAlloc:
        if (!op.operands.empty())
          p.insert(rootOf(op.results[0]));
        break;
      case OpKind::LocalStore:
      case OpKind::AsyncCopyGlobalToLocal: // cp.async writes through the generic proxy
        p.insert(rootOf(op.operands[1]));
        break;
      case OpKind::FenceAsyncShared:
        p.clear();
        break;
      case OpKind::WarpGroupDot:
      case OpKind::AsyncTmaCopyGlobalToLocal:
      case OpKind::AsyncTmaCopyLocalToGlobal: {
        // Async-proxy accesses: wgmma reads its shared operands, a TMA copy writes its
        // destination (its own writes are async-proxy and need no fence before a wgmma), a TMA
        // store reads its source.
        bool need = false;
        if (op.kind == OpKind::AsyncTmaCopyGlobalToLocal)
          need = reaches(p, rootOf(op.operands[op.operands.size() - 3]));
        if (op.kind == OpKind::AsyncTmaCopyLocalToGlobal)
          need = reaches(p, rootOf(op.operands.back()));
        for (size_t k = 0; k < 2 && op.kind == OpKind::WarpGroupDot; ++k)
          if (f_.type(op.operands[k]).isMemDesc())
            need |= reaches(p, rootOf(op.operands[k]));
        if (need) {
          ++needed_;
          p.clear();
          if (insert)
            fenceBefore(b, i);
        }
        break;
      }
      case OpKind::For: {
        Block &body = b.ops[i].regions.at(0);
        // Writes before the loop that reach a read in it, when the body itself leaves nothing
        // pending: one fence before the loop instead of one per iteration.
        if (!p.empty() && block(body, Pending(), false).empty()) {
          int before = needed_;
          block(body, p, false);
          if (needed_ > before) {
            p.clear();
            if (insert)
              fenceBefore(b, i);
          }
        }
        Block &loopBody = b.ops[i].regions.at(0);
        // Iterate the body until what is pending at its start is stable (the sets only grow,
        // and are bounded by the allocations).
        Pending head = p;
        while (true) {
          Pending end = block(loopBody, head, false);
          Pending next = head;
          next.insert(end.begin(), end.end());
          if (next == head)
            break;
          head = std::move(next);
        }
        Pending end = block(loopBody, head, insert);
        // Zero iterations leave p; others leave `end` (head already contains p).
        p.insert(end.begin(), end.end());
        break;
      }
      case OpKind::WarpSpecialize: {
        // The regions run at once, each after what came before: what any leaves is pending.
        Pending end = p;
        for (Block &r : op.regions) {
          Pending left = block(r, p, insert);
          end.insert(left.begin(), left.end());
        }
        p = std::move(end);
        break;
      }
      case OpKind::If: {
        // Either branch may run: what is pending after the if is what either leaves.
        Pending end = block(op.regions[0], p, insert);
        Pending other = block(op.regions[1], p, insert);
        end.insert(other.begin(), other.end());
        p = std::move(end);
        break;
      }
      default:
        // The other ops neither write shared memory through the generic proxy nor access it
        // through the async proxy (an analysis: an op that does must get a case above).
        break;
      }
    }
    return p;
  }

  Function &f_;
  std::map<ValueId, Buffer> root_;
  int needed_ = 0; // reads that needed a fence, counted also when not inserting
  // The analysing walks: (block, entry) -> (what is pending at its end, the reads it counted).
  std::map<std::pair<const Block *, Pending>, std::pair<Pending, int>> analysed_;
};

} // namespace

Status insertFences(Module &m) {
  for (Function &f : m.functions)
    FencePass(f).run();
  return Status::success();
}

} // namespace linlayout::ir
