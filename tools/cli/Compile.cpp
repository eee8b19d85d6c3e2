#include "Compile.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

#ifdef LINLAYOUT_HAS_LOWER
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/lower/Lower.h"
#include "linlayout/lower/Occupancy.h"
#include "linlayout/lower/Ptxas.h"
#endif

namespace linlayout::cli {

namespace {

int usage(std::ostream &os, int code) {
  os << "usage: linlayout compile FILE.tir [--target sm_80|sm_86|sm_89|sm_90] [-o OUT]\n"
        "                          [--emit=ptx|llvm] [--kernel NAME] [--O0] [--annotate]\n"
        "                          [--report] [--no-passes] [--num-stages N] [--prefetch-k K]\n"
        "                          [--conversion-path PATH] [--no-fp-fusion] [--ptxas]\n"
        "  FILE is parsed, verified, run through the pass pipeline (linlayout opt), lowered\n"
        "  --target     the GPU (default: the module's ttg.target)\n"
        "  -o OUT       write the output to OUT (default: standard output)\n"
        "  --emit=llvm  write the optimised LLVM IR instead of PTX\n"
        "  --kernel     the function to compile (default: the only public one)\n"
        "  --O0         skip LLVM's optimisation pipeline\n"
        "  --annotate   mark each convert_layout's instructions with PTX comments\n"
        "  --report     print each convert_layout's plan, the dot operands loaded in K slices\n"
        "               and the kernel's resources on stderr\n"
        "  --no-passes  lower the IR as written (skip the pass pipeline)\n"
        "  --num-stages software-pipeline loops with N stages (default: the module's\n"
        "               \"ttg.num-stages\", else 1: off)\n"
        "  --prefetch-k prefetch pipelined dot operands in K slices of K (default 16; 0: off)\n"
        "  --conversion-path  lower every layout conversion on PATH instead of the cheapest\n"
        "               (register_permute, warp_shuffle, shared_memory,\n"
        "               distributed_shared_memory); an error where PATH cannot do one\n"
        "  --no-fp-fusion  round every float multiply and add on its own (no fma\n"
        "               contraction), as the interpreter computes them\n"
        "  --ptxas      assemble the PTX with ptxas ($LINLAYOUT_PTXAS, else\n"
        "               /usr/local/cuda/bin/ptxas) and print its registers, stack,\n"
        "               spills and CTAs per SM on stderr; exit 1 when ptxas rejects it\n";
  return code;
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

} // namespace

int runCompile(int argc, char **argv) {
#ifndef LINLAYOUT_HAS_LOWER
  (void)argc;
  (void)argv;
  std::cerr << "linlayout compile: this build has no lowering (LLVM 19 was not found)\n";
  return 1;
#else
  std::string input, output, emit = "ptx";
  lower::LowerOptions options;
  bool report = false;
  bool assemble = false;
  bool passes = true;
  ir::PipelineOptions pipelineOptions;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *flag) -> const char * {
      if (i + 1 >= argc) {
        std::cerr << "linlayout compile: " << flag << " needs a value\n";
        return nullptr;
      }
      return argv[++i];
    };
    if (a == "-h" || a == "--help")
      return usage(std::cout, 0);
    if (a == "-o") {
      const char *v = value("-o");
      if (!v)
        return 2;
      output = v;
    } else if (a == "--target" || a.rfind("--target=", 0) == 0) {
      const char *v = a == "--target" ? value("--target") : argv[i] + 9;
      if (!v)
        return 2;
      auto t = lower::PtxTarget::parse(v);
      if (!t.ok()) {
        std::cerr << "linlayout compile: " << t.message() << "\n";
        return 2;
      }
      options.target = *t;
    } else if (a == "--kernel") {
      const char *v = value("--kernel");
      if (!v)
        return 2;
      options.kernel = v;
    } else if (a.rfind("--emit=", 0) == 0) {
      emit = a.substr(7);
      if (emit != "ptx" && emit != "llvm") {
        std::cerr << "linlayout compile: --emit takes ptx or llvm, not '" << emit << "'\n";
        return 2;
      }
    } else if (a == "--O0") {
      options.optimize = false;
    } else if (a == "--annotate") {
      options.annotateConversions = true;
    } else if (a == "--no-fp-fusion") {
      options.fpFusion = false;
    } else if (a == "--report") {
      report = true;
    } else if (a == "--ptxas") {
      assemble = true;
    } else if (a == "--no-passes") {
      passes = false;
    } else if (a == "--num-stages" && i + 1 < argc) {
      std::string v = argv[++i];
      if (v.empty() || v.size() > 2 || v.find_first_not_of("0123456789") != std::string::npos) {
        std::cerr << "linlayout compile: --num-stages takes a count, got '" << v << "'\n";
        return 2;
      }
      pipelineOptions.numStages = std::stoi(v);
    } else if (a == "--prefetch-k" && i + 1 < argc) {
      std::string v = argv[++i];
      if (v.empty() || v.size() > 3 || v.find_first_not_of("0123456789") != std::string::npos) {
        std::cerr << "linlayout compile: --prefetch-k takes a slice width, got '" << v << "'\n";
        return 2;
      }
      pipelineOptions.prefetchK = std::stoi(v);
    } else if (a == "--conversion-path") {
      const char *v = value("--conversion-path");
      if (!v)
        return 2;
      options.conversionPath = parseConversionPath(v);
      if (!options.conversionPath) {
        std::cerr << "linlayout compile: --conversion-path takes register_permute, warp_shuffle, "
                     "shared_memory or distributed_shared_memory, not '"
                  << v << "'\n";
        return 2;
      }
    } else if (!a.empty() && a[0] == '-') {
      std::cerr << "linlayout compile: unknown option '" << a << "'\n";
      return usage(std::cerr, 2);
    } else if (input.empty()) {
      input = a;
    } else {
      std::cerr << "linlayout compile: more than one input file ('" << input << "', '" << a
                << "')\n";
      return 2;
    }
  }
  if (input.empty())
    return usage(std::cerr, 2);
  std::ifstream in(input, std::ios::binary);
  if (!in) {
    std::cerr << "linlayout compile: cannot open '" << input << "': " << std::strerror(errno)
              << "\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  auto module = ir::parseModule(text.str(), input);
  if (!module.ok()) {
    std::cerr << module.message() << "\n";
    return 1;
  }
  if (passes) {
    Status s = ir::runPipeline(*module, pipelineOptions);
    if (!s.ok()) {
      std::cerr << "linlayout compile: " << s.message() << "\n";
      return 1;
    }
  }
  options.keepLlvmIr = emit == "llvm";
  auto k = lower::lowerKernel(*module, options);
  if (!k.ok()) {
    std::cerr << "linlayout compile: " << k.message() << "\n";
    return 1;
  }
  const std::string &out = emit == "llvm" ? k->llvmIr : k->kernel.ptx;
  if (output.empty() || output == "-") {
    std::cout << out;
  } else {
    std::ofstream f(output, std::ios::binary);
    if (!f || !(f << out)) {
      std::cerr << "linlayout compile: cannot write '" << output << "': " << std::strerror(errno)
                << "\n";
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
      std::cerr << "  convert_layout at " << c.where << ": " << c.path;
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
      item(c.barriers, "bar.sync");
      item(c.clusterBarriers, "barrier.cluster");
      item(c.warpSyncs, "bar.warp.sync");
      if (c.scratchBytes)
        std::cerr << ", " << c.scratchBytes << " scratch bytes";
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

} // namespace linlayout::cli
