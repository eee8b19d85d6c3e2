#include "linlayout/ir/WarpSpecializeLoops.h"

#include "IntArith.h"
#include "OpEmitter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Rewrite.h"
#include "linlayout/ir/Walk.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace linlayout::ir {

namespace {

// Scalar ops the producer may recompute: what slot indices, coordinates and predicates are
// made of.
bool scalarArith(const Function &f, const Op &op) {
  if (op.results.size() != 1 || !op.regions.empty() || !f.type(op.results[0]).isScalar())
    return false;
  switch (category(op.kind)) {
  case OpCategory::Source:
    return op.kind == OpKind::Constant;
  case OpCategory::BinaryInt:
  case OpCategory::Compare:
  case OpCategory::Select:
  case OpCategory::Cast:
    return true;
  default:
    return false;
  }
}

// A view of one stage of a ring: `memdesc_index ring[index]`.
struct Stage {
  ValueId ring = kNoValue, index = kNoValue;
};

class LoopSpecializer {
public:
  LoopSpecializer(Module &m, Function &f, std::vector<Op> &ops, size_t at)
      : m_(m), f_(f), ops_(ops), at_(at) {}

  /// Where the warp_specialize went in ops after run() rewrote the loop.
  size_t opIndex() const { return wsIndex_; }

  // Rewrites the loop at ops[at]; an empty string when it did, else why not.
  std::string run() {
    index();
    if (std::string why = analyse(); !why.empty())
      return why;
    rewrite();
    return "";
  }

private:
  void index() {
    walkOps(f_.body, [&](const Op &o) {
      for (ValueId r : o.results)
        defs_[r] = &o;
      for (ValueId v : o.operands)
        users_[v].push_back(&o);
    });
  }

  const Op *def(ValueId v) const {
    auto it = defs_.find(v);
    return it == defs_.end() ? nullptr : it->second;
  }
  const std::vector<const Op *> &users(ValueId v) {
    static const std::vector<const Op *> none;
    auto it = users_.find(v);
    return it == users_.end() ? none : it->second;
  }
  std::optional<int64_t> constant(ValueId v) const {
    const Op *d = def(v);
    if (!d || d->kind != OpKind::Constant || !f_.type(v).isScalar() ||
        !isInt(f_.type(v).elem().scalar))
      return std::nullopt;
    return d->attrs.intValue;
  }

  // The ring and index of a stage view (a memdesc_index of a local_alloc outside the loop).
  std::optional<Stage> stage(ValueId v) const {
    const Op *d = def(v);
    if (!d || d->kind != OpKind::MemDescIndex)
      return std::nullopt;
    return Stage{d->operands[0], d->operands[1]};
  }

  // The scalars of the loop body in its first iterations (iteration n's in values_[n]), where
  // they follow from the induction variable, constants and carried scalars that start as
  // constants (slot and phase counters, as Triton's pipeliner carries them).
  void simulate(const Op &loop, int64_t iterations) {
    const Block &body = loop.regions[0];
    const Op &yield = body.ops.back();
    values_.assign(size_t(iterations), {});
    for (int64_t n = 0; n < iterations; ++n) {
      auto &vals = values_[size_t(n)];
      vals[iv_] = lb_ + n * step_;
      for (size_t k = 1; k < body.args.size(); ++k) {
        std::optional<int64_t> x =
            n == 0 ? constant(loop.operands[2 + k]) : value(yield.operands[k - 1], n - 1);
        if (x && f_.type(body.args[k]).isScalar())
          vals[body.args[k]] = *x;
      }
      for (const Op &o : body.ops) {
        if (!scalarArith(f_, o) || !isInt(f_.type(o.results[0]).elem().scalar))
          continue;
        std::vector<int64_t> in;
        for (ValueId v : o.operands)
          if (auto x = value(v, n))
            in.push_back(*x);
        if (in.size() != o.operands.size())
          continue;
        const ScalarKind k = f_.type(o.results[0]).elem().scalar;
        std::optional<int64_t> r;
        if (o.kind == OpKind::Constant)
          r = o.attrs.intValue;
        else if (category(o.kind) == OpCategory::BinaryInt)
          r = evalIntBinary(o.kind, in[0], in[1], k);
        else if (o.kind == OpKind::Select)
          r = in[0] ? in[1] : in[2];
        else if (o.kind == OpKind::CmpI)
          r = int64_t(evalIntCompare(o.attrs.predicate, in[0], in[1],
                                     f_.type(o.operands[0]).elem().scalar));
        if (r)
          vals[o.results[0]] = *r;
      }
    }
  }

  std::optional<int64_t> value(ValueId v, int64_t n) const {
    if (auto c = constant(v))
      return c;
    const auto &vals = values_[size_t(n)];
    auto it = vals.find(v);
    return it == vals.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }

  // Whether `index` is (n + shift) % S at step n, for the first rounds of the ring.
  bool isSlot(ValueId index, int64_t shift) const {
    for (int64_t n = 0; n < int64_t(values_.size()); ++n) {
      auto got = value(index, n);
      if (!got || *got != (n + shift) % S_)
        return false;
    }
    return true;
  }

  // A ring of S stages: `ttg.local_alloc : () -> !ttg.memdesc<Sx...>` outside the loop.
  bool isRing(ValueId v) const {
    const Op *d = def(v);
    const Type &t = f_.type(v);
    return d && d->kind == OpKind::LocalAlloc && d->operands.empty() && !bodyDefs_.count(v) &&
           t.isMemDesc() && t.rank() >= 2 && t.shape()[0] == S_;
  }

  std::string analyse() {
    const Op &loop = ops_[at_];
    if (m_.numWarps % 4 != 0)
      return "num-warps is " + std::to_string(m_.numWarps) +
             ", not whole warp groups for the wgmma consumers";
    const Block &body = loop.regions[0];
    iv_ = body.args[0];
    if (f_.type(iv_) != Type::scalar(ScalarKind::I32))
      return "the induction variable is not an i32";
    auto lb = constant(loop.operands[0]), step = constant(loop.operands[2]);
    if (!lb || !step || *step <= 0)
      return "the lower bound and the step must be constants (the step positive)";
    lb_ = *lb;
    step_ = *step;
    for (const Op &o : body.ops)
      for (ValueId r : o.results)
        bodyDefs_.insert(r);
    // The body: the ring's wait, one wgmma and its wait, the refill, scalar arithmetic.
    const Op *wait = nullptr, *dot = nullptr, *dotWait = nullptr, *expect = nullptr;
    std::vector<const Op *> copies;
    for (const Op &o : body.ops) {
      const Op **one = nullptr;
      switch (o.kind) {
      case OpKind::WaitBarrier:
        one = &wait;
        break;
      case OpKind::WarpGroupDot:
        one = &dot;
        break;
      case OpKind::WarpGroupDotWait:
        one = &dotWait;
        break;
      case OpKind::BarrierExpect:
        one = &expect;
        break;
      case OpKind::AsyncTmaCopyGlobalToLocal:
        copies.push_back(&o);
        continue;
      case OpKind::MemDescIndex:
      case OpKind::Yield:
        continue;
      default:
        if (scalarArith(f_, o))
          continue;
        return "the loop body holds " + std::string(mnemonic(o.kind)) +
               ", which a TMA producer and wgmma consumers cannot split (only the ring's "
               "barrier wait, TMA copies, one warp_group_dot and scalar arithmetic)";
      }
      if (*one)
        return "the loop body holds more than one " + std::string(mnemonic(o.kind));
      *one = &o;
    }
    if (!wait || !dot || !dotWait || !expect || copies.empty())
      return "the loop body lacks the pipelined ring's parts (a wait_barrier, a warp_group_dot "
             "and its wait, a barrier_expect and TMA copies)";
    // The consumer: the wgmma reads two stages of one index and accumulates in the carried value.
    // The carried values: the accumulator, and scalar counters that start as constants and that
    // nothing reads after the loop.
    ValueId acc = dot->operands[2];
    auto accArg = std::find(body.args.begin() + 1, body.args.end(), acc);
    if (accArg == body.args.end())
      return "the warp_group_dot does not accumulate in a loop-carried value";
    acc_ = size_t(accArg - body.args.begin()) - 1;
    for (size_t k = 0; k + 1 < body.args.size(); ++k)
      if (k != acc_ && (!f_.type(body.args[k + 1]).isScalar() || !constant(loop.operands[3 + k]) ||
                        !users(loop.results[k]).empty()))
        return "the loop carries " + std::to_string(body.args.size() - 1) +
               " values; besides the wgmma accumulator only scalar counters that start as "
               "constants and are not used after the loop";
    auto sa = stage(dot->operands[0]), sb = stage(dot->operands[1]);
    if (!sa || !sb || sa->index != sb->index || !dot->attrs.isAsync || users(acc).size() != 1)
      return "the warp_group_dot must read two ring stages of one index, asynchronously, and be "
             "the only reader of the carried accumulator";
    S_ = f_.type(sa->ring).rank() >= 2 ? f_.type(sa->ring).shape()[0] : 0;
    if (S_ < 2 || S_ > 16 || !isRing(sa->ring) || !isRing(sb->ring) || sa->ring == sb->ring)
      return "the wgmma's operands are not stages of two rings allocated before the loop";
    const Op &yield = body.ops.back();
    if (dotWait->attrs.pendings != 1 || dotWait->operands[0] != dot->results[0] ||
        users(dot->results[0]).size() != 1 || yield.operands[acc_] != dotWait->results[0] ||
        users(dotWait->results[0]).size() != 1)
      return "the wgmma must stay in flight: its warp_group_dot_wait {pendings = 1} yields the "
             "accumulator";
    for (size_t k = 1; k < dotWait->results.size(); ++k)
      if (!users(dotWait->results[k]).empty())
        return "the warp_group_dot_wait's operands other than the accumulator are used";
    for (ValueId view : {dot->operands[0], dot->operands[1]})
      for (const Op *u : users(view))
        if (u != dot && u != dotWait)
          return "a stage the wgmma reads is also read by " + std::string(mnemonic(u->kind));
    consumerSlot_ = sa->index;
    simulate(loop, 2 * S_ + 2);
    if (!isSlot(consumerSlot_, 0))
      return "the consumer's stage index is not (n % " + std::to_string(S_) +
             ") at step n, computed from the induction variable, constants and counters";
    auto full = stage(wait->operands[0]);
    if (!full || !isRing(full->ring) || f_.type(full->ring).shape().size() != 2 ||
        f_.type(full->ring).elem().scalar != ScalarKind::I64 || wait->operands.size() != 2 ||
        !isSlot(full->index, 0))
      return "the loop must wait on the mbarrier of its stage (a ring of " + std::to_string(S_) +
             " barriers, without a predicate)";
    fulls_ = full->ring;
    rings_ = {sa->ring, sb->ring};
    // The rings live in the loop's block (the empty barriers are made beside them).
    for (ValueId r : {fulls_, sa->ring, sb->ring})
      if (std::none_of(ops_.begin(), ops_.begin() + at_, [&](const Op &o) { return def(r) == &o; }))
        return "the rings are not allocated in the loop's block";
    // The refill: one expect and a copy per ring, into stage (n + D) % S, under one predicate.
    auto ef = expect->operands.size() == 2 ? stage(expect->operands[0]) : std::nullopt;
    if (!ef || ef->ring != fulls_)
      return "the barrier_expect is not on the ring's barriers";
    pred_ = expect->operands[1];
    refillSlot_ = ef->index;
    std::set<ValueId> filled;
    for (const Op *c : copies) {
      size_t n = c->operands.size();
      auto dst = stage(c->operands[n - 3]), bar = stage(c->operands[n - 2]);
      if (!dst || !bar || bar->ring != fulls_ || !rings_.count(dst->ring) ||
          !filled.insert(dst->ring).second || c->operands[n - 1] != pred_ || c->attrs.multicastCta)
        return "each TMA copy must fill one ring's stage once, on the ring's barrier, under the "
               "barrier_expect's predicate";
      refillViews_.push_back({dst->index, bar->index});
    }
    if (filled.size() != 2)
      return "the copies do not fill both rings the wgmma reads";
    for (const Op &o : body.ops)
      if (o.kind == OpKind::MemDescIndex &&
          (rings_.count(o.operands[0]) || o.operands[0] == fulls_))
        for (const Op *u : users(o.results[0]))
          if (u != dot && u != dotWait && u != wait && u != expect &&
              std::find(copies.begin(), copies.end(), u) == copies.end())
            return "a stage view is used by " + std::string(mnemonic(u->kind));
    // The prologue: fills 0..D-1 before the loop, the rings used by nothing else there.
    if (std::string why = prologue(); !why.empty())
      return why;
    for (auto [dst, bar] : refillViews_)
      if (!isSlot(dst, D_) || !isSlot(bar, D_))
        return "the refill's stage index is not ((n + " + std::to_string(D_) + ") % " +
               std::to_string(S_) + ") at step n";
    if (!isSlot(refillSlot_, D_))
      return "the refill's barrier index is not ((n + " + std::to_string(D_) + ") % " +
             std::to_string(S_) + ") at step n";
    // After the loop: the final wait of the accumulator, right after it.
    if (at_ + 1 >= ops_.size() || ops_[at_ + 1].kind != OpKind::WarpGroupDotWait ||
        ops_[at_ + 1].operands != std::vector<ValueId>{loop.results[acc_]} ||
        ops_[at_ + 1].attrs.pendings != 0 || users(loop.results[acc_]).size() != 1)
      return "the loop's result must go to a warp_group_dot_wait {pendings = 0} right after it";
    expect_ = expect;
    copies_ = copies;
    dotWait_ = dotWait;
    // What the refill needs of the body: its address and slot arithmetic, and the counters it
    // reads with their updates (the producer's loop carries them too).
    need_ = {expect};
    need_.insert(copies.begin(), copies.end());
    for (bool grew = true; grew;) {
      grew = false;
      for (size_t i = body.ops.size(); i-- > 0;) {
        const Op &o = body.ops[i];
        if (!need_.count(&o))
          continue;
        for (ValueId v : o.operands) {
          if (const Op *d = def(v); d && bodyDefs_.count(v))
            grew |= need_.insert(d).second;
          auto a = std::find(body.args.begin() + 1, body.args.end(), v);
          if (a == body.args.end())
            continue;
          const size_t k = size_t(a - body.args.begin()) - 1;
          if (!counters_.insert(k).second)
            continue;
          grew = true;
          if (const Op *d = def(yield.operands[k]); d && bodyDefs_.count(yield.operands[k]))
            need_.insert(d);
        }
      }
    }
    if (counters_.count(acc_))
      return "the copies' addresses depend on the accumulator";
    for (const Op *o : need_)
      if (o != expect && std::find(copies.begin(), copies.end(), o) == copies.end() &&
          !scalarArith(f_, *o) && o->kind != OpKind::MemDescIndex)
        return "the copies depend on " + std::string(mnemonic(o->kind)) + " in the loop body";
    return "";
  }

  // Finds the prologue's fills in ops_[0..at_): for k in 0..D-1 one barrier_expect on full[k] and
  // a copy into each ring's stage k on it; every other use of the rings there is an
  // init_barrier of a full barrier.
  std::string prologue() {
    std::map<int64_t, const Op *> expects;
    std::map<std::pair<ValueId, int64_t>, int> copies;
    for (size_t i = 0; i < at_; ++i) {
      const Op &o = ops_[i];
      bool nested = false;
      for (const Block &r : o.regions)
        walkOps(r, [&](const Op &inner) {
          for (ValueId v : inner.operands) {
            auto s = stage(v);
            nested |= v == fulls_ || rings_.count(v) ||
                      (s && (s->ring == fulls_ || rings_.count(s->ring)));
          }
        });
      if (nested)
        return std::string(mnemonic(o.kind)) + " before the loop uses the ring inside it";
      bool touches = false;
      std::optional<int64_t> k;
      for (ValueId v : o.operands) {
        ValueId ring = v;
        if (auto s = stage(v); s && !bodyDefs_.count(v))
          ring = s->ring;
        if (ring != fulls_ && !rings_.count(ring))
          continue;
        touches = true;
        if (auto s = stage(v))
          k = constant(s->index);
      }
      if (!touches || o.kind == OpKind::MemDescIndex)
        continue;
      if (o.kind == OpKind::InitBarrier)
        continue;
      if (!k)
        return std::string(mnemonic(o.kind)) +
               " before the loop uses the ring, not at a constant stage";
      if (o.kind == OpKind::BarrierExpect && o.operands.size() == 2 && stage(o.operands[0]) &&
          stage(o.operands[0])->ring == fulls_) {
        if (!expects.emplace(*k, &o).second)
          return "two barrier_expects on stage " + std::to_string(*k) + " before the loop";
        moved_.insert(&o);
        continue;
      }
      if (o.kind == OpKind::AsyncTmaCopyGlobalToLocal && !o.attrs.multicastCta) {
        size_t n = o.operands.size();
        auto dst = stage(o.operands[n - 3]), bar = stage(o.operands[n - 2]);
        if (dst && bar && bar->ring == fulls_ && rings_.count(dst->ring) &&
            constant(bar->index) == k && constant(dst->index) == k) {
          ++copies[{dst->ring, *k}];
          moved_.insert(&o);
          continue;
        }
      }
      return std::string(mnemonic(o.kind)) +
             " before the loop uses the ring other than as a prologue fill";
    }
    D_ = int64_t(expects.size());
    if (D_ < 1 || D_ > S_ - 1)
      return "the prologue fills " + std::to_string(D_) + " stages, expected 1.." +
             std::to_string(S_ - 1);
    for (int64_t k = 0; k < D_; ++k) {
      if (!expects.count(k))
        return "the prologue does not fill stage " + std::to_string(k);
      for (ValueId r : rings_)
        if (copies[{r, k}] != 1)
          return "the prologue does not copy into each ring's stage " + std::to_string(k) + " once";
    }
    if (copies.size() != size_t(2 * D_))
      return "the prologue copies into stages past " + std::to_string(D_ - 1);
    return "";
  }

  // ---- the rewrite ----------------------------------------------------------------------------

  // The partition's value for `v` of the code around it: a constant cloned, a scalar or view
  // op that only the moved prologue needs cloned (with its operands), anything else captured.
  ValueId inProducer(ValueId v) {
    if (auto it = map_.find(v); it != map_.end())
      return it->second;
    const Op *d = def(v);
    if (d && (constant(v) || (d->kind == OpKind::Constant && f_.type(v).isScalar()) ||
              (pulled_.count(d) && depth_ < 64))) {
      Op c = *d;
      ++depth_; // a long chain of arithmetic is captured where it gets too deep
      for (ValueId &x : c.operands)
        x = inProducer(x);
      --depth_;
      c.results = {f_.addValue(f_.type(v), f_.values[v].name)};
      map_[v] = c.results[0];
      top_.push_back(std::move(c));
      return map_[v];
    }
    ValueId arg = f_.addValue(f_.type(v), f_.values[v].name.empty() ? "" : "p" + f_.values[v].name);
    captures_.push_back(v);
    producer_.args.push_back(arg);
    map_[v] = arg;
    return arg;
  }

  void rewrite() {
    Op &loop = ops_[at_];
    Block &body = loop.regions[0];
    const Type i32 = Type::scalar(ScalarKind::I32);
    // The scalar and view ops before the loop that only the moved fills use go with them.
    for (size_t i = at_; i-- > 0;) {
      const Op &o = ops_[i];
      if (!(scalarArith(f_, o) || o.kind == OpKind::MemDescIndex) || o.results.empty())
        continue;
      const auto &us = users(o.results[0]);
      if (!us.empty() && std::all_of(us.begin(), us.end(), [&](const Op *u) {
            return moved_.count(u) || pulled_.count(u);
          }))
        pulled_.insert(&o);
    }
    // Before the op: the empty barriers, one arrival each.
    std::vector<Op> before;
    Emitter e(f_, before);
    const Type barRing = f_.type(fulls_);
    ValueId empties = e.op(OpKind::LocalAlloc, {}, barRing);
    f_.values[empties].name = "empties";
    const Type barType = f_.type(expect_->operands[0]);
    std::vector<ValueId> emptyBars;
    for (int64_t k = 0; k < S_; ++k) {
      ValueId b = e.op(OpKind::MemDescIndex, {empties, e.constant(k, i32)}, barType);
      f_.values[b].name = "empty" + std::to_string(k);
      OpAttrs one;
      one.count = 1;
      e.op(OpKind::InitBarrier, {b}, std::nullopt, one);
      emptyBars.push_back(b);
    }
    // The producer: the prologue's fills, then the loop's refills behind the empty barriers.
    for (size_t i = 0; i < at_; ++i) {
      const Op &o = ops_[i];
      if (!moved_.count(&o) && !pulled_.count(&o))
        continue;
      if (pulled_.count(&o)) // cloned where the fills need them
        continue;
      Op c = o;
      for (ValueId &x : c.operands)
        x = inProducer(x);
      top_.push_back(std::move(c));
    }
    Op refills;
    refills.kind = OpKind::For;
    refills.loc = loop.loc;
    refills.operands = {inProducer(loop.operands[0]), inProducer(loop.operands[1]),
                        inProducer(loop.operands[2])};
    Block rb;
    ValueId piv = f_.addValue(i32, f_.values[iv_].name);
    rb.args = {piv};
    std::map<ValueId, ValueId> local{{iv_, piv}};
    for (size_t k : counters_) {
      const ValueId arg = body.args[k + 1];
      refills.operands.push_back(inProducer(loop.operands[3 + k]));
      refills.results.push_back(f_.addValue(f_.type(arg)));
      local[arg] = f_.addValue(f_.type(arg), f_.values[arg].name);
      rb.args.push_back(local[arg]);
    }
    {
      auto mapped = [&](ValueId v) {
        auto it = local.find(v);
        return it != local.end() ? it->second : bodyDefs_.count(v) ? kNoValue : inProducer(v);
      };
      Emitter in(f_, rb.ops);
      bool waited = false;
      for (const Op &o : body.ops) {
        if (!need_.count(&o))
          continue;
        const bool fill = &o == expect_ || o.kind == OpKind::AsyncTmaCopyGlobalToLocal;
        if (fill && !waited) {
          // Fill f = n + D waits for the consumer to free the stage's previous round.
          ValueId n = piv;
          if (lb_ != 0)
            n = in.binary(OpKind::SubI, n, in.constant(lb_, i32));
          if (step_ != 1)
            n = in.binary(OpKind::DivSI, n, in.constant(step_, i32));
          ValueId fill = in.binary(OpKind::AddI, n, in.constant(D_, i32));
          ValueId round = in.binary(OpKind::DivSI, fill, in.constant(S_, i32));
          ValueId parity = in.binary(OpKind::AndI, round, in.constant(1, i32));
          ValueId phase = in.binary(OpKind::XOrI, parity, in.constant(1, i32));
          f_.values[phase].name = "emptyPhase";
          ValueId empty =
              in.op(OpKind::MemDescIndex, {inProducer(empties), mapped(refillSlot_)}, barType);
          f_.values[empty].name = "empty";
          in.op(OpKind::WaitBarrier, {empty, phase, mapped(pred_)}, std::nullopt);
          waited = true;
        }
        Op c = o;
        for (ValueId &x : c.operands)
          x = mapped(x);
        for (ValueId &r : c.results) {
          ValueId nr = f_.addValue(f_.type(r), f_.values[r].name);
          local[r] = nr;
          r = nr;
        }
        rb.ops.push_back(std::move(c));
      }
      std::vector<ValueId> next;
      for (size_t k : counters_)
        next.push_back(mapped(body.ops.back().operands[k]));
      in.op(OpKind::Yield, next, std::nullopt);
    }
    refills.regions.push_back(std::move(rb));
    producer_.ops = std::move(top_);
    producer_.ops.push_back(std::move(refills));
    producer_.ops.emplace_back();
    producer_.ops.back().kind = OpKind::WarpReturn;

    // The consumer: the loop without its refill; after step n's wgmma wait it frees stage n-1.
    Block def;
    Emitter d(f_, def.ops);
    ValueId back = d.constant(S_ - 1, i32), ring = d.constant(S_, i32);
    std::vector<Op> kept;
    for (Op &o : body.ops) {
      if (&o == expect_ || std::find(copies_.begin(), copies_.end(), &o) != copies_.end())
        continue;
      const bool afterWait = &o == dotWait_;
      kept.push_back(std::move(o));
      if (!afterWait)
        continue;
      Emitter in(f_, kept);
      ValueId prev = in.binary(OpKind::RemSI, in.binary(OpKind::AddI, consumerSlot_, back), ring);
      ValueId freeing = in.cmp(CmpPredicate::Sgt, iv_, loop.operands[0]);
      f_.values[freeing].name = "freeing";
      ValueId freed = in.op(OpKind::MemDescIndex, {empties, prev}, barType);
      f_.values[freed].name = "freed";
      OpAttrs one;
      one.count = 1;
      in.op(OpKind::ArriveBarrier, {freed, freeing}, std::nullopt, one);
    }
    body.ops = std::move(kept);
    loop.attrs.warpSpecialize = false;
    // The default region holds the loop and its final wait and yields the accumulator; the
    // op's result takes the wait's value id, so the code after it reads it unchanged.
    Op post = std::move(ops_[at_ + 1]);
    const ValueId result = post.results[0];
    post.results[0] = f_.addValue(f_.type(result), f_.values[result].name);
    Op yield;
    yield.kind = OpKind::WarpYield;
    yield.operands = {post.results[0]};
    def.ops.push_back(std::move(loop));
    def.ops.push_back(std::move(post));
    def.ops.push_back(std::move(yield));

    Op ws;
    ws.kind = OpKind::WarpSpecialize;
    ws.loc = def.ops[def.ops.size() - 3].loc;
    ws.results = {result};
    const int64_t groups = m_.numWarps / 4;
    const int64_t producerRegs = groups == 1 ? 40 : 24;
    const int64_t consumerRegs =
        std::min<int64_t>(groups == 1 ? 232 : 240, (512 - producerRegs) / groups / 8 * 8);
    ws.attrs.partitionWarps = {1};
    ws.attrs.requestedRegisters = {producerRegs};
    ws.attrs.actualRegisters = {consumerRegs, producerRegs};
    ws.regions.push_back(std::move(def));
    ws.regions.push_back(std::move(producer_));
    ws.operands = captures_;

    std::vector<Op> out;
    out.reserve(ops_.size() + before.size() + S_);
    for (size_t i = 0; i < ops_.size(); ++i) {
      if (i == at_ + 1 || moved_.count(&ops_[i]))
        continue;
      if (i != at_) {
        out.push_back(std::move(ops_[i]));
        continue;
      }
      for (Op &o : before)
        out.push_back(std::move(o));
      wsIndex_ = out.size();
      out.push_back(std::move(ws));
      for (ValueId b : emptyBars) {
        Op inval;
        inval.kind = OpKind::InvalBarrier;
        inval.operands = {b};
        out.push_back(std::move(inval));
      }
    }
    ops_ = std::move(out);
  }

  Module &m_;
  Function &f_;
  std::vector<Op> &ops_;
  size_t at_, wsIndex_ = 0;
  std::unordered_map<ValueId, const Op *> defs_;
  std::unordered_map<ValueId, std::vector<const Op *>> users_;
  std::set<ValueId> bodyDefs_;
  ValueId iv_ = kNoValue;
  int64_t lb_ = 0, step_ = 1, S_ = 0, D_ = 0;
  size_t acc_ = 0;                                           // the accumulator's carried index
  std::set<size_t> counters_;                                // carried scalars the refill reads
  std::set<const Op *> need_;                                // body ops the refill needs
  std::vector<std::unordered_map<ValueId, int64_t>> values_; // per iteration, see simulate()
  ValueId fulls_ = kNoValue, consumerSlot_ = kNoValue, refillSlot_ = kNoValue, pred_ = kNoValue;
  std::set<ValueId> rings_;
  std::vector<std::pair<ValueId, ValueId>> refillViews_; // (stage index, barrier index)
  const Op *expect_ = nullptr, *dotWait_ = nullptr;
  std::vector<const Op *> copies_;
  std::set<const Op *> moved_, pulled_; // prologue ops going into the producer
  // The producer partition as it is built.
  Block producer_;
  std::vector<Op> top_;
  std::vector<ValueId> captures_;
  std::map<ValueId, ValueId> map_;
  int depth_ = 0;
};

std::string where(const Op &loop) {
  return std::to_string(loop.loc.line) + ":" + std::to_string(loop.loc.col);
}

// Specializes the marked loops of `ops` and of the blocks in them (not inside a
// warp_specialize: they do not nest). Returns whether it changed anything.
bool specializeBlock(Module &m, Function &f, std::vector<Op> &ops, int depth,
                     std::vector<std::string> *remarks) {
  if (depth > kMaxNesting)
    return false;
  bool changed = false;
  for (size_t i = 0; i < ops.size(); ++i) {
    Op &op = ops[i];
    if (op.kind == OpKind::WarpSpecialize)
      continue;
    if (op.kind == OpKind::For && op.attrs.warpSpecialize) {
      const std::string at = where(op);
      LoopSpecializer s(m, f, ops, i);
      std::string why = s.run();
      if (why.empty()) {
        changed = true;
        i = s.opIndex(); // the prologue's fills left the ops before it
        continue;
      }
      if (remarks)
        remarks->push_back("@" + f.name + ": loop at " + at + ": not warp-specialized: " + why);
    }
    for (Block &b : op.regions)
      changed |= specializeBlock(m, f, b.ops, depth + 1, remarks);
  }
  return changed;
}

} // namespace

Status warpSpecializeLoops(Module &m, std::vector<std::string> *remarks) {
  for (Function &f : m.functions)
    if (specializeBlock(m, f, f.body.ops, 0, remarks)) {
      // The loop's refill is dead in the consumer, the prologue's address arithmetic outside,
      // and the new constants repeat.
      eliminateCommonSubexpressions(f);
      eraseDeadOps(f);
    }
  return Status::success();
}

} // namespace linlayout::ir
