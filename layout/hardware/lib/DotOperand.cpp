#include "linlayout/layout/DotOperand.h"
#include "linlayout/layout/AttrSyntax.h"

#include "linlayout/layout/CtaSplit.h"
#include "linlayout/layout/LayoutSpec.h"

#include <concepts>
#include <string>
#include <utility>
#include <vector>

namespace linlayout {

namespace {

// A family that can be a dot operand's parent.
template <typename T>
concept OperandParent = requires(const T &t, std::span<const int64_t> shape) {
  { t.checkOperand(int64_t(0), int64_t(0)) } -> std::same_as<Status>;
  { t.operandLayout(0, 0, shape) } -> std::same_as<Expected<LinearLayout>>;
};

// "a, b or c": the kinds of the operand parents, in LayoutKind order.
std::string operandParentKinds() {
  std::vector<std::string_view> kinds;
  [&]<size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          using T = std::variant_alternative_t<I, LayoutSpec::Variant>;
          if constexpr (OperandParent<T>)
            kinds.push_back(T::kKind);
        }(),
        ...);
  }(std::make_index_sequence<std::variant_size_v<LayoutSpec::Variant>>());
  std::string text;
  for (size_t i = 0; i < kinds.size(); ++i)
    text += (i == 0 ? "" : i + 1 == kinds.size() ? " or " : ", ") + std::string(kinds[i]);
  return text;
}

} // namespace

Expected<DotOperandSpec> DotOperandSpec::make(int64_t operandIndex, const LayoutSpec &parent,
                                              int64_t kWidth) {
  if (operandIndex != 0 && operandIndex != 1)
    return makeError("dot_operand: operand_index is " + std::to_string(operandIndex) +
                     ", expected 0 or 1");
  LL_TRY_STATUS(std::visit(
      [&](const auto &p) -> Status {
        if constexpr (OperandParent<std::decay_t<decltype(p)>>)
          return p.checkOperand(operandIndex, kWidth);
        else
          return makeError("dot_operand: parent is a " + std::string(kindName(parent.kind())) +
                           " layout, expected " + operandParentKinds());
      },
      parent.variant()));
  if (parent.rank() < 2)
    return makeError("dot_operand: parent has rank " + std::to_string(parent.rank()) +
                     ", expected at least 2");
  DotOperandSpec s;
  s.operandIndex_ = int(operandIndex);
  s.kWidth_ = int(kWidth);
  s.parent_ = std::make_shared<const LayoutSpec>(parent);
  return s;
}

int DotOperandSpec::rank() const { return parent_->rank(); }

bool operator==(const DotOperandSpec &a, const DotOperandSpec &b) {
  return a.operandIndex_ == b.operandIndex_ && a.kWidth_ == b.kWidth_ && *a.parent_ == *b.parent_;
}

} // namespace linlayout

namespace linlayout {

Expected<LinearLayout> DotOperandSpec::toLinearLayout(std::span<const int64_t> shape) const {
  return std::visit(
      [&](const auto &p) -> Expected<LinearLayout> {
        if constexpr (OperandParent<std::decay_t<decltype(p)>>)
          return p.operandLayout(operandIndex_, kWidth_, shape);
        else
          return makeError("dot_operand: parent is not an operand parent"); // the factory checks
      },
      parent_->variant());
}

} // namespace linlayout

namespace linlayout {

int64_t DotOperandSpec::numCtas() const { return numCtasOf(*parent_); }

std::optional<CgaLayout> DotOperandSpec::cgaSplit() const { return cgaOf(*parent_); }

std::vector<std::vector<int64_t>> DotOperandSpec::ctaBases() const {
  auto c = cgaSplit();
  return c ? c->bases() : std::vector<std::vector<int64_t>>{};
}

Expected<DotOperandSpec> DotOperandSpec::withCga(const CgaLayout &cga) const {
  LL_ASSIGN_OR_RETURN(LayoutSpec parent, linlayout::withCga(*parent_, cga));
  return make(operandIndex_, parent, kWidth_);
}

// TritonGPU attribute syntax (AttrFields.h).

Expected<LayoutSpec> DotOperandSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(int64_t opIdx, f.integer("opIdx"));
  LL_TRY_STATUS(f.require("parent"));
  bool hasKWidth = f.has("kWidth");
  if (f.has("isMMAv1Row"))
    return f.errorAt("isMMAv1Row", "'isMMAv1Row' belongs to Volta's mma v1 operands, which "
                                   "linlayout does not support");
  // kWidth is marked read now and checked once the parent (and so its default) is known.
  if (hasKWidth)
    LL_TRY_STATUS(f.require("kWidth"));
  LL_TRY_STATUS(f.done({"opIdx", "parent", "kWidth"}));
  LL_ASSIGN_OR_RETURN(LayoutSpec parent, f.spec("parent"));
  int64_t kWidth = parent.kind() == LayoutKind::NvidiaMma ? 2 : 0;
  if (hasKWidth) {
    LL_ASSIGN_OR_RETURN(kWidth, f.integer("kWidth"));
  }
  LL_ASSIGN_OR_RETURN(auto s, f.checked(make(opIdx, parent, kWidth)));
  return LayoutSpec(std::move(s));
}

std::string DotOperandSpec::attrText() const {
  std::string t = "#ttg.dot_op<{opIdx = " + std::to_string(operandIndex()) +
                  ", parent = " + printLayoutAttr(parent());
  if (kWidth() != 0)
    t += ", kWidth = " + std::to_string(kWidth());
  return t + "}>";
}

} // namespace linlayout
