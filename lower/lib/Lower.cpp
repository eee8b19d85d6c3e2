// The lowering pipeline, in order: verify -> choose the kernel -> plan every conversion and
// reduction -> allocate shared memory -> emit LLVM IR op by op -> LLVM O3 -> PTX.
#include "linlayout/lower/Lower.h"

#include "InlinePtx.h"
#include "KernelBuilder.h"
#include "LoweringContext.h"
#include "NvptxBackend.h"
#include "OpLowering.h"
#include "OperandSlices.h"
#include "RegisterBudget.h"
#include "SharedAllocator.h"
#include "SharedDeclaration.h"
#include "SharedPadding.h"
#include "WarpGroups.h"

#include "linlayout/ir/AccessWidth.h"
#include "linlayout/ir/AxisInfo.h"
#include "linlayout/ir/Rewrite.h"
#include "linlayout/ir/Verifier.h"
#include "linlayout/ir/Walk.h"

#include <llvm/IR/Module.h>

namespace linlayout::lower {

namespace {

// Declares the cluster of a program in the PTX: `ctas` CTAs along x. LLVM 19's NVPTX backend has
// no annotation for `.reqnctapercluster`, so the directive goes into the entry's header, beside
// the `.maxntid` the backend writes; the driver then launches the grid in clusters of that shape.
Status declareCluster(KernelPtx &k, const std::string &directives) {
  size_t entry = k.ptx.find(".entry " + k.name + "(");
  size_t body = entry == std::string::npos ? entry : k.ptx.find("\n{", entry);
  if (body == std::string::npos)
    return makeError("internal: no body of entry '" + k.name + "' in the PTX");
  k.ptx.insert(body + 1, directives);
  return Status::success();
}

Status requireClusterSize(KernelPtx &k, int ctas) {
  LL_TRY_STATUS(declareCluster(k, ".reqnctapercluster " + std::to_string(ctas) + ", 1, 1\n"));
  k.ctasPerCluster = ctas;
  return Status::success();
}

// An explicitly clustered kernel: each CTA a program, launched in clusters of `dims`.
Status requireClusterDims(KernelPtx &k, const std::array<int, 3> &dims) {
  LL_TRY_STATUS(declareCluster(k, ".explicitcluster\n.reqnctapercluster " +
                                      std::to_string(dims[0]) + ", " + std::to_string(dims[1]) +
                                      ", " + std::to_string(dims[2]) + "\n"));
  k.clusterDims = dims;
  return Status::success();
}

Expected<const ir::Function *> pickKernel(const ir::Module &m, const std::string &name) {
  if (!name.empty()) {
    const ir::Function *f = m.function(name);
    if (!f)
      return makeError("the module has no function '" + name + "'");
    return f;
  }
  const ir::Function *found = nullptr;
  for (const ir::Function &f : m.functions)
    if (f.isPublic) {
      if (found)
        return makeError("the module has several public functions ('" + found->name + "', '" +
                         f.name + "'); name the kernel to lower");
      found = &f;
    }
  if (!found)
    return makeError("the module has no public function to lower");
  return found;
}

Expected<KernelSpec> kernelSpec(const ir::Module &m, const ir::Function &f) {
  KernelSpec spec;
  spec.name = f.name;
  if (m.threadsPerWarp != 32)
    return makeError("threads per warp is " + std::to_string(m.threadsPerWarp) +
                     ", NVIDIA GPUs have 32");
  // A warp-specialized kernel launches its partitions' warps too.
  LL_ASSIGN_OR_RETURN(KernelWarps warps, kernelWarps(m, f));
  spec.threadsPerBlock = warps.warps * 32;
  spec.maxRegisters = warps.maxRegisters;
  // `.reqntid` (Triton's directive) lets ptxas budget registers for the exact block: without it
  // ptxas 13 spills some conversions that fit (convert2d/2-6/none/64x64/i64: 40 registers and 32
  // bytes under `.maxntid`, 32 and none under `.reqntid`). Kernels with tensor-core dots keep
  // `.maxntid`: there it cost registers and spills (triton.matmul_fp8_wgmma: 32 -> 64 bytes), and
  // so do warp-specialized ones, whose `.maxnreg` already sets the budget.
  bool dots = false;
  ir::walkOps(f.body, [&](const ir::Op &op) {
    dots |= op.kind == ir::OpKind::Dot || op.kind == ir::OpKind::WarpGroupDot;
  });
  spec.exactThreads = !dots && warps.maxRegisters == 0;
  for (size_t i = 0; i < f.body.args.size(); ++i) {
    const ir::Type &t = f.type(f.body.args[i]);
    KernelParam p;
    p.name = f.values[f.body.args[i]].name.empty() ? "arg" + std::to_string(i)
                                                   : f.values[f.body.args[i]].name;
    if (t.isPointer()) {
      p.kind = ParamKind::GlobalPointer;
      p.bits = 64;
      int64_t div = i < f.argHints.size() ? f.argHints[i].divisibility : 1;
      p.alignment = 1;
      while (p.alignment < 256 && div % (p.alignment * 2) == 0)
        p.alignment *= 2;
    } else if (t.isScalar()) {
      p.kind = ir::isFloat(t.elem().scalar) ? ParamKind::Float : ParamKind::Int;
      p.bits = ir::bitWidth(t.elem().scalar);
    } else if (t.isTensorDesc()) {
      auto plan = planTmaBox(m, t);
      if (!plan.ok())
        return makeError("argument " + std::to_string(i) + " of '" + f.name +
                         "': " + plan.message());
      p.kind = ParamKind::TensorMap;
      p.bits = 1024;
      for (int64_t d : plan->box)
        p.box.push_back(uint32_t(d));
      p.swizzleBytes = plan->swizzleBytes;
      p.element = std::string(ir::name(t.elem().scalar));
    } else {
      return makeError("argument " + std::to_string(i) + " of '" + f.name +
                       "' is not a scalar, a pointer or a tensor descriptor");
    }
    spec.params.push_back(p);
  }
  return spec;
}

// Whether a conversion's source and destination tiles need far more registers than the block
// lets a thread have (RegisterBudget.h). There ptxas spills whatever it does, and without
// `.minnctapersm` it often spills far more than it must to keep several blocks per SM
// (mma2mma/2-3/256x256/f32 at 512 threads: 32 registers and 1208 bytes of stack; 128 and 48
// with `.minnctapersm 1`; convert2d/9-10/64x128/i64: 32 and 5808, 255 and 2024). Measured with
// ptxas 13.0 on Triton's matrix: in blocks of up to 256 threads (255 registers each), ptxas fits
// many conversions of up to three register files (768 words) without spilling, in 32-80
// registers (convert2d/9-6/64x64/i64, warp_local/13-5/64x64/i64: shared-memory conversions,
// whose loads and stores interleave), where the directive only lets it take 255 and costs
// occupancy; in larger blocks (a budget under 255) twice the budget spilled.
Expected<bool> conversionOverflowsRegisters(const ir::Function &f, int threads,
                                            LayoutCache &layouts) {
  Status status;
  bool overflows = false;
  ir::walkOps(f.body, [&](const ir::Op &op) {
    if (op.kind != ir::OpKind::ConvertLayout || !status.ok())
      return;
    auto src = tileWords(layouts, f.type(op.operands.at(0)));
    auto dst = tileWords(layouts, f.type(op.results.at(0)));
    if (!src.ok() || !dst.ok()) {
      status = src.ok() ? dst.error() : src.error();
      return;
    }
    int64_t budget = registerBudget(threads), words = *src + *dst;
    overflows |= budget < 255 ? words >= 2 * budget : words > 3 * 256;
  });
  if (!status.ok())
    return status.error();
  return overflows;
}

// The local_alloc ops whose buffer a convert_layout's tile is read from by a local_load used by
// that conversion only, where the tile fills at least half the registers a thread may have: the
// program point of the conversion, by buffer (see planSharedMemory).
std::map<const ir::Op *, int64_t>
readIntoConversions(const ir::Function &f, const ir::Module &m, LayoutCache &layouts,
                    const std::map<const ir::Op *, int64_t> &point) {
  std::map<ir::ValueId, const ir::Op *> def;
  ir::walkOps(f.body, [&](const ir::Op &op) {
    for (ir::ValueId r : op.results)
      def[r] = &op;
  });
  const std::vector<int> uses = ir::countUses(f);
  const int64_t budget = registerBudget(int(m.numWarps) * 32);
  std::map<const ir::Op *, int64_t> held;
  ir::walkOps(f.body, [&](const ir::Op &op) {
    if (op.kind != ir::OpKind::ConvertLayout || uses.at(op.operands[0]) != 1)
      return;
    auto load = def.find(op.operands[0]);
    if (load == def.end() || load->second->kind != ir::OpKind::LocalLoad)
      return;
    auto alloc = def.find(load->second->operands[0]);
    if (alloc == def.end() || alloc->second->kind != ir::OpKind::LocalAlloc)
      return;
    auto words = tileWords(layouts, f.type(op.operands[0]));
    if (!words.ok() || 2 * *words < budget)
      return;
    held[alloc->second] = std::max(held[alloc->second], point.at(&op));
  });
  return held;
}

// A tile of a ring (memdesc_index) or a view (memdesc_subslice, memdesc_trans): the bytes of the
// descriptor it is made from.
bool isView(const ir::Op &op) {
  return op.kind == ir::OpKind::MemDescIndex || op.kind == ir::OpKind::MemDescSubslice ||
         op.kind == ir::OpKind::MemDescTrans;
}

// Plans every op's shared memory (the footprints its family declares: conversions' and
// reductions' scratch, buffers, alignment) and places the buffers by liveness.
Expected<OpPlans> planSharedMemory(const ir::Module &m, const ir::Function &f,
                                   const ir::AxisInfoAnalysis &axis, const PtxTarget &target,
                                   std::optional<ConversionPath> forcedPath, ScratchPadding padding,
                                   LayoutCache &layouts, std::vector<ConversionReport> &reports) {
  OpPlans plans;
  // Program points: ops in walk order; a value used inside a loop it was not defined in stays
  // live to the loop's end.
  std::map<const ir::Op *, int64_t> point;
  std::map<ir::ValueId, int64_t> defPoint, lastUse;
  std::vector<std::pair<int64_t, int64_t>> loops; // [first, last] point of each loop body
  int64_t n = 0;
  ir::walkOps(f.body, [&](const ir::Op &op) { point[&op] = n++; });
  // Loop extents: an op's regions span the points after it up to its last nested op.
  std::function<int64_t(const ir::Block &)> lastPoint = [&](const ir::Block &blk) -> int64_t {
    int64_t last = -1;
    for (const ir::Op &op : blk.ops) {
      last = std::max(last, point[&op]);
      for (const ir::Block &r : op.regions)
        last = std::max(last, lastPoint(r));
    }
    return last;
  };
  // The ops of ttg.warp_specialize's partitions (its regions but the default one), each with the
  // op's span: a partition's scratch stays live through all of it (below).
  std::map<const ir::Op *, std::pair<int64_t, int64_t>> partitionSpan;
  ir::walkOps(f.body, [&](const ir::Op &op) {
    if (op.kind == ir::OpKind::For)
      loops.push_back({point[&op], lastPoint(op.regions.at(0))});
    // The regions of a warp_specialize run at once: what one of them uses stays live to the
    // end of all.
    if (op.kind == ir::OpKind::WarpSpecialize) {
      int64_t last = point[&op];
      for (const ir::Block &r : op.regions)
        last = std::max(last, lastPoint(r));
      loops.push_back({point[&op], last});
      for (size_t r = 1; r < op.regions.size(); ++r)
        ir::walkOps(op.regions[r],
                    [&](const ir::Op &inner) { partitionSpan[&inner] = {point[&op], last}; });
    }
    for (ir::ValueId r : op.results)
      defPoint[r] = point[&op];
  });
  // A view keeps the buffer alive.
  std::map<ir::ValueId, ir::ValueId> viewOf;
  ir::walkOps(f.body, [&](const ir::Op &op) {
    if (isView(op)) {
      auto it = viewOf.find(op.operands[0]);
      viewOf[op.results[0]] = it == viewOf.end() ? op.operands[0] : it->second;
    }
  });
  ir::walkOps(f.body, [&](const ir::Op &op) {
    int64_t at = point[&op];
    for (ir::ValueId operand : op.operands) {
      auto view = viewOf.find(operand);
      ir::ValueId v = view == viewOf.end() ? operand : view->second;
      int64_t use = at;
      int64_t def = defPoint.count(v) ? defPoint[v] : -1;
      for (auto [first, last] : loops)
        if ((first < at || (first == at && op.kind == ir::OpKind::WarpSpecialize)) && at <= last &&
            !(first < def && def <= last))
          use = std::max(use, last);
      lastUse[v] = std::max(lastUse[v], use);
    }
  });

  // Each op's footprint, as its lowering family declares it: scratch live at the op only (in a
  // partition, through the ttg.warp_specialize: the regions run at once, so it shares no bytes
  // with what another region uses), a buffer live to its result's last use.
  const std::vector<int> uses = ir::countUses(f);
  FootprintContext fctx{m, f, target, layouts, forcedPath, padding, uses, plans, reports};
  std::vector<SharedBuffer> buffers;
  std::vector<const ir::Op *> owners;
  std::vector<bool> scratchOwner; // per buffer: an op's scratch, not a buffer
  Status status;
  ir::walkOps(f.body, [&](const ir::Op &op) {
    if (!status.ok())
      return;
    auto fp = sharedFootprint(fctx, op);
    if (!fp.ok()) {
      status = fp.error();
      return;
    }
    assert(!(fp->scratchBytes && fp->bufferBytes) && "an op with both scratch and a buffer");
    int64_t at = point[&op];
    plans.sharedAlignment = std::max(plans.sharedAlignment, fp->alignment);
    if (fp->scratchBytes) {
      auto span = partitionSpan.find(&op);
      if (span == partitionSpan.end())
        buffers.push_back({fp->scratchBytes, at, at});
      else
        buffers.push_back({fp->scratchBytes, span->second.first, span->second.second});
      owners.push_back(&op);
      scratchOwner.push_back(true);
    } else if (fp->bufferBytes) {
      int64_t last = lastUse.count(op.results[0]) ? lastUse[op.results[0]] : at;
      buffers.push_back({fp->bufferBytes, at, std::max(at, last)});
      owners.push_back(&op);
      scratchOwner.push_back(false);
    }
  });
  if (!status.ok())
    return status.error();
  // Scratch lives for its op only, so the scratch of a loop's conversions may share bytes; then
  // each one's stores wait at a barrier for the loads of the one before (across the back edge
  // too). Kept live to the end of the innermost loop instead, each loop's scratch gets bytes of
  // its own and only the barrier between each one's stores and loads remains. That trade of
  // shared memory for barriers is taken while two CTAs still fit an SM (or it costs nothing):
  // on an H100 it made no conversion of bench/gpu slower and some 1.4x faster.
  //
  // A conversion of a tile just read from a buffer (local_load, then convert_layout) whose words
  // fill at least half the registers gets a scratch apart from that buffer the same way: then no
  // barrier stands between the loads and the conversion's stores, and SinkToUse moves each load
  // down to the store that takes its word (SharedBytesTag.h), where sharing the bytes held the
  // whole tile across the barrier (convert2d/9-6/swizzled3/64x128/f16, 256 words: 32 bytes of
  // spills at 255 registers; apart, none at 168; Triton's kernel 24 bytes).
  std::map<const ir::Op *, int64_t> heldToConversion = readIntoConversions(f, m, layouts, point);
  SharedAllocation alloc = allocateShared(buffers, plans.sharedAlignment);
  std::vector<SharedBuffer> separate = buffers;
  for (size_t i = 0; i < separate.size(); ++i) {
    if (auto held = heldToConversion.find(owners[i]);
        !scratchOwner[i] && held != heldToConversion.end())
      separate[i].last = std::max(separate[i].last, held->second);
    if (!scratchOwner[i])
      continue;
    int64_t at = separate[i].first, innermost = -1, width = 0;
    for (auto [first, last] : loops)
      if (first < at && at <= last && (innermost < 0 || last - first < width))
        innermost = last, width = last - first;
    if (innermost >= 0)
      separate[i].last = innermost;
  }
  SharedAllocation apart = allocateShared(separate, plans.sharedAlignment);
  if (apart.totalBytes <= std::max(alloc.totalBytes, target.sharedBytesPerBlock() / 2))
    alloc = apart;
  for (size_t i = 0; i < owners.size(); ++i) {
    ByteRange bytes{alloc.offsets[i], alloc.offsets[i] + buffers[i].bytes};
    (scratchOwner[i] ? plans.scratch : plans.buffers)[owners[i]] = bytes;
    if (!scratchOwner[i])
      plans.descBytes[owners[i]->results.at(0)] = bytes;
  }
  // A view lies in the bytes of what it views; the tile of a ring at a constant index in that
  // tile's bytes (lowerMemDescIndex places tile i at i times the tile's size), so that the
  // accesses to different tiles (the inits of a ring's mbarriers, say) need no barrier between.
  ir::walkOps(f.body, [&](const ir::Op &op) {
    if (!isView(op))
      return;
    auto viewed = plans.descBytes.find(op.operands[0]);
    if (viewed == plans.descBytes.end())
      return;
    ByteRange bytes = viewed->second;
    const ir::AxisInfo *index =
        op.kind == ir::OpKind::MemDescIndex ? axis.get(op.operands[1]) : nullptr;
    if (index && index->constant) {
      const int64_t tile = sharedDescBytes(m, f.type(op.results[0]));
      const int64_t begin = bytes.begin + *index->constant * tile;
      if (*index->constant >= 0 && begin + tile <= bytes.end)
        bytes = {begin, begin + tile};
    }
    plans.descBytes[op.results[0]] = bytes;
  });
  plans.sharedBytes = alloc.totalBytes;
  return plans;
}

// The safe vector width of each global access (an ll.vec attribute can only narrow a load's or
// store's; an async copy's contiguity, a width its producer found safe, can widen it).
std::map<const ir::Op *, int64_t> planAccessWidths(const ir::Module &m, const ir::Function &f,
                                                   const ir::AxisInfoAnalysis &axis) {
  std::map<const ir::Op *, int64_t> widths;
  ir::walkOps(f.body, [&](const ir::Op &op) {
    if ((op.kind == ir::OpKind::Load || op.kind == ir::OpKind::Store ||
         op.kind == ir::OpKind::AsyncCopyGlobalToLocal) &&
        f.type(op.operands[0]).isTensor())
      widths[&op] = ir::accessWidth(m, f, op, axis).elements;
  });
  return widths;
}

} // namespace

Expected<PtxTarget> targetOfModule(const ir::Module &m) {
  std::string t = m.target;
  if (t.rfind("cuda:", 0) == 0)
    return PtxTarget::parse("sm_" + t.substr(5));
  return makeError("module target '" + t + "' is not cuda:<sm>");
}

Expected<LoweredKernel> lowerKernel(const ir::Module &module, const LowerOptions &options) {
  LL_TRY_STATUS(ir::verify(module));
  PtxTarget target;
  if (options.target) {
    target = *options.target;
  } else {
    LL_ASSIGN_OR_RETURN(target, targetOfModule(module));
  }
  LL_ASSIGN_OR_RETURN(const ir::Function *fn, pickKernel(module, options.kernel));
  // Thread block clusters (several CTAs per program) start with sm_90.
  if (module.numCtas > 1 && target.sm < 90)
    return makeError("the module asks for " + std::to_string(module.numCtas) +
                     " CTAs per program (\"ttg.num-ctas\"), and clusters need sm_90; the target "
                     "is " +
                     target.name());
  if (module.clusterSize() > 1 && target.sm < 90)
    return makeError("the module asks for clusters of " + std::to_string(module.clusterSize()) +
                     " CTAs (\"ttg.cluster-dim-*\"), and clusters need sm_90; the target is " +
                     target.name());
  // wgmma exists only in the architecture-specific sm_90a.
  bool hopperOps = false, copyEngine = false;
  ir::walkOps(fn->body, [&](const ir::Op &op) {
    hopperOps |= op.kind == ir::OpKind::WarpGroupDot;
    copyEngine |= op.kind == ir::OpKind::AsyncTmaCopyGlobalToLocal ||
                  op.kind == ir::OpKind::AsyncTmaCopyLocalToGlobal ||
                  op.kind == ir::OpKind::InitBarrier || op.kind == ir::OpKind::WaitBarrier;
  });
  for (ir::ValueId a : fn->body.args)
    copyEngine |= fn->type(a).isTensorDesc();
  if (copyEngine && target.sm < 90)
    return makeError("the kernel uses TMA or mbarriers, which need sm_90; the target is " +
                     target.name());
  if (hopperOps) {
    if (target.sm != 90)
      return makeError("the kernel uses wgmma (ttng.warp_group_dot), which needs sm_90a; the "
                       "target is " +
                       target.name());
    target.archSpecific = true;
  }
  LoweredKernel out;
  LayoutCache layouts(module);
  const ir::AxisInfoAnalysis axis = ir::AxisInfoAnalysis::run(module, *fn);
  LL_ASSIGN_OR_RETURN(OpPlans plans,
                      planSharedMemory(module, *fn, axis, target, options.conversionPath,
                                       options.conversionPadding, layouts, out.conversions));
  plans.accessWidths = planAccessWidths(module, *fn, axis);
  plans.annotate = options.annotateConversions;
  plans.fpFusion = options.fpFusion;
  plans.slicedLoads = planSlicedLoads(module, *fn, plans);
  LL_ASSIGN_OR_RETURN(KernelSpec spec, kernelSpec(module, *fn));
  if (spec.exactThreads) {
    LL_ASSIGN_OR_RETURN(bool overflows,
                        conversionOverflowsRegisters(*fn, spec.threadsPerBlock, layouts));
    spec.minCtasPerSm = overflows ? 1 : 0;
  }
  LL_ASSIGN_OR_RETURN(auto kb, KernelBuilder::create(spec));
  kb->useSharedBytes(static_cast<uint64_t>(plans.sharedBytes));
  if (plans.sharedBytes > 0 && plans.sharedAlignment > 128)
    kb->alignShared(uint64_t(plans.sharedAlignment));
  LoweringContext ctx(module, *fn, *kb, target, plans, layouts);
  for (size_t i = 0; i < fn->body.args.size(); ++i) {
    Lowered l;
    l.regs = {kb->param(static_cast<int>(i))};
    ctx.set(fn->body.args[i], std::move(l));
  }
  LL_TRY_STATUS(lowerBlock(ctx, fn->body));
  // The reports count the plans' barriers; make them the ones emitted.
  for (size_t i = 0; i < plans.reportOps.size(); ++i)
    if (auto s = ctx.syncs().find(plans.reportOps[i]); s != ctx.syncs().end()) {
      out.conversions[i].barriers = s->second.barriers;
      out.conversions[i].warpSyncs = s->second.warpSyncs;
      out.conversions[i].clusterBarriers = s->second.clusterBarriers;
    }
  out.slicedOperands = ctx.slicedOperands();
  out.scans = ctx.scans();
  LL_ASSIGN_OR_RETURN(auto backend, NvptxBackend::create(target));
  FinishOptions fo;
  fo.optimize = options.optimize;
  LL_ASSIGN_OR_RETURN(out.kernel, kb->finish(*backend, fo));
  if (module.numCtas > 1)
    LL_TRY_STATUS(requireClusterSize(out.kernel, int(module.numCtas)));
  if (module.clusterSize() > 1)
    LL_TRY_STATUS(requireClusterDims(out.kernel, module.clusterDims));
  if (options.keepLlvmIr)
    out.llvmIr = kb->llvmText();
  return out;
}

} // namespace linlayout::lower
