#include "IntArith.h"

#include <algorithm>

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

std::optional<int64_t> evalIntBinary(OpKind op, int64_t p, int64_t q, ScalarKind k) {
  const int bits = bitWidth(k);
  const uint64_t up = uint64_t(p), uq = uint64_t(q);
  const uint64_t bp = asUnsigned(p, k), bq = asUnsigned(q, k);
  const int64_t sp = asSigned(p, k), sq = asSigned(q, k);
  int64_t v = 0;
  switch (op) {
  case OpKind::AddI:
    v = int64_t(up + uq);
    break;
  case OpKind::SubI:
    v = int64_t(up - uq);
    break;
  case OpKind::MulI:
    v = int64_t(up * uq);
    break;
  case OpKind::DivSI:
  case OpKind::RemSI:
    if (sq == 0)
      return std::nullopt;
    if (sq == -1)
      v = op == OpKind::DivSI ? int64_t(0 - uint64_t(sp)) : 0;
    else
      v = op == OpKind::DivSI ? sp / sq : sp % sq;
    break;
  case OpKind::AndI:
    v = p & q;
    break;
  case OpKind::OrI:
    v = p | q;
    break;
  case OpKind::XOrI:
    v = p ^ q;
    break;
  case OpKind::ShLI:
    v = uq >= uint64_t(bits) ? 0 : int64_t(up << uq);
    break;
  case OpKind::ShRSI:
    v = uq >= uint64_t(bits) ? (sp < 0 ? -1 : 0) : (sp >> uq);
    break;
  case OpKind::MinSI:
    v = std::min(sp, sq);
    break;
  case OpKind::MaxSI:
    v = std::max(sp, sq);
    break;
  case OpKind::DivUI:
  case OpKind::RemUI:
    if (bq == 0)
      return std::nullopt;
    v = int64_t(op == OpKind::DivUI ? bp / bq : bp % bq);
    break;
  case OpKind::ShRUI:
    v = bq >= uint64_t(bits) ? 0 : int64_t(bp >> bq);
    break;
  case OpKind::MinUI:
    v = int64_t(std::min(bp, bq));
    break;
  case OpKind::MaxUI:
    v = int64_t(std::max(bp, bq));
    break;
  case OpKind::MulHiUI: // the high half of the double-width unsigned product
    v = int64_t(uint64_t((static_cast<unsigned __int128>(bp) * bq) >> bits));
    break;
  default:
    break;
  }
  return wrapInt(v, k);
}

} // namespace linlayout::ir
