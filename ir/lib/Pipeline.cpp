#include "linlayout/ir/Pipeline.h"

#include "linlayout/ir/AnnotateAccessWidths.h"
#include "linlayout/ir/CleanupConverts.h"
#include "linlayout/ir/Coalesce.h"
#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/PlanCtas.h"
#include "linlayout/ir/Prefetch.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/PropagateLayouts.h"
#include "linlayout/ir/SoftwarePipeline.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/ir/WarpSpecializeLoops.h"

#include <ostream>
#include <string>

namespace linlayout::ir {

namespace {

struct PassEntry {
  std::string_view name;
  Status (*run)(Module &, const PipelineOptions &);
  /// Whether the pass chooses layouts or access widths (skipped with keepLayouts).
  bool choosesLayouts = false;
};

Status pipeline(Module &m, const PipelineOptions &o) {
  int stages = o.numStages ? o.numStages : m.numStages ? m.numStages : 1;
  return pipelineLoops(m, stages);
}

Status prefetch(Module &m, const PipelineOptions &o) {
  int stages = o.numStages ? o.numStages : m.numStages ? m.numStages : 1;
  if (stages <= 1 || o.prefetchK == 0)
    return Status::success();
  return prefetchDotOperands(m, o.prefetchK);
}

const std::vector<PassEntry> &passes() {
  static const std::vector<PassEntry> list = {
      {"plan-ctas", [](Module &m, const PipelineOptions &) { return planCtas(m); }, true},
      {"coalesce", [](Module &m, const PipelineOptions &) { return coalesce(m); }, true},
      {"propagate-layouts", [](Module &m, const PipelineOptions &) { return propagateLayouts(m); },
       true},
      {"cleanup-converts", [](Module &m, const PipelineOptions &) { return cleanupConverts(m); },
       true},
      {"access-widths", [](Module &m, const PipelineOptions &) { return annotateAccessWidths(m); },
       true},
      {"warp-specialize-loops",
       [](Module &m, const PipelineOptions &o) { return warpSpecializeLoops(m, o.remarks); }},
      {"software-pipeline", pipeline},
      {"prefetch", prefetch},
      {"fence-insertion", [](Module &m, const PipelineOptions &) { return insertFences(m); }},
  };
  return list;
}

} // namespace

std::vector<std::string_view> pipelinePassNames() {
  std::vector<std::string_view> names;
  for (const PassEntry &p : passes())
    names.push_back(p.name);
  return names;
}

Status runPipeline(Module &m, const PipelineOptions &options) {
  LL_TRY_STATUS(verify(m));
  std::string before = options.dumpAfterEach ? print(m) : std::string();
  for (const PassEntry &p : passes()) {
    if (p.choosesLayouts && options.keepLayouts)
      continue;
    Status s = p.run(m, options);
    if (!s.ok())
      return Status(makeError(std::string(p.name) + ": " + s.message()));
    Status v = verify(m);
    if (!v.ok())
      return Status(makeError("after " + std::string(p.name) +
                              ", the module does not verify: " + v.message()));
    if (options.dumpAfterEach) {
      std::string after = print(m);
      if (after != before)
        *options.dumpAfterEach << "// -----// IR Dump After " << p.name << " //----- //\n" << after;
      before = std::move(after);
    }
  }
  return Status::success();
}

} // namespace linlayout::ir
