// What an op family's parsing sees of the parser: the token stream with its reading helpers
// (OpParser.cpp) and the parser's names, types and regions (Parser.cpp implements those), and the
// table that sends each op kind to its family's parsing function (ir/lib/ops/<Family>.cpp).
#pragma once

#include "../Lexer.h"
#include "linlayout/ir/Module.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout::ir {

/// One value of an attribute dictionary `{key = value, ...}`.
struct DictValue {
  enum Kind { Int, Bool, Float, String, Array } kind = Int;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<int64_t> array;
  Loc loc;
};
using Dict = std::map<std::string, DictValue, std::less<>>;

/// The parser's reading services. Each returns false after recording the first error (the
/// caller returns false too); the recorded message names the file, line and column.
class OpParser {
public:
  // ---- tokens and errors ----
  /// The current token: its position, its text for messages, and whether it is `p` / `s`.
  const Token &token() const { return tok_; }
  Loc loc() const { return tok_.loc; }
  std::string describeToken() const { return describe(tok_); }
  bool isPunct(std::string_view p) const { return tok_.kind == Tok::Punct && tok_.text == p; }
  bool isIdent(std::string_view s) const { return tok_.kind == Tok::Ident && tok_.text == s; }
  /// The current token's text if it is an identifier (a keyword, a predicate, a name).
  std::optional<std::string_view> peekIdent() const {
    return tok_.kind == Tok::Ident ? std::optional(tok_.text) : std::nullopt;
  }
  void advance() { tok_ = lex_.next(); }
  bool fail(std::string message) { return failAt(tok_.loc, std::move(message)); }
  bool failAt(Loc loc, std::string message);
  bool expectPunct(std::string_view p, std::string_view context);
  bool expectIdent(std::string_view s, std::string_view context);

  // ---- numbers and attributes ----
  /// A decimal or 0x integer's value, or nullopt where it does not fit in 64 bits.
  static std::optional<int64_t> toInt(std::string_view t);
  bool parseInt(int64_t &out, std::string_view what);
  /// Integers separated by ',' (with `many`; else one) into `out`, at most 64.
  bool parseIntList(std::vector<int64_t> &out, std::string_view what, bool many);
  /// `{key = value, ...}` where a value is an integer or float (optionally `: type`),
  /// true/false, a string, `dense<...>` or `array<i32: 1, 0>`.
  bool parseDict(Dict &out);
  /// An optional attribute dictionary whose entries the op does not keep (fastmath and the like).
  bool skipOptionalDict();
  bool dictInt(const Dict &d, std::string_view key, int64_t &out, bool required);
  /// A scan's optional `reverse = true / false`.
  bool dictReverse(const Dict &d, OpAttrs &a);
  /// An optional `{tt.divisibility = ..., ...}` of value hints (other entries skipped).
  bool parseOptionalHints(OpAttrs &a);
  /// An optional `{ll.vec = N}` of a global or async access: the vector width lower/ must use;
  /// with `slotFree` (a cp.async), also `ll.slot_free = true|false`.
  bool parseOptionalVectorWidth(OpAttrs &a, bool slotFree = false);
  /// A keyword naming one value of an enum (`fromName` gives it or nullopt), into `out`.
  template <typename E, typename FromName>
  bool parseName(FromName fromName, std::string_view expected, E &out) {
    std::optional<E> v = tok_.kind == Tok::Ident ? fromName(tok_.text) : std::nullopt;
    if (!v)
      return fail("expected " + std::string(expected) + ", got " + describe(tok_));
    out = *v;
    advance();
    return true;
  }

  // ---- values and types (the parser's names) ----
  /// Triton's async tokens (!ttg.async.token) order its async copies, waits and the loads after
  /// them. Here the program orders those ops, so a token carries nothing: the parser reads
  /// tokens where Triton writes them (results of ttg.async_copy_global_to_local,
  /// async_commit_group and async_wait; their operands; `token %t` of a local_load;
  /// loop-carried values) and drops them. This id stands for one while it is read.
  static constexpr ValueId kAsyncToken = kNoValue - 1;
  /// A value name, looked up; `allowToken`: it may be an async token.
  virtual bool lookupValue(ValueId &out, bool allowToken = false) = 0;
  /// Up to `max` comma-separated operand names, looked up.
  virtual bool parseOperands(std::vector<ValueId> &out, size_t max, bool allowTokens = false) = 0;
  /// One operand name, appended to the op's operands.
  bool parseOperand(Op &op);
  /// Comma-separated operand names into `op`, exactly `n` of them (else the error
  /// `<mnemonic> takes <what>`).
  bool parseOperandsExactly(Op &op, size_t n, std::string_view what);
  /// One value that must be an async token, and tokens separated by commas (none where no value
  /// follows); whether the current token is the type `!ttg.async.token`.
  bool parseToken();
  bool parseTokens();
  bool isTokenType() const { return tok_.kind == Tok::Bang && tok_.text == "ttg.async.token"; }
  virtual bool parseType(Type &out, bool bareMemDesc = false) = 0;
  /// Whether `v` has the type `written` (at `loc`).
  virtual bool checkType(ValueId v, const Type &written, Loc loc) = 0;
  /// A type that must be `v`'s, or each one's of `vs`.
  bool parseTypeOf(ValueId v, Type &t);
  bool parseTypeOfAll(const std::vector<ValueId> &vs, Type &t);
  /// `: T`.
  bool typeAfterColon(Type &t);
  /// One written type per operand of `op`, separated by commas; each must be its operand's.
  bool operandTypes(const Op &op, std::string_view what);
  /// `: (T, ...) -> R`: the operands' types, each checked, then the result type, appended to
  /// `results`.
  bool operandTypesThenResult(const Op &op, std::vector<Type> &results);
  /// `: T -> R`: operand 0's type, checked, then the result type, appended to `results`.
  /// `colon` and `arrow` say where the errors expected the `:` and the `->`.
  bool typeThenResult(const Op &op, std::vector<Type> &results,
                      std::string_view colon = "before the operand type",
                      std::string_view arrow = "before the result type");
  /// The types of tt.dot and ttng.warp_group_dot, `: A * B -> C`; the result has C's type.
  bool parseDotTypes(const Op &op, std::vector<Type> &results);

  // ---- regions ----
  /// A new value of the function being parsed, and a value's type.
  virtual ValueId addValue(const Type &t, std::string name) = 0;
  virtual const Type &valueType(ValueId v) const = 0;
  /// Binds a name to values (an error where it is taken). A region's names (its arguments' and
  /// its ops') are seen only inside it, as in MLIR: another region may use them again.
  virtual bool define(std::string_view name, Loc loc, std::vector<ValueId> ids) = 0;
  virtual void openRegion() = 0;
  virtual void closeRegion() = 0;
  /// Ops up to (not including) the closing '}'; `depth` is their nesting.
  virtual bool parseBlockOps(Block &b, int depth) = 0;
  /// The terminators the combining bodies being parsed end with (tt.reduce.return /
  /// tt.scan.return), innermost last.
  std::vector<std::string> &combineReturns() { return combineReturns_; }
  /// The positions of the async tokens among the results of the op being parsed (the driver
  /// gives them no values), and those the last scf.yield dropped from its operands.
  std::vector<size_t> &tokenResults() { return tokenResults_; }
  std::vector<size_t> &yieldedTokens() { return yieldedTokens_; }

protected:
  OpParser(std::string_view text, std::string fileName)
      : lex_(text), tok_(lex_.next()), file_(std::move(fileName)) {}
  ~OpParser() = default;

  bool parseDictValue(DictValue &v);
  bool skipType();

  Lexer lex_;
  Token tok_;
  std::string file_;
  std::optional<std::string> error_;
  std::vector<std::string> combineReturns_;
  std::vector<size_t> tokenResults_;
  std::vector<size_t> yieldedTokens_;
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

/// `op %x [{attributes}] : T -> U`: the syntax of the ops with one operand and one result of
/// Shape.cpp and of ttg.local_load (`token %t` after its operand) and ttg.memdesc_trans.
bool parseOneOperandOp(OpParser &p, Op &op, std::vector<Type> &results);

/// MLIR's generic form of tt.reduce and tt.scan (their combining bodies are regions), after the
/// quoted name (Compute.cpp).
bool parseGenericCombine(OpParser &p, Op &op, std::vector<Type> &results, int depth);

} // namespace linlayout::ir
