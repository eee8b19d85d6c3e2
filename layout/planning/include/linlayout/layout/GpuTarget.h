// The GPU targets the conversion planner knows, and the per-target throughput table its cost
// model reads. Numbers are per streaming multiprocessor (SM) per clock; they are round figures
// from NVIDIA's tuning guides and microbenchmarks (docs/conversions.md lists the sources and the
// calibration against Triton 3.6 on an H200), meant for ranking plans, not for predicting time.
#pragma once

#include <optional>
#include <string_view>

namespace linlayout {

enum class GpuTarget : unsigned char { Sm80, Sm90 };

/// The target named "sm_80" or "sm_90" (also "sm80", "80", "sm_86", "sm_89" as sm_80, "sm_90a"
/// as sm_90); nullopt for any other text.
std::optional<GpuTarget> parseGpuTarget(std::string_view name);

/// "sm_80" or "sm_90".
std::string_view gpuTargetName(GpuTarget target);

/// Throughputs and latencies of one target (per SM, per clock).
struct TargetCosts {
  double sharedBytesPerClock;       ///< shared-memory wavefront bandwidth: 128 B (one wavefront)
  double shufflesPerClock;          ///< warp-wide shfl.sync instructions
  double aluPerClock;               ///< warp-wide integer/select/prmt instructions
  double issuePerClock;             ///< warp instructions issued (all schedulers)
  double barrierCycles;             ///< one bar.sync of a CTA, beyond the work it waits for
  double clusterBarrierCycles;      ///< barrier.cluster.arrive + wait (sm_90 only)
  double remoteSharedBytesPerClock; ///< distributed shared memory (cluster) bandwidth
  bool hasStMatrix;                 ///< stmatrix (sm_90)
  bool hasLdMatrix;                 ///< ldmatrix (sm_75 and later)
  bool hasClusters;                 ///< thread-block clusters and distributed shared memory
};

/// The table for `target`.
/// Ensures: every throughput is positive; hasStMatrix and hasClusters only for Sm90.
const TargetCosts &targetCosts(GpuTarget target);

} // namespace linlayout
