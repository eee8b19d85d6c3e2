// Elementwise ops lowered to LLVM compute what the IR (and the interpreter) defines, also where
// LLVM's own instructions would be poison or undefined: checked through LLVM's constant folder,
// which evaluates a kernel of constant operands to the constant it stores.
#include "Property.h"
#include "PtxCheck.h"
#include "RandomKernel.h"

#include "linlayout/ir/Builder.h"
#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/lower/Lower.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <array>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

using namespace linlayout;
using namespace linlayout::lower;
using namespace linlayout::lower::testing;

namespace {

// The value of the low `bits` bits of v as a signed number (i1: 0 or 1, as the IR keeps it).
int64_t wrapTo(int64_t v, int bits) {
  if (bits == 1)
    return v & 1;
  return bits == 64 ? v : int64_t(uint64_t(v) << (64 - bits)) >> (64 - bits);
}

// Runs kernel `k` of `m` on one buffer of `bytes` bytes (zeros); the buffer as it leaves it.
Expected<std::vector<uint8_t>> interpretKernel(const ir::Module &m, size_t bytes) {
  ir::Memory mem;
  mem.buffers = {std::vector<uint8_t>(bytes)};
  std::vector<ir::ArgValue> args = {ir::ArgValue::pointer(0)};
  LL_TRY_STATUS(ir::interpret(m, "k", args, mem));
  return std::move(mem.buffers[0]);
}

// Lowers `m` for sm_`sm` (fusion off: the interpreter rounds products and sums apart), keeping
// the optimised LLVM IR.
Expected<LoweredKernel> lowerKeepingIr(const ir::Module &m, int sm) {
  LowerOptions o;
  o.target = PtxTarget{sm, 80};
  o.keepLlvmIr = true;
  o.fpFusion = false;
  return lowerKernel(m, o);
}

// The value of the kernel's one store in its optimised LLVM IR: the text between "store " and
// ", ptr" ("i32 7", "<1 x i32> <i32 7>", "float 1.5e+00", ...); nullopt unless one store.
std::optional<std::string> storedValue(const std::string &llvmIr) {
  size_t at = llvmIr.find("  store ");
  if (at == std::string::npos || llvmIr.find("  store ", at + 1) != std::string::npos)
    return std::nullopt;
  std::string line = llvmIr.substr(at + 8, llvmIr.find('\n', at) - at - 8);
  return line.substr(0, line.find(", ptr"));
}

// A kernel storing `op` of constant operands (or, for "nan", of 0.0 / 0.0) of type `in` as its
// `out`-typed result into every element of its argument. For a cast `b` is empty. With `wide`,
// the result is sign-extended to that type and stored so (for i1 results).
ir::Module constantOpKernel(const std::string &op, const std::string &a, const std::string &b,
                            const std::string &in, const std::string &out,
                            const std::string &wide = "") {
  std::string tin = "tensor<32x" + in + ", #b>", tout = "tensor<32x" + out + ", #b>";
  std::string stored = wide.empty() ? out : wide;
  std::string pt = "tensor<32x!tt.ptr<" + stored + ">, #b>";
  std::string body = a == "nan" ? "    %z = arith.constant dense<0.0> : " + tin +
                                      "\n    %a = arith.divf %z, %z : " + tin + "\n"
                                : "    %a = arith.constant dense<" + a + "> : " + tin + "\n";
  if (b.empty())
    body += "    %x = " + op + " %a : " + tin + " to " + tout + "\n";
  else
    body += "    %c = arith.constant dense<" + b + "> : " + tin + "\n    %x = " + op +
            " %a, %c : " + tout + "\n";
  if (!wide.empty())
    body += "    %w = arith.extsi %x : " + tout + " to tensor<32x" + wide + ", #b>\n";
  std::string text =
      "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], "
      "order = [0]}>\nmodule attributes {\"ttg.num-warps\" = 1 : i32} {\n"
      "  tt.func public @k(%out: !tt.ptr<" +
      stored + ">) {\n" + body +
      "    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>\n"
      "    %os = tt.splat %out : !tt.ptr<" +
      stored + "> -> " + pt + "\n    %op = tt.addptr %os, %r : " + pt +
      ", tensor<32xi32, #b>\n    tt.store %op, " + (wide.empty() ? "%x" : "%w") + " : " + pt +
      "\n    tt.return\n  }\n}\n";
  auto m = ir::parseModule(text, "undefined.tir");
  EXPECT_TRUE(m.ok()) << m.message();
  if (!m.ok())
    return ir::Module{};
  EXPECT_TRUE(ir::verify(*m).ok()) << ir::verify(*m).message() << "\n" << text;
  return std::move(*m);
}

// What the interpreter stores in the first element of constantOpKernel's output, sign-extended.
int64_t interpretedConstant(const ir::Module &m, const std::string &out) {
  size_t bytes = out == "i8" ? 1 : out == "i16" ? 2 : out == "i32" ? 4 : 8;
  auto mem = interpretKernel(m, 32 * bytes);
  EXPECT_TRUE(mem.ok()) << mem.message();
  uint64_t raw = 0;
  if (mem.ok())
    std::memcpy(&raw, mem->data(), bytes);
  return wrapTo(int64_t(raw), int(8 * bytes));
}

// The constant the kernel's one store writes, from its optimised LLVM IR: "store iN V, ...",
// "store <K x iW> <iW v0, iW v1, ...>, ..." (lanes little-endian) or "... zeroinitializer, ...";
// nullopt when the store is not of a constant.
std::optional<int64_t> storedConstant(const std::string &llvmIr, int outBits) {
  std::optional<std::string> stored = storedValue(llvmIr);
  if (!stored)
    return std::nullopt;
  const std::string &line = *stored;
  if (line.find("zeroinitializer") != std::string::npos)
    return 0;
  std::istringstream in(line[0] == '<' ? line.substr(line.find('>') + 1) : line);
  uint64_t v = 0;
  int shift = 0;
  std::string type, lane;
  while (in >> type >> lane) { // "<iW", "v0," or "iN", "V"
    size_t i = type.find('i');
    if (i == std::string::npos || lane.empty() || !(std::isdigit(lane[0]) || lane[0] == '-'))
      return std::nullopt;
    int w = std::stoi(type.substr(i + 1));
    uint64_t bitsOf =
        uint64_t(std::stoll(lane)) & (w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1);
    v |= bitsOf << shift;
    shift += w;
  }
  if (shift != outBits)
    return std::nullopt;
  return wrapTo(int64_t(v), outBits);
}

} // namespace

// What LLVM leaves poison or undefined and the IR defines (docs/ir.md): shifts by the width or
// more and the minimum divided by -1 (before, a shift by 40 was poison and LLVM dropped the
// store altogether). Each case stores one op of constant operands, which LLVM folds to the
// constant the interpreter computes.
TEST(LowerElementwise, ShiftsAndDivisionsLlvmLeavesUndefinedFoldToTheInterpretersValues) {
  const std::vector<std::array<std::string, 4>> cases = {
      // op, a, b, type
      {"arith.shli", "1", "40", "i32"},
      {"arith.shli", "3", "31", "i32"},
      {"arith.shli", "5", "-1", "i32"},
      {"arith.shrsi", "-8", "40", "i32"},
      {"arith.shrsi", "-8", "1", "i32"},
      {"arith.shrsi", "8", "-3", "i32"},
      {"arith.shrui", "-8", "33", "i32"},
      {"arith.shrui", "-8", "28", "i32"},
      {"arith.shli", "1", "70", "i64"},
      {"arith.shrui", "-1", "16", "i16"},
      {"arith.shrsi", "-100", "9", "i8"},
      {"arith.divsi", "-2147483648", "-1", "i32"},
      {"arith.remsi", "-2147483648", "-1", "i32"},
      {"arith.divsi", "-128", "-1", "i8"},
      {"arith.divsi", "-7", "2", "i32"},
      {"arith.remsi", "-7", "2", "i32"},
      // i1: 1 is -1 to the signed ops.
      {"arith.divsi", "1", "1", "i1"},
      {"arith.remsi", "1", "1", "i1"},
      {"arith.shrsi", "1", "1", "i1"},
      {"arith.shli", "1", "1", "i1"},
      {"arith.minsi", "1", "0", "i1"},
      {"arith.maxsi", "1", "0", "i1"},
      {"arith.addi", "1", "1", "i1"},
  };
  for (const auto &[op, a, b, type] : cases) {
    SCOPED_TRACE(op + " " + a + ", " + b + " : " + type);
    // i1 results are sign-extended to i8 for the store (an i1 of 1 is -1 for the signed ops).
    bool i1 = type == "i1";
    std::string stored = i1 ? "i8" : type;
    ir::Module m = constantOpKernel(op, a, b, type, type, i1 ? "i8" : "");
    int64_t want = interpretedConstant(m, stored);
    for (int sm : {80, 90}) {
      auto k = lowerKeepingIr(m, sm);
      ASSERT_TRUE(k.ok()) << k.message();
      EXPECT_EQ(storedConstant(k->llvmIr, std::stoi(stored.substr(1))), want) << k->llvmIr;
    }
  }
}

// Float-to-integer conversions are PTX's cvt.rzi, which saturates and takes NaN to 0 as the
// interpreter does (LLVM's fptosi / fptoui would be poison, and folded as such, out of range);
// 8- and 16-bit results are clamped after a 32-bit conversion. (64-bit results and f64 sources
// also select 0 for NaN, which folds away for these constants;
// LowerGpu.OpsLlvmLeavesUndefinedMatchTheInterpreter runs them on NaN.)
TEST(LowerElementwise, FloatToIntegerConversionsSaturate) {
  struct Case {
    const char *op, *in, *out, *cvt, *clamp;
  };
  const Case cases[] = {
      {"arith.fptosi", "f32", "i32", "cvt.rzi.s32.f32", nullptr},
      {"arith.fptoui", "f32", "i32", "cvt.rzi.u32.f32", nullptr},
      {"arith.fptosi", "f64", "i64", "cvt.rzi.s64.f64", nullptr},
      {"arith.fptoui", "f32", "i64", "cvt.rzi.u64.f32", nullptr},
      {"arith.fptosi", "f16", "i8", "cvt.rzi.s32.f16", "127"},
      {"arith.fptosi", "f32", "i16", "cvt.rzi.s32.f32", "32767"},
      {"arith.fptoui", "bf16", "i8", "cvt.rzi.u32.f32", "255"},
      {"arith.fptoui", "f32", "i16", "cvt.rzi.u32.f32", "65535"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.op) + " " + c.in + " -> " + c.out);
    ir::Module k = constantOpKernel(c.op, "-3.0e+02", "", c.in, c.out);
    auto lowered = lowerKeepingIr(k, 80);
    ASSERT_TRUE(lowered.ok()) << lowered.message();
    const std::string &ptx = lowered->kernel.ptx;
    EXPECT_EQ(countLines(ptx, c.cvt), 1) << ptx;
    EXPECT_EQ(ptx.find("setp"), std::string::npos) << ptx;
    if (c.clamp) {
      EXPECT_NE(ptx.find(std::string(", ") + c.clamp + ";"), std::string::npos) << ptx;
    }
    expectAssembles(lowered->kernel, /*requireNoSpills=*/true);
  }
}

namespace {

// A constant of `bits` bits: an edge value (0, ±1, the extremes and their neighbours), a small
// one, or any.
int64_t genInt(int bits) {
  int64_t lo = bits == 1    ? 0
               : bits == 64 ? std::numeric_limits<int64_t>::min()
                            : -(int64_t(1) << (bits - 1));
  int64_t hi = bits == 1    ? 1
               : bits == 64 ? std::numeric_limits<int64_t>::max()
                            : (int64_t(1) << (bits - 1)) - 1;
  switch (*rc::gen::inRange(0, 4)) {
  case 0:
    return wrapTo(*rc::gen::element<int64_t>(0, 1, -1, lo, hi, lo + 1, hi - 1), bits);
  case 1:
    return wrapTo(*rc::gen::inRange<int64_t>(-40, 41), bits);
  default:
    return wrapTo(*rc::gen::arbitrary<int64_t>(), bits);
  }
}

// The one stored float constant of a kernel's optimised LLVM IR ("store float 1.5e+00, ..." or
// "store double 0x<bits of the double>, ..."); nullopt when the store is not of a constant.
std::optional<double> storedFloat(const std::string &llvmIr, const std::string &type) {
  std::optional<std::string> stored = storedValue(llvmIr);
  if (!stored || stored->rfind(type + " ", 0) != 0)
    return std::nullopt;
  std::string v = stored->substr(type.size() + 1);
  if (v.rfind("0x", 0) == 0 && v.size() == 18)
    return std::bit_cast<double>(std::stoull(v.substr(2), nullptr, 16));
  if (v.empty() || !(std::isdigit(uint8_t(v[0])) || v[0] == '-'))
    return std::nullopt;
  return std::stod(v);
}

// The interpreter's bytes and the optimised LLVM IR of a random program's kernel; a program the
// interpreter stops (a division by zero) is discarded.
std::pair<std::vector<uint8_t>, std::string> interpretAndLower(const ir::Module &m, size_t bytes) {
  auto mem = interpretKernel(m, bytes);
  if (!mem.ok())
    RC_DISCARD("the interpreter stops: " + mem.message());
  auto k = lowerKeepingIr(m, 80);
  RC_ASSERT(k.ok());
  return {std::move(mem).value(), k->llvmIr};
}

} // namespace

// LLVM's constant folder as a second evaluator of the lowering: random integer programs (every
// binary integer op, comparisons and selects, trips through wider and narrower types) over
// constants of one type, i1 to i64, their values xor-ed together and stored. LLVM folds the
// lowered kernel to one constant store, which must be the interpreter's value.
TEST(LowerElementwise, ConstantIntegerProgramsFoldToTheInterpretersValue) {
  using ir::OpKind;
  using ir::ScalarKind;
  checkProperty(
      [] {
        ScalarKind k = *rc::gen::element(ScalarKind::I1, ScalarKind::I8, ScalarKind::I16,
                                         ScalarKind::I32, ScalarKind::I64);
        int bits = ir::bitWidth(k);
        ir::Module m;
        ir::Builder b(m);
        std::vector<ir::Type> argTypes = {ir::Type::pointer(k)};
        b.beginFunction("k", argTypes);
        ir::Type t = ir::Type::scalar(k);
        std::vector<ir::ValueId> pool;
        for (int i = 0; i < 3; ++i)
          pool.push_back(b.constantInt(genInt(bits), t));
        int steps = *rc::gen::inRange(1, 10);
        for (int i = 0; i < steps; ++i) {
          ir::ValueId x = pool[*rc::gen::inRange<size_t>(0, pool.size())];
          ir::ValueId y = pool[*rc::gen::inRange<size_t>(0, pool.size())];
          switch (*rc::gen::inRange(0, 5)) {
          case 0:
          case 1:
            pool.push_back(b.binary(
                *rc::gen::element(OpKind::AddI, OpKind::SubI, OpKind::MulI, OpKind::DivSI,
                                  OpKind::RemSI, OpKind::AndI, OpKind::OrI, OpKind::XOrI,
                                  OpKind::ShLI, OpKind::ShRSI, OpKind::MinSI, OpKind::MaxSI,
                                  OpKind::DivUI, OpKind::RemUI, OpKind::ShRUI, OpKind::MinUI,
                                  OpKind::MaxUI, OpKind::MulHiUI),
                x, y));
            break;
          case 2:
            pool.push_back(
                b.select(b.cmp(*rc::gen::element(ir::CmpPredicate::Eq, ir::CmpPredicate::Ne,
                                                 ir::CmpPredicate::Slt, ir::CmpPredicate::Sle,
                                                 ir::CmpPredicate::Sgt, ir::CmpPredicate::Sge,
                                                 ir::CmpPredicate::Ult, ir::CmpPredicate::Ule,
                                                 ir::CmpPredicate::Ugt, ir::CmpPredicate::Uge),
                               x, y),
                         x, y));
            break;
          case 3: { // to another width and back
            ScalarKind other = *rc::gen::element(ScalarKind::I1, ScalarKind::I8, ScalarKind::I16,
                                                 ScalarKind::I32, ScalarKind::I64);
            if (other == k)
              break;
            bool wider = ir::bitWidth(other) > bits;
            OpKind ext = *rc::gen::element(OpKind::ExtSI, OpKind::ExtUI);
            ir::ValueId there = b.cast(wider ? ext : OpKind::TruncI, x, other);
            pool.push_back(b.cast(wider ? OpKind::TruncI : ext, there, k));
            break;
          }
          default:
            pool.push_back(b.constantInt(genInt(bits), t));
            break;
          }
        }
        ir::ValueId all = pool[0];
        for (size_t i = 1; i < pool.size(); ++i)
          all = b.binary(OpKind::XOrI, all, pool[i]);
        b.store(b.arg(0), all);
        b.ret();
        RC_ASSERT(b.endFunction().ok());
        RC_ASSERT(ir::verify(m).ok());
        size_t bytes = size_t(ir::byteWidth(k));
        auto [want, ir] = interpretAndLower(m, bytes);
        uint64_t raw = 0;
        std::memcpy(&raw, want.data(), bytes);
        int memBits = int(8 * bytes);
        std::optional<int64_t> got = storedConstant(ir, memBits);
        if (!got)
          RC_FAIL("no integer constant stored:\n" + ir);
        RC_ASSERT(*got == wrapTo(int64_t(raw), memBits));
      },
      300);
}

// The same for float programs (f32 and f64): each op takes the previous result and a constant
// (zeros of both signs, ±1, infinities, huge, tiny and denormal values), through add, sub, mul,
// div, minimumf / maximumf, neg, abs, floor, ceil, sqrt, compare-and-select with every float
// predicate, rounding to f16, bf16 or f32 and back, and sitofp / uitofp of integer constants; the
// stored constant has the interpreter's bits (NaN: any NaN). minnumf / maxnumf are left to the GPU
// tests: LLVM's folder takes either zero where the hardware orders -0 below +0.
TEST(LowerElementwise, ConstantFloatProgramsFoldToTheInterpretersValue) {
  using ir::OpKind;
  using ir::ScalarKind;
  checkProperty(
      [] {
        ScalarKind k = *rc::gen::element(ScalarKind::F32, ScalarKind::F64);
        ir::Module m;
        ir::Builder b(m);
        std::vector<ir::Type> argTypes = {ir::Type::pointer(k)};
        b.beginFunction("k", argTypes);
        ir::Type t = ir::Type::scalar(k);
        auto constant = [&] {
          double v = *rc::gen::element(0.0, -0.0, 1.0, -1.0, 0.5, 3.25, -7.75, 1e30, -1e30, 1e300,
                                       std::numeric_limits<double>::infinity(),
                                       -std::numeric_limits<double>::infinity(), 1e-40, 1e-310,
                                       65504.0, 2.0);
          if (*rc::gen::inRange(0, 3) == 0)
            v = double(*rc::gen::inRange(-100000, 100000)) / 64;
          if (k == ScalarKind::F32)
            v = double(float(v));
          return b.constantFloat(v, t);
        };
        ir::ValueId x = constant();
        int steps = *rc::gen::inRange(1, 8);
        for (int i = 0; i < steps; ++i) {
          ir::ValueId y = constant();
          switch (*rc::gen::inRange(0, 5)) {
          case 0:
            x = b.binary(*rc::gen::element(OpKind::AddF, OpKind::SubF, OpKind::MulF, OpKind::DivF,
                                           OpKind::MinF, OpKind::MaxF),
                         x, y);
            break;
          case 3: { // rounded to a narrower float and back
            ScalarKind narrow =
                *rc::gen::element(ScalarKind::F16, ScalarKind::BF16, ScalarKind::F32);
            if (narrow != k)
              x = b.cast(OpKind::ExtF, b.cast(OpKind::TruncF, x, narrow), k);
            break;
          }
          case 4: { // an integer constant converted, added
            ScalarKind ik = *rc::gen::element(ScalarKind::I8, ScalarKind::I32, ScalarKind::I64);
            ir::ValueId i = b.constantInt(genInt(ir::bitWidth(ik)), ir::Type::scalar(ik));
            x = b.binary(OpKind::AddF, x,
                         b.cast(*rc::gen::element(OpKind::SIToFP, OpKind::UIToFP), i, k));
            break;
          }
          case 1:
            x = b.unary(*rc::gen::element(OpKind::NegF, OpKind::AbsF, OpKind::Floor, OpKind::Ceil,
                                          OpKind::Sqrt),
                        x);
            break;
          default:
            x = b.select(b.cmp(*rc::gen::element(ir::CmpPredicate::Oeq, ir::CmpPredicate::One,
                                                 ir::CmpPredicate::Olt, ir::CmpPredicate::Ole,
                                                 ir::CmpPredicate::Ogt, ir::CmpPredicate::Oge,
                                                 ir::CmpPredicate::Une),
                               x, y),
                         x, y);
            break;
          }
        }
        b.store(b.arg(0), x);
        b.ret();
        RC_ASSERT(b.endFunction().ok());
        RC_ASSERT(ir::verify(m).ok());
        bool f32 = k == ScalarKind::F32;
        auto [want, ir] = interpretAndLower(m, f32 ? 4 : 8);
        double w;
        if (f32) {
          float f;
          std::memcpy(&f, want.data(), 4);
          w = f;
        } else {
          std::memcpy(&w, want.data(), 8);
        }
        // The store writes the bits as integers, or the float itself.
        std::optional<double> got = storedFloat(ir, f32 ? "float" : "double");
        if (std::optional<int64_t> bits = storedConstant(ir, f32 ? 32 : 64))
          got = f32 ? double(std::bit_cast<float>(uint32_t(*bits)))
                    : std::bit_cast<double>(uint64_t(*bits));
        if (!got && ir.find("@llvm.sqrt") != std::string::npos)
          RC_DISCARD("LLVM leaves the sqrt of a negative number unfolded");
        if (!got)
          RC_FAIL("no float constant stored:\n" + ir);
        if (std::isnan(w)) {
          RC_ASSERT(std::isnan(*got));
        } else {
          RC_ASSERT(std::bit_cast<uint64_t>(*got) == std::bit_cast<uint64_t>(w));
        }
      },
      300);
}

// Random elementwise programs over run-time values (RandomKernel.h: every element type, op
// and cast, edge-value inputs) are run by the interpreter without an error, and lower, for sm_80
// and sm_90, to PTX that ptxas assembles. On the GPU they compute the interpreter's values
// (LowerGpu.RandomElementwiseProgramsMatchTheInterpreter).
TEST(LowerElementwise, RandomProgramsInterpretLowerAndAssemble) {
  checkProperty(
      [] {
        std::string problem = interpretLowerAndAssemble(randomElementwise());
        if (!problem.empty())
          RC_FAIL(problem);
      },
      60);
}

// out[e] = float(e) OP c over one warp: operands the kernel computes (a range), so that LLVM keeps
// the op rather than folding it.
Expected<ir::Module> rangeByConstantKernel(const std::string &op, const std::string &c) {
  std::string text =
      R"(#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func public @k(%out: !tt.ptr<f32>) {
    %r = tt.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32, #b>
    %x = arith.sitofp %r : tensor<32xi32, #b> to tensor<32xf32, #b>
    %c = arith.constant dense<C> : tensor<32xf32, #b>
    %y = OP %x, %c : tensor<32xf32, #b>
    %os = tt.splat %out : !tt.ptr<f32> -> tensor<32x!tt.ptr<f32>, #b>
    %op = tt.addptr %os, %r : tensor<32x!tt.ptr<f32>, #b>, tensor<32xi32, #b>
    tt.store %op, %y : tensor<32x!tt.ptr<f32>, #b>
    tt.return
  }
}
)";
  text.replace(text.find("dense<C>"), 8, "dense<" + c + ">");
  text.replace(text.find("OP %x"), 2, op);
  return ir::parseModule(text, "range.tir");
}

// out[e] = float(e) `op` c on run-time operands (rangeByConstantKernel): the interpreter stores
// want(e), and the kernel lowered for sm_80 and sm_90 passes `check` and assembles.
void expectRangeByConstant(const std::string &op, const std::string &c,
                           const std::function<float(int)> &want,
                           const std::function<void(const LoweredKernel &)> &check) {
  auto m = rangeByConstantKernel(op, c);
  ASSERT_TRUE(m.ok()) << m.message();
  ASSERT_TRUE(ir::verify(*m).ok()) << ir::verify(*m).message();
  auto mem = interpretKernel(*m, 32 * 4);
  ASSERT_TRUE(mem.ok()) << mem.message();
  for (int e = 0; e < 32; ++e) {
    float got;
    std::memcpy(&got, mem->data() + 4 * e, 4);
    EXPECT_EQ(got, want(e)) << e;
  }
  for (int sm : {80, 90}) {
    auto k = lowerKeepingIr(*m, sm);
    ASSERT_TRUE(k.ok()) << k.message();
    check(*k);
    expectAssembles(k->kernel, /*requireNoSpills=*/true);
  }
}

// out[e] = e / 3 by the f32 division `op`: the correctly rounded quotient in the interpreter; the
// PTX divides with `ptx`, never with `notPtx`.
void expectRangeDividedBy3(const std::string &op, const std::string &ptx,
                           const std::string &notPtx) {
  expectRangeByConstant(
      op, "3.0", [](int e) { return float(double(e) / 3.0); },
      [&](const LoweredKernel &k) {
        EXPECT_NE(k.kernel.ptx.find(ptx), std::string::npos) << k.kernel.ptx;
        EXPECT_EQ(k.kernel.ptx.find(notPtx), std::string::npos) << k.kernel.ptx;
      });
}

// arith.remf (Triton's `%` on floats), end to end: read, checked, printed back as read, run by
// the interpreter as C's fmod, folded by LLVM to the same constant, and on run-time operands
// lowered to PTX that ptxas assembles for sm_80 and sm_90.
TEST(LowerElementwise, RemFIsFmodFromTextToPtx) {
  const std::vector<std::array<const char *, 3>> cases = {
      // a, b, a fmod b
      {"7.5", "2.0", "1.5"},
      {"-7.5", "2.0", "-1.5"},
      {"7.5", "-2.0", "1.5"},
      {"5.0", "0.5", "0"},
  };
  for (const auto &[a, b, want] : cases) {
    SCOPED_TRACE(std::string(a) + " fmod " + b);
    ir::Module m = constantOpKernel("arith.remf", a, b, "f32", "f32");
    auto again = ir::parseModule(ir::print(m), "remf.tir");
    ASSERT_TRUE(again.ok()) << again.message();
    EXPECT_EQ(ir::print(*again), ir::print(m));
    EXPECT_NE(ir::print(m).find("arith.remf %"), std::string::npos) << ir::print(m);
    auto mem = interpretKernel(m, 32 * 4);
    ASSERT_TRUE(mem.ok()) << mem.message();
    float got;
    std::memcpy(&got, mem->data(), 4);
    EXPECT_EQ(got, std::stof(want));
    auto k = lowerKeepingIr(m, 80);
    ASSERT_TRUE(k.ok()) << k.message();
    // The store writes the float itself, or its bits as an integer.
    std::optional<double> folded = storedFloat(k->llvmIr, "float");
    if (std::optional<int64_t> bits = storedConstant(k->llvmIr, 32))
      folded = double(std::bit_cast<float>(uint32_t(*bits)));
    EXPECT_EQ(folded, std::optional<double>(std::stof(want))) << k->llvmIr;
  }
  // Operands the kernel computes (a range), so that LLVM keeps the frem.
  expectRangeByConstant(
      "arith.remf", "2.5", [](int e) { return std::fmod(float(e), 2.5f); },
      [](const LoweredKernel &k) {
        EXPECT_NE(k.llvmIr.find("frem"), std::string::npos) << k.llvmIr;
      });
}

TEST(LowerElementwise, PreciseDivFRoundsOnceFromTextToPtx) {
  // The quotient correctly rounded to f32, folded by LLVM as the interpreter computes it.
  for (const auto &[a, b] : std::vector<std::pair<const char *, const char *>>{
           {"1.0", "3.0"}, {"-7.0", "6.0"}, {"2.0", "7.0"}}) {
    SCOPED_TRACE(std::string(a) + " / " + b);
    const float want = float(std::stod(a) / std::stod(b));
    ir::Module m = constantOpKernel("tt.precise_divf", a, b, "f32", "f32");
    auto again = ir::parseModule(ir::print(m), "div.tir");
    ASSERT_TRUE(again.ok()) << again.message();
    EXPECT_EQ(ir::print(*again), ir::print(m));
    auto mem = interpretKernel(m, 32 * 4);
    ASSERT_TRUE(mem.ok()) << mem.message();
    float got;
    std::memcpy(&got, mem->data(), 4);
    EXPECT_EQ(got, want);
    auto k = lowerKeepingIr(m, 80);
    ASSERT_TRUE(k.ok()) << k.message();
    std::optional<double> folded = storedFloat(k->llvmIr, "float");
    if (std::optional<int64_t> bits = storedConstant(k->llvmIr, 32))
      folded = double(std::bit_cast<float>(uint32_t(*bits)));
    EXPECT_EQ(folded, std::optional<double>(want)) << k->llvmIr;
  }
  // Run-time operands: the GPU divides with div.rn.
  expectRangeDividedBy3("tt.precise_divf", "div.rn.f32", "div.full.f32");
}

TEST(LowerElementwise, DivFOnF32IsTritonsFullRangeApproximateDivision) {
  // Triton's `/`: div.full.f32 (within 2 ulp of the interpreter's rounded quotient), not the
  // correctly rounded div.rn, which takes a dozen instructions and a slow-path branch.
  expectRangeDividedBy3("arith.divf", "div.full.f32", "div.rn.f32");
}
