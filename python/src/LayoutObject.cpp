#include "LayoutObject.h"

#include <new>
#include <string>

namespace linlayout::python {
namespace {

PyTypeObject *gType = nullptr;

LayoutObject *allocate(PyTypeObject *type) {
  auto *o = static_cast<LayoutObject *>(PyObject_Malloc(sizeof(LayoutObject)));
  if (!o) {
    PyErr_NoMemory();
    return nullptr;
  }
  // Takes a reference to the (heap) type, released in dealloc.
  PyObject_Init(reinterpret_cast<PyObject *>(o), type);
  return o;
}

void dealloc(PyObject *self) {
  PyTypeObject *type = Py_TYPE(self);
  reinterpret_cast<LayoutObject *>(self)->value.~LinearLayout();
  PyObject_Free(self);
  Py_DECREF(type);
}

// `LinearLayout()` is the empty layout, as in Triton's binding; everything else is built by the
// static factories.
PyObject *construct(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  if (PyTuple_GET_SIZE(args) != 0 || (kwargs && PyDict_GET_SIZE(kwargs) != 0)) {
    PyErr_SetString(PyExc_TypeError,
                    "LinearLayout() takes no arguments: build layouts with from_bases, "
                    "identity_1d, strided_1d or zeros_1d");
    return nullptr;
  }
  LayoutObject *o = allocate(type);
  if (!o)
    return nullptr;
  new (&o->value) LinearLayout();
  return reinterpret_cast<PyObject *>(o);
}

Py_hash_t hash(PyObject *self) {
  auto h = Py_hash_t(reinterpret_cast<LayoutObject *>(self)->value.hash());
  return h == -1 ? -2 : h; // -1 means "error" to CPython
}

PyObject *compare(PyObject *a, PyObject *b, int op) {
  const LinearLayout *x = layoutOf(a), *y = layoutOf(b);
  if (!x || !y || (op != Py_EQ && op != Py_NE))
    Py_RETURN_NOTIMPLEMENTED;
  return PyBool_FromLong((*x == *y) == (op == Py_EQ));
}

PyObject *text(PyObject *self) {
  try {
    std::string s = reinterpret_cast<LayoutObject *>(self)->value.toString();
    return PyUnicode_FromStringAndSize(s.data(), Py_ssize_t(s.size()));
  } catch (const std::bad_alloc &) {
    return PyErr_NoMemory();
  }
}

PyType_Slot kSlots[] = {
    {Py_tp_dealloc, reinterpret_cast<void *>(&dealloc)},
    {Py_tp_new, reinterpret_cast<void *>(&construct)},
    {Py_tp_free, reinterpret_cast<void *>(&PyObject_Free)},
    {Py_tp_hash, reinterpret_cast<void *>(&hash)},
    {Py_tp_richcompare, reinterpret_cast<void *>(&compare)},
    {Py_tp_repr, reinterpret_cast<void *>(&text)},
    {Py_tp_str, reinterpret_cast<void *>(&text)},
    {Py_tp_doc, const_cast<char *>("An F2-linear map between named power-of-two dimensions "
                                   "(Triton's LinearLayout; immutable).")},
    {0, nullptr},
};

PyType_Spec kSpec = {"linlayout._core.LinearLayout", int(sizeof(LayoutObject)), 0,
                     Py_TPFLAGS_DEFAULT, kSlots};

} // namespace

PyTypeObject *layoutType() { return gType; }

PyObject *newLayout(const LinearLayout &l) {
  LayoutObject *o = allocate(gType);
  if (!o)
    return nullptr;
  new (&o->value) LinearLayout(l);
  return reinterpret_cast<PyObject *>(o);
}

pybind11::handle createLayoutType(pybind11::module_ &m) {
  PyObject *type = PyType_FromSpec(&kSpec);
  if (!type)
    throw pybind11::error_already_set();
  // The module keeps the type alive for the life of the process (gType is never released).
  gType = reinterpret_cast<PyTypeObject *>(type);
  m.add_object("LinearLayout", type);
  return type;
}

} // namespace linlayout::python
