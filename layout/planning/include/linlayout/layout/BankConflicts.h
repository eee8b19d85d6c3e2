// Bank conflicts of a warp reading a shared-memory tile into a distributed (register) layout.
//
// `reg` maps (register, lane, warp, block) to tensor coordinates; `shared` maps (offset, block)
// to the same tensor coordinates (offset counts elements). A thread loads its registers with the
// widest vectorised ld.shared the pair allows: 2^k elements (at most 128 bits) when some k
// registers hold offsets 1, 2, ..., 2^(k-1) of one vector and every other register, lane, warp
// and block moves the offset by a multiple of 2^k. Registers that duplicate others (zero bases)
// are not loaded.
//
// Two counts are offered:
//  - `bankConflicts` is Triton 3.6's rule (`bankConflictsMemDesc`): with a 128-byte row split
//    into vector, bank and segment offset bits, the extra wavefronts are 2^d - 1 where d is the
//    dimension of span(lanes of one phase) ∩ span(segment bases), measured in tensor
//    coordinates. It is exact when an access covers at least a 4-byte word; below that it misses
//    conflicts between different bytes of one bank in different rows.
//  - `analyzeSharedLoad` counts the wavefronts exactly under the bank model of
//    SharedMemoryModel.h (equal to a brute-force count over the 32 lane addresses).
#pragma once

#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"
#include "linlayout/layout/PaddedShared.h"

#include <span>

namespace linlayout {

/// What one vectorised warp load from shared memory costs.
struct SharedLoadCost {
  int vectorElements = 1; ///< elements per lane per instruction
  int accessBytes = 0;    ///< vectorElements * elementBits / 8 (0 for sub-byte elements)
  int phases = 1;         ///< lane groups the hardware serves separately
  int wavefronts = 1;     ///< wavefronts of one instruction, exactly (all phases)
  int extraPerPhase = 0;  ///< wavefronts / phases - 1: the bank-conflict degree minus one
};

/// The widest vector (in elements, a power of two at most maxElements) that a thread can move
/// with one shared-memory instruction, given `regToOffset`: the map from (register, lane, warp,
/// block) to (offset[, block]) of where each register lives in shared memory.
/// Requires: regToOffset has an out dim named offset; maxElements is a power of two >= 1.
/// Ensures: for the result 2^k, offsets 1, 2, ..., 2^(k-1) are register columns (nothing else
/// set) and every other column has its low k offset bits clear.
int widestSharedVector(const LinearLayout &regToOffset, int maxElements);

/// Triton 3.6's count of extra wavefronts per access (the `bank_conflicts` query op), for a
/// shared memory of `banks` 4-byte banks: 32 (NVIDIA, AMD before gfx950) or 64 (gfx950's LDS).
/// With 32 banks the phases are Triton's (8-byte accesses by half-warps, 16-byte ones by
/// quarter-warps); with 64, a phase is as many lanes as one row of all banks serves (a 64-lane
/// wavefront of 4-byte accesses is one phase), and a row is 256 bytes.
/// Requires: reg and shared have the same out dims (names and sizes, any order); shared has an
/// in dim `offset` and is surjective; elementBits is a power of two in [1, 128]; banks 32 or 64.
/// Ensures: result >= 0 and result + 1 is a power of two; result == 0 when the lanes of a phase
/// reach no two rows through the same bank (see the header note).
Expected<int> bankConflicts(const LinearLayout &reg, const LinearLayout &shared, int elementBits,
                            int banks = 32);

/// The same count through a padded shared layout (PaddedShared.h): `shared` is its linear part
/// and each offset is stored at paddedOffset(offset, padding). Addresses are no longer linear,
/// so the count is exact, by brute force over warp 0's instructions: a lane loads the widest
/// vector the linear part allows that no padding splits or misaligns (at most the smallest
/// interval and the smallest padding); a phase is as many lanes as one row of all banks serves
/// (Triton's phases for 32 banks); the result is the most wavefronts any phase of any instruction
/// takes, minus one. With no pairs it is bankConflicts above.
/// Requires: as bankConflicts; with pairs, elementBits >= 8.
/// Ensures: result >= 0; with every interval at least the number of offsets (no padding is ever
/// reached) and 32 banks, result == analyzeSharedLoad(...).extraPerPhase.
Expected<int> bankConflicts(const LinearLayout &reg, const LinearLayout &shared, int elementBits,
                            int banks, std::span<const PadInterval> padding);

/// The exact cost of the same access: vector width, phases, and the wavefronts one warp
/// instruction takes, equal to countWavefronts over the lane addresses of any instruction.
/// Requires: as bankConflicts, and elementBits >= 8.
/// Ensures: wavefronts == phases * (extraPerPhase + 1); extraPerPhase >= bankConflicts(...),
/// with equality when accessBytes >= 4.
Expected<SharedLoadCost> analyzeSharedLoad(const LinearLayout &reg, const LinearLayout &shared,
                                           int elementBits);

} // namespace linlayout
