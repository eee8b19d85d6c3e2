// ttg.warp_specialize on sm_90a: the regions become branches of one kernel by warp (WarpGroups.h
// places them). Each warp group first sets its register budget (setmaxnreg, the same
// instruction for its four warps), then each warp branches to its region. A region's code sees
// its own thread ids (from its first warp), so layouts index its warps from 0 and the thread that
// issues TMA copies and mbarrier arrives is a lane of its first warp (IssuingThread.h).
// The barriers the lowering places in a region synchronise that region's warps only: its bar.sync 0
// becomes `barrier.sync id, threads` with id 1 for the default region and 2 + i for partition i.
// All warps meet at the CTA barrier (id 0, every thread) at the end, which no region's barrier
// shares; then the partitions' warps leave and the default region's go on with what follows
// the op. That barrier is met at two places (the default region's end and the partitions'
// exit), so it is the unaligned `barrier.sync 0`: the aligned bar.sync requires every thread of
// the CTA to execute the same instruction, and compute-sanitizer's synccheck reports the aligned
// form met at two places as divergent.
#include "InlinePtx.h"
#include "LlvmShim.h"
#include "OpLowering.h"
#include "SharedAccess.h"
#include "WarpGroups.h"
#include "linlayout/ir/Walk.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <string>

namespace linlayout::lower {

namespace {

// Whether a warp_specialize was lowered before in this function (its scope is still set).
bool afterWarpSpecialize(llvm::IRBuilder<> &b) {
  return b.GetInsertBlock()->getParent()->hasFnAttribute("linlayout-barrier-scope");
}

// The barrier all of the CTA's threads meet at, from different places in the code.
void emitMeetingBarrier(llvm::IRBuilder<> &b) {
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  b.CreateCall(shim::intrinsic(m, llvm::Intrinsic::nvvm_barrier_sync), {b.getInt32(0)});
}

void setMaxRegisters(llvm::IRBuilder<> &b, int now, int budget) {
  if (budget == now)
    return;
  emitInlinePtx(b,
                std::string("setmaxnreg.") + (budget > now ? "inc" : "dec") + ".sync.aligned.u32 " +
                    std::to_string(budget) + ";",
                {}, {}, {});
}

} // namespace

Status lowerWarpSpecialize(LoweringContext &ctx, const ir::Op &op) {
  auto fail = [&](const std::string &m) {
    return makeError(ctx.where(op) + "ttg.warp_specialize: " + m);
  };
  if (!ctx.target().hasSm90Features())
    return fail("warp specialization is lowered for sm_90 and later, the target is " +
                ctx.target().name());
  auto planned = planWarpGroups(ctx.module(), op);
  if (!planned.ok())
    return fail(planned.message());
  const WarpGroupPlan &plan = *planned;
  if (op.regions.size() > 15)
    return fail("more than 14 partitions: named barriers 1..15 run out");
  if (!plan.groupRegisters.empty() && !ctx.target().archSpecific)
    return fail("register budgets (setmaxnreg) need the architecture-specific target sm_90a");
  // The allocator places a region's scratch and buffers by program points, as if the regions ran
  // one after the other (what every region uses stays live to the op's end, so nothing of
  // another region's captures is reused). Regions run at once: a partition's scratch is kept
  // live through the whole op (planSharedMemory), and only the default region may allocate
  // buffers of its own.
  for (size_t r = 1; r < op.regions.size(); ++r) {
    const ir::Op *withBuffer = nullptr;
    ir::walkOps(op.regions[r], [&](const ir::Op &inner) {
      if (!withBuffer && ctx.plans().buffers.count(&inner))
        withBuffer = &inner;
    });
    if (withBuffer)
      return fail(std::string(ir::mnemonic(withBuffer->kind)) + " in partition " +
                  std::to_string(r - 1) +
                  " needs shared memory of its own, which is planned only for the default region "
                  "(regions run at once)");
  }
  KernelBuilder &kb = ctx.kernel();
  if (afterWarpSpecialize(ctx.b()))
    return fail("a function holds one ttg.warp_specialize (after one, only the default region's "
                "warps run)");
  if (kb.spec().threadsPerBlock < plan.totalWarps * 32)
    return fail("internal error: the kernel has fewer warps than the partitions need");
  auto &b = ctx.b();
  llvm::Function *fn = b.GetInsertBlock()->getParent();
  llvm::LLVMContext &lc = b.getContext();
  // Everything before the op is done by every warp: the regions start with nothing pending.
  if (!ctx.hazards().empty())
    emitCtaBarrier(b);
  ctx.setHazards({});
  const KernelBuilder::ThreadIds cta = kb.threadIds();
  llvm::Value *warp = kb.uniformWarpId();
  const size_t regions = op.regions.size();
  std::vector<llvm::BasicBlock *> entry(regions);
  for (size_t r = 0; r < regions; ++r)
    entry[r] = llvm::BasicBlock::Create(
        lc, r == 0 ? "ws.default" : "ws.partition" + std::to_string(r - 1), fn);
  llvm::BasicBlock *leave = llvm::BasicBlock::Create(lc, "ws.leave", fn);
  // Per warp group: its budget, then per warp: its region (a padding warp leaves).
  const int groups = plan.totalWarps / 4 + (plan.totalWarps % 4 != 0);
  llvm::SwitchInst *byGroup =
      b.CreateSwitch(b.CreateLShr(warp, b.getInt32(2)), leave, unsigned(groups));
  for (int g = 0; g < groups; ++g) {
    auto *gb = llvm::BasicBlock::Create(lc, "ws.group" + std::to_string(g), fn);
    byGroup->addCase(b.getInt32(uint32_t(g)), gb);
    b.SetInsertPoint(gb);
    if (!plan.groupRegisters.empty())
      setMaxRegisters(b, kb.spec().maxRegisters, plan.groupRegisters[size_t(g)]);
    llvm::SwitchInst *byWarp = b.CreateSwitch(warp, leave, 4);
    for (int w = g * 4; w < g * 4 + 4 && w < plan.totalWarps; ++w)
      for (size_t r = 0; r < regions; ++r)
        if (w >= plan.start[r] && w < plan.start[r] + plan.warps[r])
          byWarp->addCase(b.getInt32(uint32_t(w)), entry[r]);
  }
  // The partitions, each on its own thread ids, then to the barrier all warps meet at.
  SharedHazards defaultAfter;
  for (size_t r = regions; r-- > 0;) {
    const ir::Block &region = op.regions[r];
    b.SetInsertPoint(entry[r]);
    llvm::Value *base = b.getInt32(uint32_t(plan.start[r] * 32));
    KernelBuilder::ThreadIds own = cta;
    if (plan.start[r] != 0) {
      own.tid = b.CreateSub(cta.tid, base, "ws.tid");
      own.warp = b.CreateLShr(own.tid, b.getInt32(5), "ws.warp");
      own.uniformWarp = b.CreateSub(warp, b.getInt32(uint32_t(plan.start[r])), "ws.uwarp");
    }
    kb.setThreadIds(own);
    for (size_t i = 0; i < region.args.size(); ++i)
      ctx.set(region.args[i], ctx.get(op.operands[i]));
    ctx.setHazards({});
    setBarrierScope(*fn, int(r) + 1, plan.warps[r] * 32);
    Status s = lowerBlock(ctx, region);
    kb.setThreadIds(cta);
    LL_TRY_STATUS(s);
    if (r == 0) {
      defaultAfter = ctx.hazards();
      break; // the default region's code goes on below
    }
    b.CreateBr(leave);
  }
  // The default region's warps: meet the others, then go on (the results are its yields) alone:
  // the barriers of what follows are theirs.
  (void)defaultAfter;
  emitMeetingBarrier(b);
  const ir::Op &yield = op.regions[0].ops.back();
  for (size_t i = 0; i < op.results.size(); ++i)
    ctx.set(op.results[i], ctx.get(yield.operands[i]));
  llvm::BasicBlock *after = llvm::BasicBlock::Create(lc, "ws.after", fn);
  b.CreateBr(after);
  b.SetInsertPoint(leave);
  emitMeetingBarrier(b);
  b.CreateRetVoid();
  b.SetInsertPoint(after);
  ctx.setHazards({});
  setBarrierScope(*fn, 1, plan.warps[0] * 32);
  return Status::success();
}

} // namespace linlayout::lower
