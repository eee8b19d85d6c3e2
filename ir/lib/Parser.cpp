#include "linlayout/ir/Parser.h"

#include "LayoutSyntax.h"
#include "linlayout/ir/Printer.h"
#include "ops/OpParser.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace linlayout::ir {

namespace {

enum class Tok {
  End,
  Ident,   // arith.addi, tensor, x64xf16, true
  Value,   // %name or %name#3 (text without '%')
  Symbol,  // @name (text without '@')
  Alias,   // #name (text with '#')
  Attr,    // #ttg.blocked<{...}> (the whole text)
  Bang,    // !tt.ptr (text without '!')
  Integer, // 42, -3, 0x7F800000
  Float,   // 1.5, -2.0e+01
  String,  // "..." (text without quotes)
  Punct,   // ( ) { } [ ] < > , = : * ->
  Error,   // a character no token starts with
};

struct Token {
  Tok kind = Tok::End;
  std::string_view text;
  Loc loc;
};

class Lexer {
public:
  explicit Lexer(std::string_view s) : s_(s) {}

  Token next() {
    skip();
    Token t;
    t.loc = Loc{line_, uint32_t(p_ - lineStart_ + 1)};
    if (p_ >= s_.size()) {
      t.kind = Tok::End;
      return t;
    }
    size_t b = p_;
    char c = s_[p_];
    if (c == '%') {
      // MLIR's value names may also hold '-' (Triton prints constants as %c-1_i32).
      ++p_;
      while (p_ < s_.size() && (wordChar(s_[p_]) || s_[p_] == '-'))
        ++p_;
      if (p_ < s_.size() && s_[p_] == '#' && p_ + 1 < s_.size() &&
          std::isdigit(static_cast<unsigned char>(s_[p_ + 1]))) {
        ++p_;
        while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_])))
          ++p_;
      }
      t.kind = p_ > b + 1 ? Tok::Value : Tok::Error;
      t.text = s_.substr(b + 1, p_ - b - 1);
      return t;
    }
    if (c == '@' || c == '!') {
      ++p_;
      while (p_ < s_.size() && wordChar(s_[p_]))
        ++p_;
      t.kind = p_ > b + 1 ? (c == '@' ? Tok::Symbol : Tok::Bang) : Tok::Error;
      t.text = s_.substr(b + 1, p_ - b - 1);
      return t;
    }
    if (c == '#') {
      ++p_;
      while (p_ < s_.size() && wordChar(s_[p_]))
        ++p_;
      if (p_ == b + 1) {
        t.kind = Tok::Error;
        t.text = s_.substr(b, 1);
        return t;
      }
      if (p_ < s_.size() && s_[p_] == '<') {
        // The attribute runs to the matching '>' (quotes are not part of the syntax).
        int depth = 0;
        while (p_ < s_.size()) {
          char ch = s_[p_];
          if (ch == '\n') {
            ++line_;
            lineStart_ = p_ + 1;
          }
          ++p_;
          if (ch == '<')
            ++depth;
          else if (ch == '>' && --depth == 0)
            break;
        }
        t.kind = depth == 0 ? Tok::Attr : Tok::Error;
        t.text = s_.substr(b, p_ - b);
        return t;
      }
      t.kind = Tok::Alias;
      t.text = s_.substr(b, p_ - b);
      return t;
    }
    if (c == '"') {
      ++p_;
      while (p_ < s_.size() && s_[p_] != '"' && s_[p_] != '\n')
        ++p_;
      if (p_ >= s_.size() || s_[p_] != '"') {
        t.kind = Tok::Error;
        t.text = s_.substr(b, p_ - b);
        return t;
      }
      t.kind = Tok::String;
      t.text = s_.substr(b + 1, p_ - b - 1);
      ++p_;
      return t;
    }
    if (c == '-' && p_ + 1 < s_.size() && s_[p_ + 1] == '>') {
      p_ += 2;
      t.kind = Tok::Punct;
      t.text = s_.substr(b, 2);
      return t;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '-' && p_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_ + 1])))) {
      if (c == '-')
        ++p_;
      if (s_.substr(p_, 2) == "0x" && p_ + 2 < s_.size() &&
          std::isxdigit(static_cast<unsigned char>(s_[p_ + 2]))) {
        p_ += 2;
        while (p_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[p_])))
          ++p_;
        t.kind = Tok::Integer;
        t.text = s_.substr(b, p_ - b);
        return t;
      }
      while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_])))
        ++p_;
      t.kind = Tok::Integer;
      if (p_ < s_.size() && s_[p_] == '.') {
        t.kind = Tok::Float;
        ++p_;
        while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_])))
          ++p_;
      }
      if (p_ < s_.size() && (s_[p_] == 'e' || s_[p_] == 'E')) {
        size_t q = p_ + 1;
        if (q < s_.size() && (s_[q] == '+' || s_[q] == '-'))
          ++q;
        if (q < s_.size() && std::isdigit(static_cast<unsigned char>(s_[q]))) {
          t.kind = Tok::Float;
          p_ = q;
          while (p_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[p_])))
            ++p_;
        }
      }
      t.text = s_.substr(b, p_ - b);
      return t;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '^') { // ^bb0: a block
      ++p_;
      while (p_ < s_.size() && wordChar(s_[p_]))
        ++p_;
      t.kind = Tok::Ident;
      t.text = s_.substr(b, p_ - b);
      return t;
    }
    if (std::strchr("(){}[]<>,=:*", c)) {
      ++p_;
      t.kind = Tok::Punct;
      t.text = s_.substr(b, 1);
      return t;
    }
    ++p_;
    t.kind = Tok::Error;
    t.text = s_.substr(b, 1);
    return t;
  }

private:
  // Skips white space, comments and MLIR's source locations, which carry nothing the IR keeps:
  // `loc(...)` after an op, an argument or a closing brace, and the `#loc3 = loc(...)` lines of a
  // dump printed with debug info (Triton's dumps have both).
  void skip() {
    while (p_ < s_.size()) {
      char c = s_[p_];
      if (c == '\n') {
        ++line_;
        lineStart_ = ++p_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++p_;
      } else if (c == '/' && p_ + 1 < s_.size() && s_[p_ + 1] == '/') {
        while (p_ < s_.size() && s_[p_] != '\n')
          ++p_;
      } else if (size_t end = locationEnd(p_); end != p_) {
        p_ = end;
      } else {
        break;
      }
    }
  }

  static bool wordChar(char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '$';
  }

  // The end of a location at `at` (`loc(...)`, or a `#locN = loc(...)` definition), or `at`.
  size_t locationEnd(size_t at) const {
    size_t q = at;
    if (s_[q] == '#') {
      if (s_.substr(q, 4) != "#loc")
        return at;
      q += 4;
      while (q < s_.size() && std::isdigit(static_cast<unsigned char>(s_[q])))
        ++q;
      while (q < s_.size() && (s_[q] == ' ' || s_[q] == '\t'))
        ++q;
      if (q >= s_.size() || s_[q] != '=')
        return at;
      ++q;
      while (q < s_.size() && (s_[q] == ' ' || s_[q] == '\t'))
        ++q;
    } else if (at > 0 && (wordChar(s_[at - 1]) || s_[at - 1] == '%' || s_[at - 1] == '#')) {
      return at;
    }
    if (s_.substr(q, 4) != "loc(")
      return at;
    // To the matching ')', over quoted file names (which may hold parentheses); a location
    // stays on its line, so an unclosed one ends nothing.
    int depth = 0;
    for (; q < s_.size() && s_[q] != '\n'; ++q) {
      if (s_[q] == '"') {
        for (++q; q < s_.size() && s_[q] != '"' && s_[q] != '\n'; ++q)
          if (s_[q] == '\\' && q + 1 < s_.size() && s_[q + 1] != '\n')
            ++q;
        if (q >= s_.size() || s_[q] != '"')
          return at;
      } else if (s_[q] == '(') {
        ++depth;
      } else if (s_[q] == ')' && --depth == 0) {
        return q + 1;
      }
    }
    return at;
  }

  std::string_view s_;
  size_t p_ = 0;
  uint32_t line_ = 1;
  size_t lineStart_ = 0;
};

// One value of an attribute dictionary `{key = value, ...}`.
struct DictValue {
  enum Kind { Int, Bool, Float, String, Array } kind = Int;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<int64_t> array;
  Loc loc;
};
using Dict = std::map<std::string, DictValue, std::less<>>;

std::string describe(const Token &t) {
  switch (t.kind) {
  case Tok::End:
    return "end of input";
  case Tok::Value:
    return "'%" + std::string(t.text) + "'";
  case Tok::Symbol:
    return "'@" + std::string(t.text) + "'";
  case Tok::Bang:
    return "'!" + std::string(t.text) + "'";
  case Tok::String:
    return "'\"" + std::string(t.text) + "\"'";
  case Tok::Ident:
  case Tok::Alias:
  case Tok::Attr:
  case Tok::Integer:
  case Tok::Float:
  case Tok::Punct:
  case Tok::Error:
    break; // their text, cut short
  }
  std::string s(t.text.substr(0, 40));
  return "'" + s + (t.text.size() > 40 ? "...'" : "'");
}

class Parser final : public OpParser {
public:
  Parser(std::string_view text, std::string_view fileName) : lex_(text), file_(fileName) {
    tok_ = lex_.next();
  }

  Expected<Module> run() {
    module_.fileName = file_;
    while (tok_.kind == Tok::Alias) {
      if (!parseAliasDefinition())
        return takeError();
    }
    if (isIdent("module")) {
      advance();
      if (isIdent("attributes")) {
        advance();
        Dict d;
        if (!parseDict(d))
          return takeError();
        if (!applyModuleAttrs(d))
          return takeError();
      }
      if (!expectPunct("{", "after the module header"))
        return takeError();
      while (!isPunct("}")) {
        if (tok_.kind == Tok::End) {
          fail("expected '}' to close the module, got end of input");
          return takeError();
        }
        if (!parseFunction())
          return takeError();
      }
      advance();
    } else {
      while (tok_.kind != Tok::End)
        if (!parseFunction())
          return takeError();
    }
    if (tok_.kind != Tok::End) {
      fail("expected end of input, got " + describe(tok_));
      return takeError();
    }
    return std::move(module_);
  }

private:
  // ---- tokens and errors -----------------------------------------------------------------------

  void advance() { tok_ = lex_.next(); }
  bool isPunct(std::string_view p) const { return tok_.kind == Tok::Punct && tok_.text == p; }
  bool isIdent(std::string_view s) const { return tok_.kind == Tok::Ident && tok_.text == s; }

  bool failAt(Loc loc, std::string message) {
    if (!error_)
      error_ =
          file_ + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": " + message;
    return false;
  }
  bool fail(std::string message) { return failAt(tok_.loc, std::move(message)); }
  Loc loc() const { return tok_.loc; }
  std::string describeToken() const { return describe(tok_); }
  std::optional<std::string_view> peekIdent() const {
    return tok_.kind == Tok::Ident ? std::optional(tok_.text) : std::nullopt;
  }
  Error takeError() { return makeError(error_ ? *error_ : "parse error"); }

  bool expectPunct(std::string_view p, std::string_view context) {
    if (!isPunct(p))
      return fail("expected '" + std::string(p) + "' " + std::string(context) + ", got " +
                  describe(tok_));
    advance();
    return true;
  }
  bool expectIdent(std::string_view s, std::string_view context) {
    if (!isIdent(s))
      return fail("expected '" + std::string(s) + "' " + std::string(context) + ", got " +
                  describe(tok_));
    advance();
    return true;
  }

  static std::optional<int64_t> toInt(std::string_view t) {
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

  bool parseInt(int64_t &out, std::string_view what) {
    if (tok_.kind != Tok::Integer)
      return fail("expected " + std::string(what) + ", got " + describe(tok_));
    auto v = toInt(tok_.text);
    if (!v)
      return fail(std::string(what) + " " + describe(tok_) + " is out of range");
    out = *v;
    advance();
    return true;
  }

  // ---- attribute dictionaries ------------------------------------------------------------------

  // An optional attribute dictionary whose entries this op does not keep (fastmath and the like).
  bool skipOptionalDict() {
    if (!isPunct("{"))
      return true;
    Dict d;
    return parseDict(d);
  }

  // The type after a dictionary value's ':' (`i32`, `tensor<2xi32>`), which no op keeps.
  bool skipType() {
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
  bool parseOptionalHints(OpAttrs &a) {
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
  bool parseOptionalVectorWidth(OpAttrs &a, bool slotFree = false) {
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
  bool parseDict(Dict &out) {
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
  bool parseIntList(std::vector<int64_t> &out, std::string_view what, bool many) {
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

  bool parseDictValue(DictValue &v) {
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
  bool dictReverse(const Dict &d, OpAttrs &a) {
    int64_t reverse = 0;
    if (!dictInt(d, "reverse", reverse, false))
      return false;
    if (reverse != 0 && reverse != 1)
      return fail("attribute 'reverse' must be true or false");
    a.reverse = reverse == 1;
    return true;
  }

  bool dictInt(const Dict &d, std::string_view key, int64_t &out, bool required) {
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

  bool applyModuleAttrs(const Dict &d) {
    int64_t warps = module_.numWarps, ctas = module_.numCtas, tpw = module_.threadsPerWarp;
    if (!dictInt(d, "ttg.num-warps", warps, false) || !dictInt(d, "ttg.num-ctas", ctas, false) ||
        !dictInt(d, "ttg.threads-per-warp", tpw, false))
      return false;
    // Older dumps spell the prefix triton_gpu.
    if (!dictInt(d, "triton_gpu.num-warps", warps, false) ||
        !dictInt(d, "triton_gpu.num-ctas", ctas, false) ||
        !dictInt(d, "triton_gpu.threads-per-warp", tpw, false))
      return false;
    auto bounded = [&](int64_t v, std::string_view what) {
      if (v < 1 || v > 1024 || (v & (v - 1)))
        return fail(std::string(what) + " is " + std::to_string(v) +
                    ", expected a power of two in 1..1024");
      return true;
    };
    if (!bounded(warps, "ttg.num-warps") || !bounded(ctas, "ttg.num-ctas") ||
        !bounded(tpw, "ttg.threads-per-warp"))
      return false;
    module_.numWarps = int(warps);
    module_.numCtas = int(ctas);
    module_.threadsPerWarp = int(tpw);
    int64_t stages = module_.numStages;
    if (!dictInt(d, "ttg.num-stages", stages, false))
      return false;
    if (stages < 0 || stages > 16)
      return fail("ttg.num-stages is " + std::to_string(stages) + ", expected 0..16");
    module_.numStages = int(stages);
    for (std::string_view key : {"ttg.target", "triton_gpu.target"}) {
      auto it = d.find(key);
      if (it != d.end() && it->second.kind == DictValue::String)
        module_.target = it->second.s;
    }
    return true;
  }

  // ---- layouts and types -----------------------------------------------------------------------

  bool parseAliasDefinition() {
    std::string name(tok_.text);
    Loc loc = tok_.loc;
    advance();
    if (!expectPunct("=", "after a layout alias name"))
      return false;
    if (aliases_.count(name) || memorySpaces_.count(name))
      return failAt(loc, "redefinition of alias '" + name + "'");
    if (tok_.kind == Tok::Alias && tok_.text == "#ttg.shared_memory") {
      advance();
      memorySpaces_.insert(name);
      return true;
    }
    if (tok_.kind != Tok::Attr)
      return fail("expected a layout attribute after '" + name + " =', got " + describe(tok_));
    auto spec = parseLayoutText(tok_, -1);
    if (!spec)
      return false;
    advance();
    attrAliases_.define(name.substr(1), *spec);
    aliases_.emplace(name, std::move(*spec));
    return true;
  }

  std::optional<LayoutSpec> parseLayoutText(const Token &t, int rankHint) {
    Expected<LayoutSpec> spec = detail::parseLayoutAttr(t.text, attrAliases_, rankHint);
    if (!spec) {
      failAt(t.loc, "in layout attribute: " + spec.message());
      return std::nullopt;
    }
    return std::move(*spec);
  }

  // A layout in a type: an alias or an inline attribute.
  bool parseLayoutRef(LayoutId &out, int rank) {
    if (tok_.kind == Tok::Alias) {
      auto it = aliases_.find(std::string(tok_.text));
      if (it == aliases_.end())
        return fail("unknown layout alias " + describe(tok_));
      out = module_.layouts.intern(it->second);
      if (module_.layouts.aliasHint(out).empty())
        module_.layouts.setAliasHint(out, it->first);
      advance();
      return true;
    }
    if (tok_.kind == Tok::Attr) {
      auto spec = parseLayoutText(tok_, rank);
      if (!spec)
        return false;
      out = module_.layouts.intern(*spec);
      advance();
      return true;
    }
    return fail("expected a layout (an alias such as #blocked or a #ttg attribute), got " +
                describe(tok_));
  }

  bool parseElem(ElemType &out) {
    if (tok_.kind == Tok::Bang && tok_.text == "tt.ptr") {
      advance();
      if (!expectPunct("<", "after '!tt.ptr'"))
        return false;
      ElemType inner;
      if (tok_.kind != Tok::Ident)
        return fail("expected a scalar type in !tt.ptr<...>, got " + describe(tok_));
      auto k = scalarKindFromName(tok_.text);
      if (!k)
        return fail("expected a scalar type in !tt.ptr<...>, got " + describe(tok_));
      advance();
      if (isPunct(",")) { // address space; only global (1) is meaningful here
        advance();
        int64_t as;
        if (!parseInt(as, "an address space"))
          return false;
        if (as != 1)
          return fail("address space " + std::to_string(as) + " is not supported, expected 1");
      }
      if (!expectPunct(">", "to close !tt.ptr<...>"))
        return false;
      out = ElemType{*k, true};
      return true;
    }
    if (tok_.kind == Tok::Ident) {
      auto k = scalarKindFromName(tok_.text);
      if (!k)
        return fail("expected an element type (i1, i8, i16, i32, i64, f16, bf16, f32, f64 or "
                    "!tt.ptr<...>), got " +
                    describe(tok_));
      advance();
      out = ElemType{*k, false};
      return true;
    }
    return fail("expected an element type, got " + describe(tok_));
  }

  // `128x64x` followed by the element: the lexer splits `128x64xf16` into 128 and `x64xf16`.
  // With `ringDim`, the first dim may be any count up to 1024 (the tiles of a memdesc ring).
  bool parseShapeAndElem(std::vector<int64_t> &shape, ElemType &elem, bool ringDim = false) {
    while (true) {
      if (tok_.kind == Tok::Integer) {
        int64_t d;
        Loc loc = tok_.loc;
        if (!parseInt(d, "a dimension"))
          return false;
        if (ringDim && shape.empty() && d >= 1 && d <= 1024) {
        } else if (d <= 0 || d > Type::kMaxNumElements || (d & (d - 1)))
          return failAt(loc, "dimension " + std::to_string(d) +
                                 " must be a power of two no larger than 2^20");
        shape.push_back(d);
        if (shape.size() > size_t(Type::kMaxRank))
          return failAt(loc, "rank exceeds " + std::to_string(Type::kMaxRank));
        // What follows the number: an identifier starting with 'x'.
        if (tok_.kind != Tok::Ident || tok_.text.empty() || tok_.text[0] != 'x')
          return fail("expected 'x' after a dimension, got " + describe(tok_));
        std::string_view rest = tok_.text.substr(1);
        Loc restLoc = tok_.loc;
        // rest is `64xf16`, `f16`, or empty (then the element follows, e.g. `x!tt.ptr<f32>`).
        while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]))) {
          size_t n = 0;
          while (n < rest.size() && std::isdigit(static_cast<unsigned char>(rest[n])))
            ++n;
          auto dv = toInt(rest.substr(0, n));
          if (!dv || *dv <= 0 || *dv > Type::kMaxNumElements || (*dv & (*dv - 1)))
            return failAt(restLoc, "dimension '" + std::string(rest.substr(0, n)) +
                                       "' must be a power of two no larger than 2^20");
          shape.push_back(*dv);
          if (shape.size() > size_t(Type::kMaxRank))
            return failAt(restLoc, "rank exceeds " + std::to_string(Type::kMaxRank));
          rest.remove_prefix(n);
          if (rest.empty() || rest[0] != 'x')
            return failAt(restLoc,
                          "expected 'x' after a dimension in '" + std::string(tok_.text) + "'");
          rest.remove_prefix(1);
        }
        if (rest.empty()) {
          advance();
          return parseElem(elem);
        }
        auto k = scalarKindFromName(rest);
        if (!k)
          return failAt(restLoc, "expected an element type, got '" + std::string(rest) + "'");
        elem = ElemType{*k, false};
        advance();
        return true;
      }
      return parseElem(elem); // rank-0 is not a tensor, but let the caller complain
    }
  }

  // `256x128`: dims only (a memdesc's alloc shape), each a power of two up to 2^20 (the first
  // may be a ring's count up to 1024).
  bool parseAllocShape(std::vector<int64_t> &dims) {
    int64_t d;
    Loc loc = tok_.loc;
    if (!parseInt(d, "an alloc shape dimension"))
      return false;
    dims.push_back(d);
    if (tok_.kind == Tok::Ident && !tok_.text.empty() && tok_.text[0] == 'x') {
      std::string_view rest = tok_.text.substr(1);
      while (true) {
        size_t n = 0;
        while (n < rest.size() && std::isdigit(static_cast<unsigned char>(rest[n])))
          ++n;
        auto dv = toInt(rest.substr(0, n));
        if (n == 0 || !dv)
          return fail("expected a dimension in the alloc shape, got '" + std::string(tok_.text) +
                      "'");
        dims.push_back(*dv);
        rest.remove_prefix(n);
        if (rest.empty())
          break;
        if (rest[0] != 'x')
          return fail("expected 'x' between alloc shape dimensions in '" + std::string(tok_.text) +
                      "'");
        rest.remove_prefix(1);
      }
      advance();
    }
    if (dims.size() > size_t(Type::kMaxRank))
      return failAt(loc, "alloc shape rank exceeds " + std::to_string(Type::kMaxRank));
    for (size_t i = 0; i < dims.size(); ++i) {
      int64_t v = dims[i];
      bool ring = i == 0 && v >= 1 && v <= 1024;
      if (!ring && (v <= 0 || v > Type::kMaxNumElements || (v & (v - 1))))
        return failAt(loc, "alloc shape dimension " + std::to_string(v) +
                               " must be a power of two no larger than 2^20");
    }
    return true;
  }

  // `bareMemDesc`: `<...>` is read as a memdesc, as Triton prints an async copy's destination.
  bool parseType(Type &out, bool bareMemDesc = false) {
    Loc loc = tok_.loc;
    if (tok_.kind == Tok::Ident && tok_.text == "tensor") {
      advance();
      if (!expectPunct("<", "after 'tensor'"))
        return false;
      std::vector<int64_t> shape;
      ElemType elem;
      if (!parseShapeAndElem(shape, elem))
        return false;
      if (shape.empty())
        return failAt(loc, "a tensor needs at least one dimension");
      if (Type::tensor(shape, elem, kNoLayout).numElements() > Type::kMaxNumElements)
        return failAt(loc, "tensor has more than 2^20 elements");
      if (!expectPunct(",", "and a layout after the element type"))
        return false;
      LayoutId l;
      if (!parseLayoutRef(l, int(shape.size())))
        return false;
      if (!expectPunct(">", "to close tensor<...>"))
        return false;
      out = Type::tensor(std::move(shape), elem, l);
      return true;
    }
    const bool bare = bareMemDesc && isPunct("<");
    if (bare || (tok_.kind == Tok::Bang && tok_.text == "ttg.memdesc")) {
      if (!bare)
        advance();
      if (!expectPunct("<", "after '!ttg.memdesc'"))
        return false;
      std::vector<int64_t> shape;
      ElemType elem;
      if (!parseShapeAndElem(shape, elem, /*ringDim=*/true))
        return false;
      if (shape.empty() || elem.pointer)
        return failAt(loc, "a memdesc needs a shape and a scalar element");
      if (Type::tensor(shape, elem, kNoLayout).numElements() > Type::kMaxNumElements)
        return failAt(loc, "memdesc has more than 2^20 elements");
      if (!expectPunct(",", "and a shared layout after the element type"))
        return false;
      LayoutId l;
      if (!parseLayoutRef(l, int(shape.size())))
        return false;
      if ((shape[0] & (shape[0] - 1)) && module_.layouts.get(l).rank() >= int(shape.size()))
        return failAt(loc, "dimension " + std::to_string(shape[0]) +
                               " must be a power of two no larger than 2^20 (only a ring's "
                               "leading dim may be any count)");
      bool isMutable = false;
      std::vector<int64_t> allocShape;
      while (isPunct(",")) {
        advance();
        if (tok_.kind == Tok::Alias &&
            (memorySpaces_.count(std::string(tok_.text)) || tok_.text == "#ttg.shared_memory"))
          advance();
        else if (isIdent("mutable")) {
          isMutable = true;
          advance();
        } else if (tok_.kind == Tok::Integer && allocShape.empty()) {
          // The alloc shape of a view (`256x128`, last): the lexer splits it into 256, x128.
          if (!parseAllocShape(allocShape))
            return false;
          if (allocShape.size() != shape.size())
            return failAt(loc, "the alloc shape has rank " + std::to_string(allocShape.size()) +
                                   ", the memdesc " + std::to_string(shape.size()));
        } else
          return fail("expected '#smem', 'mutable' or an alloc shape in !ttg.memdesc<...>, "
                      "got " +
                      describe(tok_));
      }
      if (!expectPunct(">", "to close !ttg.memdesc<...>"))
        return false;
      out = Type::memDesc(std::move(shape), elem.scalar, l, isMutable, std::move(allocShape));
      return true;
    }
    if (tok_.kind == Tok::Bang && tok_.text == "tt.tensordesc") {
      advance();
      if (!expectPunct("<", "after '!tt.tensordesc'"))
        return false;
      Type block;
      Loc bloc = tok_.loc;
      if (!isIdent("tensor"))
        return fail("expected the block type tensor<...> in !tt.tensordesc<...>, got " +
                    describe(tok_));
      if (!parseType(block))
        return false;
      if (block.isPointerLike())
        return failAt(bloc, "a tensor descriptor's block holds numbers, not pointers");
      if (!expectPunct(">", "to close !tt.tensordesc<...>"))
        return false;
      out = Type::tensorDesc(block.shape(), block.elem().scalar, block.layout());
      return true;
    }
    if (isTokenType())
      return fail("an async token (!ttg.async.token) is read only as the result or operand of an "
                  "async op or as a loop-carried value");
    ElemType e;
    if (!parseElem(e))
      return false;
    out = e.pointer ? Type::pointer(e.scalar) : Type::scalar(e.scalar);
    return true;
  }

  // ---- values ----------------------------------------------------------------------------------

  // Names of a function's values: %name -> ids (several for a multi-result op, used as %name#i).
  // `allowToken`: the value may be an async token (kAsyncToken), as loops and yields carry them.
  bool lookupValue(ValueId &out, bool allowToken = false) {
    if (tok_.kind != Tok::Value)
      return fail("expected a value such as %0, got " + describe(tok_));
    std::string_view text = tok_.text;
    size_t hash = text.find('#');
    std::string base(text.substr(0, hash));
    auto it = names_.find(base);
    if (it == names_.end())
      return fail("use of undefined value '%" + std::string(text) + "'");
    size_t index = 0;
    if (hash != std::string_view::npos) {
      auto i = toInt(text.substr(hash + 1));
      if (!i || *i < 0 || size_t(*i) >= it->second.size())
        return fail("result index of '%" + std::string(text) + "' is out of range (the op has " +
                    std::to_string(it->second.size()) + " results)");
      index = size_t(*i);
    } else if (it->second.size() != 1) {
      return fail("'%" + base + "' names " + std::to_string(it->second.size()) +
                  " results; use '%" + base + "#<index>'");
    }
    out = it->second[index];
    if (out == kAsyncToken && !allowToken)
      return fail("'%" + std::string(text) +
                  "' is an async token, which only async ops, loops and yields take");
    advance();
    return true;
  }

  // Triton's async tokens (!ttg.async.token) order its async copies, waits and the loads after
  // them. Here the program orders those ops, so a token carries nothing: the parser reads tokens
  // where Triton writes them (results of ttg.async_copy_global_to_local, async_commit_group and
  // async_wait; their operands; `token %t` of a local_load; loop-carried values) and drops them.
  static constexpr ValueId kAsyncToken = kNoValue - 1;

  bool isTokenType() const { return tok_.kind == Tok::Bang && tok_.text == "ttg.async.token"; }

  // One value that must be an async token.
  bool parseToken() {
    Token at = tok_;
    ValueId v;
    if (!lookupValue(v, /*allowToken=*/true))
      return false;
    if (v != kAsyncToken)
      return failAt(at.loc, "expected an async token, got " + describe(at));
    return true;
  }

  // Async tokens separated by commas (none where no value follows).
  bool parseTokens() {
    while (tok_.kind == Tok::Value) {
      if (!parseToken())
        return false;
      if (!isPunct(","))
        break;
      advance();
    }
    return true;
  }

  bool define(std::string_view name, Loc loc, std::vector<ValueId> ids) {
    std::string n(name);
    if (names_.count(n))
      return failAt(loc, "redefinition of '%" + n + "'");
    if (!regionNames_.empty())
      regionNames_.back().push_back(n);
    names_.emplace(std::move(n), std::move(ids));
    return true;
  }

  // A region's names (its arguments' and its ops') are seen only inside it, as in MLIR: another
  // region may use them again.
  // The terminators the combining bodies being parsed end with (tt.reduce.return /
  // tt.scan.return), innermost last.
  std::vector<std::string> combineReturns_;

  void openRegion() { regionNames_.emplace_back(); }
  void closeRegion() {
    for (const std::string &n : regionNames_.back())
      names_.erase(n);
    regionNames_.pop_back();
  }

  // Checks that the written type of an operand is its type.
  bool checkType(ValueId v, const Type &written, Loc loc) {
    const Type &actual = fn_->type(v);
    if (actual != written)
      return failAt(loc, "'%" + nameOf(v) + "' has type " + printType(module_, actual) +
                             ", but the op says " + printType(module_, written));
    return true;
  }
  // Parses the type written for operand `v` and checks that it is `v`'s type.
  bool parseTypeOf(ValueId v, Type &t) {
    Loc loc = tok_.loc;
    return parseType(t) && checkType(v, t, loc);
  }
  // Parses one type written for all of `vs` and checks that it is each one's type.
  bool parseTypeOfAll(const std::vector<ValueId> &vs, Type &t) {
    Loc loc = tok_.loc;
    if (!parseType(t))
      return false;
    for (ValueId v : vs)
      if (!checkType(v, t, loc))
        return false;
    return true;
  }
  // The types of tt.dot and ttng.warp_group_dot, `: A * B -> C`; the result has C's type.
  bool parseDotTypes(const Op &op, std::vector<Type> &results) {
    Type a, b, c;
    if (!expectPunct(":", "before the operand types") || !parseTypeOf(op.operands[0], a) ||
        !expectPunct("*", "between the A and B types") || !parseTypeOf(op.operands[1], b) ||
        !expectPunct("->", "before the result type") || !parseTypeOf(op.operands[2], c))
      return false;
    results.push_back(c);
    return true;
  }
  std::string nameOf(ValueId v) const {
    for (const auto &[n, ids] : names_)
      for (size_t i = 0; i < ids.size(); ++i)
        if (ids[i] == v)
          return ids.size() == 1 ? n : n + "#" + std::to_string(i);
    return "?";
  }

  bool parseOperands(std::vector<ValueId> &out, size_t max, bool allowTokens = false) {
    while (tok_.kind == Tok::Value) {
      ValueId v;
      if (!lookupValue(v, allowTokens))
        return false;
      out.push_back(v);
      if (out.size() > max)
        return fail("too many operands");
      if (!isPunct(","))
        break;
      advance();
      if (tok_.kind != Tok::Value) // `, inputPrecision = tf32` and the like follow operands
        break;
    }
    return true;
  }

  // ---- functions and ops -----------------------------------------------------------------------

  bool parseFunction() {
    Loc loc = tok_.loc;
    if (!expectIdent("tt.func", "to start a function"))
      return false;
    Function f;
    f.loc = loc;
    if (isIdent("public") || isIdent("private")) {
      f.isPublic = isIdent("public");
      advance();
    }
    if (tok_.kind != Tok::Symbol)
      return fail("expected a function name such as @kernel, got " + describe(tok_));
    f.name = std::string(tok_.text);
    if (module_.function(f.name))
      return fail("redefinition of function '@" + f.name + "'");
    advance();
    names_.clear();
    regionNames_.clear();
    fn_ = &f;
    if (!expectPunct("(", "to open the argument list"))
      return false;
    while (!isPunct(")")) {
      if (tok_.kind != Tok::Value)
        return fail("expected an argument such as %arg0, got " + describe(tok_));
      std::string_view name = tok_.text;
      Loc aloc = tok_.loc;
      if (name.find('#') != std::string_view::npos)
        return fail("an argument name cannot have a result index");
      advance();
      if (!expectPunct(":", "after an argument name"))
        return false;
      Type t;
      if (!parseType(t))
        return false;
      ArgHints h;
      if (isPunct("{")) {
        Dict d;
        if (!parseDict(d))
          return false;
        if (!dictInt(d, "tt.divisibility", h.divisibility, false) ||
            !dictInt(d, "tt.contiguity", h.contiguity, false) ||
            !dictInt(d, "tt.constancy", h.constancy, false))
          return false;
        for (int64_t x : {h.divisibility, h.contiguity, h.constancy})
          if (!isHintValue(x))
            return failAt(aloc, "argument hint " + std::to_string(x) +
                                    " must be a power of two in 1..2^30");
      }
      ValueId v = f.addValue(t, std::string(name));
      if (!define(name, aloc, {v}))
        return false;
      f.body.args.push_back(v);
      f.argHints.push_back(h);
      if (f.body.args.size() > 256)
        return fail("too many arguments");
      if (isPunct(",")) {
        advance();
        continue;
      }
      if (!isPunct(")"))
        return fail("expected ',' or ')' after an argument, got " + describe(tok_));
    }
    advance();
    if (isIdent("attributes")) {
      advance();
      Dict d;
      if (!parseDict(d))
        return false;
    }
    if (!expectPunct("{", "to open the function body"))
      return false;
    if (!parseBlockOps(f.body, 0))
      return false;
    advance(); // '}'
    fn_ = nullptr;
    module_.functions.push_back(std::move(f));
    return true;
  }

  // Ops up to (not including) the closing '}'.
  bool parseBlockOps(Block &b, int depth) {
    while (!isPunct("}")) {
      if (tok_.kind == Tok::End)
        return fail("expected '}' to close a block, got end of input");
      Op op;
      if (!parseOp(op, depth))
        return false;
      b.ops.push_back(std::move(op));
    }
    return true;
  }

  bool parseOp(Op &op, int depth) {
    // Results: `%a = `, `%a:2 = `, `%a, %b = ` (a name each, as MLIR prints named results) or
    // none.
    std::string_view resultName;
    Loc resultLoc;
    int64_t numResults = 0;
    std::vector<std::pair<std::string_view, Loc>> eachName; // `%a, %b = `: one name per result
    if (tok_.kind == Tok::Value) {
      resultName = tok_.text;
      resultLoc = tok_.loc;
      if (resultName.find('#') != std::string_view::npos)
        return fail("a result name cannot have a result index");
      advance();
      numResults = 1;
      if (isPunct(",")) {
        eachName.push_back({resultName, resultLoc});
        while (isPunct(",")) {
          advance();
          if (tok_.kind != Tok::Value || tok_.text.find('#') != std::string_view::npos)
            return fail("expected a result name, got " + describe(tok_));
          if (eachName.size() >= 256)
            return fail("more than 256 result names");
          eachName.push_back({tok_.text, tok_.loc});
          advance();
        }
        numResults = int64_t(eachName.size());
      } else if (isPunct(":")) {
        advance();
        if (!parseInt(numResults, "a result count"))
          return false;
        if (numResults < 1 || numResults > 256)
          return failAt(resultLoc,
                        "result count " + std::to_string(numResults) + " must be in 1..256");
      }
      if (!expectPunct("=", "after the result name"))
        return false;
    }
    op.loc = tok_.loc;
    std::vector<Type> resultTypes;
    if (tok_.kind == Tok::String) {
      // MLIR's generic form, which Triton prints for tt.reduce and tt.scan (their bodies are
      // regions).
      if (tok_.text != "tt.reduce" && tok_.text != "tt.scan")
        return fail("unknown op " + describe(tok_) +
                    " (of the generic form \"op\"(...), only \"tt.reduce\" and \"tt.scan\" are "
                    "read)");
      op.kind = tok_.text == "tt.reduce" ? OpKind::Reduce : OpKind::Scan;
      advance();
      if (!parseGenericCombine(op, resultTypes, depth))
        return false;
    } else {
      if (tok_.kind != Tok::Ident)
        return fail("expected an op name such as arith.addi, got " + describe(tok_));
      // A scan's combining body ends in tt.scan.return, a reduction's in tt.reduce.return: one
      // kind, printed by its parent's name.
      auto kind =
          tok_.text == "tt.scan.return" ? OpKind::CombineReturn : opKindFromMnemonic(tok_.text);
      if (!kind)
        return fail("unknown op " + describe(tok_));
      if (*kind == OpKind::CombineReturn) {
        if (combineReturns_.empty())
          return fail(describe(tok_) + " ends the combining body of a tt.reduce or tt.scan only");
        if (tok_.text != combineReturns_.back())
          return fail("expected '" + combineReturns_.back() + "' to end the combining body, got " +
                      describe(tok_));
      }
      op.kind = *kind;
      advance();
      if (!kParseOp[size_t(op.kind)](*this, op, resultTypes, depth))
        return false;
    }
    // An async op's one result in Triton's text is its token.
    if (isCopyGroupOp(op.kind) && resultTypes.empty() && numResults == 1)
      tokenResults_ = {0};
    if (size_t(numResults) != resultTypes.size() + tokenResults_.size())
      return failAt(op.loc, std::string(mnemonic(op.kind)) + " has " +
                                std::to_string(resultTypes.size()) +
                                " result(s), but the text names " + std::to_string(numResults));
    std::vector<ValueId> named;
    for (size_t i = 0, next = 0; i < size_t(numResults); ++i) {
      if (std::find(tokenResults_.begin(), tokenResults_.end(), i) != tokenResults_.end()) {
        named.push_back(kAsyncToken);
        continue;
      }
      op.results.push_back(fn_->addValue(
          resultTypes[next++], std::string(eachName.empty() ? resultName : eachName[i].first)));
      named.push_back(op.results.back());
    }
    tokenResults_.clear();
    if (!eachName.empty()) {
      for (size_t i = 0; i < eachName.size(); ++i)
        if (!define(eachName[i].first, eachName[i].second, {named[i]}))
          return false;
      return true;
    }
    if (numResults > 0 && !define(resultName, resultLoc, std::move(named)))
      return false;
    return true;
  }

  // Triton's tt.reduce and tt.scan, after the quoted name:
  //   "tt.reduce"(%x, %i) <{axis = 1 : i32}> ({
  //   ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
  //     %gt = arith.cmpf ogt, %a, %b : f32
  //     ...
  //     tt.reduce.return %v, %j : f32, i32
  //   }) : (tensor<...>, tensor<...>) -> (tensor<...>, tensor<...>)
  // (a scan's properties also say `reverse = false` and its body ends in tt.scan.return; one
  // result type is written without parentheses). The block's arguments are the left elements of
  // the operands, then the right ones. A body that combines the two arguments of a single operand
  // with one op that a ReduceKind stands for becomes that kind (the op's short form); any other
  // body stays the op's region.
  bool parseGenericCombine(Op &op, std::vector<Type> &results, int depth) {
    const bool scan = op.kind == OpKind::Scan;
    const std::string opName(mnemonic(op.kind));
    if (depth + 1 > kMaxNesting)
      return fail("regions nested more than " + std::to_string(kMaxNesting) + " deep");
    if (!expectPunct("(", "to open the operands") || !parseOperands(op.operands, 16) ||
        !expectPunct(")", "to close the operands"))
      return false;
    if (op.operands.empty())
      return fail(opName + " needs at least one operand");
    Dict d;
    if (!expectPunct("<", "to open the properties") || !parseDict(d) ||
        !dictInt(d, "axis", op.attrs.axis, true) || (scan && !dictReverse(d, op.attrs)) ||
        !expectPunct(">", "to close the properties"))
      return false;
    if (!expectPunct("(", "to open the region") || !expectPunct("{", "to open the region"))
      return false;
    if (tok_.kind != Tok::Ident || tok_.text.substr(0, 1) != "^")
      return fail("expected the block label of the combining function (^bb0), got " +
                  describe(tok_));
    advance();
    if (!expectPunct("(", "to open the block arguments"))
      return false;
    Block body;
    openRegion();
    const size_t arity = 2 * op.operands.size();
    const std::string takes = "the combining function of " + std::to_string(op.operands.size()) +
                              " operand(s) takes " + std::to_string(arity) + " arguments";
    while (!isPunct(")")) {
      if (!body.args.empty() && !expectPunct(",", "between the block arguments"))
        return false;
      if (tok_.kind != Tok::Value)
        return fail("expected a block argument, got " + describe(tok_));
      std::string_view name = tok_.text;
      Loc loc = tok_.loc;
      Type t;
      advance();
      if (!expectPunct(":", "after a block argument") || !parseType(t))
        return false;
      if (body.args.size() == arity)
        return failAt(loc, takes);
      ValueId a = fn_->addValue(t, std::string(name));
      if (!define(name, loc, {a}))
        return false;
      body.args.push_back(a);
    }
    advance();
    if (body.args.size() != arity)
      return fail(takes + ", got " + std::to_string(body.args.size()));
    combineReturns_.push_back(opName + ".return");
    if (!expectPunct(":", "after the block arguments") || !parseBlockOps(body, depth + 1))
      return false;
    combineReturns_.pop_back();
    advance(); // '}'
    closeRegion();
    if (!expectPunct(")", "to close the region") || !expectPunct(":", "before the types") ||
        !expectPunct("(", "to open the operand types") || !operandTypes(op, "operand types") ||
        !expectPunct(")", "to close the operand types") ||
        !expectPunct("->", "before the result types"))
      return false;
    const bool parenthesised = isPunct("(");
    if (parenthesised)
      advance();
    for (size_t i = 0; i < op.operands.size(); ++i) {
      Type u;
      if ((i && !expectPunct(",", "between the result types")) || !parseType(u))
        return false;
      results.push_back(u);
    }
    if (parenthesised && !expectPunct(")", "to close the result types"))
      return false;
    if (auto kind = singleCombiner(body, fn_->type(op.operands[0]).elementType()))
      op.attrs.reduceKind = *kind;
    else
      op.regions.push_back(std::move(body));
    return true;
  }

  // The ReduceKind of a combining body that is one such op of its two arguments, returned.
  // (The ops' types must all be the operand's element type `elem`.)
  std::optional<ReduceKind> singleCombiner(const Block &body, const Type &elem) const {
    if (body.args.size() != 2 || body.ops.size() != 2 ||
        body.ops[1].kind != OpKind::CombineReturn || body.ops[1].operands.size() != 1)
      return std::nullopt;
    const Op &c = body.ops[0];
    auto kind = reduceKindOfCombiner(c.kind);
    if (!kind || c.results.size() != 1 || body.ops[1].operands[0] != c.results[0] ||
        c.operands.size() != 2 || c.operands[0] == c.operands[1] ||
        std::any_of(c.operands.begin(), c.operands.end(),
                    [&](ValueId v) { return v != body.args[0] && v != body.args[1]; }))
      return std::nullopt;
    for (ValueId v : {body.args[0], body.args[1], c.results[0]})
      if (fn_->type(v) != elem)
        return std::nullopt;
    return kind;
  }

  // A keyword naming one value of an enum (`fromName` gives it or nullopt), into `out`.
  template <typename E, typename FromName>
  bool parseName(FromName fromName, std::string_view expected, E &out) {
    std::optional<E> v = tok_.kind == Tok::Ident ? fromName(tok_.text) : std::nullopt;
    if (!v)
      return fail("expected " + std::string(expected) + ", got " + describe(tok_));
    out = *v;
    advance();
    return true;
  }

  // One written type per operand of `op`, separated by commas; each must be its operand's.
  bool operandTypes(const Op &op, std::string_view what) {
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
  bool operandTypesThenResult(const Op &op, Type &result) {
    return expectPunct(":", "before the types") && expectPunct("(", "to open the operand types") &&
           operandTypes(op, "operand types") && expectPunct(")", "to close the operand types") &&
           expectPunct("->", "before the result type") && parseType(result);
  }

  bool typeAfterColon(Type &t) {
    if (!expectPunct(":", "before the type"))
      return false;
    return parseType(t);
  }

public:
  // The ops of the families not yet moved to ir/lib/ops/.
  bool parseOpBody(Op &op, std::vector<Type> &results, int depth) {
    OpAttrs &a = op.attrs;
    Type t, u;
    switch (op.kind) {
    case OpKind::Return:
      return true;
    case OpKind::CombineReturn:
      return parseOperands(op.operands, 16) && expectPunct(":", "before the returned types") &&
             operandTypes(op, "returned types");
    case OpKind::Yield: {
      if (!parseOperands(op.operands, 256, /*allowTokens=*/true))
        return false;
      if (!op.operands.empty()) {
        if (!expectPunct(":", "before the yielded types"))
          return false;
        // Written types, a token's too; then the tokens leave the operands.
        for (size_t i = 0; i < op.operands.size(); ++i) {
          if (i && !expectPunct(",", "between yielded types"))
            return false;
          if (op.operands[i] != kAsyncToken) {
            if (!parseTypeOf(op.operands[i], t))
              return false;
          } else if (!isTokenType()) {
            return fail("expected !ttg.async.token for a yielded token, got " + describe(tok_));
          } else {
            advance();
          }
        }
      }
      yieldedTokens_.clear();
      for (size_t i = 0; i < op.operands.size(); ++i)
        if (op.operands[i] == kAsyncToken)
          yieldedTokens_.push_back(i);
      std::erase(op.operands, kAsyncToken);
      return true;
    }
    case OpKind::For:
      return parseFor(op, results, depth);
    case OpKind::If:
      return parseIf(op, results, depth);
    case OpKind::Constant:
      return parseConstant(op, results);
    case OpKind::ProgramId:
    case OpKind::NumPrograms: {
      if (isIdent("x") || isIdent("y") || isIdent("z")) {
        a.axis = tok_.text == "x" ? 0 : tok_.text == "y" ? 1 : 2;
        advance();
      } else if (isPunct("{")) {
        Dict d;
        if (!parseDict(d) || !dictInt(d, "axis", a.axis, true))
          return false;
      } else {
        return fail("expected x, y or z, got " + describe(tok_));
      }
      if (!typeAfterColon(t))
        return false;
      results.push_back(t);
      return true;
    }
    case OpKind::MakeRange: {
      Dict d;
      if (!parseDict(d) || !dictInt(d, "start", a.start, true) || !dictInt(d, "end", a.end, true) ||
          !typeAfterColon(t))
        return false;
      results.push_back(t);
      return true;
    }
    case OpKind::Join:
    case OpKind::Split: {
      // `tt.join %a, %b : T -> U`; `%s:2 = tt.split %x : T -> U` (each result a U).
      const size_t n = op.kind == OpKind::Join ? 2 : 1;
      if (!parseOperands(op.operands, n))
        return false;
      if (op.operands.size() != n)
        return fail(std::string(mnemonic(op.kind)) + " takes " +
                    (n == 2 ? "two operands" : "one operand"));
      if (!skipOptionalDict() || !expectPunct(":", "before the operand type") ||
          !parseTypeOf(op.operands[0], t))
        return false;
      if (!expectPunct("->", "before the result type") || !parseType(u))
        return false;
      results.push_back(u);
      if (op.kind == OpKind::Split)
        results.push_back(u);
      return true;
    }
    case OpKind::Splat:
    case OpKind::Broadcast:
    case OpKind::Reshape:
    case OpKind::ConvertLayout:
    case OpKind::ExpandDims:
    case OpKind::Trans:
    case OpKind::MemDescTrans:
    case OpKind::LocalLoad: {
      if (!parseOperands(op.operands, 1))
        return false;
      if (op.operands.size() != 1)
        return fail(std::string(mnemonic(op.kind)) + " takes one operand");
      if (op.kind == OpKind::LocalLoad && isIdent("token")) { // Triton's `token %t`
        advance();
        if (!parseToken())
          return false;
      }
      const bool permutes = op.kind == OpKind::Trans || op.kind == OpKind::MemDescTrans;
      if (op.kind == OpKind::ExpandDims || permutes) {
        Dict d;
        if (!parseDict(d))
          return false;
        if (op.kind == OpKind::ExpandDims && !dictInt(d, "axis", a.axis, true))
          return false;
        if (permutes) {
          auto it = d.find("order");
          if (it == d.end() || it->second.kind != DictValue::Array)
            return fail(std::string(mnemonic(op.kind)) +
                        " needs an attribute 'order = array<i32: ...>'");
          for (int64_t x : it->second.array)
            a.order.push_back(int32_t(std::max<int64_t>(-1, std::min<int64_t>(x, 1 << 20))));
        }
      }
      if (!expectPunct(":", "before the operand type"))
        return false;
      if (!parseTypeOf(op.operands[0], t))
        return false;
      if (!expectPunct("->", "between the operand and result types") || !parseType(u))
        return false;
      results.push_back(u);
      return true;
    }
    case OpKind::AddPtr: {
      if (!parseOperands(op.operands, 2))
        return false;
      if (op.operands.size() != 2)
        return fail("tt.addptr takes two operands");
      if (!parseOptionalHints(op.attrs))
        return false;
      if (!expectPunct(":", "before the types"))
        return false;
      if (!parseTypeOf(op.operands[0], t))
        return false;
      if (!expectPunct(",", "between the pointer and offset types"))
        return false;
      if (!parseTypeOf(op.operands[1], u))
        return false;
      results.push_back(t);
      return true;
    }
    case OpKind::Load:
    case OpKind::Store: {
      bool isLoad = op.kind == OpKind::Load;
      if (!parseOperands(op.operands, 3))
        return false;
      if (op.operands.size() < (isLoad ? 1u : 2u))
        return fail(isLoad ? "tt.load takes a pointer [, mask [, other]]"
                           : "tt.store takes a pointer, a value [, mask]");
      if (!parseOptionalVectorWidth(a))
        return false;
      if (!expectPunct(":", "before the pointer type"))
        return false;
      if (!parseTypeOf(op.operands[0], t))
        return false;
      if (isLoad)
        results.push_back(t.withElem(ElemType{t.elem().scalar, false}));
      return true;
    }
    case OpKind::AtomicRMW:
      // tt.atomic_rmw KIND, SEM, SCOPE, %ptr, %val [, %mask] : (types) -> type
      if (!parseName(atomicKindFromName,
                     "an atomic operation (and, or, xor, add, fadd, max, min, umax, umin, exch)",
                     a.atomicKind) ||
          !expectPunct(",", "after the atomic operation"))
        return false;
      [[fallthrough]];
    case OpKind::AtomicCAS: {
      // tt.atomic_cas SEM, SCOPE, %ptr, %cmp, %val [, %mask] : (types) -> type
      const bool cas = op.kind == OpKind::AtomicCAS;
      if (!parseName(memSemanticFromName, "a memory ordering (relaxed, acquire, release, acq_rel)",
                     a.semantic) ||
          !expectPunct(",", "after the memory ordering") ||
          !parseName(memScopeFromName, "a memory scope (gpu, cta, sys)", a.scope))
        return false;
      const size_t values = atomicValueOperands(op.kind);
      if (!expectPunct(",", "after the memory scope") || !parseOperands(op.operands, 2 + values))
        return false;
      if (op.operands.size() < 1 + values)
        return fail(cas ? "tt.atomic_cas takes a pointer, a compare value, a new value [, mask]"
                        : "tt.atomic_rmw takes a pointer, a value [, mask]");
      if (!operandTypesThenResult(op, u))
        return false;
      results.push_back(u);
      return true;
    }
    case OpKind::LocalAlloc:
      if (!parseOperands(op.operands, 1) || !operandTypesThenResult(op, u))
        return false;
      results.push_back(u);
      return true;
    case OpKind::LocalStore: {
      if (!parseOperands(op.operands, 2))
        return false;
      if (op.operands.size() != 2)
        return fail("ttg.local_store takes a value and a memdesc");
      if (!expectPunct(":", "before the types"))
        return false;
      if (!parseTypeOf(op.operands[0], t))
        return false;
      if (!expectPunct("->", "between the value and memdesc types"))
        return false;
      if (!parseTypeOf(op.operands[1], u))
        return false;
      return true;
    }
    case OpKind::LocalDealloc: {
      if (!parseOperands(op.operands, 1))
        return false;
      if (op.operands.size() != 1)
        return fail("ttg.local_dealloc takes one operand");
      if (!expectPunct(":", "before the type"))
        return false;
      return parseTypeOf(op.operands[0], t);
    }
    case OpKind::MemDescIndex: {
      ValueId v;
      if (!lookupValue(v))
        return false;
      op.operands.push_back(v);
      if (!expectPunct("[", "before the tile index") || !lookupValue(v))
        return false;
      op.operands.push_back(v);
      if (!expectPunct("]", "after the tile index") || !expectPunct(":", "before the types"))
        return false;
      if (!parseTypeOf(op.operands[0], t) || !expectPunct("->", "before the result type") ||
          !parseType(u))
        return false;
      results.push_back(u);
      return true;
    }
    case OpKind::MemDescSubslice: {
      // ttg.memdesc_subslice %src [0, 32] : !ttg.memdesc<...> -> !ttg.memdesc<..., 128x64>
      ValueId v;
      if (!lookupValue(v))
        return false;
      op.operands.push_back(v);
      if (!expectPunct("[", "before the offsets"))
        return false;
      while (!isPunct("]")) {
        if (!a.offsets.empty() && !expectPunct(",", "between offsets"))
          return false;
        int64_t off;
        if (!parseInt(off, "an offset"))
          return false;
        a.offsets.push_back(off);
        if (a.offsets.size() > size_t(Type::kMaxRank))
          return fail("more than " + std::to_string(Type::kMaxRank) + " offsets");
      }
      advance();
      if (!expectPunct(":", "before the types"))
        return false;
      if (!parseTypeOf(op.operands[0], t) || !expectPunct("->", "before the result type") ||
          !parseType(u))
        return false;
      results.push_back(u);
      return true;
    }
    case OpKind::AsyncCopyGlobalToLocal: {
      if (!parseOperands(op.operands, 2))
        return false;
      if (op.operands.size() != 2)
        return fail("ttg.async_copy_global_to_local takes pointers and a memdesc");
      for (std::string_view word : {"mask", "other"}) {
        if (!isIdent(word))
          continue;
        if (op.operands.size() != (word == "mask" ? 2u : 3u))
          return fail("'other' needs a mask before it");
        advance();
        ValueId v;
        if (!lookupValue(v))
          return false;
        op.operands.push_back(v);
      }
      if (!parseOptionalVectorWidth(a, /*slotFree=*/true))
        return false;
      if (!expectPunct(":", "before the types"))
        return false;
      if (!parseTypeOf(op.operands[0], t) ||
          !expectPunct("->", "between the pointer and memdesc types"))
        return false;
      Loc loc = tok_.loc;
      return parseType(u, /*bareMemDesc=*/true) && checkType(op.operands[1], u, loc);
    }
    case OpKind::AsyncCommitGroup:
      if (isIdent("tokens")) { // Triton's `tokens %t, ...`
        advance();
        return parseTokens();
      }
      return true;
    case OpKind::Barrier:
      return true;
    case OpKind::AsyncWait: {
      if (!parseTokens()) // Triton's `%t, ...` before the attributes
        return false;
      Dict d;
      if (!parseDict(d) || !dictInt(d, "num", a.num, true))
        return false;
      if (a.num < 0 || a.num > 1024)
        return fail("ttg.async_wait num must be in 0..1024");
      return true;
    }
    case OpKind::Dot: {
      if (!parseOperands(op.operands, 3))
        return false;
      if (op.operands.size() != 3)
        return fail("tt.dot takes three operands (a, b, c)");
      // Triton writes `inputPrecision = tf32` and `maxNumImpreciseAcc = 0` after the operands.
      while (tok_.kind == Tok::Ident && !isPunct(":")) {
        advance();
        if (!expectPunct("=", "after a tt.dot option"))
          return false;
        if (tok_.kind != Tok::Ident && tok_.kind != Tok::Integer)
          return fail("expected a tt.dot option value, got " + describe(tok_));
        advance();
        if (isPunct(","))
          advance();
      }
      if (!skipOptionalDict())
        return false;
      return parseDotTypes(op, results);
    }
    case OpKind::Reduce:
    case OpKind::Scan: {
      const bool scan = op.kind == OpKind::Scan;
      if (!parseName(reduceKindFromName,
                     "a combining function (sum, prod, max, min, maxnum, minnum, umax or umin)",
                     a.reduceKind) ||
          !parseOperands(op.operands, 1))
        return false;
      if (op.operands.size() != 1)
        return fail(std::string(mnemonic(op.kind)) + " takes one operand");
      Dict d;
      if (!parseDict(d) || !dictInt(d, "axis", a.axis, true) || (scan && !dictReverse(d, a)))
        return false;
      if (!expectPunct(":", "before the operand type"))
        return false;
      if (!parseTypeOf(op.operands[0], t))
        return false;
      if (!expectPunct("->", "before the result type") || !parseType(u))
        return false;
      results.push_back(u);
      return true;
    }
    case OpKind::WarpGroupDot: {
      if (!parseOperands(op.operands, 3))
        return false;
      if (op.operands.size() != 3)
        return fail("ttng.warp_group_dot takes three operands (a, b, c)");
      if (isPunct("{")) {
        Dict d;
        if (!parseDict(d))
          return false;
        int64_t async = 0;
        if (!dictInt(d, "isAsync", async, false))
          return false;
        a.isAsync = async != 0;
      }
      return parseDotTypes(op, results);
    }
    case OpKind::WarpGroupDotWait: {
      if (!parseOperands(op.operands, 256))
        return false;
      if (op.operands.empty())
        return fail("ttng.warp_group_dot_wait takes at least one operand");
      Dict d;
      if (!parseDict(d) || !dictInt(d, "pendings", a.pendings, true))
        return false;
      if (!expectPunct(":", "before the operand types"))
        return false;
      for (size_t i = 0; i < op.operands.size(); ++i) {
        if (i && !expectPunct(",", "between operand types"))
          return false;
        if (!parseTypeOf(op.operands[i], t))
          return false;
        results.push_back(t);
      }
      return true;
    }
    case OpKind::FenceAsyncShared: {
      if (!skipOptionalDict())
        return false;
      return true;
    }
    case OpKind::InitBarrier:
    case OpKind::InvalBarrier:
    case OpKind::BarrierExpect:
    case OpKind::WaitBarrier:
      return parseBarrierOp(op);
    case OpKind::AsyncTmaCopyGlobalToLocal:
      return parseTmaCopy(op);
    case OpKind::AsyncTmaCopyLocalToGlobal:
      return parseTmaStore(op);
    case OpKind::AsyncTmaStoreWait: {
      Dict d;
      return parseDict(d) && dictInt(d, "pendings", a.pendings, true);
    }
    default: // interim: the families of ir/lib/ops/ parse their own ops
      break;
    }
    return fail("unhandled op");
  }

private:
  bool parseOperand(Op &op) {
    ValueId v;
    if (!lookupValue(v))
      return false;
    op.operands.push_back(v);
    return true;
  }

  // `ttng.init_barrier %bar, 1 : T`, `ttng.inval_barrier %bar : T`,
  // `ttng.barrier_expect %bar, 32768, %pred : T`, `ttng.wait_barrier %bar, %phase[, %pred] : T`.
  bool parseBarrierOp(Op &op) {
    if (!parseOperand(op))
      return false;
    if (op.kind == OpKind::InitBarrier || op.kind == OpKind::BarrierExpect) {
      if (!expectPunct(",", op.kind == OpKind::InitBarrier ? "before the arrival count"
                                                           : "before the expected bytes") ||
          !parseInt(op.attrs.count,
                    op.kind == OpKind::InitBarrier ? "an arrival count" : "a byte count"))
        return false;
      if (op.attrs.count < 0 || op.attrs.count > (int64_t(1) << 30))
        return fail("count " + std::to_string(op.attrs.count) + " is out of range");
    }
    if (op.kind == OpKind::BarrierExpect &&
        (!expectPunct(",", "before the predicate") || !parseOperand(op)))
      return false;
    if (op.kind == OpKind::WaitBarrier) {
      if (!expectPunct(",", "before the phase") || !parseOperand(op))
        return false;
      if (isPunct(",")) {
        advance();
        if (!parseOperand(op))
          return false;
      }
    }
    if (!skipOptionalDict())
      return false;
    if (!expectPunct(":", "before the barrier type"))
      return false;
    Type t;
    return parseTypeOf(op.operands[0], t);
  }

  // `%desc[%c0, %c1]`, the descriptor and the box coordinates of a TMA copy, into the operands.
  bool parseTmaBox(Op &op) {
    if (!parseOperand(op) || !expectPunct("[", "before the box coordinates"))
      return false;
    while (true) {
      if (!parseOperand(op))
        return false;
      if (op.operands.size() > 6)
        return fail("a TMA copy takes at most 5 coordinates");
      if (isPunct("]"))
        break;
      if (!expectPunct(",", "or ']' after a coordinate"))
        return false;
    }
    advance();
    return true;
  }

  // `ttng.async_tma_copy_global_to_local %desc[%c0, %c1] %dst, %bar, %pred : D, B -> M`.
  bool parseTmaCopy(Op &op) {
    if (!parseTmaBox(op))
      return false;
    size_t coords = op.operands.size() - 1;
    if (!parseOperand(op) || !expectPunct(",", "after the destination") || !parseOperand(op) ||
        !expectPunct(",", "after the barrier") || !parseOperand(op))
      return false;
    if (!skipOptionalDict())
      return false;
    if (!expectPunct(":", "before the types"))
      return false;
    Type t;
    if (!parseTypeOf(op.operands[0], t) ||
        !expectPunct(",", "between the descriptor and barrier types"))
      return false;
    if (!parseTypeOf(op.operands[coords + 2], t) ||
        !expectPunct("->", "before the destination type"))
      return false;
    return parseTypeOf(op.operands[coords + 1], t);
  }

  // `ttng.async_tma_copy_local_to_global %desc[%c0, %c1] %src : D, M`.
  bool parseTmaStore(Op &op) {
    if (!parseTmaBox(op) || !parseOperand(op) || !skipOptionalDict() ||
        !expectPunct(":", "before the types"))
      return false;
    Type t;
    return parseTypeOf(op.operands[0], t) &&
           expectPunct(",", "between the descriptor and source types") &&
           parseTypeOf(op.operands.back(), t);
  }

  bool parseConstant(Op &op, std::vector<Type> &results) {
    OpAttrs &a = op.attrs;
    Token valueTok;
    bool dense = false;
    if (isIdent("dense")) {
      dense = true;
      advance();
      if (!expectPunct("<", "after 'dense'"))
        return false;
    }
    valueTok = tok_;
    if (!(tok_.kind == Tok::Integer || tok_.kind == Tok::Float || isIdent("true") ||
          isIdent("false")))
      return fail("expected a constant value, got " + describe(tok_));
    advance();
    if (dense && !expectPunct(">", "to close dense<...>"))
      return false;
    Type t = Type::scalar(ScalarKind::I1);
    bool isBool = valueTok.kind == Tok::Ident;
    if (isPunct(":")) {
      advance();
      if (!parseType(t))
        return false;
    } else if (!isBool) {
      return fail("expected ':' and a type after the constant, got " + describe(tok_));
    }
    if (dense != t.isTensor())
      return failAt(valueTok.loc, dense ? "dense<...> needs a tensor type"
                                        : "a tensor constant is written dense<...>");
    ScalarKind k = t.elem().scalar;
    if (t.elem().pointer)
      return failAt(valueTok.loc, "pointer constants are not supported");
    if (isBool) {
      if (k != ScalarKind::I1)
        return failAt(valueTok.loc, "true/false needs type i1");
      a.intValue = valueTok.text == "true";
    } else if (isFloat(k)) {
      if (valueTok.kind == Tok::Integer && valueTok.text.find("0x") != std::string_view::npos) {
        auto bits = toInt(valueTok.text);
        if (!bits)
          return failAt(valueTok.loc, "bad hex constant");
        a.floatValue = floatFromBits(uint64_t(*bits), k);
      } else {
        a.floatValue = std::strtod(std::string(valueTok.text).c_str(), nullptr);
      }
    } else {
      if (valueTok.kind != Tok::Integer)
        return failAt(valueTok.loc, "integer type " + std::string(name(k)) + " needs an integer");
      auto v = toInt(valueTok.text);
      if (!v)
        return failAt(valueTok.loc, "integer constant is out of range");
      a.intValue = *v;
    }
    results.push_back(t);
    return true;
  }

  static double floatFromBits(uint64_t bits, ScalarKind k) {
    if (k == ScalarKind::F64) {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    uint32_t b32 = uint32_t(bits);
    if (k == ScalarKind::BF16)
      b32 = uint32_t(bits & 0xFFFF) << 16;
    if (k == ScalarKind::F16) {
      // Enough of half -> float for the special values dumps write in hex.
      uint32_t h = uint32_t(bits & 0xFFFF);
      uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
      double v;
      if (exp == 0x1F)
        v = mant ? NAN : INFINITY;
      else if (exp == 0)
        v = std::ldexp(double(mant), -24);
      else
        v = std::ldexp(double(mant | 0x400), int(exp) - 25);
      return sign ? -v : v;
    }
    float f;
    std::memcpy(&f, &b32, 4);
    return f;
  }

  bool parseFor(Op &op, std::vector<Type> &results, int depth) {
    if (depth + 1 > kMaxNesting)
      return fail("loops nested more than " + std::to_string(kMaxNesting) + " deep");
    if (tok_.kind != Tok::Value)
      return fail("expected the induction variable, got " + describe(tok_));
    std::string_view ivName = tok_.text;
    Loc ivLoc = tok_.loc;
    advance();
    ValueId lb, ub, step;
    if (!expectPunct("=", "after the induction variable") || !lookupValue(lb) ||
        !expectIdent("to", "after the lower bound") || !lookupValue(ub) ||
        !expectIdent("step", "after the upper bound") || !lookupValue(step))
      return false;
    op.operands = {lb, ub, step};
    // The iteration arguments; async tokens among them (Triton's) are dropped, their positions
    // kept in `tokens`.
    std::vector<std::pair<std::string_view, Loc>> argNames;
    std::vector<size_t> tokens;
    size_t written = 0;
    if (isIdent("iter_args")) {
      advance();
      if (!expectPunct("(", "after iter_args"))
        return false;
      while (!isPunct(")")) {
        if (tok_.kind != Tok::Value)
          return fail("expected an iteration argument, got " + describe(tok_));
        std::pair<std::string_view, Loc> name{tok_.text, tok_.loc};
        advance();
        ValueId init;
        if (!expectPunct("=", "after an iteration argument"))
          return false;
        if (!lookupValue(init, /*allowToken=*/true))
          return false;
        if (init == kAsyncToken) {
          tokens.push_back(written);
          if (!define(name.first, name.second, {kAsyncToken}))
            return false;
        } else {
          argNames.push_back(name);
          op.operands.push_back(init);
        }
        if (++written > 256)
          return fail("too many iteration arguments");
        if (isPunct(","))
          advance();
        else if (!isPunct(")"))
          return fail("expected ',' or ')' in iter_args, got " + describe(tok_));
      }
      advance();
      if (!expectPunct("->", "before the loop result types") ||
          !expectPunct("(", "to open the loop result types"))
        return false;
      for (size_t i = 0, arg = 0; i < written; ++i) {
        if (i && !expectPunct(",", "between loop result types"))
          return false;
        if (std::find(tokens.begin(), tokens.end(), i) != tokens.end()) {
          if (!isTokenType())
            return fail("expected !ttg.async.token for a loop-carried token, got " +
                        describe(tok_));
          advance();
          continue;
        }
        Type t;
        if (!parseTypeOf(op.operands[3 + arg++], t))
          return false;
        results.push_back(t);
      }
      if (!expectPunct(")", "to close the loop result types"))
        return false;
    }
    Type ivType = fn_->type(lb);
    if (isPunct(":")) {
      advance();
      if (!parseType(ivType))
        return false;
    }
    if (!expectPunct("{", "to open the loop body"))
      return false;
    Block body;
    openRegion();
    ValueId iv = fn_->addValue(ivType, std::string(ivName));
    if (!define(ivName, ivLoc, {iv}))
      return false;
    body.args.push_back(iv);
    for (size_t i = 0; i < argNames.size(); ++i) {
      ValueId a = fn_->addValue(fn_->type(op.operands[3 + i]), std::string(argNames[i].first));
      if (!define(argNames[i].first, argNames[i].second, {a}))
        return false;
      body.args.push_back(a);
    }
    if (!parseBlockOps(body, depth + 1))
      return false;
    advance(); // '}'
    closeRegion();
    // A loop without iteration arguments may leave out its empty scf.yield, as MLIR prints it.
    if (written == 0 && (body.ops.empty() || body.ops.back().kind != OpKind::Yield)) {
      body.ops.emplace_back();
      body.ops.back().kind = OpKind::Yield;
    } else if (!body.ops.empty() && body.ops.back().kind == OpKind::Yield &&
               yieldedTokens_ != tokens) {
      return failAt(body.ops.back().loc,
                    "the loop's scf.yield must yield its async tokens where the loop carries them");
    }
    tokenResults_ = std::move(tokens);
    op.regions.push_back(std::move(body));
    return true;
  }

  // `scf.if %cond [-> (types)] { ... } [else { ... }]`. A branch of an if without results may
  // leave out its (empty) scf.yield, as MLIR prints it; the parser adds it.
  bool parseIf(Op &op, std::vector<Type> &results, int depth) {
    if (depth + 1 > kMaxNesting)
      return fail("regions nested more than " + std::to_string(kMaxNesting) + " deep");
    ValueId cond;
    if (!lookupValue(cond))
      return false;
    op.operands = {cond};
    if (isPunct("->")) {
      advance();
      if (!expectPunct("(", "to open the result types"))
        return false;
      while (!isPunct(")")) {
        if (!results.empty() && !expectPunct(",", "between result types"))
          return false;
        Type t;
        if (!parseType(t))
          return false;
        results.push_back(t);
        if (results.size() > 256)
          return fail("too many results");
      }
      advance();
    }
    for (int branch = 0; branch < 2; ++branch) {
      Block b;
      if (branch == 0 || isIdent("else")) {
        if (branch == 1)
          advance();
        Loc open = tok_.loc;
        if (!expectPunct("{", branch == 0 ? "to open the then block" : "to open the else block"))
          return false;
        openRegion();
        if (!parseBlockOps(b, depth + 1))
          return false;
        advance(); // '}'
        closeRegion();
        if (b.ops.empty() || b.ops.back().kind != OpKind::Yield) {
          if (!results.empty())
            return failAt(open, std::string(branch == 0 ? "the then" : "the else") +
                                    " block of an scf.if with results must end with scf.yield");
          b.ops.emplace_back();
          b.ops.back().kind = OpKind::Yield;
        }
      } else {
        if (!results.empty())
          return fail("an scf.if with results needs an else block, got " + describe(tok_));
        b.ops.emplace_back();
        b.ops.back().kind = OpKind::Yield;
      }
      op.regions.push_back(std::move(b));
    }
    return true;
  }

  std::vector<size_t> tokenResults_;  // positions of the async tokens among an op's results
  std::vector<size_t> yieldedTokens_; // positions of the async tokens the last yield dropped
  Lexer lex_;
  std::string file_;
  Token tok_;
  std::optional<std::string> error_;
  Module module_;
  std::map<std::string, LayoutSpec> aliases_;
  AttrAliases attrAliases_;
  std::set<std::string> memorySpaces_; // aliases of #ttg.shared_memory
  std::unordered_map<std::string, std::vector<ValueId>> names_;
  std::vector<std::vector<std::string>> regionNames_; // per open region, the names it defined
  Function *fn_ = nullptr;
};

} // namespace

#define LINLAYOUT_LEGACY(F)                                                                        \
  bool parse##F##Op(OpParser &p, Op &op, std::vector<Type> &results, int depth) {                  \
    return static_cast<Parser &>(p).parseOpBody(op, results, depth);                               \
  }
LINLAYOUT_LEGACY(Structure)
LINLAYOUT_LEGACY(Source)
LINLAYOUT_LEGACY(Shape)
LINLAYOUT_LEGACY(Memory)
LINLAYOUT_LEGACY(Shared)
LINLAYOUT_LEGACY(Compute)
LINLAYOUT_LEGACY(Hopper)
#undef LINLAYOUT_LEGACY

Expected<Module> parseModule(std::string_view text, std::string_view fileName) {
  return Parser(text, fileName).run();
}

} // namespace linlayout::ir
