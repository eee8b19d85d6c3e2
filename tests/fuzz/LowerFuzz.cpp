// libFuzzer target for lower/: any bytes as a module, and whatever verifies goes the way
// `linlayout compile` takes it: lowered through LLVM's NVPTX backend as written, after the pass
// pipeline (for sm_90), and after the pipeline with 3 software-pipelining stages (for the
// module's own target). Nothing may crash, hang or leak, and a kernel that lowers comes back as PTX
// with its entry. Built only where LLVM 19 is (see standalone/CMakeLists.txt). Seeds: the examples.
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/lower/Lower.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

using namespace linlayout;

namespace {

// Lowering's time grows with each thread's registers: a 2^20-element tile takes seconds under
// ASan and finds nothing a smaller one does not. The fuzzer keeps to tiles of up to 2^16
// elements (the wide matmul's accumulator has 2^15).
bool small(const ir::Module &m) {
  for (const ir::Function &f : m.functions)
    for (const ir::ValueInfo &v : f.values)
      if ((v.type.isTensor() || v.type.isMemDesc()) && v.type.numElements() > (1 << 16))
        return false;
  return true;
}

void lowerFor(const ir::Module &m, std::optional<lower::PtxTarget> target) {
  lower::LowerOptions o;
  o.target = target;
  o.optimize = false; // the backend still runs; O3 would only cost the fuzzer time
  auto k = lower::lowerKernel(m, o);
  if (k.ok() && k->kernel.ptx.find(".entry " + k->kernel.name) == std::string::npos)
    __builtin_trap(); // lowered, but not to a kernel of that name
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  auto m = ir::parseModule(text, "fuzz");
  if (!m.ok() || !ir::verify(*m).ok() || !small(*m))
    return 0;
  lowerFor(*m, std::nullopt); // as written (--no-passes), for its ttg.target
  ir::Module piped = *m;
  if (ir::runPipeline(piped).ok())
    lowerFor(piped, lower::PtxTarget::parse("sm_90").value());
  ir::Module staged = *m;
  ir::PipelineOptions three;
  three.numStages = 3; // cp.async rings and prefetched dot operands wherever a loop allows
  if (ir::runPipeline(staged, three).ok())
    lowerFor(staged, std::nullopt);
  return 0;
}
