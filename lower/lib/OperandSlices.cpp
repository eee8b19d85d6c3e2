#include "OperandSlices.h"

#include "Mma.h"

#include "OpLowering.h"
#include "SharedView.h"

#include "linlayout/ir/Rewrite.h"

#include <algorithm>
#include <functional>
#include <map>

namespace linlayout::lower {

std::pair<uint64_t, uint64_t> rowCol(const LinearLayout &l, uint64_t packed) {
  return {l.outValue(packed, 0), l.outValue(packed, 1)};
}

uint64_t regOutput(const LinearLayout &l, uint64_t r) {
  return l.apply(r << l.inDimOffset(l.inDimIndex(DimName::reg())));
}

std::pair<uint64_t, uint64_t> step(const LinearLayout &l, DimName d, int i) {
  int di = l.inDimIndex(d);
  if (di < 0 || i >= l.inDimBits(di))
    return {0, 0};
  return rowCol(l, l.column(l.inDimOffset(di) + i));
}

namespace {

// Whether `op`, standing between a sliced local_load and its dot, leaves the move of the load's
// later slices to the dot alone: it reads shared memory at most, or writes it through async
// copies, uses no scratch and does not synchronise (FunctionLowering.cpp's LoopModel leaves
// the bookkeeping as it is, or only adds reads).
bool mayStandBetween(const ir::Op &op, const OpPlans &plans) {
  if (plans.scratch.count(&op) || !op.regions.empty())
    return false;
  switch (op.kind) {
  case ir::OpKind::LocalLoad:
  case ir::OpKind::MemDescIndex:
  case ir::OpKind::MemDescSubslice:
  case ir::OpKind::MemDescTrans:
  case ir::OpKind::AsyncCopyGlobalToLocal:
  case ir::OpKind::AsyncCommitGroup:
  case ir::OpKind::Dot:
  case ir::OpKind::ConvertLayout: // without scratch: in registers
  case ir::OpKind::Reduce:
  case ir::OpKind::Scan:
    return true;
  default:
    // The rest by category (leavesSharedMemoryAlone): register-only ops and global accesses may
    // stand between; a new shared-memory, compute or sync op stays out until it is listed above.
    return leavesSharedMemoryAlone(ir::category(op.kind));
  }
}

// The K of `dot`'s operand slices when its K spans several: one mma.sync's K, or the K that a
// dot-operand layout's lanes span when its kWidth goes past one word's elements (LowerDot.cpp
// permutes K within that span), else 0.
int64_t mmaKStep(const ir::Module &m, const ir::Function &f, const ir::Op &dot) {
  const auto *mma = m.layoutOf(f.type(dot.operands[2])).as<NvidiaMmaSpec>();
  if (!mma || !mma->isAmpere() || mma->rank() != 2)
    return 0;
  const ir::Type &at = f.type(dot.operands[0]);
  ir::ScalarKind k = at.elem().scalar;
  if (!mmaShapeFor(k))
    return 0;
  int64_t kStep = mmaK(ir::byteWidth(k));
  for (int i = 0; i < 2; ++i)
    if (const auto *d = m.layoutOf(f.type(dot.operands[size_t(i)])).as<DotOperandSpec>())
      kStep = std::max<int64_t>(kStep, 4 * int64_t(d->kWidth()));
  return at.rank() == 2 && at.shape()[1] > kStep && at.shape()[1] % kStep == 0 ? kStep : 0;
}

} // namespace

std::map<const ir::Op *, SlicedLoad> planSlicedLoads(const ir::Module &m, const ir::Function &f,
                                                     const OpPlans &plans) {
  std::map<const ir::Op *, SlicedLoad> sliced;
  const std::vector<int> uses = ir::countUses(f);
  std::function<void(const ir::Block &)> visit = [&](const ir::Block &block) {
    for (size_t i = 0; i < block.ops.size(); ++i) {
      const ir::Op &load = block.ops[i];
      for (const ir::Block &r : load.regions)
        visit(r);
      if (load.kind != ir::OpKind::LocalLoad || uses[load.results[0]] != 1)
        continue;
      const ir::ValueId v = load.results[0];
      for (size_t j = i + 1; j < block.ops.size(); ++j) {
        const ir::Op &op = block.ops[j];
        if (std::find(op.operands.begin(), op.operands.end(), v) != op.operands.end()) {
          int64_t kStep =
              op.kind == ir::OpKind::Dot && op.operands[2] != v ? mmaKStep(m, f, op) : 0;
          if (kStep)
            sliced[&load] = {op.operands[0] == v ? 0 : 1, kStep, &op};
          break;
        }
        if (!mayStandBetween(op, plans))
          break;
      }
    }
  };
  visit(f.body);
  return sliced;
}

Expected<OperandSlices> OperandSlices::plan(LoweringContext &ctx, const ir::Op &load,
                                            const SlicedLoad &how) {
  OperandSlices p;
  p.load_ = &load;
  p.kDim_ = how.operand == 0 ? 1 : 0;
  p.kStep_ = how.kStep;
  const ir::Type &t = ctx.function().type(load.results[0]);
  LL_ASSIGN_OR_RETURN(LinearLayout full, ctx.layoutOf(t));
  p.elemTy_ = ctx.elementType(t);
  std::vector<int64_t> shape = t.shape();
  int64_t k = shape[size_t(p.kDim_)];
  shape[size_t(p.kDim_)] = how.kStep;
  LL_ASSIGN_OR_RETURN(p.slice_, ctx.layoutOf(ir::Type::tensor(shape, t.elem(), t.layout())));
  p.sliceOf_.assign(full.inDimSize(DimName::reg()), {0, -1});
  bool maps = k % how.kStep == 0;
  for (DimName d : {DimName::lane(), DimName::warp(), DimName::block()})
    for (int i = 0; i < std::max(full.inDimBits(d), p.slice_.inDimBits(d)); ++i)
      maps = maps && step(full, d, i) == step(p.slice_, d, i);
  std::map<std::pair<uint64_t, uint64_t>, int> sliceReg;
  for (uint64_t r = 0; maps && r < p.slice_.inDimSize(DimName::reg()); ++r)
    sliceReg.emplace(rowCol(p.slice_, regOutput(p.slice_, r)), int(r));
  for (uint64_t r = 0; maps && r < p.sliceOf_.size(); ++r) {
    auto rc = rowCol(full, regOutput(full, r));
    uint64_t &kk = p.kDim_ == 0 ? rc.first : rc.second;
    int s = int(kk / uint64_t(how.kStep));
    kk %= uint64_t(how.kStep);
    auto it = sliceReg.find(rc);
    maps = it != sliceReg.end();
    if (maps)
      p.sliceOf_[r] = {s, it->second};
  }
  if (!maps) { // one slice: the whole operand
    p.slice_ = std::move(full);
    p.kStep_ = k;
    for (size_t r = 0; r < p.sliceOf_.size(); ++r)
      p.sliceOf_[r] = {0, int(r)};
  }
  p.count_ = k / p.kStep_;
  return p;
}

Status OperandSlices::load(LoweringContext &ctx, int64_t s,
                           std::vector<llvm::Value *> &regs) const {
  Lowered buf = ctx.get(load_->operands[0]);
  std::vector<int64_t> origin(2, 0);
  origin[size_t(kDim_)] = s * kStep_;
  LL_ASSIGN_OR_RETURN(uint64_t at, viewOrigin(buf.layout, origin));
  buf.viewXor ^= at; // the slice is a view of the tile (SharedView.h)
  LL_ASSIGN_OR_RETURN(std::vector<llvm::Value *> got, loadSharedTile(ctx, buf, slice_, elemTy_));
  regs.resize(sliceOf_.size(), nullptr);
  for (size_t r = 0; r < sliceOf_.size(); ++r)
    if (sliceOf_[r].first == s)
      regs[r] = got.at(size_t(sliceOf_[r].second));
  return Status::success();
}

} // namespace linlayout::lower
