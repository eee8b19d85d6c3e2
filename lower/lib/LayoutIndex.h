// Index computation straight from a linear layout.
//
// A distributed layout maps (register, lane, warp, block) to coordinates; each output bit is the
// XOR of the input bits whose bases set it. We split every coordinate into
//   - a hardware part: a function of %tid.x (lane in bits 0-4, warp above) and the block id,
//     computed once per layout as an XOR of shifted-and-masked copies of those two values (input
//     bit i setting output bit j contributes ((x << (j - i)) & (1 << j)); all pairs with the same
//     shift share one shift and one AND), so a coordinate costs a handful of shift/and/xor
//     instructions that ptxas merges into LOP3s, never a chain of selects;
//   - a register part: a compile-time constant per register.
// When a register's constant shares no bit with the bits the hardware part can set, the two are
// joined by a disjoint OR, i.e. an addition, so in an address the register part becomes an
// immediate offset; otherwise only the overlapping bits are XORed (once per distinct overlap).
#pragma once

#include "linlayout/layout/LinearLayout.h"

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <map>
#include <span>
#include <vector>

namespace linlayout::lower {

/// Where a hardware term reads from.
enum class HardwareSource : uint8_t {
  Thread, ///< %tid.x: lane in bits 0..4, warp in bits 5 and up
  Block,  ///< the block id the layout's `block` dimension counts
};

/// One term of a hardware part: ((source << shift) & mask), a right shift when shift < 0.
struct IndexTerm {
  HardwareSource source;
  int shift;
  uint64_t mask;
  friend bool operator==(const IndexTerm &, const IndexTerm &) = default;
};

/// The analysis of a layout into hardware terms and register constants (no IR involved).
class LayoutIndexer {
public:
  /// Requires: every in dim is register, lane, warp or block; lane has at most 5 bits; every out
  /// dim has at most 31 bits.
  /// Ensures: for all inputs, out dim o of layout(r, lane, warp, block) equals
  /// XOR over terms(o) of the term applied to (lane | warp << 5, block), XOR registerPart(r, o).
  static Expected<LayoutIndexer> create(const LinearLayout &layout);

  const LinearLayout &layout() const { return layout_; }
  int numOutDims() const { return layout_.numOutDims(); }
  uint64_t numRegisters() const { return layout_.inDimSize(DimName::reg()); }
  /// The terms of out dim o's hardware part, ordered by source then shift.
  std::span<const IndexTerm> terms(int o) const { return terms_[o]; }
  /// The bits of out dim o that the hardware part can set.
  uint64_t hardwareMask(int o) const { return hwMask_[o]; }
  /// Out dim o of the layout at register r with every hardware input 0.
  /// Requires: r < numRegisters() (asserts).
  uint64_t registerPart(uint64_t r, int o) const;

private:
  explicit LayoutIndexer(const LinearLayout &layout) : layout_(layout) {}
  LinearLayout layout_;
  std::vector<std::vector<IndexTerm>> terms_;
  std::vector<uint64_t> hwMask_;
  int regDim_ = -1;
};

/// An address offset split into a value and an immediate.
struct SplitOffset {
  llvm::Value *variable;
  int64_t constant;
};

/// Emits a LayoutIndexer's coordinates as i32 values at the builder's insertion point, caching
/// every value it creates: create one per place of use (values must dominate their uses).
class IndexEmitter {
public:
  /// Requires: thread and block are i32 values (block may be null when the layout has no block
  /// bits, or they are all zero).
  IndexEmitter(const LayoutIndexer &indexer, llvm::IRBuilder<> &b, llvm::Value *thread,
               llvm::Value *block);

  /// The hardware part of out dim o.
  llvm::Value *hardwarePart(int o);
  /// Out dim o at register r. Requires: r < numRegisters().
  llvm::Value *coordinate(uint64_t r, int o);
  /// Out dim o of the layout's hardware part XOR the constant `c` (a value of out dim o):
  /// the bits of c the hardware part can set are XORed, the others joined by a disjoint OR.
  llvm::Value *withConstant(int o, uint64_t c);
  /// (hardware part of o XOR c) * scale, split so that the bits of c that never meet hardware
  /// bits land in the constant.
  SplitOffset scaledWithConstant(int o, uint64_t c, int64_t scale);
  /// sum over out dims of coordinate(r, o) * strides[o], split so that register bits that never
  /// meet hardware bits land in the constant. Requires: one stride per out dim.
  SplitOffset linearOffset(uint64_t r, std::span<const int64_t> strides);

private:
  llvm::Value *hardwareXor(int o, uint64_t bits);
  const LayoutIndexer &ix_;
  llvm::IRBuilder<> &b_;
  llvm::Value *thread_;
  llvm::Value *block_;
  std::vector<llvm::Value *> hw_;
  std::map<std::pair<int, uint64_t>, llvm::Value *> xorCache_;
  std::map<std::vector<uint64_t>, llvm::Value *> offsetCache_;
};

} // namespace linlayout::lower
