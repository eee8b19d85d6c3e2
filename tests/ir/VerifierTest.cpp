#include "Examples.h"

#include "linlayout/ir/Builder.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

namespace {

const char *kLayouts =
    "#b1 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], "
    "order = [0]}>\n"
    "#b2 = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], "
    "order = [1, 0]}>\n"
    "#b3 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], "
    "order = [0, 1]}>\n"
    "#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], "
    "instrShape = [16, 8]}>\n"
    "#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>\n";

std::string wrap(const std::string &body) {
  return std::string(kLayouts) + "module {\n  tt.func @f(%p: !tt.ptr<f32>, %n: i32, %x: f32) {\n" +
         body + "    tt.return\n  }\n}\n";
}

std::string verifyError(const std::string &text) {
  auto m = parseModule(text, "v.tir");
  if (!m.ok())
    return "<parse error> " + m.message();
  Status s = verify(*m);
  return s.ok() ? std::string("<verified>") : s.message();
}

} // namespace

TEST(Verifier, ExamplesVerify) {
  for (const std::string &file : exampleFiles()) {
    Module m = loadExample(file);
    Status s = verify(m);
    EXPECT_TRUE(s.ok()) << file << ": " << s.message();
  }
}

TEST(Verifier, RejectsBadIrWithPositionedMessages) {
  struct Case {
    std::string body;
    std::string want;
  };
  std::vector<Case> cases = {
      // Layout rank against tensor rank.
      {"    %0 = arith.constant dense<0> : tensor<64xi32, #b2>\n",
       "v.tir:8:10: 'arith.constant': type of %0: layout of rank 2 on tensor<64xi32"},
      // Shared layout on a tensor.
      {"    %0 = arith.constant dense<0> : tensor<64x64xi32, #sh>\n",
       "has a shared layout, expected a distributed one"},
      // Elementwise ops keep layouts.
      {"    %0 = arith.constant dense<0> : tensor<64x64xi32, #b2>\n"
       "    %1 = ttg.convert_layout %0 : tensor<64x64xi32, #b2> -> tensor<64x64xi32, #b3>\n"
       "    %2 = tt.broadcast %1 : tensor<64x64xi32, #b3> -> tensor<64x64xi32, #b2>\n",
       "v.tir:10:10: 'tt.broadcast': operand and result must be tensors of one rank, element and "
       "layout"},
      // expand_dims goes through the slice of the result layout.
      {"    %0 = tt.make_range {end = 64 : i32, start = 0 : i32} : tensor<64xi32, #b1>\n"
       "    %1 = tt.expand_dims %0 {axis = 1 : i32} : tensor<64xi32, #b1> -> tensor<64x1xi32, "
       "#b2>\n",
       "operand layout must be the slice along 1 of the result layout"},
      // reduce gives the slice of the operand layout.
      {"    %0 = arith.constant dense<1.0> : tensor<64x64xf32, #b2>\n"
       "    %1 = tt.reduce sum %0 {axis = 1 : i32} : tensor<64x64xf32, #b2> -> tensor<64xf32, "
       "#ttg.slice<{dim = 0, parent = #b2}>>\n",
       "result layout must be the slice along 1 of the operand layout"},
      {"    %0 = arith.constant dense<1.0> : tensor<64x64xf32, #b2>\n"
       "    %1 = tt.reduce sum %0 {axis = 2 : i32} : tensor<64x64xf32, #b2> -> tensor<64xf32, "
       "#ttg.slice<{dim = 0, parent = #b2}>>\n",
       "axis 2 is out of range"},
      // scan keeps its operand's type; its combining function fits the elements.
      {"    %0 = arith.constant dense<1.0> : tensor<64x64xf32, #b2>\n"
       "    %1 = tt.scan sum %0 {axis = 1 : i32, reverse = false} : tensor<64x64xf32, #b2> -> "
       "tensor<64x64xf32, #b3>\n",
       "'tt.scan': the result must have the operand's type tensor<64x64xf32, "},
      {"    %0 = arith.constant dense<1.0> : tensor<64x64xf32, #b2>\n"
       "    %1 = tt.scan umax %0 {axis = 0 : i32, reverse = true} : tensor<64x64xf32, #b2> -> "
       "tensor<64x64xf32, #b2>\n",
       "umax scans integers only"},
      {"    %0 = arith.constant dense<1> : tensor<64x64xi32, #b2>\n"
       "    %1 = tt.scan prod %0 {axis = -1 : i32} : tensor<64x64xi32, #b2> -> "
       "tensor<64x64xi32, #b2>\n",
       "axis -1 is out of range"},
      // join / split add and remove a last dimension of 2, of one type on the narrow side.
      {"    %0 = arith.constant dense<1.0> : tensor<64x64xf32, #b2>\n"
       "    %1 = arith.constant dense<1> : tensor<64x64xi32, #b2>\n"
       "    %2 = tt.join %0, %1 : tensor<64x64xf32, #b2> -> tensor<64x64x2xf32, "
       "#ttg.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, "
       "1], order = [2, 1, 0]}>>\n",
       "'tt.join': operands must have one type"},
      {"    %0 = arith.constant dense<1.0> : tensor<64x64xf32, #b2>\n"
       "    %1 = tt.join %0, %0 : tensor<64x64xf32, #b2> -> tensor<64x64x4xf32, "
       "#ttg.blocked<{sizePerThread = [1, 4, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, "
       "1], order = [2, 1, 0]}>>\n",
       "the result must be the tensor with a last dimension of 2 added"},
      {"    %0 = arith.constant dense<1.0> : tensor<64x64x2xf32, #ttg.blocked<{sizePerThread = [1, "
       "4, 2], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>>\n"
       "    %1:2 = tt.split %0 : tensor<64x64x2xf32, #ttg.blocked<{sizePerThread = [1, 4, 2], "
       "threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>> -> "
       "tensor<64x32xf32, #b2>\n",
       "the operand must be the tensor with a last dimension of 2 added"},
      // Element types.
      {"    %0 = arith.constant dense<1.0> : tensor<64x64xf32, #b2>\n"
       "    %1 = arith.addi %0, %0 : tensor<64x64xf32, #b2>\n",
       "'arith.addi': needs integer operands"},
      {"    %0 = arith.extf %x : f32 to f32\n", "cannot cast f32 to f32"},
      {"    %0 = arith.constant dense<1> : tensor<64xi32, #b1>\n"
       "    %1 = tt.splat %p : !tt.ptr<f32> -> tensor<64x!tt.ptr<f32>, #b1>\n"
       "    %2 = tt.load %1, %0 : tensor<64x!tt.ptr<f32>, #b1>\n",
       "mask must be tensor<64xi1"},
      // Dot operand layouts must fit the accumulator.
      {"    %a = arith.constant dense<1.0> : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = "
       "#mma, kWidth = 2}>>\n"
       "    %b = arith.constant dense<1.0> : tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = "
       "#mma, kWidth = 2}>>\n"
       "    %c = arith.constant dense<0.0> : tensor<64x64xf32, #mma>\n"
       "    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, "
       "kWidth = 2}>> * tensor<32x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>> "
       "-> tensor<64x64xf32, #mma>\n",
       "B must be in a dot_op layout with opIdx = 1 whose parent is the accumulator's layout"},
      {"    %a = arith.constant dense<1.0> : tensor<64x32xf16, #b2>\n"
       "    %b = arith.constant dense<1.0> : tensor<64x64xf16, #b2>\n"
       "    %c = arith.constant dense<0.0> : tensor<64x64xf32, #b2>\n"
       "    %d = tt.dot %a, %b, %c : tensor<64x32xf16, #b2> * tensor<64x64xf16, #b2> -> "
       "tensor<64x64xf32, #b2>\n",
       "shapes do not multiply"},
      // Loops.
      {"    %0 = scf.for %i = %n to %n step %n iter_args(%a = %x) -> (f32) : i32 {\n"
       "      scf.yield %n : i32\n    }\n",
       "yielded value 0 has type i32, the loop carries f32"},
      {"    %0 = scf.for %i = %n to %n step %n iter_args(%a = %x) -> (f32) : i32 {\n"
       "      %1 = arith.addf %a, %a : f32\n      scf.yield %1 : f32\n    }\n"
       "    %2 = arith.addf %1, %1 : f32\n",
       "use of undefined value '%1'"},
      {"    scf.yield\n", "scf.yield must be the last op of a loop body or an scf.if branch"},
      {"    tt.return\n", "tt.return must be the last op of the function body"},
      // Atomics.
      {"    %0 = tt.atomic_rmw fadd, relaxed, gpu, %p, %x : (!tt.ptr<f32>, f32) -> f32\n"
       "    %1 = tt.atomic_rmw xor, relaxed, gpu, %p, %x : (!tt.ptr<f32>, f32) -> f32\n",
       "no atomic xor on f32"},
      {"    %0 = tt.atomic_rmw add, relaxed, gpu, %p, %n : (!tt.ptr<f32>, i32) -> i32\n",
       "value must be f32, got i32"},
      {"    %0 = tt.atomic_cas relaxed, gpu, %p, %n, %x : (!tt.ptr<f32>, i32, f32) -> f32\n",
       "compare value must be f32, got i32"},
      {"    %0 = tt.atomic_cas relaxed, gpu, %p, %x, %x, %x : (!tt.ptr<f32>, f32, f32, f32) -> "
       "f32\n",
       "mask must be i1, got f32"},

      // Branches.
      {"    scf.if %n {\n    }\n", "'scf.if': the condition must be an i1 scalar, got i32"},
      {"    %c = arith.cmpi eq, %n, %n : i32\n    %0 = scf.if %c -> (i32) {\n"
       "      scf.yield %x : f32\n    } else {\n      scf.yield %n : i32\n    }\n",
       "yielded value 0 has type f32, the scf.if has result type i32"},
      {"    %c = arith.cmpi eq, %n, %n : i32\n    scf.if %c {\n      scf.yield %n : i32\n    }\n",
       "yields 1 values, the scf.if has 0 results"},
      {"    %c = arith.cmpi eq, %n, %n : i32\n    scf.if %c {\n      tt.return\n    }\n",
       "tt.return must be the last op of the function body"},
  };
  for (const Case &c : cases) {
    std::string e = verifyError(wrap(c.body));
    EXPECT_NE(e.find(c.want), std::string::npos)
        << "got:  " << e << "\nwant: " << c.want << "\nin:\n"
        << c.body;
  }
}

TEST(Verifier, BuiltIrWithoutPositionsNamesTheFunction) {
  Module m;
  Builder b(m);
  b.beginFunction("k", std::vector<Type>{Type::scalar(ScalarKind::I32)});
  b.binary(OpKind::AddF, b.arg(0), b.arg(0));
  b.ret();
  ASSERT_TRUE(b.endFunction().ok());
  Status s = verify(m);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "@k: 'arith.addf': needs float operands, got i32");
}

TEST(Verifier, HandMadeIfsWithoutTheirBlocksAreErrors) {
  Module m = loadExample("memcpy_tail.tir");
  Function &f = m.functions.at(0);
  Op *branch = nullptr;
  for (Op &op : f.body.ops)
    if (op.kind == OpKind::If)
      branch = &op;
  ASSERT_NE(branch, nullptr);
  ASSERT_TRUE(verify(m).ok());
  Block elseBlock = branch->regions[1];
  branch->regions.pop_back();
  EXPECT_NE(verify(m).message().find("needs a then block and an else block"), std::string::npos);
  branch->regions.push_back(elseBlock);
  branch->regions[1].ops.pop_back(); // its scf.yield
  EXPECT_NE(verify(m).message().find("each branch of an scf.if must end with scf.yield"),
            std::string::npos);
  branch->regions[1] = elseBlock;
  branch->regions[1].args.push_back(branch->operands[0]);
  EXPECT_NE(verify(m).message().find("its blocks take no arguments"), std::string::npos);
}

TEST(Verifier, HandMadeStructuralMistakesAreErrors) {
  Module m = loadExample("memcpy_1d.tir");
  Function &f = m.functions[0];
  // A use of a value defined later.
  std::swap(f.body.ops[0], f.body.ops[2]);
  EXPECT_NE(verify(m).message().find("does not dominate"), std::string::npos);
  std::swap(f.body.ops[0], f.body.ops[2]);
  ASSERT_TRUE(verify(m).ok());
  // An operand id outside the value table.
  f.body.ops[2].operands[0] = 9999;
  EXPECT_NE(verify(m).message().find("uses value 9999, which is not in the value table"),
            std::string::npos);
  f.body.ops[2].operands[0] = f.body.ops[0].results[0];
  // A value defined twice.
  f.body.ops[1].results[0] = f.body.ops[0].results[0];
  EXPECT_NE(verify(m).message().find("is defined twice"), std::string::npos);
}

TEST(Verifier, RingsAndAsyncCopies) {
  const std::string ring = "!ttg.memdesc<3x64x64xf32, #sh, #smem, mutable>";
  const std::string tile = "!ttg.memdesc<64x64xf32, #sh, #smem, mutable>";
  const std::string ptrs = "tensor<64x64x!tt.ptr<f32>, #b2>";
  const std::string head = "    %c1 = arith.constant 1 : i32\n"
                           "    %r = ttg.local_alloc : () -> " +
                           ring + "\n" + "    %pv = tt.splat %p : !tt.ptr<f32> -> " + ptrs + "\n";
  auto text = [&](const std::string &body) {
    std::string t = wrap(head + body);
    return "#smem = #ttg.shared_memory\n" + t;
  };
  // The good case: index, copy, commit, wait, load, dealloc.
  EXPECT_EQ(verifyError(
                text("    %t = ttg.memdesc_index %r[%c1] : " + ring + " -> " + tile + "\n" +
                     "    ttg.async_copy_global_to_local %pv, %t : " + ptrs + " -> " + tile + "\n" +
                     "    ttg.async_commit_group\n" + "    ttg.async_wait {num = 1 : i32}\n" +
                     "    %v = ttg.local_load %t : " + tile + " -> tensor<64x64xf32, #b2>\n" +
                     "    ttg.local_dealloc %r : " + ring + "\n")),
            "<verified>");
  // The index drops exactly the leading dim.
  EXPECT_NE(verifyError(text("    %t = ttg.memdesc_index %r[%c1] : " + ring +
                             " -> !ttg.memdesc<64x32xf32, #sh, #smem, mutable>\n"))
                .find("the leading dim dropped"),
            std::string::npos);
  // A ring is loaded, stored and copied to only through its tiles.
  EXPECT_NE(verifyError(
                text("    ttg.async_copy_global_to_local %pv, %r : " + ptrs + " -> " + ring + "\n"))
                .find("destination must be a mutable memdesc"),
            std::string::npos);
  // Only a ring's leading dim may be a count that is not a power of two.
  EXPECT_NE(verifyError(text("    %q = ttg.local_alloc : () -> !ttg.memdesc<3x64xf32, #sh, #smem, "
                             "mutable>\n"))
                .find("only a ring's leading dim"),
            std::string::npos);
  // A mask needs the pointers' shape and layout.
  EXPECT_NE(verifyError(text("    %t = ttg.memdesc_index %r[%c1] : " + ring + " -> " + tile + "\n" +
                             "    %m = arith.constant dense<true> : tensor<64x64xi1, #b3>\n" +
                             "    ttg.async_copy_global_to_local %pv, %t mask %m : " + ptrs +
                             " -> " + tile + "\n"))
                .find("mask must be an i1 tensor"),
            std::string::npos);
  EXPECT_NE(verifyError(text("    ttg.async_wait {num = -1 : i32}\n")).find("num"),
            std::string::npos);
}

TEST(Verifier, Subslices) {
  const std::string tile = "!ttg.memdesc<64x64xf32, #sh, #smem, mutable>";
  const std::string ring = "!ttg.memdesc<2x64x64xf32, #sh, #smem, mutable>";
  auto text = [&](const std::string &body) {
    return "#smem = #ttg.shared_memory\n" +
           wrap("    %r = ttg.local_alloc : () -> " + ring + "\n" +
                "    %c1 = arith.constant 1 : i32\n" +
                "    %t = ttg.memdesc_index %r[%c1] : " + ring + " -> " + tile + "\n" + body);
  };
  auto view = [&](const std::string &offsets, const std::string &result) {
    return "    %v = ttg.memdesc_subslice %t [" + offsets + "] : " + tile + " -> " + result + "\n";
  };
  // Triton's form: the view carries the viewed tile's shape as its alloc shape; views of views
  // keep it.
  EXPECT_EQ(verifyError(text(view("0, 16", "!ttg.memdesc<64x16xf32, #sh, #smem, mutable, 64x64>") +
                             "    %w = ttg.memdesc_subslice %v [32, 0] : !ttg.memdesc<64x16xf32, "
                             "#sh, #smem, mutable, 64x64> -> !ttg.memdesc<32x16xf32, #sh, #smem, "
                             "mutable, 64x64>\n" +
                             "    %ld = ttg.local_load %w : !ttg.memdesc<32x16xf32, #sh, #smem, "
                             "mutable, 64x64> -> tensor<32x16xf32, #b2>\n")),
            "<verified>");
  // An origin that is not a multiple of the view's size in its dim.
  EXPECT_NE(verifyError(text(view("0, 8", "!ttg.memdesc<64x16xf32, #sh, #smem, mutable, 64x64>")))
                .find("offset 8 of dim 1 is not a multiple of the view's size 16"),
            std::string::npos);
  // Out of the tile.
  EXPECT_NE(verifyError(text(view("0, 64", "!ttg.memdesc<64x16xf32, #sh, #smem, mutable, 64x64>")))
                .find("outside 0..63"),
            std::string::npos);
  // The alloc shape must be the viewed tile's.
  EXPECT_NE(verifyError(text(view("0, 16", "!ttg.memdesc<64x16xf32, #sh, #smem, mutable, 64x32>")))
                .find("alloc shape must be the shape of the tile"),
            std::string::npos);
  // One offset per dim; same layout and mutability.
  EXPECT_NE(verifyError(text(view("0", "!ttg.memdesc<64x16xf32, #sh, #smem, mutable, 64x64>")))
                .find("1 offset(s) for a memdesc of rank 2"),
            std::string::npos);
  EXPECT_NE(verifyError(text(view("0, 16", "!ttg.memdesc<64x16xf32, #sh, #smem, 64x64>")))
                .find("same rank, layout, element and mutability"),
            std::string::npos);
  // A ring is sliced through its tiles only, and rings are not views.
  EXPECT_NE(verifyError(text("    %v = ttg.memdesc_subslice %r [0, 0, 0] : " + ring +
                             " -> !ttg.memdesc<1x64x64xf32, #sh, #smem, mutable, 2x64x64>\n"))
                .find("slices a whole ring"),
            std::string::npos);
  EXPECT_NE(verifyError("#smem = #ttg.shared_memory\n" +
                        wrap("    %r = ttg.local_alloc : () -> !ttg.memdesc<64x16xf32, #sh, #smem, "
                             "mutable, 64x64>\n"))
                .find("is a view"),
            std::string::npos);
}

// ttg.memdesc_trans: the same bytes with the dims permuted, in a layout that stores every
// element where the operand's does (Triton's forms: the other order of a swizzled_shared, the
// other `transposed` of an nvmma_shared; or any layout of the same map).
TEST(Verifier, MemDescTransposes) {
  const std::string head = "#smem = #ttg.shared_memory\n"
                           "#sht = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, "
                           "order = [0, 1]}>\n"
                           "#nv = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, "
                           "elementBitWidth = 32}>\n"
                           "#nvt = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = true, "
                           "elementBitWidth = 32}>\n";
  auto text = [&](const std::string &tileLayout, const std::string &body) {
    return head + wrap("    %t = ttg.local_alloc : () -> !ttg.memdesc<64x32xf32, " + tileLayout +
                       ", #smem, mutable>\n" + body);
  };
  auto trans = [](const std::string &from, const std::string &to, const std::string &order) {
    return "    %u = ttg.memdesc_trans %t {order = array<i32: " + order + ">} : " + from + " -> " +
           to + "\n";
  };
  const std::string sh = "!ttg.memdesc<64x32xf32, #sh, #smem, mutable>";
  const std::string nv = "!ttg.memdesc<64x32xf32, #nv, #smem, mutable>";
  EXPECT_EQ(
      verifyError(text("#sh", trans(sh, "!ttg.memdesc<32x64xf32, #sht, #smem, mutable>", "1, 0") +
                                  "    %l = ttg.local_load %u : !ttg.memdesc<32x64xf32, "
                                  "#sht, #smem, mutable> -> tensor<32x64xf32, #b2>\n")),
      "<verified>");
  EXPECT_EQ(
      verifyError(text("#nv", trans(nv, "!ttg.memdesc<32x64xf32, #nvt, #smem, mutable>", "1, 0"))),
      "<verified>");
  // The identity order keeps the layout.
  EXPECT_EQ(verifyError(text("#sh", trans(sh, sh, "0, 1"))), "<verified>");
  // A layout that puts the elements elsewhere.
  EXPECT_NE(
      verifyError(text("#sh", trans(sh, "!ttg.memdesc<32x64xf32, #sh, #smem, mutable>", "1, 0")))
          .find("must store each element where the operand's does"),
      std::string::npos);
  EXPECT_NE(
      verifyError(text("#nv", trans(nv, "!ttg.memdesc<32x64xf32, #nv, #smem, mutable>", "1, 0")))
          .find("must store each element where the operand's does"),
      std::string::npos);
  // Shapes, orders, mutability, rings.
  EXPECT_NE(
      verifyError(text("#sh", trans(sh, "!ttg.memdesc<64x32xf32, #sht, #smem, mutable>", "1, 0")))
          .find("result dimension 0 must be operand dimension 1"),
      std::string::npos);
  EXPECT_NE(
      verifyError(text("#sh", trans(sh, "!ttg.memdesc<32x64xf32, #sht, #smem, mutable>", "1, 1")))
          .find("not a permutation"),
      std::string::npos);
  EXPECT_NE(verifyError(text("#sh", trans(sh, "!ttg.memdesc<32x64xf32, #sht, #smem>", "1, 0")))
                .find("same element, mutability and rank"),
            std::string::npos);
  const std::string ring = "!ttg.memdesc<2x64x32xf32, #sh, #smem, mutable>";
  EXPECT_NE(verifyError(head + wrap("    %t = ttg.local_alloc : () -> " + ring + "\n" +
                                    "    %u = ttg.memdesc_trans %t {order = array<i32: 0, 2, "
                                    "1>} : " +
                                    ring + " -> !ttg.memdesc<2x32x64xf32, #sht, #smem, mutable>\n"))
                .find("transposes a whole ring"),
            std::string::npos);
  // A view transposes to a view of the transposed tile.
  const std::string view = "!ttg.memdesc<64x16xf32, #sh, #smem, mutable, 64x32>";
  EXPECT_EQ(
      verifyError(text("#sh", "    %v = ttg.memdesc_subslice %t [0, 16] : " + sh + " -> " + view +
                                  "\n    %u = ttg.memdesc_trans %v {order = array<i32: 1, "
                                  "0>} : " +
                                  view +
                                  " -> !ttg.memdesc<16x64xf32, #sht, #smem, mutable, "
                                  "32x64>\n")),
      "<verified>");
  EXPECT_NE(
      verifyError(text("#sh", "    %v = ttg.memdesc_subslice %t [0, 16] : " + sh + " -> " + view +
                                  "\n    %u = ttg.memdesc_trans %v {order = array<i32: 1, "
                                  "0>} : " +
                                  view + " -> !ttg.memdesc<16x64xf32, #sht, #smem, mutable>\n"))
          .find("a view transposes to a view"),
      std::string::npos);
}

TEST(Parser, MemDescTransRoundTrips) {
  std::string text =
      "#smem = #ttg.shared_memory\n#sht = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase "
      "= 8, order = [0, 1]}>\n" +
      wrap("    %t = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #sh, #smem, mutable>\n"
           "    %u = ttg.memdesc_trans %t {order = array<i32: 1, 0>} : !ttg.memdesc<128x32xf16, "
           "#sh, #smem, mutable> -> !ttg.memdesc<32x128xf16, #sht, #smem, mutable>\n");
  auto m = parseModule(text, "t.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(verify(*m).ok());
  std::string printed = print(*m);
  EXPECT_NE(
      printed.find("ttg.memdesc_trans %t {order = array<i32: 1, 0>} : !ttg.memdesc<128x32xf16"),
      std::string::npos)
      << printed;
  auto again = parseModule(printed, "t2.tir");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), printed);
  const std::string order = "{order = array<i32: 1, 0>}";
  EXPECT_NE(parseModule(text.replace(text.find(order), order.size(), "{axis = 1 : i32}"), "t3.tir")
                .message()
                .find("ttg.memdesc_trans needs an attribute 'order"),
            std::string::npos);
}

TEST(Parser, SubsliceRoundTrips) {
  std::string text = "#smem = #ttg.shared_memory\n" +
                     wrap("    %t = ttg.local_alloc : () -> !ttg.memdesc<128x32xf16, #sh, #smem, "
                          "mutable>\n"
                          "    %v = ttg.memdesc_subslice %t [0, 16]  : !ttg.memdesc<128x32xf16, "
                          "#sh, #smem, mutable> -> !ttg.memdesc<128x16xf16, #sh, #smem, mutable, "
                          "128x32>\n");
  auto m = parseModule(text, "v.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  std::string printed = print(*m);
  EXPECT_NE(printed.find("ttg.memdesc_subslice %t [0, 16] : !ttg.memdesc<128x32xf16, #sh, "
                         "#smem, mutable> -> !ttg.memdesc<128x16xf16, #sh, #smem, mutable, "
                         "128x32>"),
            std::string::npos)
      << printed;
  auto again = parseModule(printed, "v2.tir");
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(print(*again), printed);
  // A malformed alloc shape.
  EXPECT_NE(verifyError("#smem = #ttg.shared_memory\n" +
                        wrap("    %t = ttg.local_alloc : () -> !ttg.memdesc<64x16xf32, #sh, #smem, "
                             "mutable, 64x48>\n"))
                .find("must be a power of two"),
            std::string::npos);
}

// Compare-and-swap takes 16-, 32- and 64-bit elements (PTX's atom.cas.b16 / .b32 / .b64), fadd
// 16-bit floats too (atom.add.noftz.f16 / .bf16).
TEST(Verifier, AtomicElementWidths) {
  auto module = [](const std::string &elem, const std::string &op) {
    return "module {\n  tt.func @f(%q: !tt.ptr<" + elem + ">, %h: " + elem + ") {\n    %0 = " + op +
           " %q, %h" + (op.find("cas") != std::string::npos ? ", %h" : "") + " : (!tt.ptr<" + elem +
           ">, " + elem + (op.find("cas") != std::string::npos ? ", " + elem : "") + ") -> " +
           elem + "\n    tt.return\n  }\n}\n";
  };
  EXPECT_NE(verifyError(module("i8", "tt.atomic_cas relaxed, gpu,"))
                .find("no atomic compare-and-swap on i8 (it takes 16-, 32- or 64-bit elements)"),
            std::string::npos);
  for (const std::string elem : {"i16", "f16", "bf16", "i64"})
    EXPECT_EQ(verifyError(module(elem, "tt.atomic_cas relaxed, gpu,")), "<verified>") << elem;
  for (const std::string elem : {"f16", "bf16", "f32", "f64"})
    EXPECT_EQ(verifyError(module(elem, "tt.atomic_rmw fadd, relaxed, gpu,")), "<verified>") << elem;
  EXPECT_NE(
      verifyError(module("i16", "tt.atomic_rmw add, relaxed, gpu,")).find("no atomic add on i16"),
      std::string::npos);
}

// 8-bit floats convert through tt.fp_to_fp only, narrowing with rounding = rtne; arithmetic on
// them, other casts and other conversions are errors that say what to do.
TEST(Verifier, EightBitFloats) {
  auto body = [](const std::string &ops) {
    return wrap("    %v = arith.constant dense<1.5> : tensor<64xf32, #b1>\n"
                "    %h = arith.constant dense<1.5> : tensor<64xf64, #b1>\n"
                "    %q = tt.fp_to_fp %v, rounding = rtne : tensor<64xf32, #b1> -> "
                "tensor<64xf8E4M3FN, #b1>\n" +
                ops);
  };
  EXPECT_EQ(verifyError(body("    %w = tt.fp_to_fp %q : tensor<64xf8E4M3FN, #b1> -> "
                             "tensor<64xbf16, #b1>\n"
                             "    %r = tt.fp_to_fp %q, rounding = rtne : tensor<64xf8E4M3FN, "
                             "#b1> -> tensor<64xf8E5M2, #b1>\n"
                             "    %c = ttg.convert_layout %q : tensor<64xf8E4M3FN, #b1> -> "
                             "tensor<64xf8E4M3FN, #b1>\n")),
            "<verified>");
  struct Case {
    const char *ops, *want;
  } cases[] = {
      {"    %s = arith.addf %q, %q : tensor<64xf8E4M3FN, #b1>\n",
       "takes no 8-bit floats (f8E4M3FN, f8E5M2): convert them with tt.fp_to_fp"},
      {"    %s = arith.extf %q : tensor<64xf8E4M3FN, #b1> to tensor<64xf32, #b1>\n",
       "takes no 8-bit floats"},
      {"    %s = tt.fp_to_fp %v : tensor<64xf32, #b1> -> tensor<64xf8E5M2, #b1>\n",
       "converting f32 to f8E5M2 needs a rounding (rounding = rtne)"},
      {"    %s = tt.fp_to_fp %v, rounding = rtz : tensor<64xf32, #b1> -> tensor<64xf8E5M2, "
       "#b1>\n",
       "rounding = rtz to an 8-bit float is not supported; use rtne"},
      {"    %s = tt.fp_to_fp %h, rounding = rtne : tensor<64xf64, #b1> -> tensor<64xf8E5M2, "
       "#b1>\n",
       "converts between an 8-bit float and f16, bf16, f32 or the other 8-bit float, not f64 to "
       "f8E5M2"},
      {"    %s = tt.fp_to_fp %v : tensor<64xf32, #b1> -> tensor<64xf16, #b1>\n", "not f32 to f16"},
      {"    %s = tt.fp_to_fp %v, rounding = nearest : tensor<64xf32, #b1> -> "
       "tensor<64xf8E5M2, #b1>\n",
       "rounding must be rtne or rtz, got 'nearest'"},
  };
  for (const Case &c : cases) {
    std::string got = verifyError(body(c.ops));
    EXPECT_NE(got.find(c.want), std::string::npos) << c.ops << "\n" << got;
  }
}
