#include "linlayout/ir/OpKind.h"

#include <array>

namespace linlayout::ir {

namespace {
struct OpInfo {
  std::string_view mnemonic;
};
constexpr std::array<OpInfo, kNumOpKinds> kOps = {{
#define LINLAYOUT_X(e, m, c, f) {m},
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
}};

constexpr std::array<std::string_view, 17> kPredicates = {"eq",  "ne",  "slt", "sle", "sgt", "sge",
                                                          "ult", "ule", "ugt", "uge", "oeq", "one",
                                                          "olt", "ole", "ogt", "oge", "une"};
constexpr std::array<std::string_view, 8> kReduceKinds = {"sum",    "max",  "min",  "maxnum",
                                                          "minnum", "umax", "umin", "prod"};
constexpr std::array<std::string_view, 10> kAtomicKinds = {"and", "or",  "xor",  "add",  "fadd",
                                                           "max", "min", "umax", "umin", "exch"};
constexpr std::array<std::string_view, 4> kSemantics = {"relaxed", "acquire", "release", "acq_rel"};
constexpr std::array<std::string_view, 3> kScopes = {"gpu", "cta", "sys"};

template <typename E, size_t N>
std::optional<E> fromName(const std::array<std::string_view, N> &names, std::string_view text) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == text)
      return E(i);
  return std::nullopt;
}
} // namespace

std::string_view mnemonic(OpKind k) { return kOps[size_t(k)].mnemonic; }

std::optional<OpKind> opKindFromMnemonic(std::string_view text) {
  for (size_t i = 0; i < kOps.size(); ++i)
    if (kOps[i].mnemonic == text)
      return OpKind(i);
  return std::nullopt;
}

bool hasSideEffects(OpKind k) {
  switch (category(k)) {
  case OpCategory::Source:
  case OpCategory::Shape:
  case OpCategory::BinaryInt:
  case OpCategory::BinaryFloat:
  case OpCategory::UnaryFloat:
  case OpCategory::Compare:
  case OpCategory::Select:
  case OpCategory::Cast:
  case OpCategory::Layout:
    return false; // results from operands and attributes only
  case OpCategory::Structure:
  case OpCategory::Memory:
  case OpCategory::Shared:
  case OpCategory::Compute:
  case OpCategory::Sync:
    // Pure only where listed, so that a new op of these categories (one that stores, say) is
    // kept by dead-op elimination until it is classified here. scf.if is kept: its branches
    // may store.
    return !(k == OpKind::CombineReturn || k == OpKind::AddPtr || k == OpKind::Load ||
             k == OpKind::LocalLoad || k == OpKind::MemDescIndex || k == OpKind::MemDescSubslice ||
             k == OpKind::MemDescTrans || k == OpKind::Dot || k == OpKind::Reduce ||
             k == OpKind::Scan || k == OpKind::WarpGroupDot || k == OpKind::WarpGroupDotWait);
  }
  return true;
}

std::string_view name(CmpPredicate p) { return kPredicates[size_t(p)]; }

std::optional<CmpPredicate> cmpPredicateFromName(std::string_view text) {
  for (size_t i = 0; i < kPredicates.size(); ++i)
    if (kPredicates[i] == text)
      return CmpPredicate(i);
  return std::nullopt;
}

bool isFloatPredicate(CmpPredicate p) { return p >= CmpPredicate::Oeq; }

bool isCopyGroupOp(OpKind k) {
  return k == OpKind::AsyncCopyGlobalToLocal || k == OpKind::AsyncCommitGroup ||
         k == OpKind::AsyncWait;
}

std::string_view name(ReduceKind k) { return kReduceKinds[size_t(k)]; }

std::string_view name(AtomicKind k) { return kAtomicKinds[size_t(k)]; }
std::optional<AtomicKind> atomicKindFromName(std::string_view text) {
  return fromName<AtomicKind>(kAtomicKinds, text);
}
size_t atomicValueOperands(OpKind k) { return k == OpKind::AtomicCAS ? 2 : 1; }
std::string_view name(MemSemantic s) { return kSemantics[size_t(s)]; }
std::optional<MemSemantic> memSemanticFromName(std::string_view text) {
  return fromName<MemSemantic>(kSemantics, text);
}
std::string_view name(MemScope s) { return kScopes[size_t(s)]; }
std::optional<MemScope> memScopeFromName(std::string_view text) {
  return fromName<MemScope>(kScopes, text);
}

std::optional<ReduceKind> reduceKindFromName(std::string_view text) {
  return fromName<ReduceKind>(kReduceKinds, text);
}

namespace {
// Per ReduceKind: its float combiner and its integer one (AddF standing for "none" where the
// kind has no combiner of that type).
constexpr std::array<std::pair<OpKind, OpKind>, 8> kCombiners = {{{OpKind::AddF, OpKind::AddI},
                                                                  {OpKind::MaxF, OpKind::MaxSI},
                                                                  {OpKind::MinF, OpKind::MinSI},
                                                                  {OpKind::MaxNumF, OpKind::AddF},
                                                                  {OpKind::MinNumF, OpKind::AddF},
                                                                  {OpKind::AddI, OpKind::MaxUI},
                                                                  {OpKind::AddI, OpKind::MinUI},
                                                                  {OpKind::MulF, OpKind::MulI}}};
} // namespace

std::optional<OpKind> combinerOf(ReduceKind k, bool isFloat) {
  auto [f, i] = kCombiners[size_t(k)];
  OpKind c = isFloat ? f : i;
  if (category(c) != (isFloat ? OpCategory::BinaryFloat : OpCategory::BinaryInt))
    return std::nullopt;
  return c;
}

std::optional<ReduceKind> reduceKindOfCombiner(OpKind combiner) {
  for (size_t k = 0; k < kCombiners.size(); ++k)
    for (bool isFloat : {true, false})
      if (combinerOf(ReduceKind(k), isFloat) == combiner)
        return ReduceKind(k);
  return std::nullopt;
}

} // namespace linlayout::ir
