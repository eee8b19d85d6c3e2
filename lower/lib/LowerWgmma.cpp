// ttng.warp_group_dot, ttng.warp_group_dot_wait and ttng.fence_async_shared (sm_90a). Each
// 64 x N tile of the accumulator is one wgmma.mma_async per K step (16 for f16 / bf16, 8 for
// tf32, 32 for i8 and the 8-bit floats), its registers taken in the order of the PTX fragment
// (Wgmma.h checks that the mma v3 layout puts every register there); the shared operands become
// descriptors derived from their layouts.
#include "InlinePtx.h"
#include "OpLowering.h"
#include "PackedHalves.h"
#include "Wgmma.h"

#include <map>

namespace linlayout::lower {

namespace {

struct SmemOperand {
  SharedOffsets offsets;
  WgmmaSmemOperand desc;
  const Lowered *value = nullptr; // the memdesc (its buffer, or its tile of a ring)
};

// An operand in shared memory of type `t`: a tile, or a view of one (its own table: the tile's
// offsets at the view's origin + (r, c), so that descriptors start at the view's elements).
Expected<SmemOperand> smemOperand(const Lowered &v, const ir::Type &t, int kDim, int64_t tileMn) {
  if (!v.pads.empty())
    return makeError("the operand is padded_shared: a wgmma descriptor cannot address padding");
  const int elemBytes = ir::byteWidth(t.elem().scalar);
  SmemOperand s;
  LL_ASSIGN_OR_RETURN(SharedOffsets tile, SharedOffsets::of(v.layout));
  const bool isView = !t.allocShape().empty();
  s.offsets = isView ? tile.view(v.viewXor, t.shape()[0], t.shape()[1]) : tile;
  LL_ASSIGN_OR_RETURN(
      s.desc, deriveWgmmaOperand(tile, kDim, elemBytes, tileMn, isView ? &s.offsets : nullptr));
  s.value = &v;
  return s;
}

// The warp group's XOR into an operand's element offset: warp bit 2 + i moves the tile by
// steps[i] (row or column of the operand), which the layout maps to offsets[i].
llvm::Value *warpGroupOffset(LoweringContext &ctx, const std::vector<int64_t> &offsets) {
  auto &b = ctx.b();
  llvm::Value *x = b.getInt32(0);
  for (size_t i = 0; i < offsets.size(); ++i) {
    if (!offsets[i])
      continue;
    llvm::Value *bit = b.CreateAnd(b.CreateLShr(ctx.kernel().warpId(), uint64_t(2 + i)), 1);
    x = b.CreateXor(x, b.CreateMul(bit, b.getInt32(uint32_t(offsets[i]))));
  }
  return x;
}

// The 64-bit descriptor of the tile whose first element is at element offset `elemOffset`
// (XOR `wgXor`) of operand `s`.
llvm::Value *descriptor(LoweringContext &ctx, const SmemOperand &s, int64_t elemOffset,
                        llvm::Value *wgXor) {
  auto &b = ctx.b();
  llvm::Value *off = b.CreateXor(b.getInt32(uint32_t(elemOffset)), wgXor);
  llvm::Value *bytes = b.CreateMul(off, b.getInt32(uint32_t(s.desc.elemBytes)));
  llvm::Value *base = b.CreatePtrToInt(ctx.sharedBase(*s.value), b.getInt64Ty());
  llvm::Value *addr = b.CreateAdd(base, b.CreateZExt(bytes, b.getInt64Ty()));
  llvm::Value *start = b.CreateLShr(b.CreateAnd(addr, b.getInt64(0x3FFFF)), 4);
  return b.CreateOr(start, b.getInt64(s.desc.descriptorHighBits()));
}

void emitPlain(LoweringContext &ctx, const std::string &text) {
  emitInlinePtx(ctx.b(), text, {}, {}, {});
}

// Threads `regs` through `wgmma.wait_group N` so that no use can move above it.
std::vector<llvm::Value *> waitGroup(LoweringContext &ctx, std::vector<llvm::Value *> regs,
                                     int64_t pendings) {
  std::string text = "wgmma.wait_group.sync.aligned " + std::to_string(pendings) + ";";
  if (regs.empty()) {
    emitPlain(ctx, text);
    return regs;
  }
  std::vector<llvm::Type *> types;
  for (llvm::Value *v : regs)
    types.push_back(v->getType());
  return emitInlinePtx(ctx.b(), text, types, regs, {});
}

} // namespace

Status lowerWarpGroupDot(LoweringContext &ctx, const ir::Op &op) {
  auto fail = [&](const std::string &m) {
    return makeError(ctx.where(op) + "ttng.warp_group_dot: " + m);
  };
  if (!ctx.target().hasWgmma())
    return fail("wgmma needs sm_90a, the target is " + ctx.target().name());
  if (ctx.module().numCtas != 1)
    return fail("wgmma is lowered for one CTA per cluster only");
  auto &b = ctx.b();
  const ir::Type &at = ctx.function().type(op.operands[0]);
  const ir::Type &ct = ctx.function().type(op.operands[2]);
  const auto *mma = ctx.module().layoutOf(ct).as<NvidiaMmaSpec>();
  if (!mma || !mma->isHopper())
    return fail("the accumulator is not in an nvidia_mma version 3 layout");
  int64_t instrN = mma->instrShape()[1];
  const Lowered &a = ctx.get(op.operands[0]);
  const Lowered &bv = ctx.get(op.operands[1]);
  const Lowered &c = ctx.get(op.operands[2]);
  auto accMap = mapWgmmaAccumulator(c.layout, instrN);
  if (!accMap.ok())
    return fail(accMap.message());
  auto bOp = smemOperand(bv, ctx.function().type(op.operands[1]), 0, instrN);
  if (!bOp.ok())
    return fail("operand B: " + bOp.message());
  const ir::ScalarKind elem = at.elem().scalar;
  const ir::ScalarKind belem = ctx.function().type(op.operands[1]).elem().scalar;
  const bool ints = elem == ir::ScalarKind::I8;
  const int elemBytes = ir::byteWidth(elem);
  const int64_t instrK = wgmmaK(elemBytes);
  bool aInRegs = at.isTensor();
  std::optional<SmemOperand> aOp;
  std::map<std::tuple<int64_t, int64_t, int, int>, int> aRegs; // (row0, k0, word, half) -> reg
  if (aInRegs) {
    auto am = mapWgmmaOperandA(a.layout, elemBytes);
    if (!am.ok())
      return fail("operand A: " + am.message());
    for (size_t r = 0; r < am->regs.size(); ++r) {
      const auto &x = am->regs[r];
      aRegs.emplace(std::make_tuple(x.row0, x.k0, x.word, x.half), int(r));
    }
  } else {
    auto s = smemOperand(a, at, 1, 64);
    if (!s.ok())
      return fail("operand A: " + s.message());
    aOp = std::move(s).value();
  }

  // Instruction tiles of warp group 0 and their accumulator registers in fragment order.
  std::map<std::pair<int64_t, int64_t>, std::vector<int>> tiles;
  for (size_t r = 0; r < accMap->regs.size(); ++r) {
    const auto &x = accMap->regs[r];
    auto &slots = tiles[{x.row0, x.col0}];
    slots.resize(size_t(instrN / 2), -1);
    if (slots[size_t(x.slot)] < 0)
      slots[size_t(x.slot)] = int(r);
  }
  // Warp groups beyond the first move the tiles; their offsets in A and B (relative to the first
  // element, which is not offset 0 in a view).
  std::vector<int64_t> aSteps, bSteps;
  for (auto [dr, dc] : accMap->warpGroupSteps) {
    if (aOp)
      aSteps.push_back(dr < aOp->offsets.rows ? aOp->offsets.at(dr, 0) ^ aOp->offsets.at(0, 0) : 0);
    bSteps.push_back(dc < bOp->offsets.cols ? bOp->offsets.at(0, dc) ^ bOp->offsets.at(0, 0) : 0);
  }
  llvm::Value *aXor = aOp ? warpGroupOffset(ctx, aSteps) : nullptr;
  llvm::Value *bXor = warpGroupOffset(ctx, bSteps);

  // PTX's names of the operand types; the accumulator is s32 for s8 operands, else f32.
  auto ptxType = [](ir::ScalarKind k) -> std::string {
    switch (k) {
    case ir::ScalarKind::F32:
      return "tf32";
    case ir::ScalarKind::I8:
      return "s8";
    case ir::ScalarKind::F8E4M3FN:
      return "e4m3";
    case ir::ScalarKind::F8E5M2:
      return "e5m2";
    case ir::ScalarKind::F16:
    case ir::ScalarKind::BF16:
    case ir::ScalarKind::F64:
    case ir::ScalarKind::I1:
    case ir::ScalarKind::I16:
    case ir::ScalarKind::I32:
    case ir::ScalarKind::I64:
      break;
    }
    return std::string(ir::name(k));
  };
  int64_t K = at.shape()[1];
  int n = int(instrN / 2);
  std::string dList = "{";
  for (int i = 0; i < n; ++i)
    dList += (i ? ", $" : "$") + std::to_string(i);
  dList += "}";
  std::string head = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(n + (aInRegs ? 5 : 2)) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(instrN) + "k" +
                     std::to_string(instrK) + (ints ? ".s32." : ".f32.") + ptxType(elem) + "." +
                     ptxType(belem) + " " + dList + ", ";
  std::string aText = aInRegs ? "{$" + std::to_string(n) + ", $" + std::to_string(n + 1) + ", $" +
                                    std::to_string(n + 2) + ", $" + std::to_string(n + 3) + "}"
                              : "$" + std::to_string(n);
  std::string bText = "$" + std::to_string(n + (aInRegs ? 4 : 1));
  // The transpose immediates exist for 16-bit operands only (tf32 and 8-bit ones are K-major);
  // integer wgmmas take no scale immediates either.
  std::string tail = ints             ? ", p;\n}"
                     : elemBytes != 2 ? ", p, 1, 1;\n}"
                     : aInRegs ? ", p, 1, 1, " + std::to_string(int(bOp->desc.mnMajor)) + ";\n}"
                               : ", p, 1, 1, " + std::to_string(int(aOp->desc.mnMajor)) + ", " +
                                     std::to_string(int(bOp->desc.mnMajor)) + ";\n}";
  std::string text = head + aText + ", " + bText + tail;

  // Registers the wgmmas read: accumulators per tile (fragment order) and, for a register A,
  // its packed words per (row0, k0).
  std::vector<std::pair<std::pair<int64_t, int64_t>, std::vector<int>>> tileList(tiles.begin(),
                                                                                 tiles.end());
  std::vector<llvm::Value *> fenced;
  for (auto &[tile, slots] : tileList) {
    for (int s : slots)
      if (s < 0)
        return fail("the accumulator misses an element of a 64x" + std::to_string(instrN) +
                    " tile");
    for (int s : slots)
      fenced.push_back(c.regs[size_t(s)]);
  }
  std::map<std::pair<int64_t, int64_t>, size_t> aWords; // (row0, k0) -> index of word 0
  if (aInRegs)
    for (auto &[tile, slots] : tileList)
      for (int64_t k0 = 0; k0 < K; k0 += instrK) {
        if (aWords.count({tile.first, k0}))
          continue;
        aWords[{tile.first, k0}] = fenced.size();
        for (int w = 0; w < 4; ++w) {
          std::vector<llvm::Value *> parts; // the word's elements, the lowest first
          for (int e = 0; e < 4 / elemBytes; ++e) {
            auto it = aRegs.find({tile.first, k0, w, e});
            if (it == aRegs.end())
              return fail("operand A misses a fragment element");
            parts.push_back(a.regs[size_t(it->second)]);
          }
          fenced.push_back(joinWord(b, parts));
        }
      }

  // The operands were written by other threads (and, through the fence the IR carries, made
  // visible to the async proxy): one barrier before the reads. wgmma.fence orders every earlier
  // write of the registers the wgmmas read; threading them through it keeps LLVM from placing
  // copies of them after it.
  ctx.beforeSharedRead();
  {
    std::vector<llvm::Type *> types;
    for (llvm::Value *v : fenced)
      types.push_back(v->getType());
    fenced = emitInlinePtx(b, "wgmma.fence.sync.aligned;", types, fenced, {});
  }
  // scale-d of each tile's first K slice: the useC flag where the op has one (false: the
  // accumulator's registers are not read), the later slices add to it.
  llvm::Value *firstScale = b.getInt32(1);
  if (op.operands.size() > 3)
    firstScale = b.CreateZExt(ctx.get(op.operands[3]).regs[0], b.getInt32Ty());
  std::vector<llvm::Value *> out(c.regs.size(), nullptr);
  std::vector<llvm::Type *> fTypes(size_t(n), ints ? b.getInt32Ty() : b.getFloatTy());
  size_t next = 0;
  for (auto &[tile, slots] : tileList) {
    auto [row0, col0] = tile;
    std::vector<llvm::Value *> acc(fenced.begin() + long(next),
                                   fenced.begin() + long(next + slots.size()));
    next += slots.size();
    for (int64_t k0 = 0; k0 < K; k0 += instrK) {
      std::vector<llvm::Value *> ins;
      if (aInRegs) {
        size_t w0 = aWords.at({row0, k0});
        ins.insert(ins.end(), fenced.begin() + long(w0), fenced.begin() + long(w0 + 4));
      } else {
        ins.push_back(descriptor(ctx, *aOp, aOp->offsets.at(row0, k0), aXor));
      }
      ins.push_back(descriptor(ctx, *bOp, bOp->offsets.at(k0, col0), bXor));
      ins.push_back(k0 == 0 ? firstScale : b.getInt32(1)); // scale-d
      acc = emitInlinePtx(b, text, fTypes, acc, ins);
    }
    for (size_t s = 0; s < slots.size(); ++s)
      out[size_t(slots[s])] = acc[s];
  }
  emitPlain(ctx, "wgmma.commit_group.sync.aligned;");
  ctx.afterSharedRead();
  // Copies of tile elements (a layout that broadcasts) take the computed value.
  std::map<std::tuple<int64_t, int64_t, int>, llvm::Value *> byElement;
  for (size_t r = 0; r < out.size(); ++r) {
    const auto &x = accMap->regs[r];
    if (out[r])
      byElement.emplace(std::make_tuple(x.row0, x.col0, x.slot), out[r]);
  }
  for (size_t r = 0; r < out.size(); ++r)
    if (!out[r]) {
      const auto &x = accMap->regs[r];
      out[r] = byElement.at(std::make_tuple(x.row0, x.col0, x.slot));
    }
  if (!op.attrs.isAsync)
    out = waitGroup(ctx, std::move(out), 0);
  return ctx.setRegs(op.results[0], std::move(out));
}

Expected<SharedFootprint> warpGroupDotFootprint(FootprintContext &, const ir::Op &op) {
  SharedFootprint fp;
  if (op.kind == ir::OpKind::WarpGroupDot)
    fp.alignment = 1024; // whatever layout its shared operands have
  return fp;
}

SharedEffects wgmmaEffects(const ir::Op &op, const OpPlans &) {
  if (op.kind == ir::OpKind::WarpGroupDot) // its shared operands, after their writers
    return SharedEffects().waitToRead().read();
  // wgmma.wait_group and fence.proxy.async: not described, so taken as touching every byte
  // (a loop around them then starts with a bar.sync where it reads or writes shared memory).
  return SharedEffects().anything();
}

Status lowerWarpGroupDotWait(LoweringContext &ctx, const ir::Op &op) {
  // Tensors' registers go through the wait; memdescs pass unchanged.
  std::vector<llvm::Value *> all;
  for (ir::ValueId v : op.operands)
    if (ctx.function().type(v).isTensor())
      for (llvm::Value *r : ctx.get(v).regs)
        all.push_back(r);
  all = waitGroup(ctx, std::move(all), op.attrs.pendings);
  size_t at = 0;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Lowered &in = ctx.get(op.operands[i]);
    if (!ctx.function().type(op.operands[i]).isTensor()) {
      ctx.set(op.results[i], in);
      continue;
    }
    std::vector<llvm::Value *> regs(all.begin() + long(at),
                                    all.begin() + long(at + in.regs.size()));
    at += in.regs.size();
    LL_TRY_STATUS(ctx.setRegs(op.results[i], std::move(regs)));
  }
  return Status::success();
}

Status lowerFenceAsyncShared(LoweringContext &ctx, const ir::Op &op) {
  if (!ctx.target().hasSm90Features())
    return makeError(ctx.where(op) + "ttng.fence_async_shared needs sm_90, the target is " +
                     ctx.target().name());
  emitPlain(ctx, "fence.proxy.async.shared::cta;");
  return Status::success();
}

} // namespace linlayout::lower
