#include "linlayout/layout/PlanConversion.h"

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
namespace {

uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }
int log2i(uint64_t x) { return 63 - __builtin_clzll(x); }

// Levels of data movement, cheapest first.
enum Level { kThread = 0, kWarp = 1, kCta = 2, kAny = 3 };

// The hardware columns of a distributed layout (packed tensor words) per hardware dim.
struct Hw {
  std::vector<uint64_t> reg, lane, warp, block;
  const std::vector<uint64_t> &dim(int d) const {
    return d == 0 ? reg : d == 1 ? lane : d == 2 ? warp : block;
  }
  int bits(int d) const { return int(dim(d).size()); }
  int offset(int d) const {
    int o = 0;
    for (int i = 0; i < d; ++i)
      o += bits(i);
    return o;
  }
  int total() const { return offset(4); }
  std::vector<uint64_t> all() const {
    std::vector<uint64_t> v;
    for (int d = 0; d < 4; ++d)
      v.insert(v.end(), dim(d).begin(), dim(d).end());
    return v;
  }
};

const DimName kHwDims[4] = {DimName::reg(), DimName::lane(), DimName::warp(), DimName::block()};

Hw hwOf(const LinearLayout &l) {
  return {columnsOf(l, kHwDims[0]), columnsOf(l, kHwDims[1]), columnsOf(l, kHwDims[2]),
          columnsOf(l, kHwDims[3])};
}

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

struct Problem {
  LinearLayout src, dst;
  Hw s, d;
  int e = 32;
  PlanOptions opt;
  const TargetCosts *tc = nullptr;
  int warps() const { return 1 << d.bits(2); }
};

// ------------------------------------------------------------------------------------------------
// Step 1: where each dst element is read from (sourceOf) and the level the conversion needs.
// ------------------------------------------------------------------------------------------------

struct Movement {
  int level = kThread;
  std::vector<uint64_t> sourceOf; // per dst hardware bit: packed src hardware input word
};

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

// The pipes of an SM work in parallel (several CTAs and warps overlap), so the estimate is the
// busiest pipe's time plus the barriers, which stall the CTA. A warp sync stalls only its warp,
// which the others cover: it costs its issue slot.
double cyclesOf(const Problem &p, const ConversionCost &c, int storingWarps, bool cluster) {
  const TargetCosts &tc = *p.tc;
  double w = c.warps;
  double alu = double(c.selects + c.prmts + c.indexOps);
  double storeWarps = double(storingWarps);
  double loadFactor = cluster ? 128.0 / tc.remoteSharedBytesPerClock
                              : 128.0 / tc.sharedBytesPerClock;
  double shared = storeWarps * double(c.storeWavefronts) * 128.0 / tc.sharedBytesPerClock +
                  w * double(c.loadWavefronts) * loadFactor;
  double shuffle = w * c.shuffles / tc.shufflesPerClock;
  double aluCycles = w * alu / tc.aluPerClock;
  double issue = w * c.issuedInstructions() / tc.issuePerClock;
  double barrier = cluster ? tc.clusterBarrierCycles : tc.barrierCycles;
  return std::max({shared, shuffle, aluCycles, issue}) + c.barriers * barrier;
}

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
// Warp shuffles
// ------------------------------------------------------------------------------------------------

// When no Γ of the structured family works: a depth-first search over every Γ, one lane bit at a
// time, cheapest-looking first. In coordinates (dst word | dst lane << nd), the rounds' subspace is
// S = span{(Γ(k), e_k)}, and F (columns cwW, then cwL) sends a vector to the (src word | src lane
// << ws) it reads. Γ works iff no vector of S reads another word of its own lane: S ∩ Z ⊆ K, with
// Z = {x : F(x) has no lane part} and K = ker F. A prefix that breaks this cannot be extended (the
// condition only grows with S), so the search cuts it. Adding v keeps it iff v ∉ S + Z or
// v ∈ S + K. Where the conversion is a bijection at word level, a Γ always exists: D (the dst
// words) and Z have the same dimension, and two such subspaces always share a complement, which
// is a graph over the lanes that avoids Z.
//
// Each lane bit tries the words already spanned first (a low rank of Γ means fewer selects), then
// the structured candidates, then every word. `consider` is called with each complete Γ; the
// search stops after kMaxSolutions of them or kMaxSteps tests.
template <typename Consider>
void searchEveryGamma(const std::vector<uint64_t> &cwW, const std::vector<uint64_t> &cwL, int ws,
                      int L, int nd, const std::vector<std::vector<uint64_t>> &cands,
                      std::vector<uint64_t> &gamma, Consider &&consider) {
  constexpr int kMaxSolutions = 64;
  constexpr long kMaxSteps = long(1) << 18;
  std::vector<uint64_t> cols = cwW;
  cols.insert(cols.end(), cwL.begin(), cwL.end());
  F2Basis sz, sk; // S + Z and S + K
  for (uint64_t z : f2KernelOfColumns(cols, lowMask(L) << ws))
    sz.insert(z, 0);
  for (uint64_t z : f2KernelOfColumns(cols, ~uint64_t(0)))
    sk.insert(z, 0);
  int solutions = 0;
  long steps = 0;
  auto dfs = [&](auto &&self, int k, const F2Basis &sz, const F2Basis &sk) -> void {
    if (k == L) {
      consider();
      ++solutions;
      return;
    }
    F2Basis spanned; // the words Γ already uses
    for (int j = 0; j < k; ++j)
      spanned.insert(gamma[j], 0);
    auto tryWord = [&](uint64_t g) {
      if (solutions >= kMaxSolutions || ++steps > kMaxSteps)
        return false;
      uint64_t v = g | (uint64_t(1) << (nd + k));
      if (sz.contains(v) && !sk.contains(v))
        return true;
      F2Basis sz2 = sz, sk2 = sk;
      sz2.insert(v, 0);
      sk2.insert(v, 0);
      gamma[k] = g;
      self(self, k + 1, sz2, sk2);
      return true;
    };
    // The span, enumerated through its echelon vectors.
    std::vector<uint64_t> basis;
    for (uint64_t piv = spanned.pivots(); piv; piv &= piv - 1)
      basis.push_back(spanned.vectorAt(__builtin_ctzll(piv)));
    for (uint64_t c = 0; c < (uint64_t(1) << basis.size()); ++c)
      if (!tryWord(f2Apply(basis, c)))
        return;
    for (uint64_t g : cands[k])
      if (!spanned.contains(g) && !tryWord(g))
        return;
    for (uint64_t g = 1; g < (uint64_t(1) << nd); ++g)
      if (!spanned.contains(g) &&
          std::find(cands[k].begin(), cands[k].end(), g) == cands[k].end() && !tryWord(g))
        return;
  };
  dfs(dfs, 0, sz, sk);
}

bool planShuffles(const Problem &p, const Movement &mv, ConversionPlan &plan) {
  const int rs = p.s.bits(0), rd = p.d.bits(0), L = p.d.bits(1), W = p.d.bits(2),
            B = p.d.bits(3);
  auto R = [&](uint64_t c) { return c & lowMask(rs); };
  auto Ln = [&](uint64_t c) { return (c >> rs) & lowMask(L); };
  const std::vector<uint64_t> &C = mv.sourceOf;
  std::vector<uint64_t> cReg(C.begin(), C.begin() + rd);
  std::vector<uint64_t> cRegR, cRegL;
  for (uint64_t c : cReg) {
    cRegR.push_back(R(c));
    cRegL.push_back(Ln(c));
  }
  const int halves = p.e == 64 ? 2 : 1;
  const int kmax = p.e < 32 ? log2i(uint64_t(32 / p.e)) : 0;

  // Packing: dst register vectors that stay in the source lane and move to independent source
  // registers share a 32-bit word. Single dst register bits come first, those stepping the last
  // tensor dimension by the least first: the pairs along the dimension that global accesses
  // vectorise (so values usually arrive packed that way), and the same tensor pairs whichever
  // way the conversion runs, so that src -> dst -> src packs and unpacks the same words and
  // ptxas keeps them in one register (no byte permutes) instead of re-pairing them each time.
  std::vector<uint64_t> q, pi;
  {
    std::vector<uint64_t> candidates;
    std::vector<std::pair<std::pair<int, uint64_t>, int>> single;
    for (int i = 0; i < rd; ++i) {
      if (cRegL[i] != 0)
        continue;
      // Rank by (last out dim the step touches, descending; its size along it, ascending).
      uint64_t t = p.d.reg[i];
      int dim = -1;
      for (int o = p.dst.numOutDims() - 1; o >= 0 && dim < 0; --o)
        if (p.dst.outValue(t, o))
          dim = o;
      uint64_t along = dim < 0 ? ~uint64_t(0) : p.dst.outValue(t, dim);
      single.push_back({{-dim, along}, i});
    }
    std::sort(single.begin(), single.end());
    // Before those: the lowest register bits, where each is the same bit on both sides. Such a
    // word is a run of consecutive registers in both layouts, the unit in which the lowering
    // keeps 16-bit values packed (PackedHalves.h: across loops' back edges, and out of a
    // shuffle's unpack), so it is packed and unpacked without an instruction.
    for (int j = 0; j < kmax && j < rd && j < rs; ++j)
      if (cRegL[j] == 0 && cRegR[j] == (uint64_t(1) << j))
        candidates.push_back(uint64_t(1) << j);
    for (const auto &c : single)
      candidates.push_back(uint64_t(1) << c.second);
    for (uint64_t k : f2KernelOfColumns(cRegL, ~uint64_t(0)))
      candidates.push_back(k);
    F2Basis have;
    for (uint64_t k : candidates) {
      if (int(q.size()) >= kmax)
        break;
      uint64_t img = f2Apply(cRegR, k);
      if (img && have.insert(img, 0)) {
        q.push_back(k);
        pi.push_back(img);
      }
    }
  }
  const int kk = int(q.size());
  std::vector<uint64_t> sigma = f2UnitComplement(pi, rs);
  const int ws = rs - kk;
  F2Basis srcCoords; // src register -> (slot | word << kk)
  for (int i = 0; i < kk; ++i)
    srcCoords.insert(pi[i], uint64_t(1) << i);
  for (int j = 0; j < ws; ++j)
    srcCoords.insert(sigma[j], uint64_t(1) << (kk + j));
  auto coords = [&](uint64_t r) {
    uint64_t c = 0;
    [[maybe_unused]] uint64_t res = srcCoords.reduce(r, &c);
    assert(res == 0);
    return c;
  };
  auto slotOf = [&](uint64_t r) { return coords(r) & lowMask(kk); };
  auto wordOf = [&](uint64_t r) { return coords(r) >> kk; };
  // Word-level map of a dst hardware vector's source: (src word | src lane << ws).
  auto wordLevel = [&](uint64_t c) { return wordOf(R(c)) | (Ln(c) << ws); };

  std::vector<uint64_t> theta = f2UnitComplement(q, rd);
  std::vector<uint64_t> cwTheta;
  for (uint64_t t : theta)
    cwTheta.push_back(wordLevel(f2Apply(cReg, t)));
  // Dst words: theta modulo the combinations whose word-level source is zero (duplicates).
  std::vector<uint64_t> thetaPrime, dupl;
  {
    std::vector<uint64_t> ker = f2KernelOfColumns(cwTheta, ~uint64_t(0));
    F2Basis b;
    for (uint64_t k : ker) {
      b.insert(k, 0);
      dupl.push_back(f2Apply(theta, k));
    }
    for (size_t j = 0; j < theta.size(); ++j)
      if (b.insert(uint64_t(1) << j, 0))
        thetaPrime.push_back(theta[j]);
  }
  const int nd = int(thetaPrime.size());
  if (nd > 16)
    return false; // too many registers for an explicit round list
  // Per dst register bit: the dst word it steps, from the decomposition over (q, θ', dupl).
  std::vector<uint64_t> regWords;
  {
    F2Basis dec;
    for (int i = 0; i < kk; ++i)
      dec.insert(q[i], 0);
    for (int j = 0; j < nd; ++j)
      dec.insert(thetaPrime[j], uint64_t(1) << j);
    for (uint64_t z : dupl)
      dec.insert(z, 0);
    for (int k = 0; k < rd; ++k) {
      uint64_t word = 0;
      [[maybe_unused]] uint64_t r = dec.reduce(uint64_t(1) << k, &word);
      assert(r == 0);
      regWords.push_back(word);
    }
  }
  const int regWordsRank = f2Rank(regWords);
  std::vector<uint64_t> cwW; // per dst word bit: (word | lane << ws)
  for (uint64_t t : thetaPrime)
    cwW.push_back(wordLevel(f2Apply(cReg, t)));
  std::vector<uint64_t> WW, LW;
  for (uint64_t c : cwW) {
    WW.push_back(c & lowMask(ws));
    LW.push_back(c >> ws);
  }
  std::vector<uint64_t> cwL, cwT;
  for (int k = 0; k < L; ++k)
    cwL.push_back(wordLevel(C[rd + k]));
  for (int t = 0; t < W + B; ++t)
    cwT.push_back(wordLevel(C[rd + L + t]));
  std::vector<uint64_t> Tl, Tw;
  for (uint64_t c : cwT) {
    Tl.push_back(c >> ws);
    Tw.push_back(c & lowMask(ws));
  }

  // Candidate Γ(lane bit k): zero, or the word vector that keeps the sent word thread-free, or
  // the one that makes the lane exchange a butterfly, or both.
  std::vector<std::vector<uint64_t>> cands(L);
  for (int k = 0; k < L; ++k) {
    std::vector<uint64_t> &cs = cands[k];
    cs.push_back(0);
    auto add = [&](std::optional<uint64_t> g) {
      if (g && std::find(cs.begin(), cs.end(), *g) == cs.end())
        cs.push_back(*g);
    };
    add(f2Preimage(WW, cwL[k] & lowMask(ws)));
    add(f2Preimage(LW, (cwL[k] >> ws) ^ (uint64_t(1) << k)));
    add(f2Preimage(cwW, cwL[k] ^ (uint64_t(1) << (k + ws))));
  }

  struct Eval {
    bool ok = false;
    std::vector<uint64_t> M; // per lane bit: word | lane << ws
    std::vector<uint64_t> phiUnits;
    bool bfly = false;
    std::vector<uint64_t> sendLane, sendThread;
    int ks = 0, kd = 0;
    ConversionCost cost;
  };
  auto evaluate = [&](const std::vector<uint64_t> &gamma) {
    Eval ev;
    std::vector<uint64_t> Mw, Ml;
    for (int k = 0; k < L; ++k) {
      uint64_t m = cwL[k] ^ f2Apply(cwW, gamma[k]);
      ev.M.push_back(m);
      Mw.push_back(m & lowMask(ws));
      Ml.push_back(m >> ws);
    }
    for (uint64_t kv : f2KernelOfColumns(Ml, ~uint64_t(0)))
      if (f2Apply(Mw, kv) != 0)
        return ev;
    ev.ok = true;
    ev.bfly = true;
    for (int k = 0; k < L; ++k)
      if (Ml[k] != (uint64_t(1) << k))
        ev.bfly = false;
    for (uint64_t t : Tl)
      if (t)
        ev.bfly = false;
    // φ: a linear section of Ml (lane value -> lane combination hitting it).
    {
      F2Basis b;
      std::vector<uint64_t> pre;
      int n = 0;
      for (int k = 0; k < L; ++k) {
        uint64_t combo = 0;
        if (b.reduce(Ml[k], &combo) != 0) {
          b.insert(Ml[k], uint64_t(1) << n);
          pre.push_back(uint64_t(1) << k);
          ++n;
        }
      }
      // Re-express: tags index `pre`; the combination of lanes reaching a vector is the XOR of
      // the pre entries of its tags. Complete with units (tagged above n, mapped to nothing).
      for (int k = 0; k < L; ++k)
        b.insert(uint64_t(1) << k, uint64_t(1) << (n + k));
      for (int k = 0; k < L; ++k) {
        uint64_t combo = 0;
        b.reduce(uint64_t(1) << k, &combo);
        uint64_t lanes = 0;
        for (int t = 0; t < n; ++t)
          if (combo >> t & 1)
            lanes ^= pre[t];
        ev.phiUnits.push_back(lanes);
      }
    }
    auto phi = [&](uint64_t y) { return f2Apply(ev.phiUnits, y); };
    for (int k = 0; k < L; ++k)
      ev.sendLane.push_back(f2Apply(Mw, phi(uint64_t(1) << k)));
    for (size_t t = 0; t < Tl.size(); ++t)
      ev.sendThread.push_back(f2Apply(Mw, phi(Tl[t])) ^ Tw[t]);
    std::vector<uint64_t> sendAll = ev.sendLane;
    sendAll.insert(sendAll.end(), ev.sendThread.begin(), ev.sendThread.end());
    ev.ks = f2Rank(sendAll);
    ev.kd = f2Rank(gamma);
    int rounds = 1 << nd;
    int laneRank = f2Rank(LW);
    int moving = ev.bfly ? rounds - (rounds >> laneRank) : rounds;
    ConversionCost &c = ev.cost;
    c.warps = p.warps();
    c.shuffles = halves * moving;
    // Sent and received words are permuted by the thread's part of their index, one layer of
    // selects per basis vector of that part, building only what the rounds send and what the
    // registers unpack (the lowering's network, ConversionEmitter.cpp); a 64-bit word is
    // selected whole. Layer j builds live + span(vectors after j): ranked here by the bound
    // where those vectors are independent of the live words; the chosen Γ gets the exact count.
    auto layers = [](int rank, int liveRank, int bits) {
      int n = 0;
      for (int j = 0; j < rank; ++j)
        n += 1 << std::min(bits, liveRank + rank - 1 - j);
      return n;
    };
    F2Basis sent; // the words the rounds send
    for (int j = 0; j < nd; ++j)
      sent.insert(f2Apply(Mw, phi(LW[j])) ^ WW[j], 0);
    c.selects = layers(ev.ks, sent.rank(), ws) + layers(ev.kd, regWordsRank, nd);
    // Idx rounds XOR a per-round constant into the thread's source lane (when it is non-zero).
    c.indexOps = 0;
    if (!ev.bfly)
      for (uint64_t r = 0; r < uint64_t(rounds); ++r)
        c.indexOps += f2Apply(LW, r) != 0 ? halves : 0;
    // Bytes are packed by prmt; unpacking is counted once Γ is chosen (it does not depend on Γ).
    if (p.e == 8)
      c.prmts = (1 << ws) * ((1 << kk) - 1);
    c.cycles = cyclesOf(p, c, c.warps, false);
    return ev;
  };

  std::optional<Eval> best;
  std::vector<uint64_t> bestGamma, gamma(L, 0);
  auto consider = [&]() {
    Eval ev = evaluate(gamma);
    if (ev.ok && (!best || ev.cost.cycles < best->cost.cycles - 1e-9)) {
      best = std::move(ev);
      bestGamma = gamma;
    }
  };
  std::vector<size_t> idx(L, 0);
  for (;;) {
    for (int k = 0; k < L; ++k)
      gamma[k] = cands[k][idx[k]];
    consider();
    int k = 0;
    while (k < L && ++idx[k] == cands[k].size())
      idx[k++] = 0;
    if (k == L)
      break;
  }
  if (!best)
    searchEveryGamma(cwW, cwL, ws, L, nd, cands, gamma, consider);
  if (!best)
    return false;

  // Build the step.
  ShuffleStep &st = plan.shuffle;
  st.slotsPerWord = 1 << kk;
  st.halves = halves;
  const DimName kSlot = DimName::get("slot"), kWord = DimName::get("word");
  {
    std::vector<InDimColumns> ins{{kSlot, pi}, {kWord, sigma}};
    std::vector<DimSize> outs{{DimName::reg(), uint64_t(1) << rs}};
    auto l = layoutFromColumns(ins, outs);
    if (!l.ok())
      return false;
    st.pack = *l;
  }
  {
    // dst register -> (slot | word << kk): its word from regWords, its slot from where the
    // source element sits in its word.
    std::vector<InDimColumns> ins;
    int bit = 0;
    for (int dim = 0; dim < 4; ++dim) {
      InDimColumns c{kHwDims[dim], {}};
      for (int k = 0; k < p.d.bits(dim); ++k, ++bit) {
        uint64_t word = dim == 0 ? regWords[k] : 0;
        c.columns.push_back(slotOf(R(C[bit])) | (word << kk));
      }
      ins.push_back(std::move(c));
    }
    std::vector<DimSize> outs{{kSlot, uint64_t(1) << kk}, {kWord, uint64_t(1) << nd}};
    auto l = layoutFromColumns(ins, outs);
    if (!l.ok())
      return false;
    st.unpack = *l;
  }
  auto threadMap = [&](std::vector<uint64_t> laneCols, std::vector<uint64_t> threadCols,
                       DimName out, int outBits) -> std::optional<LinearLayout> {
    std::vector<InDimColumns> ins{{kHwDims[1], laneCols}, {kHwDims[2], {}}, {kHwDims[3], {}}};
    for (int t = 0; t < W; ++t)
      ins[1].columns.push_back(threadCols[t]);
    for (int t = 0; t < B; ++t)
      ins[2].columns.push_back(threadCols[W + t]);
    std::vector<DimSize> outs{{out, uint64_t(1) << outBits}};
    auto l = layoutFromColumns(ins, outs);
    if (!l.ok())
      return std::nullopt;
    return *l;
  };
  std::vector<uint64_t> mlCols, zeros(W + B, 0);
  for (uint64_t m : best->M)
    mlCols.push_back(m >> ws);
  auto a = threadMap(mlCols, Tl, kHwDims[1], L);
  auto b = threadMap(best->sendLane, best->sendThread, kWord, ws);
  auto c = threadMap(bestGamma, zeros, kWord, nd);
  if (!a || !b || !c)
    return false;
  st.srcLaneOfThread = *a;
  st.sendWordOfThread = *b;
  st.recvWordOfThread = *c;
  std::vector<uint64_t> Mw;
  for (uint64_t m : best->M)
    Mw.push_back(m & lowMask(ws));
  for (uint64_t r = 0; r < (uint64_t(1) << nd); ++r) {
    ShuffleRound round;
    round.laneConst = uint32_t(f2Apply(LW, r));
    round.sendWordConst =
        uint32_t(f2Apply(Mw, f2Apply(best->phiUnits, round.laneConst)) ^ f2Apply(WW, r));
    round.recvWordConst = uint32_t(r);
    round.mode = best->bfly ? (round.laneConst ? ShuffleMode::Bfly : ShuffleMode::Move)
                            : ShuffleMode::Idx;
    st.rounds.push_back(round);
  }
  plan.path = ConversionPath::WarpShuffle;
  // The chosen plan's exact counts, read off the step as the lowering reads it
  // (ConversionEmitter.cpp): each word permutation builds only the words the rounds send or the
  // registers unpack; bytes leave their word by one prmt per distinct (slot, word) a register
  // takes, and so do 16-bit halves where the slot depends on the thread (the prmt's selector is
  // then the register's slot XOR the thread's).
  ConversionCost &cost = plan.cost;
  cost = best->cost;
  std::vector<uint64_t> sent; // the rounds' send constants are linear in the round
  for (int j = 0; j < nd; ++j)
    sent.push_back(st.rounds[size_t(1) << j].sendWordConst);
  cost.selects =
      int(f2XorNetworkSelects(f2ReducedBasis(allColumns(st.sendWordOfThread)).vectors, sent) +
          f2XorNetworkSelects(f2ReducedBasis(allColumns(st.recvWordOfThread)).vectors, regWords));
  std::vector<uint64_t> unpackCols = allColumns(st.unpack);
  std::vector<uint64_t> taken; // (slot | word << kk) of each dst register
  for (uint64_t r = 0; r < (uint64_t(1) << rd); ++r)
    taken.push_back(f2Apply(unpackCols, r));
  std::sort(taken.begin(), taken.end());
  int distinct = int(std::unique(taken.begin(), taken.end()) - taken.begin());
  bool threadSlots = f2Rank(std::span(unpackCols).subspan(rd)) != 0;
  if (p.e == 8)
    cost.prmts = (1 << ws) * ((1 << kk) - 1) + distinct;
  else if (p.e == 16 && threadSlots)
    cost.prmts = distinct;
  cost.cycles = cyclesOf(p, cost, cost.warps, false);
  return true;
}

// ------------------------------------------------------------------------------------------------
// Shared memory (CTA scope) and distributed shared memory (cluster scope)
// ------------------------------------------------------------------------------------------------

Status planShared(const Problem &p, const Movement &mv, ConversionPlan &plan,
                                    bool cluster) {
  const Hw &s = p.s, &d = p.d;
  const int rs = s.bits(0), L = s.bits(1), W = s.bits(2);
  const int srcThreadBits = rs + L + W; // src bits below block
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
        (dim == 0 ? load.regs : dim == 1 ? load.lanes : dim == 2 ? load.warps : load.extra)
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
  const ScratchBasis &basis = choice->basis;
  const SharedSidePattern &sp = choice->store, &lp = choice->load;
  const int m = int(basis.offsets.size());

  SharedStep &st = plan.shared;
  st.rounds = 1 << basis.rounds.size();
  st.scratchBytes = (int64_t(1) << m) * p.e / 8;
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
  auto addressMap = [&](const SharedSidePattern &pat, std::span<const uint64_t> blockCols)
      -> Expected<LinearLayout> {
    std::vector<InDimColumns> ins{{kHwDims[1], {}}, {kHwDims[2], {}}, {kHwDims[3], {}}};
    const std::vector<uint64_t> &lanes =
        isMatrixOp(pat.op) ? pat.addressLaneMap : pat.laneMap;
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
    std::stable_sort(out.begin(), out.end(),
                     [](const SharedAccess &x, const SharedAccess &y) { return x.round < y.round; });
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
  ConversionCost &c = plan.cost;
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
  plan.path = cluster ? ConversionPath::DistributedSharedMemory : ConversionPath::SharedMemory;
  st.withinWarps = exchangeStaysInWarps(plan);
  (st.withinWarps ? c.warpSyncs : c.barriers) = 2 * st.rounds;
  c.storeWavefronts = int64_t(nStore) * sp.wavefronts;
  c.loadWavefronts = int64_t(nLoad) * lp.wavefronts;
  c.conflictWavefronts = int64_t(nStore) * (sp.wavefronts - sp.minWavefronts) +
                         int64_t(nLoad) * (lp.wavefronts - lp.minWavefronts);
  c.scratchBytes = st.scratchBytes;
  c.indexOps = 0;
  assert(st.storingWarps() == c.warps >> predBits);
  c.cycles = cyclesOf(p, c, st.storingWarps(), cluster);
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

Expected<ConversionPlan> planConversion(const LinearLayout &srcIn, const LinearLayout &dstIn,
                                        int elementBits, const PlanOptions &options) {
  if (elementBits != 8 && elementBits != 16 && elementBits != 32 && elementBits != 64)
    return makeError("element bitwidth " + std::to_string(elementBits) +
                     " is not one of 8, 16, 32, 64");
  if (srcIn.numOutDims() != dstIn.numOutDims())
    return makeError("src has " + std::to_string(srcIn.numOutDims()) +
                     " out dimensions and dst " + std::to_string(dstIn.numOutDims()));
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
      out.alternatives.push_back({plans[i].path, plans[i].cost,
                                  notes[i] + ": " + describe(plans[i].cost)});
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
