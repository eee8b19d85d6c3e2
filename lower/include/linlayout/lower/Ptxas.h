// Assembling PTX with NVIDIA's ptxas (part of the CUDA toolkit, when it is installed) to learn
// what a kernel costs in registers, stack and spills, without a GPU. `linlayout compile --ptxas`
// and the lowering tests use it.
#pragma once

#include "linlayout/support/Expected.h"

#include <optional>
#include <string>

namespace linlayout::lower {

/// What `ptxas -v` said about a kernel.
struct PtxasReport {
  bool accepted = false; // ptxas assembled the PTX
  std::string log;       // its output
  int registers = -1;    // -1 where the log does not say
  int stackBytes = -1;
  int spillStoreBytes = -1;
  int spillLoadBytes = -1;
  std::string cubin; // the ELF ptxas wrote, where it accepted the PTX
};

/// The ptxas to run: $LINLAYOUT_PTXAS when set, else `fallback`; nullopt when that file is not
/// executable.
std::optional<std::string> findPtxas(const std::string &fallback = "/usr/local/cuda/bin/ptxas");

/// Runs `ptxas -v -arch=ARCH` on `ptx` (ARCH as a target names itself: sm_80, sm_90a). An error
/// when ptxas cannot be run at all; a report with `accepted` false and ptxas' log when it rejects
/// the PTX.
Expected<PtxasReport> runPtxas(const std::string &ptxas, const std::string &ptx,
                               const std::string &arch);

} // namespace linlayout::lower
