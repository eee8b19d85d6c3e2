#include "linlayout/layout/LayoutSpec.h"

#include "SpecCheck.h"

#include <array>
#include <utility>

namespace linlayout {

namespace {

template <size_t... I>
constexpr std::array<std::string_view, sizeof...(I)> familyKinds(std::index_sequence<I...>) {
  return {std::variant_alternative_t<I, LayoutSpec::Variant>::kKind...};
}
constexpr auto kKinds =
    familyKinds(std::make_index_sequence<std::variant_size_v<LayoutSpec::Variant>>());

} // namespace

std::string_view kindName(LayoutKind kind) {
  size_t i = size_t(kind);
  return i < kKinds.size() ? kKinds[i] : "unknown";
}

bool isMmaOperand(const LayoutSpec &spec) {
  const DotOperandSpec *d = spec.as<DotOperandSpec>();
  return d && d->parent().kind() == LayoutKind::NvidiaMma;
}

bool LayoutSpec::isDistributed() const {
  return std::visit([](const auto &s) { return std::decay_t<decltype(s)>::kDistributed; }, v_);
}

bool LayoutSpec::isTensorMemory() const {
  return std::visit(
      [](const auto &s) {
        if constexpr (requires { std::decay_t<decltype(s)>::kTensorMemory; })
          return std::decay_t<decltype(s)>::kTensorMemory;
        else
          return false;
      },
      v_);
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
