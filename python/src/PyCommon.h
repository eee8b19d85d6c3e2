// What every binding file of the linlayout Python module shares: errors become ValueError with
// the library's message, user-given names and sizes are checked before they reach the library.
#pragma once

#include "LayoutObject.h"
#include "linlayout/layout/DimName.h"
#include "linlayout/layout/Expected.h"
#include "linlayout/layout/LinearLayout.h"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <utility>

namespace linlayout::python {

/// The value, or ValueError carrying the error's message.
template <typename T> T unwrap(Expected<T> e) {
  if (!e.ok())
    throw pybind11::value_error(e.message());
  return std::move(*e);
}

/// An interned dimension name; ValueError for a name that cannot be one.
inline DimName dimName(const std::string &text, const char *what) {
  auto d = DimName::tryGet(text);
  if (!d)
    throw pybind11::value_error(std::string(what) + " name '" + text.substr(0, 40) +
                                "' is empty, longer than 128 characters, or one too many");
  return *d;
}

/// A size given from Python; ValueError when it is not positive.
inline uint64_t positiveSize(int64_t v, const char *what) {
  if (v < 1)
    throw pybind11::value_error(std::string(what) + " is " + std::to_string(v) +
                                ", expected a positive power of two");
  return uint64_t(v);
}

/// The SVG picture of a layout (PictureSvg.h).
std::string svgOf(const LinearLayout &l, int bitwidth, const std::string &title, int64_t maxRows,
                  int64_t maxCols);

void addLinearLayout(pybind11::module_ &m);
void addQuery(pybind11::module_ &m);

} // namespace linlayout::python
