// Compile examples/memcpy_1d.tir for this machine's GPU, copy a million floats with it, check.
#include "linlayout/jit/Compiler.h"
#include <cstdio>
#include <fstream>
#include <numeric>

using namespace linlayout;
int main() {
  std::ifstream file("examples/memcpy_1d.tir");
  std::string text(std::istreambuf_iterator<char>(file), {});
  auto jit = jit::Compiler::create(); // device 0; no GPU or driver is an error value
  if (!jit.ok())
    return std::printf("no GPU here: %s\n", jit.message().c_str()), 0;
  auto kernel = jit->compile(text, {}, "memcpy_1d.tir"); // lower/ + driver JIT, cached
  if (!kernel.ok())
    return std::printf("error: %s\n", kernel.message().c_str()), 1;
  const jit::KernelMetadata &md = (*kernel)->metadata(); // + PTX, params, conversion plans
  std::printf("%s: %s, %d registers\n", md.name.c_str(), md.target.c_str(), md.registers);
  std::vector<float> in(1 << 20);
  std::iota(in.begin(), in.end(), 0.0f);
  auto src = runtime::DeviceBuffer::fromHost<float>(in);
  auto dst = runtime::DeviceBuffer::allocate(in.size() * sizeof(float));
  if (!src.ok() || !dst.ok())
    return std::printf("error: %s\n", (src.ok() ? dst : src).message().c_str()), 1;
  Status s = (*kernel)->launch({unsigned(in.size() / 1024)}, *src, *dst, int32_t(in.size()));
  auto out = s.ok() ? dst->toHost<float>() : Expected<std::vector<float>>(s.error());
  std::printf("copy: %s\n", !out.ok() ? out.message().c_str() : *out == in ? "exact" : "WRONG");
  return out.ok() && *out == in ? 0 : 1;
}
