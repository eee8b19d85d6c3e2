// linlayout_gpu_bench: the GPU side of docs/performance.md, measured the way the Triton reference
// scripts measure (triton.testing.do_bench): warm-up, then many single launches, each timed with
// device events after the L2 cache was flushed by writing a 256 MiB buffer; the median is kept.
// Kernels are compiled with jit::Compiler from tile IR (testing/kernels/TileKernels.h and
// examples/matmul.tir), checked once against the input, then timed.
//
//   linlayout_gpu_bench [--json FILE] [--only SECTION] [--ptx-dir DIR] [--variant V]
//     (sections: copy, convert, paths, padding, gemm, attention, peak, scan, i8gemm; --ptx-dir
//     writes each conversion kernel's PTX there, to compare its SASS with Triton's:
//     bench/gpu/run.sh disassembles both;
//     --variant runs one GEMM variant, or one paths kernel named as its PTX file is,
//     seed2-194_float16_auto)
//
// This is a plain program rather than a Google Benchmark file: every number is a median of
// device-event times of single launches with a cache flush in between, which is what the Triton
// side does, and what Google Benchmark's host-clock loop would not reproduce.
#include "kernels/Fp8.h"
#include "kernels/MatmulText.h"
#include "kernels/TileKernels.h"

#include "linlayout/ir/InsertFences.h"
#include "linlayout/ir/Interpreter.h"
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Prefetch.h"
#include "linlayout/ir/SoftwarePipeline.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/jit/Compiler.h"
#include "linlayout/layout/PlanConversion.h"
#include "linlayout/runtime/DeviceBuffer.h"
#include "linlayout/runtime/Launch.h"
#include "linlayout/runtime/Module.h"
#include "linlayout/runtime/Stream.h"
#include "query/JsonUtil.h"
#include "query/SpecJson.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace linlayout;
using namespace linlayout::gpukernels;
using ir::ScalarKind;

#ifndef LINLAYOUT_SOURCE_DIR
#define LINLAYOUT_SOURCE_DIR "."
#endif

namespace {

// A tiny JSON writer: records are flat objects of numbers and strings.
struct Json {
  std::vector<std::string> records;
  std::string cur;
  void begin() { cur = "{"; }
  void field(const std::string &k, const std::string &v) {
    std::string e;
    for (char c : v)
      e += (c == '"' || c == '\\') ? std::string("\\") + c
                                   : (c == '\n' ? std::string("\\n") : std::string(1, c));
    add("\"" + k + "\": \"" + e + "\"");
  }
  void field(const std::string &k, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, std::isfinite(v) ? "%.6g" : "null", v);
    add("\"" + k + "\": " + buf);
  }
  void add(const std::string &kv) { cur += (cur.size() > 1 ? ", " : "") + kv; }
  void end() { records.push_back(cur + "}"); }
  std::string text() const {
    std::string s = "[\n";
    for (size_t i = 0; i < records.size(); ++i)
      s += " " + records[i] + (i + 1 < records.size() ? ",\n" : "\n");
    return s + "]\n";
  }
};

#define CHECK(expr)                                                                                \
  do {                                                                                             \
    auto &&st_ = (expr);                                                                           \
    if (!st_.ok()) {                                                                               \
      std::fprintf(stderr, "error: %s: %s\n", #expr, st_.message().c_str());                       \
      return false;                                                                                \
    }                                                                                              \
  } while (0)

// The benchmark harness: flushes L2 and times single launches with events.
struct Bench {
  jit::Compiler &jit;
  runtime::DeviceBuffer flush;
  Json json;
  std::string error;
  std::string ptxDir;  // where conversion kernels' PTX goes ("" for nowhere)
  std::string variant; // the one gemm variant, or paths kernel (NAME_DTYPE_PATH, as in the
                       // PTX file names), to run ("" for all), e.g. for a profiler
  // The GEMM inputs of each element type and size, made once and shared by every variant (the
  // random numbers for two 8192 x 8192 matrices take seconds on the host).
  struct GemmInputs {
    std::vector<uint16_t> a, b;
    runtime::DeviceBuffer da, db;
  };
  std::map<std::pair<int, int64_t>, GemmInputs> gemmInputs;
  // The fp8 GEMMs' e4m3 inputs of each size: A n x n and B given as N x K (torch._scaled_mm's
  // column-major B), bytes.
  struct Fp8Inputs {
    std::vector<uint8_t> a, b;
    runtime::DeviceBuffer da, db;
  };
  std::map<int64_t, Fp8Inputs> fp8Inputs;

  // Median milliseconds of `fn`, as triton.testing.do_bench measures it: `warmupMs` of warm-up,
  // then about `repMs` of timed single runs (at least 10), each after an L2 flush, all queued
  // before the host waits: per run a flush, a start event, the launch and a stop event, then one
  // synchronize, so that no host latency can fall between a run's events. (Waiting for each run
  // before queueing the next measured the same GEMMs within 1 %: bench/gpu/results/
  // h200-2026-12-04-gemm-unlocked/harness.) Returns NaN on a failure.
  // LINLAYOUT_BENCH_WARMUP_MS lengthens the warm-up (back-to-back launches): a sustained load,
  // long enough for the card's power average to settle before the timed runs (clocks.sh).
  double time(const std::function<Status()> &fn, double warmupMs = 25, double repMs = 200) {
    if (const char *env = std::getenv("LINLAYOUT_BENCH_WARMUP_MS"))
      warmupMs = std::max(warmupMs, std::atof(env));
    const runtime::Stream stream = runtime::Stream::null();
    // Queues `reps` flushed runs and returns their times, sorted.
    auto runs = [&](int reps) -> std::vector<double> {
      while (int(starts.size()) < reps) {
        auto s = runtime::Event::create();
        auto e = runtime::Event::create();
        if (!s.ok() || !e.ok())
          return {};
        starts.push_back(std::move(*s));
        stops.push_back(std::move(*e));
      }
      for (int i = 0; i < reps; ++i)
        if (!flush.fill(0, stream).ok() || !starts[i].record(stream).ok() || !fn().ok() ||
            !stops[i].record(stream).ok())
          return {};
      if (!stops[reps - 1].synchronize().ok())
        return {};
      std::vector<double> t;
      for (int i = 0; i < reps; ++i) {
        auto ms = runtime::Event::elapsedMs(starts[i], stops[i]);
        if (!ms.ok())
          return {};
        t.push_back(double(*ms));
      }
      std::sort(t.begin(), t.end());
      return t;
    };
    Status first = fn();
    if (!first.ok()) {
      error = first.message();
      return NAN;
    }
    std::vector<double> probe = runs(5);
    if (probe.empty())
      return NAN;
    const double est = probe[2];
    int warm = std::max(1, int(std::min(warmupMs / std::max(est, 1e-3), 1e6)));
    int reps = std::clamp(int(repMs / std::max(est, 1e-3)), 10, 2000);
    for (int i = 0; i < warm; ++i)
      if (!fn().ok())
        return NAN;
    std::vector<double> t = runs(reps);
    return t.empty() ? NAN : t[t.size() / 2];
  }
  // The events of time()'s runs, made once.
  std::vector<runtime::Event> starts, stops;
};

// The kernels are measured as built: their layouts are the point of each benchmark.
jit::CompileOptions asBuilt() {
  jit::CompileOptions o;
  o.runPasses = false;
  return o;
}

// Copies are also measured as a user compiles them: the pass pipeline first (the default).
jit::CompileOptions compiled() { return jit::CompileOptions{}; }

const char *variantName(bool passes) { return passes ? "compiled" : "as written"; }

double tbps(double bytesMoved, double ms) { return bytesMoved / (ms * 1e-3) / 1e12; }

std::vector<uint8_t> randomBytes(std::mt19937_64 &rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i += 8) {
    uint64_t x = rng();
    std::memcpy(v.data() + i, &x, std::min<size_t>(8, n - i));
  }
  return v;
}

void kernelFields(Json &j, const jit::Kernel &k) {
  const jit::KernelMetadata &md = k.metadata();
  j.field("registers", md.registers);
  j.field("shared_bytes", double(md.dynamicSharedBytes + md.staticSharedBytes));
  j.field("local_bytes", md.localBytes);
  j.field("ctas_per_sm", md.ctasPerSm);
  if (md.maxActiveClusters > 0)
    j.field("max_active_clusters", md.maxActiveClusters);
  j.field("compile_ms", md.lowerMs + md.jitMs);
  std::string paths;
  for (const auto &c : md.conversions)
    paths += (paths.empty() ? "" : "+") + c.path;
  if (!paths.empty())
    j.field("paths", paths);
  auto count = [&](const char *what) {
    int n = 0;
    for (size_t p = k.ptx().find(what); p != std::string::npos; p = k.ptx().find(what, p + 1))
      ++n;
    return n;
  };
  for (const char *w : {"shfl.sync", "st.shared", "ld.shared", "bar.sync", "ldmatrix", "stmatrix",
                        "prmt", "mma.sync"})
    j.field(std::string("ptx_") + w, count(w));
}

bool copySection(Bench &b, std::mt19937_64 &rng) {
  // Device-to-device copy: the ceiling. 2^30 floats (4 GiB) each way, bytes read + written.
  const size_t n = size_t(1) << 30, bytes = n * 4;
  auto x = runtime::DeviceBuffer::allocate(bytes);
  auto y = runtime::DeviceBuffer::allocate(bytes);
  CHECK(x);
  CHECK(y);
  {
    // Random data, staged through one 64 MiB buffer.
    std::vector<uint8_t> chunk = randomBytes(rng, size_t(64) << 20);
    auto stage = runtime::DeviceBuffer::fromHost<uint8_t>(chunk);
    CHECK(stage);
    auto api = runtime::driver();
    CHECK(api);
    for (size_t off = 0; off < bytes; off += chunk.size())
      CHECK(runtime::check((*api)->cuMemcpyDtoD(x->ptr() + off, stage->ptr(), chunk.size()),
                           "cuMemcpyDtoD"));
  }
  double dd = b.time([&] { return y->copyFrom(*x, bytes); });
  b.json.begin();
  b.json.field("bench", "device_copy");
  b.json.field("ms", dd);
  b.json.field("TBps", tbps(2.0 * bytes, dd));
  b.json.end();
  std::printf("device copy            %7.3f ms  %6.3f TB/s\n", dd, tbps(2.0 * bytes, dd));

  // 1-D memcpy over XBLOCK and size_per_thread R, as the Gluon tutorial; each kernel as written
  // (its layout as given, like Gluon) and compiled (the pass pipeline first, the default for
  // users: coalesce may pick another layout).
  for (int64_t xb : {2048, 8192})
    for (int64_t r : {1, 4, 16})
      for (bool passes : {false, true}) {
        auto m = memcpy1d(ScalarKind::F32, xb, r, 4);
        CHECK(m);
        auto k = b.jit.compile(*m, passes ? compiled() : asBuilt());
        CHECK(k);
        unsigned grid = unsigned((n + xb - 1) / xb);
        CHECK(y->fill(0xff));
        CHECK((*k)->launch({grid}, *x, *y, int32_t(n)));
        // Check a sample of the output (the whole 4 GiB would take long on the host).
        std::vector<uint32_t> a(1 << 20), c(1 << 20);
        CHECK(x->copyToHost(a.data(), a.size() * 4));
        CHECK(y->copyToHost(c.data(), c.size() * 4));
        bool ok = a == c;
        double ms = b.time([&] { return (*k)->launch({grid}, *x, *y, int32_t(n)); });
        b.json.begin();
        b.json.field("bench", "memcpy_1d");
        b.json.field("config", "XBLOCK=" + std::to_string(xb) + ",R=" + std::to_string(r));
        b.json.field("variant", variantName(passes));
        b.json.field("ms", ms);
        b.json.field("TBps", tbps(2.0 * bytes, ms));
        b.json.field("correct", ok ? 1 : 0);
        kernelFields(b.json, **k);
        b.json.end();
        std::printf("memcpy_1d XBLOCK=%-5lld R=%-2lld %-10s %7.3f ms  %6.3f TB/s%s\n",
                    (long long)xb, (long long)r, variantName(passes), ms, tbps(2.0 * bytes, ms),
                    ok ? "" : "  WRONG");
      }

  // 2-D memcpy of a 32768 x 32768 f32 matrix in row-major tiles, as written and compiled.
  const int64_t side = 32768;
  struct Tile {
    std::string name;
    int64_t rows, cols;
    LayoutSpec layout;
  };
  std::vector<Tile> tiles{
      {"64x64 [1,4]x[4,8]", 64, 64, blocked({1, 4}, {4, 8}, {4, 1}, {1, 0})},
      {"32x128 [1,4]x[1,32]", 32, 128, blocked({1, 4}, {1, 32}, {4, 1}, {1, 0})},
      {"64x128 [1,4]x[1,32]", 64, 128, blocked({1, 4}, {1, 32}, {4, 1}, {1, 0})}};
  for (const Tile &t : tiles)
    for (bool passes : {false, true}) {
      auto m = memcpy2d(ScalarKind::F32, t.rows, t.cols, t.layout, 4);
      CHECK(m);
      auto k = b.jit.compile(*m, passes ? compiled() : asBuilt());
      CHECK(k);
      runtime::Dim3 grid{unsigned(side / t.rows), unsigned(side / t.cols)};
      CHECK(y->fill(0xff));
      CHECK((*k)->launch(grid, *x, *y, int32_t(side)));
      std::vector<uint32_t> a(1 << 20), c(1 << 20);
      CHECK(x->copyToHost(a.data(), a.size() * 4));
      CHECK(y->copyToHost(c.data(), c.size() * 4));
      bool ok = a == c;
      double ms = b.time([&] { return (*k)->launch(grid, *x, *y, int32_t(side)); });
      b.json.begin();
      b.json.field("bench", "memcpy_2d");
      b.json.field("config", t.name);
      b.json.field("variant", variantName(passes));
      b.json.field("ms", ms);
      b.json.field("TBps", tbps(2.0 * bytes, ms));
      b.json.field("correct", ok ? 1 : 0);
      kernelFields(b.json, **k);
      b.json.end();
      std::printf("memcpy_2d %-20s %-10s %7.3f ms  %6.3f TB/s%s\n", t.name.c_str(),
                  variantName(passes), ms, tbps(2.0 * bytes, ms), ok ? "" : "  WRONG");
    }

  // The 2-D copy between opposite strides (Gluon tutorial's memcpy_2d_inout): 32768^2 f32.
  struct Pair {
    std::string name;
    LayoutSpec in, out;
  };
  std::vector<Pair> pairs{
      {"tutorial [1,1]x[1,32] -> [1,1]x[32,1]", blocked({1, 1}, {1, 32}, {1, 4}, {1, 0}),
       blocked({1, 1}, {32, 1}, {4, 1}, {0, 1})},
      {"vector [1,4]x[4,8] -> [4,1]x[8,4]", blocked({1, 4}, {4, 8}, {4, 1}, {1, 0}),
       blocked({4, 1}, {8, 4}, {1, 4}, {0, 1})}};
  for (const Pair &p : pairs) {
    auto m = copy2dInOut(ScalarKind::F32, 128, 128, p.in, p.out, 4);
    CHECK(m);
    auto k = b.jit.compile(*m, asBuilt());
    CHECK(k);
    runtime::Dim3 grid{unsigned(side / 128), unsigned(side / 128)};
    auto launch = [&] {
      return (*k)->launch(grid, *x, *y, int32_t(side), int32_t(side), int32_t(side), int32_t(1),
                          int32_t(1), int32_t(side));
    };
    CHECK(y->fill(0xff));
    CHECK(launch());
    // Check a grid of samples: x is row-major ((i, j) at i * side + j), y column-major
    // ((i, j) at j * side + i).
    bool ok = true;
    for (int64_t i = 0; i < side && ok; i += 4099)
      for (int64_t j = 0; j < side && ok; j += 4093) {
        uint32_t u = 0, v = 1;
        CHECK(
            runtime::check((*runtime::driver())->cuMemcpyDtoH(&u, x->ptr() + 4 * (i * side + j), 4),
                           "cuMemcpyDtoH"));
        CHECK(
            runtime::check((*runtime::driver())->cuMemcpyDtoH(&v, y->ptr() + 4 * (j * side + i), 4),
                           "cuMemcpyDtoH"));
        ok = u == v;
      }
    double ms = b.time(launch);
    b.json.begin();
    b.json.field("bench", "copy_2d_inout");
    b.json.field("config", p.name);
    b.json.field("ms", ms);
    b.json.field("TBps", tbps(2.0 * bytes, ms));
    b.json.field("correct", ok ? 1 : 0);
    kernelFields(b.json, **k);
    b.json.end();
    std::printf("copy_2d_inout %-38s %7.3f ms  %6.3f TB/s%s\n", p.name.c_str(), ms,
                tbps(2.0 * bytes, ms), ok ? "" : "  WRONG");
  }
  return true;
}

// The value of a bf16 or f16 element's bits.
double decodeHalf(ScalarKind elem, uint16_t h) {
  if (elem == ScalarKind::BF16) {
    uint32_t bits = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  int e = (h >> 10) & 31, mant = h & 1023;
  if (e == 31)
    return NAN;
  double v = e == 0 ? std::ldexp(mant, -24) : std::ldexp(1024 + mant, e - 25);
  return (h & 0x8000) ? -v : v;
}

// The value of an f16, bf16, f32 or i8 element.
double decode(ScalarKind elem, const uint8_t *p) {
  if (elem == ScalarKind::I8)
    return double(int8_t(*p));
  if (elem == ScalarKind::F32) {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, p, 2);
  return decodeHalf(elem, h);
}

// `count` random small integers as f16, f32 or i8 elements: -64..64 (129 additions of 1 stay
// exact in f16 below 2048), -64..63 for i8 (64 additions of 1 stay below 128).
std::vector<uint8_t> smallIntegers(ScalarKind elem, size_t count, std::mt19937_64 &rng) {
  std::vector<uint8_t> host(count * ir::byteWidth(elem));
  std::uniform_int_distribution<int> d(-64, elem == ScalarKind::I8 ? 63 : 64);
  for (size_t i = 0; i < count; ++i) {
    float f = float(d(rng));
    if (elem == ScalarKind::I8) {
      host[i] = uint8_t(int8_t(f));
    } else if (elem == ScalarKind::F32) {
      std::memcpy(&host[i * 4], &f, 4);
    } else { // exact small integers in f16: sign, exponent, 10 mantissa bits
      uint16_t h = 0;
      if (f != 0) {
        float a = std::fabs(f);
        int e = int(std::floor(std::log2(a)));
        uint16_t mant = uint16_t((a / std::ldexp(1.0f, e) - 1.0f) * 1024.0f + 0.5f);
        h = uint16_t((f < 0 ? 0x8000 : 0) | ((e + 15) << 10) | mant);
      }
      std::memcpy(&host[i * 2], &h, 2);
    }
  }
  return host;
}

struct ConvertTiming {
  double t0 = 0, t64 = 0;
  double ns = 0; // per tile-conversion, GPU-wide
  bool correct = true;
};

// Runs a convert_loop kernel (TileKernels.h) over `tiles` tiles of x (`host` is its content)
// into y: checks that 0 and 64 iterations give x and x + 64 exactly, then times both.
// Tiles (CTAs) of the conversion loops: 16 per SM, or LINLAYOUT_BENCH_TILES_PER_SM. The grid
// is a few waves of CTAs, so a kernel whose CTAs per SM do not divide it runs a partial last
// wave; the knob measures how much of a time that is.
int64_t convertTiles(Bench &b) {
  int64_t perSm = 16;
  if (const char *env = std::getenv("LINLAYOUT_BENCH_TILES_PER_SM"))
    perSm = std::clamp<int64_t>(std::atoll(env), 1, 1024);
  return int64_t(b.jit.context().multiprocessorCount()) * perSm;
}

bool timeConvertLoop(Bench &b, const jit::Kernel &k, ScalarKind elem, int64_t tiles,
                     const std::vector<uint8_t> &host, runtime::DeviceBuffer &x,
                     runtime::DeviceBuffer &y, ConvertTiming &t) {
  const size_t width = ir::byteWidth(elem), bytes = host.size();
  t.correct = true;
  for (int iters : {0, 64}) {
    CHECK(y.fill(0xff));
    CHECK(k.launch({unsigned(tiles)}, x, y, int32_t(iters)));
    std::vector<uint8_t> out(bytes);
    CHECK(y.copyToHost(out.data(), bytes));
    for (size_t i = 0; i < bytes / width && t.correct; ++i)
      t.correct = decode(elem, &out[i * width]) == decode(elem, &host[i * width]) + iters;
  }
  t.t0 = b.time([&] { return k.launch({unsigned(tiles)}, x, y, int32_t(0)); });
  t.t64 = b.time([&] { return k.launch({unsigned(tiles)}, x, y, int32_t(64)); });
  t.ns = (t.t64 - t.t0) * 1e6 / (2.0 * 64 * double(tiles));
  return true;
}

bool convertSection(Bench &b, std::mt19937_64 &rng) {
  const std::vector<NamedPair> pairs = referencePairs();
  const int64_t M = 128, N = 128;
  const int64_t tiles = convertTiles(b);
  for (ScalarKind elem : {ScalarKind::F16, ScalarKind::F32}) {
    std::vector<uint8_t> host = smallIntegers(elem, size_t(tiles * M * N), rng);
    auto x = runtime::DeviceBuffer::fromHost<uint8_t>(host);
    auto y = runtime::DeviceBuffer::allocate(host.size());
    CHECK(x);
    CHECK(y);
    for (const NamedPair &p : pairs) {
      auto m = convertLoop(elem, M, N, p.src, p.dst, 4);
      CHECK(m);
      auto k = b.jit.compile(*m, asBuilt());
      b.json.begin();
      b.json.field("bench", "convert");
      b.json.field("name", p.name);
      b.json.field("dtype", elem == ScalarKind::F16 ? "float16" : "float32");
      b.json.field("tiles", double(tiles));
      if (!k.ok()) {
        b.json.field("error", k.message());
        b.json.end();
        std::printf("convert %-20s %s: %s\n", p.name.c_str(), std::string(ir::name(elem)).c_str(),
                    k.message().c_str());
        continue;
      }
      ConvertTiming t;
      if (!timeConvertLoop(b, **k, elem, tiles, host, *x, *y, t))
        return false;
      b.json.field("t0_ms", t.t0);
      b.json.field("t64_ms", t.t64);
      b.json.field("ns_per_conversion_per_tile", t.ns);
      b.json.field("correct", t.correct ? 1 : 0);
      kernelFields(b.json, **k);
      if (!b.ptxDir.empty())
        std::ofstream(b.ptxDir + "/linlayout_" + p.name + "_" +
                      (elem == ScalarKind::F16 ? "float16" : "float32") + ".ptx")
            << (*k)->ptx();
      for (const auto &c : (*k)->metadata().conversions) {
        b.json.field("scratch_bytes", double(c.scratchBytes));
        break;
      }
      b.json.end();
      std::printf(
          "convert %-20s %s  t0 %.4f ms  t64 %.4f ms  %.3f ns/conversion  [%s]%s\n", p.name.c_str(),
          std::string(ir::name(elem)).c_str(), t.t0, t.t64, t.ns,
          (*k)->metadata().conversions.empty() ? "" : (*k)->metadata().conversions[0].path.c_str(),
          t.correct ? "" : "  WRONG");
    }
  }
  return true;
}

// One line of bench/gpu/conversion_paths.jsonl: {"name", "shape", "dtype" (float16, float32, int8),
// "src", "dst" (specs as in QUERY-FORMAT.md)}.
struct PathPair {
  std::string name;
  std::vector<int64_t> shape;
  std::string dtype; // as written: float16, float32 or int8
  ScalarKind elem = ScalarKind::F32;
  std::optional<LayoutSpec> src, dst;
};

Expected<PathPair> readPathPair(const std::string &line) {
  query::Json j = query::Json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return makeError("not a JSON object");
  PathPair p;
  LL_ASSIGN_OR_RETURN(const query::Json *name, query::field(j, "name"));
  LL_ASSIGN_OR_RETURN(p.name, query::toString(*name, "name"));
  LL_ASSIGN_OR_RETURN(const query::Json *shape, query::field(j, "shape"));
  LL_ASSIGN_OR_RETURN(p.shape, query::toIntList(*shape, "shape"));
  if (p.shape.size() != 2)
    return makeError("shape must have two dims");
  LL_ASSIGN_OR_RETURN(const query::Json *dtype, query::field(j, "dtype"));
  LL_ASSIGN_OR_RETURN(p.dtype, query::toString(*dtype, "dtype"));
  if (p.dtype != "float16" && p.dtype != "float32" && p.dtype != "int8")
    return makeError("dtype must be float16, float32 or int8, not '" + p.dtype + "'");
  p.elem = p.dtype == "float16" ? ScalarKind::F16
           : p.dtype == "int8"  ? ScalarKind::I8
                                : ScalarKind::F32;
  LL_ASSIGN_OR_RETURN(const query::Json *src, query::field(j, "src"));
  LL_ASSIGN_OR_RETURN(p.src, query::specFromJson(*src, "src"));
  LL_ASSIGN_OR_RETURN(const query::Json *dst, query::field(j, "dst"));
  LL_ASSIGN_OR_RETURN(p.dst, query::specFromJson(*dst, "dst"));
  return p;
}

// Every pair of the bench file `name` (under bench/gpu/), or an error naming the file and line.
Expected<std::vector<PathPair>> readPathPairs(const std::string &name) {
  const std::string file = sourceDir(LINLAYOUT_SOURCE_DIR) + "/bench/gpu/" + name;
  std::ifstream in(file);
  if (!in)
    return makeError("cannot open " + file);
  std::vector<PathPair> pairs;
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    if (line.empty())
      continue;
    auto p = readPathPair(line);
    if (!p.ok())
      return makeError(file + ":" + std::to_string(lineNo) + ": " + p.message());
    pairs.push_back(std::move(*p));
  }
  return pairs;
}

// The cost model's cycles for one iteration of convert_loop (src -> dst and back) on `path`
// (the cheapest when unset), or a negative number where the path is not feasible.
double modelCycles(const PathPair &p, GpuTarget target, std::optional<ConversionPath> path) {
  PlanOptions opt;
  opt.target = target;
  opt.forcePath = path;
  int bits = int(ir::bitWidth(p.elem));
  auto there = planConversion(*p.src, *p.dst, p.shape, bits, opt);
  auto back = planConversion(*p.dst, *p.src, p.shape, bits, opt);
  if (!there.ok() || !back.ok())
    return -1;
  return there->cost.cycles + back->cost.cycles;
}

// Conversion paths against the cost model: each pair of bench/gpu/conversion_paths.jsonl (pairs
// inside warps, which both warp shuffles and shared memory can convert) in the convert_loop
// kernel, compiled three times: on the planner's choice, and forced onto each of the two paths
// (jit::CompileOptions::conversionPath). Each time is set beside the model's cycles for it.
// With `named`, b.variant must name one of its kernels. LINLAYOUT_BENCH_STORE_DST=1 times
// convert_loop's storeDst form (every warp uses the dst tile; TileKernels.h says why).
bool pathsSection(Bench &b, std::mt19937_64 &rng, bool named) {
  auto pairs = readPathPairs("conversion_paths.jsonl");
  if (!pairs.ok()) {
    std::fprintf(stderr, "error: %s\n", pairs.message().c_str());
    return false;
  }
  const GpuTarget target = b.jit.arch() == "sm_90" ? GpuTarget::Sm90 : GpuTarget::Sm80;
  const int64_t tiles = convertTiles(b);
  const char *storeDstEnv = std::getenv("LINLAYOUT_BENCH_STORE_DST");
  const bool storeDst = storeDstEnv && std::string(storeDstEnv) == "1";
  int timed = 0;
  for (const PathPair &p : *pairs) {
    if (!b.variant.empty() && b.variant.rfind(p.name + "_" + p.dtype + "_", 0) != 0)
      continue;
    const int64_t M = p.shape[0], N = p.shape[1];
    std::vector<uint8_t> host = smallIntegers(p.elem, size_t(tiles * M * N), rng);
    auto x = runtime::DeviceBuffer::fromHost<uint8_t>(host);
    auto y = runtime::DeviceBuffer::allocate(host.size());
    CHECK(x);
    CHECK(y);
    auto m = convertLoop(p.elem, M, N, *p.src, *p.dst, 4, storeDst);
    CHECK(m);
    const std::string &dtype = p.dtype;
    for (std::optional<ConversionPath> path :
         {std::optional<ConversionPath>(), std::optional(ConversionPath::WarpShuffle),
          std::optional(ConversionPath::SharedMemory)}) {
      const std::string asked = path ? std::string(conversionPathName(*path)) : "auto";
      if (!b.variant.empty() && b.variant != p.name + "_" + dtype + "_" + asked)
        continue;
      ++timed;
      jit::CompileOptions o = asBuilt();
      o.conversionPath = path;
      auto k = b.jit.compile(*m, o);
      b.json.begin();
      b.json.field("bench", "convert_path");
      b.json.field("name", p.name);
      b.json.field("dtype", dtype);
      b.json.field("shape", std::to_string(M) + "x" + std::to_string(N));
      b.json.field("path", asked);
      b.json.field("tiles", double(tiles));
      b.json.field("store_dst", storeDst ? 1 : 0);
      const double cycles = modelCycles(p, target, path);
      b.json.field("model_cycles", cycles);
      if (!k.ok()) {
        b.json.field("error", k.message());
        b.json.end();
        std::printf("convert_path %-14s %s %s: %s\n", p.name.c_str(), dtype.c_str(), asked.c_str(),
                    k.message().c_str());
        continue;
      }
      ConvertTiming t;
      if (!timeConvertLoop(b, **k, p.elem, tiles, host, *x, *y, t))
        return false;
      std::string taken;
      for (const auto &c : (*k)->metadata().conversions)
        taken += (taken.empty() ? "" : ",") + c.path;
      if (!b.ptxDir.empty())
        std::ofstream(b.ptxDir + "/linlayout_path_" + p.name + "_" + dtype + "_" + asked + ".ptx")
            << (*k)->ptx();
      b.json.field("taken", taken);
      b.json.field("t0_ms", t.t0);
      b.json.field("t64_ms", t.t64);
      b.json.field("ns_per_conversion_per_tile", t.ns);
      b.json.field("correct", t.correct ? 1 : 0);
      kernelFields(b.json, **k);
      b.json.end();
      std::printf(
          "convert_path %-14s %s %-6s %-13s model %6.0f cycles  %.3f ns/conversion [%s]%s\n",
          p.name.c_str(), dtype.c_str(), (std::to_string(M) + "x" + std::to_string(N)).c_str(),
          asked.c_str(), cycles, t.ns, taken.c_str(), t.correct ? "" : "  WRONG");
    }
  }
  if (named && timed == 0) {
    std::fprintf(stderr,
                 "error: no paths kernel is named %s (NAME_DTYPE_PATH, as "
                 "bench/gpu/conversion_paths.jsonl lists)\n",
                 b.variant.c_str());
    return false;
  }
  return true;
}

// Padding against the swizzle: each pair of bench/gpu/padding_pairs.jsonl (conversions through
// shared memory where the cost model may take a padded scratch) in the convert_loop kernel on the
// shared-memory path, compiled with the swizzle and with LowerOptions::conversionPadding. The
// ratio padded / swizzled of the times per conversion says whether padding pays on this GPU;
// "padding" is what the padded kernel's conversions took (empty: the model kept the swizzle).
bool paddingSection(Bench &b, std::mt19937_64 &rng) {
  auto pairs = readPathPairs("padding_pairs.jsonl");
  if (!pairs.ok()) {
    std::fprintf(stderr, "error: %s\n", pairs.message().c_str());
    return false;
  }
  const int64_t tiles = convertTiles(b);
  for (const PathPair &p : *pairs) {
    const int64_t M = p.shape[0], N = p.shape[1];
    std::vector<uint8_t> host = smallIntegers(p.elem, size_t(tiles * M * N), rng);
    auto x = runtime::DeviceBuffer::fromHost<uint8_t>(host);
    auto y = runtime::DeviceBuffer::allocate(host.size());
    CHECK(x);
    CHECK(y);
    auto m = convertLoop(p.elem, M, N, *p.src, *p.dst, 4);
    CHECK(m);
    double ns[2] = {0, 0};
    bool correct = true;
    std::string padding;
    // Whether the cost model would take padding (both conversions of the loop).
    std::string model;
    for (bool back : {false, true}) {
      PlanOptions opt;
      opt.target = b.jit.arch() == "sm_90" ? GpuTarget::Sm90 : GpuTarget::Sm80;
      opt.forcePath = ConversionPath::SharedMemory;
      opt.padding = ScratchPadding::WhereCheaper;
      auto plan = planConversion(back ? *p.dst : *p.src, back ? *p.src : *p.dst, p.shape,
                                 int(ir::bitWidth(p.elem)), opt);
      model += std::string(back ? "/" : "") + (!plan.ok()                     ? "?"
                                               : plan->shared.padding.empty() ? "swizzle"
                                                                              : "padding");
    }
    for (bool padded : {false, true}) {
      jit::CompileOptions o = asBuilt();
      o.conversionPath = ConversionPath::SharedMemory;
      o.conversionPadding = padded ? ScratchPadding::Always : ScratchPadding::Never;
      auto k = b.jit.compile(*m, o);
      b.json.begin();
      b.json.field("bench", "convert_padding");
      b.json.field("name", p.name);
      b.json.field("dtype", p.dtype);
      b.json.field("shape", std::to_string(M) + "x" + std::to_string(N));
      b.json.field("padded", padded ? 1 : 0);
      b.json.field("tiles", double(tiles));
      if (!k.ok()) {
        b.json.field("error", k.message());
        b.json.end();
        std::printf("convert_padding %-14s %s: %s\n", p.name.c_str(), p.dtype.c_str(),
                    k.message().c_str());
        correct = false;
        break;
      }
      ConvertTiming t;
      if (!timeConvertLoop(b, **k, p.elem, tiles, host, *x, *y, t))
        return false;
      std::string pads;
      for (const auto &c : (*k)->metadata().conversions)
        pads += (pads.empty() ? "" : "/") + (c.padding.empty() ? "-" : c.padding);
      if (padded)
        padding = pads;
      if (!b.ptxDir.empty())
        std::ofstream(b.ptxDir + "/linlayout_padding_" + p.name + "_" + p.dtype +
                      (padded ? "_padded" : "_swizzled") + ".ptx")
            << (*k)->ptx();
      b.json.field("padding", pads);
      b.json.field("model_takes", model);
      b.json.field("t0_ms", t.t0);
      b.json.field("t64_ms", t.t64);
      b.json.field("ns_per_conversion_per_tile", t.ns);
      b.json.field("correct", t.correct ? 1 : 0);
      kernelFields(b.json, **k);
      b.json.end();
      ns[padded ? 1 : 0] = t.ns;
      correct &= t.correct;
    }
    if (ns[0] > 0)
      std::printf("convert_padding %-14s %-8s %-7s swizzled %.3f ns, padded [%s] %.3f ns: "
                  "ratio %.3f (model takes %s)%s\n",
                  p.name.c_str(), p.dtype.c_str(),
                  (std::to_string(M) + "x" + std::to_string(N)).c_str(), ns[0], padding.c_str(),
                  ns[1], ns[1] / ns[0], model.c_str(), correct ? "" : "  WRONG");
  }
  return true;
}

using Reshape = testing::MatmulReshape;

// A random f16 or bf16 as bits: a standard normal sample rounded to nearest even, as the vendor
// rows' torch.randn(..., dtype=...) draws theirs. The distribution moves the ratios: the tensor
// cores' power follows the bits they toggle, and under the H200's 700 W limit so do the clocks.
// On inputs with uniform exponents 2^-7..2^-1 and random mantissas (this bench's until
// 2026-12-03), cuBLAS ran 4096^3 f16 at 686 TFLOP/s against 763 on torch.randn's.
uint16_t randomInput(ScalarKind elem, std::mt19937_64 &rng) {
  std::normal_distribution<float> normal(0, 1);
  return uint16_t(ir::floatBits(normal(rng), elem));
}

// The variant name of a bf16 row: the f16 row's name with "-bf16".
std::string withElem(std::string variant, ScalarKind elem) {
  return elem == ScalarKind::BF16 ? variant + "-bf16" : variant;
}

// The record of a gemm variant that did not compile.
void gemmCompileError(Bench &b, const std::string &variant, const std::string &message) {
  b.json.begin();
  b.json.field("bench", "gemm");
  b.json.field("variant", variant);
  b.json.field("error", message);
  b.json.end();
  std::printf("gemm %s: %s\n", variant.c_str(), message.c_str());
}

// Given the device buffers A, B (n x n, row-major) and C, the launch to time.
using GemmLaunch = std::function<Expected<std::function<Status()>>(
    int64_t n, const runtime::DeviceBuffer &a, const runtime::DeviceBuffer &b,
    const runtime::DeviceBuffer &c)>;

// Times one compiled matmul at 4096^3 and 8192^3: random inputs in [-1, 1), C (of `out`: f32,
// f16 or bf16) poisoned, one launch checked on 64 sampled entries against a double-precision dot
// product, then timed; one JSON record and one printed line per size.
bool measureGemm(Bench &b, std::mt19937_64 &rng, const std::string &variant, ScalarKind elem,
                 int stages, const jit::Kernel &k, const GemmLaunch &makeLaunch,
                 ScalarKind out = ScalarKind::F32) {
  const size_t outBytes = out == ScalarKind::F32 ? 4 : 2;
  for (int64_t n : {4096, 8192}) {
    size_t elems = size_t(n * n);
    auto in = b.gemmInputs.find({int(elem), n});
    if (in == b.gemmInputs.end()) {
      std::vector<uint16_t> ha(elems), hb(elems);
      for (size_t i = 0; i < elems; ++i) {
        ha[i] = randomInput(elem, rng);
        hb[i] = randomInput(elem, rng);
      }
      auto da = runtime::DeviceBuffer::fromHost<uint16_t>(ha);
      auto db = runtime::DeviceBuffer::fromHost<uint16_t>(hb);
      CHECK(da);
      CHECK(db);
      in = b.gemmInputs
               .emplace(std::pair{int(elem), n}, Bench::GemmInputs{std::move(ha), std::move(hb),
                                                                   std::move(*da), std::move(*db)})
               .first;
    }
    const std::vector<uint16_t> &a = in->second.a, &bm = in->second.b;
    auto dc = runtime::DeviceBuffer::allocate(elems * outBytes);
    CHECK(dc);
    auto launch = makeLaunch(n, in->second.da, in->second.db, *dc);
    CHECK(launch);
    CHECK(dc->fill(0xff));
    CHECK((*launch)());
    std::vector<uint8_t> c(elems * outBytes);
    CHECK(dc->copyToHost(c.data(), elems * outBytes));
    double err = 0, norm = 0;
    for (int s = 0; s < 64; ++s) {
      size_t i = rng() % size_t(n), j = rng() % size_t(n);
      double ref = 0;
      for (int64_t kk = 0; kk < n; ++kk)
        ref += decodeHalf(elem, a[i * n + kk]) * decodeHalf(elem, bm[kk * n + j]);
      double got = decode(out, &c[(i * n + j) * outBytes]);
      err += (got - ref) * (got - ref);
      norm += ref * ref;
    }
    double rel = std::sqrt(err / norm);
    double ms = b.time(*launch, 50, 300);
    double tf = 2.0 * double(n) * double(n) * double(n) / (ms * 1e-3) / 1e12;
    b.json.begin();
    b.json.field("bench", "gemm");
    b.json.field("variant", variant);
    b.json.field("dtype", std::string(ir::name(elem)));
    b.json.field("out_dtype", std::string(ir::name(out)));
    if (stages)
      b.json.field("stages", double(stages));
    b.json.field("n", double(n));
    b.json.field("ms", ms);
    b.json.field("TFLOPs", tf);
    b.json.field("rel_err_sampled", rel);
    kernelFields(b.json, k);
    b.json.end();
    std::printf("gemm %s->%s %-12s %lld^3   %8.3f ms  %7.1f TFLOP/s  (sampled rel err %.2e)\n",
                std::string(ir::name(elem)).c_str(), std::string(ir::name(out)).c_str(),
                variant.c_str(), (long long)n, ms, tf, rel);
  }
  return true;
}

// One GEMM kernel of the examples' matmuls: which file, how it is reshaped and compiled.
struct GemmSpec {
  std::string file = "matmul.tir";
  int stages = 1;    // the software-pipeline pass's num_stages (1: off)
  int prefetchK = 0; // the prefetch pass's K slice (0: off)
  Reshape reshape = Reshape::None;
  ScalarKind elem = ScalarKind::F16;
  int groupM = 0; // programs walked in groups of this many M tiles (0: the plain grid)
  // A diagnostic, run only when asked for by name (--variant ...-nostore): C's store masked off,
  // so the kernel computes the tile but writes nothing; the difference to the
  // storing kernel is what the stores of the epilogue cost. Its error column is meaningless.
  bool noStore = false;
};

// examples/matmul_wide.tir's store of C, masked off (K is never negative at run time, and the
// compiler cannot know that). Empty when the text has no such store.
std::string withoutCStore(std::string text) {
  const std::string from = "    tt.store %cptrs, %acc#0 : tensor<128x256x!tt.ptr<f32>, #mma>\n";
  const std::string to =
      "    %never = arith.cmpi slt, %K, %c0 : i32\n"
      "    %never_v = tt.splat %never : i1 -> tensor<128x256xi1, #mma>\n"
      "    tt.store %cptrs, %acc#0, %never_v : tensor<128x256x!tt.ptr<f32>, #mma>\n";
  size_t p = text.find(from);
  return p == std::string::npos ? std::string() : text.replace(p, from.size(), to);
}

bool gemmVariant(Bench &b, std::mt19937_64 &rng, const GemmSpec &spec) {
  const auto &[file, stages, prefetchK, reshape, elem, groupM, noStore] = spec;
  // matmul_wide_persistent.tir: the 128x256 tile, one program per SM walking the tiles.
  // matmul_wide_flat.tir: the same, with one loop over all of a program's K steps.
  const bool flat = file == "matmul_wide_flat.tir";
  const bool persistent = file == "matmul_wide_persistent.tir" || flat;
  const bool wide = file == "matmul_wide.tir" || file == "matmul_wgmma_wide.tir" || persistent;
  const bool wgmma = file.rfind("matmul_wgmma", 0) == 0;
  std::string variant = std::string(wgmma ? "wgmma-" : "") +
                        (flat         ? "flat-"
                         : persistent ? "persistent-"
                         : wide       ? "wide-"
                                      : "") +
                        (stages == 1 ? "plain" : "pipelined-" + std::to_string(stages));
  if (variant == "wgmma-plain")
    variant = "wgmma";
  if (prefetchK)
    variant += prefetchK == 16 ? "-prefetch" : "-prefetch" + std::to_string(prefetchK);
  if (reshape != Reshape::None)
    variant += reshape == Reshape::Warps8 ? "-8w" : reshape == Reshape::KStep64 ? "-k64" : "-k128";
  if (groupM)
    variant += "-g" + std::to_string(groupM);
  variant = withElem(variant, elem);
  if (noStore)
    variant += "-nostore";
  if ((!b.variant.empty() || noStore) && b.variant != variant)
    return true;
  const unsigned tileN = wide ? 256 : 128;
  auto m = matmulKernel(elem, sourceDir(LINLAYOUT_SOURCE_DIR), file);
  CHECK(m);
  if (reshape != Reshape::None || groupM || noStore) {
    if (elem != ScalarKind::F16 || (wide && reshape == Reshape::Warps8) ||
        (noStore && file != "matmul_wide.tir")) {
      std::fprintf(stderr, "error: the reshaped variants are f16 only, 8 warps is matmul.tir's "
                           "and -nostore matmul_wide.tir's\n");
      return false;
    }
    auto text = exampleText(file, sourceDir(LINLAYOUT_SOURCE_DIR));
    CHECK(text);
    std::string reshaped = testing::reshapeMatmulText(*text, reshape);
    if (groupM && (reshaped = testing::groupProgramsText(reshaped, groupM)).empty()) {
      std::fprintf(stderr, "error: %s has no program ids to group\n", file.c_str());
      return false;
    }
    if (noStore && (reshaped = withoutCStore(reshaped)).empty()) {
      std::fprintf(stderr, "error: %s has no store of C to mask\n", file.c_str());
      return false;
    }
    m = ir::parseModule(reshaped, file);
    CHECK(m);
    CHECK(ir::verify(*m));
  }
  // The layouts as written, pipelined and prefetched as asked (prefetch variants all pipeline).
  jit::CompileOptions o;
  o.keepLayouts = true;
  o.numStages = stages;
  o.prefetchK = prefetchK;
  auto k = b.jit.compile(*m, o);
  if (!k.ok()) {
    gemmCompileError(b, variant, k.message());
    return true;
  }
  const jit::Kernel &kernel = **k;
  return measureGemm(b, rng, variant, elem, stages, kernel,
                     [&](int64_t n, const runtime::DeviceBuffer &da,
                         const runtime::DeviceBuffer &db,
                         const runtime::DeviceBuffer &dc) -> Expected<std::function<Status()>> {
                       const int32_t ni = int32_t(n);
                       if (persistent) {
                         // As many programs as fit on the GPU at once.
                         runtime::Dim3 grid{unsigned(b.jit.context().multiprocessorCount() *
                                                     std::max(1, kernel.metadata().ctasPerSm))};
                         return std::function<Status()>([&kernel, grid, ni, &da, &db, &dc] {
                           return kernel.launch(grid, da, db, dc, ni, ni, ni, ni, ni, ni);
                         });
                       }
                       runtime::Dim3 grid{unsigned(n / 128), unsigned(n / tileN)};
                       return std::function<Status()>([&kernel, grid, ni, &da, &db, &dc] {
                         return kernel.launch(grid, da, db, dc, ni, ni, ni, ni);
                       });
                     });
}

// A diagnostic of a TMA example's K loop, run only when asked for by name ("-noload"): its
// expects, copies and waits removed, so that the loop reads the tiles of the prologue's steps
// over and over (waited for before the loop): the loop's ldmatrix and mma.sync with no copies at
// all. Its results are wrong by design. (Without the waits alone, the copies of a refill may
// overtake the barrier's phase and the kernel can fault, so that one is not offered.) Empty when
// the text has no such loop.
std::string withoutLoopCopies(const std::string &text) {
  std::istringstream in(text);
  std::string out, line, prologueWaits;
  bool inLoop = false, sawLoop = false;
  while (std::getline(in, line)) {
    const bool expect = line.find("ttng.barrier_expect ") != std::string::npos;
    if (!inLoop && line.find("scf.for ") != std::string::npos) {
      inLoop = sawLoop = true;
      out += prologueWaits;
    } else if (inLoop && line.rfind("    }", 0) == 0) {
      inLoop = false;
    } else if (!inLoop && !sawLoop && expect) {
      // "ttng.barrier_expect %bar, bytes, %pred : type" -> wait for the barrier's phase 0.
      std::istringstream f(line);
      std::string op, bar, bytes, pred, colon, type;
      f >> op >> bar >> bytes >> pred >> colon;
      std::getline(f, type);
      prologueWaits += "    ttng.wait_barrier " + bar + " %c0, " + pred + " :" + type + "\n";
    }
    if (inLoop && (expect || line.find("ttng.wait_barrier ") != std::string::npos ||
                   line.find("ttng.async_tma_copy_global_to_local ") != std::string::npos))
      continue;
    out += line + "\n";
  }
  return sawLoop ? out : std::string();
}

// examples/`file` through withoutLoopCopies, parsed and verified.
Expected<ir::Module> withoutLoopCopiesKernel(const std::string &file, ScalarKind elem) {
  LL_ASSIGN_OR_RETURN(std::string original, exampleText(file, sourceDir(LINLAYOUT_SOURCE_DIR)));
  std::string text = withoutLoopCopies(original);
  if (elem != ScalarKind::F16 || text.empty())
    return makeError("-noload is for f16 examples with a K loop, " + file + " is not one");
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, file));
  LL_TRY_STATUS(ir::verify(m));
  return m;
}

// Whether the bench's --variant asks for `variant`: a comma-separated list of names, each exact or
// a prefix ending in '*'; no --variant asks for every one.
bool variantAsked(const std::string &asked, const std::string &variant) {
  if (asked.empty())
    return true;
  std::stringstream list(asked);
  for (std::string one; std::getline(list, one, ',');) {
    if (!one.empty() && one.back() == '*' ? variant.rfind(one.substr(0, one.size() - 1), 0) == 0
                                          : variant == one)
      return true;
  }
  return false;
}

// A TMA matmul example (examples/matmul_tma*.tir: tensor-map parameters, mbarrier rings, wgmma,
// or ldmatrix + mma.sync in matmul_tma_mma_wide.tir; written by hand; matmul_ws*.tir, warp-
// specialized, persistent when it also takes M and N; C a tensor map where it is written by TMA
// stores), as written. Variant "tma"
// for matmul_tma.tir, "tma_wide" for matmul_tma_wide.tir, and so on for any other
// matmul_tma*.tir in the examples folder; with `diagnostic` ("noload", above) the variant gets it
// as a suffix and runs only when asked for by name. --variant 'ws_*' runs every ws one.
bool gemmTmaVariant(Bench &b, std::mt19937_64 &rng, const std::string &file,
                    ScalarKind elem = ScalarKind::F16, const std::string &diagnostic = "") {
  std::string variant = withElem(file.substr(7, file.size() - 7 - 4), elem);
  if (!diagnostic.empty())
    variant += "-" + diagnostic;
  // A diagnostic runs only when named; the others as --variant asks (a list, prefixes).
  if (!diagnostic.empty() ? b.variant != variant : !variantAsked(b.variant, variant))
    return true;
  auto m = diagnostic.empty() ? matmulKernel(elem, sourceDir(LINLAYOUT_SOURCE_DIR), file)
                              : withoutLoopCopiesKernel(file, elem);
  CHECK(m);
  const ir::Function &fn = m->functions.at(0);
  const unsigned tileM = unsigned(fn.type(fn.body.args.at(0)).shape().at(0));
  const unsigned tileN = unsigned(fn.type(fn.body.args.at(1)).shape().at(1));
  const ScalarKind out = fn.type(fn.body.args.at(2)).elem().scalar;
  // A persistent kernel (matmul_ws_persistent*.tir) also takes M and N, and walks the tiles.
  const bool persistent = fn.body.args.size() == 7;
  auto k = b.jit.compile(*m, asBuilt());
  if (!k.ok()) {
    gemmCompileError(b, variant, k.message());
    return true;
  }
  const jit::Kernel &kernel = **k;
  const auto &params = kernel.metadata().params;
  return measureGemm(
      b, rng, variant, elem, 0, kernel,
      [&](int64_t n, const runtime::DeviceBuffer &da, const runtime::DeviceBuffer &db,
          const runtime::DeviceBuffer &dc) -> Expected<std::function<Status()>> {
        uint64_t un = uint64_t(n);
        LL_ASSIGN_OR_RETURN(runtime::TensorMap amap,
                            jit::encodeTensorMapFor(params.at(0), da.ptr(), {un, un}, {un * 2}));
        LL_ASSIGN_OR_RETURN(runtime::TensorMap bmap,
                            jit::encodeTensorMapFor(params.at(1), db.ptr(), {un, un}, {un * 2}));
        runtime::Dim3 grid{unsigned(n / tileM), unsigned(n / tileN)};
        // A clustered kernel's programs are CTAs, launched in whole clusters along x, as many
        // as fit at once.
        const unsigned cluster = unsigned(kernel.metadata().clusterDims[0]);
        unsigned programs = std::min(unsigned(b.jit.context().multiprocessorCount()),
                                     unsigned((n / tileM) * (n / tileN)));
        if (cluster > 1)
          programs = std::min(programs / cluster,
                              unsigned(std::max(1, kernel.metadata().maxActiveClusters))) *
                     cluster;
        // C by TMA stores (matmul_ws_persistent_tmastore.tir): a tensor map of C's type.
        if (persistent && params.at(2).kind == lower::ParamKind::TensorMap) {
          LL_ASSIGN_OR_RETURN(runtime::TensorMap cmap,
                              jit::encodeTensorMapFor(params.at(2), dc.ptr(), {un, un},
                                                      {un * (out == ScalarKind::F32 ? 4 : 2)}));
          return std::function<Status()>([&kernel, n, amap, bmap, cmap, programs] {
            return kernel.launch({programs}, amap, bmap, cmap, int32_t(n), int32_t(n), int32_t(n),
                                 int32_t(n));
          });
        }
        if (persistent) // one program per SM walks the tiles
          return std::function<Status()>([&kernel, n, amap, bmap, &dc, programs] {
            return kernel.launch({programs}, amap, bmap, dc, int32_t(n), int32_t(n), int32_t(n),
                                 int32_t(n));
          });
        return std::function<Status()>([&kernel, grid, n, amap, bmap, &dc] {
          return kernel.launch(grid, amap, bmap, dc, int32_t(n), int32_t(n));
        });
      },
      out);
}

// An fp8 warp-specialized matmul (examples/matmul_fp8_ws*.tir: C = scale_a * scale_b * A B^T,
// e4m3 A n x n and B n x n given as N x K, f32 accumulation), persistent on one program per SM,
// with C of `out`: f16 as written and bf16 (the example's f16 C made bf16, variant "-bf16"), or
// f32 (the "_f32out" example). Variant "fp8_ws_persistent" for matmul_fp8_ws_persistent.tir and so
// on. The inputs are torch.randn's rounded to e4m3, as vendor_bench.py gives torch._scaled_mm;
// scales 1, as there. Checked on 64 sampled entries against float64, then timed at 4096^3 and
// 8192^3. --variant 'fp8*' runs them all on the same inputs.
bool gemmFp8Variant(Bench &b, std::mt19937_64 &rng, const std::string &file, ScalarKind out) {
  std::string variant = withElem(file.substr(7, file.size() - 7 - 4), out);
  if (!variantAsked(b.variant, variant))
    return true;
  auto m = matmulKernel(out == ScalarKind::F32 ? ScalarKind::F16 : out,
                        sourceDir(LINLAYOUT_SOURCE_DIR), file);
  CHECK(m);
  const ir::Function &fn = m->functions.at(0);
  if (fn.type(fn.body.args.at(2)).elem().scalar != out)
    return true; // the f32out example has no bf16 form
  auto k = b.jit.compile(*m, asBuilt());
  if (!k.ok()) {
    gemmCompileError(b, variant, k.message());
    return true;
  }
  const jit::Kernel &kernel = **k;
  const auto &params = kernel.metadata().params;
  const size_t outBytes = out == ScalarKind::F32 ? 4 : 2;
  for (int64_t n : {4096, 8192}) {
    const size_t elems = size_t(n * n);
    auto in = b.fp8Inputs.find(n);
    if (in == b.fp8Inputs.end()) {
      std::vector<uint8_t> ha = testing::randomNormalE4M3(elems, rng),
                           hb = testing::randomNormalE4M3(elems, rng);
      auto da = runtime::DeviceBuffer::fromHost<uint8_t>(ha);
      auto db = runtime::DeviceBuffer::fromHost<uint8_t>(hb);
      CHECK(da);
      CHECK(db);
      in = b.fp8Inputs
               .emplace(n, Bench::Fp8Inputs{std::move(ha), std::move(hb), std::move(*da),
                                            std::move(*db)})
               .first;
    }
    const std::vector<uint8_t> &a = in->second.a, &bm = in->second.b;
    auto dc = runtime::DeviceBuffer::allocate(elems * outBytes);
    CHECK(dc);
    const uint64_t un = uint64_t(n);
    auto amap = jit::encodeTensorMapFor(params.at(0), in->second.da.ptr(), {un, un}, {un});
    auto bmap = jit::encodeTensorMapFor(params.at(1), in->second.db.ptr(), {un, un}, {un});
    CHECK(amap);
    CHECK(bmap);
    const unsigned programs =
        std::min(unsigned(b.jit.context().multiprocessorCount()), unsigned((n / 128) * (n / 256)));
    const int32_t ni = int32_t(n);
    // C is a pointer, or a tensor map for a kernel that writes it by TMA stores.
    std::function<Status()> launch = [&kernel, programs, ni, am = *amap, bmp = *bmap, &dc] {
      return kernel.launch({programs}, am, bmp, *dc, ni, ni, ni, ni, 1.0f, 1.0f);
    };
    if (params.at(2).kind == lower::ParamKind::TensorMap) {
      auto cmap = jit::encodeTensorMapFor(params.at(2), dc->ptr(), {un, un}, {un * outBytes});
      CHECK(cmap);
      launch = [&kernel, programs, ni, am = *amap, bmp = *bmap, cm = *cmap] {
        return kernel.launch({programs}, am, bmp, cm, ni, ni, ni, ni, 1.0f, 1.0f);
      };
    }
    CHECK(dc->fill(0xff));
    CHECK(launch());
    std::vector<uint8_t> c(elems * outBytes);
    CHECK(dc->copyToHost(c.data(), elems * outBytes));
    double err = 0, norm = 0;
    for (int s = 0; s < 64; ++s) {
      size_t i = rng() % size_t(n), j = rng() % size_t(n);
      double ref = 0;
      for (int64_t kk = 0; kk < n; ++kk)
        ref += testing::decodeE4M3(a[i * n + kk]) * testing::decodeE4M3(bm[j * n + kk]);
      double got = decode(out, &c[(i * n + j) * outBytes]);
      err += (got - ref) * (got - ref);
      norm += ref * ref;
    }
    double rel = std::sqrt(err / norm);
    double ms = b.time(launch, 50, 300);
    double tf = 2.0 * double(n) * double(n) * double(n) / (ms * 1e-3) / 1e12;
    b.json.begin();
    b.json.field("bench", "gemm");
    b.json.field("variant", variant);
    b.json.field("dtype", std::string(ir::name(ScalarKind::F8E4M3FN)));
    b.json.field("out_dtype", std::string(ir::name(out)));
    b.json.field("n", double(n));
    b.json.field("ms", ms);
    b.json.field("TFLOPs", tf);
    b.json.field("rel_err_sampled", rel);
    kernelFields(b.json, kernel);
    b.json.end();
    std::printf(
        "gemm f8E4M3FN->%s %-12s %lld^3   %8.3f ms  %7.1f TFLOP/s  (sampled rel err %.2e)\n",
        std::string(ir::name(out)).c_str(), variant.c_str(), (long long)n, ms, tf, rel);
  }
  return true;
}

// The inputs of one attention shape: Q, K, V and O on the device, bh heads of n_ctx x d elements,
// and on the host the first `baseHeads` heads of Q, K and V, which the device repeats (head h holds
// what head h % baseHeads does): random bits for every head of n_ctx 1024 would take seconds.
struct AttentionData {
  int d = 0;
  int64_t n = 0, bh = 0, baseHeads = 0;
  ScalarKind elem = ScalarKind::F16;
  std::vector<uint16_t> q, k, v;
  std::optional<runtime::DeviceBuffer> dq, dk, dv, dout;
};

// Batch x heads of an attention shape, as bench/gpu/vendor_bench.py chooses it: the least power
// of two that makes a call of n_ctx n and head dim d at least 2 TFLOP.
int64_t attentionBatchHeads(int64_t n, int64_t d) {
  const double perHead = 4.0 * double(n) * double(n) * double(d);
  return int64_t(1) << std::max(0, int(std::ceil(std::log2(2e12 / perHead))));
}

// `host` (the first heads) repeated over `elems` elements, on the device.
template <typename T>
Expected<runtime::DeviceBuffer> repeatedOnDevice(const std::vector<T> &host, size_t elems) {
  std::vector<T> full(elems);
  for (size_t at = 0; at < elems; at += host.size())
    std::copy(host.begin(), host.end(), full.begin() + long(at));
  return runtime::DeviceBuffer::fromHost<T>(full);
}

Status makeAttentionData(AttentionData &a, std::mt19937_64 &rng) {
  const size_t base = size_t(a.baseHeads) * size_t(a.n) * size_t(a.d);
  const size_t elems = size_t(a.bh) * size_t(a.n) * size_t(a.d);
  for (auto [host, dev] : {std::pair{&a.q, &a.dq}, {&a.k, &a.dk}, {&a.v, &a.dv}}) {
    host->resize(base);
    for (uint16_t &x : *host)
      x = randomInput(a.elem, rng);
    dev->reset();
    LL_ASSIGN_OR_RETURN(runtime::DeviceBuffer buf, repeatedOnDevice(*host, elems));
    dev->emplace(std::move(buf));
  }
  a.dout.reset();
  LL_ASSIGN_OR_RETURN(runtime::DeviceBuffer out, runtime::DeviceBuffer::allocate(elems * 2));
  a.dout.emplace(std::move(out));
  return Status::success();
}

// examples/attention.tir, attention_causal.tir ("causal-" variants), attention_d128.tir
// ("d128-": head dim 128), attention.tir on bf16 ("bf16-") and, on sm_90, attention_wgmma.tir
// ("wgmma-": both products on wgmma), attention_wgmma_d128.tir ("wgmma-d128-") and its causal
// form ("wgmma-d128-causal-") and its form with key blocks of 128 ("wgmma-d128-bn128-"), and
// every warp-specialized kernel examples/attention_ws*.tir (a TMA producer warp and a ring of K
// and V stages; K and V go in as tensor maps over [bh * n_ctx, d], Q and O as pointers or, where
// the kernel copies them by TMA, tensor maps; attentionWsConfigs names them), the fastest of
// which (kBf16AttentionKernels) also run on bf16 ("bf16-ws-..."):
// O = softmax(Q K^T / sqrt(d))
// V (f16) for n_ctx = 1024, 4096 and 16384 over batch x heads = bh chosen as
// bench/gpu/vendor_bench.py chooses it (each call at least 2 TFLOP), so that the rows compare with
// cuDNN's on the same shapes; compiled as a user compiles it (the pass pipeline) with 1, 2 and 3
// software-pipelining stages (the ws kernels, whose ring is in the IR, as written). One launch is
// checked on 16 sampled rows against a double-precision reference, then timed; 4 * bh * n_ctx^2 *
// d flops (the two products), half of that for causal attention (as flash-attention benchmarks
// count it). --variant takes a comma-separated list of variants or prefixes ending in '*'.
struct AttentionConfig {
  std::string file, prefix;
  bool causal;
  int d;
  ScalarKind elem = ScalarKind::F16;
  bool hopper = false;
  bool ws = false;
  bool persistent = false; // takes the number of heads; one program per SM walks the tiles
};

// Every examples/attention_ws*.tir, so that a new variant is measured as it lands: its variant is
// "ws-" and its name after "attention_ws_" with '-' for '_' (attention_ws_d128_causal.tir is
// ws-d128-causal), its head dim the number of its "d<N>" part, causal where it ends in "_causal",
// persistent where its name says so.
std::vector<AttentionConfig> attentionWsConfigs() {
  std::vector<AttentionConfig> out;
  const std::string head = "attention_ws_";
  for (const std::string &f : exampleFilesStartingWith(head, sourceDir(LINLAYOUT_SOURCE_DIR))) {
    const std::string rest = f.substr(head.size(), f.size() - head.size() - 4);
    AttentionConfig c{f,
                      "ws-" + rest,
                      rest.ends_with("_causal"),
                      attentionHeadDim(f),
                      ScalarKind::F16,
                      true,
                      true,
                      rest.find("persistent") != std::string::npos};
    std::replace(c.prefix.begin(), c.prefix.end(), '_', '-');
    if (c.d > 0)
      out.push_back(c);
  }
  return out;
}

// One timed attention launch: times `launch`, then writes its JSON record and its line, with the
// check's figure under `errName` (printed as `errText`, which formats it).
void attentionRow(Bench &b, const std::function<Status()> &launch, const jit::Kernel &kk,
                  const std::string &variant, const std::string &dtype, bool causal, int stages,
                  int64_t bh, int64_t n, int64_t d, const char *errName, const char *errText,
                  double err) {
  const double ms = b.time(launch, 50, 300);
  const double tf =
      (causal ? 2.0 : 4.0) * double(bh) * double(n) * double(n) * double(d) / (ms * 1e-3) / 1e12;
  b.json.begin();
  b.json.field("bench", "attention");
  b.json.field("variant", variant);
  b.json.field("dtype", dtype);
  b.json.field("causal", double(causal));
  b.json.field("stages", double(stages));
  b.json.field("heads", double(bh));
  b.json.field("n_ctx", double(n));
  b.json.field("head_dim", double(d));
  b.json.field("ms", ms);
  b.json.field("TFLOPs", tf);
  b.json.field(errName, err);
  kernelFields(b.json, kk);
  b.json.end();
  char check[64];
  std::snprintf(check, sizeof check, errText, err);
  std::printf("attention %-8s %-32s %lld x %lld x %lld  %8.3f ms  %7.1f TFLOP/s  (sampled %s)\n",
              dtype.c_str(), variant.c_str(), (long long)bh, (long long)n, (long long)d, ms, tf,
              check);
  std::fflush(stdout);
}

// The fp8 attention kernels (examples/attention_fp8_ws_pp_persistent_d128*.tir, variants
// "fp8-ws-pp-persistent-d128" and "-causal"; sm_90 only) on n_ctx 1024, 4096 and 16384 with bh
// chosen as above: e4m3 Q, K and V^T (torch.randn's rounded; the device repeats the first 16
// heads), sm_scale 1 / sqrt(128), descales 1, O in bf16. One launch is checked on 16 sampled rows
// against float64 (testing::fp8AttentionRow: the largest error over its bound is reported, and
// over 1 fails), then timed; flops as above.
bool fp8AttentionRows(Bench &b, std::mt19937_64 &rng) {
  if (b.jit.context().computeCapability() != 90)
    return true;
  const int64_t d = 128;
  const float scale = 1.0f / std::sqrt(float(d));
  for (int64_t n : {1024, 4096, 16384}) {
    const int64_t bh = attentionBatchHeads(n, d), base = std::min<int64_t>(bh, 16);
    const size_t headBytes = size_t(n * d), elems = size_t(bh) * headBytes;
    std::vector<uint8_t> q, k, vt; // the first `base` heads
    std::optional<runtime::DeviceBuffer> dq, dk, dv;
    for (auto [host, dev] : {std::pair{&q, &dq}, {&k, &dk}, {&vt, &dv}}) {
      *host = linlayout::testing::randomNormalE4M3(size_t(base) * headBytes, rng);
      auto buf = repeatedOnDevice(*host, elems);
      CHECK(buf);
      dev->emplace(std::move(*buf));
    }
    auto dout = runtime::DeviceBuffer::allocate(elems * 2);
    CHECK(dout);
    for (const bool causal : {false, true}) {
      const std::string variant =
          causal ? "fp8-ws-pp-persistent-d128-causal" : "fp8-ws-pp-persistent-d128";
      if (!variantAsked(b.variant, variant))
        continue;
      const std::string file = causal ? "attention_fp8_ws_pp_persistent_d128_causal.tir"
                                      : "attention_fp8_ws_pp_persistent_d128.tir";
      auto m = matmulKernel(ScalarKind::F16, sourceDir(LINLAYOUT_SOURCE_DIR), file);
      CHECK(m);
      auto kernel = b.jit.compile(*m, jit::CompileOptions{});
      CHECK(kernel);
      const jit::Kernel &kk = **kernel;
      const auto &params = kk.metadata().params;
      std::vector<jit::KernelArg> args;
      for (auto [i, buf, dims, stride] :
           {std::tuple{0, &*dq, std::vector<uint64_t>{uint64_t(bh * n), uint64_t(d)}, uint64_t(d)},
            {1, &*dk, {uint64_t(bh * n), uint64_t(d)}, uint64_t(d)},
            {2, &*dv, {uint64_t(bh * d), uint64_t(n)}, uint64_t(n)}}) {
        auto arg = jit::tensorArgFor(params.at(size_t(i)), *buf, dims, {stride});
        CHECK(arg);
        args.push_back(*arg);
      }
      args.push_back(jit::KernelArg::of(*dout));
      args.push_back(jit::KernelArg::of(int32_t(n)));
      args.push_back(jit::KernelArg::of(scale));
      args.push_back(jit::KernelArg::of(int32_t(bh)));
      for (int i = 0; i < 3; ++i) // the descales
        args.push_back(jit::KernelArg::of(1.0f));
      const runtime::Dim3 programs{
          std::min(unsigned(b.jit.context().multiprocessorCount()), unsigned(n / 128 * bh))};
      auto launch = [&kk, programs, args] {
        return kk.launchArgs(programs, args, runtime::Stream::null());
      };
      CHECK(dout->fill(0xff));
      CHECK(launch());
      std::vector<uint16_t> out(elems);
      CHECK(dout->copyToHost(out.data(), elems * 2));
      double worst = 0; // error over bound
      for (int sample = 0; sample < 16; ++sample) {
        const size_t h = rng() % size_t(bh), i = rng() % size_t(n);
        const auto want = linlayout::testing::fp8AttentionRow(
            q, k, vt, size_t(n), size_t(d), h % size_t(base), i, causal, scale, 1.0);
        for (size_t c = 0; c < size_t(d); ++c) {
          const double got = decodeHalf(ScalarKind::BF16, out[(h * size_t(n) + i) * d + c]);
          worst = std::max(worst,
                           std::isnan(got) ? INFINITY : std::abs(got - want.o[c]) / want.bound[c]);
        }
      }
      if (!(worst <= 1)) {
        b.error = variant + ": a sampled O lies " + std::to_string(worst) +
                  " times its bound from float64";
        return false;
      }
      attentionRow(b, launch, kk, variant, "f8E4M3FN", causal, 1, bh, n, d,
                   "err_over_bound_sampled", "error / bound %.2f", worst);
    }
  }
  return true;
}

bool attentionSection(Bench &b, std::mt19937_64 &rng) {
  using Config = AttentionConfig;
  std::vector<Config> configs = {
      {"attention.tir", "", false, 64},
      {"attention_causal.tir", "causal-", true, 64},
      {"attention_wgmma.tir", "wgmma-", false, 64, ScalarKind::F16, true},
      {"attention_d128.tir", "d128-", false, 128},
      {"attention_wgmma_d128.tir", "wgmma-d128-", false, 128, ScalarKind::F16, true},
      {"attention_wgmma_d128_causal.tir", "wgmma-d128-causal-", true, 128, ScalarKind::F16, true},
      {"attention_wgmma_d128_bn128.tir", "wgmma-d128-bn128-", false, 128, ScalarKind::F16, true},
      {"attention.tir", "bf16-", false, 64, ScalarKind::BF16}};
  for (const Config &c : attentionWsConfigs()) {
    configs.push_back(c);
    if (std::find(kBf16AttentionKernels.begin(), kBf16AttentionKernels.end(), c.file) !=
        kBf16AttentionKernels.end()) {
      Config b = c;
      b.prefix = "bf16-" + c.prefix;
      b.elem = ScalarKind::BF16;
      configs.push_back(b);
    }
  }
  // Grouped by inputs (element type, head dim), which are made once per group and size.
  std::stable_sort(configs.begin(), configs.end(), [](const Config &x, const Config &y) {
    return std::pair(int(x.elem), x.d) < std::pair(int(y.elem), y.d);
  });
  AttentionData data;
  for (int64_t n : {1024, 4096, 16384}) {
    for (const Config &cfg : configs) {
      if (cfg.hopper && b.jit.context().computeCapability() != 90)
        continue;
      std::vector<int> stageCounts = cfg.ws ? std::vector<int>{1} : std::vector<int>{1, 2, 3};
      auto name = [&](int stages) {
        if (cfg.ws) // the ring is in the IR: no pipelining pass
          return std::string(cfg.prefix);
        return cfg.prefix +
               (stages == 1 ? std::string("plain") : "pipelined-" + std::to_string(stages));
      };
      std::erase_if(stageCounts, [&](int s) { return !variantAsked(b.variant, name(s)); });
      if (stageCounts.empty())
        continue;
      auto m = matmulKernel(cfg.elem, sourceDir(LINLAYOUT_SOURCE_DIR), cfg.file); // f16 -> elem
      CHECK(m);
      const int d = cfg.d;
      const float scale = 1.0f / std::sqrt(float(d));
      const int64_t bh = attentionBatchHeads(n, d);
      if (data.d != d || data.n != n || data.elem != cfg.elem) {
        data = AttentionData{};
        data.d = d;
        data.n = n;
        data.bh = bh;
        data.baseHeads = std::min<int64_t>(bh, 16);
        data.elem = cfg.elem;
        CHECK(makeAttentionData(data, rng));
      }
      const size_t elems = size_t(bh) * size_t(n) * d;
      const runtime::DeviceBuffer &dq = *data.dq, &dk = *data.dk, &dv = *data.dv;
      runtime::DeviceBuffer &dout = *data.dout;
      for (int stages : stageCounts) {
        const std::string variant = name(stages);
        jit::CompileOptions o;
        o.numStages = stages;
        auto kernel = b.jit.compile(*m, o);
        CHECK(kernel);
        const jit::Kernel &kk = **kernel;
        const runtime::Dim3 grid{unsigned(n / 128), unsigned(bh)};
        std::function<Status()> launch;
        if (cfg.ws) {
          // K and V are tensor maps over [bh * n_ctx, d]; Q and O pointers, or tensor maps where
          // the kernel copies them by TMA (its parameters say which).
          const auto &params = kk.metadata().params;
          const std::vector<uint64_t> dims{uint64_t(bh) * uint64_t(n), uint64_t(d)};
          const runtime::DeviceBuffer *qkvo[] = {&dq, &dk, &dv, &dout};
          std::vector<jit::KernelArg> args;
          for (size_t i = 0; i < 4; ++i) {
            auto arg = jit::tensorArgFor(params.at(i), *qkvo[i], dims, {uint64_t(d) * 2});
            CHECK(arg);
            args.push_back(*arg);
          }
          args.push_back(jit::KernelArg::of(int32_t(n)));
          args.push_back(jit::KernelArg::of(scale));
          runtime::Dim3 programs = grid;
          if (cfg.persistent) {
            const unsigned tiles = unsigned(n / 128 * bh);
            programs = {std::min(unsigned(b.jit.context().multiprocessorCount()), tiles)};
            args.push_back(jit::KernelArg::of(int32_t(bh)));
          }
          launch = [&kk, programs, args] {
            return kk.launchArgs(programs, args, runtime::Stream::null());
          };
        } else {
          launch = [&kk, grid, &dq, &dk, &dv, &dout, n, scale] {
            return kk.launch(grid, dq, dk, dv, dout, int32_t(n), scale);
          };
        }
        CHECK(dout.fill(0xff));
        CHECK(launch());
        std::vector<uint16_t> out(elems);
        CHECK(dout.copyToHost(out.data(), elems * 2));
        double worst = 0;
        for (int sample = 0; sample < 16; ++sample) {
          const size_t h = rng() % size_t(bh), i = rng() % size_t(n);
          const size_t base = (h % size_t(data.baseHeads)) * size_t(n) * d;
          const size_t obase = h * size_t(n) * d;
          const size_t keys = cfg.causal ? i + 1 : size_t(n);
          std::vector<double> p(keys, 0.0);
          double mx = -INFINITY, sum = 0;
          for (size_t j = 0; j < keys; ++j) {
            for (int c = 0; c < d; ++c)
              p[j] += decodeHalf(cfg.elem, data.q[base + i * d + c]) *
                      decodeHalf(cfg.elem, data.k[base + j * d + c]);
            mx = std::max(mx, p[j] *= scale);
          }
          for (double &x : p)
            sum += x = std::exp(x - mx);
          for (int c = 0; c < d; ++c) {
            double want = 0;
            for (size_t j = 0; j < keys; ++j)
              want += p[j] * decodeHalf(cfg.elem, data.v[base + j * d + c]);
            double got = decodeHalf(cfg.elem, out[obase + i * d + c]);
            worst = std::max(worst, std::isnan(got) ? INFINITY : std::abs(got - want / sum));
          }
        }
        attentionRow(b, launch, kk, variant, std::string(ir::name(cfg.elem)), cfg.causal, stages,
                     bh, n, d, "max_abs_err_sampled", "max abs err %.2e", worst);
      }
    }
  }
  return true;
}

// The matmul example as written (plain: each K step loads its tiles and converts them through
// shared memory), software-pipelined with 3 and 4 stages (cp.async rings, ldmatrix loads) and
// prefetched; the 128x256 tile with 8 warps (matmul_wide.tir) plain, with 3 stages, prefetched
// with 3 and 4 stages and K steps of 32 and 64 (also in program groups of 8 and of 16 M tiles)
// and with 2 stages of K steps of 128 (also grouped), and in persistent kernels
// (matmul_wide_persistent.tir, a K loop per tile; matmul_wide_flat.tir, one loop); the 128x128
// tile's reshapes (8 warps; K steps of 64); and on an sm_90 GPU matmul_wgmma.tir (tiles in NVMMA
// shared memory, one wgmma warp group) plain and with 3 and 4 stages (cp.async into NVMMA rings
// that wgmma reads, one wgmma group in flight across iterations), matmul_wgmma_wide.tir (128x256,
// two warp groups) plain and with 3 and 4 stages, and the TMA examples (examples/matmul_tma*.tir).
bool gemmSection(Bench &b, std::mt19937_64 &rng) {
  const bool hopper = b.jit.context().computeCapability() == 90;
  std::vector<GemmSpec> specs;
  for (int stages : {1, 3, 4})
    specs.push_back({.stages = stages});
  // With the prefetch pass (K slices of 16: the next slice's ldmatrix under this one's mma).
  for (int stages : {3, 4})
    specs.push_back({.stages = stages, .prefetchK = 16});
  for (int stages : {1, 3})
    specs.push_back({.file = "matmul_wide.tir", .stages = stages});
  for (int stages : {3, 4})
    for (Reshape r : {Reshape::None, Reshape::KStep64})
      specs.push_back({.file = "matmul_wide.tir", .stages = stages, .prefetchK = 16, .reshape = r});
  // The same with the programs walked in groups of 8 M tiles (for L2 reuse), and K steps of 128
  // (eight slices, one barrier per step) in two stages: 2 x 96 KiB of rings.
  // Groups of 16 M tiles: a wave of 132 programs then spans ~16 M x ~8 N tiles of 128 x 256,
  // about square, so the A and B panels it reads together are smallest.
  for (int groupM : {8, 16})
    for (int stages : {3, 4})
      specs.push_back({.file = "matmul_wide.tir",
                       .stages = stages,
                       .prefetchK = 16,
                       .reshape = Reshape::KStep64,
                       .groupM = groupM});
  for (int groupM : {0, 8, 16})
    specs.push_back({.file = "matmul_wide.tir",
                     .stages = 2,
                     .prefetchK = 16,
                     .reshape = Reshape::KStep128,
                     .groupM = groupM});
  // The same tile in a persistent kernel (one program per SM walking the tiles in M-major order;
  // each tile's K loop pipelined with its own prologue): K steps of 64, 3 stages.
  specs.push_back({.file = "matmul_wide_persistent.tir",
                   .stages = 3,
                   .prefetchK = 16,
                   .reshape = Reshape::KStep64});
  // The flat persistent kernel (one loop over all of a program's K steps, each tile stored from
  // a branch in it): the copies of a program's next tile are in flight while it stores the last.
  // K steps of 64, 3 and 4 stages.
  for (int stages : {3, 4})
    specs.push_back({.file = "matmul_wide_flat.tir",
                     .stages = stages,
                     .prefetchK = 16,
                     .reshape = Reshape::KStep64});
  // Diagnostic (only with --variant wide-pipelined-3-prefetch-k64-nostore): the fastest mma.sync
  // kernel without its stores of C.
  specs.push_back({.file = "matmul_wide.tir",
                   .stages = 3,
                   .prefetchK = 16,
                   .reshape = Reshape::KStep64,
                   .noStore = true});
  for (Reshape r : {Reshape::Warps8, Reshape::KStep64})
    specs.push_back({.stages = 3, .prefetchK = 16, .reshape = r});
  if (hopper)
    for (const char *file : {"matmul_wgmma.tir", "matmul_wgmma_wide.tir"})
      for (int stages : {1, 3, 4})
        specs.push_back({.file = file, .stages = stages});
  for (const GemmSpec &spec : specs)
    if (!gemmVariant(b, rng, spec))
      return false;
  if (hopper) {
    for (const std::string &f :
         exampleFilesStartingWith("matmul_tma", sourceDir(LINLAYOUT_SOURCE_DIR)))
      if (!gemmTmaVariant(b, rng, f))
        return false;
    // The warp-specialized TMA matmuls (examples/matmul_ws*.tir, variants "ws", "ws_wide", ...): a
    // 1-warp producer partition, wgmma in the default region's one or two warp groups; the
    // "_halfout" ones write C in the inputs' type as cuBLAS does, "ws_persistent_tmastore" by TMA
    // stores overlapped with the next tile. f16 and bf16 inputs.
    const std::vector<std::string> ws =
        exampleFilesStartingWith("matmul_ws", sourceDir(LINLAYOUT_SOURCE_DIR));
    for (ScalarKind e : {ScalarKind::F16, ScalarKind::BF16})
      for (const std::string &f : ws)
        if (!gemmTmaVariant(b, rng, f, e))
          return false;
    // The fp8 ones (examples/matmul_fp8_ws*.tir, variants "fp8_ws...", "fp8_ws...-bf16"): e4m3
    // inputs, C in f16, bf16 or f32.
    for (const std::string &f :
         exampleFilesStartingWith("matmul_fp8_ws", sourceDir(LINLAYOUT_SOURCE_DIR)))
      for (ScalarKind out : {ScalarKind::F16, ScalarKind::BF16, ScalarKind::F32})
        if (!gemmFp8Variant(b, rng, f, out))
          return false;
    // Diagnostic (only with --variant tma_mma_wide-noload): the TMA-fed mma.sync loop without
    // its copies.
    if (!gemmTmaVariant(b, rng, "matmul_tma_mma_wide.tir", ScalarKind::F16, "noload"))
      return false;
  }
  // bf16 inputs (f32 accumulate and output) for the fastest kernel of each family.
  if (!gemmVariant(
          b, rng,
          {.file = "matmul_wide.tir", .stages = 3, .prefetchK = 16, .elem = ScalarKind::BF16}))
    return false;
  if (hopper) {
    if (!gemmVariant(b, rng,
                     {.file = "matmul_wgmma_wide.tir", .stages = 3, .elem = ScalarKind::BF16}))
      return false;
    if (!gemmTmaVariant(b, rng, "matmul_tma_wide.tir", ScalarKind::BF16))
      return false;
  }
  return true;
}

// The tensor-core ceiling of `mma.sync` on this GPU: a kernel that does nothing but issue
// m16n8k16 f16 -> f32 mma.sync (`chains` independent accumulators per warp, 16 warps per SM, no
// memory traffic in the loop), so the GEMM rows can be read against what the instruction can
// give at all. On Hopper the legacy mma.sync path has about half the throughput of wgmma, which
// bounds what any mma.sync kernel (ours or Gluon's mma_v2) can reach against cuBLAS.
std::string mmaPeakPtx(int chains) {
  std::string p = ".version 8.0\n.target sm_80\n.address_size 64\n"
                  ".visible .entry mma_peak(.param .u64 out, .param .u32 iters) {\n"
                  "  .reg .pred %p;\n  .reg .b32 %r<8>;\n  .reg .b32 %n;\n  .reg .b64 %rd<4>;\n";
  p += "  .reg .f32 %f<" + std::to_string(4 * chains) + ">;\n";
  // Operands from the thread index, so that nothing is constant; accumulators start at 0.
  p += "  mov.u32 %r0, %tid.x;\n";
  for (int i = 1; i < 7; ++i)
    p += "  xor.b32 %r" + std::to_string(i) + ", %r0, " + std::to_string(0x3c003c00 + i) + ";\n";
  for (int i = 0; i < 4 * chains; ++i)
    p += "  mov.f32 %f" + std::to_string(i) + ", 0f00000000;\n";
  p += "  ld.param.u32 %n, [iters];\nloop:\n";
  for (int u = 0; u < 2; ++u)
    for (int c = 0; c < chains; ++c) {
      std::string d = "{%f" + std::to_string(4 * c) + ", %f" + std::to_string(4 * c + 1) + ", %f" +
                      std::to_string(4 * c + 2) + ", %f" + std::to_string(4 * c + 3) + "}";
      p += "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 " + d +
           ", {%r1, %r2, %r3, %r4}, {%r5, %r6}, " + d + ";\n";
    }
  p += "  sub.u32 %n, %n, 1;\n  setp.ne.u32 %p, %n, 0;\n  @%p bra loop;\n";
  for (int i = 1; i < 4 * chains; ++i)
    p += "  add.f32 %f0, %f0, %f" + std::to_string(i) + ";\n";
  p += "  mov.u32 %r7, %ctaid.x;\n  mov.u32 %r6, %ntid.x;\n  mad.lo.u32 %r7, %r7, %r6, %r0;\n"
       "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r7, 4;\n  add.u64 %rd1, %rd1, %rd2;\n"
       "  st.global.f32 [%rd1], %f0;\n  ret;\n}\n";
  return p;
}

// The same instruction fed the way the 128x256 GEMM's inner loop feeds it, without the copies'
// address arithmetic, the waits or the barriers: each warp multiplies a 64x64 block (32
// m16n8k16 accumulators) in K slices of 16; per slice it loads the next slice's operands from
// shared memory with `ldsm` ldmatrix.x4 (half of them transposed; 8 is the GEMM's 4 KiB: A and B
// of the slice) while `mma` of the current slice's mma.sync run, two register sets taking turns,
// and stores `sts` st.shared.v4 of 512 bytes per warp elsewhere (3 is the 1.5 KiB per warp and
// slice that the GEMM's copies write). All accesses are conflict-free. With mma = 0 the loads are
// folded into one register instead, so that ptxas keeps them: shared-memory bandwidth alone.
std::string mmaLdsmPeakPtx(int ldsm, int mma, int sts, int sets = 2) {
  std::string p =
      ".version 8.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry mma_ldsm_peak(.param .u64 out, .param .u32 iters) {\n"
      "  .shared .align 16 .b8 tile[26624];\n"
      "  .reg .pred %p;\n  .reg .b32 %r<8>;\n  .reg .b32 %n;\n  .reg .b32 %s;\n"
      "  .reg .b32 %w;\n  .reg .b64 %rd<4>;\n  .reg .b32 %x<96>;\n  .reg .f32 %f<128>;\n";
  // Lane l reads the 16 bytes at l*16 of each 512-byte block of the first 4 KiB (each 8x8
  // matrix one 128-byte row; every warp reads them, as the GEMM's warps share their tiles) and
  // writes 16 bytes at l*16 of its warp's 2 KiB from 8 KiB on.
  p += "  mov.u32 %r0, %tid.x;\n  mov.u32 %s, tile;\n  shl.b32 %r1, %r0, 4;\n"
       "  and.b32 %r1, %r1, 511;\n  shr.u32 %r2, %r0, 5;\n  shl.b32 %r2, %r2, 11;\n"
       "  add.u32 %s, %s, %r1;\n  add.u32 %w, %s, 8192;\n  add.u32 %w, %w, %r2;\n";
  for (int i = 0; i < 32 * sets; ++i)
    p += "  xor.b32 %x" + std::to_string(i) + ", %r0, " + std::to_string(0x3c003c00 + i) + ";\n";
  for (int i = 0; i < 128; ++i)
    p += "  mov.f32 %f" + std::to_string(i) + ", 0f00000000;\n";
  auto x = [](int set, int i) { return "%x" + std::to_string(32 * set + i % 32); };
  // The address moves with the iteration (by 128-byte rows, which keeps the accesses
  // conflict-free), or ptxas would hoist the loads out of the loop.
  p += "  mov.u32 %r5, 0;\n  ld.param.u32 %n, [iters];\nloop:\n  and.b32 %r3, %n, 7;\n"
       "  shl.b32 %r3, %r3, 7;\n  add.u32 %r4, %s, %r3;\n  add.u32 %r6, %w, %r3;\n";
  for (int set = 0; set < sets; ++set) {
    const int next = (set + sets - 1) % sets;
    int mmaDone = 0;
    auto emitMma = [&](int upTo) {
      for (; mmaDone < upTo; ++mmaDone) {
        int acc = mmaDone % 32, mi = acc / 8, nj = acc % 8;
        std::string d = "{%f" + std::to_string(4 * acc) + ", %f" + std::to_string(4 * acc + 1) +
                        ", %f" + std::to_string(4 * acc + 2) + ", %f" +
                        std::to_string(4 * acc + 3) + "}";
        p += "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 " + d + ", {" + x(set, 4 * mi) +
             ", " + x(set, 4 * mi + 1) + ", " + x(set, 4 * mi + 2) + ", " + x(set, 4 * mi + 3) +
             "}, {" + x(set, 16 + 2 * nj) + ", " + x(set, 17 + 2 * nj) + "}, " + d + ";\n";
      }
    };
    for (int l = 0; l < ldsm; ++l) {
      p += std::string("  ldmatrix.sync.aligned.m8n8.x4") + (l % 8 < 4 ? "" : ".trans") +
           ".shared.b16 {" + x(next, 4 * l) + ", " + x(next, 4 * l + 1) + ", " +
           x(next, 4 * l + 2) + ", " + x(next, 4 * l + 3) + "}, [%r4+" +
           std::to_string(512 * (l % 8)) + "];\n";
      if (l < sts)
        p += "  st.shared.v4.b32 [%r6+" + std::to_string(512 * l) + "], {" + x(set, 4 * l) + ", " +
             x(set, 4 * l + 1) + ", " + x(set, 4 * l + 2) + ", " + x(set, 4 * l + 3) + "};\n";
      emitMma(mma * (l + 1) / ldsm);
    }
    if (mma == 0)
      for (int i = 0; i < 32; ++i)
        p += "  xor.b32 %r5, %r5, " + x(next, i) + ";\n";
  }
  p += "  sub.u32 %n, %n, 1;\n  setp.ne.u32 %p, %n, 0;\n  @%p bra loop;\n";
  for (int i = 1; i < 128; ++i)
    p += "  add.f32 %f0, %f0, %f" + std::to_string(i) + ";\n";
  p += "  mov.b32 %r7, %f0;\n  xor.b32 %r5, %r5, %r7;\n  mov.b32 %f0, %r5;\n"
       "  mov.u32 %r7, %ctaid.x;\n  mov.u32 %r6, %ntid.x;\n  mad.lo.u32 %r7, %r7, %r6, %r0;\n"
       "  ld.param.u64 %rd1, [out];\n  mul.wide.u32 %rd2, %r7, 4;\n  add.u64 %rd1, %rd1, %rd2;\n"
       "  st.global.f32 [%rd1], %f0;\n  ret;\n}\n";
  return p;
}

// An example (a Triton dump) compiled as written.
Expected<std::shared_ptr<const jit::Kernel>> compileAsWritten(Bench &b, const std::string &file) {
  LL_ASSIGN_OR_RETURN(std::string text, exampleText(file, sourceDir(LINLAYOUT_SOURCE_DIR)));
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, file));
  return b.jit.compile(m, asBuilt());
}

// One scan kernel's record and line.
void recordScan(Bench &b, const char *config, double ms, double bytes, bool ok,
                const jit::Kernel &k) {
  b.json.begin();
  b.json.field("bench", "scan");
  b.json.field("config", config);
  b.json.field("ms", ms);
  b.json.field("TBps", tbps(bytes, ms));
  b.json.field("correct", ok ? 1 : 0);
  kernelFields(b.json, k);
  b.json.end();
  std::printf("scan %-10s %7.3f ms  %6.3f TB/s%s\n", config, ms, tbps(bytes, ms),
              ok ? "" : "  WRONG");
}

// Triton's scan kernels as Triton 3.6 wrote them (examples/triton/scans.ttgir, compact.ttgir,
// and the combining bodies of argmax.ttgir and recurrence.ttgir, made by
// scripts/gpu/triton_dumps.py), compiled here as written, on large inputs; the Triton
// side (gluon_scan_bench.py) launches the same Python kernels with the same arguments. Bytes
// moved: what the kernel reads and writes.
bool scanSection(Bench &b, std::mt19937_64 &rng) {
  // scans: 2^20 x 128 f32 and i32 inputs; f32 row prefix sums, i32 reversed row products, i32
  // running maxima down the columns of each 32-row tile; 32 rows per program.
  {
    const int64_t rows = int64_t(1) << 20, cols = 128, n = rows * cols;
    auto k = compileAsWritten(b, "triton/scans.ttgir");
    CHECK(k);
    std::vector<float> x(static_cast<size_t>(n));
    std::vector<int32_t> i(static_cast<size_t>(n));
    std::uniform_real_distribution<float> uf(-1, 1);
    for (size_t e = 0; e < size_t(n); ++e) {
      x[e] = uf(rng);
      i[e] = int32_t(rng() % 7) - 3;
    }
    auto dx = runtime::DeviceBuffer::fromHost<float>(x);
    auto di = runtime::DeviceBuffer::fromHost<int32_t>(i);
    auto dy = runtime::DeviceBuffer::allocate(size_t(n) * 4);
    auto dp = runtime::DeviceBuffer::allocate(size_t(n) * 4);
    auto dr = runtime::DeviceBuffer::allocate(size_t(n) * 4);
    CHECK(dx);
    CHECK(di);
    CHECK(dy);
    CHECK(dp);
    CHECK(dr);
    const runtime::Dim3 grid{unsigned(rows / 32)};
    auto launch = [&] {
      return (*k)->launch(grid, *dx, *di, *dy, *dp, *dr, int32_t(rows), int32_t(cols));
    };
    CHECK(launch());
    std::vector<float> y(static_cast<size_t>(n));
    std::vector<int32_t> p(static_cast<size_t>(n)), r(static_cast<size_t>(n));
    CHECK(dy->copyToHost(y.data(), y.size() * 4));
    CHECK(dp->copyToHost(p.data(), p.size() * 4));
    CHECK(dr->copyToHost(r.data(), r.size() * 4));
    bool ok = true;
    for (int sample = 0; sample < 64; ++sample) {
      const size_t row = size_t(rng() % uint64_t(rows)), base = row * size_t(cols);
      double sum = 0;
      uint32_t prod = 1;
      for (size_t c = 0; c < size_t(cols); ++c) {
        sum += x[base + c];
        ok &= std::abs(y[base + c] - sum) <= 1e-4 * (1 + std::abs(sum));
        prod *= uint32_t(i[base + size_t(cols) - 1 - c]);
        ok &= p[base + size_t(cols) - 1 - c] == int32_t(prod);
        int32_t mx = i[base + c];
        for (size_t above = row / 32 * 32; above < row; ++above)
          mx = std::max(mx, i[above * size_t(cols) + c]);
        ok &= r[base + c] == mx;
      }
    }
    recordScan(b, "scans", b.time(launch), 5.0 * double(n) * 4, ok, **k);
  }
  // argmax: 2^20 x 128 f32 (small integers: many ties), 32 rows per program: each row's maximum
  // and its first column, each program's column argmins (reductions of two tensors by a
  // combining body).
  {
    const int64_t rows = int64_t(1) << 20, cols = 128, n = rows * cols, programs = rows / 32;
    auto k = compileAsWritten(b, "triton/argmax.ttgir");
    CHECK(k);
    std::vector<float> x(static_cast<size_t>(n));
    for (float &v : x)
      v = float(int(rng() % 65) - 32);
    auto dx = runtime::DeviceBuffer::fromHost<float>(x);
    auto dv = runtime::DeviceBuffer::allocate(size_t(rows) * 4);
    auto di = runtime::DeviceBuffer::allocate(size_t(rows) * 4);
    auto dj = runtime::DeviceBuffer::allocate(size_t(programs * cols) * 4);
    CHECK(dx);
    CHECK(dv);
    CHECK(di);
    CHECK(dj);
    const runtime::Dim3 grid{unsigned(programs)};
    auto launch = [&] {
      return (*k)->launch(grid, *dx, *dv, *di, *dj, int32_t(rows), int32_t(cols));
    };
    CHECK(launch());
    std::vector<float> v(static_cast<size_t>(rows));
    std::vector<int32_t> i(static_cast<size_t>(rows)), j(static_cast<size_t>(programs * cols));
    CHECK(dv->copyToHost(v.data(), v.size() * 4));
    CHECK(di->copyToHost(i.data(), i.size() * 4));
    CHECK(dj->copyToHost(j.data(), j.size() * 4));
    bool ok = true;
    for (int sample = 0; sample < 64; ++sample) {
      const size_t row = size_t(rng() % uint64_t(rows)), base = row * size_t(cols);
      const size_t best =
          size_t(std::max_element(x.begin() + ptrdiff_t(base), x.begin() + ptrdiff_t(base) + cols) -
                 (x.begin() + ptrdiff_t(base))); // the first greatest
      ok &= v[row] == x[base + best] && i[row] == int32_t(best);
      const size_t prog = size_t(rng() % uint64_t(programs)), c = size_t(rng() % uint64_t(cols));
      size_t least = 0;
      for (size_t r = 1; r < 32; ++r)
        if (x[(prog * 32 + r) * size_t(cols) + c] < x[(prog * 32 + least) * size_t(cols) + c])
          least = r;
      ok &= j[prog * size_t(cols) + c] == int32_t(least);
    }
    recordScan(b, "argmax", b.time(launch), 4.0 * double(n + 2 * rows + programs * cols), ok, **k);
  }
  // recurrence: 2^20 x 128 f32 coefficients a and inputs x, 32 rows per program: along each
  // row h[j] = a[j] * h[j-1] + x[j] and, from the row's end, g[j] = a[j] * g[j+1] + x[j] (scans
  // of two tensors by a combining body that does not commute).
  {
    const int64_t rows = int64_t(1) << 20, cols = 128, n = rows * cols;
    auto k = compileAsWritten(b, "triton/recurrence.ttgir");
    CHECK(k);
    std::vector<float> a(static_cast<size_t>(n)), x(static_cast<size_t>(n));
    std::uniform_real_distribution<float> ua(0.5f, 1.5f), ux(-1, 1);
    for (size_t e = 0; e < size_t(n); ++e) {
      a[e] = ua(rng);
      x[e] = ux(rng);
    }
    auto da = runtime::DeviceBuffer::fromHost<float>(a);
    auto dx = runtime::DeviceBuffer::fromHost<float>(x);
    auto dh = runtime::DeviceBuffer::allocate(size_t(n) * 4);
    auto dg = runtime::DeviceBuffer::allocate(size_t(n) * 4);
    CHECK(da);
    CHECK(dx);
    CHECK(dh);
    CHECK(dg);
    const runtime::Dim3 grid{unsigned(rows / 32)};
    auto launch = [&] {
      return (*k)->launch(grid, *da, *dx, *dh, *dg, int32_t(rows), int32_t(cols));
    };
    CHECK(launch());
    std::vector<float> h(static_cast<size_t>(n)), g(static_cast<size_t>(n));
    CHECK(dh->copyToHost(h.data(), h.size() * 4));
    CHECK(dg->copyToHost(g.data(), g.size() * 4));
    bool ok = true;
    for (int sample = 0; sample < 64; ++sample) {
      const size_t base = size_t(rng() % uint64_t(rows)) * size_t(cols);
      double fwd = 0, back = 0;
      for (size_t c = 0; c < size_t(cols); ++c) {
        fwd = a[base + c] * fwd + x[base + c];
        ok &= std::abs(h[base + c] - fwd) <= 1e-4 * (1 + std::abs(fwd));
        const size_t e = base + size_t(cols) - 1 - c;
        back = a[e] * back + x[e];
        ok &= std::abs(g[e] - back) <= 1e-4 * (1 + std::abs(back));
      }
    }
    recordScan(b, "recurrence", b.time(launch), 16.0 * double(n), ok, **k);
  }
  // compact: 2^28 floats, 1024 per program: each program's positive elements packed in order
  // (a cumsum of the kept flags gives their places) and counted.
  {
    const int64_t n = int64_t(1) << 28, programs = n / 1024;
    auto k = compileAsWritten(b, "triton/compact.ttgir");
    CHECK(k);
    std::vector<float> x(static_cast<size_t>(n));
    std::normal_distribution<float> nf(0, 1);
    for (float &v : x)
      v = nf(rng);
    auto dx = runtime::DeviceBuffer::fromHost<float>(x);
    auto dout = runtime::DeviceBuffer::allocate(size_t(n) * 4);
    auto dcount = runtime::DeviceBuffer::allocate(size_t(programs) * 4);
    CHECK(dx);
    CHECK(dout);
    CHECK(dcount);
    const runtime::Dim3 grid{unsigned(programs)};
    auto launch = [&] { return (*k)->launch(grid, *dx, *dout, *dcount, int32_t(n)); };
    CHECK(dout->fill(0));
    CHECK(launch());
    std::vector<float> out(static_cast<size_t>(n));
    std::vector<int32_t> count(static_cast<size_t>(programs));
    CHECK(dout->copyToHost(out.data(), out.size() * 4));
    CHECK(dcount->copyToHost(count.data(), count.size() * 4));
    bool ok = true;
    int64_t kept = 0;
    for (int64_t prog = 0; prog < programs; ++prog) {
      size_t at = size_t(prog) * 1024, next = at;
      for (size_t e = at; e < at + 1024; ++e)
        if (x[e] > 0) {
          if (prog % 1024 == 0) // check the elements of a sample of programs
            ok &= out[next] == x[e];
          ++next;
        }
      ok &= count[size_t(prog)] == int32_t(next - at);
      kept += int64_t(next - at);
    }
    recordScan(b, "compact", b.time(launch), 4.0 * double(n + kept + programs), ok, **k);
  }
  return true;
}

// i8 x i8 -> i32 GEMMs at 4096^3 and 8192^3: examples/matmul_i8.tir (128x128 tiles, K steps of
// 64, mma.sync m16n8k32, 4 warps) plain, pipelined and prefetched in slices of 32, and Triton's
// own kernel of that tiling (examples/triton/matmul_i8_mma_sync.ttgir, 3 stages) compiled here
// as written. Inputs of the whole i8 range; 64 sampled entries of each result checked exactly.
// TOPS: 2 n^3 integer ops per launch. gluon_i8gemm_bench.py times cuBLAS (torch._int_mm) and
// Triton on the same tiling.
bool i8gemmSection(Bench &b, std::mt19937_64 &rng) {
  struct Variant {
    const char *name, *file;
    int stages, prefetchK;
  };
  const Variant variants[] = {
      {"plain", "matmul_i8.tir", 1, 0},
      {"pipelined-3", "matmul_i8.tir", 3, 0},
      {"pipelined-4", "matmul_i8.tir", 4, 0},
      {"pipelined-3-prefetch32", "matmul_i8.tir", 3, 32},
      {"triton-dump", "triton/matmul_i8_mma_sync.ttgir", 0, 0},
  };
  for (int64_t n : {4096, 8192}) {
    const size_t elems = size_t(n * n);
    std::vector<int8_t> ha(elems), hb(elems);
    for (size_t i = 0; i < elems; ++i) {
      uint64_t r = rng();
      ha[i] = int8_t(r);
      hb[i] = int8_t(r >> 8);
    }
    auto da = runtime::DeviceBuffer::fromHost<int8_t>(ha);
    auto db = runtime::DeviceBuffer::fromHost<int8_t>(hb);
    auto dc = runtime::DeviceBuffer::allocate(elems * 4);
    CHECK(da);
    CHECK(db);
    CHECK(dc);
    for (const Variant &v : variants) {
      if (!b.variant.empty() && b.variant != std::string("i8-") + v.name)
        continue;
      auto text = exampleText(v.file, sourceDir(LINLAYOUT_SOURCE_DIR));
      CHECK(text);
      auto m = ir::parseModule(*text, v.file);
      CHECK(m);
      if (v.stages)
        CHECK(ir::pipelineLoops(*m, v.stages));
      if (v.prefetchK)
        CHECK(ir::prefetchDotOperands(*m, v.prefetchK));
      auto k = b.jit.compile(*m, asBuilt());
      if (!k.ok()) {
        gemmCompileError(b, std::string("i8-") + v.name, k.message());
        continue;
      }
      const jit::Kernel &kernel = **k;
      const runtime::Dim3 grid{unsigned(n / 128), unsigned(n / 128)};
      const int32_t ni = int32_t(n);
      const bool dump = v.stages == 0;
      auto launch = [&]() -> Status {
        // matmul_i8.tir: (a, b, c, K, lda, ldb, ldc); Triton's: (a, b, c, M, N, K).
        return dump ? kernel.launch(grid, *da, *db, *dc, ni, ni, ni)
                    : kernel.launch(grid, *da, *db, *dc, ni, ni, ni, ni);
      };
      CHECK(dc->fill(0xff));
      CHECK(launch());
      std::vector<int32_t> c(elems);
      CHECK(dc->copyToHost(c.data(), elems * 4));
      bool ok = true;
      for (int s = 0; s < 64; ++s) {
        size_t i = rng() % size_t(n), j = rng() % size_t(n);
        int64_t ref = 0;
        for (int64_t kk = 0; kk < n; ++kk)
          ref += int64_t(ha[i * size_t(n) + size_t(kk)]) * hb[size_t(kk) * size_t(n) + j];
        ok &= c[i * size_t(n) + j] == int32_t(ref);
      }
      double ms = b.time(launch, 50, 300);
      double tops = 2.0 * double(n) * double(n) * double(n) / (ms * 1e-3) / 1e12;
      b.json.begin();
      b.json.field("bench", "i8gemm");
      b.json.field("variant", v.name);
      b.json.field("n", double(n));
      b.json.field("ms", ms);
      b.json.field("TOPs", tops);
      b.json.field("correct", ok ? 1 : 0);
      kernelFields(b.json, kernel);
      b.json.end();
      std::printf("i8gemm %-24s %lld^3   %8.3f ms  %7.1f TOP/s%s\n", v.name, (long long)n, ms, tops,
                  ok ? "" : "  WRONG");
    }
  }
  return true;
}

bool peakSection(Bench &b) {
  const unsigned sms = unsigned(b.jit.context().multiprocessorCount());
  const uint32_t iters = 4096;
  // One float per thread: at most 2 blocks of 256 threads per SM.
  auto out = runtime::DeviceBuffer::allocate(size_t(sms) * 512 * 4);
  CHECK(out);
  bool ok = true;
  // One kernel at `blocksPerSm` blocks of `threads` per SM; `flopsPerWarp` per loop iteration.
  // `fields` go to the JSON record as they are.
  auto measure = [&](const std::string &ptx, const char *entry, const std::string &instruction,
                     unsigned blocksPerSm, unsigned threads, double flopsPerWarp,
                     const std::string &what,
                     const std::vector<std::pair<const char *, int>> &fields,
                     double bytesPerWarp = 0) {
    const unsigned warpsPerScheduler = blocksPerSm * threads / 32 / 4;
    auto mod = runtime::Module::loadPtx(ptx);
    CHECK(mod);
    auto fn = mod->function(entry);
    CHECK(fn);
    runtime::LaunchConfig cfg{{sms * blocksPerSm}, {threads}, 0, {}};
    auto launch = [&] { return runtime::launch(*fn, cfg, runtime::Stream::null(), *out, iters); };
    double ms = b.time(launch, 25, 200);
    double flops = double(sms) * blocksPerSm * (threads / 32) * iters * flopsPerWarp;
    double tf = flops / (ms * 1e-3) / 1e12;
    b.json.begin();
    b.json.field("bench", "mma_peak");
    b.json.field("instruction", instruction);
    for (auto [name, value] : fields)
      b.json.field(name, double(value));
    b.json.field("warps_per_scheduler", double(warpsPerScheduler));
    b.json.field("ms", ms);
    b.json.field("TFLOPs", tf);
    // Bytes per ns per SM.
    double smem = double(blocksPerSm) * (threads / 32) * iters * bytesPerWarp / (ms * 1e-3) / 1e9;
    if (bytesPerWarp > 0)
      b.json.field("smem_bytes_per_ns_per_sm", smem);
    b.json.end();
    std::printf("%s, %u warps per scheduler: %7.1f TFLOP/s", what.c_str(), warpsPerScheduler, tf);
    if (bytesPerWarp > 0)
      std::printf(", shared memory %.1f B/ns/SM", smem);
    std::printf("\n");
    return true;
  };
  const double mmaFlops = 2.0 * 16 * 8 * 16;
  // 2 blocks of 8 warps per SM (4 warps per scheduler) with 4 and 8 chains, 1 block (2 warps per
  // scheduler, the occupancy of the 128x256 GEMM tile) and 1 block of 4 warps (1 per scheduler)
  // with 8.
  for (auto [blocksPerSm, threads, chains] :
       {std::tuple{2u, 256u, 4}, {2u, 256u, 8}, {1u, 256u, 8}, {1u, 128u, 8}})
    ok &= measure(mmaPeakPtx(chains), "mma_peak", "mma.sync.m16n8k16.f32.f16.f16.f32", blocksPerSm,
                  threads, 2.0 * chains * mmaFlops,
                  "mma.sync m16n8k16 f16->f32 ceiling, " + std::to_string(chains) +
                      " chains per warp",
                  {{"chains", chains}});
  // The GEMM's inner loop without its copies (8 ldmatrix.x4 per 32 mma.sync); with stores of the
  // bytes the copies write; with twice the loads; the loads alone and with the stores; and with
  // the loads two slices ahead (three register sets) instead of one.
  for (auto [ldsm, mma, sts, sets] : {std::tuple{8, 32, 0, 2},
                                      {8, 32, 3, 2},
                                      {16, 32, 0, 2},
                                      {8, 0, 0, 2},
                                      {8, 0, 3, 2},
                                      {8, 32, 3, 3}}) {
    std::string what = "per K slice of 16 of a 64x64 warp tile: " + std::to_string(mma) +
                       " mma.sync, " + std::to_string(ldsm) + " ldmatrix.x4 (" +
                       std::to_string(sets - 1) + " slice(s) ahead), " + std::to_string(sts) +
                       " st.shared.v4";
    ok &= measure(mmaLdsmPeakPtx(ldsm, mma, sts, sets), "mma_ldsm_peak",
                  "mma.sync.m16n8k16 + ldmatrix.x4", 1, 256, sets * mma * mmaFlops, what,
                  {{"ldmatrix_per_slice", ldsm},
                   {"mma_per_slice", mma},
                   {"st_shared_per_slice", sts},
                   {"slices_ahead", sets - 1}},
                  double(sets) * (ldsm + sts) * 512);
  }
  return ok;
}
} // namespace

int main(int argc, char **argv) {
  std::string jsonPath, only, ptxDir, variant;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--json" && i + 1 < argc)
      jsonPath = argv[++i];
    else if (a == "--only" && i + 1 < argc)
      only = argv[++i];
    else if (a == "--ptx-dir" && i + 1 < argc)
      ptxDir = argv[++i];
    else if (a == "--variant" && i + 1 < argc)
      variant = argv[++i];
    else {
      std::fprintf(stderr, "usage: linlayout_gpu_bench [--json FILE] [--only "
                           "copy|convert|paths|padding|gemm|attention|peak] "
                           "[--ptx-dir DIR] [--variant GEMM_VARIANT | NAME_DTYPE_PATH]\n");
      return 2;
    }
  }
  auto jit = jit::Compiler::create(0);
  if (!jit.ok()) {
    std::printf("no GPU here: %s\n", jit.message().c_str());
    return 0;
  }
  auto flush = runtime::DeviceBuffer::allocate(size_t(256) << 20);
  if (!flush.ok()) {
    std::fprintf(stderr, "error: cannot allocate the benchmark's flush buffer\n");
    return 1;
  }
  Bench b{*jit, std::move(*flush), {}, {}, ptxDir, variant, {}, {}, {}, {}};
  const runtime::Context &ctx = jit->context();
  b.json.begin();
  b.json.field("bench", "device");
  b.json.field("name", ctx.name());
  b.json.field("cc", ctx.computeCapability());
  b.json.field("sms", ctx.multiprocessorCount());
  b.json.field("driver", ctx.driverVersion());
  b.json.field("arch", jit->arch());
  b.json.end();
  std::printf("%s (cc %d, %d SMs, driver API %d), PTX %s\n", ctx.name().c_str(),
              ctx.computeCapability(), ctx.multiprocessorCount(), ctx.driverVersion(),
              jit->arch().c_str());
  std::mt19937_64 rng(std::random_device{}());
  bool ok = true;
  if (only.empty() || only == "copy")
    ok &= copySection(b, rng);
  if (only.empty() || only == "convert")
    ok &= convertSection(b, rng);
  if (only.empty() || only == "paths")
    ok &= pathsSection(b, rng, only == "paths" && !variant.empty());
  if (only.empty() || only == "padding")
    ok &= paddingSection(b, rng);
  if (only.empty() || only == "gemm")
    ok &= gemmSection(b, rng);
  if (only.empty() || only == "attention")
    ok &= attentionSection(b, rng) && fp8AttentionRows(b, rng);
  if (only.empty() || only == "peak")
    ok &= peakSection(b);
  if (only.empty() || only == "scan")
    ok &= scanSection(b, rng);
  if (only.empty() || only == "i8gemm")
    ok &= i8gemmSection(b, rng);
  if (!jsonPath.empty()) {
    FILE *f = std::fopen(jsonPath.c_str(), "w");
    if (f) {
      std::fputs(b.json.text().c_str(), f);
      std::fclose(f);
    }
  }
  return ok ? 0 : 1;
}
