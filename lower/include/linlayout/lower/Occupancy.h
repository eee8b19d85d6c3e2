// How many CTAs of a kernel fit on one SM at once, from what each needs (threads, registers per
// thread as ptxas reports them, shared memory) and the SM's limits for the target (the CUDA
// programming guide's per-compute-capability table). The conversion costs in docs/conversions.md
// depend on it: a barrier that one CTA waits at alone costs more than one other CTAs hide.
#pragma once

#include "linlayout/lower/PtxTarget.h"

#include <cstdint>
#include <string>

namespace linlayout::lower {

/// The per-SM limits of a target.
struct SmLimits {
  int registers = 65536;           // 32-bit registers per SM
  int maxWarps = 64;               // resident warps per SM
  int maxBlocks = 32;              // resident CTAs per SM
  int64_t sharedBytes = 228 << 10; // shared memory per SM, of which each CTA also takes...
  int64_t reservedPerBlock = 1024; // ...this much for the system
};

/// sm_80: 64 warps, 32 CTAs, 164 KiB; sm_86: 48 warps, 16 CTAs, 100 KiB; sm_89: 48 warps, 24
/// CTAs, 100 KiB; sm_90: 64 warps, 32 CTAs, 228 KiB. All: 64 Ki registers, 1 KiB of shared
/// memory reserved per CTA.
SmLimits smLimits(const PtxTarget &target);

/// Resident CTAs per SM and which limit binds.
struct Occupancy {
  int ctasPerSm = 0;
  int warpsPerSm = 0;
  std::string limitedBy; // "registers", "shared memory", "warps", "CTAs" (joined with " and ")
};

/// The occupancy of a kernel with `threadsPerBlock` threads, `registersPerThread` registers
/// (allocated per warp in units of 256, that is per thread rounded up to a multiple of 8) and
/// `sharedBytes` of shared memory per CTA. 0 CTAs (limitedBy says why) when one CTA does not fit.
Occupancy occupancy(const PtxTarget &target, int threadsPerBlock, int registersPerThread,
                    int64_t sharedBytes);

} // namespace linlayout::lower
