// ttg.convert_layout: the op's ConversionPlan, emitted step by step (ConversionEmitter.h).
#include "ConversionEmitter.h"
#include "InlinePtx.h"
#include "OpLowering.h"

namespace linlayout::lower {

namespace {

// "shared_memory: 4 st.shared.v4, 4 ldmatrix, 2 bar.sync" (the plan's counts, per warp).
std::string describePlan(const ConversionPlan &plan) {
  const ConversionCost &c = plan.cost;
  std::string s = conversionPathIdentifier(plan.path);
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
  add(c.barriers, "bar.sync");
  return s;
}

} // namespace

Status lowerConvertLayout(LoweringContext &ctx, const ir::Op &op) {
  const Lowered &src = ctx.get(op.operands[0]);
  auto it = ctx.plans().conversions.find(&op);
  assert(it != ctx.plans().conversions.end() && "convert_layout without a plan");
  const ConversionPlan &plan = it->second;
  ConversionEnv env;
  env.thread = ctx.thread();
  env.block = ctx.blockInCluster();
  env.target = ctx.target();
  bool shared = plan.path == ConversionPath::SharedMemory ||
                plan.path == ConversionPath::DistributedSharedMemory;
  if (shared) {
    auto off = ctx.plans().sharedOffset.find(&op);
    assert(off != ctx.plans().sharedOffset.end() && "shared conversion without scratch");
    env.scratch = ctx.sharedAt(off->second);
  }
  std::string tag;
  if (ctx.plans().annotate) {
    tag = "convert_layout at " + ctx.where(op);
    tag.resize(tag.size() - 2); // the ": " of where()
    emitInlinePtx(ctx.b(), "// begin " + tag + ": " + describePlan(plan), {}, {}, {});
  }
  auto out = emitConversion(ctx.b(), env, plan, src.regs);
  if (out.ok() && ctx.plans().annotate)
    emitInlinePtx(ctx.b(), "// end " + tag, {}, {}, {});
  if (!out.ok())
    return makeError(ctx.where(op) + "ttg.convert_layout: " + out.message());
  if (shared) {
    // The plan's own barriers order its stores and loads; its loads may still be in flight.
    ctx.barrierEmitted();
    ctx.afterSharedRead();
  }
  return ctx.setRegs(op.results[0], std::move(out).value());
}

} // namespace linlayout::lower
