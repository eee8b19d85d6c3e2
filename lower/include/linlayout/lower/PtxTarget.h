// The PTX a kernel is compiled to: the SM version it targets and the PTX ISA version it declares.
// (layout/GpuTarget.h names the targets the planner costs; this one is what the code generator
// writes.)
#pragma once

#include "linlayout/support/Expected.h"

#include <string>
#include <string_view>

namespace linlayout::lower {

/// An NVIDIA GPU architecture that lower/ emits PTX for.
struct PtxTarget {
  /// Compute capability times ten: 80 (A100), 86, 89, 90 (H100/H200).
  int sm = 90;
  /// The PTX ISA version times ten written in `.version` (80 = PTX 8.0).
  int ptxVersion = 80;
  /// The architecture-specific variant ("sm_90a"): wgmma and setmaxnreg need it; its code runs
  /// only on that exact architecture.
  bool archSpecific = false;

  /// Parses "sm_80", "sm_86", "sm_89", "sm_90" or "sm_90a", with the default PTX version for it.
  /// Requires: one of those names (an error naming the text otherwise).
  /// Ensures: parse(t.name())->name() == t.name() for every supported target t.
  static Expected<PtxTarget> parse(std::string_view name);

  /// "sm_90", "sm_90a" etc.
  std::string name() const;
  /// Whether the target has Hopper instructions (stmatrix, clusters, distributed shared memory).
  bool hasSm90Features() const { return sm >= 90; }
  /// The most shared memory one CTA may use (dynamic, after opting in): 227 KiB on sm_90,
  /// 163 KiB on sm_80, 99 KiB on sm_86 and sm_89.
  int64_t sharedBytesPerBlock() const;
  /// Whether the target has wgmma (sm_90a).
  bool hasWgmma() const { return sm == 90 && archSpecific; }

  friend bool operator==(const PtxTarget &, const PtxTarget &) = default;
};

} // namespace linlayout::lower
