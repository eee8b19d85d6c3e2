// Ops whose results come from attributes and hardware ids.
#include "LayoutIndex.h"
#include "LlvmShim.h"
#include "OpLowering.h"

#include "linlayout/ir/Interpreter.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

namespace linlayout::lower {

Status lowerConstant(LoweringContext &ctx, const ir::Op &op) {
  const ir::Type &t = ctx.function().type(op.results[0]);
  llvm::Type *ty = ctx.elementType(t);
  const ir::ScalarKind k = t.elem().scalar;
  llvm::Value *c = ir::isFp8(k) // an 8-bit float is its byte
                       ? llvm::ConstantInt::get(ty, ir::floatBits(op.attrs.floatValue, k))
                       : ty->isFloatingPointTy()
                             ? llvm::ConstantFP::get(ty, op.attrs.floatValue)
                             : llvm::ConstantInt::get(ty, static_cast<uint64_t>(op.attrs.intValue),
                                                      /*isSigned=*/true);
  size_t n = 1;
  if (t.isTensor()) {
    LL_ASSIGN_OR_RETURN(LinearLayout l, ctx.layoutOf(t));
    n = l.inDimSize(DimName::reg());
  }
  return ctx.setRegs(op.results[0], std::vector<llvm::Value *>(n, c));
}

namespace {

// tt.get_program_id, or with `count` tt.get_num_programs.
Status lowerProgramIdOrCount(LoweringContext &ctx, const ir::Op &op, bool count) {
  int axis = static_cast<int>(op.attrs.axis);
  if (axis < 0 || axis > 2)
    return makeError(ctx.where(op) + "program axis " + std::to_string(axis) + " is not 0, 1 or 2");
  llvm::Value *v;
  if (ctx.module().numCtas > 1) {
    // With clusters a program is a cluster.
    using namespace llvm::Intrinsic;
    static constexpr ID ids[2][3] = {
        {nvvm_read_ptx_sreg_clusterid_x, nvvm_read_ptx_sreg_clusterid_y,
         nvvm_read_ptx_sreg_clusterid_z},
        {nvvm_read_ptx_sreg_nclusterid_x, nvvm_read_ptx_sreg_nclusterid_y,
         nvvm_read_ptx_sreg_nclusterid_z}};
    v = ctx.b().CreateCall(shim::intrinsic(ctx.kernel().module(), ids[count][axis]));
  } else {
    v = count ? ctx.kernel().numBlocks(axis) : ctx.kernel().blockId(axis);
  }
  llvm::Type *want = ctx.elementType(ctx.function().type(op.results[0]));
  if (want != v->getType())
    v = ctx.b().CreateZExtOrTrunc(v, want);
  return ctx.setRegs(op.results[0], {v});
}

} // namespace

Status lowerProgramId(LoweringContext &ctx, const ir::Op &op) {
  return lowerProgramIdOrCount(ctx, op, false);
}

Status lowerNumPrograms(LoweringContext &ctx, const ir::Op &op) {
  return lowerProgramIdOrCount(ctx, op, true);
}

Status lowerMakeRange(LoweringContext &ctx, const ir::Op &op) {
  const ir::Type &t = ctx.function().type(op.results[0]);
  LL_ASSIGN_OR_RETURN(LinearLayout l, ctx.layoutOf(t));
  LL_ASSIGN_OR_RETURN(LayoutIndexer ix, LayoutIndexer::create(l));
  IndexEmitter em(ix, ctx.b(), ctx.thread(), ctx.blockInCluster());
  std::vector<llvm::Value *> regs;
  for (uint64_t r = 0; r < ix.numRegisters(); ++r) {
    llvm::Value *v = em.coordinate(r, 0);
    if (op.attrs.start)
      v = ctx.b().CreateAdd(v, ctx.b().getInt32(static_cast<uint32_t>(op.attrs.start)), "",
                            /*HasNUW=*/op.attrs.start > 0, /*HasNSW=*/true);
    regs.push_back(v);
  }
  return ctx.setRegs(op.results[0], std::move(regs));
}

} // namespace linlayout::lower
