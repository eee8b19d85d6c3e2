// A TMA matmul kernel run on the interpreter with its protocol checks (proxy fences included) on
// f16 inputs: shared by the warp-specialization tests (WarpSpecializeTest.cpp,
// WarpSpecializeLoopsTest.cpp), which compare such runs bit for bit against the kernel they
// specialize. The kernels take A (M x K) and B (K x N) as tensor descriptors, C as a pointer or a
// tensor descriptor, then K and N, and a persistent one also M and N.
#pragma once

#include "Examples.h"

#include <string>
#include <vector>

namespace linlayout::ir::testing {

struct MatmulRun {
  Status status = Status::success();
  std::vector<float> c;
  /// C's buffer as bytes (f16 halves in its first half for a kernel that writes f16).
  std::vector<uint8_t> bytes;
};

/// How a matmul kernel is run: C is M x N; a program per tile (M / 128 x N / tileN), or, with
/// `programs`, that many programs of a persistent kernel (which takes M and N as arguments).
struct MatmulShape {
  int M = 128, N = 256, tileN = 128, programs = 0;
};

/// Kernel `fn` of `m` on M x N x K halves (A and B from fixed seeds, C zero).
inline MatmulRun runMatmul(const Module &m, int K, const std::string &fn, MatmulShape shape = {}) {
  const int M = shape.M, N = shape.N;
  auto af = randomFloats(size_t(M * K), 4), bf = randomFloats(size_t(K * N), 5);
  Memory mem;
  mem.buffers = {bytesOf(halfBitsOf(af)), bytesOf(halfBitsOf(bf)),
                 bytesOf(std::vector<float>(size_t(M * N)))};
  // C is a pointer, or a tensor map for a kernel that writes it by TMA stores (its f16 elements
  // where a pointer's would be).
  const bool cByTma = !m.functions.empty() && m.functions[0].body.args.size() > 2 &&
                      m.functions[0].type(m.functions[0].body.args[2]).isTensorDesc();
  std::vector<ArgValue> args = {
      ArgValue::tensorDesc(0, {M, K}, {K, 1}), ArgValue::tensorDesc(1, {K, N}, {N, 1}),
      cByTma ? ArgValue::tensorDesc(2, {M, N}, {N, 1}) : ArgValue::pointer(2), ArgValue::integer(K),
      ArgValue::integer(N)};
  Grid grid{M / 128, N / shape.tileN, 1};
  if (shape.programs) {
    args.push_back(ArgValue::integer(M));
    args.push_back(ArgValue::integer(N));
    grid = Grid{shape.programs, 1, 1};
  }
  InterpreterOptions strict;
  strict.checkProxyFences = true;
  MatmulRun r;
  r.status = interpret(m, fn, args, mem, grid, strict);
  r.c = valuesOf<float>(mem.buffers[2]);
  r.bytes = mem.buffers[2];
  return r;
}

/// The same for kernel `fn` of `text` (a parse error is the run's status).
inline MatmulRun runMatmul(const std::string &text, int K, const std::string &fn = "matmul_ws",
                           MatmulShape shape = {}) {
  auto m = parseModule(text, "matmul_ws.tir");
  if (!m.ok())
    return MatmulRun{Status(makeError(m.message())), {}, {}};
  return runMatmul(*m, K, fn, shape);
}

} // namespace linlayout::ir::testing
