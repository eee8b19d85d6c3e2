// `linlayout compile`: a tile-IR file to PTX (or LLVM IR).
#pragma once

namespace linlayout::cli {

/// Runs `linlayout compile FILE [options]` (argv[0] is the program, argv[1] "compile"); returns
/// the exit status.
int runCompile(int argc, char **argv);

} // namespace linlayout::cli
