// The shared-memory bank model of NVIDIA GPUs (sm_80, sm_90), written once and used by the bank
// conflict analysis, the swizzle search and the simulator.
//
// Shared memory has 32 banks of 4 bytes; byte address a lies in bank (a / 4) % 32 and in row
// a / 128. The hardware serves one warp instruction in *wavefronts*: each wavefront reads or
// writes at most one 4-byte word per bank (lanes that touch the same word share it, a broadcast).
// An access of B bytes per lane is split into phases of consecutive lanes: one phase of 32 lanes
// for B <= 4, two of 16 for B == 8, four of 8 for B == 16. So a conflict-free warp access needs
// max(1, 32 * B / 128) wavefronts; anything above that is a bank conflict.
#pragma once

#include <cstdint>
#include <span>

namespace linlayout {

inline constexpr int kSharedBanks = 32;
inline constexpr int kSharedBankBytes = 4;
inline constexpr int kSharedRowBytes = kSharedBanks * kSharedBankBytes; // 128
inline constexpr int kWarpLanes = 32;
/// A lane that takes no part in an access.
inline constexpr uint64_t kInactiveLane = ~uint64_t(0);

/// The number of phases a warp access of `accessBytes` bytes per lane is split into.
/// Requires: accessBytes is a power of two in [1, 16].
/// Ensures: result is 1 for accessBytes <= 4, 2 for 8, 4 for 16.
int sharedAccessPhases(int accessBytes);

/// The fewest wavefronts a full warp access of `accessBytes` bytes per lane can take.
/// Ensures: result == sharedAccessPhases(accessBytes).
int minSharedWavefronts(int accessBytes);

/// Counts, by brute force, the wavefronts of one warp instruction: lane i accesses the
/// `accessBytes` bytes starting at byteAddress[i] (kInactiveLane: no access).
/// Requires: byteAddress.size() <= 32; accessBytes a power of two in [1, 16]; each active address
/// is a multiple of accessBytes.
/// Ensures: the sum over phases of the largest number of distinct 4-byte words any one bank
/// serves in that phase; 0 when no lane is active.
int countWavefronts(std::span<const uint64_t> byteAddress, int accessBytes);

/// The conflict degree of one phase of a linear access: the phase's lanes start at the element
/// offsets spanned (XOR) by `laneOffsets`, the offsets of its lane bits, and each lane accesses
/// `unitBytes` aligned bytes. Two lanes conflict when their byte addresses differ in the row but
/// not in the bank group (bits [log2 unitBytes, 7)); the words they touch are then distinct.
/// Requires: elementBits a multiple of 8; unitBytes a power of two >= 4.
/// Ensures: the phase takes 2^result wavefronts.
int linearConflictLog2(std::span<const uint64_t> laneOffsets, int elementBits, int unitBytes);

} // namespace linlayout
