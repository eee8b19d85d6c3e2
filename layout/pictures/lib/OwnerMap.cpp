#include "linlayout/layout/OwnerMap.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <string>

namespace linlayout {

namespace {

enum class Role { Register, Lane, Warp, Block, Offset, Row, Col };

} // namespace

Expected<OwnerMap> OwnerMap::build(const LinearLayout &layout) {
  OwnerMap m;
  m.layout_ = layout;
  std::array<Role, LinearLayout::kMaxDims> roles{};
  bool sawRegisterLike = false;
  for (int i = 0; i < layout.numInDims(); ++i) {
    DimName n = layout.inDimName(i);
    if (n == DimName::reg()) {
      roles[i] = Role::Register;
      sawRegisterLike = true;
    } else if (n == DimName::lane()) {
      roles[i] = Role::Lane;
      sawRegisterLike = true;
    } else if (n == DimName::warp()) {
      roles[i] = Role::Warp;
      sawRegisterLike = true;
    } else if (n == DimName::block()) {
      roles[i] = Role::Block;
    } else if (n == DimName::offset()) {
      roles[i] = Role::Offset;
      m.shared_ = true;
    } else if (n == DimName::get("row") || n == DimName::get("col")) {
      roles[i] = n == DimName::get("row") ? Role::Row : Role::Col;
      m.tmem_ = true;
    } else {
      return makeError("in-dim '" + std::string(n.str()) +
                       "' is not one of register, lane, warp, block, offset, row, col");
    }
  }
  if (int(m.shared_) + int(sawRegisterLike) + int(m.tmem_) > 1)
    return makeError("a layout has offset (shared), register/lane/warp (distributed) or row/col "
                     "(tensor memory) in-dims, not two of these");
  if (layout.totalInBits() > kMaxBits)
    return makeError("layout has " + std::to_string(layout.totalInBits()) +
                     " input bits, more than the " + std::to_string(kMaxBits) +
                     " a picture enumerates");
  if (layout.totalOutBits() > kMaxBits)
    return makeError("tensor has 2^" + std::to_string(layout.totalOutBits()) +
                     " elements, more than the 2^" + std::to_string(kMaxBits) +
                     " a picture enumerates");

  for (int i = 0; i < layout.numInDims(); ++i) {
    uint64_t size = uint64_t(1) << layout.inDimBits(i);
    switch (roles[i]) {
    case Role::Lane:
      m.lanes_ = uint32_t(size);
      m.hasThreads_ = true;
      break;
    case Role::Warp:
      m.warps_ = uint32_t(size);
      m.hasThreads_ = true;
      break;
    case Role::Block:
      m.blocks_ = uint32_t(size);
      break;
    case Role::Register:
    case Role::Offset:
    case Role::Col:
      m.indices_ = size;
      break;
    case Role::Row: // 32 rows per warp that can reach them
      m.lanes_ = uint32_t(std::min<uint64_t>(size, 32));
      m.warps_ = uint32_t(std::max<uint64_t>(size / 32, 1));
      break;
    }
  }

  // Row-major numbering puts the last out dim in the lowest bits, while the packed output word
  // puts the first out dim there; both are bit placements, so one table converts.
  int nOut = layout.numOutDims();
  std::array<int, LinearLayout::kMaxBits> elemBit{};
  int placed = 0;
  for (int d = nOut - 1; d >= 0; --d) {
    int off = layout.outDimOffset(d);
    for (int b = 0; b < layout.outDimBits(d); ++b)
      elemBit[off + b] = placed++;
    m.shape_.push_back(int64_t(1) << layout.outDimBits(d));
  }
  std::reverse(m.shape_.begin(), m.shape_.end());

  uint64_t numInputs = uint64_t(1) << layout.totalInBits();
  uint64_t numElements = uint64_t(1) << layout.totalOutBits();
  std::vector<uint32_t> elementOf(numInputs);
  m.start_.assign(numElements + 1, 0);
  for (uint64_t x = 0; x < numInputs; ++x) {
    uint64_t out = layout.apply(x);
    uint64_t e = 0;
    while (out) {
      e |= uint64_t(1) << elemBit[__builtin_ctzll(out)];
      out &= out - 1;
    }
    elementOf[x] = uint32_t(e);
    ++m.start_[e + 1];
  }
  for (uint64_t e = 0; e < numElements; ++e)
    m.start_[e + 1] += m.start_[e];

  m.holders_.resize(numInputs);
  std::vector<uint64_t> fill(m.start_.begin(), m.start_.end() - 1);
  for (uint64_t x = 0; x < numInputs; ++x) {
    Holder h;
    for (int i = 0; i < layout.numInDims(); ++i) {
      uint64_t v = layout.inValue(x, i);
      switch (roles[i]) {
      case Role::Lane:
        h.lane = uint32_t(v);
        break;
      case Role::Warp:
        h.warp = uint32_t(v);
        break;
      case Role::Block:
        h.block = uint32_t(v);
        break;
      case Role::Register:
      case Role::Offset:
      case Role::Col:
        h.index = v;
        break;
      case Role::Row:
        h.lane = uint32_t(v % 32);
        h.warp = uint32_t(v / 32);
        break;
      }
    }
    m.holders_[fill[elementOf[x]]++] = h;
  }
  // Inputs are distinct, so holders are distinct; sorting makes the order independent of the
  // order of the in dims.
  for (uint64_t e = 0; e < numElements; ++e)
    std::sort(m.holders_.begin() + int64_t(m.start_[e]),
              m.holders_.begin() + int64_t(m.start_[e + 1]));
  return m;
}

int64_t OwnerMap::elementIndex(std::span<const int64_t> coords) const {
  assert(coords.size() == shape_.size() && "coordinate rank differs from the tensor rank");
  int64_t e = 0;
  for (size_t d = 0; d < shape_.size(); ++d) {
    assert(coords[d] >= 0 && coords[d] < shape_[d] && "coordinate out of range");
    e = e * shape_[d] + coords[d];
  }
  return e;
}

std::vector<int64_t> OwnerMap::coords(int64_t e) const {
  assert(e >= 0 && e < numElements() && "element out of range");
  std::vector<int64_t> c(shape_.size());
  for (size_t d = shape_.size(); d-- > 0;) {
    c[d] = e % shape_[d];
    e /= shape_[d];
  }
  return c;
}

} // namespace linlayout
