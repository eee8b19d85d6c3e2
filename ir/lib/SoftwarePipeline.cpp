#include "linlayout/ir/SoftwarePipeline.h"

#include "OpEmitter.h"
#include "linlayout/ir/AccessWidth.h"
#include "linlayout/ir/AxisInfo.h"
#include "linlayout/ir/Rewrite.h"
#include "linlayout/ir/SharedTileLayout.h"
#include "linlayout/ir/Walk.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

namespace linlayout::ir {

namespace {

// One load the pass turns into a ring.
struct Candidate {
  size_t index = 0;                  // the tt.load in the body
  std::vector<size_t> converts;      // convert_layout ops folded into the local_load
  std::vector<size_t> allocs;        // local_allocs replaced by the ring slot
  std::vector<ValueId> views;        // memdesc_trans views of the slot, mutable with it
  std::vector<size_t> slice;         // body ops computing ptr / mask / other, in body order
  LayoutId loadedLayout = kNoLayout; // the local_load's layout
  int64_t vectorWidth = 1;
  Type ringType, tileType;
  ValueId ring = kNoValue;
};

// A wgmma loop whose dot stays in flight across iterations: its one
// warp_group_dot reads two ring slots and accumulates into a carried value that
// nothing else reads, and its one warp_group_dot_wait {pendings = 0} passes the
// result straight to the yield.
struct AsyncDot {
  size_t dot = 0, wait = 0; // body ops
  size_t acc = 0;           // the accumulator's index among the carried values
};

// How a loop-carried value changes per iteration.
struct Carried {
  enum Kind { Invariant, PointerStep, Other } kind = Other;
  ValueId step = kNoValue; // PointerStep: p' = addptr p, step
  size_t stepOp = 0;       // the addptr in the body
};

bool clonable(const Op &op) {
  // (The copies' clones take an op's one result: tt.split, with two, stays in the loop.)
  if (!op.regions.empty() || hasSideEffects(op.kind) || op.results.size() != 1)
    return false;
  switch (category(op.kind)) {
  case OpCategory::Source:
  case OpCategory::Shape:
  case OpCategory::BinaryInt:
  case OpCategory::BinaryFloat:
  case OpCategory::UnaryFloat:
  case OpCategory::Compare:
  case OpCategory::Select:
  case OpCategory::Cast:
  case OpCategory::Layout:
    return true;
  case OpCategory::Memory:
    return op.kind == OpKind::AddPtr;
  case OpCategory::Structure:
  case OpCategory::Shared:
  case OpCategory::Compute:
  case OpCategory::Sync:
    break;
  }
  return false;
}

class LoopPipeliner {
public:
  LoopPipeliner(Module &m, Function &f, int stages, const std::vector<int> &uses)
      : m_(m), f_(f), S_(stages), D_(stages - 1), uses_(uses) {}

  // Rewrites `loop` (in `parent` at `at`) when it qualifies; returns whether it
  // did.
  bool run(std::vector<Op> &parentOps, size_t at) {
    Op &loop = parentOps[at];
    Block &body = loop.regions[0];
    if (!analyse(loop))
      return false;
    std::vector<Op> pre;
    std::vector<Op> post;
    Op newLoop = rewrite(loop, pre, post);
    (void)body;
    std::vector<Op> ops;
    ops.reserve(parentOps.size() + pre.size() + post.size());
    for (size_t i = 0; i < parentOps.size(); ++i) {
      if (i != at) {
        ops.push_back(std::move(parentOps[i]));
        continue;
      }
      for (Op &o : pre)
        ops.push_back(std::move(o));
      ops.push_back(std::move(newLoop));
      for (Op &o : post)
        ops.push_back(std::move(o));
    }
    parentOps = std::move(ops);
    if (accDone_) {
      // Code after the loop reads the accumulator the epilogue's wait gives.
      // (Plain copies, not a structured binding: the fuzz targets' clang, before 16, cannot
      // capture those in a lambda.)
      const ValueId from = accDone_->first, to = accDone_->second;
      walkOps(f_.body, [&](Op &o) {
        if (o.kind == OpKind::WarpGroupDotWait && o.results.size() == 1 && o.results[0] == to)
          return;
        for (ValueId &v : o.operands)
          if (v == from)
            v = to;
      });
    }
    return true;
  }

private:
  bool analyse(const Op &loop) {
    const Block &body = loop.regions.at(0);
    if (body.ops.empty() || body.ops.back().kind != OpKind::Yield)
      return false;
    // Nested loops stay as they are (the inner one is pipelined on its own). A branch may stay
    // in the body, as one op of the last stage, unless it joins in the copy groups the pass
    // counts (every iteration commits exactly one).
    for (const Op &op : body.ops) {
      if (op.kind == OpKind::For)
        return false;
      bool async = false;
      walkOp(op, [&](const Op &o) { async = async || isCopyGroupOp(o.kind); });
      if (async)
        return false;
    }
    body_ = &body;
    iv_ = body.args.at(0);
    if (!f_.type(iv_).isScalar())
      return false;
    for (size_t i = 0; i < body.ops.size(); ++i)
      for (ValueId r : body.ops[i].results)
        def_[r] = i;
    // A read inside a branch counts as a read by the branch.
    for (size_t i = 0; i < body.ops.size(); ++i)
      walkOp(body.ops[i], [&](const Op &o) {
        for (ValueId v : o.operands)
          users_[v].push_back(i);
      });
    // Loop-carried values.
    const Op &yield = body.ops.back();
    for (size_t k = 0; k + 1 < body.args.size(); ++k) {
      ValueId arg = body.args[k + 1], y = yield.operands.at(k);
      Carried c;
      if (y == arg) {
        c.kind = Carried::Invariant;
      } else if (auto it = def_.find(y); it != def_.end()) {
        const Op &d = body.ops[it->second];
        if (d.kind == OpKind::AddPtr && d.operands[0] == arg && !inBody(d.operands[1]) &&
            users_[y].size() == 1 && f_.type(arg).isTensor()) {
          c.kind = Carried::PointerStep;
          c.step = d.operands[1];
          c.stepOp = it->second;
        }
      }
      carried_[arg] = c;
      argIndex_[arg] = k;
    }
    for (size_t i = 0; i < body.ops.size(); ++i)
      if (body.ops[i].kind == OpKind::Load)
        if (auto c = candidate(body, i))
          cands_.push_back(std::move(*c));
    if (cands_.empty())
      return false;
    if (storesMayFeedLoads(body))
      return false;
    asyncDot_ = findAsyncDot();
    // A carried pointer the pass advances may serve only the candidates'
    // addresses and its own step, and nobody may use it after the loop.
    std::set<size_t> sliceOps;
    for (const Candidate &c : cands_) {
      sliceOps.insert(c.slice.begin(), c.slice.end());
      sliceOps.insert(c.index);
    }
    for (auto &[arg, c] : carried_) {
      if (c.kind != Carried::PointerStep || !advanced_.count(arg))
        continue;
      for (size_t u : users_[arg])
        if (u != c.stepOp && !sliceOps.count(u))
          return false;
      if (uses_[loop.results.at(argIndex_[arg])] != 0)
        return false;
    }
    return true;
  }

  // The function argument a pointer value is derived from (through addptr, splat and other
  // shape or layout ops, and loop-carried values back to their initial values); kNoValue when it
  // comes from anything else (a load, a select, a branch result).
  ValueId basePointer(ValueId v) {
    if (pointerDefs_.empty()) {
      pointerDefs_.assign(f_.values.size(), nullptr);
      carriedInit_.assign(f_.values.size(), kNoValue);
      walkOps(f_.body, [&](const Op &o) {
        for (ValueId r : o.results)
          pointerDefs_[r] = &o;
        if (o.kind == OpKind::For)
          for (size_t k = 0; k + 1 < o.regions[0].args.size() && 3 + k < o.operands.size(); ++k)
            carriedInit_[o.regions[0].args[k + 1]] = o.operands[3 + k];
      });
    }
    for (int steps = 0; steps < 256 && v < pointerDefs_.size(); ++steps) {
      if (std::find(f_.body.args.begin(), f_.body.args.end(), v) != f_.body.args.end())
        return v;
      if (carriedInit_[v] != kNoValue) {
        v = carriedInit_[v];
        continue;
      }
      const Op *d = pointerDefs_[v];
      if (!d)
        return kNoValue;
      // Only the ops that keep their first operand's pointers (moved or offset) lead back.
      const OpKind k = d->kind;
      if (k != OpKind::AddPtr && k != OpKind::Splat && k != OpKind::Broadcast &&
          k != OpKind::ExpandDims && k != OpKind::Reshape && k != OpKind::Trans &&
          k != OpKind::ConvertLayout)
        return kNoValue;
      v = d->operands[0];
      continue;
    }
    return kNoValue;
  }

  // Whether a store or atomic in the body (or its branches) may write what a candidate loads:
  // the copies run iterations ahead of the body, so such a loop is left alone. Pointers from
  // different function arguments are taken not to overlap; one that cannot be traced to an
  // argument may overlap anything.
  bool storesMayFeedLoads(const Block &body) {
    std::set<ValueId> loaded;
    bool unknownLoad = false;
    for (const Candidate &c : cands_) {
      ValueId b = basePointer(body.ops[c.index].operands[0]);
      unknownLoad = unknownLoad || b == kNoValue;
      loaded.insert(b);
    }
    bool may = false;
    walkOps(body, [&](const Op &o) {
      if (o.kind != OpKind::Store && o.kind != OpKind::AtomicRMW && o.kind != OpKind::AtomicCAS)
        return;
      ValueId b = basePointer(o.operands[0]);
      may = may || unknownLoad || b == kNoValue || loaded.count(b);
    });
    return may;
  }

  // Whether only warp_group_dot (as an operand) and warp_group_dot_wait
  // (passing it through, its results unused) read the body value `v`,
  // directly or through memdesc_trans views (added to `views`).
  bool wgmmaOnly(ValueId v, std::vector<ValueId> &views) {
    const Block &body = *body_;
    for (size_t u : users_[v]) {
      const Op &o = body.ops[u];
      if (o.kind == OpKind::MemDescTrans) {
        if (!wgmmaOnly(o.results[0], views))
          return false;
        views.push_back(o.results[0]);
        continue;
      }
      if (o.kind == OpKind::WarpGroupDot && o.operands[2] != v)
        continue;
      if (o.kind != OpKind::WarpGroupDotWait)
        return false;
      for (size_t k = 0; k < o.operands.size(); ++k)
        if (o.operands[k] == v && uses_[o.results[k]] != 0)
          return false;
    }
    return true;
  }

  // The dot of a loop whose every candidate is a wgmma operand, when it can run
  // asynchronously across iterations (see rewrite()).
  std::optional<AsyncDot> findAsyncDot() {
    const Block &body = *body_;
    std::optional<size_t> dot, wait;
    for (size_t i = 0; i < body.ops.size(); ++i) {
      OpKind k = body.ops[i].kind;
      if (k != OpKind::WarpGroupDot && k != OpKind::WarpGroupDotWait)
        continue;
      std::optional<size_t> &which = k == OpKind::WarpGroupDot ? dot : wait;
      if (which)
        return std::nullopt;
      which = i;
    }
    if (!dot || !wait)
      return std::nullopt;
    const Op &d = body.ops[*dot], &w = body.ops[*wait];
    if (!d.attrs.isAsync || w.attrs.pendings != 0)
      return std::nullopt;
    std::set<ValueId> slots;
    for (const Candidate &c : cands_) {
      if (c.allocs.empty())
        return std::nullopt;
      for (size_t k : c.allocs)
        slots.insert(body.ops[k].results[0]);
      slots.insert(c.views.begin(), c.views.end());
    }
    // Both operands come from rings: a buffer the loop does not refill may be
    // written by anything, and a register operand A would be rewritten while
    // the wgmma reading it is in flight.
    if (!slots.count(d.operands[0]) || !slots.count(d.operands[1]))
      return std::nullopt;
    ValueId acc = d.operands[2];
    auto a = argIndex_.find(acc);
    if (a == argIndex_.end() || users_[acc] != std::vector<size_t>{*dot})
      return std::nullopt;
    ValueId r = d.results[0];
    if (users_[r] != std::vector<size_t>{*wait})
      return std::nullopt;
    size_t pos = 0;
    for (size_t k = 0; k < w.operands.size(); ++k)
      if (w.operands[k] == r)
        pos = k;
      else if (!f_.type(w.operands[k]).isMemDesc())
        return std::nullopt;
    size_t yield = body.ops.size() - 1;
    ValueId wr = w.results[pos];
    if (users_[wr] != std::vector<size_t>{yield} || body.ops[yield].operands[a->second] != wr)
      return std::nullopt;
    for (size_t k = 0; k < w.results.size(); ++k)
      if (k != pos && !users_[w.results[k]].empty())
        return std::nullopt;
    return AsyncDot{*dot, *wait, a->second};
  }

  bool inBody(ValueId v) const {
    if (def_.count(v))
      return true;
    return v == iv_ || argIndex_.count(v);
  }

  std::optional<Candidate> candidate(const Block &body, size_t i) {
    const Op &load = body.ops[i];
    const Type &rt = f_.type(load.results[0]);
    if (!rt.isTensor() || rt.rank() != 2 || rt.isPointerLike())
      return std::nullopt;
    int bits = bitWidth(rt.elem().scalar);
    if (bits != 8 && bits != 16 && bits != 32)
      return std::nullopt;
    Candidate c;
    c.index = i;
    // A shared tile that only warp-group dots read: the ring slot takes its
    // place, in its layout.
    auto addAlloc = [&](size_t u) {
      const Op &user = body.ops[u];
      if (user.kind != OpKind::LocalAlloc || user.operands.size() != 1 ||
          !wgmmaOnly(user.results[0], c.views))
        return false;
      LayoutId l = f_.type(user.results[0]).layout();
      if (!c.allocs.empty() && f_.type(body.ops[c.allocs[0]].results[0]).layout() != l)
        return false;
      c.allocs.push_back(u);
      return true;
    };
    // Users: converts to one dot_op layout, or dots; or local_allocs for
    // wgmma, directly or through converts (the copy writes the shared tile
    // whatever the register layout, so such a convert folds into it).
    for (size_t u : users_[load.results[0]]) {
      const Op &user = body.ops[u];
      if (user.kind == OpKind::ConvertLayout &&
          !m_.layouts.get(f_.type(user.results[0]).layout()).as<DotOperandSpec>()) {
        const std::vector<size_t> &allocs = users_[user.results[0]];
        if (allocs.empty())
          return std::nullopt;
        for (size_t a : allocs)
          if (!addAlloc(a))
            return std::nullopt;
        c.converts.push_back(u);
      } else if (user.kind == OpKind::ConvertLayout) {
        LayoutId l = f_.type(user.results[0]).layout();
        if (c.loadedLayout != kNoLayout && c.loadedLayout != l)
          return std::nullopt;
        c.loadedLayout = l;
        c.converts.push_back(u);
      } else if (user.kind == OpKind::Dot) {
        if (c.loadedLayout != kNoLayout && c.loadedLayout != rt.layout())
          return std::nullopt;
        c.loadedLayout = rt.layout();
      } else if (!addAlloc(u)) {
        return std::nullopt;
      }
    }
    if (!c.allocs.empty() && c.loadedLayout != kNoLayout)
      return std::nullopt;
    if (c.allocs.empty() &&
        (c.loadedLayout == kNoLayout || !m_.layouts.get(c.loadedLayout).as<DotOperandSpec>()))
      return std::nullopt;
    // The address computation: clonable ops of the body over outside values,
    // the induction variable and carried values that are invariant or stepped
    // pointers.
    std::set<size_t> slice;
    std::vector<ValueId> work(load.operands.begin(), load.operands.end());
    std::set<ValueId> seen;
    while (!work.empty()) {
      ValueId v = work.back();
      work.pop_back();
      if (!seen.insert(v).second)
        continue;
      if (v == iv_)
        continue;
      if (auto a = carried_.find(v); a != carried_.end()) {
        if (a->second.kind == Carried::Other)
          return std::nullopt;
        if (a->second.kind == Carried::PointerStep)
          advanced_.insert(v);
        continue;
      }
      auto d = def_.find(v);
      if (d == def_.end())
        continue; // defined before the loop
      const Op &op = body.ops[d->second];
      if (!clonable(op))
        return std::nullopt;
      slice.insert(d->second);
      work.insert(work.end(), op.operands.begin(), op.operands.end());
    }
    c.slice.assign(slice.begin(), slice.end());
    // Vector width of the copies: at least 4 bytes, or cp.async cannot take the
    // tile.
    c.vectorWidth = load.attrs.vectorWidth;
    if (c.vectorWidth == 0) {
      if (!axis_)
        axis_ = AxisInfoAnalysis::run(m_, f_);
      c.vectorWidth = accessWidth(m_, f_, load, *axis_).elements;
    }
    int bytes = bits / 8;
    if (c.vectorWidth * bytes < 4)
      return std::nullopt;
    std::vector<int64_t> ringShape{S_};
    ringShape.insert(ringShape.end(), rt.shape().begin(), rt.shape().end());
    if (!c.allocs.empty()) {
      LayoutId sl = f_.type(body.ops[c.allocs[0]].results[0]).layout();
      c.ringType = Type::memDesc(ringShape, rt.elem().scalar, sl, true);
      c.tileType = Type::memDesc(rt.shape(), rt.elem().scalar, sl, true);
      return c;
    }
    auto writer = toLinearLayout(m_.layouts.get(rt.layout()), rt.shape());
    auto reader = toLinearLayout(m_.layouts.get(c.loadedLayout), rt.shape());
    if (!writer.ok() || !reader.ok())
      return std::nullopt;
    auto shared = chooseSwizzledShared(*writer, *reader, rt.shape(), bits,
                                       int(std::min<int64_t>(16, c.vectorWidth * bytes)));
    if (!shared.ok())
      return std::nullopt;
    LayoutId sl = m_.layouts.intern(LayoutSpec(*shared));
    c.ringType = Type::memDesc(ringShape, rt.elem().scalar, sl, true);
    c.tileType = Type::memDesc(rt.shape(), rt.elem().scalar, sl, true);
    return c;
  }

  // Clones the candidates' address computations with `subst`, then issues their
  // copies into slot `slot` predicated on `pred` (a scalar i1), and commits the
  // group.
  void issueCopies(Emitter &e, const Block &body, std::map<ValueId, ValueId> subst, ValueId pred,
                   ValueId slot) {
    std::set<size_t> all;
    for (const Candidate &c : cands_)
      all.insert(c.slice.begin(), c.slice.end());
    for (size_t i : all) {
      const Op &op = body.ops[i];
      std::vector<ValueId> operands;
      for (ValueId v : op.operands)
        operands.push_back(subst.count(v) ? subst[v] : v);
      ValueId r = e.op(op.kind, operands, f_.type(op.results[0]), op.attrs);
      subst[op.results[0]] = r;
    }
    auto mapped = [&](ValueId v) { return subst.count(v) ? subst[v] : v; };
    for (const Candidate &c : cands_) {
      const Op &load = body.ops[c.index];
      ValueId ptr = mapped(load.operands[0]);
      const Type &pt = f_.type(ptr);
      Type maskType = pt.withElem(ElemType{ScalarKind::I1, false});
      ValueId mask = e.op(OpKind::Splat, {pred}, maskType);
      if (load.operands.size() > 1)
        mask = e.binary(OpKind::AndI, mask, mapped(load.operands[1]));
      ValueId tile = e.op(OpKind::MemDescIndex, {c.ring, slot}, c.tileType);
      std::vector<ValueId> operands{ptr, tile, mask};
      if (load.operands.size() > 2)
        operands.push_back(mapped(load.operands[2]));
      OpAttrs a;
      a.vectorWidth = c.vectorWidth;
      // The slot's last reads came before the previous iteration's async_wait (and its barrier);
      // the prologue's slots were never read.
      a.slotFree = true;
      e.op(OpKind::AsyncCopyGlobalToLocal, operands, std::nullopt, a);
    }
    e.op(OpKind::AsyncCommitGroup, {}, std::nullopt);
  }

  Op rewrite(Op &loop, std::vector<Op> &pre, std::vector<Op> &post) {
    // The body's ops move into the new loop one by one; the copies clone from
    // this snapshot.
    const Block body = loop.regions[0];
    std::vector<Op> &bodyOps = loop.regions[0].ops;
    Emitter e(f_, pre);
    Type i32 = Type::scalar(ScalarKind::I32);
    Type ivType = f_.type(iv_);
    ValueId lb = loop.operands[0], ub = loop.operands[1], step = loop.operands[2];
    for (Candidate &c : cands_) {
      c.ring = e.op(OpKind::LocalAlloc, {}, c.ringType);
      const std::string &loaded = f_.values[body.ops[c.index].results[0]].name;
      if (!loaded.empty())
        f_.values[c.ring].name = loaded + "_ring";
    }
    // Prologue: iterations 0..D-1 into slots 0..D-1; the advanced pointers
    // p_0..p_D.
    std::map<ValueId, ValueId> ptrAt; // carried pointer -> its value at the current stage
    for (ValueId a : advanced_)
      ptrAt[a] = loop.operands[3 + argIndex_[a]];
    for (int s = 0; s < D_; ++s) {
      ValueId ivs = lb;
      if (s > 0)
        ivs = e.binary(OpKind::AddI, lb, e.binary(OpKind::MulI, step, e.constant(s, ivType)));
      ValueId pred = e.cmp(CmpPredicate::Slt, ivs, ub);
      std::map<ValueId, ValueId> subst{{iv_, ivs}};
      for (auto &[arg, c] : carried_)
        if (c.kind == Carried::Invariant)
          subst[arg] = loop.operands[3 + argIndex_[arg]];
      for (auto &[a, p] : ptrAt)
        subst[a] = p;
      issueCopies(e, body, subst, pred, e.constant(s, i32));
      for (auto &[a, p] : ptrAt)
        p = e.binary(OpKind::AddPtr, p, carried_[a].step);
    }
    ValueId aheadStep = e.binary(OpKind::MulI, step, e.constant(D_, ivType));
    ValueId c0 = e.constant(0, i32), c1 = e.constant(1, i32), cS = e.constant(S_, i32);
    ValueId wi0 = e.constant(D_ % S_, i32);

    // The loop: carried pointers start D iterations ahead; two slot indices
    // join the carried values.
    Op out;
    out.kind = OpKind::For;
    out.loc = loop.loc;
    out.attrs = loop.attrs;
    out.operands = loop.operands;
    for (auto &[a, p] : ptrAt)
      out.operands[3 + argIndex_[a]] = p;
    out.operands.push_back(c0);
    out.operands.push_back(wi0);
    out.results = loop.results;
    out.results.push_back(f_.addValue(i32));
    out.results.push_back(f_.addValue(i32));
    Block nb;
    nb.args = body.args;
    ValueId ri = f_.addValue(i32, "ri"), wi = f_.addValue(i32, "wi");
    nb.args.push_back(ri);
    nb.args.push_back(wi);
    Emitter in(f_, nb.ops);
    std::set<size_t> folded;
    std::map<size_t, const Candidate *> byIndex;
    for (const Candidate &c : cands_) {
      folded.insert(c.converts.begin(), c.converts.end());
      folded.insert(c.allocs.begin(), c.allocs.end());
      byIndex[c.index] = &c;
    }
    // The copies of iteration j + D are issued after the local_loads that the step's first
    // reader of a loaded tile needs, ahead of any later ones: the copies write other slots, and
    // ptxas keeps a shared load after them in program order behind them, so it cannot hoist a
    // load the step needs late (attention's V, read after the softmax) to the top with the
    // copies and hold its registers all through the step (that cost spills and 20 %).
    // (users_ lists the body ops reading a value, reads inside branches included.)
    size_t firstReader = body.ops.size();
    for (const Candidate &c : cands_)
      for (const std::vector<size_t> &ops : {std::vector<size_t>{c.index}, c.converts, c.allocs})
        for (size_t i : ops)
          for (size_t u : users_[body.ops[i].results[0]])
            if (!folded.count(u) && !byIndex.count(u))
              firstReader = std::min(firstReader, u);
    size_t issueAt = byIndex.begin()->first;
    for (const auto &[i, c] : byIndex)
      if (i < firstReader)
        issueAt = i;
    // The copies of iteration j + D.
    auto issueAhead = [&] {
      ValueId ivn = in.binary(OpKind::AddI, iv_, aheadStep);
      ValueId pred = in.cmp(CmpPredicate::Slt, ivn, ub);
      std::map<ValueId, ValueId> subst{{iv_, ivn}};
      issueCopies(in, body, subst, pred, wi);
    };
    bool waited = false;
    std::vector<std::pair<ValueId, ValueId>> replace;
    std::vector<ValueId> retype; // memdescs that become ring slots
    for (size_t i = 0; i < bodyOps.size(); ++i) {
      Op &op = bodyOps[i];
      if (folded.count(i))
        continue;
      auto c = byIndex.find(i);
      if (op.kind == OpKind::Yield) {
        ValueId r1 = in.binary(OpKind::AddI, ri, c1);
        ValueId rn = in.op(OpKind::Select, {in.cmp(CmpPredicate::Eq, r1, cS), c0, r1}, i32);
        ValueId w1 = in.binary(OpKind::AddI, wi, c1);
        ValueId wn = in.op(OpKind::Select, {in.cmp(CmpPredicate::Eq, w1, cS), c0, w1}, i32);
        op.operands.push_back(rn);
        op.operands.push_back(wn);
        nb.ops.push_back(std::move(op));
        continue;
      }
      if (c == byIndex.end()) {
        nb.ops.push_back(std::move(op));
        if (asyncDot_ && i == asyncDot_->wait) {
          // Dot j stays in flight; dot j-1 is complete in this warp, and after
          // the barrier in every warp, so the copies may refill its slots.
          nb.ops.back().attrs.pendings = 1;
          in.op(OpKind::Barrier, {}, std::nullopt);
          issueAhead();
        }
        continue;
      }
      const Candidate &cand = *c->second;
      if (!waited) {
        OpAttrs a;
        a.num = S_ - 2;
        in.op(OpKind::AsyncWait, {}, std::nullopt, a);
        waited = true;
      }
      if (!cand.allocs.empty()) {
        // The slot replaces the local_allocs: it takes the first one's result
        // (now mutable, as the ring), and the warp_group_dot_waits pass it
        // through with that type.
        ValueId slot = body.ops[cand.allocs[0]].results[0];
        Op mi;
        mi.kind = OpKind::MemDescIndex;
        mi.operands = {cand.ring, ri};
        mi.results = {slot};
        mi.loc = op.loc;
        nb.ops.push_back(std::move(mi));
        for (size_t k = 1; k < cand.allocs.size(); ++k)
          replace.push_back({body.ops[cand.allocs[k]].results[0], slot});
        for (size_t k : cand.allocs)
          retype.push_back(body.ops[k].results[0]);
        retype.insert(retype.end(), cand.views.begin(), cand.views.end());
      } else {
        ValueId tile = in.op(OpKind::MemDescIndex, {cand.ring, ri}, cand.tileType);
        // The local_load takes over the value the users read: the first folded
        // convert's result, or the load's own.
        ValueId result =
            cand.converts.empty() ? op.results[0] : body.ops[cand.converts[0]].results[0];
        Op ll;
        ll.kind = OpKind::LocalLoad;
        ll.operands = {tile};
        ll.results = {result};
        ll.loc = op.loc;
        nb.ops.push_back(std::move(ll));
        for (size_t k = 1; k < cand.converts.size(); ++k)
          replace.push_back({body.ops[cand.converts[k]].results[0], result});
      }
      if (i == issueAt && !asyncDot_)
        issueAhead();
    }
    // Duplicate converts of one load read the one local_load (all inside the
    // body).
    for (const std::pair<ValueId, ValueId> &r : replace)
      walkOps(nb, [&](Op &o) {
        for (ValueId &v : o.operands)
          if (v == r.first)
            v = r.second;
      });
    for (ValueId v : retype)
      f_.values[v].type = f_.type(v).isMutable()
                              ? f_.type(v)
                              : Type::memDesc(f_.type(v).shape(), f_.type(v).elem().scalar,
                                              f_.type(v).layout(), true);
    for (Op &o : nb.ops)
      if (o.kind == OpKind::WarpGroupDotWait)
        for (size_t k = 0; k < o.operands.size(); ++k)
          f_.values[o.results[k]].type = f_.type(o.operands[k]);
    out.regions.push_back(std::move(nb));
    // Epilogue: the last (masked-off) copies land before the rings go.
    Emitter ep(f_, post);
    if (asyncDot_) {
      // The last dot completes (in every warp, by the async_wait's barrier)
      // before its value is used and the rings are freed.
      ValueId acc = loop.results[asyncDot_->acc];
      std::string name = f_.values[acc].name;
      ValueId done = f_.addValue(f_.type(acc), name.empty() ? "" : name + "_done");
      ep.op(OpKind::WarpGroupDotWait, {acc}, std::nullopt);
      post.back().results = {done};
      post.back().attrs.pendings = 0;
      accDone_ = {acc, done};
    }
    OpAttrs w0;
    w0.num = 0;
    ep.op(OpKind::AsyncWait, {}, std::nullopt, w0);
    for (const Candidate &c : cands_)
      ep.op(OpKind::LocalDealloc, {c.ring}, std::nullopt);
    return out;
  }

  Module &m_;
  Function &f_;
  int64_t S_;
  int D_;
  const std::vector<int> &uses_;
  ValueId iv_ = kNoValue;
  const Block *body_ = nullptr;
  std::map<ValueId, size_t> def_;
  std::map<ValueId, std::vector<size_t>> users_;
  std::map<ValueId, Carried> carried_;
  std::map<ValueId, size_t> argIndex_;
  std::set<ValueId> advanced_;
  std::vector<Candidate> cands_;
  std::optional<AsyncDot> asyncDot_;
  std::optional<std::pair<ValueId, ValueId>> accDone_; // loop result -> waited
  std::optional<AxisInfoAnalysis> axis_;
  std::vector<const Op *> pointerDefs_; // per value of the function: its defining op
  std::vector<ValueId> carriedInit_;    // per loop-carried value: its initial value
};

} // namespace

Status pipelineLoops(Module &m, int numStages) {
  if (numStages < 1 || numStages > 16)
    return makeError("num_stages is " + std::to_string(numStages) + ", expected 1..16");
  if (numStages == 1)
    return Status::success();
  for (Function &f : m.functions)
    if (rewriteLoopsInnermostFirst(f.body.ops, [&](std::vector<Op> &ops, size_t i) {
          std::vector<int> uses = countUses(f);
          return LoopPipeliner(m, f, numStages, uses).run(ops, i);
        })) {
      // The prologue's constants repeat; the old address computations are dead.
      eliminateCommonSubexpressions(f);
      eraseDeadOps(f);
    }
  return Status::success();
}

} // namespace linlayout::ir
