// Shared layouts of 8 x 16-byte core matrices (wgmma's unswizzled form) for 16-bit tiles,
// written as #ttg.shared_linear attributes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace linlayout::lower::testing {

/// One bit of a core-matrix layout's offsets beyond its first 64 elements: `step` elements along
/// dim `dim` (0 rows, 1 columns).
struct CoreMatrixBit {
  int dim;
  int64_t step;
};

/// The attribute of a rows x cols 16-bit tile (operand dim `kDim` is K) stored as core matrices:
/// each 8 rows of 8 contiguous elements along K (K-major) or along M / N (`mnMajor`), then the
/// core matrices' offsets in the order `outer` gives (every step of both dims from 8 up, once).
inline std::string coreMatrixLayout(int kDim, bool mnMajor,
                                    const std::vector<CoreMatrixBit> &outer) {
  const int contig = mnMajor ? 1 - kDim : kDim;
  std::vector<CoreMatrixBit> bits;
  for (int d : {contig, 1 - contig})
    for (int64_t step = 1; step < 8; step *= 2)
      bits.push_back({d, step});
  bits.insert(bits.end(), outer.begin(), outer.end());
  std::string text = "#ttg.shared_linear<{offset = [";
  for (size_t i = 0; i < bits.size(); ++i) {
    const int64_t row = bits[i].dim == 0 ? bits[i].step : 0;
    const int64_t col = bits[i].dim == 1 ? bits[i].step : 0;
    text += (i ? ", [" : "[") + std::to_string(row) + ", " + std::to_string(col) + "]";
  }
  return text + "]}, alignment = 1024>";
}

/// The steps 8, 16, ... below `extent` along `dim`.
inline std::vector<CoreMatrixBit> coreMatrixSteps(int dim, int64_t extent) {
  std::vector<CoreMatrixBit> bits;
  for (int64_t step = 8; step < extent; step *= 2)
    bits.push_back({dim, step});
  return bits;
}

} // namespace linlayout::lower::testing
