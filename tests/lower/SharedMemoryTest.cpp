// Shared memory: vectorised, swizzled st.shared / ld.shared and bar.sync, checked by simulating
// the emitted addresses for every thread.
#include "IrEval.h"
#include "KernelHarness.h"
#include "PtxCheck.h"
#include "SharedAccess.h"
#include "SharedExchange.h"
#include "TestLayouts.h"

#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>

#include <map>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

uint64_t packed(const LinearLayout &l, uint64_t reg, uint64_t tid) {
  std::vector<uint64_t> v;
  for (int d = 0; d < l.numInDims(); ++d) {
    DimName n = l.inDimName(d);
    uint64_t x = n == DimName::reg() ? reg : n == DimName::lane() ? tid & 31 : tid >> 5;
    v.push_back(x & (l.inDimSize(n) - 1));
  }
  return l.apply(l.packInput(v));
}

// Scratch: offset -> (dim0, dim1) of a rows x cols tile, row-major, with col bits
// [swizzleShift, swizzleShift + swizzleBits) XORed with the low row bits.
LinearLayout scratchLayout(int rows, int cols, int swizzleShift, int swizzleBits) {
  int colBits = __builtin_ctz(static_cast<unsigned>(cols));
  int rowBits = __builtin_ctz(static_cast<unsigned>(rows));
  InDimBases off{DimName::offset(), {}};
  for (int i = 0; i < colBits; ++i)
    off.bases.push_back({0, uint64_t(1) << i});
  for (int i = 0; i < rowBits; ++i) {
    uint64_t col = i < swizzleBits ? uint64_t(1) << (swizzleShift + i) : 0;
    off.bases.push_back({uint64_t(1) << i, col});
  }
  InDimBases ins[] = {off};
  DimSize outs[] = {{DimName::dim(0), uint64_t(rows)}, {DimName::dim(1), uint64_t(cols)}};
  return *LinearLayout::fromBases(ins, outs);
}

// Runs the exchange for every thread on the emitted (unoptimised) IR: each store writes the
// source elements at its address, each load must read the destination's elements.
void simulate(llvm::Function &f, llvm::Value *tid, const SharedExchange &x, int elemBytes,
              int threads) {
  std::map<uint64_t, uint64_t> memory;
  uint64_t storeReg = 0, loadReg = 0;
  llvm::Value *base = nullptr;
  for (llvm::Instruction &inst : f.getEntryBlock()) {
    llvm::Value *addr = nullptr;
    int n = 0;
    bool store = false;
    if (auto *s = llvm::dyn_cast<llvm::StoreInst>(&inst); s && s->getPointerAddressSpace() == 3) {
      addr = s->getPointerOperand();
      n = static_cast<int>(s->getValueOperand()->getType()->getPrimitiveSizeInBits() / 8 /
                           elemBytes);
      store = true;
    } else if (auto *l = llvm::dyn_cast<llvm::LoadInst>(&inst);
               l && l->getPointerAddressSpace() == 3) {
      addr = l->getPointerOperand();
      n = static_cast<int>(l->getType()->getPrimitiveSizeInBits() / 8 / elemBytes);
    } else {
      continue;
    }
    llvm::Value *p = addr;
    while (auto *g = llvm::dyn_cast<llvm::GetElementPtrInst>(p))
      p = g->getPointerOperand();
    base = p;
    llvm::Value *roots[] = {addr};
    llvm::Value *leaves[] = {tid, base};
    IntProgram prog(roots, leaves);
    for (int t = 0; t < threads; ++t) {
      uint64_t in[] = {uint64_t(t), 0};
      uint64_t a = prog.run(in)[0];
      ASSERT_EQ(a % (n * elemBytes), 0u) << "misaligned vector access";
      for (int i = 0; i < n; ++i) {
        if (store)
          memory[a + i * elemBytes] = packed(x.src, storeReg + i, t);
        else {
          auto it = memory.find(a + i * elemBytes);
          ASSERT_NE(it, memory.end()) << "thread " << t << " reads unwritten scratch";
          ASSERT_EQ(it->second, packed(x.dst, loadReg + i, t))
              << "thread " << t << " register " << loadReg + i;
        }
      }
    }
    (store ? storeReg : loadReg) += n;
  }
  EXPECT_EQ(storeReg, x.src.inDimSize(DimName::reg()));
  EXPECT_EQ(loadReg, x.dst.inDimSize(DimName::reg()));
}

struct ExchangeResult {
  KernelPtx kernel;
  SharedExchangeCounts counts;
};

// Loads `in` in src's layout, exchanges, stores `out` in dst's layout (scalar global accesses:
// this test is about shared memory).
Expected<ExchangeResult> exchangeKernel(const PtxTarget &t, const SharedExchange &x, bool f16,
                                        bool simulateToo) {
  ExchangeResult res;
  auto k = buildKernel(t, "exchange", 128, [&](KernelBuilder &kb, const PtxTarget &) -> Status {
    auto &b = kb.b();
    llvm::Type *ty = f16 ? b.getHalfTy() : b.getFloatTy();
    std::vector<llvm::Value *> vals;
    for (uint64_t r = 0; r < x.src.inDimSize(DimName::reg()); ++r) {
      llvm::Value *i = b.CreateAdd(b.CreateMul(kb.threadId(), b.getInt32(64)),
                                   b.getInt32(static_cast<uint32_t>(r)));
      vals.push_back(b.CreateLoad(ty, b.CreateGEP(ty, kb.param(0), i)));
    }
    kb.useSharedBytes(x.scratch.inDimSize(DimName::offset()) * (f16 ? 2 : 4));
    LL_ASSIGN_OR_RETURN(
        auto out, emitSharedExchange(b, x, kb.sharedBase(), kb.threadId(), vals, &res.counts));
    if (simulateToo)
      simulate(kb.function(), kb.threadId(), x, f16 ? 2 : 4, 128);
    for (size_t r = 0; r < out.size(); ++r) {
      llvm::Value *i = b.CreateAdd(b.CreateMul(kb.threadId(), b.getInt32(64)),
                                   b.getInt32(static_cast<uint32_t>(r)));
      b.CreateStore(out[r], b.CreateGEP(ty, kb.param(1), i));
    }
    return Status::success();
  });
  if (!k.ok())
    return k.error();
  res.kernel = std::move(k).value();
  return res;
}

} // namespace

TEST(SharedMemory, TransposeThroughPlainScratchStoresV4LoadsScalars) {
  SharedExchange x;
  x.src = blockedLayout({1, 4}, {4, 8}, {4, 1}, {1, 0}, {32, 32});
  x.dst = blockedLayout({4, 1}, {8, 4}, {1, 4}, {0, 1}, {32, 32});
  x.scratch = scratchLayout(32, 32, 0, 0);
  x.storeVector = 4;
  x.loadVector = 1;
  ASSERT_TRUE(checkSharedExchange(x).ok()) << checkSharedExchange(x).message();
  for (const PtxTarget &t : testTargets()) {
    auto r = exchangeKernel(t, x, false, true);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(r->counts.stores, 2);
    EXPECT_EQ(r->counts.loads, 8);
    EXPECT_EQ(countLines(r->kernel.ptx, "st.shared.v4.{{[bfu]}}32"), 2);
    EXPECT_EQ(countLines(r->kernel.ptx, "ld.shared.{{[bfu]}}32"), 8);
    EXPECT_EQ(countLines(r->kernel.ptx, "bar.sync 0"), 1);
    EXPECT_PATTERNS(r->kernel.ptx, R"(
      CHECK: st.shared.v4.{{[bfu]}}32 [{{%r[0-9]+}}],
      CHECK: st.shared.v4.{{[bfu]}}32 [{{%r[0-9]+}}+2048],
      CHECK: bar.sync 0;
      CHECK: ld.shared.{{[bfu]}}32
    )");
    expectAssembles(r->kernel);
  }
}

TEST(SharedMemory, SwizzledScratchXorsAddressesAndStaysCorrect) {
  SharedExchange x;
  x.src = blockedLayout({1, 4}, {4, 8}, {4, 1}, {1, 0}, {32, 32});
  x.dst = blockedLayout({4, 1}, {8, 4}, {1, 4}, {0, 1}, {32, 32});
  // Row bits 0-2 XORed into column bits 2-4: 4-element vectors stay whole.
  x.scratch = scratchLayout(32, 32, 2, 3);
  x.storeVector = 4;
  x.loadVector = 1;
  for (const PtxTarget &t : testTargets()) {
    auto r = exchangeKernel(t, x, false, true);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(countLines(r->kernel.ptx, "st.shared.v4.{{[bfu]}}32"), 2);
    EXPECT_EQ(countLines(r->kernel.ptx, "ld.shared.{{[bfu]}}32"), 8);
    EXPECT_GE(countLines(r->kernel.ptx, "xor.b32"), 1);
    expectAssembles(r->kernel);
  }
}

TEST(SharedMemory, HalfPrecisionLoadsAndStoresPackWords) {
  // 8 halves per thread along dim1 on both sides, swizzled scratch: v4.b32 both ways.
  SharedExchange x;
  x.src = blockedLayout({1, 8}, {8, 4}, {4, 1}, {1, 0}, {32, 64});
  x.dst = blockedLayout({1, 8}, {4, 8}, {4, 1}, {1, 0}, {32, 64});
  x.scratch = scratchLayout(32, 64, 3, 3);
  x.storeVector = 8;
  x.loadVector = 8;
  ASSERT_TRUE(checkSharedExchange(x).ok()) << checkSharedExchange(x).message();
  for (const PtxTarget &t : testTargets()) {
    auto r = exchangeKernel(t, x, true, true);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(countLines(r->kernel.ptx, "st.shared.v4.b32"), 2);
    EXPECT_EQ(countLines(r->kernel.ptx, "ld.shared.v4.b32"), 2);
    expectAssembles(r->kernel);
  }
}

TEST(SharedMemory, ExchangeErrorsNameTheProblem) {
  SharedExchange x;
  x.src = blockedLayout({1, 4}, {4, 8}, {4, 1}, {1, 0}, {32, 32});
  x.dst = blockedLayout({4, 1}, {8, 4}, {1, 4}, {0, 1}, {32, 32});
  x.scratch = scratchLayout(32, 32, 0, 0);
  x.storeVector = 4;
  x.loadVector = 4;
  EXPECT_EQ(checkSharedExchange(x).message(),
            "load vector 4: register bit 0 does not step to the next scratch offset");
  x.loadVector = 3;
  EXPECT_EQ(checkSharedExchange(x).message(), "load vector 3 is not a power of two");
  x.loadVector = 16;
  EXPECT_EQ(checkSharedExchange(x).message(), "load vector 16 is wider than the 8 registers");
  x.loadVector = 1;
  x.scratch = scratchLayout(16, 32, 0, 0);
  EXPECT_EQ(checkSharedExchange(x).message().rfind("source layout does not fit the scratch", 0),
            0u);
}
