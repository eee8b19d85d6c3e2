// The subcommands of `linlayout`. Each add function registers its command, options and help on
// `app`; the command's callback runs it and stores its exit status in `status` (0: done, 1: the
// input was wrong or the work failed, 2: the command line was wrong).
#pragma once

namespace CLI {
class App;
}

namespace linlayout::cli {

void addQueryCommand(CLI::App &app, int &status);   // Query.cpp
void addShowCommand(CLI::App &app, int &status);    // Show.cpp
void addPlanCommand(CLI::App &app, int &status);    // Plan.cpp
void addOptCommand(CLI::App &app, int &status);     // Opt.cpp
void addCompileCommand(CLI::App &app, int &status); // Compile.cpp
void addRunCommand(CLI::App &app, int &status);     // Run.cpp

} // namespace linlayout::cli
