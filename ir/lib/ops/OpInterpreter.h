// What an op family's interpretation sees of the interpreter (Interpreter.cpp implements it),
// the runtime value, and the table that sends each op kind to its family's interpretation
// (ir/lib/ops/<Family>.cpp). Interpreter.h states the semantics.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace linlayout::ir {

/// A runtime value: a scalar is a tensor of one element. Integers (and i1) live in `i`, floats
/// in `f`, pointers as (buffer, byte offset) in (`buf`, `i`); a memdesc is (allocation index,
/// element offset of its first element, one element stride per dim) in `i`: an allocation holds
/// its elements row-major, and a tile of a ring or a sub-view steps through them with the strides.
struct RtValue {
  std::vector<int64_t> i;
  std::vector<double> f;
  std::vector<uint32_t> buf;
};

/// Element e of an elementwise operand: a scalar operand stands for every element.
inline int64_t at(const std::vector<int64_t> &v, size_t e) { return v.size() == 1 ? v[0] : v[e]; }
inline double atf(const std::vector<double> &v, size_t e) { return v.size() == 1 ? v[0] : v[e]; }

/// An element's bytes in memory (as tt.store writes them), and back (as tt.load reads them,
/// appended to `out`).
void encodeElement(uint8_t *p, ScalarKind k, int64_t iv, double fv);
void decodeElement(const uint8_t *p, ScalarKind k, RtValue &out);

/// The value of the BinaryFloat op k on p and q, before rounding to the result type (the
/// combining step of float reductions and scans too).
double evalFloatBinary(OpKind k, double p, double q);

/// The interpreter's state for one program.
class OpInterpreter {
public:
  virtual const Function &function() const = 0;
  virtual const RtValue &val(ValueId v) const = 0;
  /// `op`'s error: its position, its mnemonic and the program's id, then `msg`.
  virtual Status err(const Op &op, const std::string &msg) const = 0;
  /// Sets the op's one result, checking the value hints it carries.
  virtual Status setResult(const Op &op, RtValue r) = 0;

  const Type &type(ValueId v) const { return function().type(v); }

protected:
  ~OpInterpreter() = default;
};

/// An op family's interpretation of one op: sets its results (ops with regions run them).
using InterpretOpFn = Status (*)(OpInterpreter &in, const Op &op);

#define LINLAYOUT_X(e, m, c, f) Status interpret##f##Op(OpInterpreter &, const Op &);
LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X

/// Per op kind, its family's interpretation (a family file that lacks it fails to link).
inline constexpr std::array<InterpretOpFn, kNumOpKinds> kInterpretOp = {
#define LINLAYOUT_X(e, m, c, f) &interpret##f##Op,
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
};

} // namespace linlayout::ir
