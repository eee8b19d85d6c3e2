// Elementwise ops: one LLVM instruction (or a short sequence) per register. Operands of an
// elementwise op share the result's layout (the verifier checks it), so register i of every
// operand holds the same element.
#include "InlinePtx.h"
#include "LlvmShim.h"
#include "OpLowering.h"

#include <llvm/IR/IntrinsicsNVPTX.h>

#include <array>
#include <cmath>

namespace linlayout::lower {

namespace {

llvm::CmpInst::Predicate predicateOf(ir::CmpPredicate p) {
  using P = llvm::CmpInst::Predicate;
  switch (p) {
  case ir::CmpPredicate::Eq:
    return P::ICMP_EQ;
  case ir::CmpPredicate::Ne:
    return P::ICMP_NE;
  case ir::CmpPredicate::Slt:
    return P::ICMP_SLT;
  case ir::CmpPredicate::Sle:
    return P::ICMP_SLE;
  case ir::CmpPredicate::Sgt:
    return P::ICMP_SGT;
  case ir::CmpPredicate::Sge:
    return P::ICMP_SGE;
  case ir::CmpPredicate::Ult:
    return P::ICMP_ULT;
  case ir::CmpPredicate::Ule:
    return P::ICMP_ULE;
  case ir::CmpPredicate::Ugt:
    return P::ICMP_UGT;
  case ir::CmpPredicate::Uge:
    return P::ICMP_UGE;
  case ir::CmpPredicate::Oeq:
    return P::FCMP_OEQ;
  case ir::CmpPredicate::One:
    return P::FCMP_ONE;
  case ir::CmpPredicate::Olt:
    return P::FCMP_OLT;
  case ir::CmpPredicate::Ole:
    return P::FCMP_OLE;
  case ir::CmpPredicate::Ogt:
    return P::FCMP_OGT;
  case ir::CmpPredicate::Oge:
    return P::FCMP_OGE;
  case ir::CmpPredicate::Une:
    return P::FCMP_UNE;
  }
  return P::ICMP_EQ;
}

// Per op kind, the emission of a UnaryFloat op on one register. Transcendental functions run on
// the SFU in f32 (ex2.approx / lg2.approx), as Triton does: a narrower operand is widened and
// the result narrowed back.
using UnaryEmitFn = llvm::Value *(*)(LoweringContext &ctx, llvm::Value *x);

// `sfu` (on an f32 value) applied to x of any float type.
template <typename Fn> llvm::Value *inF32(LoweringContext &ctx, llvm::Value *x, Fn sfu) {
  auto &b = ctx.b();
  llvm::Type *ty = x->getType();
  llvm::Value *r = sfu(ty->isFloatTy() ? x : b.CreateFPCast(x, b.getFloatTy()));
  return ty->isFloatTy() ? r : b.CreateFPCast(r, ty);
}

// The .ftz forms, as Triton's: results and operands below 2^-126 are flushed to zero, which
// spares each one a range fixup around the SFU instruction (a compare and two multiplies).
llvm::Value *ex2(LoweringContext &ctx, llvm::Value *f) {
  return ctx.b().CreateCall(
      shim::intrinsic(ctx.kernel().module(), llvm::Intrinsic::nvvm_ex2_approx_ftz_f), {f});
}
llvm::Value *lg2(LoweringContext &ctx, llvm::Value *f) {
  return ctx.b().CreateCall(
      shim::intrinsic(ctx.kernel().module(), llvm::Intrinsic::nvvm_lg2_approx_ftz_f), {f});
}

constexpr std::array<UnaryEmitFn, ir::kNumOpKinds> kUnaryEmit = [] {
  std::array<UnaryEmitFn, ir::kNumOpKinds> t{};
  using K = ir::OpKind;
  using C = LoweringContext;
  auto set = [&](K k, UnaryEmitFn fn) { t[size_t(k)] = fn; };
  set(K::NegF, [](C &c, llvm::Value *x) -> llvm::Value * { return c.b().CreateFNeg(x); });
  set(K::AbsF, [](C &c, llvm::Value *x) -> llvm::Value * {
    return c.b().CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  });
  set(K::Sqrt, [](C &c, llvm::Value *x) -> llvm::Value * {
    return c.b().CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
  });
  set(K::Floor, [](C &c, llvm::Value *x) -> llvm::Value * {
    return c.b().CreateUnaryIntrinsic(llvm::Intrinsic::floor, x);
  });
  set(K::Ceil, [](C &c, llvm::Value *x) -> llvm::Value * {
    return c.b().CreateUnaryIntrinsic(llvm::Intrinsic::ceil, x);
  });
  set(K::Exp, [](C &c, llvm::Value *x) -> llvm::Value * {
    return inF32(c, x, [&](llvm::Value *f) {
      return ex2(c, c.b().CreateFMul(f, llvm::ConstantFP::get(c.b().getFloatTy(), M_LOG2E)));
    });
  });
  set(K::Exp2, [](C &c, llvm::Value *x) -> llvm::Value * {
    return inF32(c, x, [&](llvm::Value *f) { return ex2(c, f); });
  });
  set(K::Log2, [](C &c, llvm::Value *x) -> llvm::Value * {
    return inF32(c, x, [&](llvm::Value *f) { return lg2(c, f); });
  });
  set(K::Rsqrt, [](C &c, llvm::Value *x) -> llvm::Value * {
    return inF32(c, x, [&](llvm::Value *f) -> llvm::Value * {
      return c.b().CreateCall(
          shim::intrinsic(c.kernel().module(), llvm::Intrinsic::nvvm_rsqrt_approx_f), {f});
    });
  });
  set(K::Log, [](C &c, llvm::Value *x) -> llvm::Value * {
    return inF32(c, x, [&](llvm::Value *f) {
      return c.b().CreateFMul(lg2(c, f), llvm::ConstantFP::get(c.b().getFloatTy(), M_LN2));
    });
  });
  return t;
}();
static_assert(ir::coversCategory(kUnaryEmit, ir::OpCategory::UnaryFloat),
              "a UnaryFloat op has no entry in kUnaryEmit");

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

// Per op kind, the emission of a cast (but tt.fp_to_fp, LowerFpToFp.cpp) on one register.
using CastEmitFn = llvm::Value *(*)(LoweringContext &ctx, llvm::Value *x, llvm::Type *to);
constexpr std::array<CastEmitFn, ir::kNumOpKinds> kCastEmit = [] {
  std::array<CastEmitFn, ir::kNumOpKinds> t{};
  using K = ir::OpKind;
  using C = LoweringContext;
  using V = llvm::Value;
  auto set = [&](K k, CastEmitFn fn) { t[size_t(k)] = fn; };
  set(K::SIToFP, [](C &c, V *x, llvm::Type *to) -> V * { return c.b().CreateSIToFP(x, to); });
  set(K::FPToSI, [](C &c, V *x, llvm::Type *to) -> V * { return floatToInt(c, true, x, to); });
  set(K::UIToFP, [](C &c, V *x, llvm::Type *to) -> V * { return c.b().CreateUIToFP(x, to); });
  set(K::FPToUI, [](C &c, V *x, llvm::Type *to) -> V * { return floatToInt(c, false, x, to); });
  set(K::ExtF, [](C &c, V *x, llvm::Type *to) -> V * { return c.b().CreateFPExt(x, to); });
  set(K::TruncF, [](C &c, V *x, llvm::Type *to) -> V * { return c.b().CreateFPTrunc(x, to); });
  set(K::ExtSI, [](C &c, V *x, llvm::Type *to) -> V * { return c.b().CreateSExt(x, to); });
  set(K::ExtUI, [](C &c, V *x, llvm::Type *to) -> V * { return c.b().CreateZExt(x, to); });
  set(K::TruncI, [](C &c, V *x, llvm::Type *to) -> V * { return c.b().CreateTrunc(x, to); });
  set(K::Bitcast, [](C &c, V *x, llvm::Type *to) -> V * { return c.b().CreateBitCast(x, to); });
  return t;
}();
constexpr bool castsCovered() {
  for (size_t k = 0; k < size_t(ir::kNumOpKinds); ++k)
    if (ir::category(ir::OpKind(k)) == ir::OpCategory::Cast &&
        ir::OpKind(k) != ir::OpKind::FpToFp && !kCastEmit[k])
      return false;
  return true;
}
static_assert(castsCovered(), "a cast has no entry in kCastEmit");

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
  if (!bo || depth > 8 || !v->getType()->isIntegerTy() || v->getType()->getIntegerBitWidth() > 64)
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

namespace {

// Per op kind, the emission of a BinaryInt or BinaryFloat op on two registers.
using BinaryEmitFn = llvm::Value *(*)(llvm::IRBuilderBase &b, llvm::Value *x, llvm::Value *y);
constexpr std::array<BinaryEmitFn, ir::kNumOpKinds> kBinaryEmit = [] {
  std::array<BinaryEmitFn, ir::kNumOpKinds> t{};
  using K = ir::OpKind;
  using B = llvm::IRBuilderBase;
  using V = llvm::Value;
  namespace I = llvm::Intrinsic;
  auto set = [&](K k, BinaryEmitFn fn) { t[size_t(k)] = fn; };
  set(K::AddI, [](B &b, V *x, V *y) -> V * { return b.CreateAdd(x, y); });
  set(K::SubI, [](B &b, V *x, V *y) -> V * { return b.CreateSub(x, y); });
  set(K::MulI, [](B &b, V *x, V *y) -> V * { return b.CreateMul(x, y); });
  // An i1 divisor other than 0 is -1, and the i1 minimum divided by -1 is itself.
  set(K::DivSI, [](B &b, V *x, V *y) -> V * {
    return x->getType()->isIntegerTy(1) ? x : b.CreateSDiv(x, definedSignedDivisor(b, x, y));
  });
  set(K::RemSI, [](B &b, V *x, V *y) -> V * {
    return x->getType()->isIntegerTy(1) ? llvm::Constant::getNullValue(x->getType())
                                        : b.CreateSRem(x, definedSignedDivisor(b, x, y));
  });
  set(K::AndI, [](B &b, V *x, V *y) -> V * { return b.CreateAnd(x, y); });
  set(K::OrI, [](B &b, V *x, V *y) -> V * { return b.CreateOr(x, y); });
  set(K::XOrI, [](B &b, V *x, V *y) -> V * { return b.CreateXor(x, y); });
  set(K::ShLI, [](B &b, V *x, V *y) -> V * { return definedShift(b, K::ShLI, x, y); });
  set(K::ShRSI, [](B &b, V *x, V *y) -> V * { return definedShift(b, K::ShRSI, x, y); });
  set(K::ShRUI, [](B &b, V *x, V *y) -> V * { return definedShift(b, K::ShRUI, x, y); });
  set(K::MinSI, [](B &b, V *x, V *y) -> V * { return b.CreateBinaryIntrinsic(I::smin, x, y); });
  set(K::MaxSI, [](B &b, V *x, V *y) -> V * { return b.CreateBinaryIntrinsic(I::smax, x, y); });
  set(K::DivUI, [](B &b, V *x, V *y) -> V * { return b.CreateUDiv(x, y); });
  set(K::RemUI, [](B &b, V *x, V *y) -> V * { return b.CreateURem(x, y); });
  set(K::MinUI, [](B &b, V *x, V *y) -> V * { return b.CreateBinaryIntrinsic(I::umin, x, y); });
  set(K::MaxUI, [](B &b, V *x, V *y) -> V * { return b.CreateBinaryIntrinsic(I::umax, x, y); });
  // The high half of the double-width unsigned product.
  set(K::MulHiUI, [](B &b, V *x, V *y) -> V * {
    unsigned bits = x->getType()->getIntegerBitWidth();
    llvm::Type *wide = b.getIntNTy(2 * bits);
    llvm::Value *p = b.CreateMul(b.CreateZExt(x, wide), b.CreateZExt(y, wide));
    return b.CreateTrunc(b.CreateLShr(p, uint64_t(bits)), x->getType());
  });
  set(K::AddF, [](B &b, V *x, V *y) -> V * { return b.CreateFAdd(x, y); });
  set(K::SubF, [](B &b, V *x, V *y) -> V * { return b.CreateFSub(x, y); });
  set(K::MulF, [](B &b, V *x, V *y) -> V * { return b.CreateFMul(x, y); });
  // Triton's `/`: on f32 the full-range approximate division, div.full.f32 (within 2 ulp), where
  // div.rn takes a dozen instructions and a slow-path branch; tt.precise_divf keeps div.rn. The
  // division stays an fdiv, marked approximate, so that LLVM folds constant operands exactly (as
  // MLIR folds them before Triton lowers); emitPtx turns what is left into div.full.f32.
  set(K::DivF, [](B &b, V *x, V *y) -> V * {
    V *q = b.CreateFDiv(x, y);
    if (auto *inst = llvm::dyn_cast<llvm::Instruction>(q); inst && x->getType()->isFloatTy())
      inst->setHasApproxFunc(true);
    return q;
  });
  set(K::MinF, [](B &b, V *x, V *y) -> V * { return b.CreateBinaryIntrinsic(I::minimum, x, y); });
  set(K::MaxF, [](B &b, V *x, V *y) -> V * { return b.CreateBinaryIntrinsic(I::maximum, x, y); });
  set(K::MinNumF, [](B &b, V *x, V *y) -> V * { return b.CreateBinaryIntrinsic(I::minnum, x, y); });
  set(K::MaxNumF, [](B &b, V *x, V *y) -> V * { return b.CreateBinaryIntrinsic(I::maxnum, x, y); });
  set(K::RemF, [](B &b, V *x, V *y) -> V * { return b.CreateFRem(x, y); });
  // An IEEE division, which NVPTX emits as div.rn (Triton's tt.precise_divf).
  set(K::PreciseDivF, [](B &b, V *x, V *y) -> V * { return b.CreateFDiv(x, y); });
  return t;
}();
static_assert(ir::coversCategory(kBinaryEmit, ir::OpCategory::BinaryInt) &&
                  ir::coversCategory(kBinaryEmit, ir::OpCategory::BinaryFloat),
              "a binary op has no entry in kBinaryEmit");

} // namespace

llvm::Value *binary(LoweringContext &ctx, ir::OpKind kind, llvm::Value *x, llvm::Value *y) {
  assert(kBinaryEmit[size_t(kind)] && "binary op");
  return kBinaryEmit[size_t(kind)](ctx.b(), x, y);
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
      v = kUnaryEmit[size_t(op.kind)](ctx, reg(0, r));
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
      if (!kCastEmit[size_t(op.kind)])
        return makeError(ctx.where(op) + "not an elementwise op");
      v = kCastEmit[size_t(op.kind)](ctx, reg(0, r), resultElem);
      break;
    case ir::OpCategory::Memory: { // addptr
      llvm::Type *pointee = ctx.scalarType(rt.elem().scalar);
      llvm::Value *off = reg(1, r);
      auto [var, c] = splitConstant(ctx.b(), off);
      v = reg(0, r);
      if (var)
        v = ctx.b().CreateGEP(pointee, v, var);
      if (c || !var)
        v = ctx.b().CreateGEP(pointee, v, llvm::ConstantInt::get(off->getType(), wrapped(off, c)));
      break;
    }
    case ir::OpCategory::Structure:
    case ir::OpCategory::Source:
    case ir::OpCategory::Shape:
    case ir::OpCategory::Layout:
    case ir::OpCategory::Shared:
    case ir::OpCategory::Compute:
    case ir::OpCategory::Sync:
      return makeError(ctx.where(op) + "not an elementwise op");
    }
    out.push_back(v);
  }
  return ctx.setRegs(op.results[0], std::move(out));
}

} // namespace linlayout::lower
