#include "linlayout/layout/LayoutSpec.h"

#include "SpecCheck.h"

namespace linlayout {

std::string_view kindName(LayoutKind kind) {
  switch (kind) {
  case LayoutKind::Blocked:
    return "blocked";
  case LayoutKind::Slice:
    return "slice";
  case LayoutKind::NvidiaMma:
    return "nvidia_mma";
  case LayoutKind::DotOperand:
    return "dot_operand";
  case LayoutKind::Linear:
    return "linear";
  case LayoutKind::SwizzledShared:
    return "swizzled_shared";
  case LayoutKind::NvmmaShared:
    return "nvmma_shared";
  case LayoutKind::SharedLinear:
    return "shared_linear";
  }
  return "unknown";
}

bool isMmaOperand(const LayoutSpec &spec) {
  const DotOperandSpec *d = spec.as<DotOperandSpec>();
  return d && d->parent().kind() == LayoutKind::NvidiaMma;
}

bool LayoutSpec::isDistributed() const {
  switch (kind()) {
  case LayoutKind::Blocked:
  case LayoutKind::Slice:
  case LayoutKind::NvidiaMma:
  case LayoutKind::DotOperand:
  case LayoutKind::Linear:
    return true;
  case LayoutKind::SwizzledShared:
  case LayoutKind::NvmmaShared:
  case LayoutKind::SharedLinear:
    return false;
  }
  return false;
}

int LayoutSpec::rank() const {
  return std::visit([](const auto &s) { return s.rank(); }, v_);
}

Expected<LinearLayout> toLinearLayout(const LayoutSpec &spec, std::span<const int64_t> shape) {
  std::string family(kindName(spec.kind()));
  if (shape.size() != size_t(spec.rank()))
    return makeError(family + ": shape " + spec::listText(shape) + " has rank " +
                     std::to_string(shape.size()) + ", the layout has rank " +
                     std::to_string(spec.rank()));
  int bits = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!spec::isPow2(shape[i]))
      return makeError("shape " + spec::listText(shape) + ": dim" + std::to_string(i) +
                       " has size " + std::to_string(shape[i]) + ", expected a power of two");
    bits += spec::log2i(shape[i]);
  }
  if (bits > LinearLayout::kMaxBits)
    return makeError("shape " + spec::listText(shape) + " has more than 2^" +
                     std::to_string(LinearLayout::kMaxBits) + " elements");
  auto r = std::visit([&](const auto &s) { return s.toLinearLayout(shape); }, spec.variant());
  // Errors from the generic layout machinery get the family and shape they arose for.
  if (!r.ok() && r.message().rfind(family + ":", 0) != 0)
    return makeError(family + " over shape " + spec::listText(shape) + ": " + r.message());
  return r;
}

} // namespace linlayout
