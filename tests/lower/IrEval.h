// A tiny evaluator for the integer LLVM IR that index computations emit, so tests can check the
// emitted code against the layout for every thread without a GPU.
#pragma once

#include <llvm/IR/Value.h>

#include <cstdint>
#include <span>
#include <vector>

namespace linlayout::lower::testing {

/// The integer computation of some roots from some leaves, flattened once and run many times.
/// Supports integer constants, add/sub/mul/shl/lshr/and/or/xor, zext/sext/trunc, select and
/// byte GEPs (pointers as 64-bit integers); a test failure on anything else.
class IntProgram {
public:
  IntProgram(std::span<llvm::Value *const> roots, std::span<llvm::Value *const> leaves);
  /// The roots' values (truncated to their widths) for the given leaf values.
  std::vector<uint64_t> run(std::span<const uint64_t> leafValues) const;
  /// The number of instructions between leaves and roots.
  int numInstructions() const { return numInstructions_; }

private:
  struct Op {
    unsigned opcode = 0; // 0: constant, 1: leaf, else an llvm::Instruction opcode
    int a = -1, b = -1, c = -1;
    uint64_t imm = 0; // constant value, or leaf index
    uint64_t mask = 0;
    unsigned fromBits = 0;
  };
  int visit(llvm::Value *v, std::span<llvm::Value *const> leaves);
  std::vector<Op> ops_;
  std::vector<int> roots_;
  std::vector<std::pair<llvm::Value *, int>> index_;
  int numInstructions_ = 0;
};

} // namespace linlayout::lower::testing
