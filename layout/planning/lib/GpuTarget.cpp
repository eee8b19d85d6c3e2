#include "linlayout/layout/GpuTarget.h"

namespace linlayout {

std::optional<GpuTarget> parseGpuTarget(std::string_view name) {
  if (name.starts_with("sm_"))
    name.remove_prefix(3);
  else if (name.starts_with("sm"))
    name.remove_prefix(2);
  if (name == "80" || name == "86" || name == "87" || name == "89")
    return GpuTarget::Sm80;
  if (name == "90" || name == "90a")
    return GpuTarget::Sm90;
  return std::nullopt;
}

std::string_view gpuTargetName(GpuTarget target) {
  switch (target) {
  case GpuTarget::Sm80:
    return "sm_80";
  case GpuTarget::Sm90:
    return "sm_90";
  }
  return "sm_80";
}

const TargetCosts &targetCosts(GpuTarget target) {
  // Both generations serve one 128-byte shared-memory wavefront and one warp-wide shuffle per
  // clock per SM, and retire two warp-wide 32-bit integer/select/prmt instructions (64 lanes) per
  // clock per SM; four schedulers issue one instruction each per clock.
  static const TargetCosts sm80{128.0, 1.0, 2.0, 4.0, 24.0, 0.0, 0.0, false, true, false};
  static const TargetCosts sm90{128.0, 1.0, 2.0, 4.0, 24.0, 190.0, 32.0, true, true, true};
  return target == GpuTarget::Sm90 ? sm90 : sm80;
}

} // namespace linlayout
