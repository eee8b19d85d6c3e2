// Test support: count the SASS instructions of a cubin by opcode, without a disassembler
// (cuobjdump / nvdisasm are not installed here). sm_90 instructions are 16 bytes; bits 0-8 of
// the first 8 bytes name the operation (bits 9-11 only the operand form: register, immediate,
// constant). The opcodes below were identified from kernels whose instruction mix is known
// (e.g. 128 shfl.sync in the PTX give 128 of 0x189; 64 ld.global 64 of 0x181).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace linlayout::sasstest {

enum Sm90Op : uint32_t {
  kShfl = 0x189,
  kPrmt = 0x016,
  kHadd2 = 0x030,
  kFadd = 0x021,
  kLdg = 0x181,
  kStg = 0x186,
  kNop = 0x118,
};

/// Instruction counts of one kernel: by opcode (bits 0-8), and in all (NOP padding excluded).
struct SassCounts {
  std::map<uint32_t, int> byOp;
  int total = 0;
  int of(uint32_t op) const {
    auto it = byOp.find(op);
    return it == byOp.end() ? 0 : it->second;
  }
};

/// Assembles `ptx` with `ptxas -arch=sm_90` (lower::findPtxas's) and counts the instructions of
/// its one kernel; nullopt when ptxas is missing or fails (the message in *why).
std::optional<SassCounts> assembleAndCount(const std::string &ptx, std::string *why);

} // namespace linlayout::sasstest
