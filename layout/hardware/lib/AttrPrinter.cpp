// Writing layout specs in TritonGPU's attribute syntax, as Triton 3.6 prints them (the reader is
// AttrSyntax.cpp; each family writes its own fields, see AttrFields.h).
#include "linlayout/layout/AttrFields.h"
#include "linlayout/layout/AttrSyntax.h"

#include <string>
#include <type_traits>
#include <vector>

namespace linlayout {

std::string attrIntList(const std::vector<int64_t> &v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string attrBasisList(const std::vector<std::vector<int64_t>> &b) {
  std::string s = "[";
  for (size_t i = 0; i < b.size(); ++i)
    s += (i ? ", " : "") + attrIntList(b[i]);
  return s + "]";
}

const char *attrBool(bool b) { return b ? "true" : "false"; }

std::string attrCgaText(const CgaLayout &c) {
  if (const auto &legacy = c.legacySplit())
    return ", CTAsPerCGA = " + attrIntList(legacy->ctasPerCga) +
           ", CTASplitNum = " + attrIntList(legacy->ctaSplitNum) +
           ", CTAOrder = " + attrIntList(legacy->ctaOrder);
  if (c.isSingle())
    return "";
  return ", CGALayout = " + attrBasisList(c.bases());
}

std::string_view attrAliasStem(const LayoutSpec &spec) {
  return std::visit([](const auto &s) { return std::decay_t<decltype(s)>::kAttr.aliasStem; },
                    spec.variant());
}

std::string printLayoutAttr(const LayoutSpec &spec) {
  return std::visit([](const auto &s) { return s.attrText(); }, spec.variant());
}

} // namespace linlayout
