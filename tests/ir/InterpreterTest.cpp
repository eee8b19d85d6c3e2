#include "Examples.h"
#include "Fp8Reference.h"

#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cstring>
#include <random>

using namespace linlayout;
using namespace linlayout::ir;
using namespace linlayout::ir::testing;

TEST(Interpreter, ExamplesComputeTheirReference) {
  for (const ExampleRun &run : exampleRuns()) {
    SCOPED_TRACE(run.file);
    Module m = loadExample(run.file);
    Memory mem = runExample(m, run);
    run.check(mem);
  }
}

TEST(Interpreter, OutOfBoundsLoadIsAnError) {
  Module m = loadExample("memcpy_1d.tir");
  Memory mem;
  mem.buffers = {std::vector<uint8_t>(100), std::vector<uint8_t>(4096)};
  std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1),
                                ArgValue::integer(1024)};
  Status s = interpret(m, "memcpy_1d", args, mem);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("reads bytes [100, 104) of buffer 0 of 100 bytes"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("memcpy_1d.tir:"), std::string::npos) << s.message();
}

TEST(Interpreter, ArgumentMistakesAreErrors) {
  Module m = loadExample("memcpy_1d.tir");
  Memory mem;
  mem.buffers = {std::vector<uint8_t>(4096)};
  std::vector<ArgValue> few = {ArgValue::pointer(0)};
  EXPECT_NE(interpret(m, "memcpy_1d", few, mem).message().find("takes 3 arguments, got 1"),
            std::string::npos);
  std::vector<ArgValue> badBuf = {ArgValue::pointer(0), ArgValue::pointer(5), ArgValue::integer(1)};
  EXPECT_NE(interpret(m, "memcpy_1d", badBuf, mem).message().find("names buffer 5 of 1"),
            std::string::npos);
  EXPECT_NE(interpret(m, "nope", few, mem).message().find("no function '@nope'"),
            std::string::npos);
}

// The limits that keep a hostile kernel from running forever. matmul.tir on 2 programs of
// 128x128 with K = 64 multiplies 2 x 2 x 128 x 128 x 32 = 2^21 times and has well under 2^20
// other result elements: a dot counts its multiply-adds, not just its result's elements (a
// 1024^3 dot would otherwise cost the budget of its 2^20 results).
TEST(Interpreter, BudgetsStopLongRuns) {
  const std::vector<ExampleRun> runs = exampleRuns();
  const ExampleRun *matmul = nullptr;
  for (const ExampleRun &run : runs)
    if (run.file == "matmul.tir")
      matmul = &run;
  ASSERT_NE(matmul, nullptr);
  Module m = loadExample("matmul.tir");
  auto run = [&](InterpreterOptions o) {
    Memory mem;
    std::vector<ArgValue> args;
    matmul->setup(mem, args);
    return interpret(m, matmul->function, args, mem, matmul->grid, o);
  };
  EXPECT_TRUE(run({}).ok());
  InterpreterOptions elements;
  elements.maxElementOps = int64_t(1) << 21;
  Status s = run(elements);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("element budget is exhausted"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("tt.dot"), std::string::npos) << s.message();
  elements.maxElementOps = int64_t(1) << 22;
  EXPECT_TRUE(run(elements).ok());
  InterpreterOptions ops;
  ops.maxOps = 20;
  s = run(ops);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("op budget is exhausted"), std::string::npos) << s.message();
}

// Ensures: roundToFloatKind(roundToFloatKind(x, k), k) == roundToFloatKind(x, k).
RC_GTEST_PROP(Interpreter, RoundingIsIdempotent, (double x)) {
  for (ScalarKind k : {ScalarKind::F16, ScalarKind::BF16, ScalarKind::F32, ScalarKind::F64}) {
    double r = roundToFloatKind(x, k);
    if (std::isnan(r))
      continue;
    RC_ASSERT(roundToFloatKind(r, k) == r);
  }
}

// The 8-bit floats round as the brute-force model does (the nearest finite code of the value's
// sign, ties to even, saturating), and floatBits gives that code, for values of every magnitude
// around the formats' ranges, and for doubles of any kind.
RC_GTEST_PROP(Interpreter, Fp8RoundingIsTheNearestFiniteCode, (double any)) {
  const double near = std::ldexp(1.0 + *rc::gen::inRange(0, 1 << 20) / double(1 << 20),
                                 *rc::gen::inRange(-24, 20)) *
                      (*rc::gen::arbitrary<bool>() ? -1 : 1);
  for (double x : {any, near})
    for (ScalarKind k : {ScalarKind::F8E4M3FN, ScalarKind::F8E5M2}) {
      const uint8_t want = fp8Encode(x, k);
      const double r = roundToFloatKind(x, k);
      if (std::isnan(x)) {
        RC_ASSERT(std::isnan(r));
        continue;
      }
      RC_ASSERT(r == fp8Decode(want, k));
      RC_ASSERT(std::signbit(r) == std::signbit(x));
      RC_ASSERT(floatBits(x, k) == want);
      RC_ASSERT(roundToFloatKind(r, k) == r);
    }
}

// Every finite code reads back as itself; the named values of both formats.
TEST(Interpreter, Fp8CodesRoundTripAndKnownValues) {
  for (ScalarKind k : {ScalarKind::F8E4M3FN, ScalarKind::F8E5M2})
    for (int c = 0; c < 256; ++c) {
      const double v = fp8Decode(uint8_t(c), k);
      if (std::isfinite(v)) {
        EXPECT_EQ(floatBits(v, k), uint64_t(c)) << name(k) << " code " << c;
      }
    }
  const ScalarKind e4 = ScalarKind::F8E4M3FN, e5 = ScalarKind::F8E5M2;
  EXPECT_EQ(fp8Decode(0x7E, e4), 448.0);
  EXPECT_TRUE(std::isnan(fp8Decode(0x7F, e4)));
  EXPECT_EQ(fp8Decode(0x01, e4), std::ldexp(1.0, -9));
  EXPECT_EQ(fp8Decode(0x7B, e5), 57344.0);
  EXPECT_TRUE(std::isinf(fp8Decode(0x7C, e5)));
  EXPECT_EQ(fp8Decode(0x01, e5), std::ldexp(1.0, -16));
  EXPECT_EQ(roundToFloatKind(1e9, e4), 448.0);          // saturated
  EXPECT_EQ(roundToFloatKind(-INFINITY, e5), -57344.0); // saturated too
  EXPECT_EQ(roundToFloatKind(1.0625, e4), 1.0);         // a tie: to the even code
  EXPECT_EQ(roundToFloatKind(1.1875, e4), 1.25);
}

TEST(Interpreter, HalfRoundingIsNearestEven) {
  EXPECT_EQ(roundToFloatKind(1.0 + std::ldexp(1.0, -11), ScalarKind::F16), 1.0);
  EXPECT_EQ(roundToFloatKind(1.0 + 3 * std::ldexp(1.0, -11), ScalarKind::F16),
            1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(roundToFloatKind(65504.0, ScalarKind::F16), 65504.0);
  EXPECT_TRUE(std::isinf(roundToFloatKind(65520.0, ScalarKind::F16)));
  EXPECT_EQ(roundToFloatKind(std::ldexp(1.0, -25) * 1.5, ScalarKind::F16), std::ldexp(1.0, -24));
  EXPECT_EQ(roundToFloatKind(1.0 + std::ldexp(1.0, -9), ScalarKind::BF16), 1.0);
}

namespace {

// The i32 pointers of rows [0, r) and columns [0, c) of a row-major buffer with row stride 64,
// as %<name> : tensor<rxcx!tt.ptr<i32>, #b>.
std::string tilePointers(const std::string &name, const std::string &base, int64_t r, int64_t c) {
  std::string R = std::to_string(r), C = std::to_string(c), s = name + "_";
  std::string rows = "tensor<" + R + "xi32, #ttg.slice<{dim = 1, parent = #b}>>";
  std::string cols = "tensor<" + C + "xi32, #ttg.slice<{dim = 0, parent = #b}>>";
  std::string t2 = "tensor<" + R + "x" + C + "xi32, #b>";
  return "    %" + s + "rr = tt.make_range {end = " + R + " : i32, start = 0 : i32} : " + rows +
         "\n    %" + s + "re = tt.expand_dims %" + s + "rr {axis = 1 : i32} : " + rows +
         " -> tensor<" + R + "x1xi32, #b>\n    %" + s + "c64 = arith.constant dense<64> : tensor<" +
         R + "x1xi32, #b>\n    %" + s + "rm = arith.muli %" + s + "re, %" + s + "c64 : tensor<" +
         R + "x1xi32, #b>\n    %" + s + "rb = tt.broadcast %" + s + "rm : tensor<" + R +
         "x1xi32, #b> -> " + t2 + "\n    %" + s + "cr = tt.make_range {end = " + C +
         " : i32, start = 0 : i32} : " + cols + "\n    %" + s + "ce = tt.expand_dims %" + s +
         "cr {axis = 0 : i32} : " + cols + " -> tensor<1x" + C + "xi32, #b>\n    %" + s +
         "cb = tt.broadcast %" + s + "ce : tensor<1x" + C + "xi32, #b> -> " + t2 + "\n    %" + s +
         "off = arith.addi %" + s + "rb, %" + s + "cb : " + t2 + "\n    %" + s + "ps = tt.splat %" +
         base + " : !tt.ptr<i32> -> tensor<" + R + "x" + C + "x!tt.ptr<i32>, #b>\n    %" + name +
         " = tt.addptr %" + s + "ps, %" + s + "off : tensor<" + R + "x" + C +
         "x!tt.ptr<i32>, #b>, " + t2 + "\n";
}

std::string shapeText(int64_t r, int64_t c) { return std::to_string(r) + "x" + std::to_string(c); }

} // namespace

// ttg.memdesc_subslice against brute force: a 64x64 tile goes to shared memory, a view of it
// (and a view of a view) is loaded, and every element of the view is the tile's element at
// origin + x; a local_store through a view writes exactly the view's elements of the tile.
TEST(Interpreter, SubslicesReadAndWriteTheirTilesElements) {
  const std::string head =
      "#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, "
      "1], order = [1, 0]}>\n#sh = #ttg.swizzled_shared<{vec = 8, perPhase = 2, maxPhase = 4, "
      "order = [1, 0]}>\n#smem = #ttg.shared_memory\nmodule attributes {\"ttg.num-warps\" = 4 : "
      "i32} {\n  tt.func @f(%in: !tt.ptr<i32>, %out: !tt.ptr<i32>) {\n";
  const std::string tile = "!ttg.memdesc<64x64xi32, #sh, #smem, mutable>";
  struct Case {
    int64_t s0, s1, o0, o1;
    int64_t t0 = 0, t1 = 0, u0 = 0, u1 = 0; // a second view (t0 x t1 at u) of the first
  };
  std::vector<Case> cases;
  for (auto [s0, s1] : std::vector<std::pair<int64_t, int64_t>>{
           {64, 16}, {16, 64}, {32, 32}, {1, 64}, {8, 4}, {64, 64}})
    for (int64_t o0 = 0; o0 < 64; o0 += s0)
      for (int64_t o1 = 0; o1 < 64; o1 += s1)
        cases.push_back({s0, s1, o0, o1});
  cases.push_back({32, 32, 32, 0, 16, 8, 16, 24});
  cases.push_back({64, 32, 0, 32, 8, 32, 56, 0});
  std::mt19937_64 rng(7);
  for (const Case &c : cases) {
    bool twice = c.t0 != 0;
    int64_t r0 = twice ? c.t0 : c.s0, r1 = twice ? c.t1 : c.s1;
    int64_t at0 = c.o0 + (twice ? c.u0 : 0), at1 = c.o1 + (twice ? c.u1 : 0);
    SCOPED_TRACE("view " + shapeText(r0, r1) + " at " + std::to_string(at0) + "," +
                 std::to_string(at1));
    std::string v1 = "!ttg.memdesc<" + shapeText(c.s0, c.s1) + "xi32, #sh, #smem, mutable" +
                     (c.s0 == 64 && c.s1 == 64 ? "" : ", 64x64") + ">";
    std::string v2 = "!ttg.memdesc<" + shapeText(r0, r1) + "xi32, #sh, #smem, mutable, 64x64>";
    std::string body = tilePointers("pin", "in", 64, 64) +
                       "    %t = tt.load %pin : tensor<64x64x!tt.ptr<i32>, #b>\n"
                       "    %a = ttg.local_alloc : () -> " +
                       tile + "\n" + "    ttg.local_store %t, %a : tensor<64x64xi32, #b> -> " +
                       tile + "\n" + "    %v = ttg.memdesc_subslice %a [" + std::to_string(c.o0) +
                       ", " + std::to_string(c.o1) + "] : " + tile + " -> " + v1 + "\n";
    std::string last = "%v", lastType = v1;
    if (twice) {
      body += "    %w = ttg.memdesc_subslice %v [" + std::to_string(c.u0) + ", " +
              std::to_string(c.u1) + "] : " + v1 + " -> " + v2 + "\n";
      last = "%w";
      lastType = v2;
    }
    std::string t2 = "tensor<" + shapeText(r0, r1) + "xi32, #b>";
    // Read the view to out rows [0, r0); then write it back negated through the view and read
    // the whole tile to out rows [64, 128).
    body += "    %x = ttg.local_load " + last + " : " + lastType + " -> " + t2 + "\n" +
            tilePointers("pout", "out", r0, r1) + "    tt.store %pout, %x : tensor<" +
            shapeText(r0, r1) + "x!tt.ptr<i32>, #b>\n" +
            "    %z = arith.constant dense<0> : " + t2 + "\n" +
            "    %neg = arith.subi %z, %x : " + t2 + "\n" + "    ttg.local_store %neg, " + last +
            " : " + t2 + " -> " + lastType + "\n" + "    %all = ttg.local_load %a : " + tile +
            " -> tensor<64x64xi32, #b>\n" + "    %c4096 = arith.constant 4096 : i32\n" +
            "    %out2 = tt.addptr %out, %c4096 : !tt.ptr<i32>, i32\n" +
            tilePointers("pall", "out2", 64, 64) +
            "    tt.store %pall, %all : tensor<64x64x!tt.ptr<i32>, #b>\n" +
            "    ttg.local_dealloc %a : " + tile + "\n    tt.return\n  }\n}\n";
    auto m = parseModule(head + body, "subslice.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    std::vector<int32_t> in(64 * 64);
    for (int32_t &x : in)
      x = int32_t(rng() % 100000) + 1;
    Memory mem;
    mem.buffers = {std::vector<uint8_t>(in.size() * 4), std::vector<uint8_t>(2 * 64 * 64 * 4)};
    std::memcpy(mem.buffers[0].data(), in.data(), in.size() * 4);
    std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1)};
    Status s = interpret(*m, "f", args, mem);
    ASSERT_TRUE(s.ok()) << s.message();
    std::vector<int32_t> out(2 * 64 * 64);
    std::memcpy(out.data(), mem.buffers[1].data(), out.size() * 4);
    for (int64_t x0 = 0; x0 < r0; ++x0)
      for (int64_t x1 = 0; x1 < r1; ++x1)
        ASSERT_EQ(out[size_t(x0 * 64 + x1)], in[size_t((at0 + x0) * 64 + at1 + x1)])
            << "view element " << x0 << "," << x1;
    for (int64_t p0 = 0; p0 < 64; ++p0)
      for (int64_t p1 = 0; p1 < 64; ++p1) {
        bool inside = p0 >= at0 && p0 < at0 + r0 && p1 >= at1 && p1 < at1 + r1;
        int32_t want = in[size_t(p0 * 64 + p1)];
        ASSERT_EQ(out[size_t(4096 + p0 * 64 + p1)], inside ? -want : want)
            << "tile element " << p0 << "," << p1;
      }
  }
}

// ttg.memdesc_trans reads and writes the same elements as its operand, the dims permuted: a 64x32
// tile stored, then read through its transpose (and a transposed view of its right half) and
// written back through the transpose.
TEST(Interpreter, MemDescTransReadsTheSameElementsTransposed) {
  const std::string text =
      "#b = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, "
      "1], order = [1, 0]}>\n#sh = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, "
      "order = [1, 0]}>\n#sht = #ttg.swizzled_shared<{vec = 4, perPhase = 2, maxPhase = 4, order "
      "= [0, 1]}>\n#smem = #ttg.shared_memory\nmodule attributes {\"ttg.num-warps\" = 4 : i32} "
      "{\n  tt.func @f(%in: !tt.ptr<i32>, %out: !tt.ptr<i32>, %out2: !tt.ptr<i32>) {\n" +
      tilePointers("pin", "in", 64, 32) +
      "    %t = tt.load %pin : tensor<64x32x!tt.ptr<i32>, #b>\n"
      "    %a = ttg.local_alloc %t : (tensor<64x32xi32, #b>) -> !ttg.memdesc<64x32xi32, #sh, "
      "#smem, mutable>\n"
      "    %u = ttg.memdesc_trans %a {order = array<i32: 1, 0>} : !ttg.memdesc<64x32xi32, #sh, "
      "#smem, mutable> -> !ttg.memdesc<32x64xi32, #sht, #smem, mutable>\n"
      "    %x = ttg.local_load %u : !ttg.memdesc<32x64xi32, #sht, #smem, mutable> -> "
      "tensor<32x64xi32, #b>\n" +
      tilePointers("pout", "out", 32, 64) +
      "    tt.store %pout, %x : tensor<32x64x!tt.ptr<i32>, #b>\n"
      "    %v = ttg.memdesc_subslice %a [0, 16] : !ttg.memdesc<64x32xi32, #sh, #smem, mutable> -> "
      "!ttg.memdesc<64x16xi32, #sh, #smem, mutable, 64x32>\n"
      "    %vt = ttg.memdesc_trans %v {order = array<i32: 1, 0>} : !ttg.memdesc<64x16xi32, #sh, "
      "#smem, mutable, 64x32> -> !ttg.memdesc<16x64xi32, #sht, #smem, mutable, 32x64>\n"
      "    %y = ttg.local_load %vt : !ttg.memdesc<16x64xi32, #sht, #smem, mutable, 32x64> -> "
      "tensor<16x64xi32, #b>\n"
      "    %z = arith.constant dense<0> : tensor<16x64xi32, #b>\n"
      "    %neg = arith.subi %z, %y : tensor<16x64xi32, #b>\n"
      "    ttg.local_store %neg, %vt : tensor<16x64xi32, #b> -> !ttg.memdesc<16x64xi32, #sht, "
      "#smem, mutable, 32x64>\n"
      "    %all = ttg.local_load %a : !ttg.memdesc<64x32xi32, #sh, #smem, mutable> -> "
      "tensor<64x32xi32, #b>\n" +
      tilePointers("pall", "out2", 64, 32) +
      "    tt.store %pall, %all : tensor<64x32x!tt.ptr<i32>, #b>\n"
      "    tt.return\n  }\n}\n";
  auto m = parseModule(text, "trans.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
  // Every buffer is 64 x 64 (tilePointers' row stride).
  std::vector<int32_t> in(64 * 64);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = int32_t(i * 7 + 1);
  Memory mem;
  mem.buffers.assign(3, std::vector<uint8_t>(in.size() * 4));
  std::memcpy(mem.buffers[0].data(), in.data(), in.size() * 4);
  std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2)};
  Status s = interpret(*m, "f", args, mem);
  ASSERT_TRUE(s.ok()) << s.message();
  std::vector<int32_t> out(in.size()), out2(in.size());
  std::memcpy(out.data(), mem.buffers[1].data(), out.size() * 4);
  std::memcpy(out2.data(), mem.buffers[2].data(), out2.size() * 4);
  auto at = [&](int64_t r, int64_t c) { return in[size_t(r * 64 + c)]; };
  for (int64_t r = 0; r < 32; ++r)
    for (int64_t c = 0; c < 64; ++c)
      ASSERT_EQ(out[size_t(r * 64 + c)], at(c, r)) << r << "," << c;
  for (int64_t r = 0; r < 64; ++r)
    for (int64_t c = 0; c < 32; ++c)
      ASSERT_EQ(out2[size_t(r * 64 + c)], c >= 16 ? -at(r, c) : at(r, c)) << r << "," << c;
}

// The unsigned integer ops read the operands' bits as unsigned numbers of the element width;
// fptoui saturates; minnumf / maxnumf return the other operand of a NaN. Checked on i32 and i8
// against the same operations on uint32_t / uint8_t.
TEST(Interpreter, UnsignedOpsReadBitsAsUnsigned) {
  for (std::string t : {"i32", "i8"}) {
    SCOPED_TRACE(t);
    std::string text =
        "module {\n  tt.func @k(%out: !tt.ptr<" + t + ">, %a: " + t + ", %b: " + t + ") {\n";
    int slot = 0;
    for (std::string op : {"divui", "remui", "shrui", "minui", "maxui"}) {
      std::string i = std::to_string(slot++);
      text += "    %c" + i + " = arith.constant " + i + " : i32\n" + "    %p" + i +
              " = tt.addptr %out, %c" + i + " : !tt.ptr<" + t + ">, i32\n" + "    %r" + i +
              " = arith." + op + " %a, %b : " + t + "\n" + "    tt.store %p" + i + ", %r" + i +
              " : !tt.ptr<" + t + ">\n";
    }
    text += "    tt.return\n  }\n}\n";
    auto m = parseModule(text, "unsigned.tir");
    ASSERT_TRUE(m.ok()) << m.message();
    int bits = t == "i32" ? 32 : 8;
    uint64_t mask = (uint64_t(1) << bits) - 1;
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 300; ++trial) {
      uint64_t a = rng() & mask, b = rng() & mask;
      if (trial % 3 == 0)
        b &= 7; // shifts in range, small divisors
      if (b == 0)
        b = 1;
      Memory mem;
      mem.buffers = {std::vector<uint8_t>(size_t(5 * bits / 8))};
      auto signedOf = [&](uint64_t x) { return int64_t(x << (64 - bits)) >> (64 - bits); };
      std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::integer(signedOf(a)),
                                    ArgValue::integer(signedOf(b))};
      ASSERT_TRUE(interpret(*m, "k", args, mem).ok());
      uint64_t want[5] = {a / b, a % b, b >= uint64_t(bits) ? 0 : a >> b, std::min(a, b),
                          std::max(a, b)};
      for (int k = 0; k < 5; ++k) {
        uint64_t got = 0;
        std::memcpy(&got, mem.buffers[0].data() + k * bits / 8, size_t(bits / 8));
        EXPECT_EQ(got, want[k]) << "op " << k << " a " << a << " b " << b;
      }
    }
  }
}

TEST(Interpreter, FloatToUnsignedSaturatesAndNumMinMaxSkipNaN) {
  const char *text = R"(module {
  tt.func @k(%out: !tt.ptr<i32>, %fout: !tt.ptr<f32>, %x: f32, %y: f32) {
    %u = arith.fptoui %x : f32 to i32
    tt.store %out, %u : !tt.ptr<i32>
    %mn = arith.minnumf %x, %y : f32
    tt.store %fout, %mn : !tt.ptr<f32>
    %c1 = arith.constant 1 : i32
    %f1 = tt.addptr %fout, %c1 : !tt.ptr<f32>, i32
    %mx = arith.maxnumf %x, %y : f32
    tt.store %f1, %mx : !tt.ptr<f32>
    tt.return
  }
}
)";
  auto m = parseModule(text, "fptoui.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  struct Case {
    double x, y;
    uint32_t u;
    float mn, mx;
  };
  const double nan = std::nan("");
  for (Case c : {Case{3.75, 1.0, 3u, 1.0f, 3.75f}, Case{-2.5, nan, 0u, -2.5f, -2.5f},
                 Case{1e12, 2.0, 0xffffffffu, 2.0f, 1e12f}, Case{nan, 5.0, 0u, 5.0f, 5.0f}}) {
    Memory mem;
    mem.buffers = {std::vector<uint8_t>(4), std::vector<uint8_t>(8)};
    std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1),
                                  ArgValue::floating(c.x), ArgValue::floating(c.y)};
    ASSERT_TRUE(interpret(*m, "k", args, mem).ok());
    EXPECT_EQ(valuesOf<uint32_t>(mem.buffers[0])[0], c.u) << c.x;
    auto f = valuesOf<float>(mem.buffers[1]);
    EXPECT_EQ(f[0], c.mn) << c.x << " " << c.y;
    EXPECT_EQ(f[1], c.mx) << c.x << " " << c.y;
  }
}

// minimumf, maximumf, minnumf and maxnumf order -0 below +0, whichever operand comes first (as
// llvm.minimum does and the GPU's FMNMX).
TEST(Interpreter, MinAndMaxOrderNegativeZeroBelowPositiveZero) {
  const char *text = R"(module {
  tt.func @k(%out: !tt.ptr<f32>, %x: f32, %y: f32) {
    %a = arith.minimumf %x, %y : f32
    %b = arith.maximumf %x, %y : f32
    %c = arith.minnumf %x, %y : f32
    %d = arith.maxnumf %x, %y : f32
    tt.store %out, %a : !tt.ptr<f32>
    %c1 = arith.constant 1 : i32
    %p1 = tt.addptr %out, %c1 : !tt.ptr<f32>, i32
    tt.store %p1, %b : !tt.ptr<f32>
    %c2 = arith.constant 2 : i32
    %p2 = tt.addptr %out, %c2 : !tt.ptr<f32>, i32
    tt.store %p2, %c : !tt.ptr<f32>
    %c3 = arith.constant 3 : i32
    %p3 = tt.addptr %out, %c3 : !tt.ptr<f32>, i32
    tt.store %p3, %d : !tt.ptr<f32>
    tt.return
  }
}
)";
  auto m = parseModule(text, "zeros.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  for (auto [x, y] : {std::pair{0.0, -0.0}, std::pair{-0.0, 0.0}}) {
    Memory mem;
    mem.buffers = {std::vector<uint8_t>(16)};
    std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::floating(x),
                                  ArgValue::floating(y)};
    ASSERT_TRUE(interpret(*m, "k", args, mem).ok());
    auto f = valuesOf<float>(mem.buffers[0]);
    EXPECT_TRUE(std::signbit(f[0])) << x << " " << y;  // minimumf: -0
    EXPECT_FALSE(std::signbit(f[1])) << x << " " << y; // maximumf: +0
    EXPECT_TRUE(std::signbit(f[2])) << x << " " << y;  // minnumf: -0
    EXPECT_FALSE(std::signbit(f[3])) << x << " " << y; // maxnumf: +0
  }
}

// An i1 of 1 is -1 to the signed ops, as LLVM reads it: extsi, sitofp, cmpi slt, minsi; the
// unsigned ones read it as 1.
TEST(Interpreter, SignedOpsReadAnI1TrueAsMinusOne) {
  const char *text = R"(module {
  tt.func @k(%out: !tt.ptr<i32>, %fout: !tt.ptr<f32>) {
    %t = arith.constant 1 : i1
    %f = arith.constant 0 : i1
    %s = arith.extsi %t : i1 to i32
    tt.store %out, %s : !tt.ptr<i32>
    %u = arith.extui %t : i1 to i32
    %c1 = arith.constant 1 : i32
    %p1 = tt.addptr %out, %c1 : !tt.ptr<i32>, i32
    tt.store %p1, %u : !tt.ptr<i32>
    %lt = arith.cmpi slt, %t, %f : i1
    %ltw = arith.extui %lt : i1 to i32
    %c2 = arith.constant 2 : i32
    %p2 = tt.addptr %out, %c2 : !tt.ptr<i32>, i32
    tt.store %p2, %ltw : !tt.ptr<i32>
    %mn = arith.minsi %t, %f : i1
    %mnw = arith.extsi %mn : i1 to i32
    %c3 = arith.constant 3 : i32
    %p3 = tt.addptr %out, %c3 : !tt.ptr<i32>, i32
    tt.store %p3, %mnw : !tt.ptr<i32>
    %sf = arith.sitofp %t : i1 to f32
    tt.store %fout, %sf : !tt.ptr<f32>
    %uf = arith.uitofp %t : i1 to f32
    %fp1 = tt.addptr %fout, %c1 : !tt.ptr<f32>, i32
    tt.store %fp1, %uf : !tt.ptr<f32>
    tt.return
  }
}
)";
  auto m = parseModule(text, "i1.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  Memory mem;
  mem.buffers = {std::vector<uint8_t>(16), std::vector<uint8_t>(8)};
  std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1)};
  Status st = interpret(*m, "k", args, mem);
  ASSERT_TRUE(st.ok()) << st.message();
  EXPECT_EQ(valuesOf<int32_t>(mem.buffers[0]), (std::vector<int32_t>{-1, 1, 1, -1}));
  EXPECT_EQ(valuesOf<float>(mem.buffers[1]), (std::vector<float>{-1.f, 1.f}));
}

// Value hints are facts the kernel vouches for: where one does not hold for the values computed,
// the interpreter stops with an error naming the op (on the GPU the loads would be wrong).
TEST(Interpreter, FalseValueHintsAreErrors) {
  const char *text =
      R"(#b = #ttg.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%in: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %out: !tt.ptr<f16> {tt.divisibility = 16 : i32}, %n: i32) {
    %r = tt.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32, #b>
    %ns = tt.splat %n : i32 -> tensor<1024xi32, #b>
    %w = arith.remsi %r, %ns {tt.contiguity = dense<8> : tensor<1xi32>, tt.divisibility = dense<8> : tensor<1xi32>} : tensor<1024xi32, #b>
    %ps = tt.splat %in : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b>
    %p = tt.addptr %ps, %w : tensor<1024x!tt.ptr<f16>, #b>, tensor<1024xi32, #b>
    %x = tt.load %p : tensor<1024x!tt.ptr<f16>, #b>
    %qs = tt.splat %out : !tt.ptr<f16> -> tensor<1024x!tt.ptr<f16>, #b>
    %q = tt.addptr %qs, %r : tensor<1024x!tt.ptr<f16>, #b>, tensor<1024xi32, #b>
    tt.store %q, %x : tensor<1024x!tt.ptr<f16>, #b>
    tt.return
  }
}
)";
  auto m = parseModule(text, "hints.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  for (int64_t n : {2048, 1000, 1001}) {
    Memory mem;
    mem.buffers = {std::vector<uint8_t>(4096), std::vector<uint8_t>(2048)};
    std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::integer(n)};
    Status s = interpret(*m, "k", args, mem);
    if (n % 8 == 0) { // runs of 8 that start at multiples of 8
      EXPECT_TRUE(s.ok()) << n << ": " << s.message();
    } else { // ..., 1000, 0, 1, ...: the run at element 1000 breaks
      ASSERT_FALSE(s.ok()) << n;
      EXPECT_NE(s.message().find("value hints"), std::string::npos) << s.message();
      EXPECT_NE(s.message().find("not contiguous over 8"), std::string::npos) << s.message();
    }
  }
}

// tt.atomic_cas: memory takes the new value where it holds the compare value's bits, and the op
// gives back what memory held either way (0 where masked off). Floats compare by their bits:
// -0.0 does not match 0.0, a NaN matches itself.
TEST(Interpreter, CompareAndSwapComparesBits) {
  const char *text =
      R"(#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @k(%ip: !tt.ptr<i32>, %iout: !tt.ptr<i32>, %fp: !tt.ptr<f32>, %fout: !tt.ptr<f32>, %fcmp: f32) {
    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #b>
    %ipv = tt.splat %ip : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>, #b>
    %ipp = tt.addptr %ipv, %r : tensor<4x!tt.ptr<i32>, #b>, tensor<4xi32, #b>
    %c2 = arith.constant dense<2> : tensor<4xi32, #b>
    %c3 = arith.constant dense<3> : tensor<4xi32, #b>
    %seven = arith.constant dense<7> : tensor<4xi32, #b>
    %m = arith.cmpi ne, %r, %c3 : tensor<4xi32, #b>
    %iold = tt.atomic_cas acq_rel, gpu, %ipp, %c2, %seven, %m : (tensor<4x!tt.ptr<i32>, #b>, tensor<4xi32, #b>, tensor<4xi32, #b>, tensor<4xi1, #b>) -> tensor<4xi32, #b>
    %iov = tt.splat %iout : !tt.ptr<i32> -> tensor<4x!tt.ptr<i32>, #b>
    %iop = tt.addptr %iov, %r : tensor<4x!tt.ptr<i32>, #b>, tensor<4xi32, #b>
    tt.store %iop, %iold : tensor<4x!tt.ptr<i32>, #b>
    %one = arith.constant 1.0 : f32
    %fold = tt.atomic_cas relaxed, cta, %fp, %fcmp, %one : (!tt.ptr<f32>, f32, f32) -> f32
    tt.store %fout, %fold : !tt.ptr<f32>
    tt.return
  }
}
)";
  auto m = parseModule(text, "cas.tir");
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(verify(*m).ok()) << verify(*m).message();
  // i32: elements 0..3 hold 2, 5, 2, 2; element 3 is masked off.
  Memory mem;
  mem.buffers = {bytesOf(std::vector<int32_t>{2, 5, 2, 2}), std::vector<uint8_t>(16, 0xff),
                 std::vector<uint8_t>(4), std::vector<uint8_t>(4)};
  auto floatRun = [&](float held, double compare) {
    std::memcpy(mem.buffers[2].data(), &held, 4);
    std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2),
                                  ArgValue::pointer(3), ArgValue::floating(compare)};
    Status s = interpret(*m, "k", args, mem);
    EXPECT_TRUE(s.ok()) << s.message();
    return valuesOf<float>(mem.buffers[2])[0];
  };
  EXPECT_EQ(floatRun(0.0f, 0.0), 1.0f);
  EXPECT_EQ(valuesOf<int32_t>(mem.buffers[0]), (std::vector<int32_t>{7, 5, 7, 2}));
  EXPECT_EQ(valuesOf<int32_t>(mem.buffers[1]), (std::vector<int32_t>{2, 5, 2, 0}));
  EXPECT_EQ(valuesOf<float>(mem.buffers[3])[0], 0.0f);
  // -0.0 in memory, 0.0 to compare: no swap, and the -0.0 comes back.
  EXPECT_TRUE(std::signbit(floatRun(-0.0f, 0.0)));
  EXPECT_TRUE(std::signbit(valuesOf<float>(mem.buffers[3])[0]));
  const float nan = std::nanf("");
  EXPECT_EQ(floatRun(nan, double(nan)), 1.0f);
}

// tt.scan is the inclusive scan in index order: element i along the axis is the combination of
// elements 0..i (i..n-1 reversed) in that order, so the last (first) element of each line is the
// line's tt.reduce. Checked against a direct evaluation for random 2-D i32 / i8 tiles, axes,
// directions and combining functions (integers: every result is exact, products wrap).
RC_GTEST_PROP(Interpreter, ScansCombineEachElementWithThoseBeforeIt, ()) {
  const int64_t rows = int64_t(1) << *rc::gen::inRange(0, 4);
  const int64_t cols = int64_t(1) << *rc::gen::inRange(0, 5);
  const int axis = *rc::gen::inRange(0, 2);
  const bool reverse = *rc::gen::arbitrary<bool>();
  const ReduceKind kind = *rc::gen::element(ReduceKind::Sum, ReduceKind::Prod, ReduceKind::Max,
                                            ReduceKind::Min, ReduceKind::UMax, ReduceKind::UMin);
  const ScalarKind elem = *rc::gen::element(ScalarKind::I32, ScalarKind::I8);
  const int bytes = elem == ScalarKind::I32 ? 4 : 1;
  Module m;
  m.numWarps = 1;
  Builder b(m);
  BlockedSpec blocked = BlockedSpec::make({1, 1}, {4, 8}, {1, 1}, {1, 0}).value();
  LayoutId bl = b.layout(blocked);
  b.beginFunction("scan",
                  std::vector<Type>{Type::pointer(elem), Type::pointer(elem), Type::pointer(elem)});
  ValueId offs = tileOffsets(b, blocked, rows, cols);
  ValueId x = b.load(b.addPtr(b.splat(b.arg(0), {rows, cols}, bl), offs));
  b.store(b.addPtr(b.splat(b.arg(1), {rows, cols}, bl), offs), b.scan(kind, x, axis, reverse));
  ValueId red = b.reduce(kind, x, axis);
  LayoutId sl = b.layout(SliceSpec::make(axis, blocked).value());
  ValueId lineIds = b.makeRange(0, axis == 0 ? cols : rows, sl);
  b.store(b.addPtr(b.splat(b.arg(2), {axis == 0 ? cols : rows}, sl), lineIds), red);
  b.ret();
  RC_ASSERT(b.endFunction().ok());
  RC_ASSERT(verify(m).ok());

  const int64_t n = rows * cols;
  std::vector<int64_t> in(static_cast<size_t>(n));
  for (int64_t &v : in)
    v = *rc::gen::inRange<int64_t>(-9, 10);
  Memory mem;
  mem.buffers = {std::vector<uint8_t>(size_t(n * bytes)), std::vector<uint8_t>(size_t(n * bytes)),
                 std::vector<uint8_t>(size_t((axis == 0 ? cols : rows) * bytes))};
  for (int64_t i = 0; i < n; ++i)
    std::memcpy(mem.buffers[0].data() + i * bytes, &in[size_t(i)], size_t(bytes));
  std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2)};
  Status s = interpret(m, "scan", args, mem);
  RC_ASSERT(s.ok());
  auto read = [&](int buffer, int64_t i) {
    int64_t v = 0;
    std::memcpy(&v, mem.buffers[size_t(buffer)].data() + i * bytes, size_t(bytes));
    return bytes == 4 ? int64_t(int32_t(v)) : int64_t(int8_t(v));
  };
  const uint64_t mask = bytes == 4 ? 0xffffffffu : 0xffu;
  auto combine = [&](int64_t a, int64_t c) -> int64_t {
    uint64_t ua = uint64_t(a) & mask, uc = uint64_t(c) & mask;
    uint64_t r = 0;
    switch (kind) {
    case ReduceKind::Sum:
      r = ua + uc;
      break;
    case ReduceKind::Prod:
      r = ua * uc;
      break;
    case ReduceKind::Max:
      r = uint64_t(std::max(a, c));
      break;
    case ReduceKind::Min:
      r = uint64_t(std::min(a, c));
      break;
    case ReduceKind::UMax:
      r = std::max(ua, uc);
      break;
    default:
      r = std::min(ua, uc);
      break;
    }
    r &= mask;
    return bytes == 4 ? int64_t(int32_t(uint32_t(r))) : int64_t(int8_t(uint8_t(r)));
  };
  const int64_t len = axis == 0 ? rows : cols, lines = n / len;
  for (int64_t line = 0; line < lines; ++line) {
    auto at = [&](int64_t k) { return axis == 0 ? k * cols + line : line * cols + k; };
    for (int64_t k = 0; k < len; ++k) {
      // The elements this one combines, in index order.
      int64_t from = reverse ? len - 1 : 0, acc = in[size_t(at(from))];
      for (int64_t j = from; j != k;) {
        j += reverse ? -1 : 1;
        acc = combine(acc, in[size_t(at(j))]);
      }
      RC_ASSERT(read(1, at(k)) == acc);
    }
    RC_ASSERT(read(1, at(reverse ? 0 : len - 1)) == read(2, line));
  }
}

// tt.split is tt.join's inverse: split(join(a, b)) is (a, b), and the joined tile, read in
// row-major order, interleaves a and b (what tl.interleave reshapes it to). Random 2-D tiles of
// i32, i8 or f32.
RC_GTEST_PROP(Interpreter, SplitUndoesJoin, ()) {
  const int64_t rows = int64_t(1) << *rc::gen::inRange(0, 4);
  const int64_t cols = int64_t(1) << *rc::gen::inRange(0, 5);
  const ScalarKind elem = *rc::gen::element(ScalarKind::I32, ScalarKind::I8, ScalarKind::F32);
  const int bytes = elem == ScalarKind::I8 ? 1 : 4;
  Module m;
  m.numWarps = 1;
  Builder b(m);
  BlockedSpec blocked = BlockedSpec::make({1, 1}, {4, 8}, {1, 1}, {1, 0}).value();
  LayoutId bl = b.layout(blocked);
  LayoutId wide = b.layout(BlockedSpec::make({1, 1, 2}, {4, 8, 1}, {1, 1, 1}, {2, 1, 0}).value());
  LayoutId flatLayout = b.layout(BlockedSpec::make({1, 2}, {4, 8}, {1, 1}, {1, 0}).value());
  std::vector<Type> args(5, Type::pointer(elem));
  b.beginFunction("join_split", args);
  ValueId offs = tileOffsets(b, blocked, rows, cols);
  auto at = [&](int arg) { return b.addPtr(b.splat(b.arg(arg), {rows, cols}, bl), offs); };
  ValueId j = b.join(b.load(at(0)), b.load(at(1)), wide);
  auto [lo, hi] = b.split(j, bl);
  b.store(at(2), lo);
  b.store(at(3), hi);
  ValueId flatOffs =
      tileOffsets(b, BlockedSpec::make({1, 2}, {4, 8}, {1, 1}, {1, 0}).value(), rows, 2 * cols);
  b.store(b.addPtr(b.splat(b.arg(4), {rows, 2 * cols}, flatLayout), flatOffs),
          b.reshape(j, {rows, 2 * cols}, flatLayout));
  b.ret();
  Status built = b.endFunction();
  RC_ASSERT(built.ok());
  RC_ASSERT(verify(m).ok());

  const size_t n = size_t(rows * cols) * size_t(bytes);
  Memory mem;
  mem.buffers = {std::vector<uint8_t>(n), std::vector<uint8_t>(n), std::vector<uint8_t>(n),
                 std::vector<uint8_t>(n), std::vector<uint8_t>(2 * n)};
  for (int k = 0; k < 2; ++k)
    for (uint8_t &x : mem.buffers[size_t(k)])
      x = uint8_t(*rc::gen::inRange(0, 256));
  if (elem == ScalarKind::F32) // no NaNs: their payloads need not survive a load and a store
    for (int k = 0; k < 2; ++k)
      for (size_t e = 3; e < n; e += 4)
        mem.buffers[size_t(k)][e] &= 0x3f;
  std::vector<ArgValue> argv;
  for (uint32_t k = 0; k < 5; ++k)
    argv.push_back(ArgValue::pointer(k));
  Status s = interpret(m, "join_split", argv, mem);
  RC_ASSERT(s.ok());
  RC_ASSERT(mem.buffers[2] == mem.buffers[0]);
  RC_ASSERT(mem.buffers[3] == mem.buffers[1]);
  for (size_t e = 0; e < size_t(rows * cols); ++e)
    for (size_t k = 0; k < 2; ++k)
      RC_ASSERT(std::memcmp(mem.buffers[4].data() + (2 * e + k) * size_t(bytes),
                            mem.buffers[k].data() + e * size_t(bytes), size_t(bytes)) == 0);
}

// Reductions and scans with a combining body of scalar ops, over two tensors: argmax (each
// line's maximum and its first index, with ties) and the linear recurrence h = a * h' + x (whose
// body does not commute; h' the element before in scan order, wrapping i32 arithmetic), forward
// or reversed, along either axis of random tiles, checked against a direct evaluation. The module
// prints in the generic form and reads back the same.
RC_GTEST_PROP(Interpreter, CombiningBodiesMatchADirectEvaluation, ()) {
  const int64_t rows = int64_t(1) << *rc::gen::inRange(0, 4);
  const int64_t cols = int64_t(1) << *rc::gen::inRange(0, 5);
  const int axis = *rc::gen::inRange(0, 2);
  const bool reverse = *rc::gen::arbitrary<bool>();
  const int64_t len = axis == 0 ? rows : cols, lines = rows * cols / len;
  Module m;
  m.numWarps = 1;
  Builder b(m);
  BlockedSpec blocked = BlockedSpec::make({1, 1}, {4, 8}, {1, 1}, {1, 0}).value();
  LayoutId bl = b.layout(blocked);
  b.beginFunction("combine",
                  std::vector<Type>{Type::pointer(ScalarKind::I32), Type::pointer(ScalarKind::I32),
                                    Type::pointer(ScalarKind::I32), Type::pointer(ScalarKind::I32),
                                    Type::pointer(ScalarKind::I32)});
  ValueId offs = tileOffsets(b, blocked, rows, cols);
  ValueId x = b.load(b.addPtr(b.splat(b.arg(0), {rows, cols}, bl), offs));
  ValueId a = b.load(b.addPtr(b.splat(b.arg(1), {rows, cols}, bl), offs));
  LayoutId along = b.layout(SliceSpec::make(1 - axis, blocked).value());
  ValueId index = b.broadcast(b.expandDims(b.makeRange(0, len, along), 1 - axis), {rows, cols});
  // argmax, the first index winning ties.
  ValueId pair[] = {x, index};
  CombineScope am = b.beginReduce(pair, axis);
  ValueId tie = b.binary(OpKind::AndI, b.cmp(CmpPredicate::Eq, am.lhs[0], am.rhs[0]),
                         b.cmp(CmpPredicate::Slt, am.lhs[1], am.rhs[1]));
  ValueId first = b.binary(OpKind::OrI, b.cmp(CmpPredicate::Sgt, am.lhs[0], am.rhs[0]), tie);
  ValueId picked[] = {b.select(first, am.lhs[0], am.rhs[0]), b.select(first, am.lhs[1], am.rhs[1])};
  std::vector<ValueId> best = b.endCombine(picked);
  LayoutId sl = b.layout(SliceSpec::make(axis, blocked).value());
  ValueId lineIds = b.makeRange(0, lines, sl);
  b.store(b.addPtr(b.splat(b.arg(2), {lines}, sl), lineIds), best[0]);
  b.store(b.addPtr(b.splat(b.arg(3), {lines}, sl), lineIds), best[1]);
  // The recurrence: (a1, x1) then (a2, x2) is (a1 * a2, x1 * a2 + x2).
  ValueId coefs[] = {a, x};
  CombineScope rec = b.beginScan(coefs, axis, reverse);
  ValueId composed[] = {
      b.binary(OpKind::MulI, rec.lhs[0], rec.rhs[0]),
      b.binary(OpKind::AddI, b.binary(OpKind::MulI, rec.lhs[1], rec.rhs[0]), rec.rhs[1])};
  std::vector<ValueId> h = b.endCombine(composed);
  b.store(b.addPtr(b.splat(b.arg(4), {rows, cols}, bl), offs), h[1]);
  b.ret();
  RC_ASSERT(b.endFunction().ok());
  RC_ASSERT(verify(m).ok());
  std::string printed = print(m);
  auto again = parseModule(printed, "printed.tir");
  RC_ASSERT(again.ok());
  RC_ASSERT(print(*again) == printed);

  const int64_t n = rows * cols;
  std::vector<int32_t> xs(static_cast<size_t>(n)), as(static_cast<size_t>(n));
  for (size_t i = 0; i < xs.size(); ++i) {
    xs[i] = *rc::gen::inRange<int32_t>(-3, 4);
    as[i] = *rc::gen::inRange<int32_t>(-1000, 1000);
  }
  Memory mem;
  mem.buffers = {bytesOf(xs), bytesOf(as), bytesOf(std::vector<int32_t>(size_t(lines), -7)),
                 bytesOf(std::vector<int32_t>(size_t(lines), -7)),
                 bytesOf(std::vector<int32_t>(size_t(n), -7))};
  std::vector<ArgValue> args = {ArgValue::pointer(0), ArgValue::pointer(1), ArgValue::pointer(2),
                                ArgValue::pointer(3), ArgValue::pointer(4)};
  for (const Module *mod : {&m, &*again}) {
    Memory run = mem;
    Status s = interpret(*mod, "combine", args, run);
    RC_ASSERT(s.ok());
    auto vmax = valuesOf<int32_t>(run.buffers[2]), imax = valuesOf<int32_t>(run.buffers[3]);
    auto hs = valuesOf<int32_t>(run.buffers[4]);
    for (int64_t line = 0; line < lines; ++line) {
      auto at = [&](int64_t k) { return size_t(axis == 0 ? k * cols + line : line * cols + k); };
      int64_t arg = 0;
      for (int64_t k = 1; k < len; ++k)
        if (xs[at(k)] > xs[at(arg)])
          arg = k;
      RC_ASSERT(vmax[size_t(line)] == xs[at(arg)]);
      RC_ASSERT(imax[size_t(line)] == int32_t(arg));
      uint32_t want = 0;
      for (int64_t j = 0; j < len; ++j) {
        int64_t k = reverse ? len - 1 - j : j;
        want = uint32_t(as[at(k)]) * want + uint32_t(xs[at(k)]);
        RC_ASSERT(hs[at(k)] == int32_t(want));
      }
    }
  }
}
