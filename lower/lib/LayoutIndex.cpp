#include "LayoutIndex.h"

#include "LlvmShim.h"

#include <algorithm>

namespace linlayout::lower {

Expected<LayoutIndexer> LayoutIndexer::create(const LinearLayout &layout) {
  LayoutIndexer ix(layout);
  for (int d = 0; d < layout.numInDims(); ++d) {
    DimName n = layout.inDimName(d);
    if (n == DimName::reg())
      ix.regDim_ = d;
    else if (n == DimName::lane()) {
      if (layout.inDimBits(d) > 5)
        return makeError("layout has " + std::to_string(layout.inDimSize(n)) +
                         " lanes, expected at most 32");
    } else if (n != DimName::warp() && n != DimName::block())
      return makeError("layout input dimension '" + std::string(n.str()) +
                       "' is not register, lane, warp or block");
  }
  for (int o = 0; o < layout.numOutDims(); ++o)
    if (layout.outDimBits(o) > 31)
      return makeError("layout output dimension '" + std::string(layout.outDimName(o).str()) +
                       "' has " + std::to_string(layout.outDimBits(o)) +
                       " bits, expected at most 31");

  ix.terms_.resize(layout.numOutDims());
  ix.hwMask_.assign(layout.numOutDims(), 0);
  for (int o = 0; o < layout.numOutDims(); ++o) {
    // (source, shift) -> mask of output bits.
    std::map<std::pair<HardwareSource, int>, uint64_t> groups;
    for (int d = 0; d < layout.numInDims(); ++d) {
      DimName n = layout.inDimName(d);
      if (n == DimName::reg())
        continue;
      HardwareSource src = n == DimName::block() ? HardwareSource::Block : HardwareSource::Thread;
      int first = n == DimName::warp() ? 5 : 0;
      for (int i = 0; i < layout.inDimBits(d); ++i) {
        uint64_t basis = layout.outValue(layout.column(layout.inDimOffset(d) + i), o);
        int in = first + i;
        for (uint64_t rest = basis; rest; rest &= rest - 1) {
          int j = __builtin_ctzll(rest);
          groups[{src, j - in}] ^= uint64_t(1) << j;
        }
      }
    }
    for (auto &[key, mask] : groups) {
      if (!mask)
        continue;
      ix.terms_[o].push_back({key.first, key.second, mask});
      ix.hwMask_[o] |= mask;
    }
  }
  return ix;
}

uint64_t LayoutIndexer::registerPart(uint64_t r, int o) const {
  if (regDim_ < 0)
    return 0;
  assert(r < numRegisters() && "register index out of range");
  uint64_t packed = layout_.apply(r << layout_.inDimOffset(regDim_));
  return layout_.outValue(packed, o);
}

IndexEmitter::IndexEmitter(const LayoutIndexer &indexer, llvm::IRBuilder<> &b, llvm::Value *thread,
                           llvm::Value *block)
    : ix_(indexer), b_(b), thread_(thread), block_(block),
      hw_(static_cast<size_t>(indexer.numOutDims()), nullptr) {}

llvm::Value *IndexEmitter::hardwarePart(int o) {
  if (hw_[o])
    return hw_[o];
  llvm::Value *acc = nullptr;
  uint64_t accMask = 0;
  for (const IndexTerm &t : ix_.terms(o)) {
    llvm::Value *src = t.source == HardwareSource::Thread ? thread_ : block_;
    assert(src && "the layout reads a hardware id the caller did not give");
    llvm::Value *v = src;
    if (t.shift > 0)
      v = b_.CreateShl(v, t.shift);
    else if (t.shift < 0)
      v = b_.CreateLShr(v, -t.shift);
    v = b_.CreateAnd(v, static_cast<uint32_t>(t.mask));
    if (!acc)
      acc = v;
    else if ((accMask & t.mask) == 0)
      acc = shim::createDisjointOr(b_, acc, v);
    else
      acc = b_.CreateXor(acc, v);
    accMask |= t.mask;
  }
  hw_[o] = acc ? acc : b_.getInt32(0);
  return hw_[o];
}

llvm::Value *IndexEmitter::hardwareXor(int o, uint64_t bits) {
  llvm::Value *hw = hardwarePart(o);
  if (!bits)
    return hw;
  llvm::Value *&slot = xorCache_[{o, bits}];
  if (!slot)
    slot = b_.CreateXor(hw, static_cast<uint32_t>(bits));
  return slot;
}

llvm::Value *IndexEmitter::coordinate(uint64_t r, int o) {
  return withConstant(o, ix_.registerPart(r, o));
}

SplitOffset IndexEmitter::scaledWithConstant(int o, uint64_t c, int64_t scale) {
  uint64_t mask = ix_.hardwareMask(o);
  llvm::Value *v = hardwareXor(o, c & mask);
  if (scale != 1) {
    if (scale > 0 && (scale & (scale - 1)) == 0)
      v = b_.CreateShl(v, __builtin_ctzll(static_cast<uint64_t>(scale)), "", true, true);
    else
      v = b_.CreateMul(v, b_.getInt32(static_cast<uint32_t>(scale)), "", false, true);
  }
  return {v, static_cast<int64_t>(c & ~mask) * scale};
}

llvm::Value *IndexEmitter::withConstant(int o, uint64_t c) {
  uint64_t mask = ix_.hardwareMask(o);
  llvm::Value *v = hardwareXor(o, c & mask);
  uint64_t rest = c & ~mask;
  if (!rest)
    return v;
  return shim::createDisjointOr(b_, v, b_.getInt32(static_cast<uint32_t>(rest)));
}

SplitOffset IndexEmitter::linearOffset(uint64_t r, std::span<const int64_t> strides) {
  assert(static_cast<int>(strides.size()) == ix_.numOutDims() && "one stride per out dim");
  std::vector<uint64_t> key;
  int64_t constant = 0;
  for (int o = 0; o < ix_.numOutDims(); ++o) {
    uint64_t c = ix_.registerPart(r, o);
    uint64_t mask = ix_.hardwareMask(o);
    key.push_back(c & mask);
    key.push_back(static_cast<uint64_t>(strides[o]));
    constant += static_cast<int64_t>(c & ~mask) * strides[o];
  }
  llvm::Value *&slot = offsetCache_[key];
  if (!slot) {
    llvm::Value *sum = nullptr;
    for (int o = 0; o < ix_.numOutDims(); ++o) {
      if (strides[o] == 0 || (ix_.hardwareMask(o) == 0))
        continue;
      llvm::Value *term = hardwareXor(o, key[2 * o]);
      if (strides[o] != 1) {
        int64_t s = strides[o];
        term = (s > 0 && (s & (s - 1)) == 0)
                   ? b_.CreateShl(term, __builtin_ctzll(static_cast<uint64_t>(s)), "", true, true)
                   : b_.CreateMul(term, b_.getInt32(static_cast<uint32_t>(s)), "", false, true);
      }
      sum = sum ? b_.CreateAdd(sum, term, "", false, true) : term;
    }
    slot = sum ? sum : b_.getInt32(0);
  }
  return {slot, constant};
}

} // namespace linlayout::lower
