#include "linlayout/jit/Compiler.h"

#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Printer.h"
#include "linlayout/lower/Lower.h"

#include <chrono>
#include <map>
#include <mutex>

namespace linlayout::jit {

namespace {

// lower/'s target type, named through LowerOptions so that this file is the only one that
// depends on how lower/ spells it.
using LowerTarget = decltype(lower::LowerOptions{}.target)::value_type;

constexpr int kDefaultStaticSharedLimit = 48 * 1024;

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

Expected<std::string> ptxArchFor(int cc) {
  if (cc < 80)
    return makeError("compute capability " + std::to_string(cc / 10) + "." +
                     std::to_string(cc % 10) + " is not supported: lower/ needs 8.0 or newer");
  if (cc >= 90)
    return std::string("sm_90");
  if (cc >= 89)
    return std::string("sm_89");
  if (cc >= 86)
    return std::string("sm_86");
  return std::string("sm_80");
}

struct Compiler::State {
  std::shared_ptr<const runtime::Context> context;
  std::string arch;
  LowerTarget target;
  mutable std::mutex mutex;
  std::map<std::string, std::shared_ptr<const Kernel>> cache;
  size_t hits = 0, misses = 0;
};

Compiler::Compiler(std::unique_ptr<State> state) : state_(std::move(state)) {}
Compiler::Compiler(Compiler &&) noexcept = default;
Compiler &Compiler::operator=(Compiler &&) noexcept = default;
Compiler::~Compiler() = default;

Expected<Compiler> Compiler::create(int ordinal) {
  LL_ASSIGN_OR_RETURN(runtime::Context ctx, runtime::Context::create(ordinal));
  LL_ASSIGN_OR_RETURN(std::string arch, ptxArchFor(ctx.computeCapability()));
  LL_ASSIGN_OR_RETURN(LowerTarget target, LowerTarget::parse(arch));
  auto state = std::make_unique<State>();
  state->context = std::make_shared<const runtime::Context>(std::move(ctx));
  state->arch = arch;
  state->target = target;
  return Compiler(std::move(state));
}

const runtime::Context &Compiler::context() const { return *state_->context; }
const std::string &Compiler::arch() const { return state_->arch; }

CacheStats Compiler::cacheStats() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return {state_->cache.size(), state_->hits, state_->misses};
}

Expected<std::shared_ptr<const Kernel>>
Compiler::compile(std::string_view text, const CompileOptions &options, std::string_view fileName) {
  LL_ASSIGN_OR_RETURN(ir::Module m, ir::parseModule(text, fileName));
  return compile(m, options);
}

Expected<std::shared_ptr<const Kernel>> Compiler::compile(const ir::Module &module,
                                                          const CompileOptions &options) {
  State &st = *state_;
  // The printed module is the key: two modules that print alike compile alike (the printer
  // writes every layout and attribute; the file name only affects messages).
  std::string key = ir::print(module);
  key += '\0' + st.arch + '\0' + options.kernel + '\0' + (options.optimize ? "O" : "-") +
         (options.annotateConversions ? "A" : "-") + (options.runPasses ? "P" : "-") +
         (options.keepLayouts ? "K" : "-") + (options.fpFusion ? "F" : "-") +
         std::to_string(int(options.conversionPadding)) + "/" + std::to_string(options.numStages) +
         "/" + std::to_string(options.prefetchK) + "/" +
         (options.conversionPath ? std::string(conversionPathName(*options.conversionPath)) : "");
  {
    std::lock_guard<std::mutex> lock(st.mutex);
    auto it = st.cache.find(key);
    if (it != st.cache.end()) {
      ++st.hits;
      return it->second;
    }
  }

  auto t0 = std::chrono::steady_clock::now();
  CompileOptions lo = options;
  lo.target = st.target;
  Expected<lower::LoweredKernel> compiled = [&]() -> Expected<lower::LoweredKernel> {
    if (!options.runPasses || options.keepLayouts)
      return lower::compileKernel(module, lo);
    // The passes that choose layouts cost them for the module's target: make it the device's.
    ir::Module forDevice = module;
    forDevice.target = "cuda:" + std::to_string(st.target.sm);
    return lower::compileKernel(forDevice, lo);
  }();
  LL_ASSIGN_OR_RETURN(lower::LoweredKernel lowered, std::move(compiled));
  double lowerMs = msSince(t0);

  auto t1 = std::chrono::steady_clock::now();
  LL_TRY_STATUS(st.context->makeCurrent());
  LL_ASSIGN_OR_RETURN(runtime::Module mod, runtime::Module::loadPtx(lowered.kernel.ptx));
  LL_ASSIGN_OR_RETURN(runtime::Function fn, mod.function(lowered.kernel.name));
  if (lowered.kernel.sharedBytes > uint64_t(kDefaultStaticSharedLimit)) {
    Status s = fn.setMaxDynamicSharedBytes(int(lowered.kernel.sharedBytes));
    if (!s.ok())
      return makeError("kernel '" + lowered.kernel.name + "' needs " +
                       std::to_string(lowered.kernel.sharedBytes) +
                       " bytes of shared memory, more than the device allows: " + s.message());
  }
  LL_ASSIGN_OR_RETURN(runtime::FunctionAttributes attrs, fn.attributes());
  LL_ASSIGN_OR_RETURN(int ctasPerSm, fn.maxActiveBlocksPerSm(lowered.kernel.threadsPerBlock,
                                                             lowered.kernel.sharedBytes));
  int activeClusters = 0;
  if (const auto &cd = lowered.kernel.clusterDims; cd[0] * cd[1] * cd[2] > 1) {
    runtime::LaunchConfig lc;
    lc.block = {unsigned(lowered.kernel.threadsPerBlock), 1, 1};
    lc.dynamicSharedBytes = unsigned(lowered.kernel.sharedBytes);
    lc.cluster = {unsigned(cd[0]), unsigned(cd[1]), unsigned(cd[2])};
    LL_ASSIGN_OR_RETURN(activeClusters, runtime::maxActiveClusters(fn, lc));
  }
  double jitMs = msSince(t1);

  KernelMetadata meta;
  meta.name = lowered.kernel.name;
  meta.target = st.arch;
  meta.computeCapability = st.context->computeCapability();
  meta.threadsPerBlock = lowered.kernel.threadsPerBlock;
  meta.dynamicSharedBytes = lowered.kernel.sharedBytes;
  meta.ctasPerCluster = lowered.kernel.ctasPerCluster;
  meta.clusterDims = lowered.kernel.clusterDims;
  meta.params = lowered.kernel.params;
  meta.conversions = std::move(lowered.conversions);
  meta.registers = attrs.numRegisters;
  meta.staticSharedBytes = attrs.staticSharedBytes;
  meta.localBytes = attrs.localBytes;
  meta.maxThreadsPerBlock = attrs.maxThreadsPerBlock;
  meta.ctasPerSm = ctasPerSm;
  meta.maxActiveClusters = activeClusters;
  meta.lowerMs = lowerMs;
  meta.jitMs = jitMs;
  if (attrs.maxThreadsPerBlock < meta.threadsPerBlock)
    return makeError("kernel '" + meta.name + "' needs " + std::to_string(meta.threadsPerBlock) +
                     " threads per block, the JIT allows " +
                     std::to_string(attrs.maxThreadsPerBlock) + " (" +
                     std::to_string(attrs.numRegisters) + " registers per thread)");

  std::shared_ptr<const Kernel> kernel(
      new Kernel(st.context, std::move(mod), fn, std::move(lowered.kernel.ptx), std::move(meta)));
  std::lock_guard<std::mutex> lock(st.mutex);
  ++st.misses;
  // Another thread may have compiled the same kernel meanwhile: keep the first one.
  auto [it, inserted] = st.cache.emplace(std::move(key), kernel);
  return it->second;
}

} // namespace linlayout::jit
