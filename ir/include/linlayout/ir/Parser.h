// Reads the text form of the tile IR (see Printer.h and docs/ir.md). Errors name the place and
// what was expected: `kernel.tir:12:7: expected ',' or ')' after an argument, got '%3'`.
// The parser bounds its recursion (loops nested at most kMaxNesting deep, layout attributes at
// most 16 deep), so no input exhausts the stack; the result still has to pass verify().
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

#include <string_view>

namespace linlayout::ir {

/// The deepest nesting of scf.for the parser and verifier accept.
constexpr int kMaxNesting = 32;

/// Parses a module from text; `fileName` prefixes error positions.
/// Ensures: on success, print(result) parses again to a module that prints the same.
Expected<Module> parseModule(std::string_view text, std::string_view fileName = "<input>");

} // namespace linlayout::ir
