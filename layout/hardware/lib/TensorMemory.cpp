#include "linlayout/layout/TensorMemory.h"
#include "linlayout/layout/LayoutSpec.h"

#include "SpecCheck.h"
#include "TmemBasis.h"

#include <algorithm>
#include <utility>

namespace linlayout {

namespace {

using tmem::Bases;
using tmem::Vec;

constexpr const char *kF = "tensor_memory";

std::string shapeText(int64_t m, int64_t n) {
  return "[" + std::to_string(m) + ", " + std::to_string(n) + "]";
}

// One CTA's layout over an m x n part (no CTA split).
Expected<Bases> singleCta(const TensorMemorySpec &s, int64_t blockM, int64_t m, int64_t n) {
  int64_t blockN = std::min(s.blockN(), n);
  int64_t tileM = blockM;
  Bases b;
  // An element takes colStride 32-bit columns: the low column bits do not move it.
  for (int64_t c = 1; c < s.colStride(); c *= 2)
    b.col.push_back({0, 0});
  for (int64_t c = 1; c < blockN; c *= 2)
    b.col.push_back({0, c});
  int64_t tileN = blockN;
  if (blockM == 64) {
    for (int64_t r = 1; r < 16; r *= 2)
      b.row.push_back({r, 0});
    // TMEM row 16 holds the next block along M, else along N, else nothing.
    if (m > 64) {
      b.row.push_back({64, 0});
      tileM = 128;
    } else if (n > blockN) {
      b.row.push_back({0, blockN});
      tileN = 2 * blockN;
    } else {
      b.row.push_back({0, 0});
    }
    b.row.push_back({16, 0});
    b.row.push_back({32, 0});
  } else {
    for (int64_t r = 1; r < 128; r *= 2)
      b.row.push_back({r, 0});
  }
  if (m < tileM)
    return makeError(std::string(kF) + ": each CTA holds " + shapeText(m, n) + ", fewer than " +
                     std::to_string(tileM) + " rows of blockM = " + std::to_string(blockM));
  for (int64_t r = tileM; r < m; r *= 2)
    b.col.push_back({r, 0});
  for (int64_t c = tileN; c < n; c *= 2)
    b.col.push_back({0, c});
  return b;
}

// The CTA split comes last along the columns: N's over M's (Triton's CTA order [0, 1]).
Expected<Bases> bases(const TensorMemorySpec &s, int64_t m, int64_t n) {
  int64_t splitM = s.ctaSplitM(), splitN = s.ctaSplitN();
  if (m % splitM != 0 || n % splitN != 0)
    return makeError(std::string(kF) + ": shape " + shapeText(m, n) +
                     " does not divide into CTASplitM x CTASplitN = " + shapeText(splitM, splitN) +
                     " CTAs");
  int64_t blockM = s.blockM();
  // Two CTAs of 64 rows lay out one 128-row block (PTX's data-path layout for M = 64 with
  // cta_group::2), then swap its last row bit with its last column bit.
  bool swap = blockM == 64 && s.twoCtas() && splitM > 1;
  if (swap) {
    blockM = 128;
    splitM /= 2;
  }
  LL_ASSIGN_OR_RETURN(Bases b, singleCta(s, blockM, m / splitM, n / s.ctaSplitN()));
  for (int64_t t = 1; t < splitM; t *= 2)
    b.col.push_back({m / splitM * t, 0});
  if (swap) {
    if (b.col.empty())
      return makeError(std::string(kF) + ": two-CTA blockM = 64 over " + shapeText(m, n) +
                       " has no column bit to swap with row 64");
    std::swap(b.row.back(), b.col.back());
  }
  for (int64_t t = 1; t < splitN; t *= 2)
    b.col.push_back({0, n / splitN * t});
  return b;
}

} // namespace

Expected<TensorMemorySpec> TensorMemorySpec::make(int64_t blockM, int64_t blockN, int64_t colStride,
                                                  int64_t ctaSplitM, int64_t ctaSplitN,
                                                  bool twoCtas) {
  if (blockM != 64 && blockM != 128)
    return makeError(std::string(kF) + ": block[0] (blockM) is " + std::to_string(blockM) +
                     ", expected 64 or 128");
  if (!spec::isPow2(blockN) || blockN > 512)
    return makeError(std::string(kF) + ": block[1] (blockN) is " + std::to_string(blockN) +
                     ", expected a power of two from 1 to 512");
  if (colStride != 1 && colStride != 2 && colStride != 4)
    return makeError(std::string(kF) + ": col_stride is " + std::to_string(colStride) +
                     ", expected 1, 2 or 4");
  LL_TRY_STATUS(tmem::checkSplit(kF, "cta_split_num[0]", ctaSplitM));
  LL_TRY_STATUS(tmem::checkSplit(kF, "cta_split_num[1]", ctaSplitN));
  TensorMemorySpec s;
  s.blockM_ = blockM;
  s.blockN_ = blockN;
  s.colStride_ = colStride;
  s.splitM_ = ctaSplitM;
  s.splitN_ = ctaSplitN;
  s.twoCtas_ = twoCtas;
  return s;
}

std::optional<CgaLayout> TensorMemorySpec::cgaSplit() const {
  return tmem::splitCga(splitM_, splitN_);
}

std::vector<std::vector<int64_t>> TensorMemorySpec::ctaBases() const {
  return tmem::splitCga(splitM_, splitN_).bases();
}

Expected<TensorMemorySpec> TensorMemorySpec::withCga(const CgaLayout &cga) const {
  LL_ASSIGN_OR_RETURN(auto split, tmem::splitOf(cga, kF));
  return make(blockM_, blockN_, colStride_, split.first, split.second, twoCtas_);
}

Expected<LinearLayout> TensorMemorySpec::toLinearLayout(std::span<const int64_t> shape) const {
  if (shape.size() != 2)
    return makeError(std::string(kF) + ": shape " + spec::listText(shape) + " has rank " +
                     std::to_string(shape.size()) + ", tensor memory holds 2-D tensors");
  LL_ASSIGN_OR_RETURN(Bases b, bases(*this, shape[0], shape[1]));
  return tmem::build(b, shape);
}

// `#ttng.tensor_memory_encoding<blockM = 128, blockN = 128, colStride = 1, CTASplitM = 2,
// twoCTAs = true>`: struct syntax, parameters at their defaults left out.
Expected<LayoutSpec> TensorMemorySpec::parseAttr(AttrFields &f) {
  LL_ASSIGN_OR_RETURN(int64_t blockM, f.integer("blockM"));
  LL_ASSIGN_OR_RETURN(int64_t blockN, f.integer("blockN"));
  int64_t colStride = 1;
  if (f.has("unpacked")) {
    if (f.has("colStride"))
      return f.error("'" + f.full() + "' gives both unpacked and colStride");
    // Triton before colStride: unpacked 16-bit elements, one per 32-bit column.
    LL_ASSIGN_OR_RETURN(bool unpacked, f.boolean("unpacked", false));
    colStride = unpacked ? 2 : 1;
  } else {
    LL_ASSIGN_OR_RETURN(colStride, f.integer("colStride"));
  }
  LL_ASSIGN_OR_RETURN(auto splitM, f.optInteger("CTASplitM"));
  LL_ASSIGN_OR_RETURN(auto splitN, f.optInteger("CTASplitN"));
  LL_ASSIGN_OR_RETURN(bool twoCtas, f.boolean("twoCTAs", false));
  LL_TRY_STATUS(
      f.done({"blockM", "blockN", "colStride", "unpacked", "CTASplitM", "CTASplitN", "twoCTAs"}));
  LL_ASSIGN_OR_RETURN(auto s, f.checked(make(blockM, blockN, colStride, splitM.value_or(1),
                                             splitN.value_or(1), twoCtas)));
  return LayoutSpec(std::move(s));
}

std::string TensorMemorySpec::attrText() const {
  std::string t = "#ttng.tensor_memory_encoding<blockM = " + std::to_string(blockM_) +
                  ", blockN = " + std::to_string(blockN_) +
                  ", colStride = " + std::to_string(colStride_);
  if (splitM_ != 1)
    t += ", CTASplitM = " + std::to_string(splitM_);
  if (splitN_ != 1)
    t += ", CTASplitN = " + std::to_string(splitN_);
  if (twoCtas_)
    t += ", twoCTAs = true";
  return t + ">";
}

} // namespace linlayout
