// `linlayout opt FILE [--dump-after-each]`: parse a tile-IR file, verify it, run the pass
// pipeline (ir/Pipeline.h) and print the result.
#pragma once

namespace linlayout::cli {

/// Runs the command; argv[0] is "opt". Returns the exit status (0 ok, 1 error, 2 usage).
int runOpt(int argc, char **argv);

} // namespace linlayout::cli
