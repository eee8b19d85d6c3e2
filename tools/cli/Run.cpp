// `linlayout run FILE.tir`: runs a kernel on the CPU interpreter (ir/Interpreter.h), the
// reference every pass and GPU kernel is held to, with generated or .npy inputs; --gpu also
// runs it through the jit and compares the two.
#include "Args.h"
#include "Commands.h"
#include "Npy.h"
#include "PipelineFlags.h"

#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"

#ifdef LINLAYOUT_HAS_JIT
#include "linlayout/jit/Compiler.h"
#include "linlayout/jit/KernelArg.h"
#include "linlayout/runtime/DeviceBuffer.h"
#endif

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace linlayout::cli {

namespace {

using ir::ScalarKind;

struct RunArgs {
  std::string file, kernel, grid = "1", outDir, fill = "rand";
  std::vector<std::string> args;
  int64_t size = 0;
  uint64_t seed = 1;
  int print = 8;
  bool passes = false, gpu = false, quiet = false;
  double rtol = -1, atol = -1;
  ir::PipelineOptions pipeline;
};

// One kernel parameter as `run` sees it.
struct Param {
  std::string name; // without the '%'
  ir::Type type;
};

// NumPy's name for an element kind. NumPy has no bf16 or 8-bit floats: their bits go as
// unsigned integers of their width.
std::string npyDescr(ScalarKind k) {
  switch (k) {
  case ScalarKind::I1:
    return "|b1";
  case ScalarKind::I8:
    return "|i1";
  case ScalarKind::I16:
    return "<i2";
  case ScalarKind::I32:
    return "<i4";
  case ScalarKind::I64:
    return "<i8";
  case ScalarKind::F16:
    return "<f2";
  case ScalarKind::BF16:
    return "<u2";
  case ScalarKind::F32:
    return "<f4";
  case ScalarKind::F64:
    return "<f8";
  case ScalarKind::F8E4M3FN:
  case ScalarKind::F8E5M2:
    return "|u1";
  }
  return "|u1";
}

uint64_t loadBits(const std::vector<uint8_t> &buf, int64_t i, int bytes) {
  uint64_t v = 0;
  std::memcpy(&v, buf.data() + i * bytes, size_t(bytes));
  return v;
}

void storeBits(std::vector<uint8_t> &buf, int64_t i, int bytes, uint64_t v) {
  std::memcpy(buf.data() + i * bytes, &v, size_t(bytes));
}

double halfValue(uint64_t h) {
  int e = int(h >> 10 & 31);
  double m = double(h & 1023);
  double v = e == 0    ? std::ldexp(m, -24)
             : e == 31 ? (m ? NAN : INFINITY)
                       : std::ldexp(1024 + m, e - 25);
  return h & 0x8000 ? -v : v;
}

double fp8Value(uint64_t b, ScalarKind k) {
  if (k == ScalarKind::F8E5M2)
    return halfValue(b << 8);
  // e4m3fn: bias 7, no infinities, S.1111.111 is NaN.
  int e = int(b >> 3 & 15);
  double m = double(b & 7);
  double v = (b & 0x7f) == 0x7f ? NAN : e == 0 ? std::ldexp(m, -9) : std::ldexp(8 + m, e - 10);
  return b & 0x80 ? -v : v;
}

// The value of element i of a buffer of kind k, as a double (integers sign-extended).
double elementValue(const std::vector<uint8_t> &buf, int64_t i, ScalarKind k) {
  int bytes = ir::byteWidth(k);
  uint64_t v = loadBits(buf, i, bytes);
  switch (k) {
  case ScalarKind::I1:
    return double(v & 1);
  case ScalarKind::I8:
    return double(int8_t(v));
  case ScalarKind::I16:
    return double(int16_t(v));
  case ScalarKind::I32:
    return double(int32_t(v));
  case ScalarKind::I64:
    return double(int64_t(v));
  case ScalarKind::F16:
    return halfValue(v);
  case ScalarKind::BF16: {
    uint32_t w = uint32_t(v) << 16;
    float f;
    std::memcpy(&f, &w, 4);
    return f;
  }
  case ScalarKind::F32: {
    float f;
    uint32_t w = uint32_t(v);
    std::memcpy(&f, &w, 4);
    return f;
  }
  case ScalarKind::F64: {
    double d;
    std::memcpy(&d, &v, 8);
    return d;
  }
  case ScalarKind::F8E4M3FN:
  case ScalarKind::F8E5M2:
    return fp8Value(v, k);
  }
  return 0;
}

// The bits of x as element kind k (integers wrap; floats round as the interpreter rounds).
uint64_t elementBits(double x, ScalarKind k) {
  if (ir::isInt(k))
    return k == ScalarKind::I1 ? uint64_t(int64_t(x) & 1) : uint64_t(int64_t(x));
  if (ir::isFp8(k)) {
    // The nearest code, found among the 256: generation only, so simplicity wins.
    uint64_t best = 0;
    for (uint64_t c = 0; c < 256; ++c) {
      double v = fp8Value(c, k);
      if (!std::isnan(v) && std::fabs(v - x) < std::fabs(fp8Value(best, k) - x))
        best = c;
    }
    return best;
  }
  return ir::floatBits(x, k);
}

// A buffer of n elements of kind k: rand (uniform in [-1, 1) for floats, [-64, 64) for integers,
// 0 or 1 for i1), iota (0, 1, 2, ...) or zeros.
Expected<std::vector<uint8_t>> generate(const std::string &how, int64_t n, ScalarKind k,
                                        std::mt19937_64 &rng) {
  int bytes = ir::byteWidth(k);
  std::vector<uint8_t> buf(size_t(n * bytes), 0);
  if (how == "zeros")
    return buf;
  if (how != "rand" && how != "iota")
    return makeError("unknown fill '" + how + "' (rand, iota, zeros)");
  for (int64_t i = 0; i < n; ++i) {
    double x;
    if (how == "iota")
      x = double(i);
    else if (k == ScalarKind::I1)
      x = double(rng() & 1);
    else if (ir::isInt(k))
      x = double(int64_t(rng() % 128) - 64);
    else
      x = double(int64_t(rng() >> 11)) * 0x1p-52 - 1.0;
    storeBits(buf, i, bytes, elementBits(x, k));
  }
  return buf;
}

std::string paramText(const Param &p) {
  if (p.type.isTensorDesc())
    return "%" + p.name + ": !tt.tensordesc<tensor<" + shapeString(p.type.shape()) + "x" +
           std::string(ir::name(p.type.elem().scalar)) + ">>";
  if (p.type.isPointer())
    return "%" + p.name + ": !tt.ptr<" + std::string(ir::name(p.type.elem().scalar)) + ">";
  return "%" + p.name + ": " + std::string(ir::name(p.type.elem().scalar));
}

// Whether `how` (an --arg value) names a .npy file.
bool isNpyPath(const std::string &how) { return how.size() > 4 && how.ends_with(".npy"); }

// The array of the .npy file at `path`, as the input of a buffer of kind k: an error naming the
// file where it cannot be read or holds another dtype.
Expected<NpyArray> readNpyInput(const std::string &path, ScalarKind k) {
  LL_ASSIGN_OR_RETURN(auto bytes, readFile(path));
  auto arr = parseNpy(bytes);
  if (!arr.ok())
    return makeError(path + ": " + arr.message());
  if (arr->descr != npyDescr(k) && !(arr->descr == "|u1" && k == ScalarKind::I8) &&
      !(arr->descr == "|i1" && k == ScalarKind::I1))
    return makeError(path + " holds dtype '" + arr->descr + "', the parameter needs '" +
                     npyDescr(k) + "'");
  return arr;
}

// Whether an argument is a buffer the kernel may write: a pointer's or a descriptor's tensor.
bool holdsBuffer(const ir::ArgValue &v) {
  return v.kind == ir::ArgValue::Pointer || v.kind == ir::ArgValue::TensorDesc;
}

// What one --arg NAME=VALUE gives a parameter.
struct ArgInit {
  std::string value; // VALUE
  bool given = false;
};

Expected<ir::Grid> parseGrid(const std::string &text) {
  auto s = parseShape(text);
  if (!s.ok() || s->size() > 3)
    return makeError("--grid takes 1 to 3 program counts like 4 or 4x2, not '" + text + "'");
  ir::Grid g;
  g.x = (*s)[0];
  if (s->size() > 1)
    g.y = (*s)[1];
  if (s->size() > 2)
    g.z = (*s)[2];
  if (g.x > (int64_t(1) << 31) - 1 || g.y > 65535 || g.z > 65535)
    return makeError("--grid '" + text + "' is larger than a GPU launches");
  return g;
}

// The summary line of one buffer; a descriptor's tensor shows its dims (`dims`, like 256x64).
std::string summarize(const std::string &name, const std::vector<uint8_t> &buf,
                      const std::vector<uint8_t> &before, ScalarKind k, int print,
                      const std::string &dims = "") {
  int bytes = ir::byteWidth(k);
  int64_t n = int64_t(buf.size()) / bytes;
  int64_t changed = 0;
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  int64_t nans = 0;
  for (int64_t i = 0; i < n; ++i) {
    changed += loadBits(buf, i, bytes) != loadBits(before, i, bytes);
    double v = elementValue(buf, i, k);
    if (std::isnan(v)) {
      ++nans;
      continue;
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    sum += v;
  }
  std::ostringstream os;
  os.precision(6);
  os << "%" << name << ": " << (dims.empty() ? std::to_string(n) : dims) << " x " << ir::name(k)
     << ", " << changed << (changed == 1 ? " element" : " elements") << " written";
  if (n) {
    os << "; min " << lo << ", max " << hi << ", sum " << sum;
    if (nans)
      os << ", " << nans << " NaN";
  }
  if (print > 0 && n) {
    os << "\n  [";
    for (int64_t i = 0; i < std::min<int64_t>(n, print); ++i)
      os << (i ? ", " : "") << elementValue(buf, i, k);
    os << (n > print ? ", ...]" : "]");
  }
  return os.str();
}

#ifdef LINLAYOUT_HAS_JIT
// Runs the kernel through the jit on the GPU with the same inputs and compares its buffers with
// the interpreter's. Returns the exit status.
int runOnGpu(const RunArgs &a, const ir::Module &module, const std::vector<Param> &params,
             const std::vector<ir::ArgValue> &args, const std::vector<std::vector<uint8_t>> &inputs,
             const ir::Memory &cpu, const ir::Grid &grid) {
  auto jitc = jit::Compiler::create();
  if (!jitc.ok()) {
    std::cerr << "linlayout run: --gpu: no GPU to run on: " << jitc.message()
              << " (the CPU interpreter's results above stand alone)\n";
    return 1;
  }
  jit::CompileOptions o;
  o.kernel = a.kernel;
  // Adds and multiplies rounded one at a time, as the interpreter rounds them.
  o.fpFusion = false;
  static_cast<ir::PipelineOptions &>(o) = a.pipeline;
  o.dumpAfterEach = nullptr;
  auto k = jitc->compile(module, o);
  if (!k.ok()) {
    std::cerr << "linlayout run: --gpu: " << k.message() << "\n";
    return 1;
  }
  std::vector<runtime::DeviceBuffer> device;
  std::vector<jit::KernelArg> kargs;
  for (size_t i = 0; i < params.size(); ++i) {
    const ir::ArgValue &v = args[i];
    jit::KernelArg ka;
    if (holdsBuffer(v)) {
      auto b = runtime::DeviceBuffer::fromHost<uint8_t>(inputs[v.buffer]);
      if (!b.ok()) {
        std::cerr << "linlayout run: --gpu: " << b.message() << "\n";
        return 1;
      }
      device.push_back(std::move(*b));
      // The buffer's address, or for a descriptor the kernel's box, swizzle and element type
      // over the row-major tensor (a pointer has no dims).
      const int64_t bytes = ir::byteWidth(params[i].type.elem().scalar);
      std::vector<uint64_t> dims, strideBytes;
      for (size_t d = 0; d < v.dims.size(); ++d) {
        dims.push_back(uint64_t(v.dims[d]));
        if (d + 1 < v.dims.size())
          strideBytes.push_back(uint64_t(v.strides[d] * bytes));
      }
      auto arg = jit::tensorArgFor((*k)->metadata().params.at(i), device.back(), std::move(dims),
                                   std::move(strideBytes));
      if (!arg.ok()) {
        std::cerr << "linlayout run: --gpu: %" << params[i].name << ": " << arg.message() << "\n";
        return 1;
      }
      ka = *arg;
    } else if (v.kind == ir::ArgValue::Int) {
      int bits = ir::bitWidth(params[i].type.elem().scalar);
      ka.kind = lower::ParamKind::Int;
      ka.bits = std::max(8, bits);
      ka.raw = bits >= 64 ? uint64_t(v.i) : uint64_t(v.i) & ((uint64_t(1) << ka.bits) - 1);
    } else {
      ka = params[i].type.elem().scalar == ScalarKind::F64 ? jit::KernelArg::of(v.f)
                                                           : jit::KernelArg::of(float(v.f));
    }
    kargs.push_back(ka);
  }
  Status s = (*k)->launchArgs({unsigned(grid.x), unsigned(grid.y), unsigned(grid.z)}, kargs,
                              runtime::Stream::null());
  if (s.ok())
    s = jitc->context().synchronize();
  if (!s.ok()) {
    std::cerr << "linlayout run: --gpu: " << s.message() << "\n";
    return 1;
  }
  int status = 0;
  size_t d = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!holdsBuffer(args[i]))
      continue;
    const runtime::DeviceBuffer &buf = device[d++];
    const std::vector<uint8_t> &want = cpu.buffers[args[i].buffer];
    std::vector<uint8_t> got(want.size());
    if (Status c = buf.copyToHost(got.data(), got.size()); !c.ok()) {
      std::cerr << "linlayout run: --gpu: " << c.message() << "\n";
      return 1;
    }
    ScalarKind k = params[i].type.elem().scalar;
    int bytes = ir::byteWidth(k);
    int64_t n = int64_t(want.size()) / bytes;
    if (got == want) {
      std::cout << "gpu %" << params[i].name << ": identical to the interpreter's (" << n
                << " elements)\n";
      continue;
    }
    bool isF = ir::isFloat(k);
    double rtol = a.rtol >= 0            ? a.rtol
                  : k == ScalarKind::F64 ? 1e-9
                  : k == ScalarKind::F32 ? 1e-5
                                         : 1e-2;
    double atol = a.atol >= 0            ? a.atol
                  : k == ScalarKind::F64 ? 1e-12
                  : k == ScalarKind::F32 ? 1e-6
                                         : 1e-3;
    int64_t bad = 0, differ = 0, first = -1;
    double worst = 0;
    for (int64_t e = 0; e < n; ++e) {
      if (loadBits(got, e, bytes) == loadBits(want, e, bytes))
        continue;
      ++differ;
      double g = elementValue(got, e, k), w = elementValue(want, e, k);
      bool ok = isF && ((std::isnan(g) && std::isnan(w)) ||
                        std::fabs(g - w) <= atol + rtol * std::fabs(w));
      if (isF && !std::isnan(g) && !std::isnan(w))
        worst = std::max(worst, std::fabs(g - w));
      if (!ok && first < 0)
        first = e;
      bad += !ok;
    }
    if (!bad) {
      std::cout << "gpu %" << params[i].name << ": " << differ << " of " << n
                << " elements differ in their bits, all within |gpu - cpu| <= " << atol << " + "
                << rtol << " * |cpu| (largest difference " << worst << ")\n";
      continue;
    }
    status = 1;
    std::cout << "gpu %" << params[i].name << ": " << bad << " of " << n << " elements differ"
              << (isF ? " beyond the tolerance" : "") << "; the first, element " << first
              << ": gpu " << elementValue(got, first, k) << ", cpu " << elementValue(want, first, k)
              << "\n";
  }
  return status;
}
#endif

int runKernel(RunArgs &a) {
  auto text = readFile(a.file);
  if (!text.ok()) {
    std::cerr << "linlayout run: " << text.message() << "\n";
    return 1;
  }
  auto module = ir::parseModule(*text, a.file);
  if (!module.ok()) {
    std::cerr << module.message() << "\n";
    return 1;
  }
  auto grid = parseGrid(a.grid);
  if (!grid.ok()) {
    std::cerr << "linlayout run: " << grid.message() << "\n";
    return 2;
  }
  // The kernel: the one named, else the only public function.
  const ir::Function *fn = nullptr;
  if (!a.kernel.empty()) {
    fn = module->function(a.kernel);
    if (!fn) {
      std::cerr << "linlayout run: " << a.file << " has no function '" << a.kernel << "'\n";
      return 1;
    }
  } else {
    for (const ir::Function &f : module->functions)
      if (f.isPublic) {
        if (fn) {
          std::cerr << "linlayout run: " << a.file << " has several public functions ('" << fn->name
                    << "', '" << f.name << "'); name one with --kernel\n";
          return 2;
        }
        fn = &f;
      }
    if (!fn) {
      std::cerr << "linlayout run: " << a.file << " has no public function\n";
      return 1;
    }
  }
  std::vector<Param> params;
  for (ir::ValueId v : fn->body.args)
    params.push_back({fn->values[v].name, fn->type(v)});

  // --arg NAME=VALUE, by name (with or without the '%').
  std::vector<ArgInit> inits(params.size());
  for (const std::string &s : a.args) {
    size_t eq = s.find('=');
    std::string name = s.substr(0, eq);
    if (!name.empty() && name[0] == '%')
      name.erase(0, 1);
    if (eq == std::string::npos || eq + 1 == s.size()) {
      std::cerr << "linlayout run: --arg takes NAME=VALUE, not '" << s << "'\n";
      return 2;
    }
    size_t i = 0;
    while (i < params.size() && params[i].name != name)
      ++i;
    if (i == params.size()) {
      std::cerr << "linlayout run: '" << fn->name << "' has no parameter %" << name
                << " (its parameters:";
      for (const Param &p : params)
        std::cerr << " %" << p.name;
      std::cerr << ")\n";
      return 2;
    }
    inits[i] = {s.substr(eq + 1), true};
  }

  std::mt19937_64 rng(a.seed);
  ir::Memory memory;
  std::vector<ir::ArgValue> args;
  for (size_t i = 0; i < params.size(); ++i) {
    const Param &p = params[i];
    const ArgInit &init = inits[i];
    // 2 where the command line falls short, 1 where a file does.
    auto fail = [&](const std::string &why, int code = 2) {
      std::cerr << "linlayout run: " << paramText(p) << ": " << why << "\n";
      return code;
    };
    if (p.type.isTensorDesc()) {
      // A row-major tensor of the dims given (outermost first), at the start of its buffer.
      ScalarKind k = p.type.elem().scalar;
      const size_t rank = p.type.shape().size();
      const std::string form = "a tensor of rank " + std::to_string(rank) + ": --arg " + p.name +
                               "=rand:DIMS (or iota:DIMS, zeros:DIMS; DIMS like 256x64, "
                               "outermost first) or FILE.npy";
      if (!init.given)
        return fail("needs " + form);
      std::vector<int64_t> dims;
      std::vector<uint8_t> buf;
      const std::string &how = init.value;
      const bool file = isNpyPath(how);
      const size_t colon = how.find(':');
      if (file) {
        auto arr = readNpyInput(how, k);
        if (!arr.ok())
          return fail(arr.message(), 1);
        dims = arr->shape;
        buf = std::move(arr->data);
      } else {
        if (colon == std::string::npos)
          return fail("'" + how + "' is not " + form);
        auto shape = parseShape(std::string_view(how).substr(colon + 1));
        if (!shape.ok())
          return fail("'" + how + "' is not " + form);
        dims = std::move(*shape);
      }
      if (dims.size() != rank)
        return fail("'" + how + "' has " + std::to_string(dims.size()) +
                    (dims.size() == 1 ? " dim" : " dims") + "; the descriptor needs " + form);
      int64_t n = 1;
      for (int64_t d : dims) {
        if (d < 1 || d > (int64_t(1) << 32) / n)
          return fail("'" + how + "': every dim at least 1, and at most 2^32 elements in all");
        n *= d;
      }
      if (!file) {
        auto g = generate(how.substr(0, colon), n, k, rng);
        if (!g.ok())
          return fail(g.message());
        buf = std::move(*g);
      }
      std::vector<int64_t> strides = ir::rowMajorStrides(dims);
      args.push_back(ir::ArgValue::tensorDesc(uint32_t(memory.buffers.size()), std::move(dims),
                                              std::move(strides)));
      memory.buffers.push_back(std::move(buf));
      continue;
    }
    if (p.type.isPointer()) {
      ScalarKind k = p.type.elem().scalar;
      std::string how = init.given ? init.value : a.fill;
      int64_t n = a.size;
      size_t colon = how.find(':');
      std::vector<uint8_t> buf;
      if (init.given && isNpyPath(how)) {
        auto arr = readNpyInput(how, k);
        if (!arr.ok())
          return fail(arr.message(), 1);
        buf = std::move(arr->data);
      } else {
        if (colon != std::string::npos) {
          auto c = parseCount(std::string_view(how).substr(colon + 1), int64_t(1) << 32);
          if (!c || *c == 0)
            return fail("'" + how + "' needs an element count after ':' (like rand:4096)");
          n = *c;
          how = how.substr(0, colon);
        }
        if (n == 0)
          return fail("needs a buffer: --arg " + p.name +
                      "=rand:N (or iota:N, zeros:N, "
                      "FILE.npy), or --size N for every pointer");
        auto g = generate(how, n, k, rng);
        if (!g.ok())
          return fail(g.message());
        buf = std::move(*g);
      }
      args.push_back(ir::ArgValue::pointer(uint32_t(memory.buffers.size())));
      memory.buffers.push_back(std::move(buf));
      continue;
    }
    if (!init.given)
      return fail("needs a value: --arg " + p.name + "=VALUE");
    if (p.type.isFloatLike()) {
      try {
        size_t used = 0;
        double v = std::stod(init.value, &used);
        if (used != init.value.size())
          throw std::invalid_argument("trailing");
        args.push_back(ir::ArgValue::floating(v));
      } catch (const std::exception &) {
        return fail("'" + init.value + "' is not a number");
      }
    } else {
      std::string_view v = init.value;
      bool negative = v.starts_with('-');
      auto c = parseCount(negative ? v.substr(1) : v);
      if (!c)
        return fail("'" + init.value + "' is not an integer");
      args.push_back(ir::ArgValue::integer(negative ? -*c : *c));
    }
  }
  const std::vector<std::vector<uint8_t>> inputs = memory.buffers;

  ir::Module toRun = *module;
  ir::InterpreterOptions io;
  if (a.passes) {
    Status s = ir::runPipeline(toRun, a.pipeline);
    if (!s.ok()) {
      std::cerr << s.message() << "\n";
      return 1;
    }
    io.checkProxyFences = true;
  }
  Status s = ir::interpret(toRun, fn->name, args, memory, *grid, io);
  if (!s.ok()) {
    std::cerr << "linlayout run: " << s.message() << "\n";
    return 1;
  }
  if (!a.quiet)
    std::cout << "ran " << fn->name << " on the CPU interpreter, " << grid->x * grid->y * grid->z
              << (grid->x * grid->y * grid->z == 1 ? " program" : " programs")
              << (a.passes ? " (after the pass pipeline)" : "") << "\n";
  if (!a.outDir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.outDir, ec);
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (!holdsBuffer(args[i]))
      continue;
    ScalarKind k = params[i].type.elem().scalar;
    const std::vector<uint8_t> &buf = memory.buffers[args[i].buffer];
    if (!a.quiet)
      std::cout << summarize(params[i].name, buf, inputs[args[i].buffer], k, a.print,
                             args[i].dims.empty() ? "" : shapeString(args[i].dims))
                << "\n";
    if (!a.outDir.empty()) {
      // A descriptor's tensor keeps its dims; a pointer's buffer is flat.
      std::vector<int64_t> shape =
          args[i].kind == ir::ArgValue::TensorDesc
              ? args[i].dims
              : std::vector<int64_t>{int64_t(buf.size()) / ir::byteWidth(k)};
      NpyArray arr{npyDescr(k), shape, buf};
      std::string path = (std::filesystem::path(a.outDir) / (params[i].name + ".npy")).string();
      Status w = writeFile(path, formatNpy(arr));
      if (!w.ok()) {
        std::cerr << "linlayout run: " << w.message() << "\n";
        return 1;
      }
    }
  }
  if (!a.gpu)
    return 0;
#ifdef LINLAYOUT_HAS_JIT
  return runOnGpu(a, *module, params, args, inputs, memory, *grid);
#else
  std::cerr << "linlayout run: --gpu: this build has no jit (LLVM 19 was not found, so nothing "
               "lowers to PTX); the CPU interpreter's results above stand alone\n";
  return 1;
#endif
}

} // namespace

void addRunCommand(CLI::App &app, int &status) {
  CLI::App *cmd = app.add_subcommand(
      "run", "Run a tile-IR kernel on the CPU interpreter (the reference the compiler is held "
             "to); --gpu also runs it on the GPU and compares.");
  auto a = std::make_shared<RunArgs>();
  cmd->add_option("FILE", a->file, "the tile-IR module (.tir or a TritonGPU dump)")->required();
  cmd->add_option("--kernel", a->kernel, "the function to run (default: the only public one)");
  cmd->add_option("--grid", a->grid, "programs along x, y, z, like 4 or 4x2")
      ->type_name("X[xY[xZ]]")
      ->capture_default_str();
  cmd->add_option("-a,--arg", a->args,
                  "a parameter's value, by name: a number for an integer or float; for a "
                  "pointer, rand:N, iota:N or zeros:N (N elements) or FILE.npy; for a tensor "
                  "descriptor, a row-major tensor: rand:DIMS, iota:DIMS or zeros:DIMS (like "
                  "256x64, outermost first) or FILE.npy (its shape)")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false); // one value per --arg: a file after it stays the positional
  cmd->add_option("--size", a->size,
                  "elements of every pointer buffer no --arg gives, filled as --fill says")
      ->type_name("N")
      ->check(CLI::Range(int64_t(1), int64_t(1) << 32));
  cmd->add_option("--fill", a->fill,
                  "how buffers of --size are filled: rand (uniform in [-1, 1) for floats, "
                  "[-64, 64) for integers), iota (0, 1, 2, ...) or zeros")
      ->capture_default_str()
      ->check(CLI::IsMember({"rand", "iota", "zeros"}));
  cmd->add_option("--seed", a->seed, "the random generator's seed")->capture_default_str();
  cmd->add_option(
         "-o,--out", a->outDir,
         "write every pointer and descriptor buffer after the run to DIR/NAME.npy (bf16 and 8-bit "
         "floats as their bits: uint16 / uint8)")
      ->type_name("DIR");
  cmd->add_option("--print", a->print, "elements of each buffer to print (0: none)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1 << 20));
  cmd->add_flag("-q,--quiet", a->quiet, "print no summaries (with --out or --gpu)");
  cmd->add_flag("--passes", a->passes,
                "run the pass pipeline first (the result must not change: the passes move "
                "layouts, not values)");
  addPipelineFlags(*cmd, a->pipeline);
  cmd->add_flag("--gpu", a->gpu,
                "also compile the kernel with the jit (no fma contraction), run it on GPU 0 with "
                "the same inputs and compare: integers and moves bit for bit, floats within "
                "|gpu - cpu| <= atol + rtol * |cpu|");
  cmd->add_option("--rtol", a->rtol,
                  "relative tolerance for floats (default: 1e-5 f32, 1e-2 f16 / bf16 / f8, 1e-9 "
                  "f64)");
  cmd->add_option("--atol", a->atol,
                  "absolute tolerance for floats (default: 1e-6 f32, 1e-3 f16 / bf16 / f8, "
                  "1e-12 f64)");
  cmd->footer("Example: linlayout run examples/memcpy_1d.tir --grid 4 --size 4096 --arg n=4000");
  cmd->callback([a, &status] { status = runKernel(*a); });
}

} // namespace linlayout::cli
