#include "Lexer.h"

#include <cctype>
#include <cstring>

namespace linlayout::ir {

Token Lexer::next() {
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

// Skips white space, comments and MLIR's source locations, which carry nothing the IR keeps:
// `loc(...)` after an op, an argument or a closing brace, and the `#loc3 = loc(...)` lines of a
// dump printed with debug info (Triton's dumps have both).
void Lexer::skip() {
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

bool Lexer::wordChar(char ch) {
  return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '$';
}

// The end of a location at `at` (`loc(...)`, or a `#locN = loc(...)` definition), or `at`.
size_t Lexer::locationEnd(size_t at) const {
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

} // namespace linlayout::ir
