// `linlayout show`: pictures of layouts (see Show.cpp for the options).
#pragma once

namespace linlayout::cli {

/// Runs `linlayout show ARGS...` (argv[0] is "show"). Returns the process exit code: 0 on
/// success, 1 when a layout or a file cannot be read or written, 2 for a usage mistake.
int runShow(int argc, char **argv);

} // namespace linlayout::cli
