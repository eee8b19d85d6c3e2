// Dispatch over every op kind, and the structure ops (scf.for, scf.if, scf.yield, tt.return).
#include "OpLowering.h"
#include "PackedHalves.h"
#include "SharedAccess.h"

#include "linlayout/ir/Walk.h"

#include <llvm/IR/Instructions.h>

#include <array>
#include <initializer_list>
#include <map>

namespace linlayout::lower {

namespace {

// How lowerFor enters a loop with some hazards pending: the hazards at its head (and so after it,
// as the exit leaves from the head), those at the end of its body, whether a bar.sync goes before
// it, and the bar.syncs one iteration of its body places.
struct LoopEntry {
  SharedHazards atHead;
  SharedHazards atEnd;
  bool barrierFirst = false;
  int bodyBarriers = 0;
};

// The barrier placement's model of a loop: each op's declared effects (SharedDeclaration.h)
// replayed in order, both branches of an if joined, a nested loop entered as lowerFor enters it.
// Entering a loop replays its body a few times, for each loop around it too; the entries are
// memoized per body and entry state, so that a deep nest costs polynomial time, not exponential.
class LoopModel {
public:
  explicit LoopModel(const OpPlans &plans) : plans_(plans) {}

  // The hazards pending after `block` when `h` are pending before it; counts in `*barriers`
  // (when given) the bar.syncs the pending accesses decide, nested loops' ones for one iteration.
  SharedHazards after(const ir::Block &block, SharedHazards h, int *barriers = nullptr) {
    for (const ir::Op &op : block.ops) {
      if (op.kind == ir::OpKind::If) {
        // Either branch may run: what either leaves pending.
        SharedHazards other = after(op.regions.at(1), h, barriers);
        h = after(op.regions.at(0), h, barriers);
        h.join(other);
        continue;
      }
      if (op.kind == ir::OpKind::For) {
        const LoopEntry &e = enter(op.regions.at(0), h);
        if (barriers)
          *barriers += int(e.barrierFirst) + e.bodyBarriers;
        h = e.atHead;
        continue;
      }
      sharedEffects(op, plans_).applyTo(h, barriers);
    }
    return h;
  }

  // How a loop over `body` is entered with `entry` pending. Accesses before the loop that are
  // still pending may cost a barrier in every iteration (the body's code is the same for all);
  // where they would, one bar.sync before the loop is cheaper.
  const LoopEntry &enter(const ir::Block &body, const SharedHazards &entry) {
    std::vector<std::pair<SharedHazards, LoopEntry>> &seen = entries_[&body];
    for (const auto &[from, e] : seen)
      if (from == entry)
        return e;
    LoopEntry e = fixedPoint(body, entry);
    if (!entry.empty()) {
      LoopEntry clean = fixedPoint(body, {});
      if (clean.bodyBarriers < e.bodyBarriers) {
        e = std::move(clean);
        e.barrierFirst = true;
      }
    }
    // Replaying the body added entries of nested bodies only: `seen` is this body's still.
    seen.emplace_back(entry, std::move(e));
    return seen.back().second;
  }

private:
  // The loop over `body` entered with `entry` pending, without a barrier before it. Its head's
  // hazards are what is pending on entry or at the end of an iteration, the least fixed point (so
  // that a body that ends with an async_wait and only reads after it, as the prefetch pass's loops
  // do, needs no barrier before its first read); the last replay gives the body's end and its
  // barriers. The ranges come from the kernel's ops, so the join converges; the bound is a guard.
  LoopEntry fixedPoint(const ir::Block &body, const SharedHazards &entry) {
    LoopEntry e;
    e.atHead = entry;
    for (int i = 0; i < 64; ++i) {
      int barriers = 0;
      SharedHazards end = after(body, e.atHead, &barriers);
      SharedHazards next = end;
      next.join(entry);
      if (next == e.atHead) {
        e.atEnd = std::move(end);
        e.bodyBarriers = barriers;
        return e;
      }
      e.atHead = std::move(next);
    }
    e.atHead.addRead(ByteRange::everything());
    e.atHead.addWrite(ByteRange::everything());
    e.atEnd = after(body, e.atHead, &e.bodyBarriers);
    return e;
  }

  const OpPlans &plans_;
  std::map<const ir::Block *, std::vector<std::pair<SharedHazards, LoopEntry>>> entries_;
};

Status lowerFor(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  const ir::Block &body = op.regions.at(0);
  llvm::Value *lb = ctx.get(op.operands[0]).regs[0];
  llvm::Value *ub = ctx.get(op.operands[1]).regs[0];
  llvm::Value *step = ctx.get(op.operands[2]).regs[0];
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  llvm::BasicBlock *pre = b.GetInsertBlock();
  llvm::BasicBlock *head = llvm::BasicBlock::Create(b.getContext(), "for.head", fn);
  llvm::BasicBlock *loop = llvm::BasicBlock::Create(b.getContext(), "for.body", fn);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(b.getContext(), "for.exit", fn);
  // One phi per register of every loop-carried value; 16-bit registers travel in pairs and bytes
  // in fours as one 32-bit word (PackedHalves.h), so ptxas keeps them in one register across the
  // back edge.
  std::vector<std::vector<llvm::Value *>> carried;
  for (size_t i = 3; i < op.operands.size(); ++i)
    carried.push_back(packSubwords(b, ctx.get(op.operands[i]).regs));
  // The exit leaves from the head, so the state after the loop is the head's.
  const LoopEntry entry = LoopModel(ctx.plans()).enter(body, ctx.hazards());
  if (entry.barrierFirst) {
    emitBarrier(b);
    ctx.barrierEmitted();
  }
  const SharedHazards &atHead = entry.atHead;
  b.CreateBr(head);

  b.SetInsertPoint(head);
  llvm::PHINode *iv = b.CreatePHI(lb->getType(), 2, "iv");
  iv->addIncoming(lb, pre);
  std::vector<std::vector<llvm::PHINode *>> phis;
  for (const std::vector<llvm::Value *> &init : carried) {
    std::vector<llvm::PHINode *> regs;
    for (llvm::Value *v : init) {
      llvm::PHINode *p = b.CreatePHI(v->getType(), 2);
      p->addIncoming(v, pre);
      regs.push_back(p);
    }
    phis.push_back(regs);
  }
  // The registers of each carried value, unpacked once in the header (it dominates the body and
  // the exit).
  std::vector<std::vector<llvm::Value *>> values;
  for (size_t k = 0; k < phis.size(); ++k) {
    const Lowered &init = ctx.get(op.operands[3 + k]);
    std::vector<llvm::Value *> words(phis[k].begin(), phis[k].end());
    values.push_back(unpackSubwords(b, words, init.regs));
  }
  b.CreateCondBr(b.CreateICmpSLT(iv, ub), loop, exit);

  auto lowered = [&](size_t k) {
    Lowered l;
    const Lowered &init = ctx.get(op.operands[3 + k]);
    l.layout = init.layout;
    l.sharedOffset = init.sharedOffset;
    l.regs = values[k];
    return l;
  };
  b.SetInsertPoint(loop);
  {
    Lowered l;
    l.regs = {iv};
    ctx.set(body.args.at(0), l);
  }
  for (size_t k = 0; k < phis.size(); ++k)
    ctx.set(body.args.at(1 + k), lowered(k));
  ctx.setHazards(atHead);
  LL_TRY_STATUS(lowerBlock(ctx, body));
  // The head's state rests on the model above. The lowering can still leave more pending than
  // the model says: an op may leave less pending than its family declares, and with less pending
  // a later op (or a nested loop's entry) can decide on fewer barriers, which then clear less.
  // A bar.sync at the end of such a body keeps the head's state true on the back edge.
  if (!entry.atEnd.covers(ctx.hazards())) {
    emitBarrier(b);
    ctx.barrierEmitted();
  }
  const ir::Op &yield = body.ops.back();
  llvm::BasicBlock *latch = b.GetInsertBlock();
  for (size_t k = 0; k < phis.size(); ++k) {
    std::vector<llvm::Value *> next = packSubwords(b, ctx.get(yield.operands[k]).regs);
    for (size_t r = 0; r < phis[k].size(); ++r)
      phis[k][r]->addIncoming(next[r], latch);
  }
  iv->addIncoming(b.CreateAdd(iv, step), latch);
  b.CreateBr(head);

  b.SetInsertPoint(exit);
  for (size_t k = 0; k < phis.size(); ++k)
    ctx.set(op.results[k], lowered(k));
  ctx.setHazards(atHead);
  return Status::success();
}

// Branches on the condition (the same in every thread, as every scalar is, so barriers in a
// branch are met by the whole CTA); each result is one phi per register, 16-bit registers in
// pairs and bytes in fours as for loops. Each branch starts from the hazards pending before the if;
// after it, what either branch leaves is pending.
Status lowerIf(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  llvm::Value *cond = ctx.get(op.operands[0]).regs.at(0);
  if (!cond->getType()->isIntegerTy(1))
    cond = b.CreateICmpNE(cond, llvm::ConstantInt::get(cond->getType(), 0));
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  llvm::BasicBlock *branchStart[2] = {llvm::BasicBlock::Create(b.getContext(), "if.then", fn),
                                      llvm::BasicBlock::Create(b.getContext(), "if.else", fn)};
  llvm::BasicBlock *merge = llvm::BasicBlock::Create(b.getContext(), "if.end", fn);
  b.CreateCondBr(cond, branchStart[0], branchStart[1]);
  const SharedHazards entry = ctx.hazards();
  SharedHazards after;
  std::vector<std::vector<llvm::Value *>> words[2];
  llvm::BasicBlock *branchEnd[2];
  for (int k = 0; k < 2; ++k) {
    const ir::Block &branch = op.regions.at(size_t(k));
    b.SetInsertPoint(branchStart[k]);
    ctx.setHazards(entry);
    LL_TRY_STATUS(lowerBlock(ctx, branch));
    const ir::Op &yield = branch.ops.back();
    for (ir::ValueId v : yield.operands)
      words[k].push_back(packSubwords(b, ctx.get(v).regs));
    branchEnd[k] = b.GetInsertBlock();
    b.CreateBr(merge);
    if (k == 0)
      after = ctx.hazards();
    else
      after.join(ctx.hazards());
  }
  b.SetInsertPoint(merge);
  // Every phi first (they lead the block), then the unpacking.
  std::vector<std::vector<llvm::Value *>> merged(op.results.size());
  for (size_t i = 0; i < op.results.size(); ++i)
    for (size_t r = 0; r < words[0][i].size(); ++r) {
      llvm::PHINode *phi = b.CreatePHI(words[0][i][r]->getType(), 2);
      phi->addIncoming(words[0][i][r], branchEnd[0]);
      phi->addIncoming(words[1][i][r], branchEnd[1]);
      merged[i].push_back(phi);
    }
  const ir::Op &thenYield = op.regions[0].ops.back();
  for (size_t i = 0; i < op.results.size(); ++i) {
    const Lowered &like = ctx.get(thenYield.operands[i]);
    Lowered l;
    l.layout = like.layout;
    l.regs = unpackSubwords(b, merged[i], like.regs);
    ctx.set(op.results[i], std::move(l));
  }
  ctx.setHazards(after);
  return Status::success();
}

} // namespace

SharedEffects structureEffects(const ir::Op &op, const OpPlans &) {
  if (op.kind == ir::OpKind::For || op.kind == ir::OpKind::If)
    return SharedEffects().anything();
  return {}; // yields and returns: read by their loop, branch or combiner
}

bool leavesSharedMemoryAlone(ir::OpCategory c) {
  switch (c) {
  case ir::OpCategory::Source:
  case ir::OpCategory::Shape:
  case ir::OpCategory::BinaryInt:
  case ir::OpCategory::BinaryFloat:
  case ir::OpCategory::UnaryFloat:
  case ir::OpCategory::Compare:
  case ir::OpCategory::Select:
  case ir::OpCategory::Cast:
  case ir::OpCategory::Memory:
    return true;
  case ir::OpCategory::Structure:
  case ir::OpCategory::Layout:
  case ir::OpCategory::Shared:
  case ir::OpCategory::Compute:
  case ir::OpCategory::Sync:
    return false;
  }
  return false;
}

namespace {

// Per op kind, the function that lowers it: the elementwise categories share lowerElementwise,
// the others are listed. A kind without one fails the static_assert below.
using LowerOpFn = Status (*)(LoweringContext &ctx, const ir::Op &op);
constexpr std::array<LowerOpFn, ir::kNumOpKinds> kLowerOp = [] {
  std::array<LowerOpFn, ir::kNumOpKinds> t{};
  using K = ir::OpKind;
  for (size_t k = 0; k < t.size(); ++k)
    if (ir::isElementwise(K(k)))
      t[k] = lowerElementwise;
  auto set = [&](std::initializer_list<K> kinds, LowerOpFn fn) {
    for (K k : kinds)
      t[size_t(k)] = fn;
  };
  // The kernel's ret is added at the end; yields are read by their loop or combiner.
  set({K::Return, K::Yield, K::CombineReturn},
      [](LoweringContext &, const ir::Op &) { return Status::success(); });
  set({K::For}, lowerFor);
  set({K::If}, lowerIf);
  set({K::Constant}, lowerConstant);
  set({K::ProgramId}, lowerProgramId);
  set({K::NumPrograms}, lowerNumPrograms);
  set({K::MakeRange}, lowerMakeRange);
  set({K::Splat, K::Broadcast, K::ExpandDims, K::Reshape, K::Trans}, lowerShape);
  set({K::Join, K::Split}, lowerJoinSplit);
  set({K::FpToFp}, lowerFpToFp);
  set({K::Load, K::Store, K::AtomicRMW, K::AtomicCAS}, lowerMemory);
  set({K::ConvertLayout}, lowerConvertLayout);
  set({K::LocalAlloc}, lowerLocalAlloc);
  set({K::LocalStore}, lowerLocalStore);
  set({K::LocalLoad}, lowerLocalLoad);
  set({K::LocalDealloc}, lowerLocalDealloc);
  set({K::MemDescIndex}, lowerMemDescIndex);
  set({K::MemDescSubslice}, lowerMemDescSubslice);
  set({K::MemDescTrans}, lowerMemDescTrans);
  set({K::AsyncCopyGlobalToLocal}, lowerAsyncCopyGlobalToLocal);
  set({K::AsyncCommitGroup}, lowerAsyncCommitGroup);
  set({K::AsyncWait}, lowerAsyncWait);
  set({K::Barrier}, lowerBarrier);
  set({K::Dot}, lowerDot);
  set({K::Scan}, lowerScan);
  set({K::Reduce}, lowerReduce);
  set({K::WarpGroupDot}, lowerWarpGroupDot);
  set({K::WarpGroupDotWait}, lowerWarpGroupDotWait);
  set({K::FenceAsyncShared}, lowerFenceAsyncShared);
  set({K::AsyncTmaCopyGlobalToLocal}, lowerTmaLoad);
  set({K::AsyncTmaCopyLocalToGlobal}, lowerTmaStore);
  set({K::AsyncTmaStoreWait}, lowerTmaStoreWait);
  set({K::InitBarrier}, lowerInitBarrier);
  set({K::InvalBarrier}, lowerInvalBarrier);
  set({K::BarrierExpect}, lowerBarrierExpect);
  set({K::WaitBarrier}, lowerWaitBarrier);
  set({K::ArriveBarrier}, lowerArriveBarrier);
  set({K::ClusterCtaId}, lowerClusterCtaId);
  set({K::ClusterArrive, K::ClusterWait, K::FenceMbarrierInitCluster}, lowerClusterSync);
  set({K::WarpSpecialize}, lowerWarpSpecialize);
  set({K::WarpYield, K::WarpReturn},
      [](LoweringContext &, const ir::Op &) { return Status::success(); });
  return t;
}();
constexpr bool everyOpLowered() {
  for (LowerOpFn fn : kLowerOp)
    if (!fn)
      return false;
  return true;
}
static_assert(everyOpLowered(), "an op kind has no entry in kLowerOp");

} // namespace

Status lowerBlock(LoweringContext &ctx, const ir::Block &block) {
  for (size_t i = 0; i < block.ops.size(); ++i) {
    const ir::Op &op = block.ops[i];
    // What the op's family declares it does to shared memory, for the check after it.
    SharedHazards declared = ctx.hazards();
    sharedEffects(op, ctx.plans()).applyTo(declared);
    ctx.setFollowing(std::span(block.ops).subspan(i + 1));
    LL_TRY_STATUS(kLowerOp[size_t(op.kind)](ctx, op));
    // The barrier placement of loops trusts the declarations: a lowering that leaves more
    // pending than its family declares would lose barriers there.
    if (!declared.covers(ctx.hazards()))
      return makeError(ctx.where(op) + std::string(ir::mnemonic(op.kind)) +
                       ": internal error: the lowering leaves shared-memory accesses pending "
                       "that its family's declaration (SharedDeclaration.h) does not");
  }
  return Status::success();
}

} // namespace linlayout::lower
