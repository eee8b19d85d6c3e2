// Random elementwise kernels over run-time values, for the tests that hold the lowering to the IR's
// semantics (LowerElementwiseTest: they lower and assemble; LowerGpuTest: on the GPU every value
// they compute is the interpreter's). One program loads tiles of 2-4 random element types (i8 to
// i64, f16, bf16, f32, f64; 1-4 elements per thread, so loads and stores of every vector width)
// and runs 1-10 random steps on them: integer binary ops (divisors made odd so that none is zero),
// float binary ops (min / max of every kind included), negf / absf / floor / ceil / sqrt, compares
// with every predicate and selects on them, and casts between every pair of types (i1 from
// compares included). Each step's result is stored in a buffer of its own. The inputs mix edge
// values (zeros of both signs, infinities, NaN, denormals, the integer extremes) with random ones.
// exp / exp2 / log / rsqrt are left out: the lowering uses the SFU's approximations for them.
#pragma once

#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Type.h"

#include <rapidcheck.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <string>
#include <vector>

namespace linlayout::lower::testing {

struct RandomElementwise {
  struct Value {
    std::string name, type; // "%v3", "f16"
  };
  std::string text;                    // the module, kernel @elementwise
  std::vector<std::string> inputTypes; // one buffer each, then one per output
  std::vector<Value> outputs;          // one per step, in order
  int elements = 128;                  // per tensor (128 threads)

  static bool isFloat(const std::string &t) { return t[0] == 'f' || t == "bf16"; }
  static int bits(const std::string &t) {
    return t == "bf16" ? 16 : t == "i1" ? 1 : std::stoi(t.substr(1));
  }
  static size_t bytes(const std::string &t) { return t == "i1" ? 1 : size_t(bits(t)) / 8; }

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
    if (t == "f64")
      return std::bit_cast<uint64_t>(d);
    float f = float(d);
    uint32_t u = std::bit_cast<uint32_t>(f);
    if (t == "f32")
      return u;
    if (t == "bf16") { // round to nearest even; NaN stays a quiet NaN
      if (std::isnan(f))
        return 0x7fc0;
      return (u + 0x7fff + ((u >> 16) & 1)) >> 16;
    }
    return halfBits(f);
  }

  // f32 -> f16 bits, rounding to nearest even (through the denormal range; NaN a quiet NaN).
  static uint64_t halfBits(float f) {
    uint32_t u = std::bit_cast<uint32_t>(f);
    uint32_t sign = (u >> 16) & 0x8000;
    if (std::isnan(f))
      return sign | 0x7e00;
    float a = std::fabs(f);
    if (a >= 65520.0f)
      return sign | 0x7c00;
    if (a < 6.103515625e-05f) { // denormal or zero: a multiple of 2^-24
      double q = std::nearbyint(double(a) * 16777216.0);
      return sign | uint32_t(q);
    }
    int exp;
    double m = std::frexp(double(a), &exp); // a = m * 2^exp, m in [0.5, 1)
    double q = std::nearbyint(m * 2048.0);  // 11 significant bits
    if (q == 2048.0) {
      q = 1024.0;
      ++exp;
    }
    return sign | (uint32_t(exp + 14) << 10) | (uint32_t(q) - 1024);
  }
};

// How rapidcheck prints a drawn value in a counterexample.
inline void showValue(const RandomElementwise::Value &v, std::ostream &os) {
  os << v.name << " : " << v.type;
}

// A random program (see the file comment).
inline RandomElementwise randomElementwise() {
  RandomElementwise p;
  const std::vector<std::string> intTypes = {"i8", "i16", "i32", "i64"};
  const std::vector<std::string> floatTypes = {"f16", "bf16", "f32", "f64"};
  const std::vector<std::string> allTypes = {"i8",  "i16",  "i32", "i64",
                                             "f16", "bf16", "f32", "f64"};
  const int perThread = *rc::gen::element(1, 2, 4);
  p.elements = 128 * perThread;
  const std::string n = std::to_string(p.elements);
  auto tensor = [&](const std::string &t) { return "tensor<" + n + "x" + t + ", #b>"; };
  auto ptrs = [&](const std::string &t) { return "tensor<" + n + "x!tt.ptr<" + t + ">, #b>"; };

  int inputs = *rc::gen::inRange(2, 5);
  for (int i = 0; i < inputs; ++i)
    p.inputTypes.push_back(*rc::gen::elementOf(allTypes));

  std::vector<RandomElementwise::Value> pool;
  std::string body;
  int counter = 0;
  auto fresh = [&] { return "%v" + std::to_string(counter++); };
  auto emit = [&](const std::string &type, const std::string &expr) {
    RandomElementwise::Value v{fresh(), type};
    body += "    " + v.name + " = " + expr + "\n";
    pool.push_back(v);
    return v;
  };
  auto ofType = [&](auto pred) {
    std::vector<RandomElementwise::Value> out;
    for (const auto &v : pool)
      if (pred(v.type))
        out.push_back(v);
    return out;
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
    auto floats = ofType(RandomElementwise::isFloat);
    auto bools = ofType([](const std::string &t) { return t == "i1"; });
    switch (*rc::gen::inRange(0, 6)) {
    case 0: { // integer binary op
      if (ints.empty())
        continue;
      auto x = *rc::gen::elementOf(ints);
      auto sameType = ofType([&](const std::string &t) { return t == x.type; });
      auto y = *rc::gen::elementOf(sameType);
      std::string op = *rc::gen::element<std::string>(
          "addi", "subi", "muli", "divsi", "divui", "remsi", "remui", "andi", "ori", "xori", "shli",
          "shrsi", "shrui", "minsi", "maxsi", "minui", "maxui");
      if (op.rfind("div", 0) == 0 || op.rfind("rem", 0) == 0) { // no zero divisors
        auto one = emit(x.type, "arith.constant dense<1> : " + tensor(x.type));
        pool.pop_back();
        y = emit(x.type, "arith.ori " + y.name + ", " + one.name + " : " + tensor(x.type));
        pool.pop_back();
      }
      emit(x.type, "arith." + op + " " + x.name + ", " + y.name + " : " + tensor(x.type));
      break;
    }
    case 1: { // float binary op
      if (floats.empty())
        continue;
      auto x = *rc::gen::elementOf(floats);
      auto sameType = ofType([&](const std::string &t) { return t == x.type; });
      auto y = *rc::gen::elementOf(sameType);
      std::string op = *rc::gen::element<std::string>("addf", "subf", "mulf", "divf", "minimumf",
                                                      "maximumf", "minnumf", "maxnumf");
      emit(x.type, "arith." + op + " " + x.name + ", " + y.name + " : " + tensor(x.type));
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
      auto sameType = ofType([&](const std::string &t) { return t == x.type; });
      auto y = *rc::gen::elementOf(sameType);
      RandomElementwise::Value c;
      if (!bools.empty() && *rc::gen::inRange(0, 3) == 0) {
        c = *rc::gen::elementOf(bools);
      } else {
        bool f = RandomElementwise::isFloat(x.type);
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
      std::string to = *rc::gen::elementOf(allTypes);
      bool fromFloat = RandomElementwise::isFloat(x.type), toFloat = RandomElementwise::isFloat(to);
      int fb = RandomElementwise::bits(x.type), tb = RandomElementwise::bits(to);
      std::string op;
      if (fromFloat && toFloat) {
        if (fb == tb)
          continue; // f16 <-> bf16 has no one-op cast
        op = fb < tb ? "arith.extf" : "arith.truncf";
      } else if (!fromFloat && !toFloat) {
        if (fb == tb)
          continue;
        op =
            fb < tb ? *rc::gen::element<std::string>("arith.extsi", "arith.extui") : "arith.trunci";
      } else if (fromFloat) {
        op = *rc::gen::element<std::string>("arith.fptosi", "arith.fptoui");
      } else {
        op = *rc::gen::element<std::string>("arith.sitofp", "arith.uitofp");
      }
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

} // namespace linlayout::lower::testing
