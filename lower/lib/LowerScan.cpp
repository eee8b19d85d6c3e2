// tt.scan along one axis, for any layout in which each bit of the scanned coordinate is held by
// one register, lane or warp bit (blocked, slice and mma layouts are). The scan runs over those
// bits from the lowest: at bit j every element knows the combination of its block of 2^j
// elements up to itself (its prefix) and of its whole block (its total); joining a block with
// its partner block (the one that differs in bit j), the later block's elements put the earlier
// block's total in front of their prefixes, and both totals become the pair's. The partner is
// another register of the thread, or the lane across a shfl.sync.bfly. Consecutive bits held by
// registers are joined at once (the blocks in order, each putting the combination of those
// before it in front of its prefixes: a thread's run of adjacent elements is scanned in order);
// so are consecutive bits held by warps, through one shared-memory exchange of the blocks'
// totals (split where a thread would load too many). The earlier block is the lower one, or the
// higher one for a reversed scan; combinations keep that order. When the lowest scanned bits are
// consecutive lane bits, each element is its own block there: an inclusive scan over those lanes
// (shfl.sync.up / down) keeps one value per element instead of a prefix and a total, and the
// blocks' totals stay in their last lanes, which alone store them for a warp exchange that
// follows (the other threads store to spare bytes of their own).
#include "OpLowering.h"
#include "SharedAccess.h"
#include "Shuffle.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>
#include <span>

namespace linlayout::lower {

namespace {

// A bit of the hardware index: which dim, which of its bits.
struct HwBit {
  DimName dim;
  int bit = 0;
};

struct ScanShape {
  std::vector<HwBit> owners; // per bit of the scanned coordinate, lowest first: who holds it
  std::vector<HwBit> held;   // the lane and register bits that move some element, every warp bit
  uint64_t repeatedRegs = 0; // register bits that repeat elements (zero columns)
  int registers = 0;         // registers per thread
  int firstWarpRound = -1;   // the lowest scanned bit a warp bit holds, or -1
  int64_t threads = 1;       // lanes x warps of the layout
};

// The end of the run of consecutive lane bits that hold the lowest scanned bits (0 when a lane
// bit does not hold the lowest): lowerScan scans the elements over those lanes.
size_t laneRunEnd(const ScanShape &s) {
  size_t end = 0;
  while (end < s.owners.size() && s.owners[end].dim == DimName::lane() &&
         s.owners[end].bit == s.owners[0].bit + int(end))
    ++end;
  return end;
}

// Whether the blocks' totals after that lane run stay in their last lanes only, for the warp
// exchange that follows: each other thread stores its values to a slot of its own (the widest
// operand's bytes, by thread index, after the exchange regions: a warp's 32 slots are in 32
// banks), which nothing reads (no two threads write one byte there).
bool totalsInLastLanes(const ScanShape &s) {
  size_t end = laneRunEnd(s);
  return end > 0 && end < s.owners.size() && s.owners[end].dim == DimName::warp();
}

// Where the shared-memory exchange that starts at scanned bit j (held by a warp) ends: the run of
// scanned bits held by warps from j on, cut so that a thread loads at most 32 totals (2^k per
// block whose total it holds). Fewer barriers, but more values live: on the H200 the row scans
// of examples/triton/scans.ttgir (32 blocks per thread, 4 warps along the rows) run 1.2x faster
// bit by bit, its compaction (8 blocks per thread) 1.06x faster in one exchange.
size_t exchangeEnd(const ScanShape &s, size_t j) {
  int blocks = 0; // the blocks' totals a thread holds: 2^(register bits not yet scanned)
  for (const HwBit &h : s.held)
    blocks += h.dim == DimName::reg();
  for (size_t t = 0; t < j; ++t)
    blocks -= s.owners[t].dim == DimName::reg();
  size_t end = j + 1;
  while (end < s.owners.size() && s.owners[end].dim == DimName::warp() &&
         (uint64_t(1) << (blocks + int(end - j) + 1)) <= 32)
    ++end;
  return end;
}

// How many shared-memory exchanges the scan makes.
int exchanges(const ScanShape &s) {
  int n = 0;
  for (size_t j = 0; j < s.owners.size();)
    if (s.owners[j].dim == DimName::warp()) {
      j = exchangeEnd(s, j);
      ++n;
    } else {
      ++j;
    }
  return n;
}

Expected<ScanShape> analyze(const LinearLayout &l, int axis) {
  ScanShape s;
  const int axisOffset = l.outDimOffset(axis), axisBits = l.outDimBits(axis);
  const uint64_t axisMask = (axisBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << axisBits) - 1)
                            << axisOffset;
  std::vector<std::optional<HwBit>> owner(static_cast<size_t>(axisBits));
  for (DimName dim : {DimName::lane(), DimName::reg(), DimName::warp(), DimName::block()}) {
    int d = l.inDimIndex(dim);
    if (d < 0)
      continue;
    if (dim == DimName::reg())
      s.registers = int(l.inDimSize(dim));
    if (dim == DimName::lane() || dim == DimName::warp())
      s.threads *= int64_t(l.inDimSize(dim));
    for (int i = 0; i < l.inDimBits(d); ++i) {
      uint64_t col = l.column(l.inDimOffset(d) + i);
      if (col == 0 && dim == DimName::reg())
        s.repeatedRegs |= uint64_t(1) << i;
      // Warps that hold the same elements still get slots of their own in an exchange: no two
      // warps store to one slot.
      if ((col != 0 && dim != DimName::block()) || dim == DimName::warp())
        s.held.push_back({dim, i});
      uint64_t along = col & axisMask;
      if (!along)
        continue;
      std::string who = std::string(dim.str()) + " bit " + std::to_string(i);
      if (col != along)
        return makeError(who + " steps both along the scanned dim and another one");
      if (along & (along - 1))
        return makeError(who + " steps along several bits of the scanned dim at once");
      if (dim == DimName::block())
        return makeError("scans across CTAs are not supported (" + who +
                         " steps along the scanned dim)");
      int j = std::countr_zero(along) - axisOffset;
      if (owner[size_t(j)])
        return makeError(who + " and " + std::string(owner[size_t(j)]->dim.str()) + " bit " +
                         std::to_string(owner[size_t(j)]->bit) +
                         " both step along the same bit of the scanned dim");
      owner[size_t(j)] = HwBit{dim, i};
    }
  }
  for (int j = 0; j < axisBits; ++j) {
    if (!owner[size_t(j)])
      return makeError("no register, lane or warp bit steps along bit " + std::to_string(j) +
                       " of the scanned dim");
    s.owners.push_back(*owner[size_t(j)]);
    if (owner[size_t(j)]->dim == DimName::warp()) {
      if (s.firstWarpRound < 0)
        s.firstWarpRound = j;
    }
  }
  return s;
}

bool sameBit(const HwBit &x, const HwBit &y) { return x.dim == y.dim && x.bit == y.bit; }

// The bits that tell apart the totals exchanged at scanned bit j: the held bits but the lane and
// register bits of the scanned bits below j (the elements of a block of 2^j share their total, so
// those lanes store the same value to the same slot in one instruction). Warp bits all stay, so
// that no two warps store to one slot. Slot bit k of the exchange is kept[k]: lanes lowest, so
// that a warp's stores and loads are contiguous.
std::vector<HwBit> keptBits(const ScanShape &s, int j) {
  std::vector<HwBit> kept;
  for (const HwBit &h : s.held)
    if (h.dim == DimName::warp() || std::none_of(s.owners.begin(), s.owners.begin() + j,
                                                 [&](const HwBit &o) { return sameBit(o, h); }))
      kept.push_back(h);
  return kept;
}

// The registers whose elements the scan computes: the others repeat one of them.
std::vector<int> representatives(const ScanShape &s) {
  std::vector<int> reps;
  for (int r = 0; r < s.registers; ++r)
    if (!(uint64_t(r) & s.repeatedRegs))
      reps.push_back(r);
  return reps;
}

// One exchange's bytes, rounded up to 16 so that the second region's parts stay aligned: the
// first is the largest (later ones keep fewer bits). `elemBytes`: the operands' element bytes side
// by side.
int64_t regionBytes(const ScanShape &s, int elemBytes) {
  int64_t bytes = (int64_t(1) << keptBits(s, s.firstWarpRound).size()) * elemBytes;
  return (bytes + 15) / 16 * 16;
}

} // namespace

Expected<int64_t> scanScratchBytes(const LinearLayout &l, int axis, int elemBytes,
                                   int widestBytes) {
  LL_ASSIGN_OR_RETURN(ScanShape s, analyze(l, axis));
  const int n = exchanges(s);
  if (n == 0)
    return int64_t(0);
  // Exchanges (one per run of warp bits, lowerScan) alternate between two regions: an exchange's
  // stores follow the barrier of the one before, which every thread reaches after its loads of
  // the one before that. Then, where the first exchange's totals are in the last lanes only, a
  // slot per thread for the others' stores.
  return (n > 1 ? 2 : 1) * regionBytes(s, elemBytes) +
         (totalsInLastLanes(s) ? s.threads * widestBytes : 0);
}

Expected<SharedFootprint> scanFootprint(FootprintContext &ctx, const ir::Op &op) {
  LL_ASSIGN_OR_RETURN(LinearLayout l, ctx.layouts.of(ctx.function.type(op.operands[0])));
  int tupleBytes = 0, widest = 0; // the operands' elements side by side; the widest
  for (ir::ValueId v : op.operands) {
    int bytes = exchangeElementBits(ctx.function.type(v)) / 8;
    tupleBytes += bytes;
    widest = std::max(widest, bytes);
  }
  SharedFootprint fp;
  LL_ASSIGN_OR_RETURN(fp.scratchBytes, scanScratchBytes(l, int(op.attrs.axis), tupleBytes, widest));
  return fp;
}

Status lowerScan(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  const Lowered &in = ctx.get(op.operands[0]);
  auto shapeOr = analyze(in.layout, int(op.attrs.axis));
  if (!shapeOr.ok())
    return makeError(ctx.where(op) + "tt.scan: " + shapeOr.message());
  const ScanShape &s = *shapeOr;
  const bool reverse = op.attrs.reverse;
  const size_t n = op.operands.size();
  Combiner combine(ctx, op);
  auto select = [&](llvm::Value *c, const Tuple &x, const Tuple &y) {
    Tuple t;
    for (size_t i = 0; i < n; ++i)
      t.push_back(b.CreateSelect(c, x[i], y[i]));
    return t;
  };

  // prefix[r]: register r's elements combined with those before them in their block; total[r]:
  // the block's combination, kept for the canonical registers only (the registers of a block
  // share it, and registers that repeat elements share everything). A Tuple holds one value per
  // operand.
  const std::vector<int> reps = representatives(s);
  std::vector<Tuple> prefix(size_t(s.registers)), total(size_t(s.registers));
  for (int r : reps)
    prefix[size_t(r)] = total[size_t(r)] = operandsAt(ctx, op, size_t(r));
  uint64_t shared = s.repeatedRegs; // register bits along which totals are equal
  auto canon = [&](int r) { return size_t(uint64_t(r) & ~shared); };
  std::vector<int> canonical = reps;
  std::vector<llvm::Type *> types;
  std::vector<int> bytes; // per operand; an exchange keeps each operand's totals apart
  int tupleBytes = 0;
  for (llvm::Value *x : prefix[size_t(reps[0])]) {
    types.push_back(x->getType());
    bytes.push_back(sharedBytes(x->getType()));
    tupleBytes += bytes.back();
  }
  const int widest = *std::max_element(bytes.begin(), bytes.end());
  const size_t laneRun = laneRunEnd(s); // scanned first, by shfl.sync.up / down
  const bool totalsInLast = totalsInLastLanes(s);
  int warpRound = 0;
  std::optional<ByteRange> scratch;
  if (s.firstWarpRound >= 0) {
    auto it = ctx.plans().scratch.find(&op);
    assert(it != ctx.plans().scratch.end() && "scan without scratch");
    scratch = it->second;
  }

  // Joins with a partner whose totals are `other` (per canonical register) and whose block comes
  // earlier when `isLater` (an i1): both partners' totals become the earlier's combined with the
  // later's (a ReduceKind's op commutes, so its operands need no ordering).
  // The partner's totals come from `otherOf(c)` for each canonical register c in turn, each
  // joined before the next is fetched (fewer values live at once).
  auto join = [&](auto &&otherOf, llvm::Value *isLater) {
    for (int c : canonical) {
      const Tuple o = otherOf(c);
      for (int r : reps)
        if (canon(r) == size_t(c)) {
          Tuple &p = prefix[size_t(r)];
          p = select(isLater, combine(o, p), p);
        }
      Tuple &t = total[size_t(c)];
      t = combine.commutes() ? combine(t, o)
                             : combine(select(isLater, o, t), select(isLater, t, o));
    }
  };
  // Bit `from` of a thread index (an i32), moved to bit `to`.
  auto bitOf = [&](llvm::Value *id, int from, uint64_t to) {
    return b.CreateShl(b.CreateAnd(b.CreateLShr(id, uint64_t(from)), 1), to);
  };
  const int64_t region = s.firstWarpRound >= 0 ? regionBytes(s, tupleBytes) : 0;
  // Set where only the lanes it is true in hold their blocks' totals (the rest hold prefixes):
  // the next exchange stores those lanes' totals and reads every total back.
  llvm::Value *lastLaneOnly = nullptr;
  ScanReport report;
  report.where = ctx.location(op);
  for (const HwBit &h : s.owners) {
    report.registerBits += h.dim == DimName::reg();
    report.laneBits += h.dim == DimName::lane();
    report.warpBits += h.dim == DimName::warp();
  }
  if (scratch)
    report.scratchBytes = scratch->end - scratch->begin;
  for (size_t j = 0; j < s.owners.size();) {
    const HwBit &bit = s.owners[j];
    if (bit.dim == DimName::reg()) {
      // A run of scanned bits held by registers: the blocks of a run in order, each block's
      // elements put the combination of the blocks before it in front of their prefixes.
      size_t end = j;
      uint64_t runMask = 0;
      while (end < s.owners.size() && s.owners[end].dim == DimName::reg())
        runMask |= uint64_t(1) << s.owners[end++].bit;
      const uint64_t blocks = uint64_t(1) << (end - j);
      auto regOf = [&](int base, uint64_t m) { // the m-th block in scan order
        uint64_t index = reverse ? blocks - 1 - m : m, at = uint64_t(base);
        for (size_t t = 0; t < end - j; ++t)
          if (index >> t & 1)
            at |= uint64_t(1) << s.owners[j + t].bit;
        return size_t(at);
      };
      std::map<size_t, Tuple> before; // per block's canonical register
      for (int r : canonical) {
        if (uint64_t(r) & runMask)
          continue;
        Tuple acc = total[regOf(r, 0)];
        for (uint64_t m = 1; m < blocks; ++m) {
          before[regOf(r, m)] = acc;
          acc = combine(acc, total[regOf(r, m)]);
        }
        total[size_t(r)] = acc;
      }
      for (int r : reps)
        if (auto it = before.find(canon(r)); it != before.end())
          prefix[size_t(r)] = combine(it->second, prefix[size_t(r)]);
      shared |= runMask;
      std::erase_if(canonical, [&](int r) { return uint64_t(r) & runMask; });
      j = end;
      continue;
    }
    if (j == 0 && laneRun > 0) {
      // The lowest scanned bits, held by consecutive lane bits: each element is still its own
      // block, so an inclusive scan of the elements over those lanes gives their prefixes. Each
      // round t puts the value 2^t places earlier (in scan order) in front of the lane's, by a
      // shfl.sync.up (down, reversed): one value per element stays live, where a butterfly
      // keeps a prefix and a total. The blocks' totals, if later bits need them, are the last
      // lane's.
      const size_t end = laneRun;
      const uint32_t fieldMask = (1u << end) - 1;
      llvm::Value *field = b.CreateAnd(b.CreateLShr(ctx.kernel().laneId(), uint64_t(bit.bit)),
                                       fieldMask); // the lane's place in the run
      if (reverse)
        field = b.CreateXor(field, b.getInt32(fieldMask));
      for (size_t t = 0; t < end; ++t) {
        const uint32_t delta = 1u << (bit.bit + int(t));
        llvm::Value *hasEarlier = b.CreateICmpUGE(field, b.getInt32(1u << t));
        for (int c : canonical) {
          Tuple earlier;
          for (llvm::Value *x : total[size_t(c)])
            earlier.push_back(reverse ? shuffleDown(b, x, delta) : shuffleUp(b, x, delta));
          total[size_t(c)] =
              select(hasEarlier, combine(earlier, total[size_t(c)]), total[size_t(c)]);
        }
      }
      report.shuffles += int(end * canonical.size() * n);
      for (int r : reps) // (no scanned bit below: every representative is canonical)
        prefix[size_t(r)] = total[canon(r)];
      if (totalsInLast) {
        // The warp exchange that follows stores the last lane's prefixes as the totals.
        lastLaneOnly = b.CreateICmpEQ(field, b.getInt32(fieldMask));
      } else if (end < s.owners.size()) {
        const uint32_t run = fieldMask << bit.bit;
        llvm::Value *lane = ctx.kernel().laneId();
        llvm::Value *last =
            reverse ? b.CreateAnd(lane, b.getInt32(~run)) : b.CreateOr(lane, b.getInt32(run));
        for (int c : canonical)
          for (llvm::Value *&x : total[size_t(c)])
            x = shuffleIdx(b, x, last);
        report.shuffles += int(canonical.size() * n);
      }
      j = end;
      continue;
    }
    if (bit.dim == DimName::lane()) {
      llvm::Value *isHigh = b.CreateICmpNE(bitOf(ctx.kernel().laneId(), bit.bit, 0), b.getInt32(0));
      llvm::Value *isLater = reverse ? b.CreateNot(isHigh) : isHigh;
      report.shuffles += int(canonical.size() * n);
      join(
          [&](int c) {
            Tuple o;
            for (llvm::Value *x : total[size_t(c)])
              o.push_back(shuffleXor(b, x, 1u << bit.bit));
            return o;
          },
          isLater);
      ++j;
      continue;
    }
    // A run of scanned bits held by warps, in one exchange: each block's total goes to the slot
    // of its kept bits; each thread loads the totals of the run's 2^k warps at its slot (the same
    // slot but for the run's warp bits), puts those of the earlier warps in front of its prefix,
    // and combines all of them into the new total. Operand i's totals fill a part of their own.
    const size_t end = exchangeEnd(s, j);
    const int k = int(end - j);
    const std::vector<HwBit> kept = keptBits(s, int(j));
    const int64_t begin = scratch->begin + (warpRound++ % 2) * region;
    const int64_t slots = int64_t(1) << kept.size();
    const ByteRange bytesOfRound{begin, begin + slots * tupleBytes};
    llvm::Value *slot = b.getInt32(0);
    std::vector<uint32_t> runSlotBit(static_cast<size_t>(k)); // slot bit of the run's t-th warp bit
    std::vector<std::pair<int, uint64_t>> regSlot;            // register bit -> slot bit
    for (size_t q = 0; q < kept.size(); ++q) {
      for (int t = 0; t < k; ++t)
        if (sameBit(kept[q], s.owners[j + size_t(t)]))
          runSlotBit[size_t(t)] = uint32_t(1) << q;
      if (kept[q].dim == DimName::reg()) {
        regSlot.push_back({kept[q].bit, uint64_t(1) << q});
        continue;
      }
      llvm::Value *id =
          kept[q].dim == DimName::lane() ? ctx.kernel().laneId() : ctx.kernel().warpId();
      slot = b.CreateOr(slot, bitOf(id, kept[q].bit, q));
    }
    auto constantSlot = [&](int r) {
      uint64_t c = 0;
      for (auto [regBit, slotBit] : regSlot)
        if (r >> regBit & 1)
          c |= slotBit;
      return int64_t(c);
    };
    // The run's warps in scan order: the m-th one's slot bits, and this warp's place among them.
    uint32_t runMask = 0;
    for (uint32_t bitOfSlot : runSlotBit)
      runMask |= bitOfSlot;
    assert(std::popcount(runMask) == k && "the exchanged warp bits are kept");
    auto slotBitsOf = [&](uint64_t m) {
      uint64_t index = reverse ? (uint64_t(1) << k) - 1 - m : m;
      uint32_t bits = 0;
      for (int t = 0; t < k; ++t)
        if (index >> t & 1)
          bits |= runSlotBit[size_t(t)];
      return int64_t(bits);
    };
    llvm::Value *place = b.getInt32(0);
    for (int t = 0; t < k; ++t)
      place = b.CreateOr(place, bitOf(ctx.kernel().warpId(), s.owners[j + size_t(t)].bit, t));
    if (reverse)
      place = b.CreateXor(place, b.getInt32((uint32_t(1) << k) - 1));
    std::vector<llvm::Value *> parts; // operand i's part of the exchange
    for (int64_t at : exchangeParts(bytes, slots))
      parts.push_back(ctx.sharedAt(begin + at));
    // The byte offset of slot `slotValue` (an i32) + constant slot `c` of operand i's part.
    auto address = [&](size_t i, llvm::Value *slotValue, int64_t c) {
      return sharedAddress(b, parts[i], b.CreateMul(slotValue, b.getInt32(uint32_t(bytes[i]))),
                           c * bytes[i]);
    };
    llvm::Value *others = b.CreateAnd(slot, b.getInt32(~runMask));
    // The canonical registers differ in the kept register bits only: one slot each. Where only
    // the last lanes hold their blocks' totals, the other threads store to their own spare slots
    // (a branch around the stores, or predicated inline stores, which LLVM may not move, cost
    // the recurrence of examples/triton/ 116 bytes of spills or 50 registers).
    ctx.beforeSharedWrite(lastLaneOnly ? ByteRange{bytesOfRound.begin, scratch->end}
                                       : bytesOfRound);
    llvm::Value *spare = nullptr;
    if (lastLaneOnly)
      spare = sharedAddress(b, ctx.sharedAt(scratch->end - s.threads * widest),
                            b.CreateMul(ctx.thread(), b.getInt32(uint32_t(widest))), 0);
    for (int r : canonical)
      for (size_t i = 0; i < n; ++i) {
        llvm::Value *at = address(i, slot, constantSlot(r));
        if (lastLaneOnly)
          at = b.CreateSelect(lastLaneOnly, at, spare);
        emitSharedStore(b, at, {total[size_t(r)][i]});
      }
    report.sharedStores += int(canonical.size() * n);
    ++report.exchanges;
    emitBarrier(b);
    ctx.barrierEmitted();
    auto loadTuple = [&](llvm::Value *slotValue, int64_t c) {
      Tuple t;
      for (size_t i = 0; i < n; ++i)
        t.push_back(emitSharedLoad(b, address(i, slotValue, c), types[i], 1)[0]);
      return t;
    };
    if (k == 1) {
      // One warp bit: the partner warp's totals, joined as a lane's are.
      llvm::Value *theirs = b.CreateXor(slot, b.getInt32(runMask));
      join(
          [&](int c) {
            if (lastLaneOnly) // this block's total, from its last lane
              total[size_t(c)] = loadTuple(slot, constantSlot(c));
            return loadTuple(theirs, constantSlot(c));
          },
          b.CreateICmpNE(place, b.getInt32(0)));
      lastLaneOnly = nullptr;
      ctx.afterSharedRead(bytesOfRound);
      j = end;
      continue;
    }
    std::vector<Tuple> before(size_t(s.registers)); // the earlier warps' combination
    for (int r : canonical) {
      Tuple acc;
      for (uint64_t m = 0; m < (uint64_t(1) << k); ++m) {
        Tuple t = loadTuple(others, constantSlot(r) + slotBitsOf(m));
        if (m > 0) // acc combines the warps before the m-th
          before[size_t(r)] = m == 1 ? acc
                                     : select(b.CreateICmpEQ(place, b.getInt32(uint32_t(m))), acc,
                                              before[size_t(r)]);
        acc = acc.empty() ? t : combine(acc, t);
      }
      total[size_t(r)] = acc;
    }
    ctx.afterSharedRead(bytesOfRound);
    lastLaneOnly = nullptr;
    llvm::Value *first = b.CreateICmpEQ(place, b.getInt32(0));
    for (int r : reps) {
      Tuple &p = prefix[size_t(r)];
      p = select(first, p, combine(before[canon(r)], p));
    }
    j = end;
  }
  LL_TRY_STATUS(combine.status());

  ctx.noteScan(std::move(report));
  for (size_t i = 0; i < n; ++i) {
    std::vector<llvm::Value *> regs;
    for (int r = 0; r < s.registers; ++r)
      regs.push_back(prefix[size_t(uint64_t(r) & ~s.repeatedRegs)][i]);
    LL_TRY_STATUS(ctx.setRegs(op.results[i], std::move(regs)));
  }
  return Status::success();
}

} // namespace linlayout::lower
