#include "SharedTileLoad.h"

#include "LayoutIndex.h"
#include "MatrixAccess.h"
#include "SharedAccess.h"

#include "linlayout/ir/SharedTileLayout.h"
#include "linlayout/layout/F2Basis.h"
#include "linlayout/layout/F2Subspace.h"
#include "linlayout/layout/LayoutColumns.h"

namespace linlayout::lower {

namespace {

uint64_t lowBits(int m) { return m >= 64 ? ~uint64_t(0) : (uint64_t(1) << m) - 1; }

// Element `slot` of `slots` packed low-first in an i32 word, as `t`.
llvm::Value *unpack(llvm::IRBuilder<> &b, llvm::Value *word, int slot, int slots, llvm::Type *t) {
  int bits = 32 / slots;
  llvm::Value *v = word;
  if (slot)
    v = b.CreateLShr(v, b.getInt32(uint32_t(slot * bits)));
  if (bits < 32)
    v = b.CreateTrunc(v, b.getIntNTy(unsigned(bits)));
  return v->getType() == t ? v : b.CreateBitCast(v, t);
}

} // namespace

Expected<std::optional<MatrixTileLoadPlan>> planMatrixTileLoad(const LinearLayout &dist,
                                                               const LinearLayout &shared, int e) {
  auto pat = ir::matrixLoadPattern(dist, shared, e);
  if (!pat)
    return std::optional<MatrixTileLoadPlan>();
  MatrixTileLoadPlan plan;
  plan.trans = pat->op == SharedOp::LdMatrixTrans;
  plan.perWord = plan.trans ? 2 : 32 / e;
  const int m = shared.inDimBits(DimName::offset());
  std::vector<InDimColumns> ins{{DimName::lane(), {}}, {DimName::warp(), {}}};
  for (uint64_t x : pat->addressLaneMap)
    ins[0].columns.push_back(x & lowBits(m));
  for (uint64_t x : pat->warpMap)
    ins[1].columns.push_back(x & lowBits(m));
  std::vector<DimSize> outs{{DimName::offset(), uint64_t(1) << m}};
  LL_ASSIGN_OR_RETURN(plan.address, layoutFromColumns(ins, outs));
  size_t nRegs = dist.inDimSize(DimName::reg());
  std::vector<bool> loaded(nRegs, false);
  int nb = int(pat->baseBasis.size());
  for (uint64_t c = 0; c < (uint64_t(1) << nb); ++c) {
    uint32_t first = 0;
    for (int i = 0; i < nb; ++i)
      if (c >> i & 1)
        first ^= pat->baseBasis[i];
    MatrixTileLoadPlan::Instruction in;
    in.offsetConst = f2Apply(pat->regMap, first) & lowBits(m);
    for (uint32_t el : pat->element) {
      uint32_t r = first ^ el;
      if (r >= nRegs || loaded[r])
        return makeError("the ldmatrix pattern loads register " + std::to_string(r) + " twice");
      loaded[r] = true;
      in.registers.push_back(int(r));
    }
    plan.instructions.push_back(std::move(in));
  }
  // Registers that duplicate loaded ones (broadcast register bits) copy them.
  if (!pat->duplicate.empty()) {
    F2Basis dec;
    for (uint32_t x : pat->baseBasis)
      dec.insert(x, 0);
    for (uint32_t el : pat->element)
      dec.insert(el, 0);
    for (size_t i = 0; i < pat->duplicate.size(); ++i)
      dec.insert(pat->duplicate[i], uint64_t(1) << i);
    for (uint64_t r = 0; r < nRegs; ++r) {
      if (loaded[r])
        continue;
      uint64_t combo = 0;
      dec.reduce(r, &combo);
      uint64_t z = 0;
      for (size_t i = 0; i < pat->duplicate.size(); ++i)
        if (combo >> i & 1)
          z ^= pat->duplicate[i];
      if (!loaded.at(r ^ z))
        return makeError("register " + std::to_string(r) + " copies an unloaded register");
      plan.copies.push_back({int(r), int(r ^ z)});
    }
  }
  return std::optional<MatrixTileLoadPlan>(std::move(plan));
}

Expected<std::optional<std::vector<llvm::Value *>>>
emitMatrixTileLoad(llvm::IRBuilder<> &b, const LinearLayout &dist, const LinearLayout &shared,
                   llvm::Value *base, llvm::Value *thread, llvm::Type *elemTy, uint64_t viewXor) {
  int e = int(elemTy->getPrimitiveSizeInBits());
  // A row of ldmatrix is 16 contiguous bytes of 8-, 16- or 32-bit elements (a pointer's size in
  // bits reads as 0); XOR below that would reorder it.
  if ((e != 8 && e != 16 && e != 32) || (viewXor & uint64_t(128 / e - 1)))
    return std::optional<std::vector<llvm::Value *>>();
  LL_ASSIGN_OR_RETURN(auto plan, planMatrixTileLoad(dist, shared, e));
  if (!plan)
    return std::optional<std::vector<llvm::Value *>>();
  LL_ASSIGN_OR_RETURN(LayoutIndexer ix, LayoutIndexer::create(plan->address));
  IndexEmitter em(ix, b, thread, nullptr);
  std::vector<llvm::Value *> out(dist.inDimSize(DimName::reg()), nullptr);
  const int per = plan->perWord;
  for (const auto &in : plan->instructions) {
    SplitOffset so = em.scaledWithConstant(0, in.offsetConst ^ viewXor, e / 8);
    llvm::Value *addr = sharedAddress(b, base, so.variable, so.constant);
    int words = int(in.registers.size()) / per;
    std::vector<llvm::Value *> got = emitLdmatrix(b, addr, words, plan->trans);
    for (int w = 0; w < words; ++w)
      for (int h = 0; h < per; ++h)
        out.at(size_t(in.registers[size_t(w * per + h)])) =
            unpack(b, got[size_t(w)], h, per, elemTy);
  }
  for (const auto &c : plan->copies)
    out.at(size_t(c[0])) = out.at(size_t(c[1]));
  for (llvm::Value *v : out)
    if (!v)
      return makeError("the ldmatrix plan leaves a register unset");
  return std::optional<std::vector<llvm::Value *>>(std::move(out));
}

} // namespace linlayout::lower
