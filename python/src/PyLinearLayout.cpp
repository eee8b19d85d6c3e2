// linlayout.LinearLayout: the C++ LinearLayout under the names and argument forms of Triton's
// Python binding (triton._C.libtriton.linear_layout.LinearLayout), so code written against it
// runs unchanged, plus the rest of the algebra under the snake_case of Triton's C++ names.
// Every caller mistake raises ValueError with the library's own message.
#include "PyCommon.h"

#include "linlayout/layout/LinearLayout.h"
#include "linlayout/layout/OwnerMap.h"
#include "linlayout/layout/Picture.h"
#include "linlayout/layout/PictureSvg.h"

#include <pybind11/operators.h>
#include <pybind11/stl.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace linlayout::python {
namespace {

using Bases = std::vector<std::pair<std::string, std::vector<std::vector<int64_t>>>>;

std::vector<DimName> dimNames(const std::vector<std::string> &names, const char *what) {
  std::vector<DimName> out;
  out.reserve(names.size());
  for (const std::string &n : names)
    out.push_back(dimName(n, what));
  return out;
}

std::vector<DimSize> dimSizes(const std::vector<std::pair<std::string, int64_t>> &dims,
                              const char *what) {
  std::vector<DimSize> out;
  out.reserve(dims.size());
  for (const auto &[n, size] : dims) {
    if (size < 1)
      throw py::value_error(std::string(what) + " '" + n + "' has size " + std::to_string(size) +
                            ", expected a positive power of two");
    out.push_back({dimName(n, what), uint64_t(size)});
  }
  return out;
}

// Bases as Triton's binding takes them: a list of (in_dim, [[...], ...]) or a dict.
std::vector<InDimBases> inDimBases(const py::object &bases) {
  Bases list;
  if (py::isinstance<py::dict>(bases)) {
    for (auto item : bases.cast<py::dict>())
      list.emplace_back(item.first.cast<std::string>(),
                        item.second.cast<std::vector<std::vector<int64_t>>>());
  } else {
    list = bases.cast<Bases>();
  }
  std::vector<InDimBases> out;
  out.reserve(list.size());
  for (auto &[name, vectors] : list) {
    InDimBases d{dimName(name, "in dim"), {}};
    for (const auto &v : vectors) {
      std::vector<uint64_t> b;
      for (int64_t x : v) {
        if (x < 0)
          throw py::value_error("basis component " + std::to_string(x) + " of in dim '" + name +
                                "' is negative");
        b.push_back(uint64_t(x));
      }
      d.bases.push_back(std::move(b));
    }
    out.push_back(std::move(d));
  }
  return out;
}

LinearLayout fromBases(const py::object &bases, const std::vector<std::string> &outNames,
                       const std::optional<std::vector<int64_t>> &outSizes,
                       bool requireSurjective) {
  std::vector<InDimBases> ins = inDimBases(bases);
  std::vector<DimName> names = dimNames(outNames, "out dim");
  if (!outSizes) {
    if (!requireSurjective)
      throw py::value_error("out_dim_sizes must be given when require_surjective is false");
    return unwrap(LinearLayout::fromBasesInferSizes(ins, names));
  }
  if (outSizes->size() != outNames.size())
    throw py::value_error("out_dim_names has " + std::to_string(outNames.size()) +
                          " names but out_dim_sizes has " + std::to_string(outSizes->size()) +
                          " sizes");
  std::vector<DimSize> outs;
  for (size_t i = 0; i < names.size(); ++i) {
    if ((*outSizes)[i] < 1)
      throw py::value_error("out dim '" + outNames[i] + "' has size " +
                            std::to_string((*outSizes)[i]) + ", expected a power of two");
    outs.push_back({names[i], uint64_t((*outSizes)[i])});
  }
  return unwrap(LinearLayout::fromBases(ins, outs, requireSurjective));
}

py::list basesOf(const LinearLayout &l) {
  py::list result;
  for (int d = 0; d < l.numInDims(); ++d) {
    DimName name = l.inDimName(d);
    py::list vectors;
    for (int i = 0; i < l.inDimBits(d); ++i)
      vectors.append(py::cast(l.basis(name, i)));
    result.append(py::make_tuple(std::string(name.str()), vectors));
  }
  return result;
}

py::list dimsOf(const std::vector<DimSize> &dims) {
  py::list result;
  for (const DimSize &d : dims)
    result.append(py::make_tuple(std::string(d.name.str()), d.size));
  return result;
}

// apply's inputs: a dict or a list of (in_dim, value) pairs, as Triton's binding takes.
py::list apply(const LinearLayout &l, const py::object &inputs) {
  std::vector<DimValue> values;
  auto add = [&](const py::handle &k, const py::handle &v) {
    std::string name = k.cast<std::string>();
    int64_t value = v.cast<int64_t>();
    if (value < 0)
      throw py::value_error("input '" + name + "' is " + std::to_string(value) +
                            ", expected a non-negative value");
    values.push_back({dimName(name, "in dim"), uint64_t(value)});
  };
  if (py::isinstance<py::dict>(inputs)) {
    for (auto item : inputs.cast<py::dict>())
      add(item.first, item.second);
  } else {
    for (auto item : inputs) {
      auto pair = item.cast<py::tuple>();
      if (pair.size() != 2)
        throw py::value_error("apply takes (in_dim, value) pairs");
      add(pair[0], pair[1]);
    }
  }
  std::vector<DimValue> out = unwrap(l.apply(values));
  py::list result;
  for (const DimValue &v : out)
    result.append(py::make_tuple(std::string(v.name.str()), v.value));
  return result;
}

// Rows are output bits, columns input bits (packed order), as Triton's get_matrix_view.
std::vector<std::vector<int>> matrixView(const LinearLayout &l) {
  int rows = l.totalOutBits(), cols = l.totalInBits();
  std::vector<std::vector<int>> m(rows, std::vector<int>(cols));
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < rows; ++i)
      m[i][j] = int((l.column(j) >> i) & 1);
  return m;
}

py::dict masks(const std::vector<DimMask> &ms) {
  py::dict d;
  for (const DimMask &m : ms)
    d[py::str(std::string(m.name.str()))] = m.mask;
  return d;
}

PictureOptions pictureOptions(int64_t maxRows, int64_t maxCols) {
  PictureOptions o;
  o.maxRows = maxRows;
  o.maxCols = maxCols;
  o.rowHead = std::max<int64_t>(1, maxRows / 2);
  o.rowTail = std::max<int64_t>(1, maxRows / 4);
  o.colHead = std::max<int64_t>(1, maxCols / 2);
  o.colTail = std::max<int64_t>(1, maxCols / 4);
  return o;
}

// The text tensor map (`linlayout show`); with hardware view, what each thread holds.
std::string view(const LinearLayout &l, bool hardware, int64_t maxRows, int64_t maxCols,
                 int bitwidth) {
  OwnerMap map = unwrap(OwnerMap::build(l));
  PictureOptions o = pictureOptions(maxRows, maxCols);
  if (hardware)
    return unwrap(renderInverse(map, o, bitwidth));
  return renderTensorMap(map, o);
}

std::optional<LinearLayout> optionalLayout(std::optional<LinearLayout> l) { return l; }

// The hottest calls (compose, invert_and_compose, invert) skip pybind11's dispatcher (argument
// vectors, overload resolution, casters): a METH_FASTCALL method reads the two objects in place
// and makes the result directly. Measured by bench/python/invert_and_compose.py.
template <Expected<LinearLayout> (*Op)(const LinearLayout &, const LinearLayout *), int Arity>
PyObject *fastMethod(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
  const LinearLayout *a = layoutOf(self);
  const LinearLayout *b = Arity == 1 && nargs == 1 ? layoutOf(args[0]) : nullptr;
  if (nargs != Arity) {
    PyErr_SetString(PyExc_TypeError, Arity == 1 ? "expected one argument, the outer layout"
                                                : "expected no arguments");
    return nullptr;
  }
  if (!a || (Arity == 1 && !b)) {
    PyErr_SetString(PyExc_TypeError, "expected a LinearLayout");
    return nullptr;
  }
  Expected<LinearLayout> r = Op(*a, b);
  if (!r.ok()) {
    PyErr_SetString(PyExc_ValueError, r.message().c_str());
    return nullptr;
  }
  return newLayout(*r);
}

Expected<LinearLayout> opInvertAndCompose(const LinearLayout &a, const LinearLayout *b) {
  return a.invertAndCompose(*b);
}
Expected<LinearLayout> opCompose(const LinearLayout &a, const LinearLayout *b) {
  return a.then(*b);
}
Expected<LinearLayout> opInvert(const LinearLayout &a, const LinearLayout *) { return a.invert(); }

// Unpickling. Not a pybind11 function: pybind11 treats any `__setstate__` as a constructor of
// its own classes.
PyObject *setState(PyObject *self, PyObject *state) {
  try {
    py::tuple t = py::reinterpret_borrow<py::object>(state).cast<py::tuple>();
    if (!layoutOf(self) || t.size() != 2)
      throw py::value_error("not a LinearLayout state");
    std::vector<std::string> names;
    std::vector<int64_t> sizes;
    for (auto d : t[1].cast<py::list>()) {
      auto p = d.cast<py::tuple>();
      names.push_back(p[0].cast<std::string>());
      sizes.push_back(p[1].cast<int64_t>());
    }
    reinterpret_cast<LayoutObject *>(self)->value = fromBases(t[0], names, sizes, false);
    Py_RETURN_NONE;
  } catch (py::error_already_set &e) {
    e.restore();
  } catch (py::builtin_exception &e) {
    e.set_error();
  } catch (const std::exception &e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  }
  return nullptr;
}

PyMethodDef kRawMethods[] = {
    {"__setstate__", (PyCFunction)(void (*)())setState, METH_O,
     "rebuilds a pickled layout from its bases and out dims"},
    {"invert_and_compose", (PyCFunction)(void (*)())fastMethod<opInvertAndCompose, 1>,
     METH_FASTCALL, "c with outer(c(x)) == self(x) (Triton's invert_and_compose)"},
    {"compose", (PyCFunction)(void (*)())fastMethod<opCompose, 1>, METH_FASTCALL,
     "x -> outer(self(x)): self applies first (Triton's compose)"},
    {"invert", (PyCFunction)(void (*)())fastMethod<opInvert, 0>, METH_FASTCALL,
     "the inverse of a bijective layout"},
};

// What py::class_ does for its methods, for a type that is not pybind11's (LayoutObject.h).
class TypeBuilder {
public:
  explicit TypeBuilder(py::handle type) : type_(type) {}
  py::handle ptr() const { return type_; }

  template <typename F, typename... Extra>
  TypeBuilder &def(const char *name, F &&f, const Extra &...extra) {
    py::cpp_function cf(std::forward<F>(f), py::name(name), py::is_method(type_),
                        py::sibling(py::getattr(type_, name, py::none())), extra...);
    py::setattr(type_, name, cf);
    return *this;
  }
  template <typename F, typename... Extra>
  TypeBuilder &def_static(const char *name, F &&f, const Extra &...extra) {
    py::cpp_function cf(std::forward<F>(f), py::name(name), py::scope(type_),
                        py::sibling(py::getattr(type_, name, py::none())), extra...);
    py::setattr(type_, name, py::staticmethod(cf));
    return *this;
  }
  template <typename F> TypeBuilder &def_property_readonly(const char *name, F &&f) {
    py::cpp_function getter(std::forward<F>(f), py::is_method(type_));
    py::object property =
        py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject *>(&PyProperty_Type))(getter);
    py::setattr(type_, name, property);
    return *this;
  }
  void addRawMethods() {
    auto *type = reinterpret_cast<PyTypeObject *>(type_.ptr());
    for (PyMethodDef &def : kRawMethods) {
      PyObject *descr = PyDescr_NewMethod(type, &def);
      if (!descr)
        throw py::error_already_set();
      py::setattr(type_, def.ml_name, py::reinterpret_steal<py::object>(descr));
    }
  }

private:
  py::handle type_;
};

} // namespace

std::string svgOf(const LinearLayout &l, int bitwidth, const std::string &title, int64_t maxRows,
                  int64_t maxCols) {
  OwnerMap map = unwrap(OwnerMap::build(l));
  SvgOptions o;
  o.picture = pictureOptions(maxRows, maxCols);
  o.bitwidth = bitwidth;
  o.title = title;
  return renderSvg(map, o);
}

void addLinearLayout(py::module_ &m) {
  TypeBuilder c(createLayoutType(m));
  c.def_static("empty", &LinearLayout::empty);
  c.def_static(
      "identity_1d",
      [](int64_t size, const std::string &in, const std::string &out) {
        return unwrap(LinearLayout::identity1D(positiveSize(size, "size"), dimName(in, "in dim"),
                                               dimName(out, "out dim")));
      },
      py::arg("size"), py::arg("inDim"), py::arg("outDim"));
  c.def_static(
      "strided_1d",
      [](int64_t size, int64_t stride, const std::string &in, const std::string &out) {
        return unwrap(LinearLayout::strided1D(positiveSize(size, "size"),
                                              positiveSize(stride, "stride"), dimName(in, "in dim"),
                                              dimName(out, "out dim")));
      },
      py::arg("size"), py::arg("stride"), py::arg("inDim"), py::arg("outDim"));
  c.def_static(
      "zeros_1d",
      [](int64_t size, const std::string &in, const std::string &out, int64_t outSize) {
        return unwrap(LinearLayout::zeros1D(positiveSize(size, "size"), dimName(in, "in dim"),
                                            dimName(out, "out dim"),
                                            positiveSize(outSize, "outDimSize")));
      },
      py::arg("size"), py::arg("inDim"), py::arg("outDim"), py::arg("outDimSize") = 1);
  c.def_static("from_bases", &fromBases, py::arg("bases"), py::arg("out_dim_names"),
               py::arg("out_dim_sizes") = py::none(), py::arg("require_surjective") = true);

  // Triton's queries.
  c.def_property_readonly("bases", &basesOf);
  c.def_property_readonly("out_dims", [](const LinearLayout &l) { return dimsOf(l.outDims()); });
  c.def_property_readonly("in_dims", [](const LinearLayout &l) { return dimsOf(l.inDims()); });
  c.def_property_readonly("num_in_dims", &LinearLayout::numInDims);
  c.def_property_readonly("num_out_dims", &LinearLayout::numOutDims);
  c.def("get_in_dim_names", [](const LinearLayout &l) {
    std::vector<std::string> r;
    for (DimName n : l.inDimNames())
      r.emplace_back(n.str());
    return r;
  });
  c.def("get_out_dim_names", [](const LinearLayout &l) {
    std::vector<std::string> r;
    for (DimName n : l.outDimNames())
      r.emplace_back(n.str());
    return r;
  });
  c.def("has_in_dim", [](const LinearLayout &l, const std::string &n) {
    auto d = DimName::tryGet(n);
    return d && l.hasInDim(*d);
  });
  c.def("has_out_dim", [](const LinearLayout &l, const std::string &n) {
    auto d = DimName::tryGet(n);
    return d && l.hasOutDim(*d);
  });
  c.def("get_in_dim_size", [](const LinearLayout &l, const std::string &n) {
    return l.inDimSize(dimName(n, "in dim"));
  });
  c.def("get_out_dim_size", [](const LinearLayout &l, const std::string &n) {
    return l.outDimSize(dimName(n, "out dim"));
  });
  c.def("get_in_dim_size_log2", [](const LinearLayout &l, const std::string &n) {
    return l.inDimBits(dimName(n, "in dim"));
  });
  c.def("get_out_dim_size_log2", [](const LinearLayout &l, const std::string &n) {
    return l.outDimBits(dimName(n, "out dim"));
  });
  c.def("get_total_in_dim_size_log2", &LinearLayout::totalInBits);
  c.def("get_total_out_dim_size_log2", &LinearLayout::totalOutBits);
  c.def("get_total_in_dim_size",
        [](const LinearLayout &l) { return uint64_t(1) << l.totalInBits(); });
  c.def("get_total_out_dim_size",
        [](const LinearLayout &l) { return uint64_t(1) << l.totalOutBits(); });
  c.def(
      "get_basis",
      [](const LinearLayout &l, const std::string &in, int pos) {
        DimName d = dimName(in, "in dim");
        if (!l.hasInDim(d) || pos < 0 || pos >= l.inDimBits(d))
          throw py::value_error("in dim '" + in + "' has no basis " + std::to_string(pos));
        return l.basis(d, pos);
      },
      py::arg("inDim"), py::arg("pos"));
  c.def("is_surjective", &LinearLayout::isSurjective);
  c.def("is_injective", &LinearLayout::isInjective);
  c.def("is_invertible", &LinearLayout::isInvertible);
  c.def("get_matrix_view", &matrixView);
  c.def("apply", &apply, py::arg("inputs"));
  c.def("get_free_variable_masks",
        [](const LinearLayout &l) { return masks(l.freeVariableMasks()); });
  c.def("get_zero_basis_masks", [](const LinearLayout &l) { return masks(l.zeroBasisMasks()); });
  c.def("get_num_consecutive_in_out", &LinearLayout::numConsecutiveInOut);
  c.def("rank", &LinearLayout::rank);

  // Triton's algebra: `a.compose(b)` applies a first (linlayout's a.then(b)).
  // compose, invert_and_compose and invert are raw methods (kRawMethods).
  c.def("pseudoinvert", [](const LinearLayout &a) { return unwrap(a.pseudoInvert()); });
  c.def("__mul__", [](const LinearLayout &a, const LinearLayout &b) {
    return unwrap(LinearLayout::product(a, b));
  });
  // Layouts are immutable: `a *= b` rebinds a to the product.
  c.def("__imul__", [](const LinearLayout &a, const LinearLayout &b) {
    return unwrap(LinearLayout::product(a, b));
  });
  c.def("concat_ins",
        [](const LinearLayout &a, const LinearLayout &b) { return unwrap(a.concatIns(b)); });
  c.def("concat_outs",
        [](const LinearLayout &a, const LinearLayout &b) { return unwrap(a.concatOuts(b)); });
  c.def("transpose_ins", [](const LinearLayout &a, const std::vector<std::string> &order) {
    return unwrap(a.transposeIns(dimNames(order, "in dim")));
  });
  c.def("transpose_outs", [](const LinearLayout &a, const std::vector<std::string> &order) {
    return unwrap(a.transposeOuts(dimNames(order, "out dim")));
  });
  c.def("reshape_ins",
        [](const LinearLayout &a, const std::vector<std::pair<std::string, int64_t>> &dims) {
          return unwrap(a.reshapeIns(dimSizes(dims, "in dim")));
        });
  c.def("reshape_outs",
        [](const LinearLayout &a, const std::vector<std::pair<std::string, int64_t>> &dims) {
          return unwrap(a.reshapeOuts(dimSizes(dims, "out dim")));
        });
  c.def("flatten_ins", [](const LinearLayout &a) { return a.flattenIns(); });
  c.def("flatten_outs", [](const LinearLayout &a) { return a.flattenOuts(); });
  c.def("resize_in_dim", [](const LinearLayout &a, const std::string &d, int64_t size) {
    return unwrap(a.resizeInDim(dimName(d, "in dim"), positiveSize(size, "size")));
  });
  c.def("resize_out_dim", [](const LinearLayout &a, const std::string &d, int64_t size) {
    return unwrap(a.resizeOutDim(dimName(d, "out dim"), positiveSize(size, "size")));
  });
  c.def("rename_in_dim", [](const LinearLayout &a, const std::string &from, const std::string &to) {
    return unwrap(a.renameInDim(dimName(from, "in dim"), dimName(to, "in dim")));
  });
  c.def("rename_out_dim",
        [](const LinearLayout &a, const std::string &from, const std::string &to) {
          return unwrap(a.renameOutDim(dimName(from, "out dim"), dimName(to, "out dim")));
        });
  c.def(
      "sublayout",
      [](const LinearLayout &a, const std::vector<std::string> &ins,
         const std::vector<std::string> &outs) {
        return unwrap(a.sublayout(dimNames(ins, "in dim"), dimNames(outs, "out dim")));
      },
      py::arg("inDimNames"), py::arg("outDimNames"));
  c.def(
      "sublayout_is_zero",
      [](const LinearLayout &a, const std::vector<std::string> &ins,
         const std::vector<std::string> &outs) {
        return a.sublayoutIsZero(dimNames(ins, "in dim"), dimNames(outs, "out dim"));
      },
      py::arg("inDimNames"), py::arg("outDimNames"));
  c.def("quotient", [](const LinearLayout &a, const std::vector<std::string> &dims) {
    return optionalLayout(a.quotient(dimNames(dims, "dim")));
  });
  c.def("divide_left", [](const LinearLayout &a, const LinearLayout &b) {
    return optionalLayout(a.divideLeft(b));
  });
  c.def("divide_right", [](const LinearLayout &a, const LinearLayout &b) {
    return optionalLayout(a.divideRight(b));
  });
  c.def(
      "remove_zero_bases_along_dim",
      [](const LinearLayout &a, const std::string &d) {
        return a.removeZeroBases(dimName(d, "in dim"));
      },
      py::arg("dim"));
  c.def("remove_zero_bases", [](const LinearLayout &a) { return a.removeZeroBases(); });
  c.def("kernel",
        [](const LinearLayout &a, const std::string &n) { return a.kernel(dimName(n, "in dim")); });
  c.def("image",
        [](const LinearLayout &a, const std::string &n) { return a.image(dimName(n, "in dim")); });
  c.def("equal_ignoring_out_dim_sizes", &LinearLayout::equalIgnoringOutDimSizes);

  c.addRawMethods();
  // ==, !=, hash, repr and str are slots of the type (LayoutObject.cpp).
  c.def("__copy__", [](py::object self) { return self; });
  c.def("__deepcopy__", [](py::object self, py::handle) { return self; });
  // Pickled as Triton's binding state: bases and out dims, rebuilt by from_bases.
  c.def("__getstate__",
        [](const LinearLayout &a) { return py::make_tuple(basesOf(a), dimsOf(a.outDims())); });
  c.def("__reduce__", [](py::handle self) {
    return py::make_tuple(py::handle(reinterpret_cast<PyObject *>(layoutType())), py::tuple(),
                          self.attr("__getstate__")());
  });

  // Pictures: Triton's text views, and SVG for notebooks.
  c.def(
      "get_distributed_view",
      [](const LinearLayout &a, bool hw) { return view(a, hw, 32, 32, 16); },
      py::arg("useHWPointOfView") = false);
  c.def(
      "get_shared_view", [](const LinearLayout &a, bool hw) { return view(a, hw, 32, 32, 16); },
      py::arg("useHWPointOfView") = false);
  // Jupyter shows the text form where there is no picture (too many bits, other dim names).
  // The C++ call's own time, for bench/python: ns per invertAndCompose over `iterations` calls.
  m.def("_time_invert_and_compose",
        [](const LinearLayout &a, const LinearLayout &b, int64_t iterations) {
          auto t0 = std::chrono::steady_clock::now();
          size_t sink = 0;
          for (int64_t i = 0; i < iterations; ++i) {
            auto c = a.invertAndCompose(b);
            sink += c.ok() ? c->column(0) : 1;
          }
          auto t1 = std::chrono::steady_clock::now();
          volatile size_t keep = sink;
          (void)keep;
          return std::chrono::duration<double, std::nano>(t1 - t0).count() / double(iterations);
        });
  c.def("_repr_svg_", [](const LinearLayout &a) -> std::optional<std::string> {
    if (!OwnerMap::build(a).ok())
      return std::nullopt;
    return svgOf(a, 16, "", 32, 32);
  });
  c.def("svg", &svgOf, py::arg("bitwidth") = 16, py::arg("title") = "", py::arg("max_rows") = 32,
        py::arg("max_cols") = 32);
}

} // namespace linlayout::python
