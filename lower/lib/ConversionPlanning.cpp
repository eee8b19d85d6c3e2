#include "ConversionPlanning.h"

#include "RegisterLookup.h"
#include "SharedVector.h"

#include "linlayout/layout/PlanConversion.h"

namespace linlayout::lower {

namespace {

int widthIndex(int bits) {
  int i = 0;
  while ((8 << i) < bits)
    ++i;
  return i;
}

// The largest power-of-two vector (at most 16 bytes) whose registers sit at consecutive offsets.
int vectorOf(const LinearLayout &toOffset, int bytes) {
  return sharedVectorWidth(toOffset, bytes);
}

uint64_t regFreeMask(const LinearLayout &l) {
  for (const DimMask &m : l.freeVariableMasks())
    if (m.name == DimName::reg())
      return m.mask;
  return 0;
}

Expected<LinearLayout> threadPart(const LinearLayout &l) {
  std::vector<DimName> hw = {DimName::lane(), DimName::warp(), DimName::block()};
  std::vector<DimName> have;
  for (DimName d : hw)
    if (l.hasInDim(d))
      have.push_back(d);
  std::vector<DimName> outs = l.outDimNames();
  return l.sublayout(have, outs);
}

} // namespace

bool hasConversionPlanner() { return true; }

Expected<ConversionPlan> fallbackConversionPlan(const LinearLayout &src, const LinearLayout &dst,
                                                int elementBits) {
  ConversionPlan plan;
  plan.src = src;
  plan.dst = dst;
  plan.elementBits = elementBits;
  plan.cost.warps = static_cast<int>(src.inDimSize(DimName::warp()));
  if (src == dst) {
    plan.path = ConversionPath::NoOp;
    return plan;
  }
  // Same thread for every element: a register permutation (kept only when it is linear).
  if (auto regs = lookupRegisters(src, dst)) {
    size_t n = regs->size();
    bool linear = true;
    for (size_t r = 0; r < n && linear; ++r) {
      int want = 0;
      for (size_t bit = 0; (size_t(1) << bit) < n; ++bit)
        if (r >> bit & 1)
          want ^= (*regs)[size_t(1) << bit];
      linear = src.apply(uint64_t(want)) == src.apply(uint64_t((*regs)[r]));
    }
    if (linear) {
      std::vector<InDimBases> ins;
      for (int d = 0; d < dst.numInDims(); ++d) {
        InDimBases dim{dst.inDimName(d), {}};
        for (int i = 0; i < dst.inDimBits(d); ++i)
          dim.bases.push_back({dst.inDimName(d) == DimName::reg()
                                   ? static_cast<uint64_t>((*regs)[size_t(1) << i])
                                   : 0});
        ins.push_back(dim);
      }
      DimSize outs[] = {{DimName::reg(), src.inDimSize(DimName::reg())}};
      LL_ASSIGN_OR_RETURN(plan.permute.srcRegister, LinearLayout::fromBases(ins, outs));
      plan.path = ConversionPath::RegisterPermute;
      return plan;
    }
  }
  if (src.inDimSize(DimName::block()) > 1 || dst.inDimSize(DimName::block()) > 1)
    return makeError("converting a layout spread over several CTAs needs the conversion planner");

  // A row-major scratch holding the whole tile (last dim fastest), one round.
  std::vector<DimName> rev;
  for (int o = src.numOutDims() - 1; o >= 0; --o)
    rev.push_back(src.outDimName(o));
  std::vector<InDimBases> scratchIns = {{DimName::offset(), {}}, {DimName::get("round"), {}}};
  std::vector<DimSize> outs = src.outDims();
  {
    int total = 0;
    for (DimName n : rev) {
      int o = src.outDimIndex(n);
      for (int i = 0; i < src.outDimBits(o); ++i, ++total) {
        std::vector<uint64_t> basis(outs.size(), 0);
        basis[o] = uint64_t(1) << i;
        scratchIns[0].bases.push_back(basis);
      }
    }
  }
  LL_ASSIGN_OR_RETURN(LinearLayout scratch, LinearLayout::fromBases(scratchIns, outs));
  LL_ASSIGN_OR_RETURN(LinearLayout scratchOffsets,
                      scratch.sublayout(std::vector<DimName>{DimName::offset()},
                                        src.outDimNames()));
  LL_ASSIGN_OR_RETURN(LinearLayout inv, scratchOffsets.invert());
  LL_ASSIGN_OR_RETURN(LinearLayout storeMap, src.then(inv));
  LL_ASSIGN_OR_RETURN(LinearLayout loadMap, dst.then(inv));
  const int bytes = elementBits / 8;
  SharedStep &st = plan.shared;
  st.scratch = scratch;
  st.rounds = 1;
  st.scratchBytes = int64_t(scratchOffsets.inDimSize(DimName::offset())) * bytes;
  st.storeOp = SharedOp::Store;
  st.loadOp = SharedOp::Load;
  st.storeVectorElements = vectorOf(storeMap, bytes);
  st.loadVectorElements = vectorOf(loadMap, bytes);
  LL_ASSIGN_OR_RETURN(st.storeAddress, threadPart(storeMap));
  LL_ASSIGN_OR_RETURN(st.loadAddress, threadPart(loadMap));
  {
    std::vector<InDimBases> ins = {{DimName::lane(), {}}, {DimName::warp(), {}},
                                   {DimName::block(), {}}};
    for (auto &d : ins)
      for (uint64_t i = 1; i < src.inDimSize(d.name); i <<= 1)
        d.bases.push_back({0});
    DimSize skip[] = {{DimName::get("skip"), 1}};
    LL_ASSIGN_OR_RETURN(st.storePredicate, LinearLayout::fromBases(ins, skip));
    DimSize blk[] = {{DimName::block(), 1}};
    LL_ASSIGN_OR_RETURN(st.loadBlock, LinearLayout::fromBases(ins, blk));
  }
  uint64_t free = regFreeMask(src);
  int regOffset = storeMap.inDimOffset(storeMap.inDimIndex(DimName::reg()));
  for (uint64_t r = 0; r < src.inDimSize(DimName::reg()); r += st.storeVectorElements) {
    if (r & free)
      continue; // a copy of another register's element
    SharedAccess a;
    a.op = SharedOp::Store;
    a.offsetConst = storeMap.apply(r << regOffset);
    for (int k = 0; k < st.storeVectorElements; ++k)
      a.registers.push_back(static_cast<int>(r) + k);
    st.stores.push_back(a);
  }
  int dstRegOffset = loadMap.inDimOffset(loadMap.inDimIndex(DimName::reg()));
  for (uint64_t r = 0; r < dst.inDimSize(DimName::reg()); r += st.loadVectorElements) {
    SharedAccess a;
    a.op = SharedOp::Load;
    a.offsetConst = loadMap.apply(r << dstRegOffset);
    for (int k = 0; k < st.loadVectorElements; ++k)
      a.registers.push_back(static_cast<int>(r) + k);
    st.loads.push_back(a);
  }
  ConversionCost &c = plan.cost;
  c.stores[widthIndex(st.storeVectorElements * elementBits)] = static_cast<int>(st.stores.size());
  c.loads[widthIndex(st.loadVectorElements * elementBits)] = static_cast<int>(st.loads.size());
  c.scratchBytes = st.scratchBytes;
  plan.path = ConversionPath::SharedMemory;
  st.withinWarps = exchangeStaysInWarps(plan);
  (st.withinWarps ? c.warpSyncs : c.barriers) = 2;
  return plan;
}

Expected<ConversionPlan> planLayoutConversion(const LinearLayout &src, const LinearLayout &dst,
                                              int elementBits, const PtxTarget &target,
                                              std::optional<ConversionPath> path,
                                              bool dstIsMmaOperand) {
  PlanOptions options;
  options.forcePath = path;
  options.dstIsMmaOperand = dstIsMmaOperand;
  options.target = target.sm >= 90 ? linlayout::GpuTarget::Sm90 : linlayout::GpuTarget::Sm80;
  return planConversion(src, dst, elementBits, options);
}

} // namespace linlayout::lower
