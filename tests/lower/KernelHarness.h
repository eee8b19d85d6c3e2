// Builds small test kernels for sm_80 and sm_90 from one body.
#pragma once

#include "KernelBuilder.h"

#include <functional>
#include <vector>

namespace linlayout::lower::testing {

/// The targets every lowering test compiles for.
inline const std::vector<PtxTarget> &testTargets() {
  static const std::vector<PtxTarget> t = {{80, 80}, {90, 80}};
  return t;
}

/// Emits the kernel body; an error stops the build.
using KernelBody = std::function<Status(KernelBuilder &, const PtxTarget &)>;

/// A kernel `name` with parameters (in, out: 16-byte aligned global pointers) and
/// `threads` threads, built by `body` and compiled for `target`.
Expected<KernelPtx> buildKernel(const PtxTarget &target, const std::string &name, int threads,
                                const KernelBody &body, bool optimize = true);

} // namespace linlayout::lower::testing
