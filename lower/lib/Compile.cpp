#include "linlayout/lower/Compile.h"

namespace linlayout::lower {

Expected<LoweredKernel> compileKernel(const ir::Module &module, const CompileOptions &options) {
  if (!options.runPasses)
    return lowerKernel(module, options);
  ir::Module passed = module;
  LL_TRY_STATUS(ir::runPipeline(passed, static_cast<const ir::PipelineOptions &>(options)));
  return lowerKernel(passed, options);
}

} // namespace linlayout::lower
