// Pieces the two tensor-memory families share (private to hardware/): their bases as plain
// (dim0, dim1) pairs while they are built, and their CTA split, which both write as
// CTASplitM x CTASplitN with dim0 fastest.
#pragma once

#include "linlayout/layout/CgaLayout.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace linlayout::tmem {

using Vec = std::array<int64_t, 2>;

/// The row and column bases of a tensor-memory layout being built, in tensor coordinates.
struct Bases {
  std::vector<Vec> row, col;
};

/// The layout (row, col) -> (dim0, dim1) with out sizes `shape`.
/// Requires: every component below its shape entry (an error otherwise).
Expected<LinearLayout> build(const Bases &b, std::span<const int64_t> shape);

/// The split's CGA layout: bases (1,0), (2,0), ... for M, then (0,1), ... for N.
CgaLayout splitCga(int64_t splitM, int64_t splitN);
/// The (CTASplitM, CTASplitN) a CGA layout is, or an error naming it when it is not such a split.
Expected<std::pair<int64_t, int64_t>> splitOf(const CgaLayout &cga, const char *family);
/// Checks a CTA split count (a power of two up to 2^8), naming it as `field`.
Status checkSplit(const char *family, const char *field, int64_t v);

} // namespace linlayout::tmem
