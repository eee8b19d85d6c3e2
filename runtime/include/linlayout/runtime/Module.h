// PTX loaded into the current context with the driver's JIT, and the kernels in it.
#pragma once

#include "linlayout/runtime/Driver.h"

#include <string>
#include <string_view>

namespace linlayout::runtime {

/// What the JIT made of a kernel.
struct FunctionAttributes {
  int numRegisters = 0;
  int staticSharedBytes = 0;
  int localBytes = 0; // spills and stack
  int maxThreadsPerBlock = 0;
};

/// A kernel of a loaded module. Valid while its Module lives.
class Function {
public:
  Function() = default;
  CUfunction handle() const { return fn_; }
  const std::string &name() const { return name_; }
  Expected<FunctionAttributes> attributes() const;
  /// Allows up to `bytes` of dynamic shared memory (needed above 48 KiB).
  Status setMaxDynamicSharedBytes(int bytes) const;
  /// How many CTAs of `threadsPerBlock` threads with `dynamicSharedBytes` each fit on one SM at
  /// once, as the driver computes it (cuOccupancyMaxActiveBlocksPerMultiprocessor). Allow the
  /// dynamic shared memory first (setMaxDynamicSharedBytes) where it is above 48 KiB.
  Expected<int> maxActiveBlocksPerSm(int threadsPerBlock, size_t dynamicSharedBytes) const;

private:
  friend class Module;
  CUfunction fn_ = nullptr;
  std::string name_;
};

/// A loaded module. Move-only; unloaded on destruction.
class Module {
public:
  /// JIT-compiles and loads PTX text into the current context. On failure the error carries the
  /// JIT's error log. Requires: a current context.
  static Expected<Module> loadPtx(std::string_view ptx);

  Module(Module &&other) noexcept;
  Module &operator=(Module &&other) noexcept;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module();

  /// The kernel called `name`, or an error naming it.
  Expected<Function> function(const std::string &name) const;
  /// What the JIT printed while compiling (info log).
  const std::string &jitLog() const { return log_; }

private:
  Module() = default;
  CUmodule mod_ = nullptr;
  std::string log_;
};

} // namespace linlayout::runtime
