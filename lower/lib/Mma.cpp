#include "Mma.h"

#include "LlvmShim.h"

#include <cassert>

namespace linlayout::lower {

namespace {
shim::MmaKind kindOf(MmaShape s) {
  switch (s) {
  case MmaShape::M16N8K16_F16:
    return shim::MmaKind::M16N8K16_F16_F32;
  case MmaShape::M16N8K16_BF16:
    return shim::MmaKind::M16N8K16_BF16_F32;
  case MmaShape::M16N8K8_TF32:
    return shim::MmaKind::M16N8K8_TF32_F32;
  case MmaShape::M16N8K32_S8:
    return shim::MmaKind::M16N8K32_S8_S32;
  }
  return shim::MmaKind::M16N8K16_F16_F32;
}
} // namespace

std::optional<MmaShape> mmaShapeFor(ir::ScalarKind k) {
  switch (k) {
  case ir::ScalarKind::F16:
    return MmaShape::M16N8K16_F16;
  case ir::ScalarKind::BF16:
    return MmaShape::M16N8K16_BF16;
  case ir::ScalarKind::F32:
    return MmaShape::M16N8K8_TF32;
  case ir::ScalarKind::I8:
    return MmaShape::M16N8K32_S8;
  case ir::ScalarKind::I1:
  case ir::ScalarKind::I16:
  case ir::ScalarKind::I32:
  case ir::ScalarKind::I64:
  case ir::ScalarKind::F64:
  case ir::ScalarKind::F8E4M3FN: // (wgmma only)
  case ir::ScalarKind::F8E5M2:
    break;
  }
  return std::nullopt;
}

std::vector<llvm::Value *> emitMma(llvm::IRBuilder<> &b, MmaShape shape,
                                   const std::vector<llvm::Value *> &a,
                                   const std::vector<llvm::Value *> &bOperand,
                                   const std::vector<llvm::Value *> &c) {
  assert(a.size() == 4 && bOperand.size() == 2 && c.size() == 4 && "mma fragment sizes");
  llvm::Module &m = *b.GetInsertBlock()->getModule();
  llvm::Function *f = shim::intrinsic(m, shim::mmaIntrinsic(kindOf(shape)));
  llvm::FunctionType *ft = f->getFunctionType();
  assert(ft->getNumParams() == 10 && "mma intrinsic operands");
  std::vector<llvm::Value *> args;
  for (const auto *list : {&a, &bOperand, &c})
    for (llvm::Value *v : *list) {
      // The intrinsic wants f16 operands as <2 x half> and the others as i32/float; our
      // fragments are words of the same size.
      llvm::Type *want = ft->getParamType(static_cast<unsigned>(args.size()));
      args.push_back(v->getType() == want ? v : b.CreateBitCast(v, want));
    }
  llvm::Value *d = b.CreateCall(f, args);
  std::vector<llvm::Value *> out;
  for (unsigned i = 0; i < 4; ++i)
    out.push_back(b.CreateExtractValue(d, i));
  return out;
}

llvm::Value *emitFma(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y, llvm::Value *z) {
  return b.CreateIntrinsic(llvm::Intrinsic::fma, {x->getType()}, {x, y, z});
}

} // namespace linlayout::lower
