// What an op family's verification sees of the verifier (Verifier.cpp implements it), and the
// table that sends each op kind to its family's check (ir/lib/ops/<Family>.cpp).
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

#include <array>
#include <optional>
#include <string>

namespace linlayout::ir {

/// The verifier's services for the function being checked. The driver has already checked that
/// every operand is defined before its use; a family checks counts before it reads types.
class OpVerifier {
public:
  /// `op`'s error: its position and mnemonic, then `msg`.
  virtual Status err(const Op *op, const std::string &msg) const = 0;
  /// Whether `op` has minOps..maxOps operands and `results` results (an error if not).
  virtual Status counts(const Op &op, size_t minOps, size_t maxOps, size_t results) = 0;
  /// A cast's shape: one operand, one result, same shape and layout, no memdesc or pointers.
  virtual Status checkElementCast(const Op &op) = 0;
  virtual const Module &module() const = 0;
  virtual const Function &function() const = 0;
  /// A type's text for messages.
  virtual std::string ty(const Type &t) const = 0;

  const Type &type(ValueId v) const { return function().type(v); }
  std::string ty(ValueId v) const { return ty(type(v)); }
  /// The type of `op`'s operand i, and of its result i (a family checks the counts first).
  const Type &operandType(const Op &op, size_t i) const { return type(op.operands[i]); }
  const Type &resultType(const Op &op, size_t i = 0) const { return type(op.results[i]); }

protected:
  ~OpVerifier() = default;
};

/// Whether a and b are both scalars, or tensors of one shape and layout.
bool sameShapeAndLayout(const Type &a, const Type &b);
/// Whether a (checked) memdesc has leading buffer dims (a ring) its layout does not cover.
bool hasBufferDims(const OpVerifier &v, const Type &t);
/// tt.trans and ttg.memdesc_trans: `order` names each of the operand's `rank` dims once.
Status checkPermutation(const OpVerifier &v, const Op &op, int rank);
/// The slice along `axis` of layout `parent`, or nullopt where it has none.
std::optional<LayoutSpec> sliceOf(const OpVerifier &v, LayoutId parent, int64_t axis);

/// An op family's checks of one op (its regions are the driver's).
using VerifyOpFn = Status (*)(OpVerifier &v, const Op &op);

#define LINLAYOUT_X(e, m, c, f) Status verify##f##Op(OpVerifier &, const Op &);
LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X

/// Per op kind, its family's checks (a family file that lacks them fails to link).
inline constexpr std::array<VerifyOpFn, kNumOpKinds> kVerifyOp = {
#define LINLAYOUT_X(e, m, c, f) &verify##f##Op,
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
};

} // namespace linlayout::ir
