// The tokens of the text form (docs/ir.md): MLIR's and Triton's syntax, cut into identifiers,
// values, attributes, numbers and punctuation; source locations and comments are skipped.
#pragma once

#include "linlayout/ir/Op.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace linlayout::ir {

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

/// Cuts a text into tokens, one at a time; the text must outlive the tokens.
class Lexer {
public:
  explicit Lexer(std::string_view s) : s_(s) {}
  /// The next token (Tok::End at the end, Tok::Error for a character no token starts with).
  Token next();

private:
  void skip();
  static bool wordChar(char ch);
  size_t locationEnd(size_t at) const;

  std::string_view s_;
  size_t p_ = 0;
  uint32_t line_ = 1;
  size_t lineStart_ = 0;
};

/// A token for messages: `'%x'`, `'@f'`, `end of input`, its text cut short.
std::string describe(const Token &t);

} // namespace linlayout::ir
