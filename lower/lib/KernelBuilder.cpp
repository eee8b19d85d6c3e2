#include "KernelBuilder.h"

#include "LlvmShim.h"
#include "Shuffle.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/MDBuilder.h>

#include <cctype>

namespace linlayout::lower {

namespace {

bool isPtxIdentifier(const std::string &s) {
  if (s.empty() || s.size() > 1024)
    return false;
  if (!std::isalpha(static_cast<unsigned char>(s[0])) && s[0] != '_')
    return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '$')
      return false;
  return true;
}

Status checkParam(const KernelParam &p, size_t index) {
  std::string what = "parameter " + std::to_string(index) + " '" + p.name + "'";
  switch (p.kind) {
  case ParamKind::GlobalPointer:
    if (p.bits != 64)
      return makeError(what + " is a pointer of " + std::to_string(p.bits) + " bits, expected 64");
    if (p.alignment < 1 || p.alignment > 256 || (p.alignment & (p.alignment - 1)))
      return makeError(what + " has alignment " + std::to_string(p.alignment) +
                       ", expected a power of two in [1, 256]");
    return Status::success();
  case ParamKind::Int:
    if (p.bits == 1 || p.bits == 8 || p.bits == 16 || p.bits == 32 || p.bits == 64)
      return Status::success();
    return makeError(what + " is an integer of " + std::to_string(p.bits) +
                     " bits, expected 1, 8, 16, 32 or 64");
  case ParamKind::Float:
    if (p.bits == 16 || p.bits == 32 || p.bits == 64)
      return Status::success();
    return makeError(what + " is a float of " + std::to_string(p.bits) +
                     " bits, expected 16, 32 or 64");
  case ParamKind::TensorMap:
    if (p.bits == 1024)
      return Status::success();
    return makeError(what + " is a tensor map of " + std::to_string(p.bits) +
                     " bits, expected 1024");
  }
  return makeError(what + " has an unknown kind");
}

llvm::Type *paramType(llvm::LLVMContext &ctx, const KernelParam &p) {
  switch (p.kind) {
  case ParamKind::GlobalPointer:
    return llvm::PointerType::get(ctx, 1);
  case ParamKind::Int:
    return llvm::IntegerType::get(ctx, p.bits);
  case ParamKind::Float:
    return p.bits == 16   ? llvm::Type::getHalfTy(ctx)
           : p.bits == 32 ? llvm::Type::getFloatTy(ctx)
                          : llvm::Type::getDoubleTy(ctx);
  case ParamKind::TensorMap:
    return llvm::PointerType::get(ctx, 0); // byval: the kernel reads it in parameter space
  }
  return nullptr;
}

} // namespace

KernelBuilder::KernelBuilder(const KernelSpec &spec, std::unique_ptr<llvm::LLVMContext> ctx)
    : spec_(spec), ctx_(std::move(ctx)), module_(std::make_unique<llvm::Module>(spec.name, *ctx_)),
      builder_(*ctx_) {}

KernelBuilder::~KernelBuilder() = default;

Expected<std::unique_ptr<KernelBuilder>> KernelBuilder::create(const KernelSpec &spec) {
  if (!isPtxIdentifier(spec.name))
    return makeError("kernel name '" + spec.name + "' is not a ptx identifier");
  if (spec.threadsPerBlock < 32 || spec.threadsPerBlock > 1024 || spec.threadsPerBlock % 32)
    return makeError("threads per block " + std::to_string(spec.threadsPerBlock) +
                     " is not a multiple of 32 in [32, 1024]");
  for (size_t i = 0; i < spec.params.size(); ++i) {
    LL_TRY_STATUS(checkParam(spec.params[i], i));
    if (!isPtxIdentifier(spec.params[i].name))
      return makeError("parameter " + std::to_string(i) + " name '" + spec.params[i].name +
                       "' is not a ptx identifier");
  }
  std::unique_ptr<KernelBuilder> kb(new KernelBuilder(spec, std::make_unique<llvm::LLVMContext>()));
  kb->createFunction();
  return kb;
}

void KernelBuilder::createFunction() {
  llvm::LLVMContext &ctx = *ctx_;
  std::vector<llvm::Type *> types;
  for (const KernelParam &p : spec_.params)
    types.push_back(paramType(ctx, p));
  auto *fnType = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), types, false);
  fn_ = llvm::Function::Create(fnType, llvm::Function::ExternalLinkage, spec_.name, *module_);
  for (size_t i = 0; i < spec_.params.size(); ++i) {
    llvm::Argument *arg = fn_->getArg(static_cast<unsigned>(i));
    arg->setName(spec_.params[i].name);
    if (spec_.params[i].kind == ParamKind::GlobalPointer && spec_.params[i].alignment > 1)
      arg->addAttr(llvm::Attribute::getWithAlignment(
          ctx, llvm::Align(static_cast<uint64_t>(spec_.params[i].alignment))));
    if (spec_.params[i].kind == ParamKind::TensorMap) {
      arg->addAttr(llvm::Attribute::getWithByValType(
          ctx, llvm::ArrayType::get(llvm::Type::getInt8Ty(ctx), 128)));
      arg->addAttr(llvm::Attribute::getWithAlignment(ctx, llvm::Align(64)));
    }
  }
  shim::markKernel(*fn_, spec_.threadsPerBlock, spec_.exactThreads, spec_.maxRegisters,
                   spec_.minCtasPerSm);
  std::vector<int> maps;
  for (size_t i = 0; i < spec_.params.size(); ++i)
    if (spec_.params[i].kind == ParamKind::TensorMap)
      maps.push_back(static_cast<int>(i));
  shim::markGridConstant(*fn_, maps);

  builder_.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", fn_));
  llvm::MDBuilder md(ctx);
  auto sreg = [&](llvm::Intrinsic::ID id, uint64_t lo, uint64_t hi, const char *name) {
    llvm::CallInst *call = builder_.CreateCall(shim::intrinsic(*module_, id), {}, name);
    call->setMetadata(llvm::LLVMContext::MD_range,
                      md.createRange(llvm::APInt(32, lo), llvm::APInt(32, hi)));
    return call;
  };
  using namespace llvm::Intrinsic;
  tid_ = sreg(nvvm_read_ptx_sreg_tid_x, 0, spec_.threadsPerBlock, "tid");
  lane_ = builder_.CreateAnd(tid_, 31, "lane");
  warp_ = builder_.CreateLShr(tid_, 5, "warp");
  // Grid limits: x < 2^31, y and z < 2^16.
  ctaid_[0] = sreg(nvvm_read_ptx_sreg_ctaid_x, 0, 0x7fffffff, "ctaid.x");
  ctaid_[1] = sreg(nvvm_read_ptx_sreg_ctaid_y, 0, 0xffff, "ctaid.y");
  ctaid_[2] = sreg(nvvm_read_ptx_sreg_ctaid_z, 0, 0xffff, "ctaid.z");
  nctaid_[0] = sreg(nvvm_read_ptx_sreg_nctaid_x, 1, 0x80000000, "nctaid.x");
  nctaid_[1] = sreg(nvvm_read_ptx_sreg_nctaid_y, 1, 0x10000, "nctaid.y");
  nctaid_[2] = sreg(nvvm_read_ptx_sreg_nctaid_z, 1, 0x10000, "nctaid.z");
}

llvm::Value *KernelBuilder::uniformWarpId() {
  // Read from lane 0 on entry, so ptxas knows it is one value per warp; made on first use (a
  // shuffle is never dropped). Only where every warp is whole.
  if (!uniformWarp_) {
    uniformWarp_ = warp_;
    auto *w = llvm::dyn_cast<llvm::Instruction>(warp_);
    if (w && spec_.threadsPerBlock % 32 == 0) {
      llvm::IRBuilder<> entry(w->getNextNode());
      uniformWarp_ = shuffleIdx(entry, warp_, entry.getInt32(0), 32);
    }
  }
  return uniformWarp_;
}

llvm::Value *KernelBuilder::param(int i) {
  assert(i >= 0 && static_cast<size_t>(i) < spec_.params.size() && "parameter index");
  return fn_->getArg(static_cast<unsigned>(i));
}

llvm::Value *KernelBuilder::sharedBase() {
  if (!smem_) {
    auto *ty = llvm::ArrayType::get(llvm::Type::getInt8Ty(*ctx_), 0);
    smem_ =
        new llvm::GlobalVariable(*module_, ty, false, llvm::GlobalValue::ExternalLinkage, nullptr,
                                 "global_smem", nullptr, llvm::GlobalValue::NotThreadLocal, 3);
    smem_->setAlignment(llvm::Align(16));
  }
  return smem_;
}

void KernelBuilder::alignShared(uint64_t bytes) {
  sharedBase();
  if (bytes > smem_->getAlign().valueOrOne().value())
    smem_->setAlignment(llvm::Align(bytes));
}

std::string KernelBuilder::llvmText() const { return printModule(*module_); }

Expected<KernelPtx> KernelBuilder::finish(const NvptxBackend &backend,
                                          const FinishOptions &options) {
  llvm::BasicBlock *bb = builder_.GetInsertBlock();
  if (bb && !bb->getTerminator())
    builder_.CreateRetVoid();
  backend.prepare(*module_);
  LL_TRY_STATUS(verifyModule(*module_));
  if (options.optimize)
    backend.optimize(*module_);
  LL_ASSIGN_OR_RETURN(std::string ptx, backend.emitPtx(*module_));
  KernelPtx out;
  out.name = spec_.name;
  out.target = backend.target();
  out.ptx = std::move(ptx);
  out.params = spec_.params;
  out.sharedBytes = sharedBytes_;
  out.threadsPerBlock = spec_.threadsPerBlock;
  return out;
}

} // namespace linlayout::lower
