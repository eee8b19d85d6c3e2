#include "Opt.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace linlayout::cli {

namespace {
int usage(std::ostream &os, int code) {
  os << "usage: linlayout opt FILE [--dump-after-each] [--num-stages N] [--prefetch-k K]\n"
        "  parses and verifies FILE (tile IR), runs the pass pipeline and prints the result;\n"
        "  --dump-after-each prints the IR after every pass that changed it;\n"
        "  --num-stages N pipelines loops with N stages (default: the module's\n"
        "  \"ttg.num-stages\", else 1: off)\n"
        "  --prefetch-k K prefetches pipelined dot operands in K slices of K (default 16;\n"
        "  0: off)\n"
        "  passes:";
  for (std::string_view p : ir::pipelinePassNames())
    os << " " << p;
  os << "\n";
  return code;
}
} // namespace

int runOpt(int argc, char **argv) {
  std::string file;
  bool dump = false;
  int stages = 0, prefetchK = ir::PipelineOptions().prefetchK;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--dump-after-each")
      dump = true;
    else if (a == "--num-stages" && i + 1 < argc) {
      std::string v = argv[++i];
      if (v.empty() || v.size() > 2 || v.find_first_not_of("0123456789") != std::string::npos)
        return usage(std::cerr, 2);
      stages = std::stoi(v);
    } else if (a == "--prefetch-k" && i + 1 < argc) {
      std::string v = argv[++i];
      if (v.empty() || v.size() > 3 || v.find_first_not_of("0123456789") != std::string::npos)
        return usage(std::cerr, 2);
      prefetchK = std::stoi(v);
    }
    else if (a == "--help" || a == "-h")
      return usage(std::cout, 0);
    else if (!a.empty() && a[0] == '-')
      return usage(std::cerr, 2);
    else if (file.empty())
      file = a;
    else
      return usage(std::cerr, 2);
  }
  if (file.empty())
    return usage(std::cerr, 2);
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "linlayout opt: cannot open '" << file << "': " << std::strerror(errno) << "\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto module = ir::parseModule(text.str(), file);
  if (!module) {
    std::cerr << module.message() << "\n";
    return 1;
  }
  ir::PipelineOptions options;
  options.numStages = stages;
  options.prefetchK = prefetchK;
  if (dump)
    options.dumpAfterEach = &std::cout;
  Status s = ir::runPipeline(*module, options);
  if (!s.ok()) {
    std::cerr << s.message() << "\n";
    return 1;
  }
  if (dump)
    std::cout << "// -----// Result //----- //\n";
  std::cout << ir::print(*module);
  return 0;
}

} // namespace linlayout::cli
