// Shape ops move no data between threads: each result register is an operand register of the
// same thread, found through the coordinate map between the two shapes.
#include "ConversionEmitter.h"
#include "OpLowering.h"
#include "RegisterLookup.h"

namespace linlayout::lower {

namespace {

int log2(int64_t x) { return 63 - __builtin_clzll(static_cast<uint64_t>(x)); }

// Result coordinates -> operand coordinates, bit by bit.
LinearLayout shapeMap(const ir::Op &op, const std::vector<int64_t> &res,
                      const std::vector<int64_t> &opd) {
  int axis = static_cast<int>(op.attrs.axis);
  switch (op.kind) {
  case ir::OpKind::Broadcast:
    return coordinateMap(res, opd, [&](int d, int i) {
      return i < log2(opd[d]) ? std::make_pair(d, i) : std::make_pair(-1, -1);
    });
  case ir::OpKind::ExpandDims:
    return coordinateMap(res, opd, [&](int d, int i) {
      return d == axis ? std::make_pair(-1, -1) : std::make_pair(d < axis ? d : d - 1, i);
    });
  case ir::OpKind::Trans:
    return coordinateMap(res, opd, [&](int d, int i) {
      return std::make_pair(static_cast<int>(op.attrs.order.at(d)), i);
    });
  case ir::OpKind::Reshape: {
    // Row-major element order: the bit position in the flat index, then the operand's bit.
    auto flatBit = [](const std::vector<int64_t> &shape, int d, int i) {
      int pos = i;
      for (size_t e = d + 1; e < shape.size(); ++e)
        pos += log2(shape[e]);
      return pos;
    };
    return coordinateMap(res, opd, [&](int d, int i) {
      int pos = flatBit(res, d, i);
      for (int e = static_cast<int>(opd.size()) - 1; e >= 0; --e) {
        if (pos < log2(opd[e]))
          return std::make_pair(e, pos);
        pos -= log2(opd[e]);
      }
      return std::make_pair(-1, -1);
    });
  }
  default:
    break;
  }
  assert(false && "not a shape op");
  return LinearLayout();
}

} // namespace

Expected<std::optional<LinearLayout>> movedShapeSource(const ir::Op &op, const LinearLayout &src,
                                                       const LinearLayout &dst,
                                                       const std::vector<int64_t> &srcShape,
                                                       const std::vector<int64_t> &dstShape) {
  if (op.kind != ir::OpKind::Trans && op.kind != ir::OpKind::Reshape)
    return std::optional<LinearLayout>();
  LinearLayout map = shapeMap(op, dstShape, srcShape);
  LL_ASSIGN_OR_RETURN(LinearLayout wanted, dst.then(map));
  if (lookupRegisters(src, wanted))
    return std::optional<LinearLayout>();
  // The operand's registers relabelled with the result's coordinates.
  LL_ASSIGN_OR_RETURN(LinearLayout inverse, map.invert());
  LL_ASSIGN_OR_RETURN(LinearLayout natural, src.then(inverse));
  return std::optional<LinearLayout>(natural);
}

Status lowerShape(LoweringContext &ctx, const ir::Op &op) {
  const ir::Type &rt = ctx.function().type(op.results[0]);
  const Lowered &src = ctx.get(op.operands[0]);
  if (op.kind == ir::OpKind::Splat) {
    LL_ASSIGN_OR_RETURN(LinearLayout l, ctx.layoutOf(rt));
    return ctx.setRegs(op.results[0],
                       std::vector<llvm::Value *>(l.inDimSize(DimName::reg()), src.regs[0]));
  }
  const ir::Type &st = ctx.function().type(op.operands[0]);
  LL_ASSIGN_OR_RETURN(LinearLayout dst, ctx.layoutOf(rt));
  LinearLayout map = shapeMap(op, rt.shape(), st.shape());
  LL_ASSIGN_OR_RETURN(LinearLayout wanted, dst.then(map));
  auto regs = lookupRegisters(src.layout, wanted);
  if (!regs) {
    // trans / reshape into a layout that moves elements between threads: the registers keep
    // their elements under the result's coordinates, then the planned conversion moves them.
    auto plan = ctx.plans().conversions.find(&op);
    if (plan != ctx.plans().conversions.end()) {
      LL_ASSIGN_OR_RETURN(std::vector<llvm::Value *> out,
                          emitPlannedConversion(ctx, op, plan->second, src.regs));
      return ctx.setRegs(op.results[0], std::move(out));
    }
  }
  if (!regs)
    return makeError(ctx.where(op) + std::string(ir::mnemonic(op.kind)) +
                     ": the result layout does not keep each element in the thread that holds "
                     "it; insert a ttg.convert_layout");
  std::vector<llvm::Value *> out;
  for (int r : *regs)
    out.push_back(src.regs[r]);
  return ctx.setRegs(op.results[0], std::move(out));
}

} // namespace linlayout::lower
