#include "KernelHarness.h"

#include <cstdlib>
#include <fstream>

namespace linlayout::lower::testing {

Expected<KernelPtx> buildKernel(const PtxTarget &target, const std::string &name, int threads,
                                const KernelBody &body, bool optimize) {
  KernelSpec spec;
  spec.name = name;
  spec.params = {{"in", ParamKind::GlobalPointer, 64, 16},
                 {"out", ParamKind::GlobalPointer, 64, 16}};
  spec.threadsPerBlock = threads;
  LL_ASSIGN_OR_RETURN(auto kb, KernelBuilder::create(spec));
  LL_TRY_STATUS(body(*kb, target));
  LL_ASSIGN_OR_RETURN(auto backend, NvptxBackend::create(target));
  FinishOptions fo;
  fo.optimize = optimize;
  auto k = kb->finish(*backend, fo);
  if (const char *dir = std::getenv("LINLAYOUT_DUMP_LLVM"))
    std::ofstream(std::string(dir) + "/" + name + "." + target.name() + ".ll") << kb->llvmText();
  return k;
}

} // namespace linlayout::lower::testing
