#include "LoweringContext.h"

#include "SharedAccess.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

#include "LlvmShim.h"

namespace linlayout::lower {

LoweringContext::LoweringContext(const ir::Module &m, const ir::Function &f, KernelBuilder &kb,
                                 const PtxTarget &target, const OpPlans &plans,
                                 LayoutCache &layouts)
    : m_(m), f_(f), kb_(kb), target_(target), plans_(plans), layouts_(layouts) {
  values_.resize(f.values.size());
}

llvm::Type *LoweringContext::scalarType(ir::ScalarKind k) {
  llvm::LLVMContext &c = kb_.context();
  switch (k) {
  case ir::ScalarKind::I1:
    return llvm::Type::getInt1Ty(c);
  case ir::ScalarKind::I8:
    return llvm::Type::getInt8Ty(c);
  case ir::ScalarKind::I16:
    return llvm::Type::getInt16Ty(c);
  case ir::ScalarKind::I32:
    return llvm::Type::getInt32Ty(c);
  case ir::ScalarKind::I64:
    return llvm::Type::getInt64Ty(c);
  case ir::ScalarKind::F16:
    return llvm::Type::getHalfTy(c);
  case ir::ScalarKind::BF16:
    return llvm::Type::getBFloatTy(c);
  case ir::ScalarKind::F32:
    return llvm::Type::getFloatTy(c);
  case ir::ScalarKind::F64:
    return llvm::Type::getDoubleTy(c);
  case ir::ScalarKind::F8E4M3FN: // 8-bit floats live in bytes; tt.fp_to_fp converts them
  case ir::ScalarKind::F8E5M2:
    return llvm::Type::getInt8Ty(c);
  }
  return nullptr;
}

llvm::Type *LoweringContext::elementType(const ir::Type &t) {
  if (t.elem().pointer)
    return llvm::PointerType::get(kb_.context(), 1);
  return scalarType(t.elem().scalar);
}

const Lowered &LoweringContext::get(ir::ValueId v) const {
  assert(v < values_.size() && values_[v] && "value used before it was lowered");
  return *values_[v];
}

void LoweringContext::set(ir::ValueId v, Lowered l) {
  assert(v < values_.size() && "value id out of range");
  values_[v] = std::make_unique<Lowered>(std::move(l));
}

Status LoweringContext::setRegs(ir::ValueId v, std::vector<llvm::Value *> regs) {
  Lowered l;
  const ir::Type &t = f_.type(v);
  if (t.isTensor()) {
    LL_ASSIGN_OR_RETURN(l.layout, layoutOf(t));
    assert(regs.size() == l.layout.inDimSize(DimName::reg()) && "one value per register");
  } else {
    assert(regs.size() == 1 && "a scalar is one value");
  }
  l.regs = std::move(regs);
  set(v, std::move(l));
  return Status::success();
}

llvm::Value *LoweringContext::sharedAt(int64_t offset) {
  return sharedAddress(b(), kb_.sharedBase(), nullptr, offset);
}

llvm::Value *LoweringContext::sharedBase(const Lowered &memDesc) {
  return sharedAddress(b(), kb_.sharedBase(), memDesc.sharedDynamic, memDesc.sharedOffset);
}

llvm::Value *LoweringContext::blockInCluster() {
  if (m_.numCtas <= 1)
    return b().getInt32(0);
  // A special-register read is cheap and LLVM merges repeats, so read it where it is needed.
  return b().CreateCall(
      shim::intrinsic(kb_.module(), llvm::Intrinsic::nvvm_read_ptx_sreg_cluster_ctarank));
}

void LoweringContext::beforeSharedWrite(ByteRange bytes) {
  if (hazards_.writeNeedsBarrier(bytes)) {
    emitBarrier(b());
    barrierEmitted();
  }
}

void LoweringContext::beforeSharedRead(ByteRange bytes) {
  if (hazards_.readNeedsBarrier(bytes)) {
    emitBarrier(b());
    barrierEmitted();
  }
}

std::string opLocation(const ir::Module &m, const ir::Function &f, const ir::Op &op) {
  if (op.loc.line == 0)
    return f.name + " (an op a pass inserted)";
  return (m.fileName.empty() ? std::string("<input>") : m.fileName) + ":" +
         std::to_string(op.loc.line) + ":" + std::to_string(op.loc.col);
}

std::string LoweringContext::where(const ir::Op &op) const { return location(op) + ": "; }

} // namespace linlayout::lower
