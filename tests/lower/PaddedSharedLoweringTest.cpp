// Padded shared tiles (#ttg.padded_shared): the emitted addresses are the layout's offsets through
// its padding for every thread and register, vectors stay inside an interval and aligned, and
// kernels that move tiles through padded buffers (alloc, store, load, ring slot, view) interpret,
// lower and assemble with the allocation holding the padding.
#include "ConversionKernel.h"
#include "ConversionPlanning.h"
#include "IrEval.h"
#include "KernelHarness.h"
#include "LayoutIndex.h"
#include "PtxCheck.h"
#include "SharedPadding.h"
#include "SharedView.h"
#include "TestLayouts.h"

#include "kernels/TileKernels.h"

#include "linlayout/ir/Interpreter.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

PaddedSharedSpec padded(std::vector<PadInterval> pads, std::vector<int64_t> shape,
                        std::vector<int64_t> order) {
  auto s = PaddedSharedSpec::identityFor(std::move(pads), std::move(shape), std::move(order));
  EXPECT_TRUE(s.ok()) << s.message();
  return *s;
}

LayoutSpec blockedSpec(std::vector<int64_t> spt, std::vector<int64_t> tpw, std::vector<int64_t> wpc,
                       std::vector<int64_t> order) {
  return gpukernels::blocked(std::move(spt), std::move(tpw), std::move(wpc), std::move(order));
}

// (register, lane, warp) of a 128-thread CTA -> the offset `toOffset` gives.
uint64_t offsetAt(const LinearLayout &toOffset, uint64_t reg, uint64_t tid) {
  std::vector<uint64_t> v;
  for (int d = 0; d < toOffset.numInDims(); ++d) {
    DimName n = toOffset.inDimName(d);
    uint64_t x = n == DimName::reg() ? reg : n == DimName::lane() ? tid & 31 : tid >> 5;
    v.push_back(x & (toOffset.inDimSize(n) - 1));
  }
  return toOffset.apply(toOffset.packInput(v));
}

// The bytes of the widest `op` (st.shared, ld.shared) in `ptx`: `.v<n>` times the type's width.
int widestAccess(const std::string &ptx, const std::string &op) {
  int widest = 0;
  for (size_t at = ptx.find(op + "."); at != std::string::npos; at = ptx.find(op + ".", at + 1)) {
    size_t p = at + op.size() + 1;
    int n = 1;
    if (ptx[p] == 'v') {
      n = ptx[p + 1] - '0';
      p += 3;
    }
    while (p < ptx.size() && std::isalpha(static_cast<unsigned char>(ptx[p])))
      ++p;
    widest = std::max(widest, n * std::atoi(ptx.c_str() + p) / 8);
  }
  return widest;
}

} // namespace

// paddedOffset's vectors: a run of `vec` aligned offsets stays contiguous and aligned after
// padding, for every offset of a 4096-element tile, and the width is the widest that does.
TEST(PaddedSharedLowering, VectorsStayInsideIntervalsAndAligned) {
  std::vector<std::vector<PadInterval>> cases = {
      {{32, 4}}, {{64, 1}}, {{4, 8}}, {{128, 8}, {1024, 16}}, {{2, 2}}, {{64, 16}, {16, 4}}};
  for (const auto &pads : cases)
    for (int vec : {1, 2, 4, 8, 16}) {
      int got = vectorUnderPadding(vec, pads);
      int64_t smallest = vec;
      for (const PadInterval &p : pads)
        smallest = std::min({smallest, p.interval, p.padding});
      EXPECT_EQ(got, smallest);
      for (int64_t o = 0; o < 4096; o += got) {
        ASSERT_EQ(paddedOffset(o, pads) % got, 0) << "offset " << o;
        for (int i = 0; i < got; ++i)
          ASSERT_EQ(paddedOffset(o + i, pads), paddedOffset(o, pads) + i) << "offset " << o + i;
      }
    }
}

// tileByteOffset on the emitted (unoptimised) IR, for every thread and register: the byte
// address is paddedOffset(layout offset XOR view origin) * bytes.
TEST(PaddedSharedLowering, AddressesAreThePaddedOffsetsOfEveryThread) {
  struct Case {
    LinearLayout dist;
    PaddedSharedSpec shared;
    uint64_t viewXor;
    int bytes;
  };
  std::vector<Case> cases = {
      {blockedLayout({1, 4}, {4, 8}, {4, 1}, {1, 0}, {64, 64}), padded({{64, 4}}, {64, 64}, {1, 0}),
       0, 4},
      {blockedLayout({4, 1}, {8, 4}, {1, 4}, {0, 1}, {64, 64}), padded({{64, 4}}, {64, 64}, {1, 0}),
       0, 2},
      {blockedLayout({1, 8}, {8, 4}, {4, 1}, {1, 0}, {32, 128}),
       padded({{128, 8}, {512, 16}}, {64, 128}, {1, 0}), 32 * 128, 2},
      {blockedLayout({2, 2}, {4, 8}, {2, 2}, {0, 1}, {64, 32}), padded({{32, 1}}, {64, 32}, {0, 1}),
       0, 4},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    const Case &k = cases[c];
    auto linear = k.shared.toLinearLayout(k.shared.shape());
    ASSERT_TRUE(linear.ok()) << linear.message();
    auto perCta = linear->sublayout(std::vector<DimName>{DimName::offset()}, linear->outDimNames());
    ASSERT_TRUE(perCta.ok());
    auto inv = perCta->invert();
    ASSERT_TRUE(inv.ok());
    // The view's coordinates are the tile's (SharedView.h).
    auto wide = widenToTile(k.dist, *linear);
    ASSERT_TRUE(wide.ok()) << wide.message();
    auto composed = wide->then(*inv);
    ASSERT_TRUE(composed.ok()) << composed.message();
    const LinearLayout &map = *composed;
    auto ix = LayoutIndexer::create(map);
    ASSERT_TRUE(ix.ok()) << ix.message();
    std::vector<llvm::Value *> roots;
    auto kernel = buildKernel(
        testTargets()[0], "padded", 128,
        [&](KernelBuilder &kb, const PtxTarget &) -> Status {
          auto &b = kb.b();
          IndexEmitter em(*ix, b, kb.threadId(), nullptr);
          for (uint64_t r = 0; r < ix->numRegisters(); ++r) {
            SplitOffset so = tileByteOffset(b, em, *ix, r, k.viewXor, k.shared.padding(), k.bytes);
            roots.push_back(b.CreateAdd(so.variable, b.getInt32(uint32_t(so.constant))));
          }
          llvm::Value *tid[] = {kb.threadId()};
          IntProgram prog(roots, tid);
          for (uint64_t t = 0; t < 128; ++t) {
            uint64_t in[] = {t};
            std::vector<uint64_t> got = prog.run(in);
            for (uint64_t r = 0; r < roots.size(); ++r) {
              int64_t want =
                  k.shared.paddedOffset(int64_t(offsetAt(map, r, t) ^ k.viewXor)) * k.bytes;
              EXPECT_EQ(int64_t(got[r]), want) << "thread " << t << " register " << r;
            }
          }
          return Status::success();
        },
        /*optimize=*/false);
    ASSERT_TRUE(kernel.ok()) << kernel.message();
  }
}

// Whole kernels: a tile through a padded buffer, a ring slot and a view (TileKernels.h's
// shared_trip) computes in the interpreter what it should, lowers for sm_80 and sm_90 with the
// padded allocation, vectors no wider than the padding allows, and assembles.
TEST(PaddedSharedLowering, TilesThroughPaddedBuffersInterpretLowerAndAssemble) {
  LayoutSpec rows = blockedSpec({1, 4}, {4, 8}, {4, 1}, {1, 0});
  LayoutSpec cols = blockedSpec({4, 1}, {8, 4}, {1, 4}, {0, 1});
  struct Case {
    ir::ScalarKind elem;
    std::vector<PadInterval> pads;
    std::vector<int64_t> order;
    int storeBytes, loadBytes; // the widest st.shared / ld.shared
  };
  std::vector<Case> cases = {
      {ir::ScalarKind::I32, {{64, 4}}, {1, 0}, 16, 4},
      {ir::ScalarKind::I32, {{64, 1}}, {1, 0}, 4, 4},
      {ir::ScalarKind::I16, {{64, 2}}, {0, 1}, 2, 4},
      {ir::ScalarKind::I16, {{128, 8}, {1024, 4}}, {1, 0}, 8, 2},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    const Case &k = cases[c];
    PaddedSharedSpec spec = padded(k.pads, {64, 64}, k.order);
    auto m = gpukernels::sharedTrip(k.elem, 64, 64, rows, LayoutSpec(spec), cols, 4);
    ASSERT_TRUE(m.ok()) << m.message();
    // The interpreter: out == in, out_ring == in + 1, out_view == in's lower half.
    int bytes = ir::byteWidth(k.elem);
    ir::Memory mem;
    mem.buffers.assign(4, std::vector<uint8_t>(64 * 64 * size_t(bytes)));
    for (size_t i = 0; i < mem.buffers[0].size(); ++i)
      mem.buffers[0][i] = uint8_t(i * 7 + 3);
    std::vector<ir::ArgValue> args = {ir::ArgValue::pointer(0), ir::ArgValue::pointer(1),
                                      ir::ArgValue::pointer(2), ir::ArgValue::pointer(3)};
    Status s = ir::interpret(*m, "shared_trip", args, mem);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(mem.buffers[1], mem.buffers[0]);
    size_t halfBytes = mem.buffers[0].size() / 2;
    EXPECT_TRUE(std::memcmp(mem.buffers[3].data(), mem.buffers[0].data() + halfBytes, halfBytes) ==
                0);
    for (const PtxTarget &t : testTargets()) {
      LowerOptions o;
      o.target = t;
      auto lowered = lowerKernel(*m, o);
      ASSERT_TRUE(lowered.ok()) << lowered.message();
      const KernelPtx &kernel = lowered->kernel;
      // The tile and two ring slots, each padded and rounded to 16 bytes.
      int64_t tileBytes = (spec.paddedSize() * bytes + 15) / 16 * 16;
      EXPECT_GE(kernel.sharedBytes, 3 * tileBytes);
      EXPECT_EQ(widestAccess(kernel.ptx, "st.shared"), k.storeBytes) << kernel.ptx;
      EXPECT_EQ(widestAccess(kernel.ptx, "ld.shared"), k.loadBytes) << kernel.ptx;
      expectAssembles(kernel);
    }
  }
}

// A conversion through a padded scratch (ScratchPadding::Always: the layout tutorial's 32x32
// fp32 transpose), emitted and run on the CPU for every thread of the unoptimised IR: each
// st.shared of the plan writes its source elements at the padded address of its offset, each
// ld.shared reads back exactly its destination elements; the kernel assembles.
TEST(PaddedSharedLowering, PaddedScratchConversionsStoreAndLoadThroughThePadding) {
  LinearLayout src = blockedLayout({1, 1}, {1, 32}, {4, 1}, {1, 0}, {32, 32});
  LinearLayout dst = blockedLayout({1, 1}, {32, 1}, {1, 4}, {0, 1}, {32, 32});
  for (const PtxTarget &t : testTargets()) {
    auto plan = planLayoutConversion(src, dst, 32, t, ConversionPath::SharedMemory, false,
                                     ScratchPadding::Always);
    ASSERT_TRUE(plan.ok()) << plan.message();
    const SharedStep &st = plan->shared;
    ASSERT_FALSE(st.padding.empty());
    auto kernel = buildKernel(
        t, "padded_convert", 128,
        [&](KernelBuilder &kb, const PtxTarget &target) -> Status {
          LL_TRY_STATUS(emitConversionKernel(kb, target, *plan, 32));
          std::map<uint64_t, uint64_t> memory; // byte address -> tensor element (packed)
          size_t stores = 0, loads = 0;
          for (llvm::BasicBlock &bb : kb.function())
            for (llvm::Instruction &inst : bb) {
              auto *s = llvm::dyn_cast<llvm::StoreInst>(&inst);
              auto *l = llvm::dyn_cast<llvm::LoadInst>(&inst);
              llvm::Value *addr = s && s->getPointerAddressSpace() == 3   ? s->getPointerOperand()
                                  : l && l->getPointerAddressSpace() == 3 ? l->getPointerOperand()
                                                                          : nullptr;
              if (!addr)
                continue;
              llvm::Value *base = addr;
              while (auto *g = llvm::dyn_cast<llvm::GetElementPtrInst>(base))
                base = g->getPointerOperand();
              llvm::Value *roots[] = {addr};
              llvm::Value *leaves[] = {kb.threadId(), base};
              IntProgram prog(roots, leaves);
              const SharedAccess &a = s ? st.stores.at(stores++) : st.loads.at(loads++);
              const LinearLayout &side = s ? plan->src : plan->dst;
              for (uint64_t tid = 0; tid < 128; ++tid) {
                uint64_t in[] = {tid, 0};
                uint64_t at = prog.run(in)[0];
                uint64_t o = a.offsetConst ^ (s ? st.storeAddress : st.loadAddress).apply(tid);
                EXPECT_EQ(at, uint64_t(paddedOffset(int64_t(o), st.padding)) * 4)
                    << "thread " << tid;
                for (size_t i = 0; i < a.registers.size(); ++i) {
                  uint64_t element = offsetAt(side, uint64_t(a.registers[i]), tid);
                  if (s)
                    memory[at + 4 * i] = element;
                  else if (auto it = memory.find(at + 4 * i); it == memory.end())
                    ADD_FAILURE() << "thread " << tid << " reads unwritten scratch";
                  else
                    EXPECT_EQ(it->second, element) << "thread " << tid;
                }
              }
            }
          EXPECT_EQ(stores, st.stores.size());
          EXPECT_EQ(loads, st.loads.size());
          return Status::success();
        },
        /*optimize=*/false);
    ASSERT_TRUE(kernel.ok()) << kernel.message();
    auto optimized = conversionKernel(t, *plan, 32);
    ASSERT_TRUE(optimized.ok()) << optimized.message();
    expectAssembles(*optimized);
  }
}

// LowerOptions::conversionPadding reaches the kernel's conversions: convert_loop kernels
// (TileKernels.h) through shared memory keep their swizzles by default, take the padded scratch
// the planner takes for WhereCheaper and a padded one wherever it exists for Always; the
// allocation holds the padding, the report names it, and the PTX assembles for sm_80 and sm_90.
TEST(PaddedSharedLowering, ConversionPaddingOptionReachesKernels) {
  struct Case {
    LayoutSpec src, dst;
    ir::ScalarKind elem;
    int64_t rows, cols;
  };
  std::vector<Case> cases = {
      // The layout tutorial's 32x32 fp32 transpose: the model keeps the swizzle.
      {blockedSpec({1, 1}, {1, 32}, {4, 1}, {1, 0}), blockedSpec({1, 1}, {32, 1}, {1, 4}, {0, 1}),
       ir::ScalarKind::F32, 32, 32},
      // 128x64 f16 from columns of lanes to rows of 8x4 elements: the swizzle XORs eight
      // addresses, and the model takes padding ([256:+8]) both ways.
      {blockedSpec({1, 1}, {2, 16}, {1, 4}, {0, 1}), blockedSpec({8, 4}, {8, 4}, {1, 4}, {1, 0}),
       ir::ScalarKind::F16, 128, 64},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    const Case &k = cases[c];
    auto m = gpukernels::convertLoop(k.elem, k.rows, k.cols, k.src, k.dst, 4);
    ASSERT_TRUE(m.ok()) << m.message();
    for (const PtxTarget &t : testTargets()) {
      SCOPED_TRACE(t.name());
      for (ScratchPadding mode :
           {ScratchPadding::Never, ScratchPadding::WhereCheaper, ScratchPadding::Always}) {
        LowerOptions o;
        o.target = t;
        o.conversionPath = ConversionPath::SharedMemory;
        o.conversionPadding = mode;
        auto kernel = lowerKernel(*m, o);
        ASSERT_TRUE(kernel.ok()) << kernel.message();
        ASSERT_EQ(kernel->conversions.size(), 2u);
        for (int back = 0; back < 2; ++back) {
          const ConversionReport &r = kernel->conversions[size_t(back)];
          const std::vector<int64_t> shape{k.rows, k.cols};
          LinearLayout from = *toLinearLayout(back ? k.dst : k.src, shape);
          LinearLayout to = *toLinearLayout(back ? k.src : k.dst, shape);
          auto plan = planLayoutConversion(from, to, ir::bitWidth(k.elem), t,
                                           ConversionPath::SharedMemory, false, mode);
          ASSERT_TRUE(plan.ok()) << plan.message();
          std::string pads;
          for (const PadInterval &pi : plan->shared.padding)
            pads += (pads.empty() ? "" : ", ") + std::to_string(pi.interval) + ":+" +
                    std::to_string(pi.padding);
          EXPECT_EQ(r.padding, pads);
          EXPECT_EQ(r.scratchBytes, plan->shared.scratchBytes);
          EXPECT_GE(int64_t(kernel->kernel.sharedBytes), r.scratchBytes);
          if (mode == ScratchPadding::Never) {
            EXPECT_EQ(r.padding, "");
          }
          if (mode == ScratchPadding::Always) {
            EXPECT_NE(r.padding, "");
          }
        }
        expectAssembles(kernel->kernel);
      }
    }
  }
}
