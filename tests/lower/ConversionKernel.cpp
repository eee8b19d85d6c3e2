#include "ConversionKernel.h"

#include "ConversionEmitter.h"
#include "LayoutIndex.h"

namespace linlayout::lower::testing {

LayoutSpec blocked(std::vector<int64_t> spt, std::vector<int64_t> tpw, std::vector<int64_t> wpc,
                   std::vector<int64_t> order) {
  return BlockedSpec::make(spt, tpw, wpc, order).value();
}

std::vector<Pair> referencePairs() {
  LayoutSpec mma2 = NvidiaMmaSpec::make(2, 0, {2, 2}, {16, 8}).value();
  LayoutSpec mma3 = NvidiaMmaSpec::make(3, 0, {4, 1}, {16, 128, 16}).value();
  return {
      {"transpose", blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}),
       blocked({4, 1}, {8, 4}, {1, 4}, {0, 1})},
      {"lanes_only", blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}),
       blocked({1, 4}, {8, 4}, {4, 1}, {1, 0})},
      {"order_swap", blocked({2, 2}, {8, 4}, {4, 1}, {1, 0}),
       blocked({2, 2}, {8, 4}, {4, 1}, {0, 1})},
      {"mma2_to_blocked", mma2, blocked({1, 8}, {4, 8}, {4, 1}, {1, 0})},
      {"mma3_to_blocked", mma3, blocked({1, 8}, {4, 8}, {4, 1}, {1, 0})},
      {"mma2_to_transposed", mma2, blocked({4, 1}, {8, 4}, {1, 4}, {0, 1})},
  };
}

Status emitConversionKernel(KernelBuilder &kb, const PtxTarget &tgt, const ConversionPlan &plan,
                            int elementBits) {
  auto &b = kb.b();
  // Integers of the element width: the conversion moves bits, and ints compare exactly.
  llvm::Type *ty = b.getIntNTy(static_cast<unsigned>(elementBits));
  int64_t stride[] = {elementBits / 8};
  auto rowMajor = [](const LinearLayout &l) {
    std::vector<DimName> rev;
    for (int o = l.numOutDims() - 1; o >= 0; --o)
      rev.push_back(l.outDimName(o));
    return l.transposeOuts(rev).value().flattenOuts(DimName::offset());
  };
  LL_ASSIGN_OR_RETURN(auto srcIx, LayoutIndexer::create(rowMajor(plan.src)));
  LL_ASSIGN_OR_RETURN(auto dstIx, LayoutIndexer::create(rowMajor(plan.dst)));
  IndexEmitter se(srcIx, b, kb.threadId(), nullptr), de(dstIx, b, kb.threadId(), nullptr);
  std::vector<llvm::Value *> src;
  for (uint64_t r = 0; r < srcIx.numRegisters(); ++r) {
    SplitOffset so = se.linearOffset(r, stride);
    llvm::Value *p = b.CreateConstGEP1_64(
        b.getInt8Ty(), b.CreateGEP(b.getInt8Ty(), kb.param(0), so.variable), so.constant);
    src.push_back(b.CreateLoad(ty, p));
  }
  ConversionEnv env;
  env.thread = kb.threadId();
  env.uniformWarp = [&kb] { return kb.uniformWarpId(); };
  env.target = tgt;
  if (plan.path == ConversionPath::SharedMemory) {
    env.scratch = kb.sharedBase();
    kb.useSharedBytes(static_cast<uint64_t>(plan.shared.scratchBytes));
  }
  LL_ASSIGN_OR_RETURN(auto dst, emitConversion(b, env, plan, src));
  for (uint64_t r = 0; r < dstIx.numRegisters(); ++r) {
    SplitOffset so = de.linearOffset(r, stride);
    llvm::Value *p = b.CreateConstGEP1_64(
        b.getInt8Ty(), b.CreateGEP(b.getInt8Ty(), kb.param(1), so.variable), so.constant);
    b.CreateStore(dst[r], p);
  }
  return Status::success();
}

Expected<KernelPtx> conversionKernel(const PtxTarget &t, const ConversionPlan &plan,
                                     int elementBits, const std::string &name) {
  int threads = 32 * static_cast<int>(plan.src.inDimSize(DimName::warp()));
  return buildKernel(t, name, threads, [&](KernelBuilder &kb, const PtxTarget &tgt) -> Status {
    return emitConversionKernel(kb, tgt, plan, elementBits);
  });
}

} // namespace linlayout::lower::testing
