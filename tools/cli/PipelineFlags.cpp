#include "PipelineFlags.h"

#include <CLI/CLI.hpp>

namespace linlayout::cli {

void addPipelineFlags(CLI::App &cmd, ir::PipelineOptions &options) {
  cmd.add_option("--num-stages", options.numStages,
                 "software-pipeline loops with N stages (default: the module's "
                 "\"ttg.num-stages\", else 1: off)")
      ->type_name("N")
      ->check(CLI::Range(0, 16));
  cmd.add_option("--prefetch-k", options.prefetchK,
                 "prefetch pipelined dot operands in K slices of K (0: off)")
      ->type_name("K")
      ->capture_default_str()
      ->check(CLI::Range(0, 512));
}

} // namespace linlayout::cli
