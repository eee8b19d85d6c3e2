// The kernel compilation API: one call turns a tile-IR kernel (made with ir::Builder or parsed
// from text) into a launchable Kernel for the GPU the compiler was created on.
//
//   auto jit = jit::Compiler::create();                 // device 0, its context made current
//   auto k = jit->compile(irText);                      // lower/ -> PTX -> driver JIT, cached
//   k.value()->launch({blocks}, dst, src, n);           // arguments checked against the kernel
//
// The IR pass pipeline (ir/Pipeline.h lists its passes) runs first, unless
// CompileOptions::runPasses is off. The PTX targets the device's
// architecture, whatever the module's `ttg.target` says (sm_80,
// sm_86, sm_89, sm_90; newer devices get sm_90 PTX, which their driver compiles). Compiled
// kernels are cached by (printed IR, target, kernel name, options): compiling the same kernel
// again returns the same Kernel without lowering or JIT work. Every failure (no driver, an IR
// error, an op lower/ cannot lower, a JIT error) is an error value.
#pragma once

#include "linlayout/ir/Module.h"
#include "linlayout/jit/Kernel.h"
#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/lower/Compile.h"
#include "linlayout/runtime/Context.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace linlayout::jit {

/// How to compile: the options `linlayout compile` and the GPU bench share (lower/Compile.h).
/// The jit sets `target` to the device's, whatever the options or the module say.
using CompileOptions = lower::CompileOptions;

/// Cache counters.
struct CacheStats {
  size_t entries = 0, hits = 0, misses = 0;
};

/// The PTX architecture lower/ writes for a device of compute capability `cc` (major*10+minor).
/// Requires: cc >= 80 (an error naming cc otherwise).
/// Ensures: 80 -> "sm_80", 86 -> "sm_86", 89 -> "sm_89", 90 and above -> "sm_90"; other
/// capabilities between 80 and 89 get the largest of those not above them.
Expected<std::string> ptxArchFor(int cc);

/// Compiles and caches kernels for one device. Move-only; kernels it returned stay valid after
/// it is destroyed.
class Compiler {
public:
  /// A compiler for device `ordinal`; its primary context is made current on this thread.
  /// Requires: a CUDA driver and such a device of compute capability >= 8.0 (an error saying
  /// which is missing otherwise).
  static Expected<Compiler> create(int ordinal = 0);

  /// Compiles one kernel of `module` (verified first; its errors are returned), after the IR pass
  /// pipeline unless options.runPasses is off.
  /// Requires: the module verifies; the kernel uses ops and layouts lower/ handles.
  /// Ensures: the result's PTX declares the kernel's entry; metadata() holds lower/'s threads,
  /// shared bytes and parameters and the JIT's registers; compiling an equal module (same
  /// printed text) with equal options returns the same Kernel object.
  Expected<std::shared_ptr<const Kernel>> compile(const ir::Module &module,
                                                  const CompileOptions &options = {});

  /// Parses `text` (the tile IR's text form; `fileName` prefixes error positions) and compiles it.
  Expected<std::shared_ptr<const Kernel>> compile(std::string_view text,
                                                  const CompileOptions &options = {},
                                                  std::string_view fileName = "<input>");

  const runtime::Context &context() const;
  /// The PTX architecture kernels are compiled for ("sm_90").
  const std::string &arch() const;
  CacheStats cacheStats() const;

  Compiler(Compiler &&) noexcept;
  Compiler &operator=(Compiler &&) noexcept;
  ~Compiler();

private:
  struct State;
  explicit Compiler(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

} // namespace linlayout::jit
