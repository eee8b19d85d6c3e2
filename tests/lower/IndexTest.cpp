// Index computation from linear layouts: the emitted expressions equal the layout for every
// register, thread and block, and stay small.
#include "IrEval.h"
#include "LayoutIndex.h"
#include "Property.h"
#include "TestLayouts.h"

#include <gtest/gtest.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

// A function (i32 tid, i32 block) to emit index code into.
struct Scratch {
  llvm::LLVMContext ctx;
  llvm::Module m{"scratch", ctx};
  llvm::IRBuilder<> b{ctx};
  llvm::Function *f;
  llvm::Value *tid, *block;
  Scratch() {
    auto *i32 = b.getInt32Ty();
    f = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), {i32, i32}, false),
                               llvm::Function::ExternalLinkage, "f", m);
    tid = f->getArg(0);
    block = f->getArg(1);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
  }
};

uint64_t packedInput(const LinearLayout &l, uint64_t reg, uint64_t tid, uint64_t block) {
  std::vector<uint64_t> values;
  for (int d = 0; d < l.numInDims(); ++d) {
    DimName n = l.inDimName(d);
    uint64_t v = n == DimName::reg()    ? reg
                 : n == DimName::lane() ? tid & 31
                 : n == DimName::warp() ? tid >> 5
                                        : block;
    values.push_back(v & (l.inDimSize(n) - 1));
  }
  return l.packInput(values);
}

// Checks every register, thread and block of the layout against the emitted code.
void checkAllInputs(const LinearLayout &l) {
  auto ix = LayoutIndexer::create(l);
  RC_ASSERT(ix.ok());
  Scratch s;
  IndexEmitter em(*ix, s.b, s.tid, s.block);
  std::vector<llvm::Value *> roots;
  uint64_t regs = ix->numRegisters();
  for (uint64_t r = 0; r < regs; ++r)
    for (int o = 0; o < l.numOutDims(); ++o)
      roots.push_back(em.coordinate(r, o));
  llvm::Value *leaves[] = {s.tid, s.block};
  IntProgram prog(roots, leaves);
  uint64_t threads = 32 * l.inDimSize(DimName::warp());
  uint64_t blocks = l.inDimSize(DimName::block());
  for (uint64_t blk = 0; blk < blocks; ++blk)
    for (uint64_t t = 0; t < threads; ++t) {
      uint64_t in[] = {t, blk};
      std::vector<uint64_t> got = prog.run(in);
      size_t k = 0;
      for (uint64_t r = 0; r < regs; ++r) {
        uint64_t want = l.apply(packedInput(l, r, t, blk));
        for (int o = 0; o < l.numOutDims(); ++o, ++k)
          RC_ASSERT(got[k] == l.outValue(want, o));
      }
    }
}

} // namespace

TEST(Index, EmittedCoordinatesEqualTheLayoutEverywhere) {
  checkProperty([](void) { checkAllInputs(*genDistributedLayout()); });
}

TEST(Index, SplitOffsetsEqualStridedSums) {
  checkProperty([](void) {
    LinearLayout l = *genDistributedLayout(3, 2, 1);
    std::vector<int64_t> strides;
    for (int o = 0; o < l.numOutDims(); ++o)
      strides.push_back(*rc::gen::element<int64_t>(0, 1, 3, 8, 64, 100));
    auto ix = LayoutIndexer::create(l);
    RC_ASSERT(ix.ok());
    Scratch s;
    IndexEmitter em(*ix, s.b, s.tid, s.block);
    std::vector<llvm::Value *> roots;
    std::vector<int64_t> constants;
    for (uint64_t r = 0; r < ix->numRegisters(); ++r) {
      SplitOffset so = em.linearOffset(r, strides);
      roots.push_back(so.variable);
      constants.push_back(so.constant);
    }
    llvm::Value *leaves[] = {s.tid, s.block};
    IntProgram prog(roots, leaves);
    for (uint64_t blk = 0; blk < l.inDimSize(DimName::block()); ++blk)
      for (uint64_t t = 0; t < 32 * l.inDimSize(DimName::warp()); ++t) {
        uint64_t in[] = {t, blk};
        std::vector<uint64_t> got = prog.run(in);
        for (uint64_t r = 0; r < ix->numRegisters(); ++r) {
          uint64_t want = l.apply(packedInput(l, r, t, blk));
          int64_t sum = 0;
          for (int o = 0; o < l.numOutDims(); ++o)
            sum += static_cast<int64_t>(l.outValue(want, o)) * strides[o];
          RC_ASSERT(static_cast<int64_t>(static_cast<uint32_t>(got[r])) + constants[r] == sum);
        }
      }
  });
}

TEST(Index, HardwarePartCostsAtMostTwoInstructionsPerTermPlusJoins) {
  checkProperty([](void) {
    LinearLayout l = *genDistributedLayout();
    auto ix = LayoutIndexer::create(l);
    RC_ASSERT(ix.ok());
    Scratch s;
    IndexEmitter em(*ix, s.b, s.tid, s.block);
    for (int o = 0; o < l.numOutDims(); ++o) {
      llvm::Value *roots[] = {em.hardwarePart(o)};
      llvm::Value *leaves[] = {s.tid, s.block};
      int terms = static_cast<int>(ix->terms(o).size());
      RC_ASSERT(IntProgram(roots, leaves).numInstructions() <= std::max(0, 3 * terms - 1));
    }
  });
}

// The transpose pair of the reference conversions: each coordinate is one shift and one mask.
TEST(Index, BlockedLayoutsNeedOneTermPerCoordinate) {
  LinearLayout src = blockedLayout({1, 4}, {4, 8}, {4, 1}, {1, 0}, {128, 128});
  auto ix = LayoutIndexer::create(src);
  ASSERT_TRUE(ix.ok()) << ix.message();
  // dim0: lane bits 3-4 and warp bits 0-1 are tid bits 3..6 -> dim0 bits 0..3.
  ASSERT_EQ(ix->terms(0).size(), 1u);
  EXPECT_EQ(ix->terms(0)[0], (IndexTerm{HardwareSource::Thread, -3, 0xf}));
  // dim1: lane bits 0-2 -> dim1 bits 2..4.
  ASSERT_EQ(ix->terms(1).size(), 1u);
  EXPECT_EQ(ix->terms(1)[0], (IndexTerm{HardwareSource::Thread, 2, 0x1c}));
  // Registers: bits 0-1 are dim1 0..3, bits 2..5 dim1 32, 64 and dim0 16..64: never overlap.
  EXPECT_EQ(ix->registerPart(3, 1), 3u);
  EXPECT_EQ(ix->registerPart(4, 1), 32u);
  EXPECT_EQ(ix->registerPart(16, 0), 16u);
  for (uint64_t r = 0; r < ix->numRegisters(); ++r)
    for (int o = 0; o < 2; ++o)
      EXPECT_EQ(ix->registerPart(r, o) & ix->hardwareMask(o), 0u);

  // Row-major fp32 offsets: one expression for the thread, every register an immediate.
  auto off = LayoutIndexer::create(rowMajorOffsets(src));
  ASSERT_TRUE(off.ok());
  Scratch s;
  IndexEmitter em(*off, s.b, s.tid, nullptr);
  int64_t stride[] = {4};
  SplitOffset first = em.linearOffset(0, stride);
  for (uint64_t r = 0; r < off->numRegisters(); ++r) {
    SplitOffset so = em.linearOffset(r, stride);
    EXPECT_EQ(so.variable, first.variable);
  }
  EXPECT_EQ(em.linearOffset(5, stride).constant, (32 + 1) * 4);
  EXPECT_EQ(em.linearOffset(16, stride).constant, 16 * 128 * 4);
}

// A swizzled shared layout's register bits meet the thread's bits: only the overlap is XORed,
// once per distinct overlap.
TEST(Index, OverlappingRegisterBitsAreXoredOncePerDistinctOverlap) {
  // offset = lane (5 bits) ^ (register << 3) over 8 bits: register bits 0-1 overlap lane bits 3-4.
  InDimBases reg{DimName::reg(), {{8}, {16}, {32}}};
  InDimBases lane{DimName::lane(), {{1}, {2}, {4}, {8}, {16}}};
  InDimBases ins[] = {reg, lane};
  DimSize outs[] = {{DimName::offset(), 64}};
  auto l = LinearLayout::fromBases(ins, outs);
  ASSERT_TRUE(l.ok());
  auto ix = LayoutIndexer::create(*l);
  ASSERT_TRUE(ix.ok());
  EXPECT_EQ(ix->hardwareMask(0), 31u);
  Scratch s;
  IndexEmitter em(*ix, s.b, s.tid, nullptr);
  for (uint64_t r = 0; r < 8; ++r)
    em.coordinate(r, 0);
  // hardware part: 1 and; distinct overlaps 8, 16, 24: 3 xors; register 4..7 add 32: 4 ors.
  int insts = 0;
  for (auto &inst : s.f->getEntryBlock())
    insts += !llvm::isa<llvm::ReturnInst>(inst);
  EXPECT_EQ(insts, 1 + 3 + 4);
}

TEST(Index, RejectsLayoutsItCannotIndex) {
  auto wide = LinearLayout::identity1D(64, DimName::lane(), DimName::dim(0));
  ASSERT_TRUE(wide.ok());
  EXPECT_EQ(LayoutIndexer::create(*wide).message(), "layout has 64 lanes, expected at most 32");
  auto odd = LinearLayout::identity1D(4, DimName::get("cta"), DimName::dim(0));
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(LayoutIndexer::create(*odd).message(),
            "layout input dimension 'cta' is not register, lane, warp or block");
}
