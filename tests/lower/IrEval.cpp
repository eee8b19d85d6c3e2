#include "IrEval.h"

#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

namespace linlayout::lower::testing {

namespace {
uint64_t widthMask(llvm::Type *t) {
  if (t->isPointerTy())
    return ~uint64_t(0);
  unsigned w = t->getIntegerBitWidth();
  return w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1;
}
} // namespace

IntProgram::IntProgram(std::span<llvm::Value *const> roots, std::span<llvm::Value *const> leaves) {
  for (llvm::Value *r : roots)
    roots_.push_back(visit(r, leaves));
}

int IntProgram::visit(llvm::Value *v, std::span<llvm::Value *const> leaves) {
  for (auto &[val, idx] : index_)
    if (val == v)
      return idx;
  Op op;
  op.mask = widthMask(v->getType());
  bool leaf = false;
  for (size_t i = 0; i < leaves.size(); ++i)
    if (leaves[i] == v) {
      leaf = true;
      op.opcode = 1;
      op.imm = i;
    }
  if (leaf) {
  } else if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(v)) {
    op.opcode = 0;
    op.imm = c->getZExtValue();
  } else if (auto *inst = llvm::dyn_cast<llvm::Instruction>(v)) {
    ++numInstructions_;
    op.opcode = inst->getOpcode();
    if (auto *sel = llvm::dyn_cast<llvm::SelectInst>(inst)) {
      op.c = visit(sel->getCondition(), leaves);
      op.a = visit(sel->getTrueValue(), leaves);
      op.b = visit(sel->getFalseValue(), leaves);
    } else if (auto *bo = llvm::dyn_cast<llvm::BinaryOperator>(inst)) {
      op.a = visit(bo->getOperand(0), leaves);
      op.b = visit(bo->getOperand(1), leaves);
    } else if (auto *gep = llvm::dyn_cast<llvm::GetElementPtrInst>(inst)) {
      // Byte-addressed GEPs only: pointer + sign-extended index.
      if (!gep->getSourceElementType()->isIntegerTy(8) || gep->getNumIndices() != 1)
        ADD_FAILURE() << "IntProgram: only i8 GEPs with one index";
      op.opcode = llvm::Instruction::Add;
      op.a = visit(gep->getPointerOperand(), leaves);
      op.fromBits = gep->getOperand(1)->getType()->getIntegerBitWidth();
      op.b = visit(gep->getOperand(1), leaves);
      op.c = -2; // marks: sign-extend b from fromBits
    } else if (auto *cast = llvm::dyn_cast<llvm::CastInst>(inst)) {
      op.a = visit(cast->getOperand(0), leaves);
      op.fromBits = cast->getSrcTy()->getIntegerBitWidth();
    } else {
      ADD_FAILURE() << "IntProgram: unsupported instruction " << inst->getOpcodeName();
    }
  } else {
    ADD_FAILURE() << "IntProgram: unsupported value";
  }
  ops_.push_back(op);
  int idx = static_cast<int>(ops_.size()) - 1;
  index_.push_back({v, idx});
  return idx;
}

std::vector<uint64_t> IntProgram::run(std::span<const uint64_t> leafValues) const {
  std::vector<uint64_t> val(ops_.size());
  for (size_t i = 0; i < ops_.size(); ++i) {
    const Op &op = ops_[i];
    uint64_t a = op.a >= 0 ? val[op.a] : 0, b = op.b >= 0 ? val[op.b] : 0, r = 0;
    switch (op.opcode) {
    case 0:
      r = op.imm;
      break;
    case 1:
      r = leafValues[op.imm];
      break;
    case llvm::Instruction::Add:
      if (op.c == -2 && op.fromBits < 64 && ((b >> (op.fromBits - 1)) & 1))
        b |= ~((uint64_t(1) << op.fromBits) - 1);
      r = a + b;
      break;
    case llvm::Instruction::Sub:
      r = a - b;
      break;
    case llvm::Instruction::Mul:
      r = a * b;
      break;
    case llvm::Instruction::Shl:
      r = b >= 64 ? 0 : a << b;
      break;
    case llvm::Instruction::LShr:
      r = b >= 64 ? 0 : a >> b;
      break;
    case llvm::Instruction::And:
      r = a & b;
      break;
    case llvm::Instruction::Or:
      r = a | b;
      break;
    case llvm::Instruction::Xor:
      r = a ^ b;
      break;
    case llvm::Instruction::ZExt:
    case llvm::Instruction::Trunc:
      r = a;
      break;
    case llvm::Instruction::SExt:
      r = (op.fromBits < 64 && ((a >> (op.fromBits - 1)) & 1))
              ? a | ~((uint64_t(1) << op.fromBits) - 1)
              : a;
      break;
    case llvm::Instruction::Select:
      r = val[op.c] ? a : b;
      break;
    default:
      r = 0;
      break;
    }
    val[i] = r & op.mask;
  }
  std::vector<uint64_t> out;
  for (int r : roots_)
    out.push_back(val[r]);
  return out;
}

} // namespace linlayout::lower::testing
