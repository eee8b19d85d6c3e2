#include "linlayout/layout/CtaSplit.h"

#include <concepts>
#include <vector>

namespace linlayout {

namespace {

int log2i(int64_t x) {
  int k = 0;
  while ((int64_t(1) << k) < x)
    ++k;
  return k;
}

// A family that holds its CTA split as a CgaLayout.
template <typename T>
concept HoldsCga = requires(const T &t) {
  { t.cga() } -> std::same_as<const CgaLayout &>;
};

} // namespace

CgaLayout broadcastCga(int rank, int64_t numCtas) {
  std::vector<std::vector<int64_t>> bases(size_t(log2i(numCtas)),
                                          std::vector<int64_t>(size_t(rank), 0));
  return CgaLayout::fromBases(bases, rank).value();
}

int64_t numCtasOf(const LayoutSpec &spec) {
  return std::visit(
      [](const auto &s) -> int64_t {
        if constexpr (HoldsCga<std::decay_t<decltype(s)>>)
          return s.cga().numCtas();
        else
          return s.numCtas();
      },
      spec.variant());
}

std::optional<CgaLayout> cgaOf(const LayoutSpec &spec) {
  return std::visit(
      [](const auto &s) -> std::optional<CgaLayout> {
        if constexpr (HoldsCga<std::decay_t<decltype(s)>>)
          return s.cga();
        else
          return s.cgaSplit();
      },
      spec.variant());
}

bool splitsOverCtas(const LayoutSpec &spec, std::optional<int> dim) {
  if (numCtasOf(spec) == 1)
    return false;
  std::vector<std::vector<int64_t>> bases = std::visit(
      [](const auto &s) -> std::vector<std::vector<int64_t>> {
        if constexpr (HoldsCga<std::decay_t<decltype(s)>>)
          return s.cga().bases();
        else
          return s.ctaBases();
      },
      spec.variant());
  for (const auto &b : bases)
    for (size_t d = 0; d < b.size(); ++d)
      if (b[d] != 0 && (!dim || int(d) == *dim))
        return true;
  return false;
}

Expected<LayoutSpec> withCga(const LayoutSpec &spec, const CgaLayout &cga) {
  return std::visit(
      [&](const auto &s) -> Expected<LayoutSpec> {
        auto r = s.withCga(cga);
        if (!r)
          return r.error();
        return LayoutSpec(std::move(r).value());
      },
      spec.variant());
}

} // namespace linlayout
