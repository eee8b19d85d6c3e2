#include "IntArith.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace linlayout::ir {

int64_t wrapInt(int64_t v, ScalarKind k) {
  int bits = bitWidth(k);
  if (bits >= 64)
    return v;
  if (bits == 1)
    return v & 1;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t u = uint64_t(v) & mask;
  if (u >> (bits - 1))
    u |= ~mask;
  return int64_t(u);
}

uint64_t asUnsigned(int64_t v, ScalarKind k) {
  int bits = bitWidth(k);
  return bits >= 64 ? uint64_t(v) : uint64_t(v) & ((uint64_t(1) << bits) - 1);
}

int64_t asSigned(int64_t v, ScalarKind k) { return k == ScalarKind::I1 ? -(v & 1) : v; }

namespace {

// The operands of a BinaryInt op as each op reads them: raw (p, q: the sign-extended patterns),
// as unsigned 64-bit words of the same bits (up, uq), as unsigned N-bit numbers (bp, bq) and as
// signed ones (sp, sq, where an i1 of 1 is -1).
struct IntOperands {
  int bits;
  int64_t p, q;
  uint64_t up, uq, bp, bq;
  int64_t sp, sq;
};

// Per op kind, a BinaryInt op's value before wrapping to the result's width; nullopt for a
// division or remainder by zero.
using IntBinaryFn = std::optional<int64_t> (*)(const IntOperands &);
constexpr std::array<IntBinaryFn, kNumOpKinds> kIntBinary = [] {
  std::array<IntBinaryFn, kNumOpKinds> t{};
  using R = std::optional<int64_t>;
  auto set = [&](OpKind k, IntBinaryFn fn) { t[size_t(k)] = fn; };
  set(OpKind::AddI, [](const IntOperands &o) -> R { return int64_t(o.up + o.uq); });
  set(OpKind::SubI, [](const IntOperands &o) -> R { return int64_t(o.up - o.uq); });
  set(OpKind::MulI, [](const IntOperands &o) -> R { return int64_t(o.up * o.uq); });
  // The minimum divided by -1 is itself, with remainder 0.
  set(OpKind::DivSI, [](const IntOperands &o) -> R {
    if (o.sq == 0)
      return std::nullopt;
    return o.sq == -1 ? int64_t(0 - uint64_t(o.sp)) : o.sp / o.sq;
  });
  set(OpKind::RemSI, [](const IntOperands &o) -> R {
    if (o.sq == 0)
      return std::nullopt;
    return o.sq == -1 ? 0 : o.sp % o.sq;
  });
  set(OpKind::AndI, [](const IntOperands &o) -> R { return o.p & o.q; });
  set(OpKind::OrI, [](const IntOperands &o) -> R { return o.p | o.q; });
  set(OpKind::XOrI, [](const IntOperands &o) -> R { return o.p ^ o.q; });
  set(OpKind::ShLI, [](const IntOperands &o) -> R {
    return o.uq >= uint64_t(o.bits) ? 0 : int64_t(o.up << o.uq);
  });
  set(OpKind::ShRSI, [](const IntOperands &o) -> R {
    return o.uq >= uint64_t(o.bits) ? (o.sp < 0 ? -1 : 0) : (o.sp >> o.uq);
  });
  set(OpKind::MinSI, [](const IntOperands &o) -> R { return std::min(o.sp, o.sq); });
  set(OpKind::MaxSI, [](const IntOperands &o) -> R { return std::max(o.sp, o.sq); });
  set(OpKind::DivUI, [](const IntOperands &o) -> R {
    if (o.bq == 0)
      return std::nullopt;
    return int64_t(o.bp / o.bq);
  });
  set(OpKind::RemUI, [](const IntOperands &o) -> R {
    if (o.bq == 0)
      return std::nullopt;
    return int64_t(o.bp % o.bq);
  });
  set(OpKind::ShRUI, [](const IntOperands &o) -> R {
    return o.bq >= uint64_t(o.bits) ? 0 : int64_t(o.bp >> o.bq);
  });
  set(OpKind::MinUI, [](const IntOperands &o) -> R { return int64_t(std::min(o.bp, o.bq)); });
  set(OpKind::MaxUI, [](const IntOperands &o) -> R { return int64_t(std::max(o.bp, o.bq)); });
  // The high half of the double-width unsigned product.
  set(OpKind::MulHiUI, [](const IntOperands &o) -> R {
    return int64_t(uint64_t((static_cast<unsigned __int128>(o.bp) * o.bq) >> o.bits));
  });
  return t;
}();
static_assert(coversCategory(kIntBinary, OpCategory::BinaryInt),
              "a BinaryInt op has no entry in kIntBinary");

} // namespace

std::optional<int64_t> evalIntBinary(OpKind op, int64_t p, int64_t q, ScalarKind k) {
  assert(kIntBinary[size_t(op)] && "not a BinaryInt op");
  const IntOperands o{bitWidth(k),
                      p,
                      q,
                      uint64_t(p),
                      uint64_t(q),
                      asUnsigned(p, k),
                      asUnsigned(q, k),
                      asSigned(p, k),
                      asSigned(q, k)};
  std::optional<int64_t> v = kIntBinary[size_t(op)](o);
  if (!v)
    return std::nullopt;
  return wrapInt(*v, k);
}

bool evalIntCompare(CmpPredicate pred, int64_t a, int64_t b, ScalarKind k) {
  const int64_t sa = asSigned(a, k), sb = asSigned(b, k);
  const uint64_t ua = asUnsigned(a, k), ub = asUnsigned(b, k);
  switch (pred) {
  case CmpPredicate::Eq:
    return sa == sb;
  case CmpPredicate::Ne:
    return sa != sb;
  case CmpPredicate::Slt:
    return sa < sb;
  case CmpPredicate::Sle:
    return sa <= sb;
  case CmpPredicate::Sgt:
    return sa > sb;
  case CmpPredicate::Sge:
    return sa >= sb;
  case CmpPredicate::Ult:
    return ua < ub;
  case CmpPredicate::Ule:
    return ua <= ub;
  case CmpPredicate::Ugt:
    return ua > ub;
  case CmpPredicate::Uge:
    return ua >= ub;
  default:
    assert(false && "a float predicate on integers");
    return false;
  }
}

} // namespace linlayout::ir
