#include "linlayout/layout/ConversionPlan.h"

#include "linlayout/layout/F2Basis.h"
#include "linlayout/layout/F2Subspace.h"

#include <algorithm>
#include <optional>
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

int SharedStep::storingWarps() const {
  return (1 << storeAddress.inDimBits(DimName::warp())) >> storePredicate.totalOutBits();
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

int ConversionCost::issuedInstructions() const {
  return sharedInstructions() + shuffles + selects + prmts + indexOps + addressOps + warpSyncs;
}

namespace {

// One side (the stores or the loads) of a shared-memory exchange, as subspaces: thread t touches
// the scratch elements offsetConst ^ address(t) ^ k of each access, k below its span. Each CTA
// has a scratch of its own.
struct TouchSpace {
  std::vector<uint64_t> threads; ///< a basis of the threads that touch (lane, warp, block)
  std::vector<uint64_t> offsets; ///< a basis of {offsetConst ^ k}: the accesses' constants and
                                 ///< the elements one access spans
};

// The side's touch space; nullopt where its accesses do not form one (constants that are no
// subspace, mixed kinds or spans), which the planner never produces.
std::optional<TouchSpace> touchSpace(const ConversionPlan &plan, const LinearLayout &address,
                                     const std::vector<SharedAccess> &accesses, bool stores) {
  const SharedStep &st = plan.shared;
  const int e = plan.elementBits;
  const int lanes = address.inDimBits(DimName::lane());
  const int threadBits = address.totalInBits();
  TouchSpace ts;
  if (accesses.empty())
    return ts;
  const SharedOp op = accesses[0].op;
  const size_t regs = accesses[0].registers.size();
  // Elements one access spans; lanes that supply addresses (a matrix instruction takes the rows
  // of matrix j from lanes 8j..8j+7).
  int64_t span = int64_t(regs);
  int suppliers = 1 << lanes;
  if (isMatrixOp(op)) {
    int per = op == SharedOp::LdMatrixTrans || (e == 16 && op == SharedOp::StMatrixTrans)
                  ? 2
                  : std::max(1, 32 / e);
    span = 128 / e;
    suppliers = std::min(suppliers, 8 * int(regs) / per);
  }
  if (span <= 0 || (span & (span - 1)) || suppliers <= 0 || (suppliers & (suppliers - 1)))
    return std::nullopt;
  F2Basis constants;
  std::vector<uint64_t> distinct;
  for (const SharedAccess &a : accesses) {
    if (a.op != op || a.registers.size() != regs)
      return std::nullopt;
    distinct.push_back(a.offsetConst);
    if (constants.insert(a.offsetConst, 0))
      ts.offsets.push_back(a.offsetConst);
  }
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() != size_t(1) << constants.rank() || (distinct.size() > 1 && distinct[0] != 0))
    return std::nullopt;
  for (int64_t k = 1; k < span; k <<= 1)
    ts.offsets.push_back(uint64_t(k));
  // Threads: lanes below the suppliers, every warp and block; stores skip where the predicate
  // is non-zero (its kernel).
  for (int i = 0; i < threadBits; ++i)
    if (i >= lanes || (1 << i) < suppliers)
      ts.threads.push_back(uint64_t(1) << i);
  if (stores && st.storePredicate.totalOutBits() > 0) {
    std::vector<uint64_t> pred;
    for (uint64_t t : ts.threads)
      pred.push_back(st.storePredicate.apply(t));
    std::vector<uint64_t> kept;
    for (uint64_t r : f2KernelOfColumns(pred, ~uint64_t(0)))
      kept.push_back(f2Apply(ts.threads, r));
    ts.threads = std::move(kept);
  }
  return ts;
}

} // namespace

// Two touches meet where u ^ A(t) == v ^ B(t') (u, v from the sides' offset spaces, t, t' their
// threads, one CTA). The solutions (t, t', u, v) are the kernel of a linear map; the exchange
// stays in warps where warp(t) == warp(t') on all of it. Each pair of sides (stores with stores,
// stores with loads, loads with loads) is one kernel of at most 64 columns.
bool exchangeStaysInWarps(const ConversionPlan &plan) {
  if (plan.path != ConversionPath::SharedMemory)
    return false;
  const SharedStep &st = plan.shared;
  const int lanes = st.storeAddress.inDimBits(DimName::lane());
  const int warpBits = st.storeAddress.inDimBits(DimName::warp());
  const int threadBits = st.storeAddress.totalInBits();
  const int m = st.storeAddress.totalOutBits();
  if (st.loadAddress.inDimBits(DimName::lane()) != lanes ||
      st.loadAddress.inDimBits(DimName::warp()) != warpBits ||
      st.loadAddress.totalInBits() != threadBits || st.loadAddress.totalOutBits() != m ||
      st.scratchBytes <= 0)
    return false;
  auto stores = touchSpace(plan, st.storeAddress, st.stores, true);
  auto loads = touchSpace(plan, st.loadAddress, st.loads, false);
  if (!stores || !loads)
    return false;
  const int ctaBits = threadBits - lanes - warpBits;
  if (m + ctaBits + warpBits > 64)
    return false;
  // A side's columns: per thread vector the offset it touches (m bits), then its block
  // (ctaBits), then its warp; then the offset vectors (no block, no warp).
  auto columns = [&](const TouchSpace &ts, const LinearLayout &address) {
    std::vector<uint64_t> cols;
    for (uint64_t t : ts.threads)
      cols.push_back(address.apply(t) | (t >> lanes >> warpBits) << m |
                     ((t >> lanes) & ((uint64_t(1) << warpBits) - 1)) << (m + ctaBits));
    cols.insert(cols.end(), ts.offsets.begin(), ts.offsets.end());
    return cols;
  };
  const std::vector<uint64_t> storeCols = columns(*stores, st.storeAddress);
  const std::vector<uint64_t> loadCols = columns(*loads, st.loadAddress);
  const uint64_t meet = (uint64_t(1) << (m + ctaBits)) - 1;
  auto apart = [&](const std::vector<uint64_t> &a, const std::vector<uint64_t> &b) {
    std::vector<uint64_t> cols = a;
    cols.insert(cols.end(), b.begin(), b.end());
    if (cols.size() > 64)
      return false;
    for (uint64_t r : f2KernelOfColumns(cols, meet))
      if (f2Apply(cols, r) != 0) // equal offsets and blocks, different warps
        return false;
    return true;
  };
  return apart(storeCols, storeCols) && apart(storeCols, loadCols) && apart(loadCols, loadCols);
}

} // namespace linlayout
