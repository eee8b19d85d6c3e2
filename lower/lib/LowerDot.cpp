// tt.dot. With an nvidia_mma v2 accumulator each 16x8 tile of C is one mma.sync per K step,
// its operands the A and B registers the dot-operand layouts put exactly where the instruction
// fragments expect them (checked here, lane by lane, from the linear layouts); with a blocked
// accumulator, one FMA per element per k.
#include "Mma.h"
#include "OpLowering.h"
#include "OperandSlices.h"
#include "PackedHalves.h"

#include <llvm/IR/Constants.h>

#include <map>
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

struct Fragments {
  // (tileRow, tileCol, word, half) -> register
  std::map<std::tuple<uint64_t, uint64_t, int, int>, int> reg;
};

Status lowerMma(LoweringContext &ctx, const ir::Op &op, Lowered a, Lowered bv, const Lowered &c,
                ir::ScalarKind ak) {
  auto &b = ctx.b();
  MmaShape shape;
  int kStep;
  bool tf32 = ak == ir::ScalarKind::F32;
  if (ak == ir::ScalarKind::F16)
    shape = MmaShape::M16N8K16_F16, kStep = 16;
  else if (ak == ir::ScalarKind::BF16)
    shape = MmaShape::M16N8K16_BF16, kStep = 16;
  else if (tf32)
    shape = MmaShape::M16N8K8_TF32, kStep = 8;
  else
    return makeError("tt.dot: mma.sync takes f16, bf16 or f32 (tf32) operands, not " +
                     std::string(ir::name(ak)));
  if (!c.regs[0]->getType()->isFloatTy())
    return makeError("tt.dot: the mma accumulator must be f32");
  const LinearLayout &la = a.layout, &lb = bv.layout, &lc = c.layout;
  // Fragment lane steps (PTX ISA, mma.m16n8k16 / m16n8k8): t = lane % 4 steps columns, g = lane
  // / 4 steps rows.
  std::vector<std::pair<uint64_t, uint64_t>> cLanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  std::vector<std::pair<uint64_t, uint64_t>> aLanes =
      tf32 ? std::vector<std::pair<uint64_t, uint64_t>>{{0, 1}, {0, 2}, {1, 0}, {2, 0}, {4, 0}}
           : cLanes;
  std::vector<std::pair<uint64_t, uint64_t>> bLanes =
      tf32 ? std::vector<std::pair<uint64_t, uint64_t>>{{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}
           : std::vector<std::pair<uint64_t, uint64_t>>{{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}};
  LL_TRY_STATUS(checkThreads(lc, "accumulator", cLanes, lc, true, true));
  LL_TRY_STATUS(checkThreads(la, "operand A", aLanes, lc, true, false));
  LL_TRY_STATUS(checkThreads(lb, "operand B", bLanes, lc, false, true));

  // Where every fragment element sits, from thread 0's registers.
  Fragments fa, fb;
  std::map<std::pair<uint64_t, uint64_t>, std::vector<int>> cTiles; // tile -> slot -> register
  for (uint64_t r = 0; r < a.regs.size(); ++r) {
    auto [m, k] = rowCol(la, regOutput(la, r));
    int word = (m & 8 ? 1 : 0) + (k & (tf32 ? 4 : 8) ? 2 : 0);
    int half = tf32 ? 0 : int(k & 1);
    fa.reg.emplace(std::make_tuple(m & ~uint64_t(15), k & ~uint64_t(kStep - 1), word, half),
                   int(r));
  }
  for (uint64_t r = 0; r < bv.regs.size(); ++r) {
    auto [k, n] = rowCol(lb, regOutput(lb, r));
    int word = k & (tf32 ? 4 : 8) ? 1 : 0;
    int half = tf32 ? 0 : int(k & 1);
    fb.reg.emplace(std::make_tuple(k & ~uint64_t(kStep - 1), n & ~uint64_t(7), word, half),
                   int(r));
  }
  for (uint64_t r = 0; r < c.regs.size(); ++r) {
    auto [m, n] = rowCol(lc, regOutput(lc, r));
    auto &slots = cTiles[{m & ~uint64_t(15), n & ~uint64_t(7)}];
    slots.resize(4, -1);
    int slot = (m & 8 ? 2 : 0) + int(n & 1);
    if (slots[slot] < 0)
      slots[slot] = int(r);
  }
  uint64_t kSize = la.outDimSize(la.outDimName(1));
  std::vector<llvm::Value *> out(c.regs.size(), nullptr);
  auto word = [&](const Lowered &v, const Fragments &f, uint64_t row, uint64_t col,
                  int w) -> Expected<llvm::Value *> {
    auto get = [&](int half) -> Expected<llvm::Value *> {
      auto it = f.reg.find({row, col, w, half});
      if (it == f.reg.end())
        return makeError("tt.dot: an operand tile misses a fragment element");
      if (!v.regs[it->second])
        return makeError("tt.dot: an operand register was not loaded before its mma.sync");
      return v.regs[it->second];
    };
    if (tf32) {
      LL_ASSIGN_OR_RETURN(llvm::Value * x, get(0));
      return b.CreateBitCast(x, b.getInt32Ty());
    }
    LL_ASSIGN_OR_RETURN(llvm::Value * lo, get(0));
    LL_ASSIGN_OR_RETURN(llvm::Value * hi, get(1));
    return joinHalves(b, lo, hi);
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
  // loaded one slice ahead of the mma.sync that takes it.
  std::vector<Lowered *> sliced;
  for (Lowered *v : {&a, &bv})
    if (v->slices) {
      ctx.noteSlicedOperand(
          {ctx.location(op), v == &a ? 0 : 1, int(v->slices->count()), int(v->slices->sliceK())});
      sliced.push_back(v);
    }
  auto loadSlice = [&](int64_t s) -> Status {
    for (Lowered *v : sliced)
      if (s < v->slices->count())
        LL_TRY_STATUS(v->slices->load(ctx, s, v->regs));
    return Status::success();
  };
  if (!sliced.empty())
    ctx.beforeSharedRead();
  // K outermost, as the slices arrive; each tile's mma.sync still runs in K order.
  for (uint64_t k0 = 0; k0 < kSize; k0 += kStep) {
    if (!sliced.empty() && k0 + kStep < kSize)
      LL_TRY_STATUS(loadSlice(int64_t((k0 + kStep) / kStep)));
    for (auto &[tile, acc] : accs) {
      auto [m0, n0] = tile;
      std::vector<llvm::Value *> aw, bw;
      for (int w = 0; w < 4; ++w) {
        LL_ASSIGN_OR_RETURN(llvm::Value * x, word(a, fa, m0, k0, w));
        aw.push_back(x);
      }
      for (int w = 0; w < 2; ++w) {
        LL_ASSIGN_OR_RETURN(llvm::Value * x, word(bv, fb, k0, n0, w));
        bw.push_back(x);
      }
      acc = emitMma(b, shape, aw, bw, acc);
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
