#include "linlayout/ir/AxisInfo.h"

#include "IntArith.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace linlayout::ir {

namespace {

int64_t gcd2(int64_t a, int64_t b) {
  if (a == 0)
    return b;
  if (b == 0)
    return a;
  return std::gcd(a, b);
}

int64_t mulCap(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  if (a > AxisInfo::kMaxDivisor / b)
    return AxisInfo::kMaxDivisor;
  return a * b;
}

bool tracked(const Type &t) {
  return !t.isMemDesc() && !t.isTensorDesc() && (t.isPointerLike() || t.isIntLike());
}

int rankOf(const Type &t) { return t.isTensor() ? t.rank() : 1; }

int64_t dimSize(const Type &t, int d) { return t.isTensor() ? t.shape()[size_t(d)] : 1; }

// The loop fixed point gives up (pessimistic) after this many rounds; the join only shrinks
// powers of two, so real programs settle in two or three.
constexpr int kMaxLoopRounds = 16;

} // namespace

AxisInfo AxisInfo::pessimistic(int rank) {
  AxisInfo a;
  a.contiguity.assign(size_t(rank), 1);
  a.divisibility.assign(size_t(rank), 1);
  a.constancy.assign(size_t(rank), 1);
  return a;
}

int64_t AxisInfo::highestPowerOfTwoDivisor(int64_t x) {
  if (x == 0)
    return kMaxDivisor;
  uint64_t u = uint64_t(x);
  int64_t p = int64_t(u & (~u + 1));
  return p <= 0 || p > kMaxDivisor ? kMaxDivisor : p;
}

AxisInfo AxisInfo::fromHints(const OpAttrs &a, const Type &t) {
  int rank = t.isTensor() ? t.rank() : 1;
  AxisInfo r = pessimistic(rank);
  auto take = [&](std::vector<int64_t> &mine, const std::vector<int64_t> &hint, bool run) {
    for (size_t d = 0; d < mine.size() && !hint.empty(); ++d) {
      int64_t h = hint[hint.size() == 1 ? 0 : d];
      mine[d] = run ? std::min(h, dimSize(t, int(d))) : h;
    }
  };
  take(r.divisibility, a.hintDivisibility, false);
  take(r.contiguity, a.hintContiguity, true);
  take(r.constancy, a.hintConstancy, true);
  return r;
}

std::string AxisInfo::violation(const Type &t, std::span<const int64_t> e) const {
  std::vector<int64_t> shape = t.isTensor() ? t.shape() : std::vector<int64_t>{1};
  if (rank() != int(shape.size()))
    return "the claims have rank " + std::to_string(rank()) + ", the value " +
           std::to_string(shape.size());
  if (constant)
    for (int64_t x : e)
      if (x != *constant)
        return "constant " + std::to_string(*constant) + " but saw " + std::to_string(x);
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  int64_t step = t.isPointerLike() ? byteWidth(t.elem().scalar) : 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t c = contiguity[d], dv = divisibility[d], k = constancy[d];
    for (size_t base = 0; base < e.size(); ++base) {
      if ((int64_t(base) / strides[d]) % shape[d] != 0)
        continue; // not the start of a line along d
      for (int64_t i = 0; i < shape[d]; ++i) {
        size_t at = base + size_t(i * strides[d]);
        int64_t x = e[at], prev = i ? e[at - size_t(strides[d])] : 0;
        if (i % c == 0) {
          if (dv < kMaxDivisor && x % dv != 0)
            return "dim " + std::to_string(d) + ": run start " + std::to_string(x) +
                   " not divisible by " + std::to_string(dv);
        } else if (x != prev + step) {
          return "dim " + std::to_string(d) + ": not contiguous over " + std::to_string(c);
        }
        if (i % k != 0 && x != prev)
          return "dim " + std::to_string(d) + ": not constant over " + std::to_string(k);
      }
    }
  }
  return "";
}

AxisInfo AxisInfo::join(const AxisInfo &a, const AxisInfo &b) {
  assert(a.rank() == b.rank() && "joining axis info of different ranks");
  AxisInfo r;
  for (int d = 0; d < a.rank(); ++d) {
    r.contiguity.push_back(gcd2(a.contiguity[size_t(d)], b.contiguity[size_t(d)]));
    r.divisibility.push_back(gcd2(a.divisibility[size_t(d)], b.divisibility[size_t(d)]));
    r.constancy.push_back(gcd2(a.constancy[size_t(d)], b.constancy[size_t(d)]));
  }
  if (a.constant && b.constant && *a.constant == *b.constant)
    r.constant = a.constant;
  return r;
}

class AxisInfoBuilder {
public:
  AxisInfoBuilder(const Module &m, const Function &f) : m_(m), f_(f) {
    info_.resize(f.values.size());
  }

  AxisInfoAnalysis run() {
    for (size_t i = 0; i < f_.body.args.size(); ++i) {
      ValueId v = f_.body.args[i];
      if (!tracked(f_.type(v)))
        continue;
      const ArgHints &h = f_.argHints[i];
      AxisInfo a = AxisInfo::pessimistic(rankOf(f_.type(v)));
      a.contiguity[0] = h.contiguity;
      a.divisibility[0] = h.divisibility;
      a.constancy[0] = h.constancy;
      info_[v] = a;
    }
    block(f_.body);
    AxisInfoAnalysis r;
    r.info_ = std::move(info_);
    return r;
  }

private:
  const AxisInfo &get(ValueId v) {
    if (!info_[v])
      info_[v] = AxisInfo::pessimistic(rankOf(f_.type(v)));
    return *info_[v];
  }

  void block(const Block &b) {
    for (const Op &op : b.ops) {
      if (op.kind == OpKind::For) {
        loop(op);
        continue;
      }
      if (op.kind == OpKind::If) {
        branches(op);
        continue;
      }
      if (op.kind == OpKind::WarpSpecialize) {
        // Each region once; the results stay pessimistic. A partition's arguments are the op's
        // operands, so they keep the operands' facts (a pointer argument's divisibility, which
        // its loads and stores need to be vectorized).
        for (size_t r = 0; r < op.regions.size(); ++r) {
          const Block &b = op.regions[r];
          if (r > 0)
            for (size_t i = 0; i < b.args.size() && i < op.operands.size(); ++i)
              if (tracked(f_.type(b.args[i])))
                info_[b.args[i]] = get(op.operands[i]);
          block(b);
        }
        continue;
      }
      if (op.results.size() != 1 || !tracked(f_.type(op.results[0])))
        continue;
      info_[op.results[0]] = withHints(visit(op), op.attrs, f_.type(op.results[0]));
    }
  }

  // The op's value hints (tl.multiple_of, tl.max_contiguous) are facts the user vouches for, as
  // in Triton; each raises what the rules found.
  static AxisInfo withHints(AxisInfo r, const OpAttrs &a, const Type &t) {
    if (!a.hasValueHints())
      return r;
    AxisInfo h = AxisInfo::fromHints(a, t);
    for (size_t d = 0; d < size_t(r.rank()); ++d) {
      r.divisibility[d] = std::max(r.divisibility[d], h.divisibility[d]);
      r.contiguity[d] = std::max(r.contiguity[d], h.contiguity[d]);
      r.constancy[d] = std::max(r.constancy[d], h.constancy[d]);
    }
    return r;
  }

  void loop(const Op &op) {
    const Block &body = op.regions[0];
    AxisInfo iv = AxisInfo::pessimistic(1);
    iv.divisibility[0] =
        gcd2(get(op.operands[0]).divisibility[0], get(op.operands[2]).divisibility[0]);
    size_t n = op.results.size();
    std::vector<std::optional<AxisInfo>> current(n);
    for (size_t i = 0; i < n; ++i)
      if (tracked(f_.type(op.results[i])))
        current[i] = get(op.operands[3 + i]);
    const Op &yield = body.ops.back();
    bool settled = false;
    for (int round = 0; round <= kMaxLoopRounds && !settled; ++round) {
      if (round == kMaxLoopRounds)
        for (size_t i = 0; i < n; ++i)
          if (current[i])
            current[i] = AxisInfo::pessimistic(current[i]->rank());
      info_[body.args[0]] = iv;
      for (size_t i = 0; i < n; ++i)
        info_[body.args[1 + i]] = current[i];
      block(body);
      settled = true;
      for (size_t i = 0; i < n; ++i) {
        if (!current[i])
          continue;
        AxisInfo next = AxisInfo::join(*current[i], get(yield.operands[i]));
        if (next != *current[i]) {
          settled = round == kMaxLoopRounds;
          current[i] = next;
        }
      }
    }
    for (size_t i = 0; i < n; ++i)
      info_[op.results[i]] = current[i];
  }

  // Either branch may run: each result gets what both branches' yields have in common.
  void branches(const Op &op) {
    for (const Block &b : op.regions)
      block(b);
    for (size_t i = 0; i < op.results.size(); ++i) {
      if (!tracked(f_.type(op.results[i])))
        continue;
      AxisInfo r = get(op.regions[0].ops.back().operands[i]);
      info_[op.results[i]] = AxisInfo::join(r, get(op.regions[1].ops.back().operands[i]));
    }
  }

  static bool isContiguousDim(const AxisInfo &a, const Type &t, int d) {
    return a.contiguity[size_t(d)] == dimSize(t, d);
  }
  static bool isConstantDim(const AxisInfo &a, const Type &t, int d) {
    return a.constancy[size_t(d)] == dimSize(t, d);
  }

  AxisInfo visit(const Op &op) {
    const Type &rt = f_.type(op.results[0]);
    int rank = rankOf(rt);
    AxisInfo r = AxisInfo::pessimistic(rank);
    auto in = [&](size_t i) -> const AxisInfo & { return get(op.operands[i]); };
    if (category(op.kind) == OpCategory::BinaryInt && op.kind != OpKind::AddI &&
        op.kind != OpKind::SubI && op.kind != OpKind::MulI)
      return foldInt(op, rt, r);
    switch (op.kind) {
    case OpKind::Constant: {
      int64_t v = wrapInt(op.attrs.intValue, rt.elem().scalar);
      for (int d = 0; d < rank; ++d) {
        r.divisibility[size_t(d)] = AxisInfo::highestPowerOfTwoDivisor(v);
        r.constancy[size_t(d)] = dimSize(rt, d);
      }
      r.constant = v;
      return r;
    }
    case OpKind::MakeRange:
      r.contiguity[0] = op.attrs.end - op.attrs.start;
      r.divisibility[0] = AxisInfo::highestPowerOfTwoDivisor(op.attrs.start);
      return r;
    case OpKind::Splat:
      for (int d = 0; d < rank; ++d) {
        r.divisibility[size_t(d)] = in(0).divisibility[0];
        r.constancy[size_t(d)] = dimSize(rt, d);
      }
      r.constant = in(0).constant;
      return r;
    case OpKind::Broadcast: {
      const Type &st = f_.type(op.operands[0]);
      const AxisInfo &s = in(0);
      for (int d = 0; d < rank; ++d) {
        bool stretched = dimSize(st, d) == 1;
        r.contiguity[size_t(d)] = stretched ? 1 : s.contiguity[size_t(d)];
        r.divisibility[size_t(d)] = s.divisibility[size_t(d)];
        r.constancy[size_t(d)] = stretched ? dimSize(rt, d) : s.constancy[size_t(d)];
      }
      r.constant = s.constant;
      return r;
    }
    case OpKind::ExpandDims: {
      const AxisInfo &s = in(0);
      r = s;
      int64_t div;
      if (s.constant) {
        div = AxisInfo::highestPowerOfTwoDivisor(*s.constant);
      } else {
        // Every element of the new dimension is some element of the operand: a multiple of
        // what divides them all (a contiguous run's later elements are only known odd-or-not).
        div = AxisInfo::kMaxDivisor;
        for (int d = 0; d < s.rank(); ++d)
          div = gcd2(div, s.contiguity[size_t(d)] > 1 ? 1 : s.divisibility[size_t(d)]);
      }
      auto at = size_t(op.attrs.axis);
      r.contiguity.insert(r.contiguity.begin() + long(at), 1);
      r.divisibility.insert(r.divisibility.begin() + long(at), div);
      r.constancy.insert(r.constancy.begin() + long(at), 1);
      return r;
    }
    case OpKind::Trans: {
      const AxisInfo &s = in(0);
      for (int d = 0; d < rank; ++d) {
        size_t from = size_t(op.attrs.order[size_t(d)]);
        r.contiguity[size_t(d)] = s.contiguity[from];
        r.divisibility[size_t(d)] = s.divisibility[from];
        r.constancy[size_t(d)] = s.constancy[from];
      }
      r.constant = s.constant;
      return r;
    }
    case OpKind::ConvertLayout:
      return in(0);
    case OpKind::ExtSI:
    case OpKind::ExtUI:
    case OpKind::TruncI: {
      // A constant changes value where the bits are read anew (ExtUI of a negative constant,
      // ExtSI of an i1 true, which is -1, TruncI of one that does not fit); runs keep their
      // claims, as for the index arithmetic.
      r = in(0);
      if (r.constant) {
        int64_t v = *r.constant;
        ScalarKind from = f_.type(op.operands[0]).elem().scalar;
        if (op.kind == OpKind::ExtUI)
          v = int64_t(asUnsigned(v, from));
        else if (op.kind == OpKind::ExtSI)
          v = asSigned(v, from);
        v = wrapInt(v, rt.elem().scalar);
        r.constant = v;
        for (int d = 0; d < rank; ++d)
          r.divisibility[size_t(d)] = AxisInfo::highestPowerOfTwoDivisor(v);
      }
      return r;
    }
    case OpKind::AddI:
    case OpKind::SubI:
    case OpKind::AddPtr:
      return addSub(op, rt);
    case OpKind::MulI:
      return mul(op, rt);
    case OpKind::CmpI:
      return cmp(op, rt);
    case OpKind::Select:
      return select(op);
    case OpKind::Load: {
      const AxisInfo &p = in(0);
      for (int d = 0; d < rank; ++d)
        r.constancy[size_t(d)] = op.operands.size() > 1
                                     ? gcd2(p.constancy[size_t(d)], in(1).constancy[size_t(d)])
                                     : p.constancy[size_t(d)];
      return r;
    }
    default:
      // Any other op: nothing is known (pessimistic), which is always sound, so an op needs an
      // entry here only to be analysed better.
      return r;
    }
  }

  // An integer op without a rule of its own: equal inputs give equal outputs, and constants are
  // folded.
  AxisInfo foldInt(const Op &op, const Type &rt, AxisInfo r) {
    const int rank = rankOf(rt);
    auto in = [&](size_t i) -> const AxisInfo & { return get(op.operands[i]); };
    const AxisInfo &a = in(0), &b = in(1);
    for (int d = 0; d < rank; ++d)
      r.constancy[size_t(d)] = gcd2(a.constancy[size_t(d)], b.constancy[size_t(d)]);
    if (a.constant && b.constant) {
      // The IR's value, which the GPU computes too (shifts by the width or more and the
      // minimum divided by -1 included, docs/ir.md); none for a division by zero.
      std::optional<int64_t> v = evalIntBinary(op.kind, *a.constant, *b.constant, rt.elem().scalar);
      if (v) {
        r.constant = v;
        for (int d = 0; d < rank; ++d)
          r.divisibility[size_t(d)] = AxisInfo::highestPowerOfTwoDivisor(*v);
      }
    }
    return r;
  }

  AxisInfo addSub(const Op &op, const Type &rt) {
    const AxisInfo &a = get(op.operands[0]), &b = get(op.operands[1]);
    int rank = rankOf(rt);
    AxisInfo r = AxisInfo::pessimistic(rank);
    int64_t elemBytes = 1;
    if (op.kind == OpKind::AddPtr)
      elemBytes = byteWidth(rt.elem().scalar);
    std::optional<int64_t> c;
    if (a.constant && b.constant) {
      // Integer results wrap to the element's width, as the GPU computes them.
      if (op.kind != OpKind::AddPtr)
        c = evalIntBinary(op.kind, *a.constant, *b.constant, rt.elem().scalar);
      else
        c = int64_t(uint64_t(*a.constant) + uint64_t(*b.constant) * uint64_t(elemBytes));
    }
    for (int d = 0; d < rank; ++d) {
      size_t i = size_t(d);
      if (c) {
        r.constancy[i] = std::max(a.constancy[i], b.constancy[i]);
        r.divisibility[i] = AxisInfo::highestPowerOfTwoDivisor(*c);
        continue;
      }
      // A constant run plus a contiguous run is contiguous over their common length; a
      // subtraction of a contiguous run counts down, so only the left side may be contiguous.
      if (op.kind == OpKind::SubI)
        r.contiguity[i] = gcd2(a.contiguity[i], b.constancy[i]);
      else
        r.contiguity[i] =
            std::max(gcd2(a.constancy[i], b.contiguity[i]), gcd2(a.contiguity[i], b.constancy[i]));
      // A result run starts at a multiple of its contiguity cr. Inside a longer operand run the
      // element there is the run start plus a multiple of cr, so only gcd(t, cr) divides it
      // (Triton keeps t here, which is wrong for e.g. [4..19] + [4..19]).
      int64_t cr = r.contiguity[i];
      auto at = [cr](int64_t c, int64_t t) { return c > cr ? gcd2(t, cr) : t; };
      r.divisibility[i] = gcd2(at(a.contiguity[i], a.divisibility[i]),
                               mulCap(at(b.contiguity[i], b.divisibility[i]), elemBytes));
      r.constancy[i] = gcd2(a.constancy[i], b.constancy[i]);
    }
    r.constant = c;
    return r;
  }

  AxisInfo mul(const Op &op, const Type &rt) {
    const AxisInfo &a = get(op.operands[0]), &b = get(op.operands[1]);
    int rank = rankOf(rt);
    AxisInfo r = AxisInfo::pessimistic(rank);
    if (a.constant && b.constant) {
      int64_t v = *evalIntBinary(OpKind::MulI, *a.constant, *b.constant, rt.elem().scalar);
      for (int d = 0; d < rank; ++d) {
        r.constancy[size_t(d)] = std::max(a.constancy[size_t(d)], b.constancy[size_t(d)]);
        r.divisibility[size_t(d)] = AxisInfo::highestPowerOfTwoDivisor(v);
      }
      r.constant = v;
      return r;
    }
    bool aIsOne = a.constant && *a.constant == 1, bIsOne = b.constant && *b.constant == 1;
    for (int d = 0; d < rank; ++d) {
      size_t i = size_t(d);
      r.contiguity[i] = std::max(bIsOne ? a.contiguity[i] : 1, aIsOne ? b.contiguity[i] : 1);
      r.constancy[i] = gcd2(a.constancy[i], b.constancy[i]);
      // In a contiguous run only the first element is known to be a multiple; the product's
      // elements are then only multiples of the other factor.
      int64_t da = a.contiguity[i] > 1 && !bIsOne ? 1 : a.divisibility[i];
      int64_t db = b.contiguity[i] > 1 && !aIsOne ? 1 : b.divisibility[i];
      r.divisibility[i] = mulCap(da, db);
    }
    return r;
  }

  AxisInfo cmp(const Op &op, const Type &rt) {
    const AxisInfo &a = get(op.operands[0]), &b = get(op.operands[1]);
    const Type &ot = f_.type(op.operands[0]);
    int rank = rankOf(rt);
    AxisInfo r = AxisInfo::pessimistic(rank);
    CmpPredicate p = op.attrs.predicate;
    bool gtOrLe = p == CmpPredicate::Sgt || p == CmpPredicate::Ugt || p == CmpPredicate::Sle ||
                  p == CmpPredicate::Ule;
    bool ltOrGe = p == CmpPredicate::Slt || p == CmpPredicate::Ult || p == CmpPredicate::Sge ||
                  p == CmpPredicate::Uge;
    for (int d = 0; d < rank; ++d) {
      size_t i = size_t(d);
      int64_t k = gcd2(a.constancy[i], b.constancy[i]);
      // A run [x, x+1, ..., x+c-1] starting at a multiple of t compared with a constant that is
      // also a multiple of t: the outcome only flips at multiples of t, so it is constant over
      // runs of gcd(c, t_a, t_b).
      if (gtOrLe && isConstantDim(a, ot, d))
        k = std::max(k, gcd2(gcd2(b.contiguity[i], a.divisibility[i]), b.divisibility[i]));
      else if (ltOrGe && isConstantDim(b, ot, d))
        k = std::max(k, gcd2(gcd2(a.contiguity[i], a.divisibility[i]), b.divisibility[i]));
      r.constancy[i] = k;
    }
    return r;
  }

  AxisInfo select(const Op &op) {
    const AxisInfo &c = get(op.operands[0]), &a = get(op.operands[1]), &b = get(op.operands[2]);
    if (c.constant)
      return *c.constant ? a : b;
    bool scalarCond = !f_.type(op.operands[0]).isTensor();
    AxisInfo r = AxisInfo::pessimistic(a.rank());
    for (int d = 0; d < a.rank(); ++d) {
      size_t i = size_t(d);
      int64_t ck = scalarCond ? 0 : c.constancy[i];
      r.constancy[i] = gcd2(gcd2(a.constancy[i], b.constancy[i]), ck);
      r.contiguity[i] = gcd2(gcd2(a.contiguity[i], b.contiguity[i]), ck);
      // As for add: an operand run longer than the result's only vouches for gcd(t, cr).
      int64_t cr = r.contiguity[i];
      auto at = [cr](int64_t c, int64_t t) { return c > cr ? gcd2(t, cr) : t; };
      r.divisibility[i] =
          gcd2(at(a.contiguity[i], a.divisibility[i]), at(b.contiguity[i], b.divisibility[i]));
    }
    if (a.constant && b.constant && *a.constant == *b.constant)
      r.constant = a.constant;
    return r;
  }

  const Module &m_;
  const Function &f_;
  std::vector<std::optional<AxisInfo>> info_;
};

AxisInfoAnalysis AxisInfoAnalysis::run(const Module &m, const Function &f) {
  return AxisInfoBuilder(m, f).run();
}

const AxisInfo *AxisInfoAnalysis::get(ValueId v) const {
  if (v >= info_.size() || !info_[v])
    return nullptr;
  return &*info_[v];
}

} // namespace linlayout::ir
