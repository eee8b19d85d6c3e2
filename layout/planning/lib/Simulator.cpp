#include "linlayout/layout/Simulator.h"

#include "linlayout/layout/SharedMemoryModel.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace linlayout {
namespace {

constexpr uint64_t kPoison = ~uint64_t(0);

uint64_t lowMask(int bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

struct Machine {
  const ConversionPlan &plan;
  int rs, rd, L, W, B;
  int64_t threads;
  std::vector<uint64_t> src; // [thread][src register]
  std::vector<uint64_t> dst; // [thread][dst register]
  SimulationReport report;

  explicit Machine(const ConversionPlan &p)
      : plan(p), rs(p.src.inDimBits(DimName::reg())), rd(p.dst.inDimBits(DimName::reg())),
        L(p.src.inDimBits(DimName::lane())), W(p.src.inDimBits(DimName::warp())),
        B(p.src.inDimBits(DimName::block())), threads(int64_t(1) << (L + W + B)) {}

  // Thread index t packs (lane, warp, block) with lane lowest: the input word of the
  // (lane, warp, block) maps of the plan.
  uint64_t lane(int64_t t) const { return uint64_t(t) & lowMask(L); }
  uint64_t warpOf(int64_t t) const { return uint64_t(t) >> L; } // warp and block
  uint64_t block(int64_t t) const { return uint64_t(t) >> (L + W); }
  uint64_t regInput(uint64_t r, int regBits, int64_t t) const {
    return r | (uint64_t(t) << regBits);
  }

  void problem(const std::string &what) {
    if (report.firstProblem.empty())
      report.firstProblem = what;
  }

  void loadSources() {
    src.assign(size_t(threads) << rs, kPoison);
    dst.assign(size_t(threads) << rd, kPoison);
    for (int64_t t = 0; t < threads; ++t)
      for (uint64_t r = 0; r < (uint64_t(1) << rs); ++r)
        src[(t << rs) + r] = plan.src.apply(regInput(r, rs, t));
  }

  void runPermute() {
    const LinearLayout &m = plan.permute.srcRegister;
    for (int64_t t = 0; t < threads; ++t)
      for (uint64_t r = 0; r < (uint64_t(1) << rd); ++r)
        dst[(t << rd) + r] = src[(t << rs) + m.apply(regInput(r, rd, t))];
  }

  void runNoOp() {
    if (rs != rd) {
      problem("no-op plan between layouts with different register counts");
      return;
    }
    dst = src;
  }

  void runShuffle() {
    const ShuffleStep &st = plan.shuffle;
    int kk = st.pack.inDimBits(DimName::get("slot"));
    int ws = st.pack.inDimBits(DimName::get("word"));
    int nd = st.unpack.outDimBits(DimName::get("word"));
    int slots = 1 << kk;
    // Words are vectors of slots; halves of 64-bit elements are tagged in the low bit.
    for (int half = 0; half < st.halves; ++half) {
      std::vector<uint64_t> packed(size_t(threads) << (ws + kk));
      for (int64_t t = 0; t < threads; ++t)
        for (uint64_t w = 0; w < (uint64_t(1) << ws); ++w)
          for (int s = 0; s < slots; ++s) {
            uint64_t r = st.pack.apply(uint64_t(s) | (w << kk));
            packed[(((t << ws) + w) << kk) + s] = src[(t << rs) + r];
          }
      std::vector<uint64_t> recv(size_t(threads) << (nd + kk), kPoison);
      int64_t shuffles = 0;
      for (const ShuffleRound &round : st.rounds) {
        if (round.mode != ShuffleMode::Move)
          ++shuffles;
        for (int64_t t = 0; t < threads; ++t) {
          uint64_t srcLane = round.laneConst ^ st.srcLaneOfThread.apply(uint64_t(t));
          if (round.mode == ShuffleMode::Move && srcLane != lane(t))
            problem("a move round reads another lane");
          if (round.mode == ShuffleMode::Bfly && srcLane != (lane(t) ^ round.laneConst))
            problem("a butterfly round reads a lane other than lane ^ mask");
          int64_t sender = int64_t((uint64_t(t) & ~lowMask(L)) | srcLane);
          uint64_t sendWord = round.sendWordConst ^ st.sendWordOfThread.apply(uint64_t(sender));
          uint64_t recvWord = round.recvWordConst ^ st.recvWordOfThread.apply(uint64_t(t));
          if (sendWord >> ws || recvWord >> nd) {
            problem("a shuffle round names a word out of range");
            continue;
          }
          for (int s = 0; s < slots; ++s)
            recv[(((t << nd) + recvWord) << kk) + s] =
                packed[(((sender << ws) + sendWord) << kk) + s];
        }
      }
      report.shuffles += shuffles;
      if (half == 0)
        for (int64_t t = 0; t < threads; ++t)
          for (uint64_t r = 0; r < (uint64_t(1) << rd); ++r) {
            uint64_t sw = st.unpack.apply(regInput(r, rd, t));
            uint64_t slot = sw & lowMask(kk), word = sw >> kk;
            dst[(t << rd) + r] = recv[(((t << nd) + word) << kk) + slot];
          }
      else
        // The second half must arrive where the first did.
        for (int64_t t = 0; t < threads; ++t)
          for (uint64_t r = 0; r < (uint64_t(1) << rd); ++r) {
            uint64_t sw = st.unpack.apply(regInput(r, rd, t));
            uint64_t slot = sw & lowMask(kk), word = sw >> kk;
            if (recv[(((t << nd) + word) << kk) + slot] != dst[(t << rd) + r])
              problem("the two halves of a 64-bit element arrive in different places");
          }
    }
  }

  void runShared(bool cluster) {
    const SharedStep &st = plan.shared;
    const int e = plan.elementBits;
    const int bytes = e / 8;
    // A padded scratch keeps element offset o at address paddedOffset(o): the scratch below is
    // indexed by offsets (padding is one-to-one), the banks and bounds by addresses, and a
    // vector must be contiguous and aligned in addresses.
    auto address = [&](uint64_t o) { return uint64_t(paddedOffset(int64_t(o), st.padding)); };
    auto paddedVectorOk = [&](uint64_t a0, uint64_t n, const char *what) {
      if (address(a0) % n) {
        problem(std::string("a vector ") + what + " is misaligned");
        return false;
      }
      if (address(a0 + n - 1) != address(a0) + n - 1) {
        problem(std::string("a vector ") + what + " spans padding");
        return false;
      }
      if (!st.padding.empty() && int64_t((address(a0) + n) * uint64_t(bytes)) > st.scratchBytes) {
        problem(std::string("a vector ") + what + " reaches past the padded scratch");
        return false;
      }
      return true;
    };
    for (const SharedAccess &a : st.stores)
      if (isMatrixOp(a.op) && !st.padding.empty())
        problem("a matrix instruction through a padded scratch");
    const int slots32 = e < 32 ? 32 / e : 1;
    const uint64_t scratchElems = uint64_t(1) << st.storeAddress.outDimBits(DimName::offset());
    const int64_t ctas = int64_t(1) << B;
    const int64_t warpsPerCta = int64_t(1) << W;
    std::vector<uint64_t> scratch(size_t(ctas) * scratchElems, kPoison);
    toucher.assign(scratch.size(), -1);
    report.withinWarps = !cluster;
    std::vector<int64_t> storeWaves(size_t(ctas * warpsPerCta), 0),
        loadWaves(size_t(ctas * warpsPerCta), 0);
    // The element CTA b's part adds to the scratch layout's element (its block offset).
    std::vector<uint64_t> ctaShift(static_cast<size_t>(ctas));
    int srcRegLaneWarp = rs + L + W;
    for (int64_t b = 0; b < ctas; ++b)
      ctaShift[b] = plan.src.apply(uint64_t(b) << srcRegLaneWarp);
    auto scratchHolds = [&](uint64_t offset, int round, int64_t b) {
      int m = st.scratch.inDimBits(DimName::offset());
      int rb = st.scratch.inDimBits(DimName::get("round"));
      uint64_t in = offset | (uint64_t(round) << m);
      if (cluster)
        in |= uint64_t(b) << (m + rb);
      uint64_t v = st.scratch.apply(in);
      return cluster ? v : v ^ ctaShift[b];
    };
    const int rounds = st.rounds;
    for (int round = 0; round < rounds; ++round) {
      // Barrier: earlier rounds' loads are done; poison what they left to catch stale reads.
      std::fill(scratch.begin(), scratch.end(), kPoison);
      for (const SharedAccess &a : st.stores) {
        if (a.round != round)
          continue;
        for (int64_t warp = 0; warp < ctas * warpsPerCta; ++warp) {
          int64_t t0 = warp << L;
          if (st.storePredicate.apply(uint64_t(t0)) != 0)
            continue; // copies of another warp's data are not stored
          std::array<uint64_t, 32> addr;
          addr.fill(kInactiveLane);
          int64_t b = t0 >> (L + W);
          for (int l = 0; l < (1 << L); ++l) {
            int64_t t = t0 + l;
            uint64_t a0 = a.offsetConst ^ st.storeAddress.apply(uint64_t(t));
            if (a.op == SharedOp::Store) {
              uint64_t n = a.registers.size();
              if (!paddedVectorOk(a0, n, "store"))
                continue;
              addr[l] = address(a0) * bytes;
              for (uint64_t k = 0; k < n; ++k)
                write(scratch, b, scratchElems, a0 + k, src[(t << rs) + a.registers[k]],
                      scratchHolds(a0 + k, round, b), warp);
            } else {
              if ((a0 * bytes) % 16) {
                problem("an stmatrix row is misaligned");
                continue;
              }
              int matrices = int(a.registers.size()) /
                             (e == 16 && a.op == SharedOp::StMatrixTrans ? 2 : slots32);
              if (l < 8 * matrices)
                addr[l] = a0 * bytes;
            }
          }
          if (isMatrixOp(a.op))
            matrixStore(a, t0, b, scratch, scratchElems, round, scratchHolds);
          int waves =
              countWavefronts(addr, isMatrixOp(a.op) ? 16 : int(a.registers.size()) * bytes);
          if (waves != st.storeWavefronts)
            report.claimsHold = false;
          storeWaves[warp] += waves;
        }
      }
      for (const SharedAccess &a : st.loads) {
        if (a.round != round)
          continue;
        for (int64_t warp = 0; warp < ctas * warpsPerCta; ++warp) {
          int64_t t0 = warp << L;
          std::array<uint64_t, 32> addr;
          addr.fill(kInactiveLane);
          for (int l = 0; l < (1 << L); ++l) {
            int64_t t = t0 + l;
            uint64_t a0 = a.offsetConst ^ st.loadAddress.apply(uint64_t(t));
            int64_t from = int64_t(a.blockConst ^ st.loadBlock.apply(uint64_t(t)));
            if (!cluster && from != (t >> (L + W)))
              problem("a shared-memory load reads another CTA's scratch");
            if (a.op == SharedOp::Load) {
              uint64_t n = a.registers.size();
              if (!paddedVectorOk(a0, n, "load"))
                continue;
              addr[l] = address(a0) * bytes;
              for (uint64_t k = 0; k < n; ++k)
                dst[(t << rd) + a.registers[k]] = read(scratch, from, scratchElems, a0 + k, warp);
            } else {
              if ((a0 * bytes) % 16)
                problem("an ldmatrix row is misaligned");
              int per = a.op == SharedOp::LdMatrixTrans ? 2 : slots32;
              int matrices = int(a.registers.size()) / per;
              if (l < 8 * matrices)
                addr[l] = a0 * bytes;
            }
          }
          if (isMatrixOp(a.op))
            matrixLoad(a, t0, scratch, scratchElems);
          int waves =
              countWavefronts(addr, isMatrixOp(a.op) ? 16 : int(a.registers.size()) * bytes);
          if (waves != st.loadWavefronts)
            report.claimsHold = false;
          loadWaves[warp] += waves;
        }
      }
    }
    for (const auto &c : st.copies)
      for (int64_t t = 0; t < threads; ++t)
        dst[(t << rd) + c[0]] = dst[(t << rd) + c[1]];
    if (st.withinWarps && !report.withinWarps) {
      report.claimsHold = false;
      problem("the plan claims each scratch element stays in one warp, but warps share one");
    }
    report.storeWavefronts = *std::max_element(storeWaves.begin(), storeWaves.end());
    report.loadWavefronts = *std::max_element(loadWaves.begin(), loadWaves.end());
  }

  // The warp that touched each scratch element first (-1: none yet); another warp's touch ends
  // the exchange's staying within warps.
  std::vector<int64_t> toucher;
  void touch(int64_t b, uint64_t n, uint64_t off, int64_t warp) {
    int64_t &w = toucher[size_t(b * int64_t(n) + int64_t(off))];
    if (w >= 0 && w != warp)
      report.withinWarps = false;
    w = warp;
  }

  void write(std::vector<uint64_t> &scratch, int64_t b, uint64_t n, uint64_t off, uint64_t v,
             uint64_t expected, int64_t warp) {
    if (off >= n) {
      problem("a store writes past the scratch");
      return;
    }
    touch(b, n, off, warp);
    if (v != expected)
      report.claimsHold = false;
    uint64_t &slot = scratch[size_t(b * int64_t(n) + int64_t(off))];
    if (slot != kPoison && slot != v)
      problem("two stores write different elements to one scratch element");
    slot = v;
  }

  uint64_t read(const std::vector<uint64_t> &scratch, int64_t b, uint64_t n, uint64_t off,
                int64_t warp) {
    if (off >= n || b < 0 || b >= (int64_t(1) << B)) {
      problem("a load reads past the scratch");
      return kPoison;
    }
    touch(b, n, off, warp);
    uint64_t v = scratch[size_t(b * int64_t(n) + int64_t(off))];
    if (v == kPoison)
      problem("a load reads a scratch element no store of its round wrote");
    return v;
  }

  // The row address lane `l` of warp t0 supplies to a matrix instruction.
  uint64_t rowAddress(const SharedAccess &a, const LinearLayout &addrMap, int64_t t0, int l) {
    return a.offsetConst ^ addrMap.apply(uint64_t(t0 + l));
  }

  template <typename Holds>
  void matrixStore(const SharedAccess &a, int64_t t0, int64_t b, std::vector<uint64_t> &scratch,
                   uint64_t n, int round, Holds &&holds) {
    const SharedStep &st = plan.shared;
    const int e = plan.elementBits;
    bool trans = a.op == SharedOp::StMatrixTrans;
    int per = trans ? 2 : 32 / e;
    int matrices = int(a.registers.size()) / per;
    for (int mu = 0; mu < matrices; ++mu)
      for (int rho = 0; rho < 8; ++rho) {
        uint64_t row = rowAddress(a, st.storeAddress, t0, 8 * mu + rho);
        for (int col = 0; col < 128 / e; ++col) {
          int lane, reg;
          if (!trans) {
            lane = 4 * rho + col / per;
            reg = mu * per + col % per;
          } else {
            lane = 4 * col + rho / 2;
            reg = mu * 2 + rho % 2;
          }
          int64_t t = t0 + lane;
          write(scratch, b, n, row + col, src[(t << rs) + a.registers[reg]],
                holds(row + col, round, b), t0 >> L);
        }
      }
  }

  void matrixLoad(const SharedAccess &a, int64_t t0, const std::vector<uint64_t> &scratch,
                  uint64_t n) {
    const SharedStep &st = plan.shared;
    const int e = plan.elementBits;
    bool trans = a.op == SharedOp::LdMatrixTrans;
    int per = trans ? 2 : 32 / e;
    int matrices = int(a.registers.size()) / per;
    for (int l = 0; l < 32; ++l) {
      int64_t t = t0 + l;
      int64_t from = int64_t(st.loadBlock.apply(uint64_t(t)));
      for (int mu = 0; mu < matrices; ++mu)
        for (int h = 0; h < per; ++h) {
          uint64_t off;
          if (!trans)
            off = rowAddress(a, st.loadAddress, t0, 8 * mu + l / 4) + (l % 4) * per + h;
          else
            off = rowAddress(a, st.loadAddress, t0, 8 * mu + 2 * (l % 4) + h) + l / 4;
          dst[(t << rd) + a.registers[mu * per + h]] = read(scratch, from, n, off, t0 >> L);
        }
    }
  }

  void check() {
    for (int64_t t = 0; t < threads; ++t)
      for (uint64_t r = 0; r < (uint64_t(1) << rd); ++r) {
        uint64_t want = plan.dst.apply(regInput(r, rd, t));
        uint64_t got = dst[(t << rd) + r];
        if (got != want) {
          if (report.wrongRegisters == 0)
            problem("thread (lane " + std::to_string(lane(t)) + ", warp " +
                    std::to_string(warpOf(t) & lowMask(W)) + ", block " + std::to_string(block(t)) +
                    ") register " + std::to_string(r) + " holds element " +
                    (got == kPoison ? "nothing" : std::to_string(got)) + ", expected " +
                    std::to_string(want));
          ++report.wrongRegisters;
        }
      }
  }
};

} // namespace

Expected<SimulationReport> simulateConversion(const ConversionPlan &plan) {
  Machine m(plan);
  if (m.L > 5)
    return makeError("a warp has at most 32 lanes; the plan has " +
                     std::to_string(int64_t(1) << m.L));
  if (m.L + m.W + m.B + std::max(m.rs, m.rd) > 22)
    return makeError("the plan is too large to simulate (more than 2^22 thread-registers)");
  m.loadSources();
  switch (plan.path) {
  case ConversionPath::NoOp:
    m.runNoOp();
    break;
  case ConversionPath::RegisterPermute:
    m.runPermute();
    break;
  case ConversionPath::WarpShuffle:
    m.runShuffle();
    break;
  case ConversionPath::SharedMemory:
    m.runShared(false);
    break;
  case ConversionPath::DistributedSharedMemory:
    m.runShared(true);
    break;
  }
  m.check();
  m.report.correct = m.report.wrongRegisters == 0 && m.report.firstProblem.empty();
  return m.report;
}

} // namespace linlayout
