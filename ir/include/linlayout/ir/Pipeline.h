// The pass pipeline, in order (one linear list, run by runPipeline):
//   1. plan-ctas            PlanCtas.h             (kernels of several CTAs)
//   2. coalesce             Coalesce.h
//   3. propagate-layouts    PropagateLayouts.h
//   4. cleanup-converts     CleanupConverts.h
//   5. access-widths        AnnotateAccessWidths.h
//   6. warp-specialize-loops WarpSpecializeLoops.h (loops marked tt.warp_specialize)
//   7. software-pipeline    SoftwarePipeline.h     (num_stages > 1 only)
//   8. prefetch             Prefetch.h             (num_stages > 1, unless prefetchK is 0)
//   9. fence-insertion      InsertFences.h
// The module is verified before the first pass and after every pass; a pass that breaks it is
// reported by name.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/layout/Expected.h"

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout::ir {

struct PipelineOptions {
  /// When set, after every pass that changed the module, its text is written here under a
  /// `// -----// IR Dump After <pass> //----- //` line.
  std::ostream *dumpAfterEach = nullptr;
  /// Software-pipelining stages for the pipeline pass: 0 takes the module's "ttg.num-stages"
  /// (1 when it has none); 1 turns pipelining off.
  int numStages = 0;
  /// The prefetch pass's K slice (16: one mma.sync k-step for f16 / bf16 operands; 0 turns the
  /// pass off): it runs after software-pipelining with more than one stage.
  int prefetchK = 16;
  /// Keep the layouts and access widths as written: skip passes 1-5, run pipelining, prefetch
  /// and fences only (the GPU bench measures kernels so, their layouts being the point).
  bool keepLayouts = false;
  /// When set, passes append why they left a loop the module asked them for as it was (a loop
  /// marked tt.warp_specialize that warp-specialize-loops could not split), one line each.
  std::vector<std::string> *remarks = nullptr;
};

/// The names of the passes, in order.
std::vector<std::string_view> pipelinePassNames();

/// Runs every pass on m.
/// Requires: nothing (an unverified module gets the verifier's error).
/// Ensures: on success verify(m) is ok and the interpreter computes what it computed before.
Status runPipeline(Module &m, const PipelineOptions &options = {});

} // namespace linlayout::ir
