// tt.dot. With an nvidia_mma v2 accumulator each 16x8 tile of C is one mma.sync per K step,
// its operands the A and B registers the dot-operand layouts put exactly where the instruction
// fragments expect them (checked here, lane by lane, from the linear layouts); with a blocked
// accumulator, one FMA per element per k.
#include "Mma.h"
#include "OpLowering.h"
#include "OperandSlices.h"
#include "PackedHalves.h"

#include <llvm/IR/Constants.h>

#include <bit>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace linlayout::lower {

namespace {

// Checks the lane steps against a fragment's and the warp / block steps against the expected
// projection of the accumulator's.
Status checkThreads(const LinearLayout &l, const char *what,
                    const std::vector<std::pair<uint64_t, uint64_t>> &lanes,
                    const LinearLayout &acc, bool keepRow, bool keepCol) {
  for (int i = 0; i < 5; ++i)
    if (step(l, DimName::lane(), i) != lanes[i])
      return makeError(std::string(what) + " lane " + std::to_string(1 << i) +
                       " does not hold the mma fragment element the instruction expects");
  for (DimName d : {DimName::warp(), DimName::block()})
    for (int i = 0; i < std::max(l.inDimBits(d), acc.inDimBits(d)); ++i) {
      auto [r, c] = step(acc, d, i);
      std::pair<uint64_t, uint64_t> want = {keepRow ? r : 0, keepCol ? c : 0};
      if (step(l, d, i) != want)
        return makeError(std::string(what) + " " + std::string(d.str()) + " " +
                         std::to_string(1 << i) +
                         " does not hold the tile the accumulator's warp computes");
    }
  return Status::success();
}

// One mma.sync for the operands' element type: its K and how its fragments pack K into words.
struct MmaInstr {
  MmaShape shape;
  int kBits;    ///< log2 of the instruction's K
  int elemBits; ///< log2 of the operand elements per 32-bit fragment word
};

std::optional<MmaInstr> mmaInstrFor(ir::ScalarKind k) {
  std::optional<MmaShape> shape = mmaShapeFor(k);
  if (!shape)
    return std::nullopt;
  const int bytes = ir::byteWidth(k);
  return MmaInstr{*shape, std::countr_zero(unsigned(mmaK(bytes))),
                  std::countr_zero(unsigned(4 / bytes))};
}

// Where the instruction's K bits read the operands' K. Within one instruction a fragment's K
// index has, from the lowest bit: the element within its word, then the two lane bits t = lane
// % 4, then the word. A dot-operand layout whose threads hold kWidth consecutive K elements
// (Triton's kWidth above 32 bits' worth: f16 with kWidth 4, say) puts other K bits there; as
// long as A and B put the same ones, the instruction sums the same products, so K is read
// through a bit permutation: the lane bits where the layouts' lanes step K, the element and word
// bits at the lowest K bits left, in order. kBit[j] is the operands' K bit that the
// instruction's K bit j reads; the other K bits select the instruction.
struct KPermutation {
  std::vector<int> kBit;
  uint64_t mask = 0;  ///< the K bits kBit names
  uint64_t group = 0; ///< the K elements one instruction's bits span: 2^(highest kBit + 1)

  // (the K base selecting the instruction, the instruction's K index) of K index k.
  std::pair<uint64_t, uint64_t> split(uint64_t k) const {
    uint64_t inst = 0;
    for (size_t j = 0; j < kBit.size(); ++j)
      if (k >> kBit[j] & 1)
        inst |= uint64_t(1) << j;
    return {k & ~mask, inst};
  }
};

int log2Exact(uint64_t x) { return std::has_single_bit(x) ? std::countr_zero(x) : -1; }

// The permutation from the K steps of A's and B's lanes 1 and 2 (the fragments' t bits), which
// must step K alone, by single bits, the same in both operands.
Expected<KPermutation> kPermutation(const MmaInstr &in, const LinearLayout &la,
                                    const LinearLayout &lb) {
  KPermutation p;
  int t[2];
  for (int i = 0; i < 2; ++i) {
    auto [am, ak] = step(la, DimName::lane(), i);
    auto [bk, bn] = step(lb, DimName::lane(), i);
    t[i] = log2Exact(ak);
    if (am != 0 || bn != 0 || t[i] < 0 || ak != bk || ak >= (uint64_t(1) << (in.kBits + 2)))
      return makeError("tt.dot: lane " + std::to_string(1 << i) +
                       " of operands A and B does not step K by one power of two the same in "
                       "both, as the mma fragments need");
  }
  p.kBit.assign(size_t(in.kBits), -1);
  p.kBit[size_t(in.elemBits)] = t[0];
  p.kBit[size_t(in.elemBits + 1)] = t[1];
  int free = 0;
  for (size_t j = 0; j < p.kBit.size(); ++j) {
    if (p.kBit[j] >= 0)
      continue;
    while (free == t[0] || free == t[1])
      ++free;
    p.kBit[j] = free++;
  }
  int top = 0;
  for (int b : p.kBit) {
    p.mask |= uint64_t(1) << b;
    top = std::max(top, b);
  }
  p.group = uint64_t(1) << (top + 1);
  return p;
}

struct Fragments {
  // (tileRow, tileCol, word, element) -> register; the K coordinate of the tile is the K base.
  std::map<std::tuple<uint64_t, uint64_t, int, int>, int> reg;
};

Status lowerMma(LoweringContext &ctx, const ir::Op &op, Lowered a, Lowered bv, const Lowered &c,
                ir::ScalarKind ak) {
  auto &b = ctx.b();
  std::optional<MmaInstr> instr = mmaInstrFor(ak);
  if (!instr)
    return makeError("tt.dot: mma.sync takes f16, bf16, f32 (tf32) or i8 operands, not " +
                     std::string(ir::name(ak)));
  bool ints = ak == ir::ScalarKind::I8;
  llvm::Type *accTy = c.regs[0]->getType();
  if (ints ? !accTy->isIntegerTy(32) : !accTy->isFloatTy())
    return makeError(std::string("tt.dot: the mma accumulator must be ") +
                     (ints ? "i32 for i8 operands" : "f32"));
  const LinearLayout &la = a.layout, &lb = bv.layout, &lc = c.layout;
  // Fragment lane steps (PTX ISA, mma.m16n8k16 / m16n8k8 / m16n8k32): t = lane % 4 steps K (the
  // permutation above) or C's columns, g = lane / 4 the rows of A and C and the columns of B.
  std::vector<std::pair<uint64_t, uint64_t>> cLanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  LL_TRY_STATUS(checkThreads(lc, "accumulator", cLanes, lc, true, true));
  LL_ASSIGN_OR_RETURN(KPermutation perm, kPermutation(*instr, la, lb));
  uint64_t tK[2] = {uint64_t(1) << perm.kBit[size_t(instr->elemBits)],
                    uint64_t(1) << perm.kBit[size_t(instr->elemBits + 1)]};
  LL_TRY_STATUS(checkThreads(la, "operand A", {{0, tK[0]}, {0, tK[1]}, {1, 0}, {2, 0}, {4, 0}}, lc,
                             true, false));
  LL_TRY_STATUS(checkThreads(lb, "operand B", {{tK[0], 0}, {tK[1], 0}, {0, 1}, {0, 2}, {0, 4}}, lc,
                             false, true));

  // Where every fragment element sits, from thread 0's registers.
  const int elems = 1 << instr->elemBits;
  const uint64_t wordBit = uint64_t(1) << (instr->elemBits + 2);
  Fragments fa, fb;
  std::set<uint64_t> bases;
  for (uint64_t r = 0; r < a.regs.size(); ++r) {
    auto [m, k] = rowCol(la, regOutput(la, r));
    auto [base, inst] = perm.split(k);
    if (m & 7 || inst & (3u << instr->elemBits))
      return makeError("tt.dot: operand A's registers hold elements the mma fragments give to "
                       "other lanes");
    int word = (m & 8 ? 1 : 0) + (inst & wordBit ? 2 : 0);
    fa.reg.emplace(std::make_tuple(m & ~uint64_t(15), base, word, int(inst & uint64_t(elems - 1))),
                   int(r));
    bases.insert(base);
  }
  for (uint64_t r = 0; r < bv.regs.size(); ++r) {
    auto [k, n] = rowCol(lb, regOutput(lb, r));
    auto [base, inst] = perm.split(k);
    if (n & 7 || inst & (3u << instr->elemBits))
      return makeError("tt.dot: operand B's registers hold elements the mma fragments give to "
                       "other lanes");
    fb.reg.emplace(std::make_tuple(base, n & ~uint64_t(7), inst & wordBit ? 1 : 0,
                                   int(inst & uint64_t(elems - 1))),
                   int(r));
  }
  std::map<std::pair<uint64_t, uint64_t>, std::vector<int>> cTiles; // tile -> slot -> register
  for (uint64_t r = 0; r < c.regs.size(); ++r) {
    auto [m, n] = rowCol(lc, regOutput(lc, r));
    auto &slots = cTiles[{m & ~uint64_t(15), n & ~uint64_t(7)}];
    slots.resize(4, -1);
    int slot = (m & 8 ? 2 : 0) + int(n & 1);
    if (slots[slot] < 0)
      slots[slot] = int(r);
  }
  std::vector<llvm::Value *> out(c.regs.size(), nullptr);
  auto word = [&](const Lowered &v, const Fragments &f, uint64_t row, uint64_t col,
                  int w) -> Expected<llvm::Value *> {
    std::vector<llvm::Value *> parts;
    for (int e = 0; e < elems; ++e) {
      auto it = f.reg.find({row, col, w, e});
      if (it == f.reg.end())
        return makeError("tt.dot: an operand tile misses a fragment element");
      if (!v.regs[it->second])
        return makeError("tt.dot: an operand register was not loaded before its mma.sync");
      parts.push_back(v.regs[it->second]);
    }
    return joinWord(b, parts);
  };
  std::map<std::pair<uint64_t, uint64_t>, std::vector<llvm::Value *>> accs;
  for (auto &[tile, slots] : cTiles) {
    for (int s : slots)
      if (s < 0)
        return makeError("tt.dot: the accumulator misses an element of an mma tile");
    for (int s : slots)
      accs[tile].push_back(c.regs[s]);
  }
  // Sliced operands (OperandSlices.h): slice 0 came with the local_load; each later one is
  // loaded one slice ahead of the first mma.sync that takes it. A slice holds whole
  // instructions' K.
  struct Sliced {
    Lowered *v;
    int64_t next = 1;
  };
  std::vector<Sliced> sliced;
  for (Lowered *v : {&a, &bv})
    if (v->slices) {
      if (uint64_t(v->slices->sliceK()) % perm.group != 0)
        return makeError("tt.dot: a K slice of " + std::to_string(v->slices->sliceK()) +
                         " elements splits the " + std::to_string(perm.group) +
                         " that one mma.sync's operands span");
      ctx.noteSlicedOperand(
          {ctx.location(op), v == &a ? 0 : 1, int(v->slices->count()), int(v->slices->sliceK())});
      sliced.push_back({v});
    }
  if (!sliced.empty())
    ctx.beforeSharedRead();
  // K outermost, as the slices arrive; each tile's mma.sync still runs in K order.
  for (uint64_t base : bases) {
    for (Sliced &s : sliced) {
      int64_t want = int64_t(base / uint64_t(s.v->slices->sliceK())) + 1;
      for (; s.next <= want && s.next < s.v->slices->count(); ++s.next)
        LL_TRY_STATUS(s.v->slices->load(ctx, s.next, s.v->regs));
    }
    for (auto &[tile, acc] : accs) {
      auto [m0, n0] = tile;
      std::vector<llvm::Value *> aw, bw;
      for (int w = 0; w < 4; ++w) {
        LL_ASSIGN_OR_RETURN(llvm::Value * x, word(a, fa, m0, base, w));
        aw.push_back(x);
      }
      for (int w = 0; w < 2; ++w) {
        LL_ASSIGN_OR_RETURN(llvm::Value * x, word(bv, fb, base, n0, w));
        bw.push_back(x);
      }
      acc = emitMma(b, instr->shape, aw, bw, acc);
    }
  }
  if (!sliced.empty())
    ctx.afterSharedRead();
  for (auto &[tile, slots] : cTiles)
    for (int s = 0; s < 4; ++s)
      out[slots[s]] = accs[tile][s];
  // Registers holding copies of a tile element.
  std::map<uint64_t, llvm::Value *> byElement;
  for (uint64_t r = 0; r < c.regs.size(); ++r)
    if (out[r])
      byElement.emplace(regOutput(lc, r), out[r]);
  for (uint64_t r = 0; r < c.regs.size(); ++r)
    if (!out[r])
      out[r] = byElement.at(regOutput(lc, r));
  return ctx.setRegs(op.results[0], std::move(out));
}

Status lowerFmaDot(LoweringContext &ctx, const ir::Op &op, const Lowered &a, const Lowered &bv,
                   const Lowered &c) {
  auto &b = ctx.b();
  const LinearLayout &la = a.layout, &lb = bv.layout, &lc = c.layout;
  for (DimName d : {DimName::lane(), DimName::warp(), DimName::block()})
    for (int i = 0; i < lc.inDimBits(d); ++i) {
      auto [m, n] = step(lc, d, i);
      if (step(la, d, i) != std::make_pair(m, uint64_t(0)) ||
          step(lb, d, i) != std::make_pair(uint64_t(0), n))
        return makeError("tt.dot: the operand layouts do not give each thread the rows and "
                         "columns of its accumulator elements");
    }
  std::map<std::pair<uint64_t, uint64_t>, int> ar, br;
  for (uint64_t r = 0; r < a.regs.size(); ++r)
    ar.emplace(rowCol(la, regOutput(la, r)), int(r));
  for (uint64_t r = 0; r < bv.regs.size(); ++r)
    br.emplace(rowCol(lb, regOutput(lb, r)), int(r));
  uint64_t kSize = la.outDimSize(la.outDimName(1));
  llvm::Type *ct = c.regs[0]->getType();
  std::vector<llvm::Value *> out;
  for (uint64_t r = 0; r < c.regs.size(); ++r) {
    auto [m, n] = rowCol(lc, regOutput(lc, r));
    llvm::Value *acc = c.regs[r];
    for (uint64_t k = 0; k < kSize; ++k) {
      auto ia = ar.find({m, k});
      auto ib = br.find({k, n});
      if (ia == ar.end() || ib == br.end())
        return makeError("tt.dot: an operand misses an element its thread needs");
      llvm::Value *x = a.regs[ia->second], *y = bv.regs[ib->second];
      if (x->getType() != ct)
        x = b.CreateFPExt(x, ct);
      if (y->getType() != ct)
        y = b.CreateFPExt(y, ct);
      acc = emitFma(b, x, y, acc);
    }
    out.push_back(acc);
  }
  return ctx.setRegs(op.results[0], std::move(out));
}

} // namespace

SharedEffects dotEffects(const ir::Op &op, const OpPlans &plans) {
  // lowerMma's loads of the later K slices, between one wait and one read.
  for (const auto &[load, how] : plans.slicedLoads)
    if (how.dot == &op)
      return SharedEffects().waitToRead().read();
  return {};
}

Status lowerDot(LoweringContext &ctx, const ir::Op &op) {
  const Lowered &a = ctx.get(op.operands[0]);
  const Lowered &bv = ctx.get(op.operands[1]);
  const Lowered &c = ctx.get(op.operands[2]);
  const ir::Type &ct = ctx.function().type(op.operands[2]);
  const ir::Type &at = ctx.function().type(op.operands[0]);
  const LayoutSpec &parent = ctx.module().layoutOf(ct);
  Status s;
  if (const auto *mma = parent.as<NvidiaMmaSpec>()) {
    if (!mma->isAmpere() || mma->rank() != 2)
      s = makeError("tt.dot: only rank-2 nvidia_mma version 2 accumulators are lowered");
    else
      s = lowerMma(ctx, op, a, bv, c, at.elem().scalar);
  } else if (parent.as<BlockedSpec>()) {
    s = lowerFmaDot(ctx, op, a, bv, c);
  } else {
    s = makeError("tt.dot: the accumulator layout must be nvidia_mma or blocked");
  }
  if (!s.ok())
    return makeError(ctx.where(op) + s.message());
  return Status::success();
}

} // namespace linlayout::lower
