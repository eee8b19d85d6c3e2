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

Expected<std::optional<std::vector<llvm::Value *>>>
emitMatrixTileLoad(llvm::IRBuilder<> &b, const LinearLayout &dist, const LinearLayout &shared,
                   llvm::Value *base, llvm::Value *thread, llvm::Type *elemTy,
                   MatrixTileLoadCounts *counts) {
  int e = int(elemTy->getPrimitiveSizeInBits());
  auto pat = ir::matrixLoadPattern(dist, shared, e);
  if (!pat)
    return std::optional<std::vector<llvm::Value *>>();
  const bool trans = pat->op == SharedOp::LdMatrixTrans;
  const int m = shared.inDimBits(DimName::offset());
  // Lane addresses: (lane, warp) -> offset.
  std::vector<InDimColumns> ins{{DimName::lane(), {}}, {DimName::warp(), {}}};
  for (uint64_t x : pat->addressLaneMap)
    ins[0].columns.push_back(x & lowBits(m));
  for (uint64_t x : pat->warpMap)
    ins[1].columns.push_back(x & lowBits(m));
  std::vector<DimSize> outs{{DimName::offset(), uint64_t(1) << m}};
  LL_ASSIGN_OR_RETURN(LinearLayout address, layoutFromColumns(ins, outs));
  LL_ASSIGN_OR_RETURN(LayoutIndexer ix, LayoutIndexer::create(address));
  IndexEmitter em(ix, b, thread, nullptr);

  size_t nRegs = dist.inDimSize(DimName::reg());
  std::vector<llvm::Value *> out(nRegs, nullptr);
  // .trans moves 16-bit elements, two per word; otherwise a word holds 32 / e elements.
  const int per = trans ? 2 : 32 / e;
  int nb = int(pat->baseBasis.size());
  int emitted = 0;
  for (uint64_t c = 0; c < (uint64_t(1) << nb); ++c) {
    uint32_t first = 0;
    for (int i = 0; i < nb; ++i)
      if (c >> i & 1)
        first ^= pat->baseBasis[i];
    uint64_t offsetConst = f2Apply(pat->regMap, first) & lowBits(m);
    SplitOffset so = em.scaledWithConstant(0, offsetConst, e / 8);
    llvm::Value *addr = sharedAddress(b, base, so.variable, so.constant);
    int words = int(pat->element.size()) / per;
    std::vector<llvm::Value *> got = emitLdmatrix(b, addr, words, trans);
    ++emitted;
    for (int w = 0; w < words; ++w)
      for (int h = 0; h < per; ++h)
        out.at(first ^ pat->element[size_t(w * per + h)]) = unpack(b, got[size_t(w)], h, per, elemTy);
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
      if (out[r])
        continue;
      uint64_t combo = 0;
      dec.reduce(r, &combo);
      uint64_t z = 0;
      for (size_t i = 0; i < pat->duplicate.size(); ++i)
        if (combo >> i & 1)
          z ^= pat->duplicate[i];
      out[r] = out.at(r ^ z);
    }
  }
  for (llvm::Value *v : out)
    if (!v)
      return makeError("the ldmatrix pattern leaves a register unset");
  if (counts) {
    counts->ldmatrix = emitted;
    counts->trans = trans;
  }
  return std::optional<std::vector<llvm::Value *>>(std::move(out));
}

} // namespace linlayout::lower
