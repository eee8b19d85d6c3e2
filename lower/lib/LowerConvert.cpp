// ttg.convert_layout: the op's ConversionPlan, emitted step by step (ConversionEmitter.h).
#include "ConversionEmitter.h"
#include "ConversionPlanning.h"
#include "InlinePtx.h"
#include "OpLowering.h"
#include "RegisterBudget.h"
#include "SharedBytesTag.h"

#include <optional>

namespace linlayout::lower {

namespace {

// "shared_memory: 4 st.shared.v4, 4 ldmatrix, 1 bar.sync (1 of 2 elided: ...)" (the plan's
// counts, per warp; barriers as emitted, with the plan's where they differ, as --report says).
std::string describePlan(const ConversionPlan &plan, const SharedSyncs *emitted) {
  const ConversionCost &c = plan.cost;
  std::string s(conversionPathName(plan.path));
  std::string sep = ": ";
  auto add = [&](int n, const std::string &what) {
    if (n) {
      s += sep + std::to_string(n) + " " + what;
      sep = ", ";
    }
  };
  add(c.shuffles, "shfl");
  add(c.selects, "selp");
  add(c.prmts, "prmt");
  for (int i = 0; i < 5; ++i) {
    add(c.stores[i], "st.shared (" + std::to_string(8 << i) + "-bit)");
    add(c.loads[i], "ld.shared (" + std::to_string(8 << i) + "-bit)");
  }
  add(c.stmatrix, "stmatrix");
  add(c.ldmatrix, "ldmatrix");
  if (emitted && emitted->barriers < c.barriers) {
    int elided = c.barriers - emitted->barriers;
    s += sep + std::to_string(emitted->barriers) + " bar.sync (" + std::to_string(elided) + " of " +
         std::to_string(c.barriers) +
         (emitted->warpSyncs ? " made bar.warp.sync: only its own warps used the scratch before"
                             : " elided: no earlier use of the scratch is pending") +
         ")";
  } else {
    add(c.barriers, "bar.sync");
  }
  return s;
}

// The source registers a thread's destination, or another lane's, reads: 2^rank of the register
// part of plan.sourceOf (a destination that repeats or drops source registers reads fewer).
int64_t sourceRegistersRead(const ConversionPlan &plan) {
  std::vector<uint64_t> rows; // reduced basis, each with a distinct leading bit
  for (int d = 0; d < plan.sourceOf.numInDims(); ++d)
    for (int i = 0; i < plan.sourceOf.inDimBits(d); ++i) {
      uint64_t v = plan.sourceOf.basis(plan.sourceOf.inDimName(d), i, DimName::reg());
      for (uint64_t r : rows)
        v = std::min(v, v ^ r);
      if (v)
        rows.push_back(v);
    }
  return int64_t(1) << rows.size();
}

// Whether a warp-shuffle conversion goes through shared memory instead, to spill less. Shuffles
// hold every source word a thread reads (a tile loaded from global memory is loaded before the
// first global store, which may alias it) and the words they make at once; through shared memory
// each loaded word is stored as it arrives and each stored one is loaded as it is needed, in one
// round while the scratch holds the tile. So the choice prices the shuffles' peak, read + made
// words, against the thread's register budget. Measured with ptxas 13.0 (sm_90) on every
// shuffle conversion of Triton's matrix, each compiled both ways (docs/performance.md, "Triton's
// conversion test matrix"):
//  - up to 1.5 budgets (382 words at 255 registers) shuffles fit, or shared memory spills no
//    less; past it shared memory spilled less in 12 tiles (e.g. convert2d/6-7/64x64/i64, 256
//    read and 128 made: 32 bytes to none; warp_local/7-13/64x64/i64: 240 to none) and more in one
//    (convert2d/9-10/swizzled2/64x128/f16: none to 32, where its local_load folds into the
//    registers it stored; Triton's kernel 416);
//  - from 4 budgets (1020 words) both paths spill and shuffles less (convert2d/6-10/64x128/i64:
//    200 bytes through shuffles, 1552 through shared memory, which takes two rounds there).
Expected<bool> sharedFitsBetter(FootprintContext &ctx, const ir::Op &op,
                                const ConversionPlan &plan) {
  if (plan.path != ConversionPath::WarpShuffle)
    return false;
  bool alternative = false;
  for (const auto &alt : plan.alternatives)
    alternative |= alt.path == ConversionPath::SharedMemory;
  if (!alternative)
    return false;
  const int64_t read = packedWords(sourceRegistersRead(plan), plan.elementBits);
  LL_ASSIGN_OR_RETURN(int64_t made, tileWords(ctx.layouts, ctx.function.type(op.results[0])));
  const int64_t peak = read + made, budget = registerBudget(int(ctx.module.numWarps) * 32);
  return 2 * peak > 3 * budget && peak < 4 * budget;
}

} // namespace

Expected<std::vector<llvm::Value *>> emitPlannedConversion(LoweringContext &ctx, const ir::Op &op,
                                                           const ConversionPlan &plan,
                                                           const std::vector<llvm::Value *> &src) {
  ConversionEnv env;
  env.thread = ctx.thread();
  env.uniformWarp = [&ctx] { return ctx.kernel().uniformWarpId(); };
  env.block = ctx.blockInCluster();
  env.target = ctx.target();
  auto scratch = ctx.plans().scratch.find(&op);
  bool shared = scratch != ctx.plans().scratch.end();
  // A scratch whose every byte one warp stores and loads: its accesses are owned by this op.
  bool inWarps = ctx.plans().warpScratch.count(&op) > 0;
  HazardOwner owner = inWarps ? &op : nullptr;
  std::optional<SharedSyncs> syncs;
  if (shared) {
    env.scratch = ctx.sharedAt(scratch->second.begin);
    // The first round's barrier orders the stores after earlier accesses to the same bytes: a
    // bar.sync where other threads made them, a warp sync where this op's own warps did, none
    // where nothing is pending there.
    env.leadingSync = ctx.hazards().beforeWrite(scratch->second, owner);
    env.warpSyncs = inWarps;
    syncs = sharedSyncs(env, plan);
    ctx.noteSyncs(op, *syncs);
  }
  std::string tag;
  if (ctx.plans().annotate) {
    tag = (op.kind == ir::OpKind::ConvertLayout ? std::string("convert_layout")
                                                : std::string(ir::mnemonic(op.kind))) +
          " at " + ctx.where(op);
    tag.resize(tag.size() - 2); // the ": " of where()
    emitInlinePtx(ctx.b(), "// begin " + tag + ": " + describePlan(plan, syncs ? &*syncs : nullptr),
                  {}, {}, {});
  }
  std::optional<SharedBytesTag> scratchTag;
  if (shared)
    scratchTag.emplace(ctx.b(), scratch->second);
  auto out = emitConversion(ctx.b(), env, plan, src);
  scratchTag.reset();
  if (!out.ok())
    return makeError(ctx.where(op) + std::string(ir::mnemonic(op.kind)) + ": " + out.message());
  if (ctx.plans().annotate)
    emitInlinePtx(ctx.b(), "// end " + tag, {}, {}, {});
  if (shared && !inWarps) {
    // The plan's own barriers order its stores and loads; its loads may still be in flight.
    ctx.barrierEmitted();
    ctx.afterSharedRead(scratch->second);
  } else if (shared) {
    // Warp syncs only: every access of the op stays pending, owned by it.
    if (env.leadingSync == SyncNeeded::Cta)
      ctx.barrierEmitted();
    ctx.afterSharedWrite(scratch->second, owner);
    ctx.afterSharedRead(scratch->second, owner);
  }
  return out;
}

Expected<SharedFootprint> planConversion(FootprintContext &ctx, const ir::Op &op,
                                         const LinearLayout &src) {
  const ir::Type &st = ctx.function.type(op.operands[0]);
  const ir::Type &dt = ctx.function.type(op.results[0]);
  LL_ASSIGN_OR_RETURN(LinearLayout dst, ctx.layouts.of(dt));
  auto plan = planLayoutConversion(src, dst, exchangeElementBits(st), ctx.target, ctx.forcedPath,
                                   isMmaOperand(ctx.module.layoutOf(dt)), ctx.padding);
  if (plan.ok() && !ctx.forcedPath && op.kind == ir::OpKind::ConvertLayout) {
    LL_ASSIGN_OR_RETURN(bool viaShared, sharedFitsBetter(ctx, op, *plan));
    if (viaShared) {
      auto shared = planLayoutConversion(src, dst, exchangeElementBits(st), ctx.target,
                                         ConversionPath::SharedMemory,
                                         isMmaOperand(ctx.module.layoutOf(dt)), ctx.padding);
      // Only while the scratch leaves room for the kernel's other buffers.
      if (shared.ok() && shared->shared.scratchBytes <= ctx.target.sharedBytesPerBlock() / 2)
        plan = std::move(shared);
    }
  }
  if (!plan.ok() && ctx.forcedPath)
    return makeError("no " + conversionPathIdentifier(*ctx.forcedPath) +
                     " plan (LowerOptions::conversionPath): " + plan.message());
  if (!plan.ok())
    return makeError("cannot plan this layout conversion: " + plan.message());
  ConversionReport rep;
  rep.where = opLocation(ctx.module, ctx.function, op);
  if (op.kind != ir::OpKind::ConvertLayout)
    rep.where += " (" + std::string(ir::mnemonic(op.kind)) + ")";
  rep.path = conversionPathIdentifier(plan->path);
  const ConversionCost &c = plan->cost;
  rep.shuffles = c.shuffles;
  rep.selects = c.selects;
  rep.prmts = c.prmts;
  for (int i = 0; i < 5; ++i) {
    rep.sharedStores += c.stores[i];
    rep.sharedLoads += c.loads[i];
  }
  rep.stmatrix = c.stmatrix;
  rep.ldmatrix = c.ldmatrix;
  rep.barriers = c.barriers;
  rep.plannedBarriers = c.barriers;
  rep.warpSyncs = c.warpSyncs;
  rep.scratchBytes = plan->shared.scratchBytes;
  for (const PadInterval &pi : plan->shared.padding)
    rep.padding += (rep.padding.empty() ? "" : ", ") + std::to_string(pi.interval) + ":+" +
                   std::to_string(pi.padding);
  ctx.reports.push_back(rep);
  SharedFootprint fp;
  if (plan->path == ConversionPath::SharedMemory ||
      plan->path == ConversionPath::DistributedSharedMemory) {
    assert(plan->shared.scratchBytes > 0 && "a plan through shared memory without scratch");
    fp.scratchBytes = plan->shared.scratchBytes;
  }
  if (plan->shared.withinWarps)
    ctx.plans.warpScratch.insert(&op);
  ctx.plans.reportOps.push_back(&op);
  ctx.plans.conversions.emplace(&op, std::move(plan).value());
  return fp;
}

Expected<SharedFootprint> conversionFootprint(FootprintContext &ctx, const ir::Op &op) {
  LL_ASSIGN_OR_RETURN(LinearLayout src, ctx.layouts.of(ctx.function.type(op.operands[0])));
  return planConversion(ctx, op, src);
}

Status lowerConvertLayout(LoweringContext &ctx, const ir::Op &op) {
  const Lowered &src = ctx.get(op.operands[0]);
  auto it = ctx.plans().conversions.find(&op);
  assert(it != ctx.plans().conversions.end() && "convert_layout without a plan");
  LL_ASSIGN_OR_RETURN(std::vector<llvm::Value *> out,
                      emitPlannedConversion(ctx, op, it->second, src.regs));
  return ctx.setRegs(op.results[0], std::move(out));
}

} // namespace linlayout::lower
