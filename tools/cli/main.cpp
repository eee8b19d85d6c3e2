// linlayout: the command-line tool. Subcommands:
//   linlayout query [FILE]   answer JSON-lines layout queries (stdin when no FILE)
//   linlayout show LAYOUT... pictures of layouts (Show.cpp)
//   linlayout opt FILE       run the tile-IR pass pipeline (Opt.cpp)
//   linlayout compile FILE   tile IR -> PTX or LLVM IR (Compile.cpp)
//   linlayout plan ...       plan a layout conversion and explain it (Plan.cpp)
#include "Compile.h"
#include "Opt.h"
#include "Plan.h"
#include "Show.h"
#include "query/Query.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

namespace {

int usage(std::ostream &os, int code) {
  os << "usage: linlayout <command> [args]\n"
        "commands:\n"
        "  query [FILE]     answer JSON-lines layout queries from FILE or standard input\n"
        "  show LAYOUT...   draw layouts: who holds each element (show --help for options)\n"
        "  opt FILE         verify a tile-IR file, run the layout passes, print it\n"
        "  compile FILE     compile a tile-IR kernel to PTX (see: linlayout compile --help)\n"
        "  plan ...         plan a layout conversion and explain it (plan --help)\n"
        "  help             this text\n";
  return code;
}

int runQuery(int argc, char **argv) {
  if (argc > 3)
    return usage(std::cerr, 2);
  std::ios::sync_with_stdio(false);
  if (argc == 3) {
    std::ifstream f(argv[2], std::ios::binary);
    if (!f) {
      std::cerr << "linlayout query: cannot open '" << argv[2] << "': " << std::strerror(errno)
                << "\n";
      return 1;
    }
    return linlayout::query::runQueries(f, std::cout);
  }
  return linlayout::query::runQueries(std::cin, std::cout);
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2)
    return usage(std::cerr, 2);
  std::string cmd = argv[1];
  if (cmd == "query")
    return runQuery(argc, argv);
  if (cmd == "show")
    return linlayout::cli::runShow(argc - 1, argv + 1);
  if (cmd == "opt")
    return linlayout::cli::runOpt(argc - 1, argv + 1);
  if (cmd == "compile")
    return linlayout::cli::runCompile(argc, argv);
  if (cmd == "plan")
    return linlayout::cli::runPlan(argc - 1, argv + 1);
  if (cmd == "help" || cmd == "--help" || cmd == "-h")
    return usage(std::cout, 0);
  std::cerr << "linlayout: unknown command '" << cmd << "'\n";
  return usage(std::cerr, 2);
}
