// Integer elements as the IR defines them, for the interpreter (which computes them) and axis
// info (which folds constants with them): a value of an integer type of N bits is kept as an
// int64_t holding the sign-extended N-bit pattern.
#pragma once

#include "linlayout/ir/OpKind.h"
#include "linlayout/ir/Type.h"

#include <cstdint>
#include <optional>

namespace linlayout::ir {

/// The element of kind k that `v`'s low bits make (i1: 0 or 1; others sign-extended).
int64_t wrapInt(int64_t v, ScalarKind k);

/// The bits of an element of kind k read as an unsigned number.
uint64_t asUnsigned(int64_t v, ScalarKind k);

/// The bits of an element of kind k read as a signed number: v itself, except that an i1 of 1
/// is -1 (as LLVM reads i1 for sext, sitofp and the signed ops).
int64_t asSigned(int64_t v, ScalarKind k);

/// The result of the BinaryInt op `op` on elements a and b of kind k, wrapped to k: additions
/// and products wrap, shifts by the width or more give 0 (or the sign, for shrsi), the u-ops read
/// the bits as unsigned, the minimum divided by -1 is itself. nullopt for a division or
/// remainder by zero.
std::optional<int64_t> evalIntBinary(OpKind op, int64_t a, int64_t b, ScalarKind k);

/// cmpi's predicate on elements a and b of kind k: the s-predicates read the bits as signed, the
/// u-predicates as unsigned. Requires: an integer predicate (the verifier keeps float ones off
/// cmpi).
bool evalIntCompare(CmpPredicate pred, int64_t a, int64_t b, ScalarKind k);

} // namespace linlayout::ir
