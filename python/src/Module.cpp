// linlayout._core: the layout algebra, specs, plans and pictures. Needs no GPU, CUDA or LLVM;
// the compiler and launcher are the separate linlayout._jit module.
#include "PyCommon.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "linlayout's layout algebra, hardware layouts, conversion plans and pictures";
  linlayout::python::addLinearLayout(m);
  linlayout::python::addQuery(m);
}
