// tt.fp_to_fp: conversions to and from the 8-bit floats by the cvt instructions sm_89 added, two
// elements per instruction (PTX ISA, cvt with .e4m3x2 / .e5m2x2). Narrowing takes pairs of f32 or
// f16 with .rn.satfinite: rounded to nearest even, past the largest finite value (infinities too)
// saturated to it, NaN kept a NaN, as the interpreter rounds. Widening gives pairs of f16, which
// hold every 8-bit float exactly, as f32 does; bf16 goes through f32 either way (exactly), and one
// 8-bit float to the other through f16.
#include "InlinePtx.h"
#include "OpLowering.h"
#include "PackedHalves.h"

namespace linlayout::lower {

namespace {

const char *fp8Suffix(ir::ScalarKind k) {
  return k == ir::ScalarKind::F8E4M3FN ? "e4m3x2" : "e5m2x2";
}

// 8-bit floats (bytes) to f16, two per cvt (the last byte twice when the count is odd).
std::vector<llvm::Value *> widenToHalf(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &x,
                                       ir::ScalarKind from) {
  const std::string text = std::string("cvt.rn.f16x2.") + fp8Suffix(from) + " $0, $1;";
  std::vector<llvm::Value *> out;
  for (size_t i = 0; i < x.size(); i += 2) {
    llvm::Value *lo = b.CreateZExt(x[i], b.getInt16Ty());
    llvm::Value *hi = b.CreateZExt(x[std::min(i + 1, x.size() - 1)], b.getInt16Ty());
    llvm::Value *pair = b.CreateOr(lo, b.CreateShl(hi, 8));
    llvm::Value *w = emitInlinePtx(b, text, {b.getInt32Ty()}, {}, {pair}, true)[0];
    auto [h0, h1] = splitHalves(b, w);
    for (llvm::Value *h : {h0, h1})
      if (out.size() < x.size())
        out.push_back(b.CreateBitCast(h, b.getHalfTy()));
  }
  return out;
}

// f32 or f16 values to 8-bit floats (bytes), two per cvt (the last value twice when the count is
// odd).
std::vector<llvm::Value *> narrowFrom(llvm::IRBuilder<> &b, const std::vector<llvm::Value *> &x,
                                      ir::ScalarKind to) {
  const bool half = x[0]->getType()->isHalfTy();
  const std::string text = std::string("cvt.rn.satfinite.") + fp8Suffix(to) +
                           (half ? ".f16x2 $0, $1;" : ".f32 $0, $1, $2;");
  std::vector<llvm::Value *> out;
  for (size_t i = 0; i < x.size(); i += 2) {
    llvm::Value *lo = x[i], *hi = x[std::min(i + 1, x.size() - 1)];
    // The f32 form takes the high element first.
    std::vector<llvm::Value *> in = half ? std::vector<llvm::Value *>{joinHalves(b, lo, hi)}
                                         : std::vector<llvm::Value *>{hi, lo};
    llvm::Value *w = emitInlinePtx(b, text, {b.getInt16Ty()}, {}, in, true)[0];
    out.push_back(b.CreateTrunc(w, b.getInt8Ty()));
    if (out.size() < x.size())
      out.push_back(b.CreateTrunc(b.CreateLShr(w, 8), b.getInt8Ty()));
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
