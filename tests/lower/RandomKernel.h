// Random kernels over run-time values, for the tests that hold the lowering to the IR's semantics
// (without a GPU they are interpreted, lowered and assembled; on the GPU every value they compute
// must be the interpreter's, LowerGpuTest). Each stores every value it computes in a buffer of its
// own; the inputs mix edge values (zeros of both signs, infinities, NaN, denormals, the integer
// extremes) with random ones. exp / exp2 / log / rsqrt are left out: the lowering uses the SFU's
// approximations for them.
//
// randomElementwise(): 1-D tiles of 2-4 random element types (i8 to i64, f16, bf16, f32, f64;
// 1-4 elements per thread, so loads and stores of every vector width) and 1-10 random steps:
// integer binary ops (divisors made odd so that none is zero), float binary ops (min / max of
// every kind included), negf / absf / floor / ceil / sqrt, compares with every predicate and
// selects on them, and casts between every pair of types (i1 from compares included).
//
// randomTileProgram(): 2-D tiles of 16 to 4096 elements (i32 and f32 loaded, cast to any other
// element type) in 2-3 random layouts (blocked of any shape over 4 warps, nvidia_mma v2 where the
// tile holds its instruction tile), loaded in one, then 2-8 steps: elementwise ops of two values
// of one layout, convert_layout, tt.reduce along either axis (sum, prod, max, min, umax, umin;
// floats max, min, maxnum and minnum only, whose result does not depend on the order) with the
// result expanded and broadcast back, tt.scan along either axis in either direction (the same
// kinds), reductions and scans of two integer values by a combining body (their lexicographic
// maximum: argmax's kind), a trip through shared memory in a random swizzled layout
// (local_alloc, local_load into any layout), tt.trans followed by tt.reshape back to the tile's
// shape, tt.join of two values of one blocked layout and tt.split back, casts, compares whose i1
// tiles join the values (converted to another layout to select there; later steps take them too;
// stored as bytes), and loops (0-3 trips) and branches (on a condition known only at run time)
// carrying 1-2 values through steps of their own, up to two deep.
#pragma once

#include "PtxCheck.h"

#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Type.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/lower/Lower.h"

#include <rapidcheck.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

namespace linlayout::lower::testing {

// A generated kernel: its text, and what it reads and writes. Every tile has `elements`
// elements, every buffer one tile: the inputs', then the outputs'.
struct RandomKernel {
  struct Value {
    std::string name, type; // "%v3", "f16"
    int layout = 0;         // tile programs: #l<layout>
  };
  std::string text;                    // the module
  std::string kernel = "elementwise";  // its kernel
  std::vector<std::string> inputTypes; // one buffer each, then one per output
  std::vector<Value> outputs;          // the values stored, in order
  int elements = 128;                  // per tile

  static ir::ScalarKind kind(const std::string &t) { return *ir::scalarKindFromName(t); }
  static bool isFloat(const std::string &t) { return ir::isFloat(kind(t)); }
  static int bits(const std::string &t) { return ir::bitWidth(kind(t)); }
  static size_t bytes(const std::string &t) { return size_t(ir::byteWidth(kind(t))); }

  // The start memory: random inputs, then outputs filled with 0x5a.
  ir::Memory start() const {
    ir::Memory m;
    for (const std::string &t : inputTypes)
      m.buffers.push_back(randomValues(t));
    for (const Value &o : outputs)
      m.buffers.push_back(std::vector<uint8_t>(size_t(elements) * bytes(o.type), 0x5a));
    return m;
  }

  std::vector<ir::ArgValue> args() const {
    std::vector<ir::ArgValue> a;
    for (size_t i = 0; i < inputTypes.size() + outputs.size(); ++i)
      a.push_back(ir::ArgValue::pointer(uint32_t(i)));
    return a;
  }

  // Where `got` differs from `want` (the interpreter's memory): "" when nowhere. Float values
  // compare as equal when both are NaN (a NaN's bits are the GPU's canonical NaN).
  std::string firstDifference(const ir::Memory &got, const ir::Memory &want) const {
    for (size_t o = 0; o < outputs.size(); ++o) {
      const std::string &t = outputs[o].type;
      size_t b = inputTypes.size() + o, w = bytes(t);
      for (int e = 0; e < elements; ++e) {
        uint64_t g = 0, x = 0;
        std::memcpy(&g, got.buffers[b].data() + size_t(e) * w, w);
        std::memcpy(&x, want.buffers[b].data() + size_t(e) * w, w);
        if (g == x || (isFloat(t) && isNan(g, t) && isNan(x, t)))
          continue;
        return outputs[o].name + " (" + t + ") element " + std::to_string(e) + ": got 0x" + hex(g) +
               ", the interpreter 0x" + hex(x) + "; inputs at " + std::to_string(e) + ": " +
               inputsAt(want, e);
      }
    }
    return "";
  }

private:
  static std::string hex(uint64_t v) {
    static const char *digits = "0123456789abcdef";
    std::string s;
    do {
      s.insert(s.begin(), digits[v & 15]);
      v >>= 4;
    } while (v);
    return s;
  }
  static bool isNan(uint64_t v, const std::string &t) {
    switch (bits(t)) {
    case 16: {
      bool bf = t == "bf16";
      uint64_t exp = bf ? 0x7f80 : 0x7c00, man = bf ? 0x7f : 0x3ff;
      return (v & exp) == exp && (v & man) != 0;
    }
    case 32:
      return std::isnan(std::bit_cast<float>(uint32_t(v)));
    default:
      return std::isnan(std::bit_cast<double>(v));
    }
  }
  std::string inputsAt(const ir::Memory &m, int e) const {
    std::string s;
    for (size_t i = 0; i < inputTypes.size(); ++i) {
      uint64_t v = 0;
      size_t w = bytes(inputTypes[i]);
      std::memcpy(&v, m.buffers[i].data() + size_t(e) * w, w);
      s += (i ? ", " : "") + inputTypes[i] + " 0x" + hex(v);
    }
    return s;
  }

  std::vector<uint8_t> randomValues(const std::string &t) const {
    std::vector<uint8_t> out(size_t(elements) * bytes(t));
    for (int e = 0; e < elements; ++e) {
      uint64_t v = isFloat(t) ? randomFloatBits(t) : randomIntBits(bits(t));
      std::memcpy(out.data() + size_t(e) * bytes(t), &v, bytes(t));
    }
    return out;
  }

  static uint64_t randomIntBits(int b) {
    uint64_t mask = b == 64 ? ~uint64_t(0) : (uint64_t(1) << b) - 1;
    uint64_t min = uint64_t(1) << (b - 1);
    switch (*rc::gen::inRange(0, 4)) {
    case 0:
      return *rc::gen::element<uint64_t>(0, 1, mask, min, min - 1, min + 1, mask - 1, 2, 3) & mask;
    case 1:
      return uint64_t(*rc::gen::inRange<int64_t>(-300, 301)) & mask;
    default:
      return *rc::gen::arbitrary<uint64_t>() & mask;
    }
  }

  static uint64_t randomFloatBits(const std::string &t) {
    const double inf = std::numeric_limits<double>::infinity();
    double d;
    switch (*rc::gen::inRange(0, 5)) {
    case 0: // edges, in this type or past it
      d = *rc::gen::element(0.0, -0.0, inf, -inf, std::nan(""), 1.0, -1.0, 0.5, 65504.0, 65520.0,
                            1e-7, -6e-8, 3e38, 1e-40, 1e-310, 2147483648.0, -2147483904.0, 9.3e18,
                            4294967296.0, 255.5, -128.5, 32767.5);
      break;
    case 1:
      d = double(*rc::gen::inRange(-100000, 100000)) / 64;
      break;
    case 2:
      d = double(*rc::gen::inRange(-1000, 1000));
      break;
    default: { // any bits of the type
      uint64_t raw = *rc::gen::arbitrary<uint64_t>();
      return bits(t) == 64 ? raw : raw & ((uint64_t(1) << bits(t)) - 1);
    }
    }
    return ir::floatBits(d, kind(t));
  }
};

// How rapidcheck prints a drawn value in a counterexample.
inline void showValue(const RandomKernel::Value &v, std::ostream &os) {
  os << v.name << " : " << v.type << ", #l" << v.layout;
}

// A cast op from one element type to another, drawn where there are several (extsi or extui,
// fptosi or fptoui, sitofp or uitofp); "" where no single op casts (the same type, f16 <-> bf16).
inline std::string randomCast(const std::string &from, const std::string &to) {
  bool fromFloat = RandomKernel::isFloat(from), toFloat = RandomKernel::isFloat(to);
  int fb = RandomKernel::bits(from), tb = RandomKernel::bits(to);
  if (fromFloat && toFloat)
    return fb == tb ? "" : fb < tb ? "arith.extf" : "arith.truncf";
  if (!fromFloat && !toFloat)
    return fb == tb  ? ""
           : fb < tb ? *rc::gen::element<std::string>("arith.extsi", "arith.extui")
                     : "arith.trunci";
  if (fromFloat)
    return *rc::gen::element<std::string>("arith.fptosi", "arith.fptoui");
  return *rc::gen::element<std::string>("arith.sitofp", "arith.uitofp");
}

// The op's full name: arith.<op>, except that an f32 division is tt.precise_divf. The GPU
// computes f32's arith.divf as div.full (within 2 ulp, as Triton does), not bit for bit;
// LowerGpu.DivFOnF32IsWithinTwoUlpOfTheInterpreter checks it.
inline std::string dialectOp(const std::string &op, const std::string &type) {
  return op == "divf" && type == "f32" ? "tt.precise_divf" : "arith." + op;
}

// The element types the programs compute in (besides i1 from compares).
inline const std::vector<std::string> kElementTypes = {"i8",  "i16",  "i32", "i64",
                                                       "f16", "bf16", "f32", "f64"};

// A random program (see the file comment).
inline RandomKernel randomElementwise() {
  RandomKernel p;
  const int perThread = *rc::gen::element(1, 2, 4);
  p.elements = 128 * perThread;
  const std::string n = std::to_string(p.elements);
  auto tensor = [&](const std::string &t) { return "tensor<" + n + "x" + t + ", #b>"; };
  auto ptrs = [&](const std::string &t) { return "tensor<" + n + "x!tt.ptr<" + t + ">, #b>"; };

  int inputs = *rc::gen::inRange(2, 5);
  for (int i = 0; i < inputs; ++i)
    p.inputTypes.push_back(*rc::gen::elementOf(kElementTypes));

  std::vector<RandomKernel::Value> pool;
  std::string body;
  int counter = 0;
  auto fresh = [&] { return "%v" + std::to_string(counter++); };
  auto line = [&](const std::string &name, const std::string &expr) {
    body += "    " + name + " = " + expr + "\n";
  };
  auto emit = [&](const std::string &type, const std::string &expr) {
    RandomKernel::Value v{fresh(), type};
    line(v.name, expr);
    pool.push_back(v);
    return v;
  };
  auto ofType = [&](auto pred) {
    std::vector<RandomKernel::Value> out;
    for (const auto &v : pool)
      if (pred(v.type))
        out.push_back(v);
    return out;
  };
  auto partner = [&](const RandomKernel::Value &x) { // a value of x's type
    return *rc::gen::elementOf(ofType([&](const std::string &t) { return t == x.type; }));
  };
  auto pointers = [&](const std::string &param, const std::string &t) {
    std::string s = "%" + param + "s";
    body += "    " + s + " = tt.splat %" + param + " : !tt.ptr<" + t + "> -> " + ptrs(t) + "\n";
    body +=
        "    %" + param + "p = tt.addptr " + s + ", %r : " + ptrs(t) + ", " + tensor("i32") + "\n";
    return "%" + param + "p";
  };
  for (size_t i = 0; i < p.inputTypes.size(); ++i) {
    const std::string &t = p.inputTypes[i];
    std::string ptr = pointers("in" + std::to_string(i), t);
    emit(t, "tt.load " + ptr + " : " + ptrs(t));
  }
  const size_t loaded = pool.size();

  // A step that does not apply to the values at hand is drawn again (rapidcheck's draws are
  // scaled by its size: at small sizes most are the first choice, so the attempts are bounded).
  const int steps = *rc::gen::inRange(1, 11);
  for (int s = 0, attempt = 0; s < steps && attempt < 200; ++attempt) {
    auto ints = ofType([](const std::string &t) { return t[0] == 'i' && t != "i1"; });
    auto floats = ofType(RandomKernel::isFloat);
    auto bools = ofType([](const std::string &t) { return t == "i1"; });
    const int choice = *rc::gen::inRange(0, 6);
    switch (choice) {
    case 0:
    case 1: { // a binary op, integer or float
      const bool f = choice == 1;
      const auto &group = f ? floats : ints;
      if (group.empty())
        continue;
      auto x = *rc::gen::elementOf(group);
      auto y = partner(x);
      std::string op =
          f ? *rc::gen::element<std::string>("addf", "subf", "mulf", "divf", "minimumf", "maximumf",
                                             "minnumf", "maxnumf")
            : *rc::gen::element<std::string>("addi", "subi", "muli", "divsi", "divui", "remsi",
                                             "remui", "andi", "ori", "xori", "shli", "shrsi",
                                             "shrui", "minsi", "maxsi", "minui", "maxui");
      if (!f && (op.rfind("div", 0) == 0 || op.rfind("rem", 0) == 0)) { // an odd divisor
        std::string one = fresh(), odd = fresh();
        line(one, "arith.constant dense<1> : " + tensor(x.type));
        line(odd, "arith.ori " + y.name + ", " + one + " : " + tensor(x.type));
        y.name = odd;
      }
      emit(x.type, dialectOp(op, x.type) + " " + x.name + ", " + y.name + " : " + tensor(x.type));
      break;
    }
    case 2: { // float unary op
      if (floats.empty())
        continue;
      auto x = *rc::gen::elementOf(floats);
      std::string op = *rc::gen::element<std::string>("arith.negf", "math.absf", "math.floor",
                                                      "math.ceil", "math.sqrt");
      emit(x.type, op + " " + x.name + " : " + tensor(x.type));
      break;
    }
    case 3: { // compare, then select on it (or on an earlier compare)
      auto x = *rc::gen::elementOf(pool);
      if (x.type == "i1")
        continue;
      auto y = partner(x);
      RandomKernel::Value c;
      if (!bools.empty() && *rc::gen::inRange(0, 3) == 0) {
        c = *rc::gen::elementOf(bools);
      } else {
        bool f = RandomKernel::isFloat(x.type);
        std::string pred =
            f ? *rc::gen::element<std::string>("oeq", "one", "olt", "ole", "ogt", "oge", "une")
              : *rc::gen::element<std::string>("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule",
                                               "ugt", "uge");
        c = emit("i1", std::string(f ? "arith.cmpf " : "arith.cmpi ") + pred + ", " + x.name +
                           ", " + y.name + " : " + tensor(x.type));
        ++s;
      }
      emit(x.type, "arith.select " + c.name + ", " + x.name + ", " + y.name + " : " + tensor("i1") +
                       ", " + tensor(x.type));
      break;
    }
    default: { // a cast
      auto x = *rc::gen::elementOf(pool);
      std::string to = *rc::gen::elementOf(kElementTypes);
      std::string op = randomCast(x.type, to);
      if (op.empty())
        continue;
      emit(to, op + " " + x.name + " : " + tensor(x.type) + " to " + tensor(to));
      break;
    }
    }
    ++s;
  }

  std::string params;
  for (size_t i = 0; i < p.inputTypes.size(); ++i)
    params += std::string(i ? ", " : "") + "%in" + std::to_string(i) + ": !tt.ptr<" +
              p.inputTypes[i] + ">";
  for (size_t i = loaded; i < pool.size(); ++i) {
    const auto &v = pool[i];
    std::string param = "out" + std::to_string(p.outputs.size());
    std::string memType = v.type == "i1" ? "i8" : v.type; // i1 is stored as a byte
    params += ", %" + param + ": !tt.ptr<" + memType + ">";
    std::string ptr = pointers(param, memType);
    std::string value = v.name;
    if (v.type == "i1") {
      value = v.name + "b";
      body += "    " + value + " = arith.extui " + v.name + " : " + tensor("i1") + " to " +
              tensor("i8") + "\n";
    }
    body += "    tt.store " + ptr + ", " + value + " : " + ptrs(memType) + "\n";
    p.outputs.push_back({v.name, memType});
  }
  p.text = "#b = #ttg.blocked<{sizePerThread = [" + std::to_string(perThread) +
           "], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>\n"
           "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
           "  tt.func public @elementwise(" +
           params + ") {\n    %r = tt.make_range {end = " + n +
           " : i32, start = 0 : i32} : " + tensor("i32") + "\n" + body + "    tt.return\n  }\n}\n";
  return p;
}

// A random 2-D tile program (see the file comment).
inline RandomKernel randomTileProgram() {
  RandomKernel p;
  const int warps = 4;
  int logM = *rc::gen::inRange(2, 7), logN = *rc::gen::inRange(2, 7);
  while (logM + logN < 4)
    ++logN;
  const int M = 1 << logM, N = 1 << logN;
  p.elements = M * N;
  const std::string ms = std::to_string(M), ns = std::to_string(N);

  // The layouts: #l0 .. #l<k-1>; for a blocked one, also its 3-D form with a last dimension of 2
  // in each thread's registers (tt.join's result layout, as Triton makes it).
  std::vector<std::string> layouts, joinedLayouts;
  const int count = *rc::gen::inRange(2, 4);
  for (int i = 0; i < count; ++i) {
    int w0 = 1 << *rc::gen::inRange(0, 3);
    if (M >= 16 * w0 && N >= 8 * (warps / w0) && *rc::gen::arbitrary<bool>()) {
      layouts.push_back("#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [" +
                        std::to_string(w0) + ", " + std::to_string(warps / w0) +
                        "], instrShape = [16, 8]}>");
      joinedLayouts.push_back("");
      continue;
    }
    int s0 = 1 << *rc::gen::inRange(0, 3), s1 = 1 << *rc::gen::inRange(0, 3);
    int t0 = 1 << *rc::gen::inRange(0, 6);
    bool rowMajor = *rc::gen::arbitrary<bool>();
    layouts.push_back("#ttg.blocked<{sizePerThread = [" + std::to_string(s0) + ", " +
                      std::to_string(s1) + "], threadsPerWarp = [" + std::to_string(t0) + ", " +
                      std::to_string(32 / t0) + "], warpsPerCTA = [" + std::to_string(w0) + ", " +
                      std::to_string(warps / w0) + "], order = [" + (rowMajor ? "1, 0" : "0, 1") +
                      "]}>");
    joinedLayouts.push_back("#ttg.blocked<{sizePerThread = [" + std::to_string(s0) + ", " +
                            std::to_string(s1) + ", 2], threadsPerWarp = [" + std::to_string(t0) +
                            ", " + std::to_string(32 / t0) + ", 1], warpsPerCTA = [" +
                            std::to_string(w0) + ", " + std::to_string(warps / w0) +
                            ", 1], order = [" + (rowMajor ? "2, 1, 0" : "2, 0, 1") + "]}>");
  }
  auto L = [](int l) { return "#l" + std::to_string(l); };
  auto slice = [&](int dim, int l) {
    return "#ttg.slice<{dim = " + std::to_string(dim) + ", parent = " + L(l) + "}>";
  };
  auto tile = [&](const std::string &t, int l) {
    return "tensor<" + ms + "x" + ns + "x" + t + ", " + L(l) + ">";
  };
  auto ptrTile = [&](const std::string &t, int l) { return tile("!tt.ptr<" + t + ">", l); };

  using Val = RandomKernel::Value;
  std::vector<std::string> sharedLayouts; // #s0 ..
  std::vector<Val> pool;
  std::string body;
  int counter = 0;
  auto fresh = [&] { return "%v" + std::to_string(counter++); };
  auto line = [&](const std::string &name, const std::string &expr) {
    body += "    " + name + " = " + expr + "\n";
  };
  auto emit = [&](const std::string &type, int layout, const std::string &expr) {
    Val v{fresh(), type, layout};
    line(v.name, expr);
    pool.push_back(v);
    return v;
  };
  // Row-major element offsets in layout l, made once per layout.
  std::vector<bool> haveOffsets(layouts.size(), false);
  auto offsets = [&](int l) {
    std::string o = "%off" + std::to_string(l);
    if (haveOffsets[size_t(l)])
      return o;
    haveOffsets[size_t(l)] = true;
    std::string k = std::to_string(l), col = "tensor<" + ms + "x1xi32, " + L(l) + ">",
                row = "tensor<1x" + ns + "xi32, " + L(l) + ">";
    line("%rm" + k, "tt.make_range {end = " + ms + " : i32, start = 0 : i32} : tensor<" + ms +
                        "xi32, " + slice(1, l) + ">");
    line("%rm2" + k, "tt.expand_dims %rm" + k + " {axis = 1 : i32} : tensor<" + ms + "xi32, " +
                         slice(1, l) + "> -> " + col);
    line("%cn" + k, "arith.constant dense<" + ns + "> : " + col);
    line("%rmn" + k, "arith.muli %rm2" + k + ", %cn" + k + " : " + col);
    line("%rmb" + k, "tt.broadcast %rmn" + k + " : " + col + " -> " + tile("i32", l));
    line("%rn" + k, "tt.make_range {end = " + ns + " : i32, start = 0 : i32} : tensor<" + ns +
                        "xi32, " + slice(0, l) + ">");
    line("%rn2" + k, "tt.expand_dims %rn" + k + " {axis = 0 : i32} : tensor<" + ns + "xi32, " +
                         slice(0, l) + "> -> " + row);
    line("%rnb" + k, "tt.broadcast %rn2" + k + " : " + row + " -> " + tile("i32", l));
    line(o, "arith.addi %rmb" + k + ", %rnb" + k + " : " + tile("i32", l));
    return o;
  };
  int pointerCount = 0;
  auto pointers = [&](const std::string &param, const std::string &t, int l) {
    std::string off = offsets(l), s = "%ps" + std::to_string(pointerCount),
                q = "%pp" + std::to_string(pointerCount++);
    line(s, "tt.splat %" + param + " : !tt.ptr<" + t + "> -> " + ptrTile(t, l));
    line(q, "tt.addptr " + s + ", " + off + " : " + ptrTile(t, l) + ", " + tile("i32", l));
    return q;
  };

  p.inputTypes = {"i32", "f32"};
  for (size_t i = 0; i < 2; ++i) {
    int l = *rc::gen::inRange<int>(0, int(layouts.size()));
    const std::string &t = p.inputTypes[i];
    std::string ptr = pointers("in" + std::to_string(i), t, l);
    emit(t, l, "tt.load " + ptr + " : " + ptrTile(t, l));
  }
  const size_t loaded = pool.size();

  // One step in the current scope (pool): false where the drawn step does not apply.
  // Loops and branches (up to two deep) run steps in a scope of their own and yield values of
  // the types and layouts of their results (converting the layout where the drawn value has
  // another one).
  std::function<bool(int)> step;
  auto region = [&](int depth, const std::vector<Val> &results) {
    int n = *rc::gen::inRange(1, 5);
    for (int s = 0, attempt = 0; s < n && attempt < 100; ++attempt)
      s += step(depth);
    std::string names, types;
    for (const Val &r : results) {
      std::vector<Val> sameType;
      for (const Val &v : pool)
        if (v.type == r.type)
          sameType.push_back(v);
      Val y = *rc::gen::elementOf(sameType);
      if (y.layout != r.layout)
        y = emit(r.type, r.layout,
                 "ttg.convert_layout " + y.name + " : " + tile(y.type, y.layout) + " -> " +
                     tile(r.type, r.layout));
      names += (names.empty() ? "" : ", ") + y.name;
      types += (types.empty() ? "" : ", ") + tile(r.type, r.layout);
    }
    body += "    scf.yield " + names + " : " + types + "\n";
  };
  // 1-2 values drawn from the pool: a loop carries them; a branch yields their types and layouts.
  auto drawResults = [&] {
    std::vector<Val> r;
    for (int k = *rc::gen::inRange(1, 3); k > 0; --k)
      r.push_back(*rc::gen::elementOf(pool));
    return r;
  };
  auto resultName = [](const std::string &op, size_t k, size_t n) {
    return n == 1 ? op : op + "#" + std::to_string(k);
  };
  auto typeList = [&](const std::vector<Val> &vs) {
    std::string t;
    for (const Val &v : vs)
      t += (t.empty() ? "" : ", ") + tile(v.type, v.layout);
    return t;
  };
  step = [&](int depth) -> bool {
    Val x = *rc::gen::elementOf(pool);
    const bool f = RandomKernel::isFloat(x.type);
    switch (*rc::gen::inRange(0, 10)) {
    case 0: { // elementwise, with a value of the same type and layout
      std::vector<Val> same;
      for (const Val &v : pool)
        if (v.type == x.type && v.layout == x.layout)
          same.push_back(v);
      Val y = *rc::gen::elementOf(same);
      std::string op =
          f ? *rc::gen::element<std::string>("addf", "subf", "mulf", "divf", "maximumf", "minnumf")
            : *rc::gen::element<std::string>("addi", "subi", "muli", "xori", "andi", "maxsi",
                                             "minui", "shrui");
      emit(x.type, x.layout,
           dialectOp(op, x.type) + " " + x.name + ", " + y.name + " : " + tile(x.type, x.layout));
      return true;
    }
    case 1: { // to another layout
      int l = *rc::gen::inRange<int>(0, int(layouts.size()));
      if (l == x.layout)
        return false;
      emit(x.type, l,
           "ttg.convert_layout " + x.name + " : " + tile(x.type, x.layout) + " -> " +
               tile(x.type, l));
      return true;
    }
    case 2: { // reduce along an axis, then expand and broadcast back; or scan along it
      int axis = *rc::gen::inRange(0, 2);
      const int l = x.layout;
      // The tile of `ty` reduced along the axis; a reduced value `r` expanded back and broadcast
      // to the tile, into the pool.
      auto reduced = [&](const std::string &ty) {
        return "tensor<" + (axis == 0 ? ns : ms) + "x" + ty + ", " + slice(axis, l) + ">";
      };
      auto broadcastBack = [&](const std::string &r, const std::string &ty) {
        const std::string kept = axis == 0 ? "tensor<1x" + ns + "x" + ty + ", " + L(l) + ">"
                                           : "tensor<" + ms + "x1x" + ty + ", " + L(l) + ">";
        std::string e = fresh();
        line(e, "tt.expand_dims " + r + " {axis = " + std::to_string(axis) +
                    " : i32} : " + reduced(ty) + " -> " + kept);
        emit(ty, l, "tt.broadcast " + e + " : " + kept + " -> " + tile(ty, l));
      };
      // An integer x with an integer y of its layout (maybe x itself): the pair reduced or
      // scanned by a combining body, the lexicographic maximum (x greatest, then y least).
      std::vector<Val> partners;
      for (const Val &v : pool)
        if (!f && !RandomKernel::isFloat(v.type) && v.layout == x.layout)
          partners.push_back(v);
      if (!partners.empty() && *rc::gen::inRange(0, 3) == 0) {
        const Val y = *rc::gen::elementOf(partners);
        const bool scan = *rc::gen::arbitrary<bool>();
        const std::string t = x.type, u = y.type;
        std::string a0 = fresh(), a1 = fresh(), b0 = fresh(), b1 = fresh(), g = fresh(),
                    e = fresh(), lt = fresh(), tie = fresh(), pick = fresh(), v0 = fresh(),
                    v1 = fresh(), r = fresh();
        auto result = [&](const std::string &ty) { return scan ? tile(ty, l) : reduced(ty); };
        body +=
            "    " + r + ":2 = \"" + (scan ? "tt.scan" : "tt.reduce") + "\"(" + x.name + ", " +
            y.name + ") <{axis = " + std::to_string(axis) + " : i32" +
            (scan ? std::string(", reverse = ") + (*rc::gen::arbitrary<bool>() ? "true" : "false")
                  : "") +
            "}> ({\n    ^bb0(" + a0 + ": " + t + ", " + a1 + ": " + u + ", " + b0 + ": " + t +
            ", " + b1 + ": " + u + "):\n";
        line("  " + g, "arith.cmpi sgt, " + a0 + ", " + b0 + " : " + t);
        line("  " + e, "arith.cmpi eq, " + a0 + ", " + b0 + " : " + t);
        line("  " + lt, "arith.cmpi slt, " + a1 + ", " + b1 + " : " + u);
        line("  " + tie, "arith.andi " + e + ", " + lt + " : i1");
        line("  " + pick, "arith.ori " + g + ", " + tie + " : i1");
        line("  " + v0, "arith.select " + pick + ", " + a0 + ", " + b0 + " : " + t);
        line("  " + v1, "arith.select " + pick + ", " + a1 + ", " + b1 + " : " + u);
        body += "      tt." + std::string(scan ? "scan" : "reduce") + ".return " + v0 + ", " + v1 +
                " : " + t + ", " + u + "\n    }) : (" + tile(t, l) + ", " + tile(u, l) + ") -> (" +
                result(t) + ", " + result(u) + ")\n";
        const bool second = *rc::gen::arbitrary<bool>();
        const std::string kept = second ? u : t, res = r + (second ? "#1" : "#0");
        if (scan)
          pool.push_back(Val{res, kept, l});
        else
          broadcastBack(res, kept);
        return true;
      }
      std::string kind =
          f ? *rc::gen::element<std::string>("max", "min", "maxnum", "minnum")
            : *rc::gen::element<std::string>("sum", "prod", "max", "min", "umax", "umin");
      if (*rc::gen::arbitrary<bool>()) {
        emit(x.type, l,
             "tt.scan " + kind + " " + x.name + " {axis = " + std::to_string(axis) +
                 " : i32, reverse = " + (*rc::gen::arbitrary<bool>() ? "true" : "false") +
                 "} : " + tile(x.type, l) + " -> " + tile(x.type, l));
        return true;
      }
      std::string r = fresh();
      line(r, "tt.reduce " + kind + " " + x.name + " {axis = " + std::to_string(axis) +
                  " : i32} : " + tile(x.type, l) + " -> " + reduced(x.type));
      broadcastBack(r, x.type);
      return true;
    }
    case 3: { // through shared memory in a random swizzle, read back in any layout
      int l = *rc::gen::inRange<int>(0, int(layouts.size()));
      std::string shared = "#s" + std::to_string(sharedLayouts.size());
      sharedLayouts.push_back(
          "#ttg.swizzled_shared<{vec = " + std::to_string(1 << *rc::gen::inRange(0, 4)) +
          ", perPhase = " + std::to_string(1 << *rc::gen::inRange(0, 3)) +
          ", maxPhase = " + std::to_string(1 << *rc::gen::inRange(0, 4)) + ", order = [" +
          (*rc::gen::arbitrary<bool>() ? "1, 0" : "0, 1") + "]}>");
      std::string desc =
          "!ttg.memdesc<" + ms + "x" + ns + "x" + x.type + ", " + shared + ", #smem>";
      std::string buf = fresh();
      line(buf, "ttg.local_alloc " + x.name + " : (" + tile(x.type, x.layout) + ") -> " + desc);
      emit(x.type, l, "ttg.local_load " + buf + " : " + desc + " -> " + tile(x.type, l));
      return true;
    }
    case 4: { // transposed (into a blocked layout), then reshaped back to M x N row-major; or
              // joined with a value of its type and layout, then split again
      if (!joinedLayouts[size_t(x.layout)].empty() && *rc::gen::arbitrary<bool>()) {
        std::vector<Val> same;
        for (const Val &v : pool)
          if (v.type == x.type && v.layout == x.layout)
            same.push_back(v);
        Val y = *rc::gen::elementOf(same);
        const std::string wide = "tensor<" + ms + "x" + ns + "x2x" + x.type + ", " +
                                 joinedLayouts[size_t(x.layout)] + ">";
        std::string j = fresh(), s = fresh();
        line(j,
             "tt.join " + x.name + ", " + y.name + " : " + tile(x.type, x.layout) + " -> " + wide);
        line(s + ":2", "tt.split " + j + " : " + wide + " -> " + tile(x.type, x.layout));
        // The halves in the other order, so that a mix-up shows.
        pool.push_back(Val{s + "#1", x.type, x.layout});
        pool.push_back(Val{s + "#0", x.type, x.layout});
        return true;
      }
      std::vector<int> blocked;
      for (size_t l = 0; l < layouts.size(); ++l)
        if (layouts[l].find("blocked") != std::string::npos)
          blocked.push_back(int(l));
      if (blocked.empty())
        return false;
      int lt = *rc::gen::elementOf(blocked), l = *rc::gen::inRange<int>(0, int(layouts.size()));
      std::string t = fresh(),
                  transposed = "tensor<" + ns + "x" + ms + "x" + x.type + ", " + L(lt) + ">";
      line(t, "tt.trans " + x.name + " {order = array<i32: 1, 0>} : " + tile(x.type, x.layout) +
                  " -> " + transposed);
      emit(x.type, l, "tt.reshape " + t + " : " + transposed + " -> " + tile(x.type, l));
      return true;
    }
    case 7: { // a loop of 0-3 trips carrying 1-2 values
      if (depth >= 2)
        return false;
      std::vector<Val> carried = drawResults();
      std::string r = fresh(), id = r.substr(2), trips = "%trips" + id;
      line(trips, "arith.constant " + std::to_string(*rc::gen::inRange(0, 4)) + " : i32");
      std::string args;
      for (size_t k = 0; k < carried.size(); ++k)
        args += (k ? ", " : "") + std::string("%a") + id + "_" + std::to_string(k) + " = " +
                carried[k].name;
      body += "    " + r + (carried.size() > 1 ? ":" + std::to_string(carried.size()) : "") +
              " = scf.for %i" + id + " = %zero to " + trips + " step %one iter_args(" + args +
              ") -> (" + typeList(carried) + ") : i32 {\n";
      size_t outer = pool.size();
      for (size_t k = 0; k < carried.size(); ++k)
        pool.push_back({"%a" + id + "_" + std::to_string(k), carried[k].type, carried[k].layout});
      region(depth + 1, carried);
      body += "    }\n";
      pool.resize(outer);
      for (size_t k = 0; k < carried.size(); ++k)
        pool.push_back({resultName(r, k, carried.size()), carried[k].type, carried[k].layout});
      return true;
    }
    case 8: { // a branch on a condition the compiler cannot know (true or false at run time)
      if (depth >= 2)
        return false;
      std::vector<Val> results = drawResults();
      std::string r = fresh(), cond = *rc::gen::element<std::string>("%yes", "%no");
      body += "    " + r + (results.size() > 1 ? ":" + std::to_string(results.size()) : "") +
              " = scf.if " + cond + " -> (" + typeList(results) + ") {\n";
      size_t outer = pool.size();
      region(depth + 1, results);
      pool.resize(outer);
      body += "    } else {\n";
      region(depth + 1, results);
      pool.resize(outer);
      body += "    }\n";
      for (size_t k = 0; k < results.size(); ++k)
        pool.push_back({resultName(r, k, results.size()), results[k].type, results[k].layout});
      return true;
    }
    case 9: { // a compare in x's layout, its i1 result moved to another layout to select there
      std::vector<Val> same, there;
      int l = *rc::gen::inRange<int>(0, int(layouts.size()));
      for (const Val &v : pool) {
        if (v.type == x.type && v.layout == x.layout)
          same.push_back(v);
        if (v.layout == l)
          there.push_back(v);
      }
      if (l == x.layout || there.empty())
        return false;
      Val y = *rc::gen::elementOf(same), a = *rc::gen::elementOf(there);
      std::vector<Val> sameAsA;
      for (const Val &v : there)
        if (v.type == a.type)
          sameAsA.push_back(v);
      Val bv = *rc::gen::elementOf(sameAsA);
      Val c = emit("i1", x.layout,
                   std::string(f ? "arith.cmpf olt, " : "arith.cmpi slt, ") + x.name + ", " +
                       y.name + " : " + tile(x.type, x.layout));
      Val moved = emit("i1", l,
                       "ttg.convert_layout " + c.name + " : " + tile("i1", x.layout) + " -> " +
                           tile("i1", l));
      emit(a.type, l,
           "arith.select " + moved.name + ", " + a.name + ", " + bv.name + " : " + tile("i1", l) +
               ", " + tile(a.type, l));
      return true;
    }
    default: { // to another element type
      std::string to = *rc::gen::elementOf(kElementTypes);
      std::string op = randomCast(x.type, to);
      if (op.empty())
        return false;
      emit(to, x.layout,
           op + " " + x.name + " : " + tile(x.type, x.layout) + " to " + tile(to, x.layout));
      return true;
    }
    }
  };
  line("%zero", "arith.constant 0 : i32");
  line("%one", "arith.constant 1 : i32");
  line("%pid", "tt.get_program_id x : i32");
  line("%yes", "arith.cmpi eq, %pid, %zero : i32");
  line("%no", "arith.cmpi ne, %pid, %zero : i32");
  const int steps = *rc::gen::inRange(2, 9);
  for (int s = 0, attempt = 0; s < steps && attempt < 200; ++attempt)
    s += step(0);

  std::string params = "%in0: !tt.ptr<i32>, %in1: !tt.ptr<f32>";
  for (size_t i = loaded; i < pool.size(); ++i) {
    const Val &v = pool[i];
    std::string param = "out" + std::to_string(p.outputs.size());
    const std::string memType = v.type == "i1" ? "i8" : v.type; // i1 is stored as a byte
    params += ", %" + param + ": !tt.ptr<" + memType + ">";
    std::string ptr = pointers(param, memType, v.layout);
    std::string value = v.name;
    if (v.type == "i1") {
      value = "%byte" + std::to_string(i);
      line(value,
           "arith.extui " + v.name + " : " + tile("i1", v.layout) + " to " + tile("i8", v.layout));
    }
    body += "    tt.store " + ptr + ", " + value + " : " + ptrTile(memType, v.layout) + "\n";
    p.outputs.push_back({v.name, memType});
  }
  std::string header;
  for (size_t i = 0; i < layouts.size(); ++i)
    header += L(int(i)) + " = " + layouts[i] + "\n";
  for (size_t i = 0; i < sharedLayouts.size(); ++i)
    header += "#s" + std::to_string(i) + " = " + sharedLayouts[i] + "\n";
  if (!sharedLayouts.empty())
    header += "#smem = #ttg.shared_memory\n";
  p.kernel = "tile";
  p.text = header + "module attributes {\"ttg.num-warps\" = " + std::to_string(warps) +
           " : i32} {\n  tt.func public @" + p.kernel + "(" + params + ") {\n" + body +
           "    tt.return\n  }\n}\n";
  return p;
}

// A program made ready to run: its module as written and after the pass pipeline (ir/Pipeline.h:
// coalescing, layout propagation, conversion cleanup, access widths), its start memory, and the
// memory the interpreter leaves from it, running the module as written.
struct PreparedKernel {
  std::vector<ir::Module> modules; // as written, after the pipeline
  ir::Memory start, want;

  static const char *which(size_t module) {
    return module == 0 ? "as written" : "after the pipeline";
  }

  // Lowered for `target` without fma contraction (the interpreter rounds a multiply and an add
  // apart).
  Expected<LoweredKernel> lower(size_t module, PtxTarget target) const {
    LowerOptions o;
    o.target = target;
    o.fpFusion = false;
    return lowerKernel(modules[module], o);
  }
};

// The program prepared, or what failed (parse, verify, pipeline, interpreter), with the program.
inline Expected<PreparedKernel> prepare(const RandomKernel &p) {
  auto fail = [&](const std::string &what) { return makeError(what + "\n" + p.text); };
  auto m = ir::parseModule(p.text, p.kernel + ".tir");
  if (!m.ok())
    return fail(m.message());
  if (Status v = ir::verify(*m); !v.ok())
    return fail(v.message());
  PreparedKernel k;
  k.modules = {*m, *m};
  if (Status s = ir::runPipeline(k.modules[1]); !s.ok())
    return fail("pipeline: " + s.message());
  k.start = p.start();
  k.want = k.start;
  if (Status s = ir::interpret(k.modules[0], p.kernel, p.args(), k.want); !s.ok())
    return fail("interpreter: " + s.message());
  return k;
}

// Without a GPU: the program parses, verifies and runs in the interpreter without an error, the
// pass pipeline keeps what it computes, and both modules lower for sm_80 and sm_90 to PTX that
// ptxas assembles where ptxas is installed. "" when all of that holds, else what failed, with
// the program.
inline std::string interpretLowerAndAssemble(const RandomKernel &p) {
  auto k = prepare(p);
  if (!k.ok())
    return k.message();
  ir::Memory got = k->start;
  ir::InterpreterOptions fenced; // the pipeline ends with fence insertion
  fenced.checkProxyFences = true;
  if (Status s = ir::interpret(k->modules[1], p.kernel, p.args(), got, {}, fenced); !s.ok())
    return "interpreter, after the pipeline: " + s.message() + "\n" + p.text;
  if (std::string diff = p.firstDifference(got, k->want); !diff.empty())
    return "the pipeline changed a result: " + diff + "\n" + p.text;
  for (size_t m = 0; m < k->modules.size(); ++m) {
    for (int sm : {80, 90}) {
      auto lowered = k->lower(m, PtxTarget{sm, 80});
      std::string where = "sm_" + std::to_string(sm) + ", " + PreparedKernel::which(m);
      if (!lowered.ok())
        return where + ": " + lowered.message() + "\n" + p.text;
      if (std::string log = ptxasRejection(lowered->kernel); !log.empty())
        return "ptxas, " + where + ": " + log + "\n" + p.text;
    }
  }
  return "";
}

} // namespace linlayout::lower::testing
