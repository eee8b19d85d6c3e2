// The text form of the tile IR (what `linlayout opt` prints and Parser.h reads): TritonGPU-style
// ops with layout attributes written in the TritonGPU syntax, aliased at the top of the file
// (`#blocked = #ttg.blocked<{...}>`). docs/ir.md shows every op.
#pragma once

#include "linlayout/ir/Module.h"

#include <string>

namespace linlayout::ir {

/// The text of a module.
/// Ensures: parseModule(print(m)) succeeds for a verified m, and print(parse(print(m))) ==
/// print(m) (the text round-trips).
std::string print(const Module &m);

/// The text of one type, layouts written in full (for messages).
/// Requires: the type's layout (if any) is in m's table or is kNoLayout.
std::string printType(const Module &m, const Type &t);

} // namespace linlayout::ir
