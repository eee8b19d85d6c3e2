#include "Examples.h"

#include "linlayout/ir/Builder.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

// The 1-D memcpy of examples/memcpy_1d.tir, written with the builder.
Module buildMemcpy() {
  Module m;
  Builder b(m);
  LayoutId l = b.layout(BlockedSpec::make({1}, {32}, {4}, {0}).value());
  ArgHints h16{16, 1, 1};
  std::vector<Type> args = {Type::pointer(ScalarKind::F32), Type::pointer(ScalarKind::F32),
                            Type::scalar(ScalarKind::I32)};
  std::vector<ArgHints> hints = {h16, h16, h16};
  b.beginFunction("memcpy_1d", args, hints);
  ValueId pid = b.programId(0);
  ValueId start = b.binary(OpKind::MulI, pid, b.constantInt(1024, Type::scalar(ScalarKind::I32)));
  ValueId offs = b.binary(OpKind::AddI, b.splat(start, {1024}, l), b.makeRange(0, 1024, l));
  ValueId mask = b.cmp(CmpPredicate::Slt, offs, b.splat(b.arg(2), {1024}, l));
  ValueId x = b.load(b.addPtr(b.splat(b.arg(0), {1024}, l), offs), mask);
  b.store(b.addPtr(b.splat(b.arg(1), {1024}, l), offs), x, mask);
  b.ret();
  Status s = b.endFunction();
  EXPECT_TRUE(s.ok()) << s.message();
  return m;
}

} // namespace

TEST(Builder, BuiltKernelVerifiesAndComputesLikeTheText) {
  Module built = buildMemcpy();
  ASSERT_TRUE(verify(built).ok()) << verify(built).message();
  ExampleRun run = exampleRuns()[0];
  ASSERT_EQ(run.file, "memcpy_1d.tir");
  Memory a = runExample(built, run);
  run.check(a);
  Memory b = runExample(loadExample(run.file), run);
  EXPECT_EQ(a.buffers, b.buffers);
  // The printed form parses back.
  auto again = parseModule(print(built));
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), print(built));
}

TEST(Builder, InfersSliceLayoutsForReduceAndExpandDims) {
  Module m;
  Builder b(m);
  LayoutId l = b.layout(BlockedSpec::make({1, 4}, {8, 4}, {4, 1}, {1, 0}).value());
  b.beginFunction("k", std::vector<Type>{});
  ValueId x = b.constantFloat(1.0, Type::tensor({64, 64}, ElemType{ScalarKind::F32, false}, l));
  ValueId r = b.reduce(ReduceKind::Max, x, 1);
  const LayoutSpec &rl = m.layouts.get(b.type(r).layout());
  ASSERT_NE(rl.as<SliceSpec>(), nullptr);
  EXPECT_EQ(rl.as<SliceSpec>()->dim(), 1);
  ValueId e = b.expandDims(r, 1);
  EXPECT_EQ(b.type(e).layout(), l);
  EXPECT_EQ(b.type(e).shape(), (std::vector<int64_t>{64, 1}));
  ValueId s = b.reduce(ReduceKind::Sum, b.reduce(ReduceKind::Sum, x, 0), 0);
  EXPECT_TRUE(b.type(s).isScalar());
  b.ret();
  ASSERT_TRUE(b.endFunction().ok());
  EXPECT_TRUE(verify(m).ok()) << verify(m).message();
}

TEST(Builder, MistakesAreKeptAsTheFirstError) {
  Module m;
  Builder b(m);
  b.beginFunction("k", std::vector<Type>{Type::scalar(ScalarKind::I32)});
  b.binary(OpKind::Exp, b.arg(0), b.arg(0));
  b.reduce(ReduceKind::Sum, b.arg(0), 3);
  b.expandDims(b.arg(7), 0);
  b.beginFor(b.arg(0), b.arg(0), b.arg(0), {});
  Status s = b.endFunction();
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "builder: math.exp is not a binary op");
  EXPECT_TRUE(m.functions.empty());
  // The builder is usable again afterwards.
  Builder c(m);
  c.beginFunction("ok", std::vector<Type>{});
  c.ret();
  EXPECT_TRUE(c.endFunction().ok());
}

TEST(Builder, LoopsCarryValues) {
  Module m;
  Builder b(m);
  Type i32 = Type::scalar(ScalarKind::I32);
  b.beginFunction("sum_to", std::vector<Type>{Type::pointer(ScalarKind::I32), i32});
  ValueId zero = b.constantInt(0, i32);
  ValueId one = b.constantInt(1, i32);
  std::vector<ValueId> inits = {zero};
  ForScope loop = b.beginFor(zero, b.arg(1), one, inits);
  ValueId next = b.binary(OpKind::AddI, loop.iterArgs[0], loop.inductionVar);
  std::vector<ValueId> yields = {next};
  std::vector<ValueId> results = b.endFor(yields);
  ASSERT_EQ(results.size(), 1u);
  b.store(b.arg(0), results[0]);
  b.ret();
  ASSERT_TRUE(b.endFunction().ok());
  ASSERT_TRUE(verify(m).ok()) << verify(m).message();
  Memory mem;
  mem.buffers = {std::vector<uint8_t>(4)};
  std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::integer(10)};
  ASSERT_TRUE(interpret(m, "sum_to", args, mem).ok());
  EXPECT_EQ(valuesOf<int32_t>(mem.buffers[0])[0], 45);
}
