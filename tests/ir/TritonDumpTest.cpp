// Kernels as Triton 3.6 printed them (examples/triton/): the parser reads them as they are, and
// the interpreter, with its checks of asynchronous copies and waits, computes their references
// (and those of the sm_90-only examples) before and after the pass pipeline.
#include "TritonDumps.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

TEST(TritonDumps, ParseVerifyAndRoundTrip) {
  for (const ExampleRun &run : tritonDumpRuns()) {
    SCOPED_TRACE(run.file);
    Module m = loadExample(run.file);
    ASSERT_TRUE(verify(m).ok()) << verify(m).message();
    std::string printed = print(m);
    auto again = parseModule(printed, "printed");
    ASSERT_TRUE(again.ok()) << again.message();
    EXPECT_EQ(print(*again), printed);
    // What the dump carries besides the kernel is gone: locations and tokens.
    EXPECT_EQ(printed.find("loc("), std::string::npos);
    EXPECT_EQ(printed.find("async.token"), std::string::npos);
  }
}

TEST(TritonDumps, ComputeTheirReferences) {
  for (const ExampleRun &run : sm90Runs()) {
    SCOPED_TRACE(run.file);
    Module m = loadExample(run.file);
    run.check(runExample(m, run));
  }
}

TEST(TritonDumps, ComputeTheirReferencesAfterThePasses) {
  for (const ExampleRun &run : sm90Runs()) {
    SCOPED_TRACE(run.file);
    Module m = loadExample(run.file);
    Status s = runPipeline(m);
    ASSERT_TRUE(s.ok()) << s.message();
    InterpreterOptions o;
    o.checkProxyFences = true;
    run.check(runExample(m, run, o));
  }
}

// The generic tt.reduce: a combining op that a ReduceKind stands for names the reduction; any
// other body stays the op's region; bodies of the wrong types, arity or terminator are errors
// that say so.
TEST(TritonDumps, GenericReduceReadsItsCombiner) {
  auto module = [](const std::string &body, const std::string &elem = "f32") {
    return "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], "
           "order = [0]}>\nmodule attributes {\"ttg.num-warps\" = 1 : i32} {\n  tt.func @f(%p: "
           "!tt.ptr<" +
           elem + ">) {\n    %x = tt.splat %p : !tt.ptr<" + elem + "> -> tensor<32x!tt.ptr<" +
           elem + ">, #b>\n    %v = tt.load %x : tensor<32x!tt.ptr<" + elem +
           ">, #b>\n    %r = \"tt.reduce\"(%v) <{axis = 0 : i32}> ({\n    ^bb0(%a: " + elem +
           " loc(\"a\"), %b: " + elem + " loc(\"b\")):\n" + body + "    }) : (tensor<32x" + elem +
           ", #b>) -> " + elem + " loc(#loc3)\n    tt.return\n  }\n}\n";
  };
  struct Case {
    std::string combiner, elem;
    ReduceKind kind;
  };
  for (const Case &c :
       {Case{"arith.addf", "f32", ReduceKind::Sum}, Case{"arith.maximumf", "f32", ReduceKind::Max},
        Case{"arith.maxnumf", "f32", ReduceKind::MaxNum},
        Case{"arith.minnumf", "f16", ReduceKind::MinNum},
        Case{"arith.maxsi", "i32", ReduceKind::Max}, Case{"arith.minui", "i8", ReduceKind::UMin},
        Case{"arith.addi", "i64", ReduceKind::Sum}, Case{"arith.mulf", "f32", ReduceKind::Prod},
        Case{"arith.muli", "i16", ReduceKind::Prod}}) {
    SCOPED_TRACE(c.combiner);
    auto m = parseModule(module("      %s = " + c.combiner + " %b, %a : " + c.elem +
                                    "\n      tt.reduce.return %s : " + c.elem + "\n",
                                c.elem),
                         "t.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
    const Op &r = m->functions[0].body.ops[2];
    EXPECT_EQ(r.kind, OpKind::Reduce);
    EXPECT_EQ(r.attrs.reduceKind, c.kind);
  }
  auto error = [&](const std::string &body, const std::string &elem = "f32") {
    auto m = parseModule(module(body, elem), "t.tir");
    if (!m.ok())
      return m.message();
    Status v = verify(*m);
    return v.ok() ? std::string("<valid>") : v.message();
  };
  // Other bodies (any other op, arguments used otherwise, several ops) stay the op's region.
  for (const std::string body :
       {"      %s = arith.subf %a, %b : f32\n      tt.reduce.return %s : f32\n",
        "      %s = arith.addf %a, %a : f32\n      tt.reduce.return %s : f32\n",
        "      %s = arith.addf %a, %b : f32\n      tt.reduce.return %a : f32\n",
        "      %s = arith.addf %a, %b : f32\n      %t = arith.mulf %s, %s : f32\n"
        "      tt.reduce.return %t : f32\n"}) {
    SCOPED_TRACE(body);
    auto m = parseModule(module(body, "f32"), "t.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
    EXPECT_EQ(m->functions[0].body.ops[2].regions.size(), 1u);
  }
  // A body on f16 for an f32 operand: the verifier says so.
  std::string text =
      module("      %s = arith.addf %a, %b : f16\n      tt.reduce.return %s : f16\n");
  text.replace(text.find("%a: f32"), 7, "%a: f16");
  text.replace(text.find("%b: f32"), 7, "%b: f16");
  auto mismatch = parseModule(text, "t.tir");
  ASSERT_TRUE(mismatch.ok()) << mismatch.message();
  EXPECT_NE(verify(*mismatch).message().find("must have operand 0's element type f32, got f16"),
            std::string::npos)
      << verify(*mismatch).message();
  EXPECT_NE(error("      %s = arith.addf %a, %b : f32\n      tt.return\n")
                .find("a combining body holds scalar arith ops only, got tt.return"),
            std::string::npos)
      << error("      %s = arith.addf %a, %b : f32\n      tt.return\n");
  // Two tensors reduced together need a body of four arguments.
  std::string pair = module("");
  pair.replace(pair.find("\"tt.reduce\"(%v)"), 16, "\"tt.reduce\"(%v, %v)");
  auto two = parseModule(pair, "t.tir");
  ASSERT_FALSE(two.ok());
  EXPECT_NE(two.message().find("the combining function of 2 operand(s) takes 4 arguments, got 2"),
            std::string::npos)
      << two.message();
  // maxnum of integers has no combiner: the verifier says so.
  auto m = parseModule(
      "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = "
      "[0]}>\nmodule {\n  tt.func @f(%p: !tt.ptr<i32>) {\n    %x = tt.splat %p : !tt.ptr<i32> -> "
      "tensor<32x!tt.ptr<i32>, #b>\n    %v = tt.load %x : tensor<32x!tt.ptr<i32>, #b>\n    %r = "
      "tt.reduce maxnum %v {axis = 0 : i32} : tensor<32xi32, #b> -> i32\n    tt.return\n  }\n}\n",
      "t.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_NE(verify(*m).message().find("maxnum reduces floats only"), std::string::npos)
      << verify(*m).message();
}

// The generic tt.scan: its combiner and direction are read, and it prints in the short form,
// which reads back the same; a body that does not end in tt.scan.return, or whose arguments do
// not match its operands, is an error that says so.
TEST(TritonDumps, GenericScanReadsItsCombinerAndDirection) {
  auto module = [](const std::string &props, const std::string &combiner,
                   const std::string &ret = "tt.scan.return", const std::string &operands = "%v") {
    return "#b = #ttg.blocked<{sizePerThread = [2, 1], threadsPerWarp = [4, 8], warpsPerCTA = "
           "[2, 1], order = [1, 0]}>\nmodule attributes {\"ttg.num-warps\" = 2 : i32} {\n  tt.func @f(%p: !tt.ptr<i32>) {\n    %x = "
           "tt.splat %p : !tt.ptr<i32> -> tensor<16x8x!tt.ptr<i32>, #b>\n    %v = tt.load %x : "
           "tensor<16x8x!tt.ptr<i32>, #b>\n    %r = \"tt.scan\"(" +
           operands + ") <{" + props +
           "}> ({\n    ^bb0(%a: i32 loc(\"a\"), %b: i32 loc(\"b\")):\n      %s = " + combiner +
           " %a, %b : i32 loc(#loc1)\n      " + ret +
           " %s : i32 loc(#loc2)\n    }) : (tensor<16x8xi32, #b>) -> tensor<16x8xi32, #b> "
           "loc(#loc3)\n    tt.return\n  }\n}\n";
  };
  struct Case {
    std::string props, combiner;
    ReduceKind kind;
    int64_t axis;
    bool reverse;
  };
  for (const Case &c :
       {Case{"axis = 0 : i32, reverse = false", "arith.addi", ReduceKind::Sum, 0, false},
        Case{"axis = 1 : i32, reverse = true", "arith.muli", ReduceKind::Prod, 1, true},
        Case{"axis = 0 : i32", "arith.maxui", ReduceKind::UMax, 0, false}}) {
    SCOPED_TRACE(c.props + " " + c.combiner);
    auto m = parseModule(module(c.props, c.combiner), "t.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
    const Op &r = m->functions[0].body.ops[2];
    EXPECT_EQ(r.kind, OpKind::Scan);
    EXPECT_EQ(r.attrs.reduceKind, c.kind);
    EXPECT_EQ(r.attrs.axis, c.axis);
    EXPECT_EQ(r.attrs.reverse, c.reverse);
    std::string printed = print(*m);
    EXPECT_NE(printed.find("tt.scan " + std::string(name(c.kind)) +
                           " %v {axis = " + std::to_string(c.axis) +
                           " : i32, reverse = " + (c.reverse ? "true" : "false") + "}"),
              std::string::npos)
        << printed;
    auto again = parseModule(printed, "printed.tir");
    ASSERT_TRUE(again.ok()) << again.message();
    EXPECT_EQ(print(*again), printed);
  }
  auto error = [&](const std::string &text) {
    auto m = parseModule(text, "t.tir");
    return m.ok() ? std::string("<parsed>") : m.message();
  };
  EXPECT_NE(error(module("axis = 0 : i32", "arith.addi", "tt.reduce.return"))
                .find("expected 'tt.scan.return'"),
            std::string::npos)
      << error(module("axis = 0 : i32", "arith.addi", "tt.reduce.return"));
  EXPECT_NE(error(module("axis = 0 : i32, reverse = 2", "arith.addi"))
                .find("attribute 'reverse' must be true or false"),
            std::string::npos);
  EXPECT_NE(error(module("axis = 0 : i32", "arith.addi", "tt.scan.return", "%v, %v"))
                .find("takes 4 arguments, got 2"),
            std::string::npos);
  EXPECT_NE(error(module("reverse = true", "arith.addi")).find("missing attribute 'axis'"),
            std::string::npos);
}

// Triton's async tokens are read where it writes them and dropped; a token used as a value, or
// a loop that yields its tokens elsewhere than it carries them, is an error.
TEST(TritonDumps, AsyncTokensAreReadAndDropped) {
  const std::string dump = readFile(examplePath("triton/matmul_mma_sync.ttgir"));
  auto m = parseModule(dump, "matmul_mma_sync.ttgir");
  ASSERT_TRUE(m.ok()) << m.message();
  // The loop carries 9 values in the text, 4 of them tokens.
  const Op *loop = nullptr;
  for (const Op &op : m->functions[0].body.ops)
    if (op.kind == OpKind::For)
      loop = &op;
  ASSERT_NE(loop, nullptr);
  EXPECT_EQ(loop->results.size(), 5u);
  EXPECT_EQ(loop->regions[0].args.size(), 6u); // the induction variable and 5 values
  EXPECT_EQ(loop->regions[0].ops.back().operands.size(), 5u);

  auto edited = [&](const std::string &from, const std::string &to) {
    std::string text = dump;
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    auto r = parseModule(text, "t.tir");
    return r.ok() ? std::string("<parsed>") : r.message();
  };
  EXPECT_NE(edited("ttg.async_wait %acc_60, %acc_62", "ttg.async_wait %acc_60, %K")
                .find("expected an async token, got '%K'"),
            std::string::npos);
  EXPECT_NE(edited("tt.splat %acc_43 : i1", "tt.splat %acc_38 : i1")
                .find("'%acc_38' is an async token, which only async ops, loops and yields take"),
            std::string::npos);
  EXPECT_NE(edited("scf.yield %acc_74, %a_75, %b_76, %acc_79, %acc_68, %acc_61,",
                   "scf.yield %acc_74, %a_75, %b_76, %acc_79, %acc_61, %acc_68,")
                .find("expected !ttg.async.token for a yielded token, got 'i32'"),
            std::string::npos);
}

// Source locations are skipped wherever MLIR prints them, and only there: a `#loc` alias of a
// layout is still a layout alias.
TEST(TritonDumps, LocationsAreSkipped) {
  std::string text =
      "#loc = loc(\"/a (b).py\":3:0)\n#loc1 = loc(callsite(#loc at #loc))\n"
      "#loc2 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], "
      "order = [0]}>\nmodule attributes {\"ttg.num-warps\" = 1 : i32} {\n"
      "  tt.func public @f(%p: !tt.ptr<f32> loc(\"p\"(#loc)), %c-1_i32: i32 loc(fused[#loc, "
      "#loc1])) attributes {noinline = false} {\n"
      "    %0 = tt.splat %p : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #loc2> loc(#loc1)\n"
      "    tt.return loc(#loc)\n  } loc(#loc)\n} loc(#loc)\n#loc3 = loc(\"x\"(#loc1))\n";
  auto m = parseModule(text, "t.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  EXPECT_TRUE(verify(*m).ok()) << verify(*m).message();
  EXPECT_EQ(m->functions[0].body.args.size(), 2u);
  // An unclosed location is no location: the parser reports what it found.
  auto bad = parseModule("module {\n  tt.func @f() {\n    tt.return loc(\"x\"\n  }\n}\n", "t.tir");
  EXPECT_FALSE(bad.ok());
}
