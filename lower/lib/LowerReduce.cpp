// tt.reduce along one axis: first the registers of a thread that hold the same output element,
// then butterfly shuffles over the lane bits that step along the axis, then (when warps split the
// axis) one shared-memory exchange: each warp writes its partial results, every thread reads all
// the warps' partials of its outputs. Elements held twice (the layout's free variables) are
// combined once.
#include "LayoutIndex.h"
#include "OpLowering.h"
#include "RegisterLookup.h"
#include "SharedAccess.h"
#include "Shuffle.h"

#include "linlayout/layout/F2Basis.h"

#include <algorithm>
#include <map>

namespace linlayout::lower {

namespace {

struct ReduceShape {
  int axis = 0;
  uint64_t axisMask = 0;     // packed-output bits of the axis dim
  std::vector<int> laneBits; // lanes to butterfly over
  std::vector<int> warpBits; // warps whose partials meet in shared memory
  int64_t outputs = 0;       // elements of the result tensor
};

uint64_t dimMask(const LinearLayout &l, int o) {
  uint64_t bits = l.outDimBits(o);
  return (bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1) << l.outDimOffset(o);
}

Expected<ReduceShape> analyze(const LinearLayout &l, int axis) {
  ReduceShape rs;
  rs.axis = axis;
  rs.axisMask = dimMask(l, axis);
  rs.outputs = 1;
  for (int o = 0; o < l.numOutDims(); ++o)
    if (o != axis)
      rs.outputs *= int64_t(l.outDimSize(l.outDimName(o)));
  // Axis steps a thread already covers: its registers'.
  F2Basis seen;
  int regDim = l.inDimIndex(DimName::reg());
  for (int i = 0; regDim >= 0 && i < l.inDimBits(regDim); ++i)
    seen.insert(l.column(l.inDimOffset(regDim) + i) & rs.axisMask, 0);
  for (DimName d : {DimName::lane(), DimName::warp(), DimName::block()}) {
    int di = l.inDimIndex(d);
    for (int i = 0; di >= 0 && i < l.inDimBits(di); ++i) {
      uint64_t col = l.column(l.inDimOffset(di) + i);
      uint64_t along = col & rs.axisMask;
      if (!along || seen.contains(along))
        continue; // moves along other dims, or repeats a covered step
      if (col & ~rs.axisMask)
        return makeError(std::string(d.str()) + " bit " + std::to_string(i) +
                         " steps both along the reduced dim and another one");
      if (d == DimName::block())
        return makeError("reductions across CTAs are not supported");
      seen.insert(along, 0);
      (d == DimName::lane() ? rs.laneBits : rs.warpBits).push_back(i);
    }
  }
  return rs;
}

// Row-major index over the dims other than the axis, as a bit relabelling of packed outputs.
uint64_t flattenWithoutAxis(const LinearLayout &l, int axis, uint64_t packed) {
  uint64_t out = 0;
  int shift = 0;
  for (int o = l.numOutDims() - 1; o >= 0; --o) {
    if (o == axis)
      continue;
    out |= l.outValue(packed, o) << shift;
    shift += l.outDimBits(o);
  }
  return out;
}

} // namespace

Expected<int64_t> reduceScratchBytes(const LinearLayout &l, int axis, int elemBytes) {
  LL_ASSIGN_OR_RETURN(ReduceShape rs, analyze(l, axis));
  if (rs.warpBits.empty())
    return int64_t(0);
  return (rs.outputs << rs.warpBits.size()) * elemBytes;
}

std::vector<int64_t> exchangeParts(const std::vector<int> &bytes, int64_t slots) {
  std::vector<size_t> order(bytes.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t x, size_t y) { return bytes[x] > bytes[y]; });
  std::vector<int64_t> at(bytes.size());
  int64_t next = 0;
  for (size_t i : order) {
    at[i] = next;
    next += slots * bytes[i];
  }
  return at;
}

Tuple operandsAt(LoweringContext &ctx, const ir::Op &op, size_t r) {
  Tuple t;
  for (ir::ValueId v : op.operands)
    t.push_back(ctx.get(v).regs[r]);
  return t;
}

Tuple Combiner::operator()(const Tuple &lhs, const Tuple &rhs) {
  if (op_.regions.empty()) {
    // The verifier admits only kinds with a combiner for the element type.
    const bool isFloat = ir::isFloat(ctx_.function().type(op_.operands[0]).elem().scalar);
    return {binary(ctx_, *ir::combinerOf(op_.attrs.reduceKind, isFloat), lhs[0], rhs[0])};
  }
  if (!status_.ok())
    return lhs;
  const ir::Block &body = op_.regions[0];
  const size_t n = lhs.size();
  for (size_t i = 0; i < n; ++i) {
    (void)ctx_.setRegs(body.args[i], {lhs[i]});
    (void)ctx_.setRegs(body.args[n + i], {rhs[i]});
  }
  if (Status s = lowerBlock(ctx_, body); !s.ok()) {
    status_ = std::move(s);
    return lhs;
  }
  Tuple out;
  for (ir::ValueId v : body.ops.back().operands)
    out.push_back(ctx_.get(v).regs[0]);
  return out;
}

Expected<SharedFootprint> reduceFootprint(FootprintContext &ctx, const ir::Op &op) {
  LL_ASSIGN_OR_RETURN(LinearLayout l, ctx.layouts.of(ctx.function.type(op.operands[0])));
  int tupleBytes = 0; // the operands' elements side by side
  for (ir::ValueId v : op.operands)
    tupleBytes += exchangeElementBits(ctx.function.type(v)) / 8;
  SharedFootprint fp;
  LL_ASSIGN_OR_RETURN(fp.scratchBytes, reduceScratchBytes(l, int(op.attrs.axis), tupleBytes));
  return fp;
}

Status lowerReduce(LoweringContext &ctx, const ir::Op &op) {
  auto &b = ctx.b();
  const Lowered &in = ctx.get(op.operands[0]);
  const LinearLayout &l = in.layout;
  const size_t n = op.operands.size();
  int axis = static_cast<int>(op.attrs.axis);
  auto rsOr = analyze(l, axis);
  if (!rsOr.ok())
    return makeError(ctx.where(op) + "tt.reduce: " + rsOr.message());
  const ReduceShape &rs = *rsOr;
  Combiner combine(ctx, op);
  int regOffset = l.inDimOffset(l.inDimIndex(DimName::reg()));

  // 1. In the thread: one partial per output element, each held element counted once.
  std::map<uint64_t, Tuple> partial; // key: packed output with the axis cleared
  std::map<uint64_t, uint64_t> groupRegister;
  std::map<uint64_t, bool> counted;
  for (uint64_t r = 0; r < in.regs.size(); ++r) {
    uint64_t out = l.apply(r << regOffset);
    if (counted[out])
      continue;
    counted[out] = true;
    uint64_t key = out & ~rs.axisMask;
    auto it = partial.find(key);
    if (it == partial.end()) {
      partial[key] = operandsAt(ctx, op, r);
      groupRegister[key] = r;
    } else {
      it->second = combine(it->second, operandsAt(ctx, op, r));
    }
  }
  // 2. Across lanes.
  for (int bit : rs.laneBits)
    for (auto &[key, v] : partial) {
      Tuple other;
      for (llvm::Value *x : v)
        other.push_back(shuffleXor(b, x, 1u << bit));
      v = combine(v, other);
    }
  // 3. Across warps, through shared memory: operand i's partials in a region of their own.
  if (!rs.warpBits.empty()) {
    std::vector<llvm::Type *> types;
    std::vector<int> bytes;
    for (llvm::Value *x : partial.begin()->second) {
      types.push_back(x->getType());
      bytes.push_back(sharedBytes(x->getType()));
    }
    int k = static_cast<int>(rs.warpBits.size());
    const int64_t slots = rs.outputs << k;
    auto scratchIt = ctx.plans().scratch.find(&op);
    assert(scratchIt != ctx.plans().scratch.end() && "reduce without scratch");
    const ByteRange scratchBytes = scratchIt->second;
    std::vector<llvm::Value *> regions;
    for (int64_t at : exchangeParts(bytes, slots))
      regions.push_back(ctx.sharedAt(scratchBytes.begin + at));
    // (register, lane, warp) -> partial slot: output index << k | reducing-warp index. The
    // read map is the same without the reducing warps.
    std::vector<InDimBases> writeIns, readIns;
    for (int d = 0; d < l.numInDims(); ++d) {
      InDimBases w{l.inDimName(d), {}}, rd{l.inDimName(d), {}};
      for (int i = 0; i < l.inDimBits(d); ++i) {
        uint64_t col = l.column(l.inDimOffset(d) + i);
        uint64_t slot = flattenWithoutAxis(l, axis, col & ~rs.axisMask) << k;
        uint64_t readSlot = slot;
        if (l.inDimName(d) == DimName::warp())
          for (int j = 0; j < k; ++j)
            if (rs.warpBits[j] == i)
              slot = uint64_t(1) << j, readSlot = 0;
        w.bases.push_back({slot});
        rd.bases.push_back({readSlot});
      }
      writeIns.push_back(w);
      readIns.push_back(rd);
    }
    DimSize outs[] = {{DimName::offset(), uint64_t(slots)}};
    LL_ASSIGN_OR_RETURN(LinearLayout writeMap, LinearLayout::fromBases(writeIns, outs));
    LL_ASSIGN_OR_RETURN(LinearLayout readMap, LinearLayout::fromBases(readIns, outs));
    LL_ASSIGN_OR_RETURN(LayoutIndexer wix, LayoutIndexer::create(writeMap));
    LL_ASSIGN_OR_RETURN(LayoutIndexer rix, LayoutIndexer::create(readMap));
    ctx.beforeSharedWrite(scratchBytes);
    IndexEmitter wem(wix, b, ctx.thread(), ctx.blockInCluster());
    for (auto &[key, v] : partial)
      for (size_t i = 0; i < n; ++i) {
        int64_t stride[] = {bytes[i]};
        SplitOffset so = wem.linearOffset(groupRegister[key], stride);
        emitSharedStore(b, sharedAddress(b, regions[i], so.variable, so.constant), {v[i]});
      }
    emitBarrier(b);
    ctx.barrierEmitted();
    IndexEmitter rem(rix, b, ctx.thread(), ctx.blockInCluster());
    for (auto &[key, v] : partial) {
      Tuple acc;
      uint64_t base = rix.registerPart(groupRegister[key], 0);
      for (uint64_t w = 0; w < (uint64_t(1) << k); ++w) {
        Tuple x;
        for (size_t i = 0; i < n; ++i) {
          SplitOffset so = rem.scaledWithConstant(0, base | w, bytes[i]);
          x.push_back(emitSharedLoad(b, sharedAddress(b, regions[i], so.variable, so.constant),
                                     types[i], 1)[0]);
        }
        acc = acc.empty() ? x : combine(acc, x);
      }
      v = acc;
    }
    ctx.afterSharedRead(scratchBytes);
  }
  LL_TRY_STATUS(combine.status());
  // 4. The results: scalars, or the slice layout's registers.
  const ir::Type &rt = ctx.function().type(op.results[0]);
  if (!rt.isTensor()) {
    assert(partial.size() == 1 && "a rank-1 reduction leaves one partial");
    for (size_t i = 0; i < n; ++i)
      LL_TRY_STATUS(ctx.setRegs(op.results[i], {partial.begin()->second[i]}));
    return Status::success();
  }
  LL_ASSIGN_OR_RETURN(LinearLayout res, ctx.layoutOf(rt));
  int resRegOffset = res.inDimOffset(res.inDimIndex(DimName::reg()));
  std::vector<std::vector<llvm::Value *>> regs(n);
  for (uint64_t r = 0; r < res.inDimSize(DimName::reg()); ++r) {
    uint64_t packed = res.apply(r << resRegOffset);
    // Re-insert the axis (at 0) to get the parent's packed output.
    uint64_t key = 0;
    int ro = 0;
    for (int o = 0; o < l.numOutDims(); ++o) {
      if (o == axis)
        continue;
      key |= res.outValue(packed, ro++) << l.outDimOffset(o);
    }
    auto it = partial.find(key);
    if (it == partial.end())
      return makeError(ctx.where(op) +
                       "tt.reduce: the result layout holds an element the operand's thread "
                       "does not reduce");
    for (size_t i = 0; i < n; ++i)
      regs[i].push_back(it->second[i]);
  }
  for (size_t i = 0; i < n; ++i)
    LL_TRY_STATUS(ctx.setRegs(op.results[i], std::move(regs[i])));
  return Status::success();
}

} // namespace linlayout::lower
