// NumPy's .npy files (format version 1.0 and 2.0, little-endian, C order): what `linlayout run`
// reads its inputs from and writes its outputs to.
#pragma once

#include "linlayout/layout/Expected.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace linlayout::cli {

/// An array as a .npy file holds it.
struct NpyArray {
  std::string descr;          ///< NumPy's dtype string: "<f4", "<i4", "|u1", ...
  std::vector<int64_t> shape; ///< C order
  std::vector<uint8_t> data;  ///< the elements' bytes, little-endian
};

/// Parses the bytes of a .npy file.
/// Requires: a version 1 or 2 header with a little-endian or one-byte `descr`,
/// `fortran_order: False` and data of the size the shape says (an error naming what is wrong
/// otherwise).
Expected<NpyArray> parseNpy(std::string_view bytes);

/// The bytes of a version 1.0 .npy file holding `a`.
/// Ensures: parseNpy(formatNpy(a)) equals a.
std::string formatNpy(const NpyArray &a);

} // namespace linlayout::cli
