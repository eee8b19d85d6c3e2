#include "linlayout/ir/Prefetch.h"

#include "OpEmitter.h"
#include "linlayout/ir/Rewrite.h"
#include "linlayout/ir/Walk.h"

#include <map>
#include <optional>
#include <set>

namespace linlayout::ir {

namespace {

// One dot operand the pass slices: local_load(memdesc_index(ring, idx)).
struct Operand {
  size_t load = 0;         // the local_load in the body
  ValueId tile = kNoValue; // the memdesc_index result (the slot)
  ValueId ring = kNoValue; // defined before the loop
  size_t idxArg = 0;       // idx is body arg 1 + idxArg (iter arg idxArg)
  Type tensorType;         // the loaded operand's type
};

struct Match {
  size_t dot = 0, wait = 0;
  Operand a, b;
  int64_t k = 0;
};

class LoopPrefetcher {
public:
  LoopPrefetcher(Module &m, Function &f, int sliceK) : m_(m), f_(f), sliceK_(sliceK) {}

  bool run(std::vector<Op> &parentOps, size_t at) {
    std::optional<Match> mt = match(parentOps[at]);
    if (!mt)
      return false;
    std::vector<Op> pre;
    rewrite(parentOps[at], *mt, pre);
    parentOps.insert(parentOps.begin() + ptrdiff_t(at), std::make_move_iterator(pre.begin()),
                     std::make_move_iterator(pre.end()));
    return true;
  }

private:
  std::optional<Match> match(const Op &loop) {
    const Block &body = loop.regions.at(0);
    if (body.ops.empty() || body.ops.back().kind != OpKind::Yield)
      return std::nullopt;
    std::map<ValueId, size_t> def;
    std::map<ValueId, int> uses;
    // A branch in the body stays where it is, between the dots and the next iteration's wait,
    // unless it takes part in the copies' groups or reads what the pass moves (checked below
    // through `uses` and `nested`).
    std::set<ValueId> nested; // values read inside branches
    for (size_t i = 0; i < body.ops.size(); ++i) {
      const Op &op = body.ops[i];
      if (op.kind == OpKind::For)
        return std::nullopt;
      bool async = false;
      walkOp(op, [&](const Op &o) {
        for (ValueId v : o.operands)
          ++uses[v];
        if (&o == &op)
          return;
        async = async || isCopyGroupOp(o.kind);
        nested.insert(o.operands.begin(), o.operands.end());
      });
      if (async)
        return std::nullopt;
      for (ValueId r : op.results)
        def[r] = i;
    }
    Match mt;
    int dots = 0, waits = 0;
    for (size_t i = 0; i < body.ops.size(); ++i) {
      if (body.ops[i].kind == OpKind::Dot) {
        mt.dot = i;
        ++dots;
      }
      if (body.ops[i].kind == OpKind::AsyncWait) {
        mt.wait = i;
        ++waits;
      }
    }
    if (dots != 1 || waits != 1)
      return std::nullopt;
    const Op &dot = body.ops[mt.dot];
    auto operand = [&](ValueId v, Operand &o) {
      auto d = def.find(v);
      if (d == def.end() || body.ops[d->second].kind != OpKind::LocalLoad || uses[v] != 1)
        return false;
      o.load = d->second;
      o.tensorType = f_.type(v);
      o.tile = body.ops[o.load].operands[0];
      auto t = def.find(o.tile);
      if (t == def.end() || body.ops[t->second].kind != OpKind::MemDescIndex ||
          !f_.type(o.tile).allocShape().empty())
        return false;
      const Op &index = body.ops[t->second];
      o.ring = index.operands[0];
      if (def.count(o.ring) || o.ring == body.args[0])
        return false;
      for (size_t k = 1; k < body.args.size(); ++k)
        if (body.args[k] == o.ring)
          return false; // a carried ring
      ValueId idx = index.operands[1];
      for (size_t k = 1; k < body.args.size(); ++k)
        if (body.args[k] == idx) {
          o.idxArg = k - 1;
          return mt.wait < o.load && t->second < mt.dot;
        }
      return false;
    };
    if (!operand(dot.operands[0], mt.a) || !operand(dot.operands[1], mt.b))
      return std::nullopt;
    for (const Operand *o : {&mt.a, &mt.b})
      if (nested.count(o->tile) || nested.count(o->ring))
        return std::nullopt;
    const Type &at = mt.a.tensorType, &bt = mt.b.tensorType;
    if (at.rank() != 2 || bt.rank() != 2)
      return std::nullopt;
    mt.k = at.shape()[1];
    // The mma's K: 256 bits of operand per row of a k-step (16 for 16-bit, 32 for 8-bit).
    int bits = bitWidth(at.elem().scalar);
    int64_t instrK = bits >= 32 ? 8 : 256 / bits;
    if (sliceK_ < instrK || mt.k <= sliceK_ || mt.k % sliceK_ != 0)
      return std::nullopt;
    // A slice must also hold the K the operands' lanes span (4 kWidth: lowering permutes K
    // within it).
    for (const Type *t : {&at, &bt}) {
      const auto *d = m_.layouts.get(t->layout()).as<DotOperandSpec>();
      if (!d || sliceK_ < 4 * int64_t(d->kWidth()))
        return std::nullopt;
    }
    return mt;
  }

  ValueId emit(std::vector<Op> &out, OpKind kind, std::vector<ValueId> operands,
               std::optional<Type> result, OpAttrs attrs = {}) {
    return Emitter(f_, out).op(kind, std::move(operands), std::move(result), std::move(attrs));
  }

  // local_load of K slice `s` of the slot `tile` for operand `o` (opIdx 0: columns, 1: rows).
  ValueId loadSlice(std::vector<Op> &out, const Operand &o, bool isA, ValueId tile, int64_t s) {
    const Type &tt = f_.type(tile);
    std::vector<int64_t> shape = tt.shape();
    std::vector<int64_t> offsets{0, 0};
    shape[isA ? 1 : 0] = sliceK_;
    offsets[isA ? 1 : 0] = s * sliceK_;
    OpAttrs a;
    a.offsets = offsets;
    ValueId view =
        emit(out, OpKind::MemDescSubslice, {tile},
             Type::memDesc(shape, tt.elem().scalar, tt.layout(), tt.isMutable(), tt.shape()), a);
    return emit(out, OpKind::LocalLoad, {view},
                Type::tensor(shape, o.tensorType.elem(), o.tensorType.layout()));
  }

  ValueId slotOf(std::vector<Op> &out, const Operand &o, ValueId index) {
    return emit(out, OpKind::MemDescIndex, {o.ring, index}, f_.type(o.tile));
  }

  // The body ops that may run after the next iteration's wait and first loads: the dot at
  // `dot` and every op that reads its result, directly, through another such op or inside a
  // branch (not the yield). Empty when one of them (or an op in its branches) works on shared
  // memory tiles or synchronises, or when one touches global memory and so does an op after the
  // dot that stays before the wait (their order would change).
  std::set<size_t> lateOps(const Block &body, size_t dot) const {
    std::set<size_t> late{dot};
    std::set<ValueId> produced(body.ops[dot].results.begin(), body.ops[dot].results.end());
    bool lateMemory = false, stayingMemory = false;
    for (size_t i = dot + 1; i + 1 < body.ops.size(); ++i) {
      bool reads = false, memory = false, shared = false;
      walkOp(body.ops[i], [&](const Op &o) {
        for (ValueId v : o.operands)
          reads = reads || produced.count(v);
        OpCategory c = category(o.kind);
        shared = shared || c == OpCategory::Shared || c == OpCategory::Sync;
        memory = memory || (c == OpCategory::Memory && o.kind != OpKind::AddPtr);
      });
      if (!reads) {
        stayingMemory = stayingMemory || memory || shared;
        continue;
      }
      if (shared)
        return {};
      late.insert(i);
      produced.insert(body.ops[i].results.begin(), body.ops[i].results.end());
      lateMemory = lateMemory || memory;
    }
    if (lateMemory && stayingMemory)
      return {};
    return late;
  }

  void rewrite(Op &loop, const Match &mt, std::vector<Op> &pre) {
    Block &body = loop.regions[0];
    const int64_t n = mt.k / sliceK_;
    OpAttrs waitAttrs = body.ops[mt.wait].attrs;
    // Before the loop: the wait of iteration 0 and its first slices.
    emit(pre, OpKind::AsyncWait, {}, std::nullopt, waitAttrs);
    ValueId a0 = loadSlice(pre, mt.a, true, slotOf(pre, mt.a, loop.operands[3 + mt.a.idxArg]), 0);
    ValueId b0 = loadSlice(pre, mt.b, false, slotOf(pre, mt.b, loop.operands[3 + mt.b.idxArg]), 0);
    loop.operands.push_back(a0);
    loop.operands.push_back(b0);
    loop.results.push_back(f_.addValue(f_.type(a0)));
    loop.results.push_back(f_.addValue(f_.type(b0)));
    ValueId aArg = f_.addValue(f_.type(a0), "a_pre"), bArg = f_.addValue(f_.type(b0), "b_pre");
    body.args.push_back(aArg);
    body.args.push_back(bArg);
    // The last slice's dot moves behind the wait and the next slices' loads: it needs only
    // registers, and its mma.sync then cover the latency of those loads (and the barrier's wait
    // does not leave the tensor cores without queued work). What reads its result moves with it
    // (lateOps), as when a branch stores the finished accumulator.
    const std::set<size_t> late = lateOps(body, mt.dot);
    std::vector<Op> lateOpsOut;
    // The body, op by op.
    std::vector<Op> ops;
    for (size_t i = 0; i < body.ops.size(); ++i) {
      Op &op = body.ops[i];
      if (i == mt.wait || i == mt.a.load || i == mt.b.load)
        continue;
      if (i == mt.dot) {
        ValueId acc = op.operands[2], as = aArg, bs = bArg;
        for (int64_t s = 0; s < n; ++s) {
          ValueId an = kNoValue, bn = kNoValue;
          if (s + 1 < n) {
            an = loadSlice(ops, mt.a, true, mt.a.tile, s + 1);
            bn = loadSlice(ops, mt.b, false, mt.b.tile, s + 1);
          }
          if (s + 1 < n) {
            acc = emit(ops, OpKind::Dot, {as, bs, acc}, f_.type(op.results[0]), op.attrs);
          } else {
            Op last = op; // keeps the dot's result value
            last.operands = {as, bs, acc};
            (late.empty() ? ops : lateOpsOut).push_back(std::move(last));
          }
          as = an;
          bs = bn;
        }
        continue;
      }
      if (op.kind == OpKind::Yield) {
        // The wait of the next iteration, then its first slices from the next slots.
        emit(ops, OpKind::AsyncWait, {}, std::nullopt, waitAttrs);
        ValueId an = loadSlice(ops, mt.a, true, slotOf(ops, mt.a, op.operands[mt.a.idxArg]), 0);
        ValueId bn = loadSlice(ops, mt.b, false, slotOf(ops, mt.b, op.operands[mt.b.idxArg]), 0);
        op.operands.push_back(an);
        op.operands.push_back(bn);
        for (Op &l : lateOpsOut)
          ops.push_back(std::move(l));
      } else if (late.count(i)) {
        lateOpsOut.push_back(std::move(op));
        continue;
      }
      ops.push_back(std::move(op));
    }
    body.ops = std::move(ops);
  }

  Module &m_;
  Function &f_;
  int64_t sliceK_;
};

} // namespace

Status prefetchDotOperands(Module &m, int sliceK) {
  if (sliceK < 8 || sliceK > 256 || (sliceK & (sliceK - 1)))
    return makeError("prefetch slice K is " + std::to_string(sliceK) +
                     ", expected a power of two in 8..256");
  if (m.numCtas != 1)
    return Status::success();
  for (Function &f : m.functions)
    if (rewriteLoopsInnermostFirst(f.body.ops, [&](std::vector<Op> &ops, size_t i) {
          return LoopPrefetcher(m, f, sliceK).run(ops, i);
        })) {
      eliminateCommonSubexpressions(f);
      eraseDeadOps(f);
    }
  return Status::success();
}

} // namespace linlayout::ir
