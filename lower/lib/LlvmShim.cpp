#include "LlvmShim.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <cassert>

static_assert(LLVM_VERSION_MAJOR == 19, "LlvmShim.cpp is written for LLVM 19");

namespace linlayout::lower::shim {

namespace {
constexpr const char *kTriple = "nvptx64-nvidia-cuda";
}

int maxPtxVersion() { return 85; }

namespace {
void setFlag(const char *name, bool value = true) {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find(name);
  if (it != options.end())
    if (auto *flag = static_cast<llvm::cl::opt<bool> *>(it->second))
      flag->setValue(value);
}

// LLVM 19 exposes these choices only as command-line flags, read when a target machine is made:
//  - 32-bit shared-memory pointers save a register per address and let ptxas fold offsets;
//  - the backend's load/store vectorizer and the vector combiner are off: lower/ emits the vector
//    widths its plans chose, and the combiner would split a vector load whose elements are
//    extracted one by one (then the vectorizer glues pieces back as it sees fit), breaking the
//    plan's instruction counts and its bank-conflict accounting; for the same reason the DAG
//    combiner does not merge neighbouring stores (it would also merge the loads feeding them).
void setBackendFlags() {
  setFlag("combiner-store-merging", false);
  setFlag("nvptx-short-ptr");
  setFlag("disable-nvptx-load-store-vectorizer");
  setFlag("disable-vector-combine");
}
} // namespace

Expected<std::unique_ptr<llvm::TargetMachine>> createTargetMachine(const PtxTarget &target) {
  if (target.ptxVersion > maxPtxVersion())
    return makeError("ptx version " + std::to_string(target.ptxVersion / 10) + "." +
                     std::to_string(target.ptxVersion % 10) + " is newer than LLVM " +
                     std::to_string(LLVM_VERSION_MAJOR) + " writes (at most 8.5)");
  std::string err;
  const llvm::Target *t = llvm::TargetRegistry::lookupTarget(kTriple, err);
  if (!t)
    return makeError("llvm has no nvptx target: " + err);
  setBackendFlags();
  llvm::TargetOptions options;
  std::string features = "+ptx" + std::to_string(target.ptxVersion);
  std::unique_ptr<llvm::TargetMachine> tm(
      t->createTargetMachine(kTriple, target.name(), features, options, std::nullopt, std::nullopt,
                             llvm::CodeGenOptLevel::Aggressive));
  if (!tm)
    return makeError("llvm could not create a target machine for " + target.name());
  return tm;
}

llvm::Function *intrinsic(llvm::Module &m, llvm::Intrinsic::ID id,
                          llvm::ArrayRef<llvm::Type *> overloads) {
  return llvm::Intrinsic::getDeclaration(&m, id, overloads);
}

llvm::Value *createDisjointOr(llvm::IRBuilder<> &b, llvm::Value *lhs, llvm::Value *rhs) {
  llvm::Value *v = b.CreateOr(lhs, rhs);
  if (auto *inst = llvm::dyn_cast<llvm::PossiblyDisjointInst>(v))
    inst->setIsDisjoint(true);
  return v;
}

void markKernel(llvm::Function &f, int threads, bool exact, int maxRegisters, int minCtasPerSm) {
  llvm::LLVMContext &ctx = f.getContext();
  llvm::Module &m = *f.getParent();
  llvm::NamedMDNode *annotations = m.getOrInsertNamedMetadata("nvvm.annotations");
  auto add = [&](const char *key, int value) {
    llvm::Metadata *ops[] = {
        llvm::ValueAsMetadata::get(&f), llvm::MDString::get(ctx, key),
        llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), value))};
    annotations->addOperand(llvm::MDNode::get(ctx, ops));
  };
  add("kernel", 1);
  add(exact ? "reqntidx" : "maxntidx", threads);
  if (exact) {
    // Without y and z LLVM 19 writes `.reqntid N` alone, which ptxas reads as N x 1 x 1 anyway;
    // naming them keeps the directive explicit.
    add("reqntidy", 1);
    add("reqntidz", 1);
  }
  if (maxRegisters > 0)
    add("maxnreg", maxRegisters);
  if (minCtasPerSm > 0)
    add("minctasm", minCtasPerSm);
}

void markGridConstant(llvm::Function &f, const std::vector<int> &indices) {
  if (indices.empty())
    return;
  llvm::LLVMContext &ctx = f.getContext();
  llvm::NamedMDNode *annotations = f.getParent()->getOrInsertNamedMetadata("nvvm.annotations");
  // LLVM 19 counts grid_constant parameters from 1.
  std::vector<llvm::Metadata *> list;
  for (int i : indices)
    list.push_back(
        llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), i + 1)));
  llvm::Metadata *ops[] = {llvm::ValueAsMetadata::get(&f),
                           llvm::MDString::get(ctx, "grid_constant"), llvm::MDNode::get(ctx, list)};
  annotations->addOperand(llvm::MDNode::get(ctx, ops));
}

llvm::Intrinsic::ID ldmatrixIntrinsic(int count, bool trans) {
  using namespace llvm::Intrinsic;
  switch (count) {
  case 1:
    return trans ? nvvm_ldmatrix_sync_aligned_m8n8_x1_trans_b16
                 : nvvm_ldmatrix_sync_aligned_m8n8_x1_b16;
  case 2:
    return trans ? nvvm_ldmatrix_sync_aligned_m8n8_x2_trans_b16
                 : nvvm_ldmatrix_sync_aligned_m8n8_x2_b16;
  case 4:
    return trans ? nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16
                 : nvvm_ldmatrix_sync_aligned_m8n8_x4_b16;
  }
  assert(false && "ldmatrix count must be 1, 2 or 4");
  return not_intrinsic;
}

llvm::Intrinsic::ID mmaIntrinsic(MmaKind kind) {
  using namespace llvm::Intrinsic;
  switch (kind) {
  case MmaKind::M16N8K16_F16_F32:
    return nvvm_mma_m16n8k16_row_col_f32_f32;
  case MmaKind::M16N8K16_BF16_F32:
    return nvvm_mma_m16n8k16_row_col_bf16;
  case MmaKind::M16N8K8_TF32_F32:
    return nvvm_mma_m16n8k8_row_col_tf32;
  case MmaKind::M16N8K32_S8_S32:
    return nvvm_mma_m16n8k32_row_col_s8;
  }
  assert(false && "unknown mma kind");
  return not_intrinsic;
}

} // namespace linlayout::lower::shim
