// The pass pipeline's flags, shared by `opt`, `compile` and `run --gpu` so that they are spelled
// and explained once.
#pragma once

#include "linlayout/ir/Pipeline.h"

namespace CLI {
class App;
}

namespace linlayout::cli {

/// Adds --num-stages and --prefetch-k, which set `options` (kept alive by the caller).
void addPipelineFlags(CLI::App &cmd, ir::PipelineOptions &options);

} // namespace linlayout::cli
