// rapidcheck generators of (layout spec, tensor shape) pairs that toLinearLayout accepts: a shape
// that fits a given spec (`shapeFor`), a spec of a chosen family (`familySpec`), and a spec of any
// family with a shape (`anyFamily`). Header-only; link `linlayout::testing`.
//
// Shapes are drawn, never filtered: each family's minimum (a swizzle tile for nvmma_shared, a CTA's
// rows for tensor memory, one tile per CTA for split shared layouts) is built in, so rapidcheck
// never discards a case. Families whose spec fixes its shape (linear, shared_linear,
// padded_shared) get exactly that shape.
#pragma once

#include "linlayout/layout/AttrSyntax.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/testing/Families.h"

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <vector>

namespace linlayout::testing {

/// A tensor shape of `rank` dims, each 2^lo..2^hi.
inline rc::Gen<std::vector<int64_t>> shapeOf(int rank, int lo, int hi) {
  return rc::gen::container<std::vector<int64_t>>(size_t(rank), pow2In(lo, hi));
}

/// A shape a tensor_memory or tensor_memory_scales spec accepts: per CTA at least a block of rows
/// (64 for blockM 64, 128 for blockM 128 or a two-CTA blockM 64 pair, which swaps a column bit
/// and so needs 2..32 columns), 1..32 columns per CTA; at most 2^16 elements.
/// Requires: spec is tensor_memory or tensor_memory_scales.
inline rc::Gen<std::vector<int64_t>> tensorMemoryShape(const LayoutSpec &spec) {
  return rc::gen::exec([spec] {
    int64_t splitM = 1, splitN = 1;
    int rowsLo = 3, colsLo = 0;
    if (const auto *t = spec.as<TensorMemorySpec>()) {
      splitM = t->ctaSplitM();
      splitN = t->ctaSplitN();
      bool pair = t->blockM() == 64 && t->twoCtas() && splitM > 1;
      rowsLo = pair || t->blockM() == 128 ? 7 : 6;
      if (pair) {
        rowsLo -= 1; // the pair of CTAs holds the 128 rows
        colsLo = 1;
      }
    } else if (const auto *s = spec.as<TensorMemoryScalesSpec>()) {
      splitM = s->ctaSplitM();
      splitN = s->ctaSplitN();
    }
    int64_t rows = *pow2In(rowsLo, rowsLo + 1), cols = *pow2In(colsLo, 5);
    return std::vector<int64_t>{rows * splitM, cols * splitN};
  });
}

/// A shape `spec` converts over: each dim 2^0..2^(maxBits / rank), raised where the family needs
/// more (nvmma_shared: one swizzle tile per CTA; swizzled_shared: one element per CTA); the
/// spec's own shape for linear, shared_linear and padded_shared; tensorMemoryShape for tensor
/// memory.
/// Requires: spec comes from a generator of Families.h; maxBits >= 0.
/// Ensures: toLinearLayout(spec, shape) succeeds.
inline rc::Gen<std::vector<int64_t>> shapeFor(const LayoutSpec &spec, int maxBits = 12) {
  return rc::gen::exec([spec, maxBits] {
    if (const auto *l = spec.as<LinearSpec>())
      return l->shape();
    if (const auto *s = spec.as<SharedLinearSpec>())
      return s->shape();
    if (const auto *p = spec.as<PaddedSharedSpec>())
      return p->shape();
    if (spec.isTensorMemory())
      return *tensorMemoryShape(spec);
    int rank = spec.rank();
    std::vector<int64_t> shape = *shapeOf(rank, 0, maxBits / rank);
    std::vector<int64_t> least(size_t(rank), 1);
    const CgaLayout *cga = nullptr;
    if (const auto *s = spec.as<SwizzledSharedSpec>()) {
      cga = &s->cga();
    } else if (const auto *n = spec.as<NvmmaSharedSpec>()) {
      // A swizzle row along the contiguous dim, 8 rows along the other (Triton collapses the
      // TMA box: the rows are the last dim when transposed, the dims before it otherwise).
      int contig = n->transposed() ? 0 : rank - 1;
      int rows = n->transposed() ? rank - 1 : rank - 2;
      least[size_t(contig)] = std::max(1, 8 * n->swizzleByteWidth() / n->elementBitwidth());
      least[size_t(rows)] = 8;
      cga = &n->cga();
    }
    for (int d = 0; d < rank; ++d) {
      int64_t need = least[size_t(d)] * (cga ? cga->splitNum(d) : 1);
      shape[size_t(d)] = std::max(shape[size_t(d)], need);
    }
    return shape;
  });
}

/// Every family, in LayoutKind order.
inline std::vector<LayoutKind> allFamilies() {
  return {LayoutKind::Blocked,           LayoutKind::Slice,        LayoutKind::NvidiaMma,
          LayoutKind::DotOperand,        LayoutKind::Linear,       LayoutKind::SwizzledShared,
          LayoutKind::NvmmaShared,       LayoutKind::SharedLinear, LayoutKind::AmdMfma,
          LayoutKind::AmdWmma,           LayoutKind::PaddedShared, LayoutKind::TensorMemory,
          LayoutKind::TensorMemoryScales};
}

/// A spec of family `kind`, of any rank the family's generator in Families.h takes (blocked and
/// swizzled_shared 1..3, slice 1..2, padded_shared 1..3, accumulators, dot operands and
/// nvmma_shared 2..3; nvidia_mma Ampere or Hopper), with CTA splits.
inline rc::Gen<LayoutSpec> familySpec(LayoutKind kind) {
  return rc::gen::exec([kind]() -> LayoutSpec {
    int rank = *rc::gen::inRange(2, 4);
    switch (kind) {
    case LayoutKind::Blocked:
      return *blockedSpec(*rc::gen::inRange(1, 4));
    case LayoutKind::Slice:
      return *sliceSpec(*rc::gen::inRange(1, 3));
    case LayoutKind::NvidiaMma:
      return *nvidiaMmaSpec(rank, *rc::gen::arbitrary<bool>(), true);
    case LayoutKind::DotOperand:
      return *dotOperandSpec(rank);
    case LayoutKind::Linear:
      return *linearSpec();
    case LayoutKind::SwizzledShared:
      return *swizzledSharedSpec(*rc::gen::inRange(1, 4));
    case LayoutKind::NvmmaShared:
      return *nvmmaSharedSpec(rank);
    case LayoutKind::SharedLinear:
      return *sharedLinearSpec();
    case LayoutKind::AmdMfma:
      return *amdMfmaSpec(rank);
    case LayoutKind::AmdWmma:
      return *amdWmmaSpec(rank);
    case LayoutKind::PaddedShared:
      return *paddedSharedSpec(*rc::gen::inRange(1, 4));
    case LayoutKind::TensorMemory:
      return *tensorMemorySpec();
    case LayoutKind::TensorMemoryScales:
      return *tensorMemoryScalesSpec();
    }
    RC_FAIL("familySpec: no generator for this family");
  });
}

/// A layout spec and a tensor shape it converts over.
struct SpecWithShape {
  LayoutSpec spec;
  std::vector<int64_t> shape;
};

/// Shows the pair as Triton's attribute text and the shape (rapidcheck prints counterexamples
/// with it).
inline std::ostream &operator<<(std::ostream &os, const SpecWithShape &s) {
  os << printLayoutAttr(s.spec) << " over [";
  for (size_t i = 0; i < s.shape.size(); ++i)
    os << (i ? ", " : "") << s.shape[i];
  return os << "]";
}

/// A spec of family `kind` (familySpec) with a shape that fits it (shapeFor, about maxBits bits).
inline rc::Gen<SpecWithShape> familyWithShape(LayoutKind kind, int maxBits = 12) {
  return rc::gen::exec([kind, maxBits] {
    LayoutSpec spec = *familySpec(kind);
    std::vector<int64_t> shape = *shapeFor(spec, maxBits);
    return SpecWithShape{spec, shape};
  });
}

/// A spec of any family, each family equally likely at every rapidcheck size, with a shape that
/// fits it. The C++ counterpart of the Python `layouts_with_shapes()` strategy.
/// Ensures: toLinearLayout(r.spec, r.shape) succeeds.
inline rc::Gen<SpecWithShape> anyFamily(int maxBits = 12) {
  return rc::gen::exec([maxBits] {
    // Resized: rapidcheck's small sizes would otherwise pick the first families only.
    LayoutKind kind = *rc::gen::resize(100, rc::gen::elementOf(allFamilies()));
    return *familyWithShape(kind, maxBits);
  });
}

} // namespace linlayout::testing
