// Tensor-core mma.sync (f16, bf16 -> f32 m16n8k16; tf32 m16n8k8; s8 -> s32 m16n8k32) and the FMA
// fallback.
#include "KernelHarness.h"
#include "Mma.h"
#include "PtxCheck.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

// Each thread loads its A (4 words), B (2 words) and C (4 floats, or i32 for s8) fragments,
// multiplies twice (accumulating) and stores D.
Expected<KernelPtx> mmaKernel(const PtxTarget &t, MmaShape shape) {
  return buildKernel(t, "mma", 128, [&](KernelBuilder &kb, const PtxTarget &) -> Status {
    auto &b = kb.b();
    llvm::Type *acc = shape == MmaShape::M16N8K32_S8 ? b.getInt32Ty() : b.getFloatTy();
    auto word = [&](int i) {
      llvm::Value *idx = b.CreateAdd(b.CreateMul(kb.threadId(), b.getInt32(16)), b.getInt32(i));
      return b.CreateGEP(b.getInt32Ty(), kb.param(0), idx);
    };
    std::vector<llvm::Value *> a, bw, c;
    for (int i = 0; i < 4; ++i)
      a.push_back(b.CreateLoad(b.getInt32Ty(), word(i)));
    for (int i = 0; i < 2; ++i)
      bw.push_back(b.CreateLoad(b.getInt32Ty(), word(4 + i)));
    for (int i = 0; i < 4; ++i)
      c.push_back(b.CreateLoad(acc, word(8 + i)));
    auto d = emitMma(b, shape, a, bw, c);
    d = emitMma(b, shape, a, bw, d);
    for (int i = 0; i < 4; ++i) {
      llvm::Value *idx = b.CreateAdd(b.CreateMul(kb.threadId(), b.getInt32(4)), b.getInt32(i));
      b.CreateStore(d[i], b.CreateGEP(acc, kb.param(1), idx));
    }
    return Status::success();
  });
}

} // namespace

TEST(Dot, MmaSyncShapes) {
  struct Case {
    MmaShape shape;
    const char *insn;
    const char *acc; // the register class of C and D
  } cases[] = {
      {MmaShape::M16N8K16_F16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "f"},
      {MmaShape::M16N8K16_BF16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", "f"},
      {MmaShape::M16N8K8_TF32, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", "f"},
      {MmaShape::M16N8K32_S8, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "r"},
  };
  for (const PtxTarget &t : testTargets())
    for (const Case &c : cases) {
      auto k = mmaKernel(t, c.shape);
      ASSERT_TRUE(k.ok()) << k.message();
      EXPECT_EQ(countLines(k->ptx, c.insn), 2) << c.insn << "\n" << k->ptx;
      // D = {4 f32 or s32}, A = {4 b32}, B = {2 b32}, C = {4 f32 or s32}.
      std::string acc = std::string("{{[{]%") + c.acc + "[0-9]+, %" + c.acc + "[0-9]+, %" + c.acc +
                        "[0-9]+, %" + c.acc + "[0-9]+[}]}}";
      EXPECT_PATTERNS(k->ptx, std::string("CHECK: ") + c.insn + "\n CHECK-NEXT: " + acc + R"(,
        CHECK-NEXT: {{[{]%r[0-9]+, %r[0-9]+, %r[0-9]+, %r[0-9]+[}]}},
        CHECK-NEXT: {{[{]%r[0-9]+, %r[0-9]+[}]}},
        CHECK-NEXT: )" + acc + ";");
      expectAssembles(*k);
    }
}

TEST(Dot, FmaFallback) {
  for (const PtxTarget &t : testTargets()) {
    auto k = buildKernel(t, "fma", 128, [](KernelBuilder &kb, const PtxTarget &) -> Status {
      auto &b = kb.b();
      llvm::Value *p = b.CreateGEP(b.getFloatTy(), kb.param(0), kb.threadId());
      llvm::Value *x = b.CreateLoad(b.getFloatTy(), p);
      llvm::Value *acc = b.CreateLoad(b.getFloatTy(), b.CreateConstGEP1_32(b.getFloatTy(), p, 128));
      for (int i = 0; i < 4; ++i)
        acc = emitFma(
            b, x,
            b.CreateLoad(b.getFloatTy(), b.CreateConstGEP1_32(b.getFloatTy(), p, 256 * (i + 1))),
            acc);
      b.CreateStore(acc, b.CreateGEP(b.getFloatTy(), kb.param(1), kb.threadId()));
      return Status::success();
    });
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(countLines(k->ptx, "fma.rn.f32"), 4);
    expectAssembles(*k);
  }
}
