#include "TmemBasis.h"

#include "linlayout/layout/AttrFields.h"
#include "linlayout/layout/TensorMemory.h"

#include "SpecCheck.h"

namespace linlayout {

DimName tmemRowDim() {
  static const DimName n = DimName::get("row");
  return n;
}

DimName tmemColDim() {
  static const DimName n = DimName::get("col");
  return n;
}

namespace tmem {

Expected<LinearLayout> build(const Bases &b, std::span<const int64_t> shape) {
  std::vector<InDimBases> in(2);
  in[0].name = tmemRowDim();
  in[1].name = tmemColDim();
  for (const Vec &v : b.row)
    in[0].bases.push_back({uint64_t(v[0]), uint64_t(v[1])});
  for (const Vec &v : b.col)
    in[1].bases.push_back({uint64_t(v[0]), uint64_t(v[1])});
  std::vector<DimSize> outs{{DimName::dim(0), uint64_t(shape[0])},
                            {DimName::dim(1), uint64_t(shape[1])}};
  return LinearLayout::fromBases(in, outs, /*requireSurjective=*/false);
}

CgaLayout splitCga(int64_t splitM, int64_t splitN) {
  std::vector<std::vector<int64_t>> bases;
  for (int64_t t = 1; t < splitM; t *= 2)
    bases.push_back({t, 0});
  for (int64_t t = 1; t < splitN; t *= 2)
    bases.push_back({0, t});
  return CgaLayout::fromBases(std::move(bases), 2).value();
}

Expected<std::pair<int64_t, int64_t>> splitOf(const CgaLayout &cga, const char *family) {
  if (cga.rank() != 2)
    return makeError(std::string(family) + ": a CTA split of rank " + std::to_string(cga.rank()) +
                     ", expected rank 2");
  int64_t m = cga.splitNum(0), n = cga.splitNum(1);
  if (!(splitCga(m, n) == cga))
    return makeError(std::string(family) + ": cga_layout " + attrBasisList(cga.bases()) +
                     " is not CTASplitM x CTASplitN CTAs with dim0 fastest, the only split "
                     "tensor memory has");
  return std::pair{m, n};
}

Status checkSplit(const char *family, const char *field, int64_t v) {
  if (!spec::isPow2(v) || v > 256)
    return makeError(std::string(family) + ": " + field + " is " + std::to_string(v) +
                     ", expected a power of two from 1 to 256");
  return Status::success();
}

} // namespace tmem
} // namespace linlayout
