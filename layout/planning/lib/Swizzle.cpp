#include "linlayout/layout/Swizzle.h"

#include "linlayout/layout/F2Basis.h"
#include "linlayout/layout/F2Subspace.h"
#include "linlayout/layout/LayoutColumns.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace linlayout {
namespace {

int log2i(uint64_t x) { return 63 - __builtin_clzll(x); }

// A candidate chunk: the tensor vectors of the low offset bits, and the ops of the two sides.
struct ChunkCandidate {
  std::vector<uint64_t> chunk;
  SharedOp storeOp;
  SharedOp loadOp;
};

// The longest prefix of `u` lying in span(regs).
int prefixInSpan(std::span<const uint64_t> u, std::span<const uint64_t> regs) {
  F2Basis b;
  for (uint64_t r : regs)
    b.insert(r, 0);
  int n = 0;
  while (n < int(u.size()) && b.contains(u[n]))
    ++n;
  return n;
}

// A basis of span(a) ∩ span(b), preferring vectors that are columns of `a` itself (so the chunk
// is made of whole registers of the producer where possible).
std::vector<uint64_t> commonRegisters(std::span<const uint64_t> a, std::span<const uint64_t> b) {
  std::vector<uint64_t> inter = f2Intersection(a, b);
  std::vector<uint64_t> out;
  F2Basis have;
  for (uint64_t v : a)
    if (v && f2InSpan(inter, v) && have.insert(v, 0))
      out.push_back(v);
  for (uint64_t v : inter)
    if (have.insert(v, 0))
      out.push_back(v);
  return out;
}

// Extends `chunk` with vectors of span(regs) (preferring the other side's lanes, then the
// registers themselves) up to `maxLen` vectors.
void extendChunk(std::vector<uint64_t> &chunk, std::span<const uint64_t> regs,
                 std::span<const uint64_t> otherLanes, int maxLen) {
  F2Basis inRegs;
  for (uint64_t r : regs)
    inRegs.insert(r, 0);
  F2Basis have;
  for (uint64_t c : chunk)
    have.insert(c, 0);
  for (uint64_t l : otherLanes) {
    if (int(chunk.size()) >= maxLen)
      return;
    if (l && inRegs.contains(l) && have.insert(l, 0))
      chunk.push_back(l);
  }
  for (uint64_t r : regs) {
    if (int(chunk.size()) >= maxLen)
      return;
    if (r && have.insert(r, 0))
      chunk.push_back(r);
  }
}

// The fixed chunk positions of a matrix op on one side: nullopt for a register slot.
std::vector<std::optional<uint64_t>> matrixChunk(SharedOp op, const SideVectors &s,
                                                 int elementBits) {
  std::vector<std::optional<uint64_t>> out;
  if (op == SharedOp::LdMatrixTrans || op == SharedOp::StMatrixTrans) {
    for (int i = 2; i < 5; ++i)
      out.push_back(s.lanes[i]);
    return out;
  }
  int hw = log2i(uint64_t(32 / elementBits));
  for (int i = 0; i < hw; ++i)
    out.push_back(std::nullopt);
  out.push_back(s.lanes[0]);
  out.push_back(s.lanes[1]);
  return out;
}

// Builds the chunk for ops where at least one side is a matrix op. Answers nullopt when the two
// sides' fixed roles cannot share one chunk.
std::optional<std::vector<uint64_t>> matrixCandidateChunk(const SideVectors &st,
                                                          const SideVectors &ld, SharedOp sop,
                                                          SharedOp lop, int elementBits,
                                                          std::span<const uint64_t> common) {
  std::vector<std::optional<uint64_t>> fs, fd;
  if (isMatrixOp(sop))
    fs = matrixChunk(sop, st, elementBits);
  if (isMatrixOp(lop))
    fd = matrixChunk(lop, ld, elementBits);
  size_t len = std::max(fs.size(), fd.size());
  F2Basis stRegs, ldRegs, have;
  for (uint64_t r : st.regs)
    stRegs.insert(r, 0);
  for (uint64_t r : ld.regs)
    ldRegs.insert(r, 0);
  std::vector<uint64_t> chunk;
  for (size_t i = 0; i < len; ++i) {
    bool sIn = i < fs.size(), dIn = i < fd.size();
    std::optional<uint64_t> v;
    if (sIn && fs[i])
      v = fs[i];
    if (dIn && fd[i]) {
      if (v && *v != *fd[i])
        return std::nullopt;
      v = fd[i];
    }
    auto fits = [&](uint64_t x) {
      if (sIn && !fs[i] && !stRegs.contains(x))
        return false;
      if (dIn && !fd[i] && !ldRegs.contains(x))
        return false;
      return x != 0 && !have.contains(x);
    };
    if (v) {
      if (!fits(*v))
        return std::nullopt;
    } else {
      // A register slot: a common register if possible, else one of the side needing it.
      for (uint64_t c : common)
        if (fits(c)) {
          v = c;
          break;
        }
      for (const SideVectors *side : {&st, &ld})
        for (uint64_t r : side->regs)
          if (!v && fits(r))
            v = r;
      if (!v)
        return std::nullopt;
    }
    have.insert(*v, 0);
    chunk.push_back(*v);
  }
  return chunk;
}

// The phase vectors (addresses that may collide within one wavefront) of a side, estimated for
// the segment construction; the exact count comes from analyzeSharedSide afterwards.
std::vector<uint64_t> phaseVectors(const SideVectors &s, SharedOp op, int chunkBits,
                                   int elementBits) {
  std::vector<uint64_t> out;
  if (op == SharedOp::LdMatrix || op == SharedOp::StMatrix) {
    for (int i = 2; i < 5 && i < int(s.lanes.size()); ++i)
      out.push_back(s.lanes[i]);
    return out;
  }
  if (op == SharedOp::LdMatrixTrans || op == SharedOp::StMatrixTrans) {
    // Rows: the register analyzeSharedSide pairs (the first one outside the chunk), lane 0, 1.
    F2Basis chunk;
    for (int i = 2; i < 5 && i < int(s.lanes.size()); ++i)
      chunk.insert(s.lanes[i], 0);
    for (uint64_t r : s.regs)
      if (r && !chunk.contains(r)) {
        out.push_back(r);
        break;
      }
    for (int i = 0; i < 2 && i < int(s.lanes.size()); ++i)
      out.push_back(s.lanes[i]);
    return out;
  }
  int bytes = (1 << chunkBits) * elementBits / 8;
  int phases = bytes <= 4 ? 1 : std::min(bytes, 16) / 4;
  int lanes = log2i(uint64_t(32 / phases));
  for (int i = 0; i < lanes && i < int(s.lanes.size()); ++i)
    out.push_back(s.lanes[i]);
  return out;
}

// Coordinates, over `hBasis`, of the part of each vector lying in span(hBasis) when the space is
// split as span(fixed) ⊕ span(hBasis).
std::vector<uint64_t> hCoordinates(std::span<const uint64_t> vs, std::span<const uint64_t> fixed,
                                   std::span<const uint64_t> hBasis) {
  F2Basis b;
  for (uint64_t f : fixed)
    b.insert(f, 0);
  for (size_t i = 0; i < hBasis.size(); ++i)
    b.insert(hBasis[i], uint64_t(1) << i);
  std::vector<uint64_t> out;
  for (uint64_t v : vs) {
    uint64_t combo = 0;
    b.reduce(v, &combo);
    out.push_back(combo);
  }
  return out;
}

// The segment: `s` vectors of F2^h (coordinates) meeting span(ps) and span(pd) as little as
// possible (docs/conversions.md, "Optimal swizzling").
std::vector<uint64_t> chooseSegment(std::span<const uint64_t> ps, std::span<const uint64_t> pd,
                                    int h, int s) {
  std::vector<uint64_t> inter = f2Intersection(ps, pd);
  auto complementWithin = [](std::span<const uint64_t> sub, std::span<const uint64_t> whole) {
    F2Basis b;
    for (uint64_t v : sub)
      b.insert(v, 0);
    std::vector<uint64_t> out;
    for (uint64_t v : whole)
      if (b.insert(v, 0))
        out.push_back(v);
    return out;
  };
  std::vector<uint64_t> as = complementWithin(inter, ps);
  std::vector<uint64_t> ad = complementWithin(inter, pd);
  std::vector<uint64_t> both(ps.begin(), ps.end());
  both.insert(both.end(), pd.begin(), pd.end());
  std::vector<uint64_t> units;
  for (int i = 0; i < h; ++i)
    units.push_back(uint64_t(1) << i);
  std::vector<uint64_t> z = complementWithin(both, units);
  std::vector<uint64_t> seg = z;
  size_t pairs = std::min(as.size(), ad.size());
  for (size_t j = 0; j < pairs; ++j)
    seg.push_back(as[j] ^ ad[j]);
  const std::vector<uint64_t> &larger = as.size() > ad.size() ? as : ad;
  for (size_t j = pairs; j < larger.size(); ++j)
    seg.push_back(larger[j]);
  for (size_t j = 0; j < pairs; ++j)
    seg.push_back(as[j]);
  for (uint64_t v : inter)
    seg.push_back(v);
  // Keep an independent prefix of length s.
  std::vector<uint64_t> out;
  F2Basis b;
  for (uint64_t v : seg) {
    if (int(out.size()) >= s)
      break;
    if (b.insert(v, 0))
      out.push_back(v);
  }
  for (uint64_t v : units) {
    if (int(out.size()) >= s)
      break;
    if (b.insert(v, 0))
      out.push_back(v);
  }
  return out;
}

struct Evaluated {
  SwizzleChoice choice;
  int instructions = 0;
};

std::optional<Evaluated> evaluate(const ChunkCandidate &cand, const SideVectors &st,
                                  const SideVectors &ld, std::span<const uint64_t> tile,
                                  std::span<const uint64_t> roundCandidates, int tileDim,
                                  int elementBits, int warps, const SwizzleOptions &opt) {
  const TargetCosts &tc = targetCosts(opt.target);
  // Rounds: split the scratch while it is too large and shared registers can index rounds.
  std::vector<uint64_t> rounds;
  {
    // A round vector must stay out of the span of everything a thread cannot choose (lanes,
    // warps, blocks) and of the chunk: all of those are fixed within one round.
    F2Basis b;
    for (uint64_t c : cand.chunk)
      b.insert(c, 0);
    for (const SideVectors *s : {&st, &ld})
      for (const auto *v : {&s->lanes, &s->warps, &s->extra})
        for (uint64_t x : *v)
          b.insert(x, 0);
    int64_t bytes = (int64_t(1) << tileDim) * elementBits / 8;
    for (auto it = roundCandidates.rbegin(); it != roundCandidates.rend(); ++it) {
      if (bytes <= opt.maxScratchBytes)
        break;
      if (b.insert(*it, 0)) {
        rounds.push_back(*it);
        bytes /= 2;
      }
    }
  }
  // H: a complement of chunk + rounds holding the other generators of both sides, the side
  // with the wider chunk first.
  int cs = isMatrixOp(cand.storeOp) ? int(cand.chunk.size()) : prefixInSpan(cand.chunk, st.regs);
  int cd = isMatrixOp(cand.loadOp) ? int(cand.chunk.size()) : prefixInSpan(cand.chunk, ld.regs);
  F2Basis b;
  std::vector<uint64_t> fixed;
  for (uint64_t c : cand.chunk) {
    if (!b.insert(c, 0))
      return std::nullopt;
    fixed.push_back(c);
  }
  for (uint64_t r : rounds) {
    if (!b.insert(r, 0))
      return std::nullopt;
    fixed.push_back(r);
  }
  std::vector<uint64_t> hBasis;
  // What threads cannot choose (lanes, warps, blocks) first, so that none of it needs a round
  // vector; registers after.
  const SideVectors &first = cs >= cd ? st : ld, &second = cs >= cd ? ld : st;
  for (const SideVectors *s : {&first, &second})
    for (const auto *v : {&s->lanes, &s->warps, &s->extra})
      for (uint64_t x : *v)
        if (x && b.insert(x, 0))
          hBasis.push_back(x);
  for (const SideVectors *s : {&first, &second})
    for (uint64_t x : s->regs)
      if (x && b.insert(x, 0))
        hBasis.push_back(x);
  for (uint64_t t : tile)
    if (b.insert(t, 0))
      hBasis.push_back(t);
  int m = tileDim - int(rounds.size());
  int rowBits = log2i(uint64_t(1024 / elementBits));
  int h = int(hBasis.size());
  int s = std::max(0, m - rowBits);
  auto buildOffsets = [&](std::span<const uint64_t> storePhase,
                          std::span<const uint64_t> loadPhase) {
    std::vector<uint64_t> offsets(cand.chunk.begin(), cand.chunk.end());
    if (s == 0) {
      offsets.insert(offsets.end(), hBasis.begin(), hBasis.end());
      return offsets;
    }
    std::vector<uint64_t> ps = hCoordinates(storePhase, fixed, hBasis);
    std::vector<uint64_t> pd = hCoordinates(loadPhase, fixed, hBasis);
    std::vector<uint64_t> seg = chooseSegment(ps, pd, h, s);
    F2Basis sb;
    for (uint64_t v : seg)
      sb.insert(v, 0);
    for (int i = 0; i < h; ++i)
      if (sb.insert(uint64_t(1) << i, 0))
        offsets.push_back(hBasis[i]);
    for (uint64_t v : seg)
      offsets.push_back(f2Apply(hBasis, v));
    return offsets;
  };
  // The addresses that share a wavefront, as tensor vectors, once a side's access is known.
  auto exactPhase = [&](const SharedSidePattern &pat, const ScratchBasis &bs) {
    std::vector<uint64_t> out;
    if (isMatrixOp(pat.op)) {
      for (int i = 0; i < 3; ++i)
        out.push_back(f2Apply(bs.offsets, pat.addressLaneMap[i]));
      return out;
    }
    int bytes = pat.accessBits / 8;
    int phases = bytes <= 4 ? 1 : std::min(bytes, 16) / 4;
    int lanes = log2i(uint64_t(32 / phases));
    for (int i = 0; i < lanes && i < int(pat.laneMap.size()); ++i)
      out.push_back(f2Apply(bs.offsets, pat.laneMap[i]));
    return out;
  };
  ScratchBasis basis{buildOffsets(phaseVectors(st, cand.storeOp, cs, elementBits),
                                  phaseVectors(ld, cand.loadOp, cd, elementBits)),
                     rounds};
  auto sp = analyzeSharedSide(st, basis, cand.storeOp, elementBits);
  if (!sp)
    return std::nullopt;
  auto lp = analyzeSharedSide(ld, basis, cand.loadOp, elementBits);
  if (!lp)
    return std::nullopt;
  // The phase vectors above were estimates (the vector width each side reaches is only known
  // now); when they missed, rebuild the segment from the exact ones and keep the better.
  for (int iter = 0; iter < 2 && s > 0 &&
                     (sp->wavefronts > sp->minWavefronts || lp->wavefronts > lp->minWavefronts);
       ++iter) {
    ScratchBasis again{buildOffsets(exactPhase(*sp, basis), exactPhase(*lp, basis)), rounds};
    auto sp2 = analyzeSharedSide(st, again, cand.storeOp, elementBits);
    auto lp2 = analyzeSharedSide(ld, again, cand.loadOp, elementBits);
    if (!sp2 || !lp2)
      break;
    auto waves = [](const SharedSidePattern &a, const SharedSidePattern &b) {
      return double(a.instructionsPerThread) * a.wavefronts +
             double(b.instructionsPerThread) * b.wavefronts;
    };
    if (waves(*sp2, *lp2) >= waves(*sp, *lp))
      break;
    basis = std::move(again);
    sp = std::move(sp2);
    lp = std::move(lp2);
  }
  Evaluated e;
  int instr = sp->instructionsPerThread + lp->instructionsPerThread;
  double wave = double(sp->instructionsPerThread) * sp->wavefronts +
                double(lp->instructionsPerThread) * lp->wavefronts;
  e.instructions = instr;
  e.choice.cycles =
      std::max(warps * wave * 128.0 / tc.sharedBytesPerClock, warps * instr / tc.issuePerClock) +
      2.0 * double(1 << rounds.size()) * tc.barrierCycles;
  e.choice.basis = std::move(basis);
  e.choice.store = std::move(*sp);
  e.choice.load = std::move(*lp);
  return e;
}

} // namespace

std::optional<SwizzleChoice> searchSwizzle(const SideVectors &store, const SideVectors &load,
                                           std::span<const uint64_t> tile, int elementBits,
                                           int warps, const SwizzleOptions &options) {
  assert((elementBits == 8 || elementBits == 16 || elementBits == 32 || elementBits == 64) &&
         "element widths are 8, 16, 32 or 64 bits");
  const TargetCosts &tc = targetCosts(options.target);
  int tileDim = f2Rank(tile);
  int maxC = log2i(uint64_t(128 / elementBits));
  std::vector<uint64_t> common = commonRegisters(store.regs, load.regs);

  std::vector<ChunkCandidate> cands;
  {
    std::vector<uint64_t> base(common.begin(),
                               common.begin() + std::min<size_t>(common.size(), size_t(maxC)));
    int wordC = elementBits < 32 ? log2i(uint64_t(32 / elementBits)) : 0;
    cands.push_back({base, SharedOp::Store, SharedOp::Load});
    for (int side = 0; side < 2; ++side) {
      const SideVectors &mine = side == 0 ? store : load;
      const SideVectors &other = side == 0 ? load : store;
      std::vector<uint64_t> full = base;
      extendChunk(full, mine.regs, other.lanes, maxC);
      if (full.size() > base.size())
        cands.push_back({full, SharedOp::Store, SharedOp::Load});
      if (int(base.size()) < wordC) {
        std::vector<uint64_t> word = base;
        extendChunk(word, mine.regs, other.lanes, wordC);
        if (word.size() > base.size() && word.size() < full.size())
          cands.push_back({word, SharedOp::Store, SharedOp::Load});
      }
    }
  }
  if ((options.allowMatrixStores || options.allowMatrixLoads) && elementBits <= 32 &&
      store.lanes.size() == 5 && load.lanes.size() == 5) {
    std::vector<SharedOp> sops{SharedOp::Store}, lops{SharedOp::Load};
    if (tc.hasStMatrix && options.allowMatrixStores) {
      sops.push_back(SharedOp::StMatrix);
      if (elementBits == 16)
        sops.push_back(SharedOp::StMatrixTrans);
    }
    if (tc.hasLdMatrix && options.allowMatrixLoads) {
      lops.push_back(SharedOp::LdMatrix);
      if (elementBits == 16)
        lops.push_back(SharedOp::LdMatrixTrans);
    }
    for (SharedOp so : sops)
      for (SharedOp lo : lops) {
        if (!isMatrixOp(so) && !isMatrixOp(lo))
          continue;
        auto chunk = matrixCandidateChunk(store, load, so, lo, elementBits, common);
        if (!chunk)
          continue;
        cands.push_back({*chunk, so, lo});
        // The vectorised side may go wider than the 16-byte matrix row.
        const SideVectors *flex = !isMatrixOp(so) ? &store : !isMatrixOp(lo) ? &load : nullptr;
        if (flex && prefixInSpan(*chunk, flex->regs) == int(chunk->size())) {
          std::vector<uint64_t> wide = *chunk;
          const SideVectors &other = flex == &store ? load : store;
          extendChunk(wide, flex->regs, other.lanes, maxC);
          if (wide.size() > chunk->size())
            cands.push_back({wide, so, lo});
        }
      }
  }

  std::optional<Evaluated> best;
  // Whether the loads fill consecutive registers (element k is register base + k), where the
  // options ask for it: a load that fills registers 0..n-1 of its base hands an mma its fragment
  // as loaded, where one that fills registers far apart leaves the fragments to be assembled
  // with moves (attention's K^T operand: 16 ld.shared.v4 or 16 ldmatrix, equal in wavefronts;
  // with the first, most of the first dot's HMMAs waited on three moves each, and the plain
  // matmul, whose B operand is the same case, ran 1.18x faster with the second).
  auto inOrder = [&](const SwizzleChoice &c) {
    if (!options.loadsInRegisterOrder)
      return true;
    for (size_t k = 0; k < c.load.element.size(); ++k)
      if (c.load.element[k] != k)
        return false;
    return true;
  };
  // A candidate moving 16 bytes per lane on both sides without bank conflicts (and in order,
  // where asked) takes the fewest wavefronts and instructions any scratch allows: nothing after
  // it can be cheaper.
  auto unbeatable = [&](const SwizzleChoice &c) {
    return c.store.accessBits >= 128 && c.load.accessBits >= 128 &&
           c.store.wavefronts == c.store.minWavefronts &&
           c.load.wavefronts == c.load.minWavefronts && inOrder(c);
  };
  for (const ChunkCandidate &c : cands) {
    auto e = evaluate(c, store, load, tile, common, tileDim, elementBits, warps, options);
    if (!e)
      continue;
    const bool cheaper = best && e->choice.cycles < best->choice.cycles - 1e-9;
    const bool asCheap = best && e->choice.cycles < best->choice.cycles + 1e-9;
    if (!best || cheaper ||
        (asCheap &&
         (e->instructions < best->instructions ||
          (e->instructions == best->instructions && inOrder(e->choice) && !inOrder(best->choice)))))
      best = std::move(e);
    if (unbeatable(best->choice))
      break;
  }
  if (!best)
    return std::nullopt;
  return std::move(best->choice);
}

Expected<SharedScratchLayout> optimalSwizzle(const LinearLayout &src, const LinearLayout &dst,
                                             int elementBits, const SwizzleOptions &options) {
  if (elementBits != 8 && elementBits != 16 && elementBits != 32 && elementBits != 64)
    return makeError("element bitwidth " + std::to_string(elementBits) +
                     " is not one of 8, 16, 32, 64");
  std::vector<DimName> order = src.outDimNames();
  auto dstAligned = dst.transposeOuts(order);
  if (!dstAligned.ok())
    return makeError("src and dst have different out dimensions");
  for (const DimSize &d : src.outDims())
    if (dstAligned->outDimSize(d.name) != d.size)
      return makeError("out dimension '" + std::string(d.name.str()) + "' has size " +
                       std::to_string(d.size) + " in src and " +
                       std::to_string(dstAligned->outDimSize(d.name)) + " in dst");
  auto side = [](const LinearLayout &l) {
    SideVectors s;
    s.regs = columnsOf(l, DimName::reg());
    s.lanes = columnsOf(l, DimName::lane());
    s.warps = columnsOf(l, DimName::warp());
    return s;
  };
  SideVectors st = side(src), ld = side(*dstAligned);
  std::vector<uint64_t> tile;
  for (const auto *v : {&st.regs, &st.lanes, &st.warps})
    tile.insert(tile.end(), v->begin(), v->end());
  for (const auto *v : {&ld.regs, &ld.lanes, &ld.warps})
    for (uint64_t x : *v)
      if (!f2InSpan(tile, x))
        return makeError("dst reads tensor elements that src's CTA tile does not hold");
  int warps = int(src.inDimSize(DimName::warp()));
  auto choice = searchSwizzle(st, ld, tile, elementBits, warps, options);
  if (!choice)
    return makeError("no shared-memory scratch lets both layouts access it");
  std::vector<InDimColumns> ins{{DimName::offset(), choice->basis.offsets},
                                {DimName::get("round"), choice->basis.rounds}};
  std::vector<DimSize> outs = src.outDims();
  LL_ASSIGN_OR_RETURN(LinearLayout scratch, layoutFromColumns(ins, outs));
  SharedScratchLayout r;
  r.scratch = scratch;
  r.storeOp = choice->store.op;
  r.loadOp = choice->load.op;
  r.storeVectorElements = choice->store.vectorElements;
  r.loadVectorElements = choice->load.vectorElements;
  r.storeWavefronts = choice->store.wavefronts;
  r.loadWavefronts = choice->load.wavefronts;
  r.storeMinWavefronts = choice->store.minWavefronts;
  r.loadMinWavefronts = choice->load.minWavefronts;
  return r;
}

} // namespace linlayout
