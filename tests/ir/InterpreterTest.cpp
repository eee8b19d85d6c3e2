#include "Examples.h"

#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

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
  std::vector<ArgValue> badBuf = {ArgValue::pointer(0), ArgValue::pointer(5),
                                  ArgValue::integer(1)};
  EXPECT_NE(interpret(m, "memcpy_1d", badBuf, mem).message().find("names buffer 5 of 1"),
            std::string::npos);
  EXPECT_NE(interpret(m, "nope", few, mem).message().find("no function '@nope'"),
            std::string::npos);
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

TEST(Interpreter, HalfRoundingIsNearestEven) {
  EXPECT_EQ(roundToFloatKind(1.0 + std::ldexp(1.0, -11), ScalarKind::F16), 1.0);
  EXPECT_EQ(roundToFloatKind(1.0 + 3 * std::ldexp(1.0, -11), ScalarKind::F16),
            1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(roundToFloatKind(65504.0, ScalarKind::F16), 65504.0);
  EXPECT_TRUE(std::isinf(roundToFloatKind(65520.0, ScalarKind::F16)));
  EXPECT_EQ(roundToFloatKind(std::ldexp(1.0, -25) * 1.5, ScalarKind::F16), std::ldexp(1.0, -24));
  EXPECT_EQ(roundToFloatKind(1.0 + std::ldexp(1.0, -9), ScalarKind::BF16), 1.0);
}
