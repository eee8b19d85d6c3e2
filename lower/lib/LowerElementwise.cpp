// Elementwise ops: one LLVM instruction (or a short sequence) per register. Operands of an
// elementwise op share the result's layout (the verifier checks it), so register i of every
// operand holds the same element.
#include "InlinePtx.h"
#include "LlvmShim.h"
#include "OpLowering.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

#include <cmath>

namespace linlayout::lower {

namespace {

llvm::CmpInst::Predicate predicateOf(ir::CmpPredicate p) {
  using P = llvm::CmpInst::Predicate;
  switch (p) {
  case ir::CmpPredicate::Eq: return P::ICMP_EQ;
  case ir::CmpPredicate::Ne: return P::ICMP_NE;
  case ir::CmpPredicate::Slt: return P::ICMP_SLT;
  case ir::CmpPredicate::Sle: return P::ICMP_SLE;
  case ir::CmpPredicate::Sgt: return P::ICMP_SGT;
  case ir::CmpPredicate::Sge: return P::ICMP_SGE;
  case ir::CmpPredicate::Ult: return P::ICMP_ULT;
  case ir::CmpPredicate::Ule: return P::ICMP_ULE;
  case ir::CmpPredicate::Ugt: return P::ICMP_UGT;
  case ir::CmpPredicate::Uge: return P::ICMP_UGE;
  case ir::CmpPredicate::Oeq: return P::FCMP_OEQ;
  case ir::CmpPredicate::One: return P::FCMP_ONE;
  case ir::CmpPredicate::Olt: return P::FCMP_OLT;
  case ir::CmpPredicate::Ole: return P::FCMP_OLE;
  case ir::CmpPredicate::Ogt: return P::FCMP_OGT;
  case ir::CmpPredicate::Oge: return P::FCMP_OGE;
  case ir::CmpPredicate::Une: return P::FCMP_UNE;
  }
  return P::ICMP_EQ;
}

// Transcendental functions run on the SFU in f32 (ex2.approx / lg2.approx), as Triton does.
llvm::Value *unaryFloat(LoweringContext &ctx, ir::OpKind kind, llvm::Value *x) {
  auto &b = ctx.b();
  llvm::Module &m = ctx.kernel().module();
  llvm::Type *ty = x->getType();
  switch (kind) {
  case ir::OpKind::NegF: return b.CreateFNeg(x);
  case ir::OpKind::AbsF: return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  case ir::OpKind::Sqrt: return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
  case ir::OpKind::Floor: return b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, x);
  case ir::OpKind::Ceil: return b.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, x);
  default: break;
  }
  llvm::Value *f = ty->isFloatTy() ? x : b.CreateFPCast(x, b.getFloatTy());
  // The .ftz forms, as Triton's: results and operands below 2^-126 are flushed to zero, which
  // spares each one a range fixup around the SFU instruction (a compare and two multiplies).
  llvm::Function *ex2 = shim::intrinsic(m, llvm::Intrinsic::nvvm_ex2_approx_ftz_f);
  llvm::Function *lg2 = shim::intrinsic(m, llvm::Intrinsic::nvvm_lg2_approx_ftz_f);
  llvm::Value *r = nullptr;
  switch (kind) {
  case ir::OpKind::Exp:
    r = b.CreateCall(ex2, {b.CreateFMul(f, llvm::ConstantFP::get(b.getFloatTy(), M_LOG2E))});
    break;
  case ir::OpKind::Exp2: r = b.CreateCall(ex2, {f}); break;
  case ir::OpKind::Log2: r = b.CreateCall(lg2, {f}); break;
  case ir::OpKind::Rsqrt:
    r = b.CreateCall(shim::intrinsic(m, llvm::Intrinsic::nvvm_rsqrt_approx_f), {f});
    break;
  case ir::OpKind::Log:
    r = b.CreateFMul(b.CreateCall(lg2, {f}), llvm::ConstantFP::get(b.getFloatTy(), M_LN2));
    break;
  default: break;
  }
  assert(r && "unary float op");
  return ty->isFloatTy() ? r : b.CreateFPCast(r, ty);
}

// The IR defines what LLVM leaves poison or undefined (docs/ir.md, IntArith.h): a shift by the
// width or more gives 0 (the sign, for shrsi), and the minimum divided by -1 is itself with
// remainder 0. The guards fold away for constant shift amounts and divisors.
llvm::Value *definedShift(llvm::IRBuilderBase &b, ir::OpKind kind, llvm::Value *x, llvm::Value *y) {
  llvm::Type *ty = x->getType();
  unsigned bits = ty->getScalarSizeInBits();
  if (kind == ir::OpKind::ShRSI)
    return b.CreateAShr(
        x, b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, y, llvm::ConstantInt::get(ty, bits - 1)));
  llvm::Value *inRange = b.CreateICmpULT(y, llvm::ConstantInt::get(ty, bits));
  llvm::Value *shifted = kind == ir::OpKind::ShLI ? b.CreateShl(x, y) : b.CreateLShr(x, y);
  return b.CreateSelect(inRange, shifted, llvm::Constant::getNullValue(ty));
}

llvm::Value *definedSignedDivisor(llvm::IRBuilderBase &b, llvm::Value *x, llvm::Value *y) {
  llvm::Type *ty = x->getType();
  unsigned bits = ty->getScalarSizeInBits();
  llvm::Value *overflows = b.CreateAnd(
      b.CreateICmpEQ(x, llvm::ConstantInt::get(ty, llvm::APInt::getSignedMinValue(bits))),
      b.CreateICmpEQ(y, llvm::Constant::getAllOnesValue(ty)));
  return b.CreateSelect(overflows, llvm::ConstantInt::get(ty, 1), y);
}

// fptosi / fptoui as the IR defines them: toward zero, saturating, NaN to 0. LLVM's fptosi and
// fptoui are poison out of range (and instcombine turns the nvvm f2i intrinsics into them); its
// fptosi.sat is expanded into compares and selects around the cvt. PTX's cvt.rzi is exactly the
// IR's conversion from f16 and f32 to 32 bits, so it is emitted as it is; conversions to 64 bits
// and from f64 also need NaN mapped to 0 (the hardware gives 0x80..0, signed or not); bf16 widens
// to f32 exactly first, and 8- and 16-bit results are clamped after a 32-bit conversion.
llvm::Value *floatToInt(LoweringContext &ctx, bool isSigned, llvm::Value *x, llvm::Type *to) {
  auto &b = ctx.b();
  if (x->getType()->isBFloatTy())
    x = b.CreateFPExt(x, b.getFloatTy());
  llvm::Type *src = x->getType();
  unsigned bits = to->getIntegerBitWidth();
  llvm::Type *wide = bits == 64 ? b.getInt64Ty() : b.getInt32Ty();
  std::string text = std::string("cvt.rzi.") + (isSigned ? "s" : "u") +
                     (bits == 64 ? "64." : "32.") +
                     (src->isHalfTy()     ? "f16"
                      : src->isDoubleTy() ? "f64"
                                          : "f32") +
                     " $0, $1;";
  llvm::Value *v = emitInlinePtx(b, text, {wide}, {}, {x}, /*pure=*/true)[0];
  if (bits == 64 || src->isDoubleTy()) // these give the sign bit alone for NaN (H100)
    v = b.CreateSelect(b.CreateFCmpUNO(x, x), llvm::ConstantInt::get(wide, 0), v);
  if (bits >= 32)
    return v;
  namespace I = llvm::Intrinsic;
  if (isSigned) {
    int64_t hi = (int64_t(1) << (bits - 1)) - 1;
    v = b.CreateBinaryIntrinsic(I::smin, v, llvm::ConstantInt::getSigned(wide, hi));
    v = b.CreateBinaryIntrinsic(I::smax, v, llvm::ConstantInt::getSigned(wide, -hi - 1));
  } else {
    v = b.CreateBinaryIntrinsic(I::umin, v,
                                llvm::ConstantInt::get(wide, (uint64_t(1) << bits) - 1));
  }
  return b.CreateTrunc(v, to);
}

llvm::Value *cast(LoweringContext &ctx, ir::OpKind kind, llvm::Value *x, llvm::Type *to) {
  auto &b = ctx.b();
  switch (kind) {
  case ir::OpKind::SIToFP: return b.CreateSIToFP(x, to);
  case ir::OpKind::FPToSI:
    return floatToInt(ctx, true, x, to);
  case ir::OpKind::UIToFP: return b.CreateUIToFP(x, to);
  case ir::OpKind::FPToUI:
    return floatToInt(ctx, false, x, to);
  case ir::OpKind::ExtF: return b.CreateFPExt(x, to);
  case ir::OpKind::TruncF: return b.CreateFPTrunc(x, to);
  case ir::OpKind::ExtSI: return b.CreateSExt(x, to);
  case ir::OpKind::ExtUI: return b.CreateZExt(x, to);
  case ir::OpKind::TruncI: return b.CreateTrunc(x, to);
  case ir::OpKind::Bitcast:
    return b.CreateBitCast(x, to);
  default: break;
  }
  assert(false && "cast op");
  return nullptr;
}

// An integer offset as (variable part, constant part) with v == var + c, looking through add,
// disjoint or, and multiplication / left shift by a constant (depth-limited); var is null when v
// is constant. Offsets of a tile are (thread part) + (register constant): addptr steps the pointer
// by the shared variable part and then by the constant, so that every register's address is one
// base plus an immediate. Without the split LLVM keeps one 64-bit offset per distinct
// (thread | constant) combination, and where the same offsets address a load before a loop and a
// store after it, all of them stay live across the loop (the 128x128 f32 convert loop needed 255
// registers instead of 162). Assumes, as address arithmetic does, that offsets do not wrap.
std::pair<llvm::Value *, int64_t> splitConstant(llvm::IRBuilder<> &b, llvm::Value *v,
                                                int depth = 0) {
  if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(v))
    return {nullptr, c->getSExtValue()};
  auto *bo = llvm::dyn_cast<llvm::BinaryOperator>(v);
  if (!bo || depth > 8 || !v->getType()->isIntegerTy() ||
      v->getType()->getIntegerBitWidth() > 64)
    return {v, 0};
  llvm::Value *lhs = bo->getOperand(0), *rhs = bo->getOperand(1);
  bool additive = bo->getOpcode() == llvm::Instruction::Add;
  if (bo->getOpcode() == llvm::Instruction::Or)
    if (auto *d = llvm::dyn_cast<llvm::PossiblyDisjointInst>(bo); d && d->isDisjoint())
      additive = true;
  if (additive) {
    auto [va, ca] = splitConstant(b, lhs, depth + 1);
    auto [vb, cb] = splitConstant(b, rhs, depth + 1);
    if (ca == 0 && cb == 0)
      return {v, 0};
    llvm::Value *var = !va ? vb : !vb ? va : b.CreateAdd(va, vb);
    return {var, ca + cb};
  }
  auto *k = llvm::dyn_cast<llvm::ConstantInt>(rhs);
  bool mul = bo->getOpcode() == llvm::Instruction::Mul;
  bool shl = bo->getOpcode() == llvm::Instruction::Shl;
  if (!k || !(mul || shl) || (shl && k->getZExtValue() >= 32))
    return {v, 0};
  auto [va, ca] = splitConstant(b, lhs, depth + 1);
  if (ca == 0)
    return {v, 0};
  int64_t factor = mul ? k->getSExtValue() : int64_t(1) << k->getZExtValue();
  llvm::Value *var = !va ? nullptr : mul ? b.CreateMul(va, k) : b.CreateShl(va, k);
  return {var, ca * factor};
}

// `c` as a constant of v's integer type (its low bits).
llvm::APInt wrapped(llvm::Value *v, int64_t c) {
  unsigned bits = v->getType()->getIntegerBitWidth();
  return llvm::APInt(64, static_cast<uint64_t>(c)).sextOrTrunc(bits);
}

} // namespace

llvm::Value *binary(LoweringContext &ctx, ir::OpKind kind, llvm::Value *x, llvm::Value *y) {
  auto &b = ctx.b();
  switch (kind) {
  case ir::OpKind::AddI: return b.CreateAdd(x, y);
  case ir::OpKind::SubI: return b.CreateSub(x, y);
  case ir::OpKind::MulI: return b.CreateMul(x, y);
  // An i1 divisor other than 0 is -1, and the i1 minimum divided by -1 is itself.
  case ir::OpKind::DivSI:
    return x->getType()->isIntegerTy(1) ? x : b.CreateSDiv(x, definedSignedDivisor(b, x, y));
  case ir::OpKind::RemSI:
    return x->getType()->isIntegerTy(1) ? llvm::Constant::getNullValue(x->getType())
                                        : b.CreateSRem(x, definedSignedDivisor(b, x, y));
  case ir::OpKind::AndI: return b.CreateAnd(x, y);
  case ir::OpKind::OrI: return b.CreateOr(x, y);
  case ir::OpKind::XOrI: return b.CreateXor(x, y);
  case ir::OpKind::ShLI:
  case ir::OpKind::ShRSI:
    return definedShift(b, kind, x, y);
  case ir::OpKind::MinSI: return b.CreateBinaryIntrinsic(llvm::Intrinsic::smin, x, y);
  case ir::OpKind::MaxSI: return b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, x, y);
  case ir::OpKind::DivUI: return b.CreateUDiv(x, y);
  case ir::OpKind::RemUI: return b.CreateURem(x, y);
  case ir::OpKind::ShRUI:
    return definedShift(b, kind, x, y);
  case ir::OpKind::MinUI: return b.CreateBinaryIntrinsic(llvm::Intrinsic::umin, x, y);
  case ir::OpKind::MaxUI: return b.CreateBinaryIntrinsic(llvm::Intrinsic::umax, x, y);
  case ir::OpKind::MulHiUI: { // the high half of the double-width unsigned product
    unsigned bits = x->getType()->getIntegerBitWidth();
    llvm::Type *wide = b.getIntNTy(2 * bits);
    llvm::Value *p = b.CreateMul(b.CreateZExt(x, wide), b.CreateZExt(y, wide));
    return b.CreateTrunc(b.CreateLShr(p, uint64_t(bits)), x->getType());
  }
  case ir::OpKind::AddF: return b.CreateFAdd(x, y);
  case ir::OpKind::SubF: return b.CreateFSub(x, y);
  case ir::OpKind::MulF: return b.CreateFMul(x, y);
  case ir::OpKind::DivF: return b.CreateFDiv(x, y);
  case ir::OpKind::MinF: return b.CreateBinaryIntrinsic(llvm::Intrinsic::minimum, x, y);
  case ir::OpKind::MaxF: return b.CreateBinaryIntrinsic(llvm::Intrinsic::maximum, x, y);
  case ir::OpKind::MinNumF: return b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, x, y);
  case ir::OpKind::MaxNumF: return b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, y);
  default: break;
  }
  assert(false && "binary op");
  return nullptr;
}

Status lowerElementwise(LoweringContext &ctx, const ir::Op &op) {
  const ir::Function &f = ctx.function();
  const ir::Type &rt = f.type(op.results[0]);
  if (op.kind == ir::OpKind::Exp || op.kind == ir::OpKind::Exp2 || op.kind == ir::OpKind::Log)
    if (rt.elem().scalar == ir::ScalarKind::F64)
      return makeError(ctx.where(op) + std::string(ir::mnemonic(op.kind)) +
                       " on f64 is not supported (the lowering uses the f32 SFU approximations)");
  size_t n = ctx.get(op.results.empty() ? op.operands[0] : op.operands[0]).regs.size();
  for (ir::ValueId v : op.operands)
    n = std::max(n, ctx.get(v).regs.size());
  // A scalar operand (e.g. select's condition) applies to every register.
  auto reg = [&](size_t k, size_t r) {
    const Lowered &l = ctx.get(op.operands[k]);
    return l.regs.size() == 1 ? l.regs[0] : l.regs[r];
  };
  llvm::Type *resultElem = ctx.elementType(rt);
  std::vector<llvm::Value *> out;
  out.reserve(n);
  for (size_t r = 0; r < n; ++r) {
    llvm::Value *v = nullptr;
    switch (ir::category(op.kind)) {
    case ir::OpCategory::BinaryInt:
    case ir::OpCategory::BinaryFloat:
      v = binary(ctx, op.kind, reg(0, r), reg(1, r));
      // Marked contractable, the backend fuses a multiply into the add that takes it (fma).
      if (ctx.plans().fpFusion && (op.kind == ir::OpKind::AddF || op.kind == ir::OpKind::SubF ||
                                   op.kind == ir::OpKind::MulF))
        if (auto *inst = llvm::dyn_cast<llvm::Instruction>(v))
          inst->setHasAllowContract(true);
      break;
    case ir::OpCategory::UnaryFloat:
      v = unaryFloat(ctx, op.kind, reg(0, r));
      break;
    case ir::OpCategory::Compare: {
      llvm::CmpInst::Predicate p = predicateOf(op.attrs.predicate);
      v = llvm::CmpInst::isFPPredicate(p) ? ctx.b().CreateFCmp(p, reg(0, r), reg(1, r))
                                          : ctx.b().CreateICmp(p, reg(0, r), reg(1, r));
      break;
    }
    case ir::OpCategory::Select:
      v = ctx.b().CreateSelect(reg(0, r), reg(1, r), reg(2, r));
      break;
    case ir::OpCategory::Cast:
      v = cast(ctx, op.kind, reg(0, r), resultElem);
      break;
    case ir::OpCategory::Memory: { // addptr
      llvm::Type *pointee = ctx.scalarType(rt.elem().scalar);
      llvm::Value *off = reg(1, r);
      auto [var, c] = splitConstant(ctx.b(), off);
      v = reg(0, r);
      if (var)
        v = ctx.b().CreateGEP(pointee, v, var);
      if (c || !var)
        v = ctx.b().CreateGEP(pointee, v,
                              llvm::ConstantInt::get(off->getType(), wrapped(off, c)));
      break;
    }
    default:
      return makeError(ctx.where(op) + "not an elementwise op");
    }
    out.push_back(v);
  }
  return ctx.setRegs(op.results[0], std::move(out));
}

} // namespace linlayout::lower
