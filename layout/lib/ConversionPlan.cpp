#include "linlayout/layout/ConversionPlan.h"

#include <algorithm>

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

} // namespace linlayout
