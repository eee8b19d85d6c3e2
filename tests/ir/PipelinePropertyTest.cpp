// Every pass keeps the program's meaning, on random kernels: random blocked layouts, random
// elementwise / reduce / broadcast / convert chains between a load and a store (sometimes stored
// transposed), one or two CTAs. The pipeline must verify and the interpreter must write the same
// bytes before and after it.
#include "Examples.h"

#include "linlayout/ir/Builder.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

// A random blocked layout for `numWarps` warps of 32 threads.
LayoutId randomBlocked(Builder &b, int numWarps) {
  int laneBits0 = *rc::gen::inRange(0, 6);
  int warpBits = 0;
  while ((1 << warpBits) < numWarps)
    ++warpBits;
  int warpBits0 = *rc::gen::inRange(0, warpBits + 1);
  std::vector<int64_t> spt = {int64_t(1) << *rc::gen::inRange(0, 3),
                              int64_t(1) << *rc::gen::inRange(0, 3)};
  std::vector<int64_t> tpw = {int64_t(1) << laneBits0, int64_t(1) << (5 - laneBits0)};
  std::vector<int64_t> wpc = {int64_t(1) << warpBits0, int64_t(1) << (warpBits - warpBits0)};
  std::vector<int64_t> order =
      *rc::gen::element(std::vector<int64_t>{1, 0}, std::vector<int64_t>{0, 1});
  return b.layout(BlockedSpec::make(spt, tpw, wpc, order).value());
}

} // namespace

RC_GTEST_PROP(PipelineProperty, RandomKernelsComputeTheSameAfterThePipeline, ()) {
  Module m;
  m.numWarps = *rc::gen::element(1, 2, 4);
  m.numCtas = *rc::gen::element(1, 1, 2);
  m.target = m.numCtas > 1 ? "cuda:90" : "cuda:80";
  Builder b(m);
  int64_t R = int64_t(1) << *rc::gen::inRange(3, 6), C = int64_t(1) << *rc::gen::inRange(3, 6);
  std::vector<int64_t> shape = {R, C};
  Type i32 = Type::scalar(ScalarKind::I32);
  std::vector<Type> args = {Type::pointer(ScalarKind::F32), Type::pointer(ScalarKind::F32), i32};
  std::vector<ArgHints> hints = {ArgHints{16, 1, 1}, ArgHints{16, 1, 1},
                                 ArgHints{*rc::gen::element<int64_t>(1, 4, 16), 1, 1}};
  b.beginFunction("k", args, hints);

  // Offsets rows * stride + cols (or rows + cols * stride: stored transposed) in layout l.
  auto offsets = [&](LayoutId l, bool transposed) {
    LayoutId s0 = b.layout(SliceSpec::make(0, m.layouts.get(l)).value());
    LayoutId s1 = b.layout(SliceSpec::make(1, m.layouts.get(l)).value());
    ValueId rows = b.expandDims(b.makeRange(0, R, s1), 1);
    ValueId cols = b.expandDims(b.makeRange(0, C, s0), 0);
    ValueId stride =
        b.splat(b.arg(2), transposed ? std::vector<int64_t>{1, C} : std::vector<int64_t>{R, 1}, l);
    ValueId scaled = b.binary(OpKind::MulI, transposed ? cols : rows, stride);
    ValueId other = transposed ? rows : cols;
    return b.binary(OpKind::AddI, b.broadcast(scaled, shape), b.broadcast(other, shape));
  };
  LayoutId lin = randomBlocked(b, m.numWarps);
  ValueId inPtr = b.addPtr(b.splat(b.arg(0), shape, lin), offsets(lin, false));
  std::vector<ValueId> pool = {b.load(inPtr)};
  int steps = *rc::gen::inRange(0, 8);
  for (int i = 0; i < steps; ++i) {
    ValueId x = pool[*rc::gen::inRange<size_t>(0, pool.size())];
    ValueId y = pool[*rc::gen::inRange<size_t>(0, pool.size())];
    LayoutId lx = b.type(x).layout();
    if (b.type(y).layout() != lx)
      y = b.convertLayout(y, lx);
    switch (*rc::gen::inRange(0, 5)) {
    case 0:
      pool.push_back(b.binary(OpKind::AddF, x, y));
      break;
    case 1:
      pool.push_back(b.binary(OpKind::MaxF, x, y));
      break;
    case 2: { // reduce a row or column and broadcast it back
      int axis = *rc::gen::inRange(0, 2);
      ValueId r = b.reduce(*rc::gen::element(ReduceKind::Sum, ReduceKind::Max), x, axis);
      pool.push_back(b.broadcast(b.expandDims(r, axis), shape));
      break;
    }
    case 3:
      pool.push_back(b.convertLayout(x, randomBlocked(b, m.numWarps)));
      break;
    default:
      pool.push_back(b.select(b.cmp(CmpPredicate::Olt, x, y), x, y));
      break;
    }
  }
  ValueId result = pool.back();
  bool transposed = *rc::gen::arbitrary<bool>();
  LayoutId lout = randomBlocked(b, m.numWarps);
  ValueId outPtr = b.addPtr(b.splat(b.arg(1), shape, lout), offsets(lout, transposed));
  if (b.type(result).layout() != lout)
    result = b.convertLayout(result, lout);
  b.store(outPtr, result);
  b.ret();
  Status built = b.endFunction();
  RC_ASSERT(built.ok());
  Status v = verify(m);
  if (!v.ok())
    RC_FAIL(v.message() + "\n" + print(m));

  Module after = m;
  Status s = runPipeline(after);
  if (!s.ok())
    RC_FAIL(s.message() + "\n" + print(m));

  int64_t stride = std::max(R, C) * 2; // a multiple of every hint
  auto run = [&](const Module &mod) {
    Memory mem;
    mem.buffers = {bytesOf(randomFloats(size_t(stride * std::max(R, C)), 11)),
                   bytesOf(std::vector<float>(size_t(stride * std::max(R, C)), -1.f))};
    std::vector<ArgValue> a = {ArgValue::pointer(0), ArgValue::pointer(1),
                               ArgValue::integer(stride)};
    Status r = interpret(mod, "k", a, mem);
    RC_ASSERT(r.ok());
    return mem.buffers[1];
  };
  if (run(m) != run(after))
    RC_FAIL("results differ\nbefore:\n" + print(m) + "after:\n" + print(after));
}
