#include "Examples.h"
#include "TritonDumps.h"

#include "linlayout/ir/Builder.h"
#include "linlayout/ir/CtaSplit.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/PlanCtas.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/ir/Walk.h"
#include "linlayout/layout/PlanConversion.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

using P = std::pair<int64_t, int64_t>;

TEST(PlanCtas, DotSplitRuleExamples) {
  auto s = [](int64_t m, int64_t n, int64_t c) {
    DotCtaSplit r = planDotCtaSplit(m, n, c);
    return std::make_pair(r.splitM, r.splitN);
  };
  EXPECT_EQ(s(256, 128, 2), P(2, 1));
  EXPECT_EQ(s(128, 128, 2), P(1, 2));
  EXPECT_EQ(s(256, 256, 4), P(2, 2));
  EXPECT_EQ(s(512, 128, 4), P(4, 1));
  // 128-row chunks would leave 32 columns per CTA; 64-row chunks keep 64.
  EXPECT_EQ(s(128, 128, 4), P(2, 2));
  // Too small for the cluster: the 64-row attempt is the answer.
  EXPECT_EQ(s(64, 64, 4), P(1, 4));
  EXPECT_EQ(s(128, 64, 1), P(1, 1));
}

// Ensures: splitM * splitN == numCtas; no chunk below 64 rows or columns when one exists.
RC_GTEST_PROP(PlanCtas, DotSplitCoversTheCluster, ()) {
  int64_t m = int64_t(1) << *rc::gen::inRange(4, 12);
  int64_t n = int64_t(1) << *rc::gen::inRange(4, 12);
  int64_t c = int64_t(1) << *rc::gen::inRange(0, 5);
  DotCtaSplit s = planDotCtaSplit(m, n, c);
  RC_ASSERT(s.splitM * s.splitN == c);
  bool exists = false;
  for (int64_t sm = 1; sm <= c; sm *= 2)
    exists = exists || (m / sm >= 64 && n / (c / sm) >= 64);
  if (exists)
    RC_ASSERT(m / s.splitM >= 64 && n / s.splitN >= 64);
}

TEST(PlanCtas, MultiCtaKernelsKeepTheirResults) {
  std::vector<ExampleRun> runs = exampleRuns();
  for (ExampleRun &r : tritonDumpRuns())
    runs.push_back(std::move(r));
  for (const char *file : {"matmul.tir", "row_reduce.tir", "transpose_copy.tir", "softmax.tir",
                           "triton/scans.ttgir", "triton/compact.ttgir"})
    for (int ctas : {2, 4})
      for (int stages : {1, 3}) {
        SCOPED_TRACE(std::string(file) + " on " + std::to_string(ctas) + " CTAs, " +
                     std::to_string(stages) + " stages");
        ExampleRun run;
        for (const ExampleRun &r : runs)
          if (r.file == file)
            run = r;
        Module before = loadExample(file);
        before.numCtas = ctas;
        ASSERT_TRUE(verify(before).ok()) << verify(before).message();
        Module after = before;
        PipelineOptions po;
        po.numStages = stages;
        Status s = runPipeline(after, po);
        ASSERT_TRUE(s.ok()) << s.message();
        // Every tensor layout covers the whole cluster, and no conversion moves data between CTAs
        // (each CTA works on, and stores, its own part; a part held by every CTA may be narrowed
        // to one CTA's).
        for (const Function &f : after.functions)
          walkOps(f.body, [&](const Op &op) {
            for (ValueId r : op.results)
              if (f.type(r).isTensor()) {
                EXPECT_EQ(numCtasOf(after.layoutOf(f.type(r))), ctas) << print(after);
              }
            // A reduction or scan stays inside each CTA: its axis is not cut over the CTAs.
            if (op.kind == OpKind::Reduce || op.kind == OpKind::Scan) {
              EXPECT_FALSE(
                  splitsOverCtas(after.layoutOf(f.type(op.operands[0])), int(op.attrs.axis)))
                  << print(after);
            }
            // scans.ttgir scans one tile along rows and along columns and stores both in the
            // split of its stores: one of them must cross the CTAs.
            if (op.kind != OpKind::ConvertLayout || std::string(file) == "triton/scans.ttgir")
              return;
            const Type &from = f.type(op.operands[0]), &to = f.type(op.results[0]);
            auto src = toLinearLayout(after.layoutOf(from), from.shape());
            auto dst = toLinearLayout(after.layoutOf(to), to.shape());
            ASSERT_TRUE(src.ok() && dst.ok());
            PlanOptions o;
            o.target = GpuTarget::Sm90;
            auto plan = planConversion(*src, *dst, 32, o);
            ASSERT_TRUE(plan.ok()) << plan.message();
            EXPECT_NE(plan->path, ConversionPath::DistributedSharedMemory)
                << "line " << op.loc.line << "\n"
                << print(after);
          });
        // The matmul's loop is pipelined on clusters too: each CTA copies the whole A and B tiles
        // its layouts were written for into rings of its own.
        if (std::string(file) == "matmul.tir" && stages > 1) {
          int copies = 0;
          walkOps(after.functions[0].body,
                  [&](const Op &op) { copies += op.kind == OpKind::AsyncCopyGlobalToLocal; });
          EXPECT_GT(copies, 0) << print(after);
        }
        InterpreterOptions checked; // the pipeline ends with fence insertion
        checked.checkProxyFences = true;
        Memory a = runExample(before, run);
        Memory b = runExample(after, run, checked);
        EXPECT_EQ(a.buffers, b.buffers);
      }
}

TEST(PlanCtas, MatmulAccumulatorIsSplitAndCarriedSplit) {
  Module m = loadExample("matmul.tir");
  m.numCtas = 2;
  ASSERT_TRUE(runPipeline(m).ok());
  const Function &f = m.functions[0];
  walkOps(f.body, [&](const Op &op) {
    if (op.kind == OpKind::Dot) {
      EXPECT_TRUE(splitsOverCtas(m.layoutOf(f.type(op.results[0])))) << print(m);
    }
    if (op.kind == OpKind::For) {
      EXPECT_TRUE(splitsOverCtas(m.layoutOf(f.type(op.results[0])))) << print(m);
    }
    // C is stored from the accumulator's layout (whole sectors), split as the dot is: each CTA
    // stores its half.
    if (op.kind == OpKind::Store) {
      EXPECT_TRUE(splitsOverCtas(m.layoutOf(f.type(op.operands[0])))) << print(m);
      EXPECT_EQ(f.type(op.operands[1]).layout(), f.type(op.operands[0]).layout());
    }
  });
}

// splitsOverCtas with a dimension: whether some block basis moves along it.
TEST(PlanCtas, SplitsAlongADimension) {
  auto mma = [](std::vector<int64_t> split) {
    auto cga = CgaLayout::fromSplit(split, split, std::vector<int64_t>{1, 0}).value();
    return LayoutSpec(NvidiaMmaSpec::make(2, 0, {4, 1}, {16, 8}, cga).value());
  };
  LayoutSpec rows = mma({4, 1}), both = mma({2, 2});
  EXPECT_TRUE(splitsOverCtas(rows, 0));
  EXPECT_FALSE(splitsOverCtas(rows, 1));
  EXPECT_TRUE(splitsOverCtas(both, 1));
  EXPECT_TRUE(splitsOverCtas(both));
  EXPECT_TRUE(splitsOverCtas(LayoutSpec(SliceSpec::make(1, rows).value()), 0));
}

// A dot too small for its cluster is cut no finer than one instruction tile per warp (16 rows x
// 8 columns per warp for mma v2): 128 x 8 on warps [4, 1] and 4 CTAs is cut in 2 along M only
// (Triton's rule alone would cut 2 x 2, leaving each CTA 4 columns of an 8-column instruction),
// the other CTAs holding copies.
TEST(PlanCtas, SmallDotsAreCutNoFinerThanTheirInstructions) {
  Module m;
  m.numCtas = 4;
  m.numWarps = 4;
  m.target = "cuda:90";
  Builder b(m);
  NvidiaMmaSpec mma = NvidiaMmaSpec::make(2, 0, {4, 1}, {16, 8}).value();
  LayoutId acc = b.layout(mma);
  LayoutId opA = b.layout(DotOperandSpec::make(0, mma, 2).value());
  LayoutId opB = b.layout(DotOperandSpec::make(1, mma, 2).value());
  b.beginFunction("k", std::vector<Type>{});
  ValueId a = b.constantFloat(1.0, Type::tensor({128, 16}, ElemType{ScalarKind::F16}, opA));
  ValueId w = b.constantFloat(1.0, Type::tensor({16, 8}, ElemType{ScalarKind::F16}, opB));
  ValueId z = b.constantFloat(0.0, Type::tensor({128, 8}, ElemType{ScalarKind::F32}, acc));
  b.dot(a, w, z);
  b.ret();
  ASSERT_TRUE(b.endFunction().ok());
  ASSERT_TRUE(verify(m).ok()) << verify(m).message();
  ASSERT_TRUE(planCtas(m).ok());
  int dots = 0;
  walkOps(m.functions[0].body, [&](const Op &op) {
    if (op.kind != OpKind::Dot)
      return;
    ++dots;
    auto cga = cgaOf(m.layoutOf(m.functions[0].type(op.results[0])));
    ASSERT_TRUE(cga.has_value());
    EXPECT_EQ(cga->splitNum(0), 2);
    EXPECT_EQ(cga->splitNum(1), 1);
  });
  EXPECT_EQ(dots, 1);
}

TEST(PlanCtas, LayoutsForAnotherClusterSizeAreRejected) {
  std::string text =
      "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
      "order = [0], CGALayout = [[1]]}>\n"
      "module attributes {\"ttg.num-ctas\" = 4 : i32} {\n  tt.func @k(%x: f32) {\n"
      "    %v = tt.splat %x : f32 -> tensor<128xf32, #b>\n    tt.return\n  }\n}\n";
  auto m = parseModule(text, "c.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_NE(verify(*m).message().find("covers 2 CTAs, the kernel has 4"), std::string::npos)
      << verify(*m).message();
}
