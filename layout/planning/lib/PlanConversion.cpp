#include "linlayout/layout/PlanConversion.h"

#include "AddressCost.h"
#include "PaddedScratch.h"
#include "PlanProblem.h"
#include "linlayout/layout/F2Basis.h"
#include "linlayout/layout/F2Subspace.h"
#include "linlayout/layout/LayoutColumns.h"
#include "linlayout/layout/SharedAccessPattern.h"
#include "linlayout/layout/Swizzle.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

namespace linlayout {
namespace planning {
namespace {

// A layout with exactly the in dims register, lane, warp, block (in that order).
Expected<LinearLayout> normalise(const LinearLayout &l, const char *what,
                                 std::span<const DimSize> outs) {
  for (int d = 0; d < l.numInDims(); ++d) {
    DimName n = l.inDimName(d);
    if (n != kHwDims[0] && n != kHwDims[1] && n != kHwDims[2] && n != kHwDims[3])
      return makeError(std::string(what) + " has input dimension '" + std::string(n.str()) +
                       "', expected only register, lane, warp and block");
  }
  std::vector<InDimColumns> ins;
  for (DimName n : kHwDims)
    ins.push_back({n, columnsOf(l, n)});
  return layoutFromColumns(ins, outs);
}

// ------------------------------------------------------------------------------------------------
// Step 1: where each dst element is read from (sourceOf) and the level the conversion needs.
// ------------------------------------------------------------------------------------------------

Movement findSources(const Problem &p) {
  const Hw &s = p.s, &d = p.d;
  int nd = d.total();
  // The dims a level leaves in place ("embedded"): their bits move to the same src bit.
  auto embedded = [](int level, int dim) { return dim > level; };
  // For dst bit i at `level`: the tensor vector that must come from the lower src dims.
  auto target = [&](int level, int dim, int k) {
    uint64_t t = d.dim(dim)[k];
    if (level < kAny && embedded(level, dim))
      t ^= s.dim(dim)[k];
    return t;
  };
  auto solverFor = [&](int level) {
    F2Basis b;
    int bit = 0;
    for (int dim = 0; dim < 4; ++dim)
      for (int k = 0; k < s.bits(dim); ++k, ++bit)
        if (level == kAny || dim <= level)
          b.insert(s.dim(dim)[k], uint64_t(1) << bit);
    return b;
  };
  F2Basis solvers[4] = {solverFor(kThread), solverFor(kWarp), solverFor(kCta), solverFor(kAny)};
  // The dst bit combinations with a source at each level: kernels of "residue modulo the span".
  std::vector<uint64_t> spaces[4];
  for (int level = 0; level < 4; ++level) {
    std::vector<uint64_t> residues;
    for (int dim = 0; dim < 4; ++dim)
      for (int k = 0; k < d.bits(dim); ++k)
        residues.push_back(solvers[level].reduce(target(level, dim, k)));
    spaces[level] = f2KernelOfColumns(residues, ~uint64_t(0));
  }
  // An adapted basis: X_thread, extended to X_warp, X_cta, everything.
  F2Basis adapted;
  std::vector<uint64_t> vecs;
  std::vector<int> levels;
  for (int level = 0; level < 4; ++level) {
    std::vector<uint64_t> cands = spaces[level];
    if (level == kAny)
      for (int i = 0; i < nd; ++i)
        cands.push_back(uint64_t(1) << i);
    for (uint64_t v : cands)
      if (adapted.insert(v, uint64_t(1) << vecs.size())) {
        vecs.push_back(v);
        levels.push_back(level);
      }
  }
  assert(int(vecs.size()) == nd && "the adapted basis spans the dst hardware");
  Movement m;
  // sourceOf on the adapted vectors.
  std::vector<uint64_t> cOf(vecs.size());
  for (size_t a = 0; a < vecs.size(); ++a) {
    int level = levels[a];
    m.level = std::max(m.level, level);
    uint64_t t = 0, emb = 0;
    int bit = 0;
    for (int dim = 0; dim < 4; ++dim)
      for (int k = 0; k < d.bits(dim); ++k, ++bit)
        if (vecs[a] >> bit & 1) {
          t ^= target(level, dim, k);
          if (level < kAny && embedded(level, dim))
            emb ^= uint64_t(1) << (s.offset(dim) + k);
        }
    uint64_t combo = 0;
    [[maybe_unused]] uint64_t residue = solvers[level].reduce(t, &combo);
    assert(residue == 0 && "a vector of X_level has a source at that level");
    cOf[a] = emb ^ combo;
  }
  // sourceOf on the unit dst bits.
  for (int i = 0; i < nd; ++i) {
    uint64_t combo = 0;
    [[maybe_unused]] uint64_t r = adapted.reduce(uint64_t(1) << i, &combo);
    assert(r == 0);
    m.sourceOf.push_back(f2Apply(cOf, combo));
  }
  return m;
}

// ------------------------------------------------------------------------------------------------
// Costs
// ------------------------------------------------------------------------------------------------

int widthIndex(int bits) { return std::clamp(log2i(uint64_t(bits)) - 3, 0, 4); }

// ------------------------------------------------------------------------------------------------
// Register permutation
// ------------------------------------------------------------------------------------------------

Status planRegisters(const Problem &p, const Movement &mv, ConversionPlan &plan) {
  int rs = p.s.bits(0), rd = p.d.bits(0);
  std::vector<InDimColumns> ins;
  int bit = 0;
  bool identity = rs == rd;
  int threadRank = 0;
  std::vector<uint64_t> threadCols;
  for (int dim = 0; dim < 4; ++dim) {
    InDimColumns c{kHwDims[dim], {}};
    for (int k = 0; k < p.d.bits(dim); ++k, ++bit) {
      uint64_t r = mv.sourceOf[bit] & lowMask(rs);
      c.columns.push_back(r);
      if (dim == 0 && r != (uint64_t(1) << k))
        identity = false;
      if (dim > 0) {
        threadCols.push_back(r);
        if (r)
          identity = false;
      }
    }
    ins.push_back(std::move(c));
  }
  threadRank = f2Rank(threadCols);
  std::vector<DimSize> outs{{DimName::reg(), uint64_t(1) << rs}};
  LL_ASSIGN_OR_RETURN(plan.permute.srcRegister, layoutFromColumns(ins, outs));
  plan.path = identity ? ConversionPath::NoOp : ConversionPath::RegisterPermute;
  plan.cost.selects = threadRank ? (1 << rd) * ((1 << threadRank) - 1) : 0;
  plan.cost.indexOps = threadRank; // one predicate per thread bit that picks registers
  plan.cost.cycles = cyclesOf(p, plan.cost, plan.cost.warps, false);
  return Status::success();
}

// ------------------------------------------------------------------------------------------------
// Shared memory (CTA scope) and distributed shared memory (cluster scope)
// ------------------------------------------------------------------------------------------------

Status planShared(const Problem &p, const Movement &mv, ConversionPlan &plan, bool cluster) {
  const Hw &s = p.s, &d = p.d;
  const int rs = s.bits(0), L = s.bits(1), W = s.bits(2);
  const int srcThreadBits = rs + L + W;      // src bits below block
  auto srcTensor = [&](uint64_t packedSrc) { // tensor vector of the rlw part of a src input
    uint64_t v = 0;
    std::vector<uint64_t> all = s.all();
    for (uint64_t x = packedSrc & lowMask(srcThreadBits); x; x &= x - 1)
      v ^= all[__builtin_ctzll(x)];
    return v;
  };
  auto srcBlock = [&](uint64_t packedSrc) { return packedSrc >> srcThreadBits; };

  SideVectors store;
  store.regs = s.reg;
  store.lanes = s.lane;
  store.warps = s.warp;
  SideVectors load;
  std::vector<uint64_t> loadBlockCols;
  {
    int bit = 0;
    for (int dim = 0; dim < 4; ++dim)
      for (int k = 0; k < d.bits(dim); ++k, ++bit) {
        uint64_t t = srcTensor(mv.sourceOf[bit]);
        (dim == 0   ? load.regs
         : dim == 1 ? load.lanes
         : dim == 2 ? load.warps
                    : load.extra)
            .push_back(t);
        loadBlockCols.push_back(srcBlock(mv.sourceOf[bit]));
      }
  }
  if (cluster)
    load.regTags.assign(loadBlockCols.begin(), loadBlockCols.begin() + d.bits(0));
  std::vector<uint64_t> tile = s.reg;
  tile.insert(tile.end(), s.lane.begin(), s.lane.end());
  tile.insert(tile.end(), s.warp.begin(), s.warp.end());

  SwizzleOptions so;
  so.target = p.opt.target;
  so.maxScratchBytes = p.opt.maxScratchBytes;
  so.allowMatrixStores = p.opt.allowMatrixOps;
  so.allowMatrixLoads = p.opt.allowMatrixOps && !cluster;
  so.loadsInRegisterOrder = p.opt.dstIsMmaOperand;
  auto choice = searchSwizzle(store, load, tile, p.e, p.warps(), so);
  if (!choice)
    return makeError("no shared-memory scratch lets both layouts access it");
  // Builds the step and its cost for a scratch choice: swizzled (no pads) or padded.
  auto build = [&](const SwizzleChoice &chosen, const std::vector<PadInterval> &pads,
                   int64_t paddedBytes, ConversionPlan &built) -> Status {
    const ScratchBasis &basis = chosen.basis;
    const SharedSidePattern &sp = chosen.store, &lp = chosen.load;
    const int m = int(basis.offsets.size());

    SharedStep &st = built.shared;
    st.rounds = 1 << basis.rounds.size();
    st.scratchBytes = (int64_t(1) << m) * p.e / 8;
    if (!pads.empty()) {
      st.padding = pads;
      st.scratchBytes = paddedBytes;
    }
    st.storeOp = sp.op;
    st.loadOp = lp.op;
    st.storeVectorElements = sp.vectorElements;
    st.loadVectorElements = lp.vectorElements;
    st.storeWavefronts = sp.wavefronts;
    st.loadWavefronts = lp.wavefronts;
    st.storeMinWavefronts = sp.minWavefronts;
    st.loadMinWavefronts = lp.minWavefronts;
    {
      std::vector<InDimColumns> ins{{DimName::offset(), basis.offsets},
                                    {DimName::get("round"), basis.rounds}};
      std::vector<uint64_t> blocks;
      if (cluster) {
        ins.push_back({DimName::block(), s.block});
      }
      LL_ASSIGN_OR_RETURN(st.scratch, layoutFromColumns(ins, p.src.outDims()));
    }
    auto addressMap = [&](const SharedSidePattern &pat,
                          std::span<const uint64_t> blockCols) -> Expected<LinearLayout> {
      std::vector<InDimColumns> ins{{kHwDims[1], {}}, {kHwDims[2], {}}, {kHwDims[3], {}}};
      const std::vector<uint64_t> &lanes = isMatrixOp(pat.op) ? pat.addressLaneMap : pat.laneMap;
      for (uint64_t x : lanes)
        ins[0].columns.push_back(x & lowMask(m));
      for (uint64_t x : pat.warpMap)
        ins[1].columns.push_back(x & lowMask(m));
      for (size_t t = 0; t < size_t(d.bits(3)); ++t)
        ins[2].columns.push_back(t < blockCols.size() ? blockCols[t] & lowMask(m) : 0);
      std::vector<DimSize> outs{{DimName::offset(), uint64_t(1) << m}};
      return layoutFromColumns(ins, outs);
    };
    LL_ASSIGN_OR_RETURN(st.storeAddress, addressMap(sp, {}));
    LL_ASSIGN_OR_RETURN(st.loadAddress, addressMap(lp, lp.extraMap));
    // The CTA each load reads: own CTA at CTA scope; sourceOf's block otherwise.
    {
      std::vector<InDimColumns> ins{{kHwDims[1], {}}, {kHwDims[2], {}}, {kHwDims[3], {}}};
      int bit = d.bits(0);
      for (int dim = 1; dim < 4; ++dim)
        for (int k = 0; k < d.bits(dim); ++k, ++bit)
          ins[dim - 1].columns.push_back(cluster ? loadBlockCols[bit]
                                                 : (dim == 3 ? uint64_t(1) << k : 0));
      std::vector<DimSize> outs{{DimName::block(), uint64_t(1) << d.bits(3)}};
      LL_ASSIGN_OR_RETURN(st.loadBlock, layoutFromColumns(ins, outs));
    }
    // Store predicate: warps whose src column is zero hold copies of another warp's data.
    int predBits = 0;
    {
      std::vector<InDimColumns> ins{{kHwDims[1], std::vector<uint64_t>(L, 0)},
                                    {kHwDims[2], {}},
                                    {kHwDims[3], std::vector<uint64_t>(d.bits(3), 0)}};
      for (int k = 0; k < W; ++k)
        ins[1].columns.push_back(s.warp[k] == 0 ? uint64_t(1) << predBits++ : 0);
      std::vector<DimSize> outs{{DimName::get("skip"), uint64_t(1) << predBits}};
      LL_ASSIGN_OR_RETURN(st.storePredicate, layoutFromColumns(ins, outs));
    }
    // Instructions.
    auto enumerate = [&](const SharedSidePattern &pat, std::vector<SharedAccess> &out,
                         const std::vector<uint64_t> *blockOfReg) -> Status {
      int nb = int(pat.baseBasis.size());
      for (uint64_t c = 0; c < (uint64_t(1) << nb); ++c) {
        uint32_t base = 0;
        for (int i = 0; i < nb; ++i)
          if (c >> i & 1)
            base ^= pat.baseBasis[i];
        SharedAccess a;
        a.op = pat.op;
        uint64_t where = f2Apply(pat.regMap, base);
        a.offsetConst = where & lowMask(m);
        a.round = int((where >> m) & lowMask(int(basis.rounds.size())));
        for (uint32_t el : pat.element)
          a.registers.push_back(int(base ^ el));
        if (blockOfReg) {
          a.blockConst = uint32_t(f2Apply(*blockOfReg, base));
          for (uint32_t el : pat.element)
            if (f2Apply(*blockOfReg, el) != 0)
              return makeError("a vector load would span two CTAs");
        }
        out.push_back(std::move(a));
      }
      std::stable_sort(out.begin(), out.end(), [](const SharedAccess &x, const SharedAccess &y) {
        return x.round < y.round;
      });
      return Status::success();
    };
    std::vector<uint64_t> regBlocks(loadBlockCols.begin(), loadBlockCols.begin() + d.bits(0));
    LL_TRY_STATUS(enumerate(sp, st.stores, nullptr));
    LL_TRY_STATUS(enumerate(lp, st.loads, cluster ? &regBlocks : nullptr));
    // Copies: dst registers that duplicate loaded ones.
    if (!lp.duplicate.empty()) {
      F2Basis dec;
      for (uint32_t b : lp.baseBasis)
        dec.insert(b, 0);
      std::vector<uint64_t> elementSpan;
      for (uint32_t el : lp.element)
        dec.insert(el, 0);
      for (size_t i = 0; i < lp.duplicate.size(); ++i)
        dec.insert(lp.duplicate[i], uint64_t(1) << i);
      for (uint64_t r = 0; r < (uint64_t(1) << d.bits(0)); ++r) {
        uint64_t combo = 0;
        dec.reduce(r, &combo);
        uint64_t z = 0;
        for (size_t i = 0; i < lp.duplicate.size(); ++i)
          if (combo >> i & 1)
            z ^= lp.duplicate[i];
        if (z)
          st.copies.push_back({int(r), int(r ^ z)});
      }
    }
    // Counts.
    ConversionCost &c = built.cost;
    c.warps = p.warps();
    int nStore = int(st.stores.size()), nLoad = int(st.loads.size());
    if (isMatrixOp(sp.op))
      c.stmatrix = nStore;
    else
      c.stores[widthIndex(sp.accessBits)] = nStore;
    if (isMatrixOp(lp.op))
      c.ldmatrix = nLoad;
    else
      c.loads[widthIndex(lp.accessBits)] = nLoad;
    // Bytes, as on the shuffle path: a stored word of k bytes takes k - 1 prmts to pack, and a
    // loaded byte one to take out of its word (none where a load is one byte).
    if (p.e == 8) {
      for (const SharedAccess &a : st.stores) {
        int n = int(a.registers.size()), perWord = std::min(n, 4);
        c.prmts += n / perWord * (perWord - 1);
      }
      for (const SharedAccess &a : st.loads)
        c.prmts += a.registers.size() > 1 ? int(a.registers.size()) : 0;
    }
    // Each round: a sync before its stores (where the scratch may still be read) and one between
    // its stores and its loads; warps that keep to their own bytes sync only themselves.
    built.path = cluster ? ConversionPath::DistributedSharedMemory : ConversionPath::SharedMemory;
    st.withinWarps = exchangeStaysInWarps(built);
    (st.withinWarps ? c.warpSyncs : c.barriers) = 2 * st.rounds;
    c.storeWavefronts = int64_t(nStore) * sp.wavefronts;
    c.loadWavefronts = int64_t(nLoad) * lp.wavefronts;
    c.conflictWavefronts = int64_t(nStore) * (sp.wavefronts - sp.minWavefronts) +
                           int64_t(nLoad) * (lp.wavefronts - lp.minWavefronts);
    c.scratchBytes = st.scratchBytes;
    c.indexOps = 0;
    c.addressOps = addressOps(sp, m, pads, p.e / 8) + addressOps(lp, m, pads, p.e / 8);
    assert(st.storingWarps() == c.warps >> predBits);
    c.cycles = cyclesOf(p, c, st.storingWarps(), cluster);
    return Status::success();
  };
  LL_TRY_STATUS(build(*choice, {}, 0, plan));
  // A padded scratch in place of the swizzle where the cost model prices it lower
  // (PaddedScratch.h, AddressCost.h): fewer cycles, or as many with fewer instructions issued.
  // Padding takes more shared memory, so a tie keeps the swizzle, and a padded scratch must fit
  // where the swizzled one did (even when forced: the rounds are sized for the swizzle).
  if (p.opt.padding == ScratchPadding::Never || cluster)
    return Status::success();
  auto padded = searchPaddedScratch(store, load, *choice, p.e);
  if (!padded || padded->scratchBytes > std::max(p.opt.maxScratchBytes, plan.shared.scratchBytes))
    return Status::success();
  SwizzleChoice pc = *choice;
  pc.basis = padded->basis;
  pc.store = padded->store;
  pc.load = padded->load;
  ConversionPlan alt;
  alt.target = plan.target;
  alt.elementBits = plan.elementBits;
  alt.cost.warps = p.warps();
  if (!build(pc, padded->padding, padded->scratchBytes, alt).ok())
    return Status::success();
  const bool fewerCycles = alt.cost.cycles < plan.cost.cycles - 1e-9;
  const bool sameCycles = std::abs(alt.cost.cycles - plan.cost.cycles) <= 1e-9;
  if (p.opt.padding == ScratchPadding::Always || fewerCycles ||
      (sameCycles && alt.cost.issuedInstructions() < plan.cost.issuedInstructions()))
    plan = std::move(alt);
  return Status::success();
}

std::string describe(const ConversionCost &c) {
  std::string s;
  auto add = [&](const std::string &x) { s += (s.empty() ? "" : ", ") + x; };
  if (c.shuffles)
    add(std::to_string(c.shuffles) + " shfl");
  if (c.selects)
    add(std::to_string(c.selects) + " selp");
  if (c.prmts)
    add(std::to_string(c.prmts) + " prmt");
  if (int n = c.sharedInstructions())
    add(std::to_string(n) + " shared-memory instructions, " +
        std::to_string(c.storeWavefronts + c.loadWavefronts) + " wavefronts");
  if (c.barriers)
    add(std::to_string(c.barriers) + " barriers");
  if (c.warpSyncs)
    add(std::to_string(c.warpSyncs) + " warp syncs");
  if (s.empty())
    s = "nothing";
  return s + " per warp";
}

} // namespace

// The pipes of an SM work in parallel (several CTAs and warps overlap), so the estimate is the
// busiest pipe's time plus the barriers, which stall the CTA. A warp sync stalls only its warp,
// which the others cover: it costs its issue slot.
double cyclesOf(const Problem &p, const ConversionCost &c, int storingWarps, bool cluster) {
  const TargetCosts &tc = *p.tc;
  double w = c.warps;
  double alu = double(c.selects + c.prmts + c.indexOps + c.addressOps);
  double storeWarps = double(storingWarps);
  double loadFactor =
      cluster ? 128.0 / tc.remoteSharedBytesPerClock : 128.0 / tc.sharedBytesPerClock;
  double shared = storeWarps * double(c.storeWavefronts) * 128.0 / tc.sharedBytesPerClock +
                  w * double(c.loadWavefronts) * loadFactor;
  double shuffle = w * c.shuffles / tc.shufflesPerClock;
  double aluCycles = w * alu / tc.aluPerClock;
  double issue = w * c.issuedInstructions() / tc.issuePerClock;
  double barrier = cluster ? tc.clusterBarrierCycles : tc.barrierCycles;
  return std::max({shared, shuffle, aluCycles, issue}) + c.barriers * barrier;
}

} // namespace planning

using namespace planning;

Expected<ConversionPlan> planConversion(const LinearLayout &srcIn, const LinearLayout &dstIn,
                                        int elementBits, const PlanOptions &options) {
  if (elementBits != 8 && elementBits != 16 && elementBits != 32 && elementBits != 64)
    return makeError("element bitwidth " + std::to_string(elementBits) +
                     " is not one of 8, 16, 32, 64");
  if (srcIn.numOutDims() != dstIn.numOutDims())
    return makeError("src has " + std::to_string(srcIn.numOutDims()) + " out dimensions and dst " +
                     std::to_string(dstIn.numOutDims()));
  std::vector<DimSize> outs = srcIn.outDims();
  for (const DimSize &o : outs)
    if (!dstIn.hasOutDim(o.name) || dstIn.outDimSize(o.name) != o.size)
      return makeError("out dimension '" + std::string(o.name.str()) + "' has size " +
                       std::to_string(o.size) + " in src and " +
                       std::to_string(dstIn.outDimSize(o.name)) + " in dst");
  std::vector<DimName> order = srcIn.outDimNames();
  LL_ASSIGN_OR_RETURN(LinearLayout dstAligned, dstIn.transposeOuts(order));
  Problem p;
  LL_ASSIGN_OR_RETURN(p.src, normalise(srcIn, "src", outs));
  LL_ASSIGN_OR_RETURN(p.dst, normalise(dstAligned, "dst", outs));
  for (int dim = 1; dim < 4; ++dim)
    if (p.src.inDimSize(kHwDims[dim]) != p.dst.inDimSize(kHwDims[dim]))
      return makeError("src has " + std::to_string(p.src.inDimSize(kHwDims[dim])) + " " +
                       std::string(kHwDims[dim].str()) + "s and dst " +
                       std::to_string(p.dst.inDimSize(kHwDims[dim])));
  LL_ASSIGN_OR_RETURN(bool within, p.dst.imageWithin(p.src));
  if (!within)
    return makeError("dst holds tensor elements that src does not hold");
  if (p.src.totalInBits() > 64 || p.src.inDimBits(DimName::reg()) > 24 ||
      p.dst.inDimBits(DimName::reg()) > 24)
    return makeError("more than 2^24 registers per thread");
  p.s = hwOf(p.src);
  p.d = hwOf(p.dst);
  p.e = elementBits;
  p.opt = options;
  p.tc = &targetCosts(options.target);

  Movement mv = findSources(p);
  // The candidates carry only their steps; the layouts are attached to the one chosen.
  ConversionPlan base;
  base.target = options.target;
  base.elementBits = elementBits;
  base.cost.warps = p.warps();
  LinearLayout sourceOf;
  {
    std::vector<InDimColumns> ins;
    int bit = 0;
    for (int dim = 0; dim < 4; ++dim) {
      InDimColumns c{kHwDims[dim], {}};
      for (int k = 0; k < p.d.bits(dim); ++k)
        c.columns.push_back(mv.sourceOf[bit++]);
      ins.push_back(std::move(c));
    }
    std::vector<DimSize> hwOuts;
    for (int dim = 0; dim < 4; ++dim)
      hwOuts.push_back({kHwDims[dim], uint64_t(1) << p.s.bits(dim)});
    LL_ASSIGN_OR_RETURN(sourceOf, layoutFromColumns(ins, hwOuts));
  }
  if (mv.level == kAny && !p.tc->hasClusters)
    return makeError("the conversion moves data between CTAs, which needs thread-block "
                     "clusters (sm_90); target is " +
                     std::string(gpuTargetName(options.target)));

  // Plans are built in place: a ConversionPlan holds a dozen inline layouts, too big to copy
  // freely on the planning hot path.
  std::vector<ConversionPlan> plans;
  plans.reserve(3);
  std::vector<std::string> notes;
  auto fresh = [&]() -> ConversionPlan & {
    plans.emplace_back();
    ConversionPlan &c = plans.back();
    c.target = base.target;
    c.elementBits = base.elementBits;
    c.cost.warps = base.cost.warps;
    return c;
  };
  if (mv.level == kThread) {
    LL_TRY_STATUS(planRegisters(p, mv, fresh()));
    notes.push_back("every thread already holds its elements");
  }
  if (mv.level == kWarp && options.allowShuffles) {
    if (planShuffles(p, mv, fresh()))
      notes.push_back("data moves between lanes of a warp");
    else
      plans.pop_back();
  }
  if (mv.level <= kCta && mv.level >= kWarp) {
    Status r = planShared(p, mv, fresh(), false);
    if (r.ok()) {
      notes.push_back(mv.level == kCta ? "data moves between warps of a CTA"
                                       : "a shared-memory round trip");
    } else {
      plans.pop_back();
      if (mv.level == kCta)
        return r.error();
    }
  }
  if (mv.level == kAny) {
    LL_TRY_STATUS(planShared(p, mv, fresh(), true));
    notes.push_back("data moves between CTAs of a cluster");
  }
  if (plans.empty())
    return makeError("no way to plan this conversion was found");
  // The cheapest; on a tie, the one that issues fewer instructions per warp (it leaves more
  // issue slots to the kernel around it).
  auto cheaper = [](const ConversionCost &a, const ConversionCost &b) {
    if (std::abs(a.cycles - b.cycles) > 1e-9)
      return a.cycles < b.cycles;
    return a.issuedInstructions() < b.issuedInstructions();
  };
  size_t pick = 0;
  for (size_t i = 1; i < plans.size(); ++i)
    if (cheaper(plans[i].cost, plans[pick].cost))
      pick = i;
  if (options.forcePath) {
    bool found = false;
    for (size_t i = 0; i < plans.size(); ++i)
      if (plans[i].path == *options.forcePath) {
        pick = i;
        found = true;
      }
    if (!found)
      return makeError("path '" + std::string(conversionPathName(*options.forcePath)) +
                       "' is not feasible for this conversion");
  }
  ConversionPlan out = std::move(plans[pick]);
  out.src = p.src;
  out.dst = p.dst;
  out.sourceOf = sourceOf;
  for (size_t i = 0; i < plans.size(); ++i)
    if (i != pick)
      out.alternatives.push_back(
          {plans[i].path, plans[i].cost, notes[i] + ": " + describe(plans[i].cost)});
  return out;
}

Expected<ConversionPlan> planConversion(const LayoutSpec &src, const LayoutSpec &dst,
                                        std::span<const int64_t> shape, int elementBits,
                                        const PlanOptions &options) {
  if (!src.isDistributed())
    return makeError("src is a " + std::string(kindName(src.kind())) +
                     " layout, expected a distributed layout");
  if (!dst.isDistributed())
    return makeError("dst is a " + std::string(kindName(dst.kind())) +
                     " layout, expected a distributed layout");
  LL_ASSIGN_OR_RETURN(LinearLayout s, toLinearLayout(src, shape));
  LL_ASSIGN_OR_RETURN(LinearLayout d, toLinearLayout(dst, shape));
  PlanOptions o = options;
  o.dstIsMmaOperand |= isMmaOperand(dst);
  return planConversion(s, d, elementBits, o);
}

} // namespace linlayout