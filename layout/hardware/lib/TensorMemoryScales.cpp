#include "linlayout/layout/TensorMemoryScales.h"
#include "linlayout/layout/LayoutSpec.h"
#include "linlayout/layout/TensorMemory.h"

#include "SpecCheck.h"
#include "TmemBasis.h"

namespace linlayout {

namespace {

using tmem::Bases;

constexpr const char *kF = "tensor_memory_scales";

// A component at or past the tensor's size along its dim is dropped (Triton's
// ensureLayoutNotLargerThan): those rows and columns hold nothing of a small tensor.
void clip(Bases &b, int64_t m, int64_t n) {
  for (auto *list : {&b.row, &b.col})
    for (auto &v : *list) {
      if (v[0] >= m)
        v[0] = 0;
      if (v[1] >= n)
        v[1] = 0;
    }
}

} // namespace

Expected<TensorMemoryScalesSpec> TensorMemoryScalesSpec::make(int64_t ctaSplitM,
                                                              int64_t ctaSplitN) {
  LL_TRY_STATUS(tmem::checkSplit(kF, "cta_split_num[0]", ctaSplitM));
  LL_TRY_STATUS(tmem::checkSplit(kF, "cta_split_num[1]", ctaSplitN));
  TensorMemoryScalesSpec s;
  s.splitM_ = ctaSplitM;
  s.splitN_ = ctaSplitN;
  return s;
}

std::optional<CgaLayout> TensorMemoryScalesSpec::cgaSplit() const {
  return tmem::splitCga(splitM_, splitN_);
}

std::vector<std::vector<int64_t>> TensorMemoryScalesSpec::ctaBases() const {
  return tmem::splitCga(splitM_, splitN_).bases();
}

Expected<TensorMemoryScalesSpec> TensorMemoryScalesSpec::withCga(const CgaLayout &cga) const {
  LL_ASSIGN_OR_RETURN(auto split, tmem::splitOf(cga, kF));
  return make(split.first, split.second);
}

Expected<LinearLayout>
TensorMemoryScalesSpec::toLinearLayout(std::span<const int64_t> shape) const {
  if (shape.size() != 2)
    return makeError(std::string(kF) + ": shape " + spec::listText(shape) + " has rank " +
                     std::to_string(shape.size()) + ", tensor memory holds 2-D tensors");
  int64_t m = shape[0], n = shape[1];
  if (m % splitM_ != 0 || n % splitN_ != 0)
    return makeError(std::string(kF) + ": shape " + spec::listText(shape) +
                     " does not divide into CTASplitM x CTASplitN = [" + std::to_string(splitM_) +
                     ", " + std::to_string(splitN_) + "] CTAs");
  int64_t cm = m / splitM_, cn = n / splitN_;
  // PTX's scale-factor tile: 32 rows of 4 one-byte scales per 32-bit column, the same for each
  // warp's 32 rows, the next 32 tensor rows in the next 4 columns.
  Bases b;
  for (int64_t r = 1; r < 32; r *= 2)
    b.row.push_back({r, 0});
  b.row.push_back({0, 0});
  b.row.push_back({0, 0});
  b.col = {{0, 1}, {0, 2}, {32, 0}};
  for (int64_t r = 64; r < cm; r *= 2)
    b.col.push_back({r, 0});
  for (int64_t c = 4; c < cn; c *= 2)
    b.col.push_back({0, c});
  clip(b, cm, cn);
  for (int64_t t = 1; t < splitM_; t *= 2)
    b.col.push_back({cm * t, 0});
  for (int64_t t = 1; t < splitN_; t *= 2)
    b.col.push_back({0, cn * t});
  return tmem::build(b, shape);
}

Expected<LayoutSpec> TensorMemoryScalesSpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(auto splitM, f.optInteger("CTASplitM"));
  LL_ASSIGN_OR_RETURN(auto splitN, f.optInteger("CTASplitN"));
  LL_TRY_STATUS(f.done({"CTASplitM", "CTASplitN"}));
  LL_ASSIGN_OR_RETURN(auto s, f.checked(make(splitM.value_or(1), splitN.value_or(1))));
  return LayoutSpec(std::move(s));
}

std::string TensorMemoryScalesSpec::attrText() const {
  std::string t = "#ttng.tensor_memory_scales_encoding<";
  if (splitM_ != 1)
    t += "CTASplitM = " + std::to_string(splitM_);
  if (splitN_ != 1)
    t += std::string(splitM_ != 1 ? ", " : "") + "CTASplitN = " + std::to_string(splitN_);
  return t + ">";
}

} // namespace linlayout
