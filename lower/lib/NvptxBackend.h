// LLVM's NVPTX code generator behind a small interface: prepare a module for a target, optimise
// it, verify it, print it, and write its PTX.
#pragma once

#include "linlayout/lower/PtxTarget.h"

#include <memory>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace linlayout::lower {

/// One target machine for one GPU target; reusable for many modules (not thread-safe).
class NvptxBackend {
public:
  /// Initialises LLVM's NVPTX target (once per process) and creates the target machine.
  /// Requires: target.ptxVersion <= shim::maxPtxVersion().
  static Expected<std::unique_ptr<NvptxBackend>> create(const PtxTarget &target);
  ~NvptxBackend();

  const PtxTarget &target() const { return target_; }

  /// Sets the module's triple and data layout to this target's.
  void prepare(llvm::Module &m) const;
  /// Runs LLVM's O3 pipeline on the module.
  /// Requires: prepare(m) was called and verify(m) passes.
  void optimize(llvm::Module &m) const;
  /// Writes the module as PTX text, its approximate f32 divisions as div.full.f32.
  /// Requires: prepare(m) was called. Ensures: on success the text starts with the PTX header
  /// (`.version`, `.target`, `.address_size 64`).
  Expected<std::string> emitPtx(llvm::Module &m) const;

private:
  NvptxBackend(PtxTarget target, std::unique_ptr<llvm::TargetMachine> tm);
  PtxTarget target_;
  std::unique_ptr<llvm::TargetMachine> tm_;
};

/// Checks the module with LLVM's verifier; the error holds the verifier's report.
Status verifyModule(const llvm::Module &m);

/// The module as LLVM IR text.
std::string printModule(const llvm::Module &m);

} // namespace linlayout::lower
