// Test support: count the SASS instructions of a cubin by opcode, without a disassembler
// (cuobjdump / nvdisasm are not installed here). sm_90 instructions are 16 bytes; bits 0-8 of
// the first 8 bytes name the operation (bits 9-11 only the operand form: register, immediate,
// constant). The opcodes below were identified from kernels whose instruction mix is known
// (e.g. 128 shfl.sync in the PTX give 128 of 0x189; 64 ld.global 64 of 0x181), the last two
// from Nsight Compute's SASS listing of a kernel beside its cubin.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace linlayout::sasstest {

enum Sm90Op : uint32_t {
  kShfl = 0x189,
  kPrmt = 0x016,
  kHadd2 = 0x030,
  kFadd = 0x021,
  kLdg = 0x181,
  kStg = 0x186,
  kNop = 0x118,
  kMufu = 0x108,
  kWarpgroup = 0x1c5, // WARPGROUP.ARRIVE and WARPGROUP.DEPBAR.LE
};

/// One instruction's 16 bytes, as two little-endian words.
using Instruction = std::array<uint64_t, 2>;

/// The N of a `WARPGROUP.DEPBAR.LE gsb0, N` (wgmma.wait_group N); -1 for any other instruction.
inline int wgmmaWaitPendings(const Instruction &i) {
  bool depbar = (i[0] & 0x1ff) == kWarpgroup && ((i[0] >> 47) & 1) != 0;
  return depbar ? int((i[1] >> 8) & 0xff) : -1;
}

/// Instruction counts of one kernel: by opcode (bits 0-8), and in all (NOP padding excluded);
/// and the instructions themselves, in order (NOPs excluded too).
struct SassCounts {
  std::map<uint32_t, int> byOp;
  int total = 0;
  std::vector<Instruction> code;
  int of(uint32_t op) const {
    auto it = byOp.find(op);
    return it == byOp.end() ? 0 : it->second;
  }
};

/// Assembles `ptx` with `ptxas -arch=<arch>` (lower::findPtxas's) and counts the instructions of
/// its one kernel; nullopt when ptxas is missing or fails (the message in *why).
std::optional<SassCounts> assembleAndCount(const std::string &ptx, std::string *why,
                                           const std::string &arch = "sm_90");

} // namespace linlayout::sasstest
