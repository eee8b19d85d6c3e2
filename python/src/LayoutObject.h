// linlayout.LinearLayout's Python object: a plain CPython type that holds the C++ LinearLayout
// inline, with a pybind11 type caster for it. pybind11's own class objects keep the value in a
// separate heap block and register every instance in a global table; for an immutable value of
// about 600 bytes that bookkeeping cost more than the algebra (bench/python/invert_and_compose.py:
// ~190 ns of a ~500 ns call). Here making a result is one allocation and a copy, loading an
// argument is a type check, and ==, hash and repr are type slots.
#pragma once

#include "linlayout/layout/LinearLayout.h"

#include <pybind11/pybind11.h>

namespace linlayout::python {

/// The instance layout of linlayout.LinearLayout.
struct LayoutObject {
  PyObject_HEAD LinearLayout value;
};

/// Creates the type (once, at module import) and adds it to `m` as `LinearLayout`.
/// Ensures: layoutType() is the type afterwards.
pybind11::handle createLayoutType(pybind11::module_ &m);

/// The type; null before createLayoutType.
PyTypeObject *layoutType();

/// The layout `o` holds, or null when `o` is not a linlayout.LinearLayout.
inline const LinearLayout *layoutOf(PyObject *o) {
  return Py_TYPE(o) == layoutType() ? &reinterpret_cast<LayoutObject *>(o)->value : nullptr;
}

/// A new reference to a Python LinearLayout holding `l`; null with MemoryError set on failure.
PyObject *newLayout(const LinearLayout &l);

} // namespace linlayout::python

namespace pybind11::detail {

/// Functions bound with pybind11 take and return LinearLayout by value or const reference; this
/// caster reads it in place (no copy) and makes results with newLayout.
template <> struct type_caster<linlayout::LinearLayout> {
  static constexpr auto name = const_name("LinearLayout");

  template <typename T>
  using cast_op_type =
      std::conditional_t<std::is_pointer_v<std::remove_reference_t<T>>,
                         const linlayout::LinearLayout *, const linlayout::LinearLayout &>;

  bool load(handle src, bool) {
    value_ = linlayout::python::layoutOf(src.ptr());
    return value_ != nullptr;
  }
  operator const linlayout::LinearLayout *() { return value_; }
  operator const linlayout::LinearLayout &() { return *value_; }

  static handle cast(const linlayout::LinearLayout &l, return_value_policy, handle) {
    PyObject *o = linlayout::python::newLayout(l);
    if (!o)
      throw error_already_set();
    return o;
  }
  static handle cast(const linlayout::LinearLayout *l, return_value_policy p, handle parent) {
    return l ? cast(*l, p, parent) : none().release();
  }

private:
  const linlayout::LinearLayout *value_ = nullptr;
};

} // namespace pybind11::detail
