#include "linlayout/ir/CtaSplit.h"

#include <vector>

namespace linlayout::ir {

namespace {
int log2i(int64_t x) {
  int k = 0;
  while ((int64_t(1) << k) < x)
    ++k;
  return k;
}
} // namespace

// The CGA in which every CTA holds the whole tensor.
CgaLayout broadcastCga(int rank, int64_t numCtas) {
  std::vector<std::vector<int64_t>> bases(size_t(log2i(numCtas)),
                                          std::vector<int64_t>(size_t(rank), 0));
  return CgaLayout::fromBases(bases, rank).value();
}

int64_t numCtasOf(const LayoutSpec &s) {
  if (const auto *b = s.as<BlockedSpec>())
    return b->cga().numCtas();
  if (const auto *m = s.as<NvidiaMmaSpec>())
    return m->cga().numCtas();
  if (const auto *sl = s.as<SliceSpec>())
    return numCtasOf(sl->parent());
  if (const auto *d = s.as<DotOperandSpec>())
    return numCtasOf(d->parent());
  if (const auto *l = s.as<LinearSpec>())
    return int64_t(1) << l->blockBases().size();
  if (const auto *w = s.as<SwizzledSharedSpec>())
    return w->cga().numCtas();
  if (const auto *n = s.as<NvmmaSharedSpec>())
    return n->cga().numCtas();
  if (const auto *sl = s.as<SharedLinearSpec>())
    return int64_t(1) << sl->blockBases().size();
  return 1;
}

namespace {
// withCga with a bound on how deep parents nest.
Expected<LayoutSpec> withCgaAt(const LayoutSpec &s, const CgaLayout &cga, int depth) {
  if (depth > 16)
    return makeError("plan-ctas: layouts nested too deeply");
  if (const auto *b = s.as<BlockedSpec>()) {
    auto r = BlockedSpec::make(b->sizePerThread(), b->threadsPerWarp(), b->warpsPerCta(),
                               b->order(), cga);
    return r ? Expected<LayoutSpec>(LayoutSpec(*r)) : Expected<LayoutSpec>(r.error());
  }
  if (const auto *m = s.as<NvidiaMmaSpec>()) {
    auto r = NvidiaMmaSpec::make(m->versionMajor(), m->versionMinor(), m->warpsPerCta(),
                                 m->instrShape(), cga);
    return r ? Expected<LayoutSpec>(LayoutSpec(*r)) : Expected<LayoutSpec>(r.error());
  }
  if (const auto *w = s.as<SwizzledSharedSpec>()) {
    auto r = SwizzledSharedSpec::make(w->vec(), w->perPhase(), w->maxPhase(), w->order(), cga);
    return r ? Expected<LayoutSpec>(LayoutSpec(*r)) : Expected<LayoutSpec>(r.error());
  }
  if (const auto *n = s.as<NvmmaSharedSpec>()) {
    auto r = NvmmaSharedSpec::make(n->swizzleByteWidth(), n->elementBitwidth(), n->rank(),
                                   n->transposed(), n->fp4Padded(), cga);
    return r ? Expected<LayoutSpec>(LayoutSpec(*r)) : Expected<LayoutSpec>(r.error());
  }
  if (const auto *sl = s.as<SliceSpec>()) {
    // The parent sees the slice's split with the sliced dimension not split.
    std::vector<std::vector<int64_t>> bases = cga.bases();
    for (auto &b : bases)
      b.insert(b.begin() + sl->dim(), 0);
    auto pc = CgaLayout::fromBases(bases, cga.rank() + 1);
    if (!pc)
      return pc.error();
    auto parent = withCgaAt(sl->parent(), *pc, depth + 1);
    if (!parent)
      return parent.error();
    auto r = SliceSpec::make(sl->dim(), *parent);
    return r ? Expected<LayoutSpec>(LayoutSpec(*r)) : Expected<LayoutSpec>(r.error());
  }
  if (const auto *d = s.as<DotOperandSpec>()) {
    auto parent = withCgaAt(d->parent(), cga, depth + 1);
    if (!parent)
      return parent.error();
    auto r = DotOperandSpec::make(d->operandIndex(), *parent, d->kWidth());
    return r ? Expected<LayoutSpec>(LayoutSpec(*r)) : Expected<LayoutSpec>(r.error());
  }
  if (const auto *l = s.as<LinearSpec>()) {
    BasisList block;
    for (const auto &b : cga.bases())
      block.push_back(b);
    auto r = LinearSpec::make(l->regBases(), l->laneBases(), l->warpBases(), block, l->shape());
    return r ? Expected<LayoutSpec>(LayoutSpec(*r)) : Expected<LayoutSpec>(r.error());
  }
  if (const auto *sl = s.as<SharedLinearSpec>()) {
    BasisList block;
    for (const auto &b : cga.bases())
      block.push_back(b);
    auto r = SharedLinearSpec::make(sl->offsetBases(), block, sl->alignment());
    return r ? Expected<LayoutSpec>(LayoutSpec(*r)) : Expected<LayoutSpec>(r.error());
  }
  return makeError("plan-ctas: unsupported layout family");
}

} // namespace

std::optional<CgaLayout> cgaOf(const LayoutSpec &s) {
  if (const auto *b = s.as<BlockedSpec>())
    return b->cga();
  if (const auto *m = s.as<NvidiaMmaSpec>())
    return m->cga();
  if (const auto *w = s.as<SwizzledSharedSpec>())
    return w->cga();
  if (const auto *n = s.as<NvmmaSharedSpec>())
    return n->cga();
  if (const auto *sl = s.as<SliceSpec>()) {
    auto parent = cgaOf(sl->parent());
    if (!parent)
      return std::nullopt;
    return parent->dropDim(sl->dim());
  }
  if (const auto *d = s.as<DotOperandSpec>())
    return cgaOf(d->parent());
  return std::nullopt;
}

bool splitsOverCtas(const LayoutSpec &spec, std::optional<int> dim) {
  if (numCtasOf(spec) == 1)
    return false;
  auto nonZero = [&](const std::vector<std::vector<int64_t>> &bases) {
    for (const auto &b : bases)
      for (size_t d = 0; d < b.size(); ++d)
        if (b[d] != 0 && (!dim || int(d) == *dim))
          return true;
    return false;
  };
  if (auto c = cgaOf(spec))
    return nonZero(c->bases());
  if (const auto *l = spec.as<LinearSpec>())
    return nonZero(l->blockBases());
  if (const auto *l = spec.as<SharedLinearSpec>())
    return nonZero(l->blockBases());
  return false;
}

Expected<LayoutSpec> withCga(const LayoutSpec &spec, const CgaLayout &cga) {
  return withCgaAt(spec, cga, 0);
}

} // namespace linlayout::ir
