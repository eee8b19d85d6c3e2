// tt.fp_to_fp: conversions to and from the 8-bit floats by the cvt instructions sm_89 added, two
// elements per instruction (PTX ISA, cvt with .e4m3x2 / .e5m2x2). Narrowing takes pairs of f32 or
// f16 with .rn.satfinite: rounded to nearest even, past the largest finite value (infinities too)
// saturated to it, NaN kept a NaN, as the interpreter rounds. Widening gives pairs of f16, which
// hold every 8-bit float exactly, as f32 does; bf16 goes through f32 either way (exactly), and one
// 8-bit float to the other through f16.
#include "InlinePtx.h"
#include "OpLowering.h"

namespace linlayout::lower {

namespace {

const char *fp8Suffix(ir::ScalarKind k) { return k == ir::ScalarKind::F8E4M3FN ? "e4m3x2" : "e5m2x2"; }

// Elements 2i and 2i + 1 of `regs` (the last one twice when the count is odd) as one operand.
llvm::Value *pairOf(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &regs, size_t i,
                    unsigned bits) {
  llvm::Value *lo = regs[i], *hi = regs[std::min(i + 1, regs.size() - 1)];
  llvm::Type *word = b.getIntNTy(2 * bits);
  lo = b.CreateZExt(b.CreateBitCast(lo, b.getIntNTy(bits)), word);
  hi = b.CreateZExt(b.CreateBitCast(hi, b.getIntNTy(bits)), word);
  return b.CreateOr(lo, b.CreateShl(hi, bits));
}

// The two `bits`-bit halves of `word` as values of type `t`, into `out` (one when only one is
// left to fill).
void unpair(llvm::IRBuilder<> &b, llvm::Value *word, unsigned bits, llvm::Type *t, size_t want,
            std::vector<llvm::Value *> &out) {
  for (unsigned h = 0; h < 2 && out.size() < want; ++h) {
    llvm::Value *v = b.CreateTrunc(h ? b.CreateLShr(word, bits) : word, b.getIntNTy(bits));
    out.push_back(b.CreateBitCast(v, t));
  }
}

// 8-bit floats (bytes) to f16, two per cvt.
std::vector<llvm::Value *> widenToHalf(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &x,
                                       ir::ScalarKind from) {
  const std::string text = std::string("cvt.rn.f16x2.") + fp8Suffix(from) + " $0, $1;";
  std::vector<llvm::Value *> out;
  for (size_t i = 0; i < x.size(); i += 2) {
    llvm::Value *w = emitInlinePtx(b, text, {b.getInt32Ty()}, {}, {pairOf(b, x, i, 8)}, true)[0];
    unpair(b, w, 16, b.getHalfTy(), x.size(), out);
  }
  return out;
}

// f32 or f16 values to 8-bit floats (bytes), two per cvt.
std::vector<llvm::Value *> narrowFrom(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &x,
                                      ir::ScalarKind to) {
  const bool half = x[0]->getType()->isHalfTy();
  const std::string text = std::string("cvt.rn.satfinite.") + fp8Suffix(to) +
                           (half ? ".f16x2 $0, $1;" : ".f32 $0, $1, $2;");
  std::vector<llvm::Value *> out;
  for (size_t i = 0; i < x.size(); i += 2) {
    llvm::Value *lo = x[i], *hi = x[std::min(i + 1, x.size() - 1)];
    // The f32 form takes the high element first.
    std::vector<llvm::Value *> in =
        half ? std::vector<llvm::Value *>{pairOf(b, x, i, 16)} : std::vector<llvm::Value *>{hi, lo};
    llvm::Value *w = emitInlinePtx(b, text, {b.getInt16Ty()}, {}, in, true)[0];
    unpair(b, w, 8, b.getInt8Ty(), x.size(), out);
  }
  return out;
}

} // namespace

Status lowerFpToFp(LoweringContext &ctx, const ir::Op &op) {
  const ir::Function &f = ctx.function();
  const ir::ScalarKind from = f.type(op.operands[0]).elem().scalar;
  const ir::ScalarKind to = f.type(op.results[0]).elem().scalar;
  if (ctx.target().sm < 89)
    return makeError(ctx.where(op) + "tt.fp_to_fp with 8-bit floats needs sm_89 or newer (cvt ." +
                     fp8Suffix(ir::isFp8(from) ? from : to) + "), not " + ctx.target().name());
  auto &b = ctx.b();
  std::vector<llvm::Value *> v = ctx.get(op.operands[0]).regs;
  if (v.empty())
    return ctx.setRegs(op.results[0], {});
  if (ir::isFp8(from)) {
    v = widenToHalf(b, v, from);
    if (to == ir::ScalarKind::F32 || to == ir::ScalarKind::BF16)
      for (llvm::Value *&x : v)
        x = b.CreateFPExt(x, b.getFloatTy());
    if (to == ir::ScalarKind::BF16)
      for (llvm::Value *&x : v)
        x = b.CreateFPTrunc(x, b.getBFloatTy()); // exact: bf16 holds every 8-bit float
  } else if (from == ir::ScalarKind::BF16) {
    for (llvm::Value *&x : v)
      x = b.CreateFPExt(x, b.getFloatTy());
  }
  if (ir::isFp8(to))
    v = narrowFrom(b, v, to);
  return ctx.setRegs(op.results[0], std::move(v));
}

} // namespace linlayout::lower
