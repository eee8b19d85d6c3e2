#include "Examples.h"

#include "linlayout/ir/AxisInfo.h"
#include "linlayout/ir/Builder.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/ir/Walk.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

// Runs `fn` of m with an observer that checks every integer and pointer value against the
// analysis; returns the number of values checked and adds the violations to `bad`.
// With `seen`, also keeps each value's elements (the last ones, for a value set in a loop).
int checkAgainstInterpreter(const Module &m, const std::string &fn, std::vector<ArgValue> args,
                            Memory mem, Grid grid, std::vector<std::string> &bad,
                            std::map<ValueId, std::vector<int64_t>> *seen = nullptr) {
  const Function *f = m.function(fn);
  AxisInfoAnalysis info = AxisInfoAnalysis::run(m, *f);
  int checked = 0;
  InterpreterOptions opts;
  opts.observer = [&](ValueId v, std::span<const int64_t> e) {
    const AxisInfo *a = info.get(v);
    if (!a)
      return;
    ++checked;
    if (seen)
      (*seen)[v].assign(e.begin(), e.end());
    std::string why = a->violation(f->type(v), e);
    if (!why.empty())
      bad.push_back(fn + ": value " + std::to_string(v) + " (%" + f->values[v].name + "): " + why);
  };
  Status s = interpret(m, fn, args, mem, grid, opts);
  if (!s.ok())
    bad.push_back(s.message());
  return checked;
}

// Whether an addi, subi, muli, shli or trunci wrapped in some element: its exact result, from
// its operands' elements in int64_t, differs from the one computed. Runs are claimed on the
// assumption that index arithmetic does not wrap (AxisInfo.h), so such programs are not held to
// the claims.
bool someArithmeticWrapped(const Function &f, const std::map<ValueId, std::vector<int64_t>> &seen) {
  bool wrapped = false;
  walkOps(f.body, [&](const Op &op) {
    if (wrapped || op.results.empty() || !seen.count(op.results[0]))
      return;
    const std::vector<int64_t> &r = seen.at(op.results[0]);
    auto operand = [&](size_t i) -> const std::vector<int64_t> & {
      return seen.at(op.operands[i]);
    };
    for (size_t i = 0; i < r.size(); ++i) {
      int64_t exact;
      switch (op.kind) {
      case OpKind::AddI:
        exact = operand(0)[i] + operand(1)[i];
        break;
      case OpKind::SubI:
        exact = operand(0)[i] - operand(1)[i];
        break;
      case OpKind::MulI:
        exact = operand(0)[i] * operand(1)[i];
        break;
      case OpKind::ShLI:
        exact = operand(0)[i] * (int64_t(1) << operand(1)[i]);
        break;
      case OpKind::TruncI:
        exact = operand(0)[i];
        break;
      default:
        return;
      }
      wrapped = wrapped || exact != r[i];
    }
  });
  return wrapped;
}

const AxisInfo &infoOf(const AxisInfoAnalysis &a, const Function &f, const std::string &name) {
  for (size_t v = 0; v < f.values.size(); ++v)
    if (f.values[v].name == name && a.get(ValueId(v)))
      return *a.get(ValueId(v));
  static AxisInfo none;
  ADD_FAILURE() << "no value " << name;
  return none;
}

} // namespace

TEST(AxisInfo, ClaimsHoldOnEveryExample) {
  for (const ExampleRun &run : exampleRuns()) {
    SCOPED_TRACE(run.file);
    Module m = loadExample(run.file);
    Memory mem;
    std::vector<ArgValue> args;
    run.setup(mem, args);
    std::vector<std::string> bad;
    EXPECT_GT(checkAgainstInterpreter(m, run.function, args, mem, run.grid, bad), 5);
    for (const std::string &b : bad)
      ADD_FAILURE() << b;
  }
}

TEST(AxisInfo, NamedFactsOfTheExamples) {
  Module m = loadExample("transpose_copy.tir");
  const Function &f = m.functions[0];
  AxisInfoAnalysis a = AxisInfoAnalysis::run(m, f);
  // The input is contiguous along dim 1, the output along dim 0; both start 16-byte aligned.
  const AxisInfo &in = infoOf(a, f, "inp");
  EXPECT_EQ(in.contiguity, (std::vector<int64_t>{1, 64}));
  // Along dim 0 an element is row * stride + column: only the column-0 run start is aligned.
  EXPECT_EQ(in.divisibility, (std::vector<int64_t>{2, 16}));
  const AxisInfo &out = infoOf(a, f, "outp");
  EXPECT_EQ(out.contiguity, (std::vector<int64_t>{64, 1}));
  EXPECT_EQ(out.divisibility, (std::vector<int64_t>{16, 2}));
  // make_range, splat, expand_dims, broadcast.
  EXPECT_EQ(infoOf(a, f, "r").contiguity, (std::vector<int64_t>{64}));
  EXPECT_EQ(infoOf(a, f, "in_sv").constancy, (std::vector<int64_t>{64, 1}));
  EXPECT_EQ(infoOf(a, f, "in_rowsb").constancy, (std::vector<int64_t>{1, 64}));
  EXPECT_EQ(infoOf(a, f, "in_rowsb").divisibility, (std::vector<int64_t>{16, 16}));

  Module mm = loadExample("matmul.tir");
  const Function &g = mm.functions[0];
  AxisInfoAnalysis b = AxisInfoAnalysis::run(mm, g);
  // Loop-carried pointers keep their facts through the fixed point.
  const AxisInfo &pa = infoOf(b, g, "pa");
  EXPECT_EQ(pa.contiguity, (std::vector<int64_t>{1, 32}));
  EXPECT_EQ(pa.divisibility, (std::vector<int64_t>{2, 16}));
  const AxisInfo &pb = infoOf(b, g, "pb");
  EXPECT_EQ(pb.contiguity, (std::vector<int64_t>{1, 128}));
  EXPECT_EQ(infoOf(b, g, "k").divisibility, (std::vector<int64_t>{32}));

  Module s = loadExample("memcpy_1d.tir");
  AxisInfoAnalysis c = AxisInfoAnalysis::run(s, s.functions[0]);
  // offs < n with n a multiple of 16: the mask is constant over runs of 16.
  EXPECT_EQ(infoOf(c, s.functions[0], "mask").constancy, (std::vector<int64_t>{16}));
  EXPECT_EQ(infoOf(c, s.functions[0], "c1024").constant, 1024);
}

// A warp_specialize partition's arguments are its operands: a pointer passed in keeps its
// alignment, so the partition's loads are as wide as the default region's.
TEST(AxisInfo, PartitionArgumentsKeepTheOperandsFacts) {
  Module m = loadExample("attention_ws_pp_d128.tir");
  const Function &f = m.functions[0];
  AxisInfoAnalysis a = AxisInfoAnalysis::run(m, f);
  EXPECT_EQ(infoOf(a, f, "w1_q").divisibility, infoOf(a, f, "q").divisibility);
  EXPECT_EQ(infoOf(a, f, "w1_hrow").divisibility, infoOf(a, f, "hrow").divisibility);
  const AxisInfo &outer = infoOf(a, f, "qptrs"), &inner = infoOf(a, f, "w1_qptrs");
  EXPECT_EQ(inner.contiguity, outer.contiguity);
  EXPECT_EQ(inner.divisibility, outer.divisibility);
  EXPECT_EQ(inner.divisibility, (std::vector<int64_t>{2, 16}));
}

// Folded constants wrap to their element type as the GPU computes them: a product or a sum that
// overflows, a truncation that drops bits, a zero extension of a negative constant, a shift by
// the width, the minimum divided by -1.
TEST(AxisInfo, FoldedConstantsWrapToTheirType) {
  const char *text = R"(
#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k() {
    %big = arith.constant dense<65536> : tensor<128xi32, #b>
    %sq = arith.muli %big, %big : tensor<128xi32, #b>
    %max = arith.constant dense<2147483647> : tensor<128xi32, #b>
    %one = arith.constant dense<1> : tensor<128xi32, #b>
    %min = arith.addi %max, %one : tensor<128xi32, #b>
    %back = arith.subi %min, %one : tensor<128xi32, #b>
    %c300 = arith.constant dense<300> : tensor<128xi32, #b>
    %t = arith.trunci %c300 : tensor<128xi32, #b> to tensor<128xi8, #b>
    %m1 = arith.constant dense<-1> : tensor<128xi8, #b>
    %u = arith.extui %m1 : tensor<128xi8, #b> to tensor<128xi32, #b>
    %s = arith.extsi %m1 : tensor<128xi8, #b> to tensor<128xi32, #b>
    %wide = arith.constant dense<300> : tensor<128xi8, #b>
    %c40 = arith.constant dense<40> : tensor<128xi32, #b>
    %gone = arith.shli %one, %c40 : tensor<128xi32, #b>
    %m1w = arith.constant dense<-1> : tensor<128xi32, #b>
    %minq = arith.divsi %min, %m1w : tensor<128xi32, #b>
    tt.return
  }
}
)";
  auto m = parseModule(text, "wrap.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  const Function &f = m->functions[0];
  AxisInfoAnalysis a = AxisInfoAnalysis::run(*m, f);
  EXPECT_EQ(infoOf(a, f, "sq").constant, 0);
  EXPECT_EQ(infoOf(a, f, "sq").divisibility, (std::vector<int64_t>{AxisInfo::kMaxDivisor}));
  EXPECT_EQ(infoOf(a, f, "min").constant, INT32_MIN);
  EXPECT_EQ(infoOf(a, f, "back").constant, INT32_MAX);
  EXPECT_EQ(infoOf(a, f, "t").constant, 44);
  EXPECT_EQ(infoOf(a, f, "t").divisibility, (std::vector<int64_t>{4}));
  EXPECT_EQ(infoOf(a, f, "u").constant, 255);
  EXPECT_EQ(infoOf(a, f, "s").constant, -1);
  EXPECT_EQ(infoOf(a, f, "wide").constant, 44);
  // Defined by the IR (and computed so on the GPU) where LLVM's operations are poison.
  EXPECT_EQ(infoOf(a, f, "gone").constant, 0);
  EXPECT_EQ(infoOf(a, f, "minq").constant, INT32_MIN);
  std::vector<std::string> bad;
  EXPECT_EQ(checkAgainstInterpreter(*m, "k", {}, Memory{}, {}, bad), 16);
  for (const std::string &b : bad)
    ADD_FAILURE() << b;
}

// Triton's value hints on an op (tl.multiple_of / tl.max_contiguous, printed as
// `{tt.divisibility = dense<...> : tensor<Nxi32>}`) raise what the rules find: a wrap-around
// offset `(base + range) % n` is a run of 8 only because the kernel says so. They print back as
// they were written; the verifier holds them to integer ops and addptr, one entry per dimension
// (or one for all), powers of two.
TEST(AxisInfo, ValueHintsRaiseTheClaims) {
  const std::string head =
      "#b = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = "
      "[0]}>\nmodule attributes {\"ttg.num-warps\" = 4 : i32} {\n  tt.func public @k(%in: "
      "!tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {\n"
      "    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>\n"
      "    %ns = tt.splat %n : i32 -> tensor<1024xi32, #b>\n";
  const std::string tail =
      "    %ps = tt.splat %in : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b>\n"
      "    %p = tt.addptr %ps, %w : tensor<1024x!tt.ptr<f16>, #b>, tensor<1024xi32, #b>\n"
      "    tt.return\n  }\n}\n";
  auto remsi = [&](const std::string &hints) {
    return head + "    %w = arith.remsi %r, %ns" + hints + " : tensor<1024xi32, #b>\n" + tail;
  };
  {
    auto m = parseModule(remsi(""), "plain.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    AxisInfoAnalysis a = AxisInfoAnalysis::run(*m, m->functions[0]);
    EXPECT_EQ(infoOf(a, m->functions[0], "w").contiguity, (std::vector<int64_t>{1}));
  }
  const std::string hinted = remsi(" {tt.contiguity = dense<8> : tensor<1xi32>, tt.divisibility "
                                   "= dense<8> : tensor<1xi32>}");
  auto m = parseModule(hinted, "hinted.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
  const Function &f = m->functions[0];
  AxisInfoAnalysis a = AxisInfoAnalysis::run(*m, f);
  EXPECT_EQ(infoOf(a, f, "w").contiguity, (std::vector<int64_t>{8}));
  EXPECT_EQ(infoOf(a, f, "w").divisibility, (std::vector<int64_t>{8}));
  // 8 f16 from a 16-byte-aligned base: the pointers are 16-byte runs.
  EXPECT_EQ(infoOf(a, f, "p").contiguity, (std::vector<int64_t>{8}));
  EXPECT_EQ(infoOf(a, f, "p").divisibility, (std::vector<int64_t>{16}));
  // A hint never lowers a claim: make_range's run of 1024 stays.
  auto kept = parseModule(head +
                              "    %z = arith.constant dense<0> : tensor<1024xi32, #b>\n"
                              "    %w = arith.addi %r, %z {tt.contiguity = dense<2> : "
                              "tensor<1xi32>} : tensor<1024xi32, #b>\n" +
                              tail,
                          "kept.tir");
  ASSERT_TRUE(kept.ok()) << kept.message();
  AxisInfoAnalysis k = AxisInfoAnalysis::run(*kept, kept->functions[0]);
  EXPECT_EQ(infoOf(k, kept->functions[0], "w").contiguity, (std::vector<int64_t>{1024}));
  // Printed as written, and parsed back the same.
  std::string printed = print(*m);
  EXPECT_NE(printed.find("arith.remsi %r, %ns {tt.divisibility = dense<8> : tensor<1xi32>, "
                         "tt.contiguity = dense<8> : tensor<1xi32>}"),
            std::string::npos)
      << printed;
  auto again = parseModule(printed, "printed.tir");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), printed);
  // Mistakes are errors.
  for (auto [hints, why] :
       {std::pair{" {tt.contiguity = dense<6> : tensor<1xi32>}", "power of two"},
        std::pair{" {tt.contiguity = dense<[8, 8]> : tensor<2xi32>}", "rank 1"},
        std::pair{" {tt.divisibility = \"x\"}", "must be an integer"}}) {
    auto bad = parseModule(remsi(hints), "bad.tir");
    std::string message = bad.ok() ? verify(*bad).message() : bad.message();
    EXPECT_NE(message.find(why), std::string::npos) << hints << ": " << message;
  }
  auto onFloat = parseModule(
      head +
          "    %fz = arith.constant dense<1.0> : tensor<1024xf32, #b>\n    %fs = arith.addf %fz, "
          "%fz {tt.divisibility = dense<8> : tensor<1xi32>} : tensor<1024xf32, #b>\n"
          "    %w = arith.addi %r, %r : tensor<1024xi32, #b>\n" +
          tail,
      "float.tir");
  ASSERT_TRUE(onFloat.ok()) << onFloat.message();
  EXPECT_NE(verify(*onFloat).message().find("integer ops and tt.addptr"), std::string::npos)
      << verify(*onFloat).message();
}

// An if's result has what both branches' yields have in common.
TEST(AxisInfo, IfResultsJoinTheBranches) {
  const char *text =
      R"(#b = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module {
  tt.func @k(%n: i32) {
    %c0 = arith.constant 0 : i32
    %c = arith.cmpi eq, %n, %c0 : i32
    %r = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b>
    %m = scf.if %c -> (tensor<128xi32, #b>) {
      scf.yield %r : tensor<128xi32, #b>
    } else {
      %c16 = arith.constant dense<16> : tensor<128xi32, #b>
      %s = arith.addi %r, %c16 : tensor<128xi32, #b>
      scf.yield %s : tensor<128xi32, #b>
    }
    tt.return
  }
}
)";
  auto m = parseModule(text, "if.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  const Function &f = m->functions[0];
  AxisInfoAnalysis a = AxisInfoAnalysis::run(*m, f);
  EXPECT_EQ(infoOf(a, f, "s").divisibility, (std::vector<int64_t>{16}));
  const AxisInfo &joined = infoOf(a, f, "m");
  EXPECT_EQ(joined.contiguity, (std::vector<int64_t>{128}));
  EXPECT_EQ(joined.divisibility, (std::vector<int64_t>{16}));
  EXPECT_FALSE(joined.constant.has_value());
}

// Ensures: join(a, a) == a; join is commutative.
RC_GTEST_PROP(AxisInfo, JoinIsIdempotentAndCommutative, ()) {
  auto gen = [] {
    AxisInfo a;
    for (int d = 0; d < 2; ++d) {
      a.contiguity.push_back(int64_t(1) << *rc::gen::inRange(0, 8));
      a.divisibility.push_back(int64_t(1) << *rc::gen::inRange(0, 8));
      a.constancy.push_back(int64_t(1) << *rc::gen::inRange(0, 8));
    }
    if (*rc::gen::arbitrary<bool>())
      a.constant = *rc::gen::inRange(0, 4);
    return a;
  };
  AxisInfo a = gen(), b = gen();
  RC_ASSERT(AxisInfo::join(a, a) == a);
  RC_ASSERT(AxisInfo::join(a, b) == AxisInfo::join(b, a));
}

// Random index arithmetic over a 16x32 tile: every claim of the analysis holds on every element
// the interpreter computes.
RC_GTEST_PROP(AxisInfo, ClaimsHoldOnRandomIndexArithmetic, ()) {
  Module m;
  Builder b(m);
  LayoutId l2 = b.layout(BlockedSpec::make({1, 4}, {8, 4}, {4, 1}, {1, 0}).value());
  LayoutId s0 = b.layout(SliceSpec::make(0, m.layouts.get(l2)).value());
  LayoutId s1 = b.layout(SliceSpec::make(1, m.layouts.get(l2)).value());
  Type i32 = Type::scalar(ScalarKind::I32);
  int64_t hint = int64_t(1) << *rc::gen::inRange(0, 6);
  std::vector<Type> argTypes = {Type::pointer(ScalarKind::I32), i32};
  std::vector<ArgHints> hints = {ArgHints{}, ArgHints{hint, 1, 1}};
  b.beginFunction("k", argTypes, hints);
  std::vector<int64_t> shape = {16, 32};
  Type t2 = Type::tensor(shape, ElemType{ScalarKind::I32, false}, l2);
  std::vector<ValueId> pool;
  auto leaf = [&]() -> ValueId {
    switch (*rc::gen::inRange(0, 4)) {
    case 0: { // rows
      int64_t start = *rc::gen::element<int64_t>(0, 4, 16, 48);
      ValueId r = b.makeRange(start, start + 16, s1);
      return b.broadcast(b.expandDims(r, 1), shape);
    }
    case 1: { // columns
      int64_t start = *rc::gen::element<int64_t>(0, 8, 32);
      ValueId r = b.makeRange(start, start + 32, s0);
      return b.broadcast(b.expandDims(r, 0), shape);
    }
    case 2:
      return b.constantInt(*rc::gen::inRange<int64_t>(-64, 65), t2);
    default:
      return b.splat(b.arg(1), shape, l2);
    }
  };
  for (int i = 0; i < 3; ++i)
    pool.push_back(leaf());
  int steps = *rc::gen::inRange(1, 8);
  for (int i = 0; i < steps; ++i) {
    ValueId x = pool[*rc::gen::inRange<size_t>(0, pool.size())];
    ValueId y = pool[*rc::gen::inRange<size_t>(0, pool.size())];
    switch (*rc::gen::inRange(0, 9)) {
    case 0:
      pool.push_back(b.binary(OpKind::AddI, x, y));
      break;
    case 6: { // the other integer ops; divisors are non-zero constants, shifts below 8
      OpKind k = *rc::gen::element(OpKind::DivSI, OpKind::RemSI, OpKind::DivUI, OpKind::RemUI,
                                   OpKind::AndI, OpKind::OrI, OpKind::XOrI, OpKind::ShLI,
                                   OpKind::ShRSI, OpKind::ShRUI, OpKind::MinSI, OpKind::MaxSI,
                                   OpKind::MinUI, OpKind::MaxUI, OpKind::MulHiUI);
      if (k == OpKind::DivSI || k == OpKind::RemSI || k == OpKind::DivUI || k == OpKind::RemUI)
        y = b.constantInt(*rc::gen::inRange<int64_t>(1, 18), t2);
      else if (k == OpKind::ShLI || k == OpKind::ShRSI || k == OpKind::ShRUI)
        y = b.binary(OpKind::AndI, y, b.constantInt(7, t2));
      pool.push_back(b.binary(k, x, y));
      break;
    }
    case 7: // through i16 and back (a truncation that drops bits counts as wrapping)
      pool.push_back(
          b.cast(OpKind::ExtSI, b.cast(OpKind::TruncI, x, ScalarKind::I16), ScalarKind::I32));
      break;
    case 8: // zero extension of a value made non-negative
      pool.push_back(b.cast(
          OpKind::ExtUI,
          b.cast(OpKind::TruncI, b.binary(OpKind::MaxSI, x, b.constantInt(0, t2)), ScalarKind::I16),
          ScalarKind::I32));
      break;
    case 1:
      pool.push_back(b.binary(OpKind::SubI, x, y));
      break;
    case 2:
      pool.push_back(b.binary(OpKind::MulI, x, y));
      break;
    case 3:
      pool.push_back(b.select(b.cmp(CmpPredicate::Slt, x, y), x, y));
      break;
    case 4:
      pool.push_back(b.cmp(*rc::gen::element(CmpPredicate::Slt, CmpPredicate::Sge,
                                             CmpPredicate::Sgt, CmpPredicate::Sle),
                           x, y));
      pool.pop_back(); // keep i32 in the pool; the i1 value is still checked
      break;
    default:
      pool.push_back(leaf());
      break;
    }
  }
  b.ret();
  RC_ASSERT(b.endFunction().ok());
  RC_ASSERT(verify(m).ok());
  Memory mem;
  mem.buffers = {std::vector<uint8_t>(16)};
  int64_t argValue = hint * *rc::gen::inRange<int64_t>(0, 8);
  std::vector<std::string> bad;
  std::map<ValueId, std::vector<int64_t>> seen;
  checkAgainstInterpreter(m, "k", {ArgValue::pointer(0), ArgValue::integer(argValue)}, mem, {}, bad,
                          &seen);
  if (someArithmeticWrapped(m.functions[0], seen))
    RC_DISCARD("index arithmetic wrapped");
  if (!bad.empty())
    RC_FAIL(bad[0] + "\n" + print(m));
}
