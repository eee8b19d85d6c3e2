#include "linlayout/layout/ConversionPlan.h"

#include <algorithm>
#include <vector>

namespace linlayout {

std::string_view conversionPathName(ConversionPath p) {
  switch (p) {
  case ConversionPath::NoOp:
    return "no-op";
  case ConversionPath::RegisterPermute:
    return "register-permute";
  case ConversionPath::WarpShuffle:
    return "warp-shuffle";
  case ConversionPath::SharedMemory:
    return "shared-memory";
  case ConversionPath::DistributedSharedMemory:
    return "distributed-shared-memory";
  }
  return "?";
}

std::string conversionPathIdentifier(ConversionPath p) {
  std::string s(conversionPathName(p));
  std::replace(s.begin(), s.end(), '-', '_');
  return s;
}

std::optional<ConversionPath> parseConversionPath(std::string_view name) {
  for (ConversionPath p : kConversionPaths)
    if (name == conversionPathName(p) || name == conversionPathIdentifier(p))
      return p;
  return std::nullopt;
}

std::string_view sharedOpName(SharedOp op) {
  switch (op) {
  case SharedOp::Store:
    return "st.shared";
  case SharedOp::Load:
    return "ld.shared";
  case SharedOp::StMatrix:
    return "stmatrix";
  case SharedOp::StMatrixTrans:
    return "stmatrix.trans";
  case SharedOp::LdMatrix:
    return "ldmatrix";
  case SharedOp::LdMatrixTrans:
    return "ldmatrix.trans";
  }
  return "?";
}

bool isMatrixOp(SharedOp op) { return op != SharedOp::Store && op != SharedOp::Load; }

bool isStoreOp(SharedOp op) {
  return op == SharedOp::Store || op == SharedOp::StMatrix || op == SharedOp::StMatrixTrans;
}

int ConversionCost::sharedInstructions() const {
  int n = stmatrix + ldmatrix;
  for (int i = 0; i < 5; ++i)
    n += stores[i] + loads[i];
  return n;
}

bool exchangeStaysInWarps(const ConversionPlan &plan) {
  if (plan.path != ConversionPath::SharedMemory)
    return false;
  const SharedStep &st = plan.shared;
  // Threads pack (lane, warp, block), lane lowest; each CTA has a scratch of its own.
  const int lanes = st.storeAddress.inDimBits(DimName::lane());
  const int warpBits = st.storeAddress.inDimBits(DimName::warp());
  const int threadBits = lanes + warpBits + st.storeAddress.inDimBits(DimName::block());
  if (st.loadAddress.inDimBits(DimName::lane()) != lanes ||
      st.loadAddress.inDimBits(DimName::warp()) != warpBits ||
      st.loadAddress.totalInBits() != threadBits || st.scratchBytes <= 0)
    return false;
  const int e = plan.elementBits;
  const int bytes = e / 8;
  const int slots32 = e < 32 ? 32 / e : 1;
  // The warp that touches each byte; every lane that supplies an address is counted (as the
  // simulator does: a matrix instruction's rows come from its first 8 lanes per matrix), except
  // threads whose stores the predicate skips.
  std::vector<int> owner(size_t(st.scratchBytes) << (threadBits - lanes - warpBits), -1);
  const bool predicated = st.storePredicate.totalOutBits() > 0;
  auto touch = [&](const LinearLayout &address, const SharedAccess &a) {
    const bool store = isStoreOp(a.op);
    int per = a.op == SharedOp::LdMatrixTrans || (e == 16 && a.op == SharedOp::StMatrixTrans)
                  ? 2
                  : slots32;
    int64_t span = isMatrixOp(a.op) ? 16 : int64_t(a.registers.size()) * bytes;
    int suppliers = isMatrixOp(a.op) ? 8 * int(a.registers.size()) / per : 1 << lanes;
    for (uint64_t t = 0; t < (uint64_t(1) << threadBits); ++t) {
      if (int(t & ((uint64_t(1) << lanes) - 1)) >= suppliers ||
          (store && predicated && st.storePredicate.apply(t) != 0))
        continue;
      int64_t begin = int64_t(a.offsetConst ^ address.apply(t)) * bytes;
      const int warp = int(t >> lanes);
      const int64_t cta = int64_t(t >> (lanes + warpBits));
      for (int64_t x = begin; x < begin + span; ++x) {
        if (x < 0 || x >= st.scratchBytes)
          return false;
        int &o = owner[size_t(cta * st.scratchBytes + x)];
        if (o >= 0 && o != warp)
          return false;
        o = warp;
      }
    }
    return true;
  };
  for (const SharedAccess &a : st.stores)
    if (!touch(st.storeAddress, a))
      return false;
  for (const SharedAccess &a : st.loads)
    if (!touch(st.loadAddress, a))
      return false;
  return true;
}

} // namespace linlayout
