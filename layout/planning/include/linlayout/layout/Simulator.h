// A CPU simulator for ConversionPlans: it executes a plan on a virtual cluster of CTAs (every
// thread with its registers, warps exchanging words with shuffles, each CTA with a shared-memory
// scratch whose banks are accounted per wavefront, barriers between the phases of each round)
// and checks that every destination register ends up holding the element the destination layout
// assigns it.
//
// Registers hold element ids (the packed tensor coordinates of the element), so a misplaced
// element is caught whatever its value. Shuffles move whole 32-bit words (the slots of packed
// 8/16-bit elements travel together; 64-bit elements move as two halves). Shared-memory
// instructions follow PTX semantics, including ldmatrix/stmatrix's row addresses and the
// .trans element order; their wavefronts are counted with countWavefronts (SharedMemoryModel.h)
// from the byte addresses each lane (or each matrix row) touches.
#pragma once

#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/layout/Expected.h"

#include <cstdint>
#include <string>

namespace linlayout {

struct SimulationReport {
  bool correct = false;       ///< every dst register of every thread holds its element
  int64_t wrongRegisters = 0; ///< (thread, register) pairs holding something else
  std::string firstProblem;   ///< the first mismatch or broken rule, described
  /// Measured per warp (the largest over warps): shuffles and shared-memory wavefronts.
  int64_t shuffles = 0;
  int64_t storeWavefronts = 0;
  int64_t loadWavefronts = 0;
  /// Every shared-memory instruction of every warp took exactly the wavefronts the plan
  /// claims (SharedStep::storeWavefronts / loadWavefronts), and the scratch held what the plan's
  /// scratch layout says.
  bool claimsHold = true;
  /// Shared-memory plans: every scratch element was stored and loaded by one warp only (over
  /// all rounds). A plan that claims so (SharedStep::withinWarps) where it is not breaks its
  /// claims. False for other paths.
  bool withinWarps = false;
};

/// Executes `plan` and checks it.
/// Requires: the plan came from planConversion (or is shaped like one); its layouts fit in
/// 2^22 thread-registers in all.
/// Ensures: correct == (wrongRegisters == 0 && firstProblem.empty()).
Expected<SimulationReport> simulateConversion(const ConversionPlan &plan);

} // namespace linlayout
