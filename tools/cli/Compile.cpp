// `linlayout compile FILE`: tile IR -> the pass pipeline -> PTX or LLVM IR (lower/Compile.h).
#include "Args.h"
#include "Commands.h"
#include "PipelineFlags.h"

#include "linlayout/layout/ConversionPlan.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#ifdef LINLAYOUT_HAS_LOWER
#include "linlayout/ir/Parser.h"
#include "linlayout/lower/Compile.h"
#include "linlayout/lower/Occupancy.h"
#include "linlayout/lower/Ptxas.h"
#endif

namespace linlayout::cli {

namespace {

constexpr const char *kPathNames = "register-permute, warp-shuffle, shared-memory or "
                                   "distributed-shared-memory";

// lower/ reports paths by identifier (shared_memory); the CLI prints every path one way, as
// `plan` and the query JSON do (shared-memory).
std::string pathName(const std::string &path) {
  std::optional<ConversionPath> p = parseConversionPath(path);
  return p ? std::string(conversionPathName(*p)) : path;
}

#ifdef LINLAYOUT_HAS_LOWER
// --ptxas: assembles the kernel for its target and prints what ptxas says it costs.
int reportPtxas(const lower::KernelPtx &kernel) {
  std::optional<std::string> ptxas = lower::findPtxas();
  if (!ptxas) {
    std::cerr << "linlayout compile: --ptxas: no ptxas at $LINLAYOUT_PTXAS or "
                 "/usr/local/cuda/bin/ptxas (install the CUDA toolkit or set LINLAYOUT_PTXAS)\n";
    return 1;
  }
  auto r = lower::runPtxas(*ptxas, kernel.ptx, kernel.target.name());
  if (!r.ok()) {
    std::cerr << "linlayout compile: " << r.message() << "\n";
    return 1;
  }
  if (!r->accepted) {
    std::cerr << "linlayout compile: ptxas rejected the PTX of '" << kernel.name << "' for "
              << kernel.target.name() << ":\n"
              << r->log;
    return 1;
  }
  std::cerr << "ptxas: " << kernel.name << " for " << kernel.target.name() << ": " << r->registers
            << " registers, " << r->stackBytes << " bytes of stack, " << r->spillStoreBytes
            << " bytes of spill stores, " << r->spillLoadBytes << " bytes of spill loads\n";
  if (r->registers > 0) {
    lower::Occupancy o = lower::occupancy(kernel.target, kernel.threadsPerBlock, r->registers,
                                          int64_t(kernel.sharedBytes));
    std::cerr << "occupancy: " << o.ctasPerSm << " CTA" << (o.ctasPerSm == 1 ? "" : "s") << " ("
              << o.warpsPerSm << " warps) per SM, limited by " << o.limitedBy << "\n";
  }
  return 0;
}
#endif

struct CompileArgs {
  std::string input, output, emit = "ptx", target, conversionPath, conversionPadding;
  bool report = false, assemble = false, noPasses = false, o0 = false, noFpFusion = false;
#ifdef LINLAYOUT_HAS_LOWER
  lower::CompileOptions options;
#endif
};

int runCompile(CompileArgs &a) {
#ifndef LINLAYOUT_HAS_LOWER
  (void)a;
  std::cerr << "linlayout compile: this build has no lowering (LLVM 19 was not found)\n";
  return 1;
#else
  lower::CompileOptions &options = a.options;
  const std::string &input = a.input, &output = a.output, &emit = a.emit;
  const bool report = a.report, assemble = a.assemble;
  if (!a.target.empty()) {
    auto t = lower::PtxTarget::parse(a.target);
    if (!t.ok()) {
      std::cerr << "linlayout compile: " << t.message() << "\n";
      return 2;
    }
    options.target = *t;
  }
  if (!a.conversionPath.empty()) {
    options.conversionPath = parseConversionPath(a.conversionPath);
    if (!options.conversionPath) {
      std::cerr << "linlayout compile: --conversion-path takes " << kPathNames << ", not '"
                << a.conversionPath << "'\n";
      return 2;
    }
  }
  if (a.conversionPadding == "cheaper")
    options.conversionPadding = ScratchPadding::WhereCheaper;
  else if (a.conversionPadding == "always")
    options.conversionPadding = ScratchPadding::Always;
  options.runPasses = !a.noPasses;
  options.optimize = !a.o0;
  options.fpFusion = !a.noFpFusion;
  auto text = readFile(input);
  if (!text.ok()) {
    std::cerr << "linlayout compile: " << text.message() << "\n";
    return 1;
  }
  auto module = ir::parseModule(*text, input);
  if (!module.ok()) {
    std::cerr << module.message() << "\n";
    return 1;
  }
  options.keepLlvmIr = emit == "llvm";
  std::vector<std::string> remarks;
  options.remarks = &remarks;
  auto k = lower::compileKernel(*module, options);
  for (const std::string &r : remarks)
    std::cerr << "remark: " << r << "\n";
  if (!k.ok()) {
    std::cerr << "linlayout compile: " << k.message() << "\n";
    return 1;
  }
  const std::string &out = emit == "llvm" ? k->llvmIr : k->kernel.ptx;
  if (output.empty() || output == "-") {
    std::cout << out;
  } else {
    Status w = writeFile(output, out);
    if (!w.ok()) {
      std::cerr << "linlayout compile: " << w.message() << "\n";
      return 1;
    }
  }
  if (report) {
    const lower::KernelPtx &kp = k->kernel;
    std::cerr << "kernel " << kp.name << " for " << kp.target.name() << ": " << kp.threadsPerBlock
              << " threads per block, " << kp.sharedBytes << " bytes of dynamic shared memory, "
              << kp.params.size() << " parameters";
    if (kp.ctasPerCluster > 1)
      std::cerr << "; a program is a cluster of " << kp.ctasPerCluster
                << " CTAs (launch programs x " << kp.ctasPerCluster << " CTAs along x)";
    std::cerr << "\n";
    for (const lower::KernelParam &p : kp.params)
      if (p.kind == lower::ParamKind::TensorMap) {
        std::cerr << "  parameter " << p.name << ": a tensor map (encode it with box ";
        for (size_t i = 0; i < p.box.size(); ++i)
          std::cerr << (i ? "x" : "") << p.box[i];
        std::cerr << " of " << p.element << ", " << p.swizzleBytes << "-byte swizzle)\n";
      }
    for (const lower::ConversionReport &c : k->conversions) {
      std::cerr << "  convert_layout at " << c.where << ": " << pathName(c.path);
      auto item = [&](int n, const char *what) {
        if (n)
          std::cerr << ", " << n << " " << what;
      };
      item(c.shuffles, "shfl");
      item(c.selects, "selp");
      item(c.prmts, "prmt");
      item(c.sharedStores, "st.shared");
      item(c.sharedLoads, "ld.shared");
      item(c.stmatrix, "stmatrix");
      item(c.ldmatrix, "ldmatrix");
      // The plan (and `linlayout plan`) counts the first round's barrier; say why it is not here.
      if (c.plannedBarriers <= c.barriers)
        item(c.barriers, "bar.sync");
      else
        std::cerr << ", " << c.barriers << " bar.sync (" << c.plannedBarriers - c.barriers << " of "
                  << c.plannedBarriers
                  << (c.warpSyncs ? " made bar.warp.sync: only its own warps used the scratch "
                                    "before"
                                  : " elided: no earlier use of the scratch is pending")
                  << ")";
      item(c.clusterBarriers, "barrier.cluster");
      item(c.warpSyncs, "bar.warp.sync");
      if (c.scratchBytes)
        std::cerr << ", " << c.scratchBytes << " scratch bytes";
      if (!c.padding.empty())
        std::cerr << " padded [" << c.padding << "]";
      std::cerr << "\n";
    }
    for (const lower::SlicedOperandReport &d : k->slicedOperands) {
      std::cerr << "  tt.dot at " << d.where << ": operand " << (d.operand ? "B" : "A")
                << " from shared memory in ";
      if (d.slices > 1)
        std::cerr << d.slices << " K slices of " << d.sliceK
                  << ", each loaded one slice ahead of its mma.sync\n";
      else
        std::cerr << "one piece (its K slices' registers do not map onto the operand's)\n";
    }
    for (const lower::ScanReport &s : k->scans) {
      std::cerr << "  tt.scan at " << s.where << ": " << s.registerBits
                << " scanned bits in registers, " << s.laneBits << " across lanes (" << s.shuffles
                << " shfl), " << s.warpBits << " across warps";
      if (s.exchanges)
        std::cerr << " (" << s.exchanges << " shared-memory exchange"
                  << (s.exchanges > 1 ? "s" : "") << ": " << s.sharedStores << " st.shared, "
                  << s.exchanges << " bar.sync, " << s.scratchBytes << " scratch bytes)";
      std::cerr << "\n";
    }
  }
  if (assemble)
    return reportPtxas(k->kernel);
  return 0;
#endif
}

} // namespace

void addCompileCommand(CLI::App &app, int &status) {
  CLI::App *cmd = app.add_subcommand(
      "compile", "Compile a tile-IR kernel to PTX: parse, verify, run the passes (as opt does), "
                 "lower.");
  auto a = std::make_shared<CompileArgs>();
  cmd->add_option("FILE", a->input, "the tile-IR module (.tir or a TritonGPU dump)")->required();
  cmd->add_option("--target", a->target,
                  "the GPU: sm_80, sm_86, sm_89, sm_90 or sm_90a (wgmma needs sm_90a; default: "
                  "the module's ttg.target, sm_90a where it uses wgmma)")
      ->type_name("SM");
  cmd->add_option("-o,--output", a->output, "write the output to OUT (default: standard output)")
      ->type_name("OUT");
  cmd->add_option("--emit", a->emit, "what to write: ptx or the optimised LLVM IR")
      ->type_name("ptx|llvm")
      ->capture_default_str()
      ->check([](const std::string &v) {
        return v == "ptx" || v == "llvm" ? std::string()
                                         : "--emit takes ptx or llvm, not '" + v + "'";
      });
#ifdef LINLAYOUT_HAS_LOWER
  cmd->add_option("--kernel", a->options.kernel,
                  "the function to compile (default: the only public one)");
  cmd->add_flag("--annotate", a->options.annotateConversions,
                "mark each convert_layout's instructions with PTX comments");
  ir::PipelineOptions &pipeline = a->options;
  addPipelineFlags(*cmd, pipeline);
#endif
  cmd->add_flag("--O0", a->o0, "skip LLVM's optimisation pipeline");
  cmd->add_flag("--report", a->report,
                "print each convert_layout's plan, the dot operands loaded in K slices and the "
                "kernel's resources on stderr");
  cmd->add_flag("--no-passes", a->noPasses, "lower the IR as written (skip the pass pipeline)");
  cmd->add_option("--conversion-path", a->conversionPath,
                  std::string("lower every layout conversion on PATH instead of the cheapest: ") +
                      kPathNames +
                      " (shared_memory is accepted too); an error where PATH "
                      "cannot do one")
      ->type_name("PATH");
  cmd->add_option("--conversion-padding", a->conversionPadding,
                  "whether a conversion through shared memory may use a padded scratch instead of "
                  "the swizzle: never (the default), cheaper (where the cost model prices it "
                  "lower) or always (wherever one exists, to measure it)")
      ->type_name("WHEN")
      ->check([](const std::string &v) {
        return v == "never" || v == "cheaper" || v == "always"
                   ? std::string()
                   : "--conversion-padding takes never, cheaper or always, not '" + v + "'";
      });
  cmd->add_flag("--no-fp-fusion", a->noFpFusion,
                "round every float multiply and add on its own (no fma contraction), as the "
                "interpreter computes them");
  cmd->add_flag("--ptxas", a->assemble,
                "assemble the PTX with ptxas ($LINLAYOUT_PTXAS, else /usr/local/cuda/bin/ptxas) "
                "and print its registers, stack, spills and CTAs per SM on stderr; exit 1 when "
                "ptxas rejects it");
  cmd->callback([a, &status] { status = runCompile(*a); });
}

} // namespace linlayout::cli
