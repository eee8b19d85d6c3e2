// What an op family's parsing sees of the parser (Parser.cpp implements it), and the table that
// sends each op kind to its family's parsing function (ir/lib/ops/<Family>.cpp).
#pragma once

#include "linlayout/ir/Module.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout::ir {

/// The parser's reading services. Each returns false after recording the first error (the
/// caller returns false too); the recorded message names the file, line and column.
class OpParser {
public:
  virtual bool fail(std::string message) = 0;
  virtual bool failAt(Loc loc, std::string message) = 0;
  /// The current token: its position, its text for messages, and whether it is `p` / `s`.
  virtual Loc loc() const = 0;
  virtual std::string describeToken() const = 0;
  virtual bool isPunct(std::string_view p) const = 0;
  virtual bool isIdent(std::string_view s) const = 0;
  /// The current token's text if it is an identifier (a keyword, a predicate, a name).
  virtual std::optional<std::string_view> peekIdent() const = 0;
  virtual void advance() = 0;
  virtual bool expectPunct(std::string_view p, std::string_view context) = 0;
  virtual bool expectIdent(std::string_view s, std::string_view context) = 0;
  /// Up to `max` comma-separated operand names, looked up.
  virtual bool parseOperands(std::vector<ValueId> &out, size_t max, bool allowTokens) = 0;
  /// An optional `{tt.divisibility = ..., ...}` of value hints (other entries skipped).
  virtual bool parseOptionalHints(OpAttrs &a) = 0;
  virtual bool parseType(Type &out, bool bareMemDesc) = 0;
  /// Whether `v` has the type `written` (at `loc`).
  virtual bool checkType(ValueId v, const Type &written, Loc loc) = 0;
  /// A type that must be `v`'s, or each one's of `vs`.
  virtual bool parseTypeOf(ValueId v, Type &t) = 0;
  virtual bool parseTypeOfAll(const std::vector<ValueId> &vs, Type &t) = 0;

protected:
  ~OpParser() = default;
};

/// An op family's parsing: reads what follows the op's name into `op` (operands, attributes)
/// and appends its result types to `results`; `depth` is the nesting of the op's block.
using ParseOpFn = bool (*)(OpParser &p, Op &op, std::vector<Type> &results, int depth);

#define LINLAYOUT_X(e, m, c, f) bool parse##f##Op(OpParser &, Op &, std::vector<Type> &, int);
LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X

/// Per op kind, its family's parsing (a family file that lacks it fails to link).
inline constexpr std::array<ParseOpFn, kNumOpKinds> kParseOp = {
#define LINLAYOUT_X(e, m, c, f) &parse##f##Op,
    LINLAYOUT_IR_OPS(LINLAYOUT_X)
#undef LINLAYOUT_X
};

} // namespace linlayout::ir
