#include "SharedExchange.h"

#include "SharedAccess.h"

namespace linlayout::lower {

namespace {

// hardware -> scratch offset.
Expected<LinearLayout> toOffsets(const LinearLayout &side, const LinearLayout &scratch) {
  LL_ASSIGN_OR_RETURN(LinearLayout inv, scratch.invert());
  return side.then(inv);
}

Status checkVector(const LinearLayout &toOffset, int vector, const char *what) {
  if (vector < 1 || (vector & (vector - 1)))
    return makeError(std::string(what) + " vector " + std::to_string(vector) +
                     " is not a power of two");
  int bits = __builtin_ctz(static_cast<unsigned>(vector));
  if (bits > toOffset.inDimBits(DimName::reg()))
    return makeError(std::string(what) + " vector " + std::to_string(vector) +
                     " is wider than the " + std::to_string(toOffset.inDimSize(DimName::reg())) +
                     " registers");
  for (int i = 0; i < bits; ++i)
    if (toOffset.basis(DimName::reg(), i, DimName::offset()) != (uint64_t(1) << i))
      return makeError(std::string(what) + " vector " + std::to_string(vector) + ": register bit " +
                       std::to_string(i) + " does not step to the next scratch offset");
  return Status::success();
}

} // namespace

Status checkSharedExchange(const SharedExchange &x) {
  if (!x.scratch.isInvertible())
    return makeError("scratch layout is not a bijection");
  if (!x.scratch.hasInDim(DimName::offset()) || x.scratch.numInDims() != 1)
    return makeError("scratch layout must map 'offset' alone to the tensor dims");
  auto s = toOffsets(x.src, x.scratch);
  if (!s.ok())
    return makeError("source layout does not fit the scratch: " + s.message());
  auto d = toOffsets(x.dst, x.scratch);
  if (!d.ok())
    return makeError("destination layout does not fit the scratch: " + d.message());
  LL_TRY_STATUS(checkVector(*s, x.storeVector, "store"));
  LL_TRY_STATUS(checkVector(*d, x.loadVector, "load"));
  return Status::success();
}

Expected<std::vector<llvm::Value *>> emitSharedExchange(llvm::IRBuilder<> &b,
                                                        const SharedExchange &x, llvm::Value *base,
                                                        llvm::Value *thread,
                                                        const std::vector<llvm::Value *> &values,
                                                        SharedExchangeCounts *counts) {
  LL_TRY_STATUS(checkSharedExchange(x));
  LL_ASSIGN_OR_RETURN(LinearLayout storeMap, toOffsets(x.src, x.scratch));
  LL_ASSIGN_OR_RETURN(LinearLayout loadMap, toOffsets(x.dst, x.scratch));
  LL_ASSIGN_OR_RETURN(LayoutIndexer storeIx, LayoutIndexer::create(storeMap));
  LL_ASSIGN_OR_RETURN(LayoutIndexer loadIx, LayoutIndexer::create(loadMap));
  if (values.size() != storeIx.numRegisters())
    return makeError("exchange of " + std::to_string(values.size()) +
                     " values, the source layout has " + std::to_string(storeIx.numRegisters()) +
                     " registers");
  llvm::Type *elemTy = values[0]->getType();
  int64_t bytes[] = {sharedBytes(elemTy)};
  SharedExchangeCounts local;

  IndexEmitter st(storeIx, b, thread, nullptr);
  for (uint64_t r = 0; r < storeIx.numRegisters(); r += x.storeVector) {
    SplitOffset so = st.linearOffset(r, bytes);
    std::vector<llvm::Value *> group(values.begin() + r, values.begin() + r + x.storeVector);
    emitSharedStore(b, sharedAddress(b, base, so.variable, so.constant), group);
    ++local.stores;
  }
  emitBarrier(b);
  ++local.barriers;
  std::vector<llvm::Value *> out;
  IndexEmitter ld(loadIx, b, thread, nullptr);
  for (uint64_t r = 0; r < loadIx.numRegisters(); r += x.loadVector) {
    SplitOffset so = ld.linearOffset(r, bytes);
    auto got =
        emitSharedLoad(b, sharedAddress(b, base, so.variable, so.constant), elemTy, x.loadVector);
    out.insert(out.end(), got.begin(), got.end());
    ++local.loads;
  }
  if (x.trailingBarrier) {
    emitBarrier(b);
    ++local.barriers;
  }
  if (counts)
    *counts = local;
  return out;
}

} // namespace linlayout::lower
