// Thread-block clusters (sm_90): ttng.cluster_cta_id reads %cluster_ctarank; ttng.cluster_arrive
// and ttng.cluster_wait are the two halves of barrier.cluster (every thread of every CTA of the
// cluster arrives; a wait returns once all have); ttng.fence_mbarrier_init_release_cluster makes
// the issuing thread's mbarrier inits visible to the cluster before its next cluster arrive.
// Outside a cluster launch the hardware runs each CTA as a cluster of one, so they lower alike.
#include "InlinePtx.h"
#include "IssuingThread.h"
#include "LlvmShim.h"
#include "Mbarrier.h"
#include "OpLowering.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

namespace linlayout::lower {

namespace {

Status needsClusters(LoweringContext &ctx, const ir::Op &op) {
  if (!ctx.target().hasSm90Features())
    return makeError(ctx.where(op) + std::string(ir::mnemonic(op.kind)) +
                     ": clusters need sm_90, the target is " + ctx.target().name());
  return Status::success();
}

} // namespace

Status lowerClusterCtaId(LoweringContext &ctx, const ir::Op &op) {
  LL_TRY_STATUS(needsClusters(ctx, op));
  llvm::Value *v = ctx.b().CreateCall(
      shim::intrinsic(ctx.kernel().module(), llvm::Intrinsic::nvvm_read_ptx_sreg_cluster_ctarank));
  return ctx.setRegs(op.results[0], {v});
}

Status lowerClusterSync(LoweringContext &ctx, const ir::Op &op) {
  LL_TRY_STATUS(needsClusters(ctx, op));
  auto &b = ctx.b();
  switch (op.kind) {
  case ir::OpKind::ClusterArrive:
    // .aligned: every thread of the warp executes it, as the op's place outside partitions
    // guarantees.
    emitInlinePtx(b,
                  op.attrs.relaxed ? "barrier.cluster.arrive.relaxed.aligned;"
                                   : "barrier.cluster.arrive.aligned;",
                  {}, {}, {});
    break;
  case ir::OpKind::ClusterWait:
    emitInlinePtx(b, "barrier.cluster.wait.aligned;", {}, {}, {});
    break;
  default:
    // The thread that initialised the barriers (the issuing thread, as init_barrier's) fences
    // them.
    inIssuingThread(ctx, nullptr, [&] { emitMbarrierInitFence(b); });
    break;
  }
  return Status::success();
}

} // namespace linlayout::lower
