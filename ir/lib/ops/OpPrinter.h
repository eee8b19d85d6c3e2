// What an op family's printing sees of the printer (Printer.cpp implements it), and the table
// that sends each op kind to its family's printing function (ir/lib/ops/<Family>.cpp).
#pragma once

#include "linlayout/ir/Module.h"

#include <array>
#include <ostream>
#include <string>
#include <vector>

namespace linlayout::ir {

/// The printer's naming services for the function being printed.
class OpPrinter {
public:
  /// A value's name (`%3`, `%x`) and its type's text.
  virtual std::string v(ValueId id) const = 0;
  virtual std::string t(ValueId id) const = 0;
  /// `%a, %b` for ids[from, to).
  virtual std::string list(const std::vector<ValueId> &ids, size_t from = 0,
                           size_t to = ~size_t(0)) const = 0;
  /// The function being printed.
  virtual const Function &function() const = 0;
  /// The ops of a nested block, indented for `depth`, and one op with its line end.
  virtual void printBlockOps(std::ostream &os, const Block &b, int depth) = 0;
  virtual void printOp(std::ostream &os, const Op &op, int depth) = 0;

  /// The type of the op's first result, or of operand i ("<none>" where it has none).
  std::string res(const Op &op) const {
    return op.results.empty() ? std::string("<none>") : t(op.results[0]);
  }
  std::string opnd(const Op &op, size_t i) const {
    return i < op.operands.size() ? t(op.operands[i]) : std::string("<none>");
  }

protected:
  ~OpPrinter() = default;
};

/// ` {tt.divisibility = dense<16> : tensor<1xi32>, ...}` for the value hints an op carries, or "".
std::string valueHints(const OpAttrs &a);

/// A float attribute as MLIR writes it (`1.5`, `2.0`, hex bits for non-finite values).
std::string formatFloat(double v, ScalarKind k);

/// An op family's printing: what follows the op's name, up to the end of its line.
using PrintOpFn = void (*)(OpPrinter &p, std::ostream &os, const Op &op, int depth);

#define LINLAYOUT_X(e, m, c, f) void print##f##Op(OpPrinter &, std::ostream &, const Op &, int);
LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X

/// Per op kind, its family's printing (a family file that lacks it fails to link).
inline constexpr std::array<PrintOpFn, kNumOpKinds> kPrintOp = {
#define LINLAYOUT_X(e, m, c, f) &print##f##Op,
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
};

} // namespace linlayout::ir
