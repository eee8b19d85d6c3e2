// Shape ops move no data between threads: each result register is an operand register of the
// same thread, found through the coordinate map between the two shapes.
#include "ConversionEmitter.h"
#include "OpLowering.h"
#include "RegisterLookup.h"

#include <algorithm>

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
    // lowerShape takes tt.splat itself and kLowerOp sends it no other kind: the four above
    // are the ops that re-index registers by a map.
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

Expected<SharedFootprint> shapeFootprint(FootprintContext &ctx, const ir::Op &op) {
  if (op.kind != ir::OpKind::Trans && op.kind != ir::OpKind::Reshape)
    return SharedFootprint{};
  const ir::Type &st = ctx.function.type(op.operands[0]);
  const ir::Type &dt = ctx.function.type(op.results[0]);
  LL_ASSIGN_OR_RETURN(LinearLayout src, ctx.layouts.of(st));
  LL_ASSIGN_OR_RETURN(LinearLayout dst, ctx.layouts.of(dt));
  LL_ASSIGN_OR_RETURN(std::optional<LinearLayout> natural,
                      movedShapeSource(op, src, dst, st.shape(), dt.shape()));
  if (!natural)
    return SharedFootprint{};
  return planConversion(ctx, op, *natural);
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

// tt.join / tt.split: the wide side's registers are the narrow sides' registers interleaved. The
// wide layout with its last dimension dropped must hold each element in the thread the narrow
// layout holds it in (lookupRegisters), and no lane, warp or block bit may move along the new
// dimension (Triton keeps it in registers), else the layouts are refused.
Status lowerJoinSplit(LoweringContext &ctx, const ir::Op &op) {
  const bool join = op.kind == ir::OpKind::Join;
  const std::string name(ir::mnemonic(op.kind));
  const ir::Type &wideType = ctx.function().type(join ? op.results[0] : op.operands[0]);
  const ir::Type &narrowType = ctx.function().type(join ? op.operands[0] : op.results[0]);
  LL_ASSIGN_OR_RETURN(LinearLayout wide, ctx.layoutOf(wideType));
  LL_ASSIGN_OR_RETURN(LinearLayout narrow, ctx.layoutOf(narrowType));
  const int n = narrow.numOutDims();
  for (DimName d : {DimName::lane(), DimName::warp(), DimName::block()}) {
    int w = wide.inDimIndex(d);
    for (int i = 0; w >= 0 && i < wide.inDimBits(w); ++i)
      if (wide.outValue(wide.column(wide.inDimOffset(w) + i), n) != 0)
        return makeError(ctx.where(op) + name + ": " + std::string(d.str()) + " bit " +
                         std::to_string(i) +
                         " moves different elements on the two sides (the new last dimension "
                         "must be held in registers, the rest as on the narrow side); insert a "
                         "ttg.convert_layout");
  }
  // Per wide register: the narrow register of the same thread that holds its element.
  LinearLayout dropLast = coordinateMap(wideType.shape(), narrowType.shape(), [&](int d, int i) {
    return d < n ? std::make_pair(d, i) : std::make_pair(-1, -1);
  });
  LL_ASSIGN_OR_RETURN(LinearLayout wanted, wide.then(dropLast));
  auto elsewhere = [&] {
    return makeError(ctx.where(op) + name +
                     ": a thread holds an element on one side that it does not hold on the "
                     "other; insert a ttg.convert_layout");
  };
  auto narrowReg = lookupRegisters(narrow, wanted);
  if (!narrowReg)
    return elsewhere();
  const int wideOff = wide.inDimOffset(wide.inDimIndex(DimName::reg()));
  auto half = [&](size_t r) { return wide.outValue(wide.apply(uint64_t(r) << wideOff), n); };
  if (join) {
    std::vector<llvm::Value *> out;
    for (size_t r = 0; r < narrowReg->size(); ++r)
      out.push_back(ctx.get(op.operands[half(r)]).regs[size_t((*narrowReg)[r])]);
    return ctx.setRegs(op.results[0], std::move(out));
  }
  const Lowered &src = ctx.get(op.operands[0]);
  std::vector<llvm::Value *> halves[2];
  for (auto &h : halves)
    h.assign(narrow.inDimSize(DimName::reg()), nullptr);
  for (size_t r = 0; r < narrowReg->size(); ++r)
    halves[half(r)][size_t((*narrowReg)[r])] = src.regs[r];
  for (uint64_t k = 0; k < 2; ++k) {
    if (std::find(halves[k].begin(), halves[k].end(), nullptr) != halves[k].end())
      return elsewhere();
    LL_TRY_STATUS(ctx.setRegs(op.results[k], std::move(halves[k])));
  }
  return Status::success();
}

} // namespace linlayout::lower
