// The kernel skeleton: entry, parameters, thread counts, shared memory, PTX and LLVM text.
#include "KernelBuilder.h"
#include "PtxCheck.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

const PtxTarget kTargets[] = {{80, 80}, {90, 80}};

KernelSpec copySpec() {
  KernelSpec spec;
  spec.name = "tid_store";
  spec.params = {{"out", ParamKind::GlobalPointer, 64, 16}, {"n", ParamKind::Int, 32, 1}};
  spec.threadsPerBlock = 128;
  return spec;
}

} // namespace

TEST(Kernel, EmptyKernelAssemblesForBothTargets) {
  for (const PtxTarget &t : kTargets) {
    auto backend = NvptxBackend::create(t);
    ASSERT_TRUE(backend.ok()) << backend.message();
    auto kb = KernelBuilder::create(copySpec());
    ASSERT_TRUE(kb.ok()) << kb.message();
    auto ptx = (*kb)->finish(**backend);
    ASSERT_TRUE(ptx.ok()) << ptx.message();
    EXPECT_PATTERNS(ptx->ptx, R"(
      CHECK: .version 8.0
      CHECK-NEXT: .target )" + t.name() +
                                  R"(
      CHECK-NEXT: .address_size 64
      CHECK: .entry tid_store(
      CHECK-NEXT: .param .u64 {{.*}}tid_store_param_0,
      CHECK-NEXT: .param .u32 {{.*}}tid_store_param_1
      CHECK: .maxntid 128, 1, 1
      CHECK: ret;
    )");
    EXPECT_EQ(ptx->threadsPerBlock, 128);
    EXPECT_EQ(ptx->params.size(), 2u);
    expectAssembles(*ptx);
  }
}

TEST(Kernel, StoresThreadIdsAndUsesSharedMemory) {
  for (const PtxTarget &t : kTargets) {
    auto backend = NvptxBackend::create(t);
    ASSERT_TRUE(backend.ok());
    KernelSpec spec = copySpec();
    spec.exactThreads = true;
    auto kbOr = KernelBuilder::create(spec);
    ASSERT_TRUE(kbOr.ok());
    KernelBuilder &kb = **kbOr;
    auto &b = kb.b();
    llvm::Value *smem = kb.sharedBase();
    kb.useSharedBytes(512);
    llvm::Value *slot = b.CreateGEP(b.getInt32Ty(), smem, kb.threadId());
    b.CreateStore(kb.warpId(), slot);
    llvm::Value *out = b.CreateGEP(b.getInt32Ty(), kb.param(0), kb.threadId());
    b.CreateStore(b.CreateAdd(b.CreateLoad(b.getInt32Ty(), slot), kb.laneId()), out);
    std::string before = kb.llvmText();
    EXPECT_PATTERNS(before, R"(
      CHECK: @global_smem = external addrspace(3) global [0 x i8], align 16
      CHECK: define void @tid_store(ptr addrspace(1) align 16 %out, i32 %n)
      CHECK: call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range
      CHECK: !nvvm.annotations
    )");
    auto ptx = kb.finish(**backend);
    ASSERT_TRUE(ptx.ok()) << ptx.message();
    EXPECT_EQ(ptx->sharedBytes, 512u);
    EXPECT_PATTERNS(ptx->ptx, R"(
      CHECK: .extern .shared .align 16 .b8 global_smem[];
      CHECK: .reqntid 128, 1, 1
      CHECK: mov.u32 {{%r[0-9]+}}, %tid.x;
      CHECK: st.shared.u32 [{{%r[0-9]+}}]
      CHECK: st.global.u32
    )");
    expectAssembles(*ptx);
  }
}

TEST(Kernel, RejectsBadSpecs) {
  KernelSpec spec = copySpec();
  spec.threadsPerBlock = 100;
  auto kb = KernelBuilder::create(spec);
  ASSERT_FALSE(kb.ok());
  EXPECT_EQ(kb.message(), "threads per block 100 is not a multiple of 32 in [32, 1024]");
  spec = copySpec();
  spec.name = "9lives";
  EXPECT_EQ(KernelBuilder::create(spec).message(), "kernel name '9lives' is not a ptx identifier");
  spec = copySpec();
  spec.params[1].bits = 24;
  EXPECT_EQ(KernelBuilder::create(spec).message(),
            "parameter 1 'n' is an integer of 24 bits, expected 1, 8, 16, 32 or 64");
  spec = copySpec();
  spec.params[0].alignment = 3;
  EXPECT_EQ(KernelBuilder::create(spec).message(),
            "parameter 0 'out' has alignment 3, expected a power of two in [1, 256]");
}

TEST(Kernel, TargetNames) {
  for (const char *n : {"sm_80", "sm_86", "sm_89", "sm_90", "sm_90a"}) {
    auto t = PtxTarget::parse(n);
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->name(), n);
  }
  EXPECT_TRUE(PtxTarget::parse("sm_90a")->hasWgmma());
  EXPECT_FALSE(PtxTarget::parse("sm_90")->hasWgmma());
  EXPECT_TRUE(NvptxBackend::create(*PtxTarget::parse("sm_90a")).ok());
  EXPECT_EQ(PtxTarget::parse("sm_75").message(),
            "unknown target 'sm_75', expected one of sm_80, sm_86, sm_89, sm_90, sm_90a");
  EXPECT_FALSE(NvptxBackend::create(PtxTarget{90, 86}).ok());
}
