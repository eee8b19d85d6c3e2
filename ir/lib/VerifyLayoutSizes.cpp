#include "linlayout/ir/VerifyLayoutSizes.h"

#include "linlayout/layout/AttrSyntax.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace linlayout::ir {

namespace {

// The layout that decides lanes, warps and CTAs: a slice's or dot operand's parent, recursively.
const LayoutSpec &root(const LayoutSpec &spec) {
  const LayoutSpec *s = &spec;
  for (;;) {
    if (const auto *slice = s->as<SliceSpec>())
      s = &slice->parent();
    else if (const auto *dot = s->as<DotOperandSpec>())
      s = &dot->parent();
    else
      return *s;
  }
}

// The alias the module's text gave `spec`, or "".
std::string aliasOf(const Module &m, const LayoutSpec &spec) {
  for (LayoutId id = 0; id < m.layouts.size(); ++id)
    if (m.layouts.get(id) == spec && !m.layouts.aliasHint(id).empty())
      return m.layouts.aliasHint(id);
  return "";
}

// How a message names a layout: by its alias, else a slice or operand by its parent (whose counts
// are the ones checked), else in full.
std::string describe(const Module &m, const LayoutSpec &spec) {
  std::string alias = aliasOf(m, spec);
  if (!alias.empty())
    return "layout " + alias;
  if (const auto *slice = spec.as<SliceSpec>())
    return "the slice of " + describe(m, slice->parent());
  if (const auto *dot = spec.as<DotOperandSpec>())
    return "the dot operand of " + describe(m, dot->parent());
  return "layout " + printLayoutAttr(spec);
}

} // namespace

std::string LayoutSizeMismatch::text() const {
  std::string w = what;
  if (layout == 1) // the first 's' of each name is its plural's: "1 lane per warp", "1 warp"
    w.erase(w.find('s'), 1);
  return "has " + std::to_string(layout) + " " + w;
}

LaunchSizes launchSizes(const Module &m) {
  return LaunchSizes{m.threadsPerWarp, m.numWarps, m.numCtas};
}

int64_t defaultThreadsPerWarp(const LayoutSpec &spec) {
  return root(spec).kind() == LayoutKind::AmdMfma ? 64 : 32;
}

std::optional<LayoutSizeMismatch> layoutSizeMismatch(const LayoutSpec &spec,
                                                     std::span<const int64_t> shape,
                                                     const LaunchSizes &sizes) {
  if (!spec.isDistributed())
    return std::nullopt;
  Expected<LinearLayout> l = toLinearLayout(spec, shape);
  if (!l.ok())
    return std::nullopt;
  return layoutSizeMismatch(*l, sizes);
}

std::optional<LayoutSizeMismatch> layoutSizeMismatch(const LinearLayout &l,
                                                     const LaunchSizes &sizes) {
  int64_t lanes = int64_t(l.inDimSize(DimName::lane()));
  int64_t warps = int64_t(l.inDimSize(DimName::warp()));
  int64_t ctas = int64_t(l.inDimSize(DimName::block()));
  if (lanes != sizes.threadsPerWarp)
    return LayoutSizeMismatch{"lanes per warp", "ttg.threads-per-warp", lanes,
                              sizes.threadsPerWarp};
  if (sizes.numWarps && warps != sizes.numWarps)
    return LayoutSizeMismatch{"warps", "ttg.num-warps", warps, sizes.numWarps};
  if (sizes.numCtas && ctas != 1 && ctas != sizes.numCtas)
    return LayoutSizeMismatch{"CTAs", "ttg.num-ctas", ctas, sizes.numCtas};
  return std::nullopt;
}

Status verifyLayoutSizes(const Module &m) {
  const LaunchSizes sizes = launchSizes(m);
  // Each (layout, shape) once: a kernel has many values of few types.
  std::set<std::pair<LayoutId, std::vector<int64_t>>> seen;
  for (const Function &f : m.functions)
    for (const ValueInfo &value : f.values) {
      const Type &t = value.type;
      if (!t.isTensor() || t.layout() >= m.layouts.size() ||
          !seen.insert({t.layout(), t.shape()}).second)
        continue;
      const LayoutSpec &spec = m.layouts.get(t.layout());
      std::optional<LayoutSizeMismatch> bad = layoutSizeMismatch(spec, t.shape(), sizes);
      if (!bad)
        continue;
      std::string why = describe(m, spec) + " " + bad->text() + ", the module " +
                        std::to_string(bad->required) + " (\"" + bad->attribute + "\")";
      if (bad->what == std::string("lanes per warp") && defaultThreadsPerWarp(spec) == 64)
        why += "; AMD's MFMA layouts run on 64-lane wavefronts";
      return makeError("@" + f.name + ": " + (value.name.empty() ? "a value" : "%" + value.name) +
                       ": " + why);
    }
  return Status::success();
}

} // namespace linlayout::ir
