// The reading helpers every op family's parsing shares: tokens, numbers, attribute dictionaries
// and the written types of operands.
#include "OpParser.h"

#include <algorithm>
#include <cctype>

namespace linlayout::ir {

bool OpParser::failAt(Loc loc, std::string message) {
  if (!error_)
    error_ =
        file_ + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": " + message;
  return false;
}

bool OpParser::expectPunct(std::string_view p, std::string_view context) {
  if (!isPunct(p))
    return fail("expected '" + std::string(p) + "' " + std::string(context) + ", got " +
                describe(tok_));
  advance();
  return true;
}

bool OpParser::expectIdent(std::string_view s, std::string_view context) {
  if (!isIdent(s))
    return fail("expected '" + std::string(s) + "' " + std::string(context) + ", got " +
                describe(tok_));
  advance();
  return true;
}

std::optional<int64_t> OpParser::toInt(std::string_view t) {
  bool neg = !t.empty() && t[0] == '-';
  if (neg)
    t.remove_prefix(1);
  uint64_t x = 0;
  if (t.substr(0, 2) == "0x") {
    t.remove_prefix(2);
    if (t.empty() || t.size() > 16)
      return std::nullopt;
    for (char c : t)
      x = x * 16 + uint64_t(std::isdigit(static_cast<unsigned char>(c))
                                ? c - '0'
                                : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
    return neg ? -int64_t(x) : int64_t(x);
  }
  if (t.empty() || t.size() > 18)
    return std::nullopt;
  for (char c : t)
    x = x * 10 + uint64_t(c - '0');
  return neg ? -int64_t(x) : int64_t(x);
}

bool OpParser::parseInt(int64_t &out, std::string_view what) {
  if (tok_.kind != Tok::Integer)
    return fail("expected " + std::string(what) + ", got " + describe(tok_));
  auto v = toInt(tok_.text);
  if (!v)
    return fail(std::string(what) + " " + describe(tok_) + " is out of range");
  out = *v;
  advance();
  return true;
}

// An optional attribute dictionary whose entries this op does not keep (fastmath and the like).
bool OpParser::skipOptionalDict() {
  if (!isPunct("{"))
    return true;
  Dict d;
  return parseDict(d);
}

// The type after a dictionary value's ':' (`i32`, `tensor<2xi32>`), which no op keeps.
bool OpParser::skipType() {
  if (tok_.kind != Tok::Ident)
    return fail("expected a type, got " + describe(tok_));
  advance();
  if (!isPunct("<"))
    return true;
  for (int depth = 0;;) {
    if (tok_.kind == Tok::End)
      return fail("unterminated type");
    depth += isPunct("<") ? 1 : isPunct(">") ? -1 : 0;
    advance();
    if (depth == 0)
      return true;
  }
}

// An optional attribute dictionary of an integer op or addptr: Triton's value hints
// (tt.divisibility, tt.contiguity, tt.constancy: `dense<16>` for every dimension or
// `dense<[16, 1]>`, powers of two in 1..2^30); other entries (fastmath and the like) are
// skipped. The verifier checks the count against the result's rank.
bool OpParser::parseOptionalHints(OpAttrs &a) {
  if (!isPunct("{"))
    return true;
  Loc at = tok_.loc;
  Dict d;
  if (!parseDict(d))
    return false;
  for (auto [key, member] : kValueHints) {
    auto it = d.find(key);
    if (it == d.end())
      continue;
    const DictValue &v = it->second;
    std::vector<int64_t> &out = a.*member;
    if (v.kind == DictValue::Int)
      out = {v.i};
    else if (v.kind == DictValue::Array && !v.array.empty())
      out = v.array;
    else
      return failAt(v.loc, std::string(key) + " must be an integer or dense<...> of them");
    for (int64_t x : out)
      if (!isHintValue(x))
        return failAt(at, std::string(key) + " hint " + std::to_string(x) +
                              " must be a power of two in 1..2^30");
  }
  return true;
}

// An optional `{ll.vec = N}` of a global or async access: the vector width lower/ must use;
// with `slotFree` (a cp.async), also `ll.slot_free = true|false`.
bool OpParser::parseOptionalVectorWidth(OpAttrs &a, bool slotFree) {
  if (!isPunct("{"))
    return true;
  Dict d;
  if (!parseDict(d) || !dictInt(d, "ll.vec", a.vectorWidth, false))
    return false;
  if (a.vectorWidth < 0 || a.vectorWidth > 64)
    return fail("ll.vec must be in 0..64");
  if (auto it = d.find("ll.slot_free"); slotFree && it != d.end()) {
    if (it->second.kind != DictValue::Bool)
      return failAt(it->second.loc, "ll.slot_free must be true or false");
    a.slotFree = it->second.i != 0;
  }
  return true;
}

// `{key = value, ...}` where a value is an integer or float (optionally `: type`), true/false,
// a string, or `array<i32: 1, 0>`.
bool OpParser::parseDict(Dict &out) {
  if (!expectPunct("{", "to open an attribute dictionary"))
    return false;
  if (isPunct("}")) {
    advance();
    return true;
  }
  while (true) {
    std::string key;
    if (tok_.kind == Tok::Ident || tok_.kind == Tok::String)
      key = std::string(tok_.text);
    else
      return fail("expected an attribute name, got " + describe(tok_));
    advance();
    DictValue v;
    if (isPunct("=")) {
      advance();
      v.loc = tok_.loc;
      if (!parseDictValue(v))
        return false;
    } else {
      v.kind = DictValue::Bool; // a unit attribute
      v.i = 1;
    }
    if (out.size() > 64)
      return fail("too many attributes");
    out[key] = std::move(v);
    if (isPunct(",")) {
      advance();
      continue;
    }
    return expectPunct("}", "or ',' in an attribute dictionary");
  }
}

// Integers separated by ',' (with `many`; else one) into `out`, at most 64.
bool OpParser::parseIntList(std::vector<int64_t> &out, std::string_view what, bool many) {
  while (true) {
    int64_t x;
    if (!parseInt(x, what))
      return false;
    if (out.size() >= 64)
      return fail("more than 64 elements in a list of " + std::string(what) + "s");
    out.push_back(x);
    if (!many || !isPunct(","))
      return true;
    advance();
  }
}

bool OpParser::parseDictValue(DictValue &v) {
  if (tok_.kind == Tok::Integer || tok_.kind == Tok::Float) {
    if (tok_.kind == Tok::Integer) {
      auto x = toInt(tok_.text);
      if (!x)
        return fail("integer " + describe(tok_) + " is out of range");
      v.kind = DictValue::Int;
      v.i = *x;
    } else {
      v.kind = DictValue::Float;
      v.f = std::strtod(std::string(tok_.text).c_str(), nullptr);
    }
    advance();
    if (isPunct(":")) {
      advance();
      if (tok_.kind != Tok::Ident)
        return fail("expected a type after ':', got " + describe(tok_));
      advance();
    }
    return true;
  }
  if (isIdent("true") || isIdent("false")) {
    v.kind = DictValue::Bool;
    v.i = isIdent("true");
    advance();
    return true;
  }
  if (tok_.kind == Tok::String) {
    v.kind = DictValue::String;
    v.s = std::string(tok_.text);
    advance();
    return true;
  }
  if (isIdent("dense")) { // dense<16> or dense<[16, 1]>, optionally `: tensor<...>`
    advance();
    if (!expectPunct("<", "after 'dense'"))
      return false;
    v.kind = DictValue::Array;
    bool list = isPunct("[");
    if (list)
      advance();
    if (!parseIntList(v.array, "a dense element", list))
      return false;
    if ((list && !expectPunct("]", "to close the dense list")) ||
        !expectPunct(">", "to close dense<...>"))
      return false;
    if (isPunct(":")) {
      advance();
      return skipType();
    }
    return true;
  }
  if (isIdent("array")) {
    advance();
    if (!expectPunct("<", "after 'array'"))
      return false;
    if (tok_.kind != Tok::Ident)
      return fail("expected an element type in array<...>, got " + describe(tok_));
    advance();
    v.kind = DictValue::Array;
    if (isPunct(":")) {
      advance();
      if (!parseIntList(v.array, "an array element", true))
        return false;
    }
    return expectPunct(">", "to close array<...>");
  }
  return fail("expected an attribute value, got " + describe(tok_));
}

// A scan's optional `reverse = true / false` (1 / 0).
bool OpParser::dictReverse(const Dict &d, OpAttrs &a) {
  int64_t reverse = 0;
  if (!dictInt(d, "reverse", reverse, false))
    return false;
  if (reverse != 0 && reverse != 1)
    return fail("attribute 'reverse' must be true or false");
  a.reverse = reverse == 1;
  return true;
}

bool OpParser::dictInt(const Dict &d, std::string_view key, int64_t &out, bool required) {
  auto it = d.find(key);
  if (it == d.end()) {
    if (required)
      return fail("missing attribute '" + std::string(key) + "'");
    return true;
  }
  if (it->second.kind != DictValue::Int && it->second.kind != DictValue::Bool)
    return failAt(it->second.loc, "attribute '" + std::string(key) + "' must be an integer");
  out = it->second.i;
  return true;
}

// One value that must be an async token.
bool OpParser::parseToken() {
  Token at = tok_;
  ValueId v;
  if (!lookupValue(v, /*allowToken=*/true))
    return false;
  if (v != kAsyncToken)
    return failAt(at.loc, "expected an async token, got " + describe(at));
  return true;
}

// Async tokens separated by commas (none where no value follows).
bool OpParser::parseTokens() {
  while (tok_.kind == Tok::Value) {
    if (!parseToken())
      return false;
    if (!isPunct(","))
      break;
    advance();
  }
  return true;
}

// Parses the type written for operand `v` and checks that it is `v`'s type.
bool OpParser::parseTypeOf(ValueId v, Type &t) {
  Loc loc = tok_.loc;
  return parseType(t) && checkType(v, t, loc);
}

// Parses one type written for all of `vs` and checks that it is each one's type.
bool OpParser::parseTypeOfAll(const std::vector<ValueId> &vs, Type &t) {
  Loc loc = tok_.loc;
  if (!parseType(t))
    return false;
  for (ValueId v : vs)
    if (!checkType(v, t, loc))
      return false;
  return true;
}

// The types of tt.dot and ttng.warp_group_dot, `: A * B -> C`; the result has C's type.
bool OpParser::parseDotTypes(const Op &op, std::vector<Type> &results) {
  Type a, b, c;
  if (!expectPunct(":", "before the operand types") || !parseTypeOf(op.operands[0], a) ||
      !expectPunct("*", "between the A and B types") || !parseTypeOf(op.operands[1], b) ||
      !expectPunct("->", "before the result type") || !parseTypeOf(op.operands[2], c))
    return false;
  results.push_back(c);
  return true;
}

// One written type per operand of `op`, separated by commas; each must be its operand's.
bool OpParser::operandTypes(const Op &op, std::string_view what) {
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (i && !expectPunct(",", "between " + std::string(what)))
      return false;
    Loc loc = tok_.loc;
    Type t;
    if (!parseType(t) || !checkType(op.operands[i], t, loc))
      return false;
  }
  return true;
}

// ": (T, ...) -> R": the operands' types in parentheses, each checked against its operand, then
// the result type.
bool OpParser::operandTypesThenResult(const Op &op, std::vector<Type> &results) {
  Type r;
  if (!expectPunct(":", "before the types") || !expectPunct("(", "to open the operand types") ||
      !operandTypes(op, "operand types") || !expectPunct(")", "to close the operand types") ||
      !expectPunct("->", "before the result type") || !parseType(r))
    return false;
  results.push_back(r);
  return true;
}

bool OpParser::typeThenResult(const Op &op, std::vector<Type> &results, std::string_view colon,
                              std::string_view arrow) {
  Type t, r;
  if (!expectPunct(":", colon) || !parseTypeOf(op.operands[0], t) || !expectPunct("->", arrow) ||
      !parseType(r))
    return false;
  results.push_back(r);
  return true;
}

bool OpParser::typeAfterColon(Type &t) {
  if (!expectPunct(":", "before the type"))
    return false;
  return parseType(t);
}

bool OpParser::parseOperand(Op &op) {
  ValueId v;
  if (!lookupValue(v))
    return false;
  op.operands.push_back(v);
  return true;
}

bool OpParser::parseOperandsExactly(Op &op, size_t n, std::string_view what) {
  if (!parseOperands(op.operands, n))
    return false;
  if (op.operands.size() != n)
    return fail(std::string(mnemonic(op.kind)) + " takes " + std::string(what));
  return true;
}

// Splat, broadcast, reshape, convert_layout, expand_dims and trans (Shape.cpp), local_load and
// memdesc_trans (Shared.cpp) share one syntax: the operand, the op's attributes, `: T -> U`.
bool parseOneOperandOp(OpParser &p, Op &op, std::vector<Type> &results) {
  OpAttrs &a = op.attrs;
  if (!p.parseOperandsExactly(op, 1, "one operand"))
    return false;
  if (op.kind == OpKind::LocalLoad && p.isIdent("token")) { // Triton's `token %t`
    p.advance();
    if (!p.parseToken())
      return false;
  }
  const bool permutes = op.kind == OpKind::Trans || op.kind == OpKind::MemDescTrans;
  if (op.kind == OpKind::ExpandDims || permutes) {
    Dict d;
    if (!p.parseDict(d))
      return false;
    if (op.kind == OpKind::ExpandDims && !p.dictInt(d, "axis", a.axis, true))
      return false;
    if (permutes) {
      auto it = d.find("order");
      if (it == d.end() || it->second.kind != DictValue::Array)
        return p.fail(std::string(mnemonic(op.kind)) +
                      " needs an attribute 'order = array<i32: ...>'");
      for (int64_t x : it->second.array)
        a.order.push_back(int32_t(std::max<int64_t>(-1, std::min<int64_t>(x, 1 << 20))));
    }
  }
  return p.typeThenResult(op, results, "before the operand type",
                          "between the operand and result types");
}

} // namespace linlayout::ir
