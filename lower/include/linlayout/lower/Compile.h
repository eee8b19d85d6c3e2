// The compile pipeline in one call: the IR passes (ir/Pipeline.h), then lowering to PTX
// (Lower.h). `linlayout compile`, the jit (jit/Compiler.h) and the GPU bench all compile through
// compileKernel with one CompileOptions, so a new option is added once and reaches all three.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

namespace linlayout::lower {

/// How to compile: LowerOptions (target, kernel, optimisation, conversion paths, fp fusion,
/// annotations) and ir::PipelineOptions (stages, prefetch, dumps), and whether to run the passes.
struct CompileOptions : LowerOptions, ir::PipelineOptions {
  /// Run the IR pass pipeline first, on a copy of the module. Off: lower the module as written
  /// (its layouts and `ll.vec` widths as given).
  bool runPasses = true;
};

/// Runs the pass pipeline on a copy of `module` (unless options.runPasses is off), then lowers
/// the kernel options.kernel names.
/// Requires: what runPipeline and lowerKernel require (their errors are returned; a pass's names
/// the pass).
/// Ensures: with runPasses off, the result equals lowerKernel(module, options).
Expected<LoweredKernel> compileKernel(const ir::Module &module, const CompileOptions &options);

} // namespace linlayout::lower
