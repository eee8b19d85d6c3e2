#include "Examples.h"

#include "linlayout/ir/Builder.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

#include <tuple>

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

// clamp_to(out, n, limit): out[0] = n < limit ? n * 2 : limit, through an scf.if with a result;
// and an if without results (closed in its then block) that stores only when n is 0.
TEST(Builder, IfsYieldValuesAndMayHaveNoElse) {
  Module m;
  Builder b(m);
  Type i32 = Type::scalar(ScalarKind::I32);
  b.beginFunction("clamp_to", std::vector<Type>{Type::pointer(ScalarKind::I32), i32, i32});
  ValueId below = b.cmp(CmpPredicate::Slt, b.arg(1), b.arg(2));
  std::vector<Type> types = {i32};
  b.beginIf(below, types);
  std::vector<ValueId> twice = {b.binary(OpKind::AddI, b.arg(1), b.arg(1))};
  b.beginElse(twice);
  std::vector<ValueId> limit = {b.arg(2)};
  std::vector<ValueId> results = b.endIf(limit);
  ASSERT_EQ(results.size(), 1u);
  b.store(b.arg(0), results[0]);
  ValueId zero = b.constantInt(0, i32);
  b.beginIf(b.cmp(CmpPredicate::Eq, b.arg(1), zero));
  b.store(b.arg(0), b.constantInt(-1, i32));
  EXPECT_TRUE(b.endIf().empty());
  b.ret();
  ASSERT_TRUE(b.endFunction().ok());
  ASSERT_TRUE(verify(m).ok()) << verify(m).message();
  // The printed text parses back to the same text (the empty else is left out).
  std::string text = print(m);
  EXPECT_NE(text.find("} else {"), std::string::npos) << text;
  auto again = parseModule(text, "built.tir");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), text);
  for (auto [n, limit, want] : {std::tuple{3, 10, 6}, {12, 10, 10}, {0, 10, -1}}) {
    Memory mem;
    mem.buffers = {std::vector<uint8_t>(4)};
    std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::integer(n),
                                  ArgValue::integer(limit)};
    ASSERT_TRUE(interpret(m, "clamp_to", args, mem).ok());
    EXPECT_EQ(valuesOf<int32_t>(mem.buffers[0])[0], want) << n << " " << limit;
  }
}

TEST(Builder, MisnestedIfsAreErrors) {
  Module m;
  Builder b(m);
  b.beginFunction("k", std::vector<Type>{Type::scalar(ScalarKind::I1)});
  b.beginElse();
  EXPECT_EQ(b.endFunction().message(), "builder: beginElse without an open then block");
  Builder c(m);
  c.beginFunction("k2", std::vector<Type>{Type::scalar(ScalarKind::I1)});
  c.beginIf(c.arg(0));
  c.ret();
  EXPECT_NE(c.endFunction().message().find("open loop(s) or if(s)"), std::string::npos);
}

// Atomics from the builder: a counter bumped by every element (tt.atomic_rmw add) and a claim
// table where each even slot that holds 0 takes its index + 1 (tt.atomic_cas, masked). The module
// verifies, prints as the parser reads it, and computes in the interpreter what the ops say.
TEST(Builder, AtomicsBuildAndRun) {
  Module m;
  m.numWarps = 1;
  Builder b(m);
  LayoutId l = b.layout(BlockedSpec::make({1}, {32}, {1}, {0}).value());
  Type i32 = Type::scalar(ScalarKind::I32);
  b.beginFunction(
      "claims", std::vector<Type>{Type::pointer(ScalarKind::I32), Type::pointer(ScalarKind::I32)});
  ValueId r = b.makeRange(0, 32, l);
  ValueId one = b.splat(b.constantInt(1, i32), {32}, l);
  ValueId counter = b.splat(b.arg(0), {32}, l);
  ValueId before = b.atomicRmw(AtomicKind::Add, counter, one, std::nullopt, MemSemantic::Relaxed);
  ValueId slots = b.addPtr(b.splat(b.arg(1), {32}, l), r);
  ValueId even = b.cmp(CmpPredicate::Eq, b.binary(OpKind::AndI, r, one),
                       b.splat(b.constantInt(0, i32), {32}, l));
  ValueId zero = b.splat(b.constantInt(0, i32), {32}, l);
  ValueId held = b.atomicCas(slots, zero, b.binary(OpKind::AddI, r, one), even, MemSemantic::AcqRel,
                             MemScope::Cta);
  // Slot 31 records the sum of what the claims saw plus what the counter held before the last
  // element's bump: the claims saw 0 (slots 0..30 step 2 were 0), the bumps 0..31 in index order.
  ValueId seen = b.reduce(ReduceKind::Sum, b.binary(OpKind::AddI, held, before), 0);
  b.store(b.addPtr(b.arg(1), b.constantInt(31, i32)), seen);
  b.ret();
  ASSERT_TRUE(b.endFunction().ok());
  ASSERT_TRUE(verify(m).ok()) << verify(m).message();
  std::string text = print(m);
  EXPECT_NE(text.find("tt.atomic_rmw add, relaxed, gpu,"), std::string::npos) << text;
  EXPECT_NE(text.find("tt.atomic_cas acq_rel, cta,"), std::string::npos) << text;
  auto again = parseModule(text, "built.tir");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), text);
  Memory mem;
  std::vector<int32_t> table(32, 0);
  table[4] = 9; // taken: the claim of slot 4 sees 9 and leaves it
  mem.buffers = {bytesOf(std::vector<int32_t>{0}), bytesOf(table)};
  std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1)};
  ASSERT_TRUE(interpret(m, "claims", args, mem).ok());
  EXPECT_EQ(valuesOf<int32_t>(mem.buffers[0])[0], 32);
  std::vector<int32_t> got = valuesOf<int32_t>(mem.buffers[1]);
  for (int i = 0; i < 31; ++i)
    EXPECT_EQ(got[size_t(i)], i == 4 ? 9 : i % 2 == 0 ? i + 1 : 0) << i;
  // 0 + 1 + ... + 31 from the counter, 9 from slot 4's claim.
  EXPECT_EQ(got[31], 31 * 32 / 2 + 9);
}

// memDescTrans: the transposed view of a tile, in the layout of the other order; the text form
// prints it as TritonGPU does.
TEST(Builder, MemDescTransViewsATileTransposed) {
  Module m;
  Builder b(m);
  LayoutId rowMajor = b.layout(SwizzledSharedSpec::make(8, 1, 8, {1, 0}).value());
  LayoutId colMajor = b.layout(SwizzledSharedSpec::make(8, 1, 8, {0, 1}).value());
  b.beginFunction("k", std::vector<Type>{});
  ValueId tile = b.localAlloc(Type::memDesc({64, 32}, ScalarKind::F16, rowMajor, true));
  ValueId t = b.memDescTrans(tile, {1, 0}, colMajor);
  b.ret();
  Status s = b.endFunction();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(m.functions.back().type(t).shape(), (std::vector<int64_t>{32, 64}));
  ASSERT_TRUE(verify(m).ok()) << verify(m).message();
  EXPECT_NE(print(m).find("ttg.memdesc_trans %"), std::string::npos) << print(m);
  // An order entry out of range is the builder's error.
  Module bad;
  Builder c(bad);
  LayoutId l = c.layout(SwizzledSharedSpec::make(8, 1, 8, {1, 0}).value());
  c.beginFunction("k", std::vector<Type>{});
  ValueId u = c.localAlloc(Type::memDesc({64, 32}, ScalarKind::F16, l, true));
  c.memDescTrans(u, {2, 0}, l);
  c.ret();
  Status e = c.endFunction();
  ASSERT_FALSE(e.ok());
  EXPECT_NE(e.message().find("memdesc_trans order entry 2"), std::string::npos) << e.message();
}

// The shared-memory and compute ops of the builder in one kernel: A (32x32 f16) copied by cp.async
// into tile 1 of a 2-tile ring, its right half (K = 16..31) taken by memdesc_subslice and loaded
// as the dot's A; B read transposed from memory (32 x 16, n-major) and put right by tt.trans; the
// 32x32 f32 product reshaped to 1024 and stored at out + num_programs * 0. The interpreter computes
// C = A[:, 16:] * B exactly (small halves), and the printed module parses back to itself.
TEST(Builder, RingSubsliceTransDotAndReshapeComputeTheProduct) {
  Module m;
  Builder b(m);
  BlockedSpec blocked = BlockedSpec::make({1, 8}, {8, 4}, {4, 1}, {1, 0}).value();
  LayoutId bl = b.layout(blocked);
  NvidiaMmaSpec mma = NvidiaMmaSpec::make(2, 0, {2, 2}, {16, 8}).value();
  LayoutId ml = b.layout(mma);
  LayoutId opA = b.layout(DotOperandSpec::make(0, mma, 2).value());
  LayoutId opB = b.layout(DotOperandSpec::make(1, mma, 2).value());
  LayoutId flat = b.layout(BlockedSpec::make({8}, {32}, {4}, {0}).value());
  LayoutId sw = b.layout(SwizzledSharedSpec::make(8, 1, 4, {1, 0}).value());
  std::vector<Type> args = {Type::pointer(ScalarKind::F16), Type::pointer(ScalarKind::F16),
                            Type::pointer(ScalarKind::F32)};
  std::vector<ArgHints> hints = {{16, 1, 1}, {16, 1, 1}, {16, 1, 1}};
  b.beginFunction("ring_dot", args, hints);
  auto offsets = [&](int64_t rows, int64_t width) { return tileOffsets(b, blocked, rows, width); };
  ValueId ring = b.localAlloc(Type::memDesc({2, 32, 32}, ScalarKind::F16, sw, true));
  ValueId one = b.constantInt(1, Type::scalar(ScalarKind::I32));
  ValueId slot = b.memDescIndex(ring, one);
  b.asyncCopy(b.addPtr(b.splat(b.arg(0), {32, 32}, bl), offsets(32, 32)), slot);
  b.asyncCommitGroup();
  b.asyncWait(0);
  ValueId a = b.localLoad(b.memDescSubslice(slot, {0, 16}, {32, 16}), opA);
  ValueId bt = b.load(b.addPtr(b.splat(b.arg(1), {32, 16}, bl), offsets(32, 16)));
  LayoutId blT = b.layout(BlockedSpec::make({8, 1}, {4, 8}, {1, 4}, {0, 1}).value());
  ValueId bk = b.convertLayout(b.trans(bt, {1, 0}, blT), opB);
  ValueId zero = b.constantFloat(0.0, Type::tensor({32, 32}, ElemType{ScalarKind::F32}, ml));
  ValueId c = b.dot(a, bk, zero);
  ValueId flatC = b.reshape(b.convertLayout(c, bl), {1024}, flat);
  ValueId base =
      b.binary(OpKind::MulI, b.numPrograms(0), b.constantInt(0, Type::scalar(ScalarKind::I32)));
  ValueId outOffs = b.binary(OpKind::AddI, b.splat(base, {1024}, flat), b.makeRange(0, 1024, flat));
  b.store(b.addPtr(b.splat(b.arg(2), {1024}, flat), outOffs), flatC);
  b.localDealloc(ring);
  b.ret();
  Status s = b.endFunction();
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_TRUE(verify(m).ok()) << verify(m).message();

  std::vector<float> af = randomFloats(32 * 32, 21), btf = randomFloats(32 * 16, 22);
  std::vector<uint16_t> ah = halfBitsOf(af), bh = halfBitsOf(btf);
  Memory mem;
  mem.buffers = {bytesOf(ah), bytesOf(bh), bytesOf(std::vector<float>(1024, -1.f))};
  std::vector<ArgValue> argv = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2)};
  Status r = interpret(m, "ring_dot", argv, mem);
  ASSERT_TRUE(r.ok()) << r.message();
  std::vector<float> got = valuesOf<float>(mem.buffers[2]);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      double want = 0;
      for (int k = 0; k < 16; ++k) // B[k][j] is B^T[j][k]
        want += double(af[size_t(i * 32 + 16 + k)]) * btf[size_t(j * 16 + k)];
      ASSERT_EQ(got[size_t(i * 32 + j)], float(want)) << i << ", " << j;
    }
  auto again = parseModule(print(m));
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), print(m));
}
