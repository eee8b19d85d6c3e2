#include "linlayout/runtime/Module.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace linlayout::runtime {
namespace {
constexpr int kJitInfoLogBuffer = 3;
constexpr int kJitInfoLogBufferSize = 4;
constexpr int kJitErrorLogBuffer = 5;
constexpr int kJitErrorLogBufferSize = 6;
constexpr int kFuncMaxThreadsPerBlock = 0;
constexpr int kFuncSharedSizeBytes = 1;
constexpr int kFuncLocalSizeBytes = 3;
constexpr int kFuncNumRegs = 4;
constexpr int kFuncMaxDynamicSharedSizeBytes = 8;
} // namespace

Expected<Module> Module::loadPtx(std::string_view ptx) {
  LL_ASSIGN_OR_RETURN(const DriverApi *api, driver());
  // The driver reads a NUL-terminated image.
  std::string image(ptx);
  std::vector<char> info(16384, 0), err(16384, 0);
  int options[] = {kJitInfoLogBuffer, kJitInfoLogBufferSize, kJitErrorLogBuffer,
                   kJitErrorLogBufferSize};
  void *values[] = {info.data(), reinterpret_cast<void *>(uintptr_t(info.size() - 1)), err.data(),
                    reinterpret_cast<void *>(uintptr_t(err.size() - 1))};
  Module m;
  Status s = check(api->cuModuleLoadDataEx(&m.mod_, image.c_str(), 4, options, values),
                   "cuModuleLoadDataEx");
  if (!s.ok())
    return makeError(s.message() + (err[0] ? ": " + std::string(err.data()) : ""));
  m.log_ = info.data();
  return m;
}

Module::Module(Module &&o) noexcept
    : mod_(std::exchange(o.mod_, nullptr)), log_(std::move(o.log_)) {}

Module &Module::operator=(Module &&o) noexcept {
  if (this != &o) {
    this->~Module();
    new (this) Module(std::move(o));
  }
  return *this;
}

Module::~Module() {
  if (mod_)
    (*driver())->cuModuleUnload(mod_);
}

Expected<Function> Module::function(const std::string &name) const {
  Function f;
  Status s =
      check((*driver())->cuModuleGetFunction(&f.fn_, mod_, name.c_str()), "cuModuleGetFunction");
  if (!s.ok())
    return makeError("no kernel '" + name + "' in the module: " + s.message());
  f.name_ = name;
  return f;
}

Expected<FunctionAttributes> Function::attributes() const {
  const DriverApi *api = *driver();
  FunctionAttributes a;
  LL_TRY_STATUS(
      check(api->cuFuncGetAttribute(&a.numRegisters, kFuncNumRegs, fn_), "cuFuncGetAttribute"));
  LL_TRY_STATUS(check(api->cuFuncGetAttribute(&a.staticSharedBytes, kFuncSharedSizeBytes, fn_),
                      "cuFuncGetAttribute"));
  LL_TRY_STATUS(check(api->cuFuncGetAttribute(&a.localBytes, kFuncLocalSizeBytes, fn_),
                      "cuFuncGetAttribute"));
  LL_TRY_STATUS(check(api->cuFuncGetAttribute(&a.maxThreadsPerBlock, kFuncMaxThreadsPerBlock, fn_),
                      "cuFuncGetAttribute"));
  return a;
}

Expected<int> Function::maxActiveBlocksPerSm(int threadsPerBlock, size_t dynamicSharedBytes) const {
  int blocks = 0;
  LL_TRY_STATUS(check((*driver())->cuOccupancyMaxActiveBlocksPerMultiprocessor(
                          &blocks, fn_, threadsPerBlock, dynamicSharedBytes),
                      "cuOccupancyMaxActiveBlocksPerMultiprocessor"));
  return blocks;
}

Status Function::setMaxDynamicSharedBytes(int bytes) const {
  return check((*driver())->cuFuncSetAttribute(fn_, kFuncMaxDynamicSharedSizeBytes, bytes),
               "cuFuncSetAttribute");
}

} // namespace linlayout::runtime
