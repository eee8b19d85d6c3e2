// Global loads and stores: vector widths, immediates from layout register bits, predicated
// accesses with fall-back values, cache modifiers.
#include "GlobalAccess.h"
#include "KernelBuilder.h"
#include "LayoutIndex.h"
#include "PtxCheck.h"
#include "TestLayouts.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

const PtxTarget kTargets[] = {{80, 80}, {90, 80}};

enum class ElemKind { F32, F16, I8 };

llvm::Type *elemType(llvm::IRBuilder<> &b, ElemKind k) {
  return k == ElemKind::F32 ? b.getFloatTy() : k == ElemKind::F16 ? b.getHalfTy() : b.getInt8Ty();
}

struct CopyOptions {
  ElemKind elem = ElemKind::F32;
  int vec = 4;         // elements per access
  bool masked = false; // mask: row < n (a runtime parameter)
  bool other = false;  // masked-off elements read as 0
  CacheModifier cache = CacheModifier::None;
};

// out[i] = in[i] over a row-major 128x128 tile held in `layout`, `vec` elements per access.
Expected<KernelPtx> copyKernel(const LinearLayout &layout, const PtxTarget &target,
                               const CopyOptions &o) {
  KernelSpec spec;
  spec.name = "copy";
  spec.params = {{"in", ParamKind::GlobalPointer, 64, 16},
                 {"out", ParamKind::GlobalPointer, 64, 16},
                 {"n", ParamKind::Int, 32, 1}};
  spec.threadsPerBlock = 32 * static_cast<int>(layout.inDimSize(DimName::warp()));
  LL_ASSIGN_OR_RETURN(auto kb, KernelBuilder::create(spec));
  auto &b = kb->b();
  llvm::Type *ty = elemType(b, o.elem);
  int bytes = static_cast<int>(ty->getPrimitiveSizeInBits() / 8);
  LL_ASSIGN_OR_RETURN(auto offsets, LayoutIndexer::create(rowMajorOffsets(layout)));
  LL_ASSIGN_OR_RETURN(auto coords, LayoutIndexer::create(layout));
  IndexEmitter off(offsets, b, kb->threadId(), nullptr);
  IndexEmitter crd(coords, b, kb->threadId(), nullptr);
  int64_t stride[] = {bytes};
  for (uint64_t r = 0; r < offsets.numRegisters(); r += o.vec) {
    SplitOffset so = off.linearOffset(r, stride);
    llvm::Value *mask = nullptr;
    if (o.masked)
      mask = b.CreateICmpULT(crd.coordinate(r, 0), kb->param(2));
    GlobalLoad ld;
    ld.base = b.CreateGEP(b.getInt8Ty(), kb->param(0), so.variable);
    ld.byteOffset = so.constant;
    ld.elementType = ty;
    ld.count = o.vec;
    ld.mask = mask;
    ld.cache = o.cache;
    if (o.other)
      ld.other.assign(o.vec, llvm::Constant::getNullValue(ty));
    std::vector<llvm::Value *> v = emitGlobalLoad(b, ld);
    emitGlobalStore(b, b.CreateGEP(b.getInt8Ty(), kb->param(1), so.variable), so.constant, v, mask,
                    o.cache);
  }
  LL_ASSIGN_OR_RETURN(auto backend, NvptxBackend::create(target));
  return kb->finish(*backend);
}

} // namespace

TEST(GlobalAccess, Fp32BlockedCopyUsesV4WithImmediateOffsets) {
  LinearLayout l = blockedLayout({1, 4}, {4, 8}, {4, 1}, {1, 0}, {128, 128});
  for (const PtxTarget &t : kTargets) {
    auto k = copyKernel(l, t, {});
    ASSERT_TRUE(k.ok()) << k.message();
    // 128 registers per thread: 32 accesses of 4 floats, at rows +16*r (8192 bytes apart) and
    // columns +32 (128 bytes).
    EXPECT_EQ(countLines(k->ptx, "ld.global.v4"), 32);
    EXPECT_EQ(countLines(k->ptx, "st.global.v4"), 32);
    EXPECT_EQ(countLines(k->ptx, "ld.global.{{[bfu][0-9]+}}"), 0);
    EXPECT_PATTERNS(k->ptx, R"(
      CHECK: ld.global.v4.{{[bfu]}}32 {{.*}}, [{{%rd[0-9]+}}];
      CHECK: ld.global.v4.{{[bfu]}}32 {{.*}}, [{{%rd[0-9]+}}+128];
      CHECK: ld.global.v4.{{[bfu]}}32 {{.*}}, [{{%rd[0-9]+}}+8192];
      CHECK: ld.global.v4.{{[bfu]}}32 {{.*}}, [{{%rd[0-9]+}}+57728];
    )");
    expectAssembles(*k);
  }
}

TEST(GlobalAccess, NarrowElementsPackIntoWords) {
  // 8 halves = 128 bits, 16 bytes = 128 bits, 2 halves = 32 bits, 1 half = 16 bits.
  struct Case {
    ElemKind elem;
    int vec;
    const char *insn;
    std::vector<int> spt;
  } cases[] = {{ElemKind::F16, 8, "ld.global.v4.{{[bu]}}32", {1, 8}},
               {ElemKind::I8, 16, "ld.global.v4.{{[bu]}}32", {1, 16}},
               {ElemKind::F16, 2, "ld.global.{{[bu]}}32", {1, 2}},
               {ElemKind::F16, 1, "ld.global.{{[bu]}}16", {1, 1}},
               {ElemKind::I8, 4, "ld.global.{{[bu]}}32", {1, 4}}};
  for (const Case &c : cases) {
    LinearLayout l = blockedLayout(c.spt, {4, 8}, {4, 1}, {1, 0}, {128, 128});
    for (const PtxTarget &t : kTargets) {
      auto k = copyKernel(l, t, {c.elem, c.vec});
      ASSERT_TRUE(k.ok()) << k.message();
      int accesses = static_cast<int>(l.inDimSize(DimName::reg())) / c.vec;
      EXPECT_EQ(countLines(k->ptx, c.insn), accesses) << c.insn << "\n" << k->ptx;
      expectAssembles(*k);
    }
  }
}

TEST(GlobalAccess, MaskedLoadsArePredicatedAndKeepFallBackValues) {
  LinearLayout l = blockedLayout({1, 4}, {4, 8}, {4, 1}, {1, 0}, {128, 128});
  for (const PtxTarget &t : kTargets) {
    CopyOptions o;
    o.masked = true;
    o.other = true;
    auto k = copyKernel(l, t, o);
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(countLines(k->ptx, "@{{%p[0-9]+}} ld.global.v4.b32"), 32);
    EXPECT_EQ(countLines(k->ptx, "@{{%p[0-9]+}} st.global.v4.b32"), 32);
    EXPECT_PATTERNS(k->ptx, R"(
      CHECK: @{{%p[0-9]+}} ld.global.v4.b32 {{[{][^}]*[}]}}, [{{%rd[0-9]+}}];
      CHECK: @{{%p[0-9]+}} ld.global.v4.b32 {{[{][^}]*[}]}}, [{{%rd[0-9]+}}+128];
    )");
    expectAssembles(*k);
  }
}

TEST(GlobalAccess, CacheModifiersAreSpelled) {
  LinearLayout l = blockedLayout({1, 8}, {4, 8}, {4, 1}, {1, 0}, {128, 128});
  for (const PtxTarget &t : kTargets) {
    CopyOptions o;
    o.elem = ElemKind::F16;
    o.vec = 8;
    o.cache = CacheModifier::Global;
    auto k = copyKernel(l, t, o);
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(countLines(k->ptx, "ld.global.cg.v4.b32"), 16);
    EXPECT_EQ(countLines(k->ptx, "st.global.cg.v4.b32"), 16);
    o.cache = CacheModifier::Stream;
    o.masked = true;
    k = copyKernel(l, t, o);
    ASSERT_TRUE(k.ok()) << k.message();
    EXPECT_EQ(countLines(k->ptx, "@{{%p[0-9]+}} ld.global.cs.v4.b32"), 16);
    expectAssembles(*k);
  }
}

TEST(GlobalAccess, WidthRules) {
  EXPECT_TRUE(isVectorAccessWidth(4, 32));
  EXPECT_TRUE(isVectorAccessWidth(16, 8));
  EXPECT_TRUE(isVectorAccessWidth(2, 64));
  EXPECT_FALSE(isVectorAccessWidth(8, 32)); // 256 bits
  EXPECT_FALSE(isVectorAccessWidth(3, 32));
  EXPECT_FALSE(isVectorAccessWidth(0, 32));
}
