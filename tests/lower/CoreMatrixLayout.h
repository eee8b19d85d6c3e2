// Shared layouts of 8 x 16-byte core matrices (wgmma's unswizzled form), written as
// #ttg.shared_linear attributes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace linlayout::lower::testing {

/// One bit of a core-matrix layout's offsets beyond its first core matrix: `step` elements along
/// dim `dim` (0 rows, 1 columns).
struct CoreMatrixBit {
  int dim;
  int64_t step;
};

/// The attribute of a tile (operand dim `kDim` is K) stored as core matrices of 8 rows of `row`
/// contiguous elements (16 bytes) along K (K-major) or along M / N (`mnMajor`), then the core
/// matrices' offsets in the order `outer` gives (every further step of both dims, once).
inline std::string coreMatrixLayout(int kDim, bool mnMajor, int64_t row,
                                    const std::vector<CoreMatrixBit> &outer) {
  const int contig = mnMajor ? 1 - kDim : kDim;
  std::vector<CoreMatrixBit> bits;
  for (int64_t step = 1; step < row; step *= 2)
    bits.push_back({contig, step});
  for (int64_t step = 1; step < 8; step *= 2)
    bits.push_back({1 - contig, step});
  bits.insert(bits.end(), outer.begin(), outer.end());
  std::string text = "#ttg.shared_linear<{offset = [";
  for (size_t i = 0; i < bits.size(); ++i) {
    const int64_t r = bits[i].dim == 0 ? bits[i].step : 0;
    const int64_t c = bits[i].dim == 1 ? bits[i].step : 0;
    text += (i ? ", [" : "[") + std::to_string(r) + ", " + std::to_string(c) + "]";
  }
  return text + "]}, alignment = 1024>";
}

/// The steps from, 2 from, ... below `extent` along `dim`.
inline std::vector<CoreMatrixBit> coreMatrixSteps(int dim, int64_t from, int64_t extent) {
  std::vector<CoreMatrixBit> bits;
  for (int64_t step = from; step < extent; step *= 2)
    bits.push_back({dim, step});
  return bits;
}

} // namespace linlayout::lower::testing
