#include "Examples.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

const char *kHeader =
    "#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
    "order = [0]}>\n";

// A function body wrapped in a module, so that error tests stay short. Line 1 is the alias, line
// 2 the module, line 3 the function header, line 4 the first body line.
std::string wrap(const std::string &body, const std::string &args = "%p: !tt.ptr<f32>, %n: i32") {
  return std::string(kHeader) + "module {\n  tt.func @f(" + args + ") {\n" + body +
         "    tt.return\n  }\n}\n";
}

std::string parseError(const std::string &text) {
  auto m = parseModule(text, "t.tir");
  return m.ok() ? std::string("<parsed>") : m.message();
}

std::string verifyError(const std::string &text) {
  auto m = parseModule(text, "t.tir");
  if (!m.ok())
    return "<parse error> " + m.message();
  Status s = verify(*m);
  return s.ok() ? std::string("<verified>") : s.message();
}

} // namespace

TEST(Parser, ExamplesParseVerifyAndRoundTrip) {
  for (const std::string &file : exampleFiles()) {
    SCOPED_TRACE(file);
    Module m = loadExample(file);
    Status s = verify(m);
    ASSERT_TRUE(s.ok()) << s.message();
    std::string printed = print(m);
    auto again = parseModule(printed, "printed");
    ASSERT_TRUE(again.ok()) << again.message() << "\n" << printed;
    ASSERT_TRUE(verify(*again).ok());
    EXPECT_EQ(print(*again), printed);
  }
}

TEST(Parser, KeepsNamesAliasesAndHints) {
  Module m = loadExample("matmul.tir");
  std::string p = print(m);
  EXPECT_NE(p.find("#mma = #ttg.nvidia_mma<{versionMajor = 2"), std::string::npos) << p;
  EXPECT_NE(p.find("%acc:3 = scf.for %k = %c0 to %K step %c32 iter_args(%accv = %zero"),
            std::string::npos)
      << p;
  EXPECT_NE(p.find("tt.store %cptrs, %acc#0"), std::string::npos) << p;
  EXPECT_NE(p.find("%lda: i32 {tt.divisibility = 16 : i32}"), std::string::npos) << p;
  EXPECT_NE(p.find("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>"), std::string::npos);
}

TEST(Parser, AcceptsOlderTritonSpellings) {
  std::string text =
      "#blocked = #triton_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], "
      "warpsPerCTA = [4, 1], order = [1, 0], CTAsPerCGA = [1, 1], CTASplitNum = [1, 1], "
      "CTAOrder = [1, 0]}>\n"
      "module attributes {\"triton_gpu.num-warps\" = 4 : i32} {\n"
      "  tt.func public @k(%a: !tt.ptr<f32, 1>) attributes {noinline = false} {\n"
      "    %0 = tt.get_program_id {axis = 0 : i32} : i32\n"
      "    %1 = arith.constant dense<1.000000e+00> : tensor<32x32xf32, #blocked>\n"
      "    %2 = arith.addf %1, %1 {fastmath = #arith.fastmath<none>} : tensor<32x32xf32, #blocked>\n"
      "    tt.return\n  }\n}\n";
  // `#arith.fastmath<none>` is not a dictionary value we know; the error says where.
  EXPECT_NE(parseError(text).find("t.tir:6:"), std::string::npos) << parseError(text);
  std::string ok = text;
  ok.replace(ok.find(" {fastmath"), std::string(" {fastmath = #arith.fastmath<none>}").size(), "");
  EXPECT_EQ(verifyError(ok), "<verified>");
}

TEST(Parser, ErrorsNamePositionAndExpectation) {
  struct Case {
    std::string text;
    std::string want;
  };
  std::vector<Case> cases = {
      {wrap("    %0 = arith.addi %n, %m : i32\n"), "t.tir:4:25: use of undefined value '%m'"},
      {wrap("    %0 = arith.frob %n, %n : i32\n"), "t.tir:4:10: unknown op 'arith.frob'"},
      {wrap("    %0 = arith.addi %n %n : i32\n"),
       "t.tir:4:24: arith.addi takes 2 operand(s), got 1"},
      {wrap("    %0 = arith.addi %n, %n : f32\n"),
       "t.tir:4:30: '%n' has type i32, but the op says f32"},
      {wrap(
           "    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<48xi32, #blocked>\n"),
       "t.tir:4:67: dimension 48 must be a power of two"},
      {wrap("    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #nope>\n"),
       "t.tir:4:75: unknown layout alias '#nope'"},
      {wrap("    %0 = tt.make_range {end = 64 : i32} : tensor<64xi32, #blocked>\n"),
       "missing attribute 'start'"},
      {wrap("    %0 = arith.constant 1 : i32\n    %0 = arith.constant 2 : i32\n"),
       "t.tir:5:5: redefinition of '%0'"},
      {wrap("    %0 = arith.constant 1 : i32\n  }\n"),
       "t.tir:6:5: expected 'tt.func' to start a function, got 'tt.return'"},
      {"module {\n  tt.func @f(%a i32) {\n  }\n}\n", "t.tir:2:17: expected ':' after an argument"},
      {"#b = #ttg.blocked<{sizePerThread = [1]}>\n",
       "t.tir:1:6: in layout attribute: 1:1: '#ttg.blocked' needs 'threadsPerWarp'"},
      {"#b = #ttg.blocked<{sizePerThread = [3], threadsPerWarp = [32], warpsPerCTA = [4], "
       "order = [0]}>\n",
       "t.tir:1:6: "},
      {"#s = #ttg.padded_shared<[24:+4] {order = [1, 0], shape = [64, 64]}>\n",
       "t.tir:1:6: in layout attribute: 1:1: padded_shared: interval 24 is not a power of two"},
      {wrap("    scf.for %i = %n to %n step %n : i32 {\n"),
       "t.tir:8:1: expected '}' to close the module, got end of input"},
      {wrap("    %0 = arith.constant 1.5 : i32\n"), "integer type i32 needs an integer"},
      {wrap("    %0 = arith.cmpi olt, %n, %n : i32\n"), "unknown arith.cmpi predicate 'olt'"},
      {wrap("    %0 = tt.reduce avg %n {axis = 0 : i32} : i32 -> i32\n"),
       "expected a combining function (sum, prod, max, min, maxnum, minnum, umax or umin), got "
       "'avg'"},
      {wrap("    %0 = arith.constant 1 : tensor<1x2x4x8x16x32x64x128x2xi32, #blocked>\n"),
       "rank exceeds 8"},
      {wrap("    %0 = arith.constant 1 : tensor<1024x1024x2xi32, #blocked>\n"),
       "more than 2^20 elements"},
      {wrap("    %0 = tt.atomic_rmw mul, relaxed, gpu, %p, %n : (!tt.ptr<f32>, i32) -> i32\n"),
       "t.tir:4:24: expected an atomic operation (and, or, xor, add, fadd, max, min, umax, umin, "
       "exch), got 'mul'"},
      {wrap("    %0 = tt.atomic_rmw add, seq_cst, gpu, %p, %n : (!tt.ptr<f32>, i32) -> i32\n"),
       "expected a memory ordering (relaxed, acquire, release, acq_rel), got 'seq_cst'"},
      {wrap("    %0 = tt.atomic_cas relaxed, gpu, %p, %n : (!tt.ptr<f32>, i32) -> i32\n"),
       "tt.atomic_cas takes a pointer, a compare value, a new value [, mask]"},
      {wrap("    %0 = tt.atomic_cas add, relaxed, gpu, %p, %n, %n : (!tt.ptr<f32>, i32, i32) -> "
            "i32\n"),
       "expected a memory ordering (relaxed, acquire, release, acq_rel), got 'add'"},
      // Branches.
      {wrap("    %c = arith.cmpi eq, %n, %n : i32\n    %0 = scf.if %c -> (i32) {\n"
            "      scf.yield %n : i32\n    }\n"),
       "t.tir:8:5: an scf.if with results needs an else block, got 'tt.return'"},
      {wrap("    %c = arith.cmpi eq, %n, %n : i32\n    %0 = scf.if %c -> (i32) {\n    } else {\n"
            "      scf.yield %n : i32\n    }\n"),
       "t.tir:5:29: the then block of an scf.if with results must end with scf.yield"},
      {wrap("    %c = arith.cmpi eq, %n, %n : i32\n    scf.if %c {\n"
            "      %a = arith.addi %n, %n : i32\n    }\n    %b = arith.addi %a, %n : i32\n"),
       "t.tir:8:21: use of undefined value '%a'"},
      {wrap("    scf.if %c {\n    }\n"), "t.tir:4:12: use of undefined value '%c'"},
  };
  for (const Case &c : cases) {
    std::string e = parseError(c.text);
    EXPECT_NE(e.find(c.want), std::string::npos)
        << "got:  " << e << "\nwant: " << c.want << "\nin:\n"
        << c.text;
  }
}

TEST(Parser, DeepLoopNestingIsAnErrorNotACrash) {
  std::string body;
  for (int i = 0; i < kMaxNesting + 5; ++i)
    body += "scf.for %i" + std::to_string(i) + " = %n to %n step %n : i32 {\n";
  for (int i = 0; i < kMaxNesting + 5; ++i)
    body += "scf.yield\n}\n";
  std::string e = parseError(wrap(body));
  EXPECT_NE(e.find("loops nested more than 32 deep"), std::string::npos) << e;
}

TEST(Parser, DeepIfNestingIsAnErrorNotACrash) {
  std::string body = "%c = arith.cmpi eq, %n, %n : i32\n";
  for (int i = 0; i < kMaxNesting + 5; ++i)
    body += "scf.if %c {\n";
  for (int i = 0; i < kMaxNesting + 5; ++i)
    body += "}\n";
  std::string e = parseError(wrap(body));
  EXPECT_NE(e.find("regions nested more than 32 deep"), std::string::npos) << e;
}

// Each branch has its own names, as in MLIR: both may define %x, and the printer keeps the
// names apart in the text it makes.
TEST(Parser, BranchesHaveTheirOwnNames) {
  std::string text = wrap("    %c = arith.cmpi eq, %n, %n : i32\n"
                          "    %r = scf.if %c -> (i32) {\n"
                          "      %x = arith.addi %n, %n : i32\n      scf.yield %x : i32\n"
                          "    } else {\n"
                          "      %x = arith.muli %n, %n : i32\n      scf.yield %x : i32\n"
                          "    }\n");
  auto m = parseModule(text, "t.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
  std::string printed = print(*m);
  EXPECT_NE(printed.find("%x = arith.addi"), std::string::npos) << printed;
  EXPECT_NE(printed.find("%x_1 = arith.muli"), std::string::npos) << printed;
  auto again = parseModule(printed, "t.tir");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), printed);
}

// A loop without iteration arguments may leave out its empty scf.yield, as MLIR prints it (and
// Triton's dumps show it); one with iteration arguments must yield them.
TEST(Parser, LoopsWithoutIterationArgumentsMayLeaveOutTheirYield) {
  std::string text = wrap("    scf.for %i = %n to %n step %n : i32 {\n"
                          "      tt.store %p, %n : !tt.ptr<i32>\n"
                          "    }\n",
                          "%p: !tt.ptr<i32>, %n: i32");
  auto m = parseModule(text, "t.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
  const Block &body = m->functions[0].body.ops[0].regions[0];
  ASSERT_EQ(body.ops.size(), 2u);
  EXPECT_EQ(body.ops[1].kind, OpKind::Yield);
  auto again = parseModule(print(*m), "t.tir");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), print(*m));
  EXPECT_NE(verifyError(wrap("    %0 = scf.for %i = %n to %n step %n iter_args(%a = %n) -> (i32) "
                             ": i32 {\n    }\n"))
                .find("the loop body must end with scf.yield"),
            std::string::npos);
}

TEST(Parser, DeepLayoutNestingIsAnErrorNotACrash) {
  std::string attr = "#ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], "
                     "warpsPerCTA = [4, 1], order = [1, 0]}>";
  for (int i = 0; i < 40; ++i)
    attr = "#ttg.slice<{dim = 0, parent = " + attr + "}>";
  std::string e = parseError("#x = " + attr + "\n");
  EXPECT_NE(e.find("nesting deeper than 32 levels"), std::string::npos) << e;
}

// Results named one by one (`%a, %b = tt.split`, as MLIR prints an op whose results have names of
// their own) are read like `%s:2 = ...`; the names must be as many as the results.
TEST(Parser, ResultsNamedOneByOne) {
  std::string text = readFile(examplePath("join_split.tir"));
  auto rename = [](std::string t, const std::string &results) {
    t.replace(t.find("%s:2 = tt.split"), 15, results + " = tt.split");
    t.replace(t.find("%s#1, %s#0"), 10, "%hi, %lo");
    return t;
  };
  auto m = parseModule(rename(text, "%lo, %hi"), "named.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
  auto group = parseModule(text, "group.tir");
  ASSERT_TRUE(group.ok()) << group.message();
  // The same program: split's two results feed the subtraction in the same order.
  const Function &f = m->functions[0], &g = group->functions[0];
  ASSERT_EQ(f.body.ops.size(), g.body.ops.size());
  for (size_t i = 0; i < f.body.ops.size(); ++i) {
    EXPECT_EQ(f.body.ops[i].kind, g.body.ops[i].kind);
    EXPECT_EQ(f.body.ops[i].operands, g.body.ops[i].operands) << i;
  }
  auto three = parseModule(rename(text, "%lo, %hi, %more"), "three.tir");
  ASSERT_FALSE(three.ok());
  EXPECT_NE(three.message().find("tt.split has 2 result(s), but the text names 3"),
            std::string::npos)
      << three.message();
  auto dangling = parseModule(rename(text, "%lo,"), "dangling.tir");
  ASSERT_FALSE(dangling.ok());
  EXPECT_NE(dangling.message().find("expected a result name, got '='"), std::string::npos)
      << dangling.message();
  auto twice = parseModule(rename(text, "%lo, %lo"), "twice.tir");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.message().find("redefinition of '%lo'"), std::string::npos) << twice.message();
}

TEST(Parser, HexFloatConstantsReadTheirBits) {
  // Dumps write NaNs and infinities as the type's bits in hex.
  auto valueOf = [](const std::string &bits, const std::string &type) {
    std::string text = "module {\n  tt.func @k() {\n    %c = arith.constant " + bits + " : " +
                       type + "\n    tt.return\n  }\n}\n";
    auto m = parseModule(text, "hex.tir");
    EXPECT_TRUE(m.ok()) << m.message();
    return m.ok() ? m->functions[0].body.ops[0].attrs.floatValue : -1.0;
  };
  EXPECT_EQ(valueOf("0x3C00", "f16"), 1.0);
  EXPECT_EQ(valueOf("0xC000", "f16"), -2.0);
  EXPECT_EQ(valueOf("0x0001", "f16"), std::ldexp(1.0, -24));
  EXPECT_EQ(valueOf("0x7C00", "f16"), INFINITY);
  EXPECT_EQ(valueOf("0xFC00", "f16"), -INFINITY);
  EXPECT_TRUE(std::isnan(valueOf("0x7E00", "f16")));
  EXPECT_EQ(valueOf("0x3F80", "bf16"), 1.0);
  EXPECT_EQ(valueOf("0xFF800000", "f32"), -INFINITY);
}
