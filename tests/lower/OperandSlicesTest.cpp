// Dot operands loaded in K slices (lower/lib/OperandSlices.h), seen in the PTX of
// examples/attention_d128.tir pipelined with 2 stages: each key block's Q K^T takes Q from a
// shared tile and K^T from the ring, P V takes V from the ring, and every one of those
// local_loads is sliced: its first K slice is loaded where the local_load stands, each later one
// one slice ahead of the mma.sync that takes it. A barrier between a local_load and its dot
// keeps the whole load where it stands. (tests/lower/PipelinedMatmulTest.cpp sees the same in
// the pipelined matmul.)
#include "Examples.h"
#include "Property.h"
#include "PtxCheck.h"
#include "RandomDot.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

Expected<LoweredKernel> lowerPipelined(const std::string &text, int stages) {
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, "attention_d128.tir"));
  ir::PipelineOptions po;
  po.numStages = stages;
  LL_TRY_STATUS(ir::runPipeline(m, po));
  LowerOptions o;
  o.target = PtxTarget{80, 80};
  return lowerKernel(m, o);
}

// The loop body: from its cp.async.wait_group to the branch back.
std::string loopBody(const std::string &ptx) {
  size_t from = ptx.find("cp.async.wait_group");
  size_t to = ptx.find("bra", from);
  return from == std::string::npos || to == std::string::npos ? "" : ptx.substr(from, to - from);
}

// The ldmatrix lines before the loop body's first mma.sync.
int loadsBeforeFirstMma(const std::string &body) {
  size_t mma = body.find("mma.sync");
  return countLines(body.substr(0, mma), "ldmatrix");
}

} // namespace

TEST(OperandSlices, AttentionLoadsEachOperandOneKSliceAhead) {
  auto k = lowerPipelined(exampleSource("attention_d128.tir"), 2);
  ASSERT_TRUE(k.ok()) << k.message();
  std::string body = loopBody(k->kernel.ptx);
  ASSERT_FALSE(body.empty());
  // The report: Q and K^T in 8 slices of 16 each, V in 2.
  ASSERT_EQ(k->slicedOperands.size(), 3u);
  const int operands[] = {0, 1, 1}, slices[] = {8, 8, 2};
  for (size_t i = 0; i < 3; ++i) {
    const SlicedOperandReport &r = k->slicedOperands[i];
    EXPECT_EQ(r.operand, operands[i]) << i;
    EXPECT_EQ(r.slices, slices[i]) << i;
    EXPECT_EQ(r.sliceK, 16) << i;
    EXPECT_EQ(r.where.rfind("attention_d128.tir:", 0), 0u) << r.where;
  }
  // Per warp and key block: Q (32 x 128) 16 ldmatrix.x4 in 8 slices of 2, K^T (128 x 32) 16 in 8
  // slices of 2, V (32 x 128) 16 .trans in 2 slices of 8; 64 mma.sync per dot.
  EXPECT_EQ(countLines(body, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"), 32);
  EXPECT_EQ(countLines(body, "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"), 16);
  EXPECT_EQ(countLines(body, "mma.sync.aligned.m16n8k16"), 128);
  // Before the first mma.sync only the first two slices of Q and K^T: 2 x (2 + 2) ldmatrix.
  EXPECT_EQ(loadsBeforeFirstMma(body), 8);
  // K^T's first slice where its local_load stands, before the next block's copies; then Q's
  // first slice and the second slices of both; then, per slice, its 8 mma.sync after the next
  // slice's 4 loads. P V's K (32 keys) is two slices: both before its mma.sync.
  EXPECT_PATTERNS(body, "CHECK: bar.sync\n"
                        "CHECK-COUNT-2: ldmatrix.sync.aligned.m8n8.x4.shared.b16\n"
                        "CHECK-NOT: ldmatrix\n"
                        "CHECK: cp.async.commit_group\n"
                        "CHECK-COUNT-6: ldmatrix.sync.aligned.m8n8.x4.shared.b16\n"
                        "CHECK-COUNT-8: mma.sync\n"
                        "CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16\n"
                        "CHECK-COUNT-8: mma.sync\n"
                        "CHECK-COUNT-4: ldmatrix.sync.aligned.m8n8.x4.shared.b16\n"
                        "CHECK-COUNT-8: mma.sync\n"
                        "CHECK: ex2.approx\n"
                        "CHECK-COUNT-16: ldmatrix.sync.aligned.m8n8.x4.trans\n"
                        "CHECK-COUNT-64: mma.sync\n");
  // Two slices live at a time: no spills (whole, Q, K^T and V would need 64 registers each next
  // to the 128 of O).
  expectAssembles(k->kernel, /*requireNoSpills=*/true);
}

TEST(OperandSlices, ABarrierBetweenLoadAndDotKeepsTheWholeLoad) {
  std::string text = exampleSource("attention_d128.tir");
  size_t dot = text.find("      %s = tt.dot");
  ASSERT_NE(dot, std::string::npos);
  text.insert(dot, "      gpu.barrier\n");
  auto k = lowerPipelined(text, 2);
  ASSERT_TRUE(k.ok()) << k.message();
  std::string body = loopBody(k->kernel.ptx);
  ASSERT_FALSE(body.empty());
  // Q's and K^T's loads stand before the barrier: all 32 of their ldmatrix before the first
  // mma.sync. Only V is sliced.
  ASSERT_EQ(k->slicedOperands.size(), 1u);
  EXPECT_EQ(k->slicedOperands[0].slices, 2);
  EXPECT_EQ(loadsBeforeFirstMma(body), 32);
  EXPECT_PATTERNS(body, "CHECK-COUNT-32: ldmatrix.sync.aligned.m8n8.x4.shared.b16\n"
                        "CHECK: bar.sync\n"
                        "CHECK-COUNT-64: mma.sync\n");
}

// Random dots (RandomDot.h): each lowers for sm_80 and sm_90, reports every shared operand whose
// K spans several mma.sync as sliced (in K / step slices, or whole where the slices' registers do
// not map), and assembles. LowerGpu.RandomSlicedDotsMatchTheInterpreter runs them.
TEST(OperandSlices, RandomDotsLowerSliceAndAssemble) {
  checkProperty(
      [] {
        RandomDot d = randomDot();
        RC_TAG(d.elem, d.width() / d.wordElems());
        auto m = ir::parseModule(d.text(), "dot.tir");
        RC_ASSERT(m.ok());
        for (int sm : {80, 90}) {
          LowerOptions o;
          o.target = PtxTarget{sm, 80};
          auto k = lowerKernel(*m, o);
          if (!k.ok())
            RC_FAIL(d.describe() + " sm_" + std::to_string(sm) + ": " + k.message());
          const int step = d.sliceStep();
          size_t want = d.k > step ? size_t(d.aShared) + size_t(d.bShared) : 0;
          RC_ASSERT(k->slicedOperands.size() == want);
          for (const SlicedOperandReport &r : k->slicedOperands)
            RC_ASSERT((r.slices == d.k / step && r.sliceK == step) ||
                      (r.slices == 1 && r.sliceK == d.k));
          if (sm == 80 && ptxasPath()) {
            PtxasReport rep = runPtxas(k->kernel.ptx, k->kernel.target.name());
            if (!rep.accepted)
              RC_FAIL(d.describe() + ": ptxas rejected the PTX");
          }
        }
      },
      60);
}
