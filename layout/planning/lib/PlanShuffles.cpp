// The warp-shuffle strategy of the conversion planner. Each thread packs the source values it
// sends into 32-bit words; a list of rounds then moves one word per lane per round (shfl.sync),
// and each thread unpacks the words it received into its destination registers.
//
// The plan is found in named steps: which source registers share a word (packSourceWords), which
// destination registers form the received words (splitDestinationWords), where each destination
// word, lane and thread bit reads from at word level (wordLevelSources), which word each lane bit
// of a round receives (Γ: gammaCandidates, evaluateGamma, with searchEveryGamma as a fallback),
// and the step the lowering reads (buildShuffleStep).
#include "PlanProblem.h"

#include "linlayout/layout/F2Basis.h"
#include "linlayout/layout/F2Subspace.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <span>

namespace linlayout::planning {
namespace {

// The sizes of the conversion and the source of each destination bit, as the steps read them.
struct ShuffleInputs {
  int srcRegBits, dstRegBits, laneBits, warpBits, blockBits;
  const std::vector<uint64_t> &sourceOf; // per dst hardware bit: packed src hardware input
  std::vector<uint64_t> regSource;       // sourceOf of the dst register bits
  std::vector<uint64_t> regSourceReg;    // ... their src register part
  std::vector<uint64_t> regSourceLane;   // ... their src lane part
  int halves;                            // 2 for 64-bit elements (two 32-bit shuffles)
  int maxSlotBits;                       // log2 of the elements a 32-bit word holds

  uint64_t srcReg(uint64_t src) const { return src & lowMask(srcRegBits); }
  uint64_t srcLane(uint64_t src) const { return (src >> srcRegBits) & lowMask(laneBits); }
};

ShuffleInputs shuffleInputs(const Problem &p, const Movement &mv) {
  ShuffleInputs in{p.s.bits(0),
                   p.d.bits(0),
                   p.d.bits(1),
                   p.d.bits(2),
                   p.d.bits(3),
                   mv.sourceOf,
                   {},
                   {},
                   {},
                   p.e == 64 ? 2 : 1,
                   p.e < 32 ? log2i(uint64_t(32 / p.e)) : 0};
  in.regSource.assign(mv.sourceOf.begin(), mv.sourceOf.begin() + in.dstRegBits);
  for (uint64_t c : in.regSource) {
    in.regSourceReg.push_back(in.srcReg(c));
    in.regSourceLane.push_back(in.srcLane(c));
  }
  return in;
}

// Source registers as (slot | word << slotBits): the slots of a word are the sub-32-bit elements
// packed into it.
struct SourceWords {
  std::vector<uint64_t> packedDstRegs; // q: dst register vectors whose sources share a word
  std::vector<uint64_t> slotRegs;      // π: the src register vector of each slot bit
  std::vector<uint64_t> wordRegs;      // σ: the src register vector of each word bit
  int slotBits = 0;
  int wordBits = 0;
  F2Basis coords; // src register -> (slot | word << slotBits)

  uint64_t coordsOf(uint64_t srcReg) const {
    uint64_t c = 0;
    [[maybe_unused]] uint64_t res = coords.reduce(srcReg, &c);
    assert(res == 0);
    return c;
  }
  uint64_t slotOf(uint64_t srcReg) const { return coordsOf(srcReg) & lowMask(slotBits); }
  uint64_t wordOf(uint64_t srcReg) const { return coordsOf(srcReg) >> slotBits; }
};

// Packing: dst register vectors that stay in the source lane and move to independent source
// registers share a 32-bit word. Single dst register bits come first, those stepping the last
// tensor dimension by the least first: the pairs along the dimension that global accesses
// vectorise (so values usually arrive packed that way), and the same tensor pairs whichever
// way the conversion runs, so that src -> dst -> src packs and unpacks the same words and
// ptxas keeps them in one register (no byte permutes) instead of re-pairing them each time.
SourceWords packSourceWords(const Problem &p, const ShuffleInputs &in) {
  SourceWords w;
  std::vector<uint64_t> candidates;
  std::vector<std::pair<std::pair<int, uint64_t>, int>> single;
  for (int i = 0; i < in.dstRegBits; ++i) {
    if (in.regSourceLane[i] != 0)
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
  for (int j = 0; j < in.maxSlotBits && j < in.dstRegBits && j < in.srcRegBits; ++j)
    if (in.regSourceLane[j] == 0 && in.regSourceReg[j] == (uint64_t(1) << j))
      candidates.push_back(uint64_t(1) << j);
  for (const auto &c : single)
    candidates.push_back(uint64_t(1) << c.second);
  for (uint64_t k : f2KernelOfColumns(in.regSourceLane, ~uint64_t(0)))
    candidates.push_back(k);
  F2Basis have;
  for (uint64_t k : candidates) {
    if (int(w.packedDstRegs.size()) >= in.maxSlotBits)
      break;
    uint64_t img = f2Apply(in.regSourceReg, k);
    if (img && have.insert(img, 0)) {
      w.packedDstRegs.push_back(k);
      w.slotRegs.push_back(img);
    }
  }
  w.slotBits = int(w.packedDstRegs.size());
  w.wordRegs = f2UnitComplement(w.slotRegs, in.srcRegBits);
  w.wordBits = in.srcRegBits - w.slotBits;
  for (int i = 0; i < w.slotBits; ++i)
    w.coords.insert(w.slotRegs[i], uint64_t(1) << i);
  for (int j = 0; j < w.wordBits; ++j)
    w.coords.insert(w.wordRegs[j], uint64_t(1) << (w.slotBits + j));
  return w;
}

// Word-level source of a dst hardware vector: (src word | src lane << src word bits).
uint64_t wordLevel(const ShuffleInputs &in, const SourceWords &w, uint64_t src) {
  return w.wordOf(in.srcReg(src)) | (in.srcLane(src) << w.wordBits);
}

// The words a thread receives: the dst registers outside the packed slots (θ), less the
// combinations whose word-level source is zero (duplicates of another register).
struct DestinationWords {
  std::vector<uint64_t> wordRegs;     // θ': the dst register vector of each received word bit
  std::vector<uint64_t> wordOfDstReg; // per dst register bit: the received word it steps
  int wordBits = 0;
  int wordOfDstRegRank = 0;
};

DestinationWords splitDestinationWords(const ShuffleInputs &in, const SourceWords &w) {
  DestinationWords d;
  std::vector<uint64_t> theta = f2UnitComplement(w.packedDstRegs, in.dstRegBits);
  std::vector<uint64_t> thetaSources;
  for (uint64_t t : theta)
    thetaSources.push_back(wordLevel(in, w, f2Apply(in.regSource, t)));
  std::vector<uint64_t> duplicates;
  {
    std::vector<uint64_t> ker = f2KernelOfColumns(thetaSources, ~uint64_t(0));
    F2Basis b;
    for (uint64_t k : ker) {
      b.insert(k, 0);
      duplicates.push_back(f2Apply(theta, k));
    }
    for (size_t j = 0; j < theta.size(); ++j)
      if (b.insert(uint64_t(1) << j, 0))
        d.wordRegs.push_back(theta[j]);
  }
  d.wordBits = int(d.wordRegs.size());
  // Per dst register bit: the dst word it steps, from the decomposition over (q, θ', duplicates).
  F2Basis dec;
  for (int i = 0; i < w.slotBits; ++i)
    dec.insert(w.packedDstRegs[i], 0);
  for (int j = 0; j < d.wordBits; ++j)
    dec.insert(d.wordRegs[j], uint64_t(1) << j);
  for (uint64_t z : duplicates)
    dec.insert(z, 0);
  for (int k = 0; k < in.dstRegBits; ++k) {
    uint64_t word = 0;
    [[maybe_unused]] uint64_t r = dec.reduce(uint64_t(1) << k, &word);
    assert(r == 0);
    d.wordOfDstReg.push_back(word);
  }
  d.wordOfDstRegRank = f2Rank(d.wordOfDstReg);
  return d;
}

// Where each received word bit, lane bit and warp/block bit reads from, at word level, each
// also split into its src word part and its src lane part.
struct WordLevelSources {
  std::vector<uint64_t> word, wordWord, wordLane;       // per received word bit
  std::vector<uint64_t> lane;                           // per lane bit
  std::vector<uint64_t> thread, threadWord, threadLane; // per warp, then block bit
};

WordLevelSources wordLevelSources(const ShuffleInputs &in, const SourceWords &w,
                                  const DestinationWords &d) {
  WordLevelSources s;
  const int ws = w.wordBits;
  for (uint64_t t : d.wordRegs)
    s.word.push_back(wordLevel(in, w, f2Apply(in.regSource, t)));
  for (uint64_t c : s.word) {
    s.wordWord.push_back(c & lowMask(ws));
    s.wordLane.push_back(c >> ws);
  }
  for (int k = 0; k < in.laneBits; ++k)
    s.lane.push_back(wordLevel(in, w, in.sourceOf[in.dstRegBits + k]));
  for (int t = 0; t < in.warpBits + in.blockBits; ++t)
    s.thread.push_back(wordLevel(in, w, in.sourceOf[in.dstRegBits + in.laneBits + t]));
  for (uint64_t c : s.thread) {
    s.threadLane.push_back(c >> ws);
    s.threadWord.push_back(c & lowMask(ws));
  }
  return s;
}

// Candidate Γ(lane bit k): zero, or the word vector that keeps the sent word thread-free, or
// the one that makes the lane exchange a butterfly, or both.
std::vector<std::vector<uint64_t>> gammaCandidates(const ShuffleInputs &in, int ws,
                                                   const WordLevelSources &s) {
  std::vector<std::vector<uint64_t>> cands(size_t(in.laneBits));
  for (int k = 0; k < in.laneBits; ++k) {
    std::vector<uint64_t> &cs = cands[k];
    cs.push_back(0);
    auto add = [&](std::optional<uint64_t> g) {
      if (g && std::find(cs.begin(), cs.end(), *g) == cs.end())
        cs.push_back(*g);
    };
    add(f2Preimage(s.wordWord, s.lane[k] & lowMask(ws)));
    add(f2Preimage(s.wordLane, (s.lane[k] >> ws) ^ (uint64_t(1) << k)));
    add(f2Preimage(s.word, s.lane[k] ^ (uint64_t(1) << (k + ws))));
  }
  return cands;
}

// One Γ judged: whether it works, the lane moves it implies and its estimated cost.
struct GammaEval {
  bool ok = false;
  std::vector<uint64_t> laneMove;   // per lane bit: (src word | src lane << ws) it reads
  std::vector<uint64_t> laneOfMove; // φ on unit vectors: a lane combination reaching each lane
  bool butterfly = false;
  std::vector<uint64_t> sendLane, sendThread; // the word sent, per lane bit and thread bit
  int sendRank = 0, recvRank = 0;
  ConversionCost cost;
};

// φ: a linear section of `moveLane` (lane value -> a lane combination hitting it), on units.
std::vector<uint64_t> laneSection(const std::vector<uint64_t> &moveLane, int laneBits) {
  F2Basis b;
  std::vector<uint64_t> pre;
  int n = 0;
  for (int k = 0; k < laneBits; ++k) {
    uint64_t combo = 0;
    if (b.reduce(moveLane[k], &combo) != 0) {
      b.insert(moveLane[k], uint64_t(1) << n);
      pre.push_back(uint64_t(1) << k);
      ++n;
    }
  }
  // Re-express: tags index `pre`; the combination of lanes reaching a vector is the XOR of
  // the pre entries of its tags. Complete with units (tagged above n, mapped to nothing).
  for (int k = 0; k < laneBits; ++k)
    b.insert(uint64_t(1) << k, uint64_t(1) << (n + k));
  std::vector<uint64_t> units;
  for (int k = 0; k < laneBits; ++k) {
    uint64_t combo = 0;
    b.reduce(uint64_t(1) << k, &combo);
    uint64_t lanes = 0;
    for (int t = 0; t < n; ++t)
      if (combo >> t & 1)
        lanes ^= pre[t];
    units.push_back(lanes);
  }
  return units;
}

// Sent and received words are permuted by the thread's part of their index, one layer of
// selects per basis vector of that part, building only what the rounds send and what the
// registers unpack (the lowering's network, ConversionEmitter.cpp); a 64-bit word is selected
// whole. Layer j builds live + span(vectors after j): ranked here by the bound where those
// vectors are independent of the live words; the chosen Γ gets the exact count.
int selectLayers(int rank, int liveRank, int bits) {
  int n = 0;
  for (int j = 0; j < rank; ++j)
    n += 1 << std::min(bits, liveRank + rank - 1 - j);
  return n;
}

GammaEval evaluateGamma(const Problem &p, const ShuffleInputs &in, const SourceWords &w,
                        const DestinationWords &d, const WordLevelSources &s,
                        const std::vector<uint64_t> &gamma) {
  GammaEval ev;
  const int ws = w.wordBits, laneBits = in.laneBits;
  std::vector<uint64_t> moveWord, moveLane;
  for (int k = 0; k < laneBits; ++k) {
    uint64_t m = s.lane[k] ^ f2Apply(s.word, gamma[k]);
    ev.laneMove.push_back(m);
    moveWord.push_back(m & lowMask(ws));
    moveLane.push_back(m >> ws);
  }
  // Γ fails when some lane combination that reads no other lane reads another word.
  for (uint64_t kv : f2KernelOfColumns(moveLane, ~uint64_t(0)))
    if (f2Apply(moveWord, kv) != 0)
      return ev;
  ev.ok = true;
  ev.butterfly = true;
  for (int k = 0; k < laneBits; ++k)
    if (moveLane[k] != (uint64_t(1) << k))
      ev.butterfly = false;
  for (uint64_t t : s.threadLane)
    if (t)
      ev.butterfly = false;
  ev.laneOfMove = laneSection(moveLane, laneBits);
  auto phi = [&](uint64_t y) { return f2Apply(ev.laneOfMove, y); };
  for (int k = 0; k < laneBits; ++k)
    ev.sendLane.push_back(f2Apply(moveWord, phi(uint64_t(1) << k)));
  for (size_t t = 0; t < s.threadLane.size(); ++t)
    ev.sendThread.push_back(f2Apply(moveWord, phi(s.threadLane[t])) ^ s.threadWord[t]);
  std::vector<uint64_t> sendAll = ev.sendLane;
  sendAll.insert(sendAll.end(), ev.sendThread.begin(), ev.sendThread.end());
  ev.sendRank = f2Rank(sendAll);
  ev.recvRank = f2Rank(gamma);
  int rounds = 1 << d.wordBits;
  int laneRank = f2Rank(s.wordLane);
  int moving = ev.butterfly ? rounds - (rounds >> laneRank) : rounds;
  ConversionCost &c = ev.cost;
  c.warps = p.warps();
  c.shuffles = in.halves * moving;
  F2Basis sent; // the words the rounds send
  for (int j = 0; j < d.wordBits; ++j)
    sent.insert(f2Apply(moveWord, phi(s.wordLane[j])) ^ s.wordWord[j], 0);
  c.selects = selectLayers(ev.sendRank, sent.rank(), ws) +
              selectLayers(ev.recvRank, d.wordOfDstRegRank, d.wordBits);
  // Idx rounds XOR a per-round constant into the thread's source lane (when it is non-zero).
  c.indexOps = 0;
  if (!ev.butterfly)
    for (uint64_t r = 0; r < uint64_t(rounds); ++r)
      c.indexOps += f2Apply(s.wordLane, r) != 0 ? in.halves : 0;
  // Bytes are packed by prmt; unpacking is counted once Γ is chosen (it does not depend on Γ).
  if (p.e == 8)
    c.prmts = (1 << ws) * ((1 << w.slotBits) - 1);
  c.cycles = cyclesOf(p, c, c.warps, false);
  return ev;
}

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

struct ChosenGamma {
  GammaEval eval;
  std::vector<uint64_t> gamma;
};

// The cheapest working Γ: every combination of the candidates, then (when none works) the
// exhaustive search; nullopt when no Γ works.
std::optional<ChosenGamma> chooseGamma(const Problem &p, const ShuffleInputs &in,
                                       const SourceWords &w, const DestinationWords &d,
                                       const WordLevelSources &s) {
  const int L = in.laneBits;
  std::vector<std::vector<uint64_t>> cands = gammaCandidates(in, w.wordBits, s);
  std::optional<ChosenGamma> best;
  std::vector<uint64_t> gamma(size_t(L), 0);
  auto consider = [&]() {
    GammaEval ev = evaluateGamma(p, in, w, d, s, gamma);
    if (ev.ok && (!best || ev.cost.cycles < best->eval.cost.cycles - 1e-9))
      best = ChosenGamma{std::move(ev), gamma};
  };
  std::vector<size_t> idx(size_t(L), 0);
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
    searchEveryGamma(s.word, s.lane, w.wordBits, L, d.wordBits, cands, gamma, consider);
  return best;
}

// Writes the chosen plan into `plan` (its step and its exact costs); false when a map of the
// step does not fit a layout.
bool buildShuffleStep(const Problem &p, const ShuffleInputs &in, const SourceWords &w,
                      const DestinationWords &d, const WordLevelSources &s, const ChosenGamma &best,
                      ConversionPlan &plan) {
  const int kk = w.slotBits, ws = w.wordBits, nd = d.wordBits;
  const int W = in.warpBits, B = in.blockBits;
  ShuffleStep &st = plan.shuffle;
  st.slotsPerWord = 1 << kk;
  st.halves = in.halves;
  const DimName kSlot = DimName::get("slot"), kWord = DimName::get("word");
  {
    std::vector<InDimColumns> ins{{kSlot, w.slotRegs}, {kWord, w.wordRegs}};
    std::vector<DimSize> outs{{DimName::reg(), uint64_t(1) << in.srcRegBits}};
    auto l = layoutFromColumns(ins, outs);
    if (!l.ok())
      return false;
    st.pack = *l;
  }
  {
    // dst register -> (slot | word << kk): its word from wordOfDstReg, its slot from where the
    // source element sits in its word.
    std::vector<InDimColumns> ins;
    int bit = 0;
    for (int dim = 0; dim < 4; ++dim) {
      InDimColumns c{kHwDims[dim], {}};
      for (int k = 0; k < p.d.bits(dim); ++k, ++bit) {
        uint64_t word = dim == 0 ? d.wordOfDstReg[k] : 0;
        c.columns.push_back(w.slotOf(in.srcReg(in.sourceOf[bit])) | (word << kk));
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
  std::vector<uint64_t> moveLane, moveWord, zeros(W + B, 0);
  for (uint64_t m : best.eval.laneMove) {
    moveLane.push_back(m >> ws);
    moveWord.push_back(m & lowMask(ws));
  }
  auto srcLane = threadMap(moveLane, s.threadLane, kHwDims[1], in.laneBits);
  auto sendWord = threadMap(best.eval.sendLane, best.eval.sendThread, kWord, ws);
  auto recvWord = threadMap(best.gamma, zeros, kWord, nd);
  if (!srcLane || !sendWord || !recvWord)
    return false;
  st.srcLaneOfThread = *srcLane;
  st.sendWordOfThread = *sendWord;
  st.recvWordOfThread = *recvWord;
  for (uint64_t r = 0; r < (uint64_t(1) << nd); ++r) {
    ShuffleRound round;
    round.laneConst = uint32_t(f2Apply(s.wordLane, r));
    round.sendWordConst = uint32_t(
        f2Apply(moveWord, f2Apply(best.eval.laneOfMove, round.laneConst)) ^ f2Apply(s.wordWord, r));
    round.recvWordConst = uint32_t(r);
    round.mode = best.eval.butterfly ? (round.laneConst ? ShuffleMode::Bfly : ShuffleMode::Move)
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
  cost = best.eval.cost;
  std::vector<uint64_t> sent; // the rounds' send constants are linear in the round
  for (int j = 0; j < nd; ++j)
    sent.push_back(st.rounds[size_t(1) << j].sendWordConst);
  cost.selects = int(
      f2XorNetworkSelects(f2ReducedBasis(allColumns(st.sendWordOfThread)).vectors, sent) +
      f2XorNetworkSelects(f2ReducedBasis(allColumns(st.recvWordOfThread)).vectors, d.wordOfDstReg));
  std::vector<uint64_t> unpackCols = allColumns(st.unpack);
  std::vector<uint64_t> taken; // (slot | word << kk) of each dst register
  for (uint64_t r = 0; r < (uint64_t(1) << in.dstRegBits); ++r)
    taken.push_back(f2Apply(unpackCols, r));
  std::sort(taken.begin(), taken.end());
  int distinct = int(std::unique(taken.begin(), taken.end()) - taken.begin());
  bool threadSlots = f2Rank(std::span(unpackCols).subspan(in.dstRegBits)) != 0;
  if (p.e == 8)
    cost.prmts = (1 << ws) * ((1 << kk) - 1) + distinct;
  else if (p.e == 16 && threadSlots)
    cost.prmts = distinct;
  cost.cycles = cyclesOf(p, cost, cost.warps, false);
  return true;
}

} // namespace

bool planShuffles(const Problem &p, const Movement &mv, ConversionPlan &plan) {
  ShuffleInputs in = shuffleInputs(p, mv);
  SourceWords words = packSourceWords(p, in);
  DestinationWords dst = splitDestinationWords(in, words);
  if (dst.wordBits > 16)
    return false; // too many registers for an explicit round list
  WordLevelSources sources = wordLevelSources(in, words, dst);
  std::optional<ChosenGamma> best = chooseGamma(p, in, words, dst, sources);
  if (!best)
    return false;
  return buildShuffleStep(p, in, words, dst, sources, *best, plan);
}

} // namespace linlayout::planning
