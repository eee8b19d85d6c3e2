// How one side of a shared-memory exchange (the producer storing, or the consumer loading)
// accesses a scratch buffer, for a given scratch basis and instruction kind.
//
// The scratch is described by its basis: tensor vector `offsets[i]` is what offset bit i
// addresses (element offsets, low bits first) and `rounds[j]` what round bit j selects. A side is
// the tensor vector of each of its hardware bits (registers, lanes, warps, and `extra` bits that
// only shift addresses, such as blocks). analyzeSharedSide solves where every hardware bit lands
// in (offset, round) and checks that the instruction kind can move the data as the side holds it
// (the conditions are spelled out in SharedOp's documentation in ConversionPlan.h); it then
// counts instructions and wavefronts exactly.
#pragma once

#include "linlayout/layout/ConversionPlan.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace linlayout {

/// The tensor vectors of one side's hardware bits (packed tensor words).
struct SideVectors {
  std::vector<uint64_t> regs;
  /// Optional, one per register bit: bits that tell registers apart beyond their tensor vector
  /// (the CTA a distributed-shared-memory load reads). Registers differing here are never
  /// duplicates; an instruction's elements must agree here.
  std::vector<uint64_t> regTags;
  std::vector<uint64_t> lanes;
  std::vector<uint64_t> warps;
  std::vector<uint64_t> extra;
};

/// A scratch basis: offsets[i] for offset bit i, rounds[j] for round bit j.
struct ScratchBasis {
  std::vector<uint64_t> offsets;
  std::vector<uint64_t> rounds;
};

/// The result of analysing one side.
struct SharedSidePattern {
  SharedOp op = SharedOp::Store;
  int vectorElements = 1;        ///< elements per lane per instruction
  int instructionsPerThread = 0; ///< over all rounds
  int wavefronts = 0;            ///< per instruction of one warp, exactly
  int minWavefronts = 0;         ///< the same without bank conflicts
  int accessBits = 0;            ///< bits per lane per instruction
  /// Register-index vectors. `element[k]` is the register offset of element k of an
  /// instruction's register list (XOR the instruction's base register).
  std::vector<uint32_t> element;
  /// Basis of the base registers of instructions (XOR-combinations of these enumerate them).
  std::vector<uint32_t> baseBasis;
  /// Register-index vectors whose registers duplicate others (never accessed; copied).
  std::vector<uint32_t> duplicate;
  /// Packed (offset | round << offsetBits | tag << (offsetBits + roundBits)) of each register
  /// bit; (offset | round << offsetBits) of each lane bit, warp bit, extra bit.
  std::vector<uint64_t> regMap, laneMap, warpMap, extraMap;
  /// For matrix ops: the lane-address map (lane bit -> offset) that the instructions use.
  std::vector<uint64_t> addressLaneMap;
};

/// Analyses one side for `op`. Answers nullopt when the op cannot move this side's data with
/// this scratch (a hardware bit outside the scratch span, a misaligned vector, a matrix op
/// whose fixed lane roles do not match). `maxVectorBits` caps Store/Load vectors (<= 128).
/// Requires: the scratch basis vectors are independent; elementBits in {8, 16, 32, 64}.
/// Ensures: when answered, for every instruction the lanes access exactly the scratch elements
/// that hold their registers (the simulator checks this); wavefronts >= minWavefronts.
std::optional<SharedSidePattern> analyzeSharedSide(const SideVectors &side,
                                                   const ScratchBasis &scratch, SharedOp op,
                                                   int elementBits, int maxVectorBits = 128);

} // namespace linlayout
