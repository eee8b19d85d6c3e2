#include "linlayout/lower/PtxTarget.h"

namespace linlayout::lower {

Expected<PtxTarget> PtxTarget::parse(std::string_view name) {
  // PTX 8.0 is the oldest ISA with every instruction we emit on sm_90 (stmatrix needs 7.8) and is
  // read by every ptxas since CUDA 12.0; LLVM 19 writes up to 8.5.
  static constexpr struct {
    std::string_view name;
    int sm;
  } kKnown[] = {{"sm_80", 80}, {"sm_86", 86}, {"sm_89", 89}, {"sm_90", 90}};
  for (const auto &k : kKnown)
    if (k.name == name)
      return PtxTarget{k.sm, 80};
  if (name == "sm_90a")
    return PtxTarget{90, 80, true};
  return makeError("unknown target '" + std::string(name) +
                   "', expected one of sm_80, sm_86, sm_89, sm_90, sm_90a");
}

int64_t PtxTarget::sharedBytesPerBlock() const {
  if (sm >= 90)
    return 227 * 1024;
  if (sm == 80)
    return 163 * 1024;
  return 99 * 1024;
}

std::string PtxTarget::name() const {
  return "sm_" + std::to_string(sm) + (archSpecific ? "a" : "");
}

} // namespace linlayout::lower
