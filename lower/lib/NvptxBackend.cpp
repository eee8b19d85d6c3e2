#include "NvptxBackend.h"

#include "InlinePtx.h"
#include "LlvmShim.h"
#include "LoadChosenElement.h"
#include "SinkToUse.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <mutex>

namespace linlayout::lower {

namespace {
void initializeNvptxOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}
} // namespace

NvptxBackend::NvptxBackend(PtxTarget target, std::unique_ptr<llvm::TargetMachine> tm)
    : target_(target), tm_(std::move(tm)) {}

NvptxBackend::~NvptxBackend() = default;

Expected<std::unique_ptr<NvptxBackend>> NvptxBackend::create(const PtxTarget &target) {
  initializeNvptxOnce();
  LL_ASSIGN_OR_RETURN(auto tm, shim::createTargetMachine(target));
  return std::unique_ptr<NvptxBackend>(new NvptxBackend(target, std::move(tm)));
}

void NvptxBackend::prepare(llvm::Module &m) const {
  m.setTargetTriple(tm_->getTargetTriple().str());
  m.setDataLayout(tm_->createDataLayout());
}

void NvptxBackend::optimize(llvm::Module &m) const {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  // No vectorizers: every vector access lower/ emits is one its plan chose (see LlvmShim.cpp).
  llvm::PipelineTuningOptions tuning;
  tuning.SLPVectorization = false;
  tuning.LoopVectorization = false;
  llvm::PassBuilder pb(tm_.get(), tuning);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager mpm = pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  mpm.run(m, mam);
  loadChosenElements(m);
  sinkToUses(m);
}

Expected<std::string> NvptxBackend::emitPtx(llvm::Module &m) const {
  emitFullRangeDivisions(m);
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  if (tm_->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    return makeError("llvm cannot write ptx for " + target_.name());
  pm.run(m);
  return std::string(text.str());
}

Status verifyModule(const llvm::Module &m) {
  std::string report;
  llvm::raw_string_ostream os(report);
  if (llvm::verifyModule(m, &os))
    return makeError("invalid llvm module (a lower/ bug): " + report);
  return Status::success();
}

std::string printModule(const llvm::Module &m) {
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os, nullptr);
  return text;
}

} // namespace linlayout::lower
