// `linlayout opt FILE`: verify a tile-IR file, run the pass pipeline, print the result.
#include "Args.h"
#include "Commands.h"
#include "PipelineFlags.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace linlayout::cli {

namespace {

struct OptArgs {
  std::string file;
  bool dump = false;
  ir::PipelineOptions pipeline;
};

int runOpt(OptArgs &a) {
  auto text = readFile(a.file);
  if (!text) {
    std::cerr << "linlayout opt: " << text.message() << "\n";
    return 1;
  }
  auto module = ir::parseModule(*text, a.file);
  if (!module) {
    std::cerr << module.message() << "\n";
    return 1;
  }
  if (a.dump)
    a.pipeline.dumpAfterEach = &std::cout;
  std::vector<std::string> remarks;
  a.pipeline.remarks = &remarks;
  Status s = ir::runPipeline(*module, a.pipeline);
  for (const std::string &r : remarks)
    std::cerr << "remark: " << r << "\n";
  if (!s.ok()) {
    std::cerr << s.message() << "\n";
    return 1;
  }
  if (a.dump)
    std::cout << "// -----// Result //----- //\n";
  std::cout << ir::print(*module);
  return 0;
}

} // namespace

void addOptCommand(CLI::App &app, int &status) {
  std::string passes;
  for (std::string_view p : ir::pipelinePassNames())
    passes += (passes.empty() ? "" : ", ") + std::string(p);
  CLI::App *cmd = app.add_subcommand(
      "opt", "Verify a tile-IR file, run the layout passes on it and print the result.");
  cmd->footer("Passes, in order: " + passes + " (docs/ir.md).");
  auto a = std::make_shared<OptArgs>();
  cmd->add_option("FILE", a->file, "the tile-IR module (.tir or a TritonGPU dump)")->required();
  cmd->add_flag("--dump-after-each", a->dump, "print the IR after every pass that changed it");
  addPipelineFlags(*cmd, a->pipeline);
  cmd->callback([a, &status] { status = runOpt(*a); });
}

} // namespace linlayout::cli
