// linlayout._jit: tile IR (or a Triton TTGIR dump) to PTX with the options of
// `linlayout compile`, and on a GPU, compiled kernels launched on device arrays. A separate module
// from _core because it links lower/ (LLVM) and runtime/: `import linlayout` never loads it.
#include "linlayout/ir/Parser.h"
#include "linlayout/ir/Pipeline.h"
#include "linlayout/jit/Compiler.h"
#include "linlayout/layout/ConversionPlan.h"
#include "linlayout/lower/Lower.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;

namespace linlayout::python {
namespace {

template <typename T> T unwrap(Expected<T> e) {
  if (!e.ok())
    throw py::value_error(e.message());
  return std::move(*e);
}

void check(const Status &s) {
  if (!s.ok())
    throw py::value_error(s.message());
}

/// The options of `linlayout compile` (and jit::CompileOptions), as Python keywords.
struct Options {
  std::optional<std::string> target;
  std::string kernel;
  bool passes = true;
  int numStages = 0;
  int prefetchK = 16;
  bool optimize = true;
  bool annotate = false;
  bool fpFusion = true;
  std::optional<std::string> conversionPath;
};

/// An encoded TMA descriptor, with the parameter facts it was encoded for (box, swizzle, element
/// type), so a launch can refuse a map made for another parameter.
struct TensorMapArg {
  runtime::TensorMap map;
  std::vector<uint32_t> box;
  int swizzleBytes = 0;
  std::string element;

  bool fits(const lower::KernelParam &p) const {
    return p.box == box && p.swizzleBytes == swizzleBytes && p.element == element;
  }
  std::string describe() const {
    std::string s = "a tensor map of " + element + " boxes [";
    for (size_t i = 0; i < box.size(); ++i)
      s += (i ? ", " : "") + std::to_string(box[i]);
    return s + "], swizzle " + std::to_string(swizzleBytes);
  }
};

TensorMapArg tensorMapFacts(const lower::KernelParam &p) {
  return {runtime::TensorMap{}, p.box, p.swizzleBytes, p.element};
}

std::optional<ConversionPath> pathOf(const std::optional<std::string> &name) {
  if (!name)
    return std::nullopt;
  auto p = parseConversionPath(*name);
  if (!p)
    throw py::value_error("conversion_path '" + name->substr(0, 40) +
                          "' is not one of register_permute, warp_shuffle, shared_memory, "
                          "distributed_shared_memory");
  return p;
}

const char *kindName(lower::ParamKind k) {
  switch (k) {
  case lower::ParamKind::GlobalPointer:
    return "pointer";
  case lower::ParamKind::Int:
    return "int";
  case lower::ParamKind::Float:
    return "float";
  case lower::ParamKind::TensorMap:
    return "tensor_map";
  }
  return "?";
}

py::list paramsOf(const std::vector<lower::KernelParam> &params) {
  py::list out;
  for (const lower::KernelParam &p : params) {
    py::dict d;
    d["name"] = p.name;
    d["kind"] = kindName(p.kind);
    d["bits"] = p.bits;
    d["alignment"] = p.alignment;
    if (p.kind == lower::ParamKind::TensorMap) {
      d["box"] = p.box;
      d["swizzle_bytes"] = p.swizzleBytes;
      d["element"] = p.element;
    }
    out.append(d);
  }
  return out;
}

py::list conversionsOf(const std::vector<lower::ConversionReport> &cs) {
  py::list out;
  for (const lower::ConversionReport &c : cs) {
    py::dict d;
    d["where"] = c.where;
    d["path"] = c.path;
    d["shuffles"] = c.shuffles;
    d["shared_stores"] = c.sharedStores;
    d["shared_loads"] = c.sharedLoads;
    d["barriers"] = c.barriers;
    d["scratch_bytes"] = c.scratchBytes;
    out.append(d);
  }
  return out;
}

// `linlayout compile`: parse, the pass pipeline, lower to PTX. Needs no GPU.
py::dict compilePtx(const std::string &text, const Options &o, const std::string &fileName) {
  ir::Module module = unwrap(ir::parseModule(text, fileName));
  lower::LowerOptions lo;
  if (o.target)
    lo.target = unwrap(lower::PtxTarget::parse(*o.target));
  lo.kernel = o.kernel;
  lo.optimize = o.optimize;
  lo.annotateConversions = o.annotate;
  lo.fpFusion = o.fpFusion;
  lo.conversionPath = pathOf(o.conversionPath);
  if (o.passes) {
    ir::PipelineOptions po;
    po.numStages = o.numStages;
    po.prefetchK = o.prefetchK;
    check(ir::runPipeline(module, po));
  }
  Expected<lower::LoweredKernel> lowered = [&] {
    py::gil_scoped_release release;
    return lower::lowerKernel(module, lo);
  }();
  lower::LoweredKernel k = unwrap(std::move(lowered));
  py::dict d;
  d["ptx"] = k.kernel.ptx;
  d["name"] = k.kernel.name;
  d["target"] = std::string(k.kernel.target.name());
  d["threads_per_block"] = k.kernel.threadsPerBlock;
  d["shared_bytes"] = k.kernel.sharedBytes;
  d["ctas_per_cluster"] = k.kernel.ctasPerCluster;
  d["params"] = paramsOf(k.kernel.params);
  d["conversions"] = conversionsOf(k.conversions);
  return d;
}

// A device address from a Python object: __cuda_array_interface__ (CuPy, Numba, PyTorch) or
// DLPack (__dlpack__ of a CUDA array); plain integers are refused so a host value cannot pass
// for a pointer by mistake.
uint64_t deviceAddress(const py::handle &obj, size_t index) {
  if (py::hasattr(obj, "__cuda_array_interface__")) {
    py::dict cai = obj.attr("__cuda_array_interface__");
    py::tuple data = cai["data"];
    return data[0].cast<uint64_t>();
  }
  if (py::hasattr(obj, "__dlpack_device__") && py::hasattr(obj, "data_ptr")) {
    py::tuple dev = obj.attr("__dlpack_device__")();
    int type = dev[0].cast<int>();
    if (type != 2 && type != 3) // kDLCUDA, kDLCUDAHost
      throw py::type_error("argument " + std::to_string(index) +
                           " is not on a CUDA device (DLPack device type " + std::to_string(type) +
                           ")");
    return obj.attr("data_ptr")().cast<uint64_t>();
  }
  throw py::type_error("argument " + std::to_string(index) +
                       " is for a global pointer: give a CUDA array (__cuda_array_interface__ "
                       "or DLPack, e.g. a torch.Tensor on the GPU), not " +
                       std::string(py::str(obj.get_type().attr("__name__"))));
}

jit::KernelArg argFor(const lower::KernelParam &p, const py::handle &obj, size_t index) {
  jit::KernelArg a;
  a.kind = p.kind;
  a.bits = p.bits;
  switch (p.kind) {
  case lower::ParamKind::GlobalPointer:
    a.raw = deviceAddress(obj, index);
    return a;
  case lower::ParamKind::Int: {
    if (py::isinstance<py::bool_>(obj) || !py::isinstance<py::int_>(obj))
      throw py::type_error("argument " + std::to_string(index) + " ('" + p.name + "') is " +
                           jit::describe(p.kind, p.bits) + ": give an int");
    // Any value of the width, signed or unsigned, keeps its low bits.
    py::int_ v = py::reinterpret_borrow<py::int_>(obj);
    uint64_t raw = PyLong_AsUnsignedLongLongMask(v.ptr());
    a.raw = p.bits >= 64 ? raw : raw & ((uint64_t(1) << p.bits) - 1);
    return a;
  }
  case lower::ParamKind::Float: {
    if (!py::isinstance<py::float_>(obj) && !py::isinstance<py::int_>(obj))
      throw py::type_error("argument " + std::to_string(index) + " ('" + p.name + "') is " +
                           jit::describe(p.kind, p.bits) + ": give a float");
    double v = obj.cast<double>();
    if (p.bits == 32) {
      float f = float(v);
      std::memcpy(&a.raw, &f, 4);
    } else {
      std::memcpy(&a.raw, &v, 8);
    }
    return a;
  }
  case lower::ParamKind::TensorMap: {
    // linlayout.jit turns tensors and descriptors into TensorMaps; here only the map is taken.
    if (!py::isinstance<TensorMapArg>(obj))
      throw py::type_error("argument " + std::to_string(index) + " ('" + p.name + "') is " +
                           tensorMapFacts(p).describe() +
                           ": give a jit.TensorDescriptor, a CUDA tensor or a TensorMap, not " +
                           std::string(py::str(obj.get_type().attr("__name__"))));
    const auto &m = obj.cast<const TensorMapArg &>();
    if (!m.fits(p))
      throw py::type_error("argument " + std::to_string(index) + " ('" + p.name + "') is " +
                           tensorMapFacts(p).describe() + ", got " + m.describe());
    a.bits = 1024;
    a.map = m.map;
    return a;
  }
  }
  return a;
}

// The tensor map for tensor-map parameter `index` over a tensor at `address` with `dims` and byte
// strides of every dim but the last (outermost first); box, swizzle and element type are the
// kernel's.
TensorMapArg encodeFor(const jit::Kernel &k, int64_t index, uint64_t address,
                       std::vector<uint64_t> dims, std::vector<uint64_t> strideBytes) {
  const auto &params = k.metadata().params;
  if (index < 0 || size_t(index) >= params.size())
    throw py::value_error("the kernel has " + std::to_string(params.size()) +
                          " parameters, not one at " + std::to_string(index));
  const lower::KernelParam &p = params[size_t(index)];
  if (p.kind != lower::ParamKind::TensorMap)
    throw py::type_error("parameter " + std::to_string(index) + " ('" + p.name + "') is " +
                         jit::describe(p.kind, p.bits) + ", not a tensor map");
  TensorMapArg m = tensorMapFacts(p);
  m.map = unwrap(jit::encodeTensorMapFor(p, address, std::move(dims), std::move(strideBytes)));
  return m;
}

class PyCompiler {
public:
  explicit PyCompiler(int ordinal) : c_(unwrap(jit::Compiler::create(ordinal))) {}

  std::shared_ptr<const jit::Kernel> compile(const std::string &text, const Options &o,
                                             const std::string &fileName) {
    jit::CompileOptions co;
    co.kernel = o.kernel;
    co.runPasses = o.passes;
    co.numStages = o.numStages;
    co.prefetchK = o.prefetchK;
    co.optimize = o.optimize;
    co.annotateConversions = o.annotate;
    co.fpFusion = o.fpFusion;
    co.conversionPath = pathOf(o.conversionPath);
    if (o.target && *o.target != c_.arch())
      throw py::value_error("this GPU takes " + c_.arch() + " kernels, not " + *o.target +
                            " (compile_ptx compiles for any target)");
    return unwrap(c_.compile(text, co, fileName));
  }
  std::string arch() const { return c_.arch(); }
  py::dict stats() const {
    jit::CacheStats s = c_.cacheStats();
    py::dict d;
    d["entries"] = s.entries;
    d["hits"] = s.hits;
    d["misses"] = s.misses;
    return d;
  }

private:
  jit::Compiler c_;
};

runtime::Dim3 gridOf(const py::object &grid) {
  runtime::Dim3 g;
  if (py::isinstance<py::int_>(grid)) {
    g.x = grid.cast<unsigned>();
    return g;
  }
  auto v = grid.cast<std::vector<int64_t>>();
  if (v.empty() || v.size() > 3)
    throw py::value_error("grid has " + std::to_string(v.size()) + " dimensions, expected 1 to 3");
  for (int64_t x : v)
    if (x < 1 || x > (int64_t(1) << 31) - 1)
      throw py::value_error("grid size " + std::to_string(x) + " is out of range");
  g.x = unsigned(v[0]);
  if (v.size() > 1)
    g.y = unsigned(v[1]);
  if (v.size() > 2)
    g.z = unsigned(v[2]);
  return g;
}

// `stream` is a CUstream handle (0: the legacy default stream); linlayout.jit takes it from a
// torch.cuda.Stream or anything with __cuda_stream__.
void launch(const jit::Kernel &k, const py::object &grid, const py::args &args, uint64_t stream) {
  const auto &params = k.metadata().params;
  if (args.size() != params.size())
    throw py::type_error("the kernel takes " + std::to_string(params.size()) + " arguments, got " +
                         std::to_string(args.size()));
  std::vector<jit::KernelArg> kargs;
  for (size_t i = 0; i < args.size(); ++i)
    kargs.push_back(argFor(params[i], args[i], i));
  runtime::Dim3 g = gridOf(grid);
  runtime::Stream s = runtime::Stream::borrow(reinterpret_cast<runtime::CUstream>(stream));
  Status status = [&] {
    py::gil_scoped_release release;
    return k.launchArgs(g, kargs, s);
  }();
  check(status);
}

py::dict metadataOf(const jit::Kernel &k) {
  const jit::KernelMetadata &m = k.metadata();
  py::dict d;
  d["name"] = m.name;
  d["target"] = m.target;
  d["compute_capability"] = m.computeCapability;
  d["threads_per_block"] = m.threadsPerBlock;
  d["dynamic_shared_bytes"] = m.dynamicSharedBytes;
  d["ctas_per_cluster"] = m.ctasPerCluster;
  d["params"] = paramsOf(m.params);
  d["conversions"] = conversionsOf(m.conversions);
  d["registers"] = m.registers;
  d["local_bytes"] = m.localBytes;
  d["ctas_per_sm"] = m.ctasPerSm;
  d["lower_ms"] = m.lowerMs;
  d["jit_ms"] = m.jitMs;
  return d;
}

} // namespace
} // namespace linlayout::python

PYBIND11_MODULE(_jit, m) {
  using namespace linlayout::python;
  namespace jit = linlayout::jit;
  m.doc() = "linlayout's compiler (tile IR / TTGIR -> PTX) and kernel launcher";
  py::class_<Options>(m, "Options")
      .def(py::init([](std::optional<std::string> target, std::string kernel, bool passes,
                       int numStages, int prefetchK, bool optimize, bool annotate, bool fpFusion,
                       std::optional<std::string> conversionPath) {
             if (numStages < 0 || numStages > 99)
               throw py::value_error("num_stages is " + std::to_string(numStages) +
                                     ", expected 0 to 99");
             if (prefetchK < 0 || prefetchK > 999)
               throw py::value_error("prefetch_k is " + std::to_string(prefetchK) +
                                     ", expected 0 to 999");
             return Options{target,   kernel,   passes,   numStages,     prefetchK,
                            optimize, annotate, fpFusion, conversionPath};
           }),
           py::arg("target") = py::none(), py::arg("kernel") = "", py::arg("passes") = true,
           py::arg("num_stages") = 0, py::arg("prefetch_k") = 16, py::arg("optimize") = true,
           py::arg("annotate") = false, py::arg("fp_fusion") = true,
           py::arg("conversion_path") = py::none());
  m.def("compile_ptx", &compilePtx, py::arg("text"), py::arg("options"),
        py::arg("file_name") = "<input>");
  py::class_<TensorMapArg>(m, "TensorMap",
                           "An encoded TMA descriptor for one tensor-map parameter of a kernel")
      .def_readonly("box", &TensorMapArg::box)
      .def_readonly("swizzle_bytes", &TensorMapArg::swizzleBytes)
      .def_readonly("element", &TensorMapArg::element)
      .def("__repr__", [](const TensorMapArg &m) { return "<" + m.describe() + ">"; });

  py::class_<jit::Kernel, std::shared_ptr<jit::Kernel>>(m, "Kernel")
      .def_property_readonly("ptx", &jit::Kernel::ptx)
      .def_property_readonly("metadata", &metadataOf)
      .def("launch", &launch, py::arg("grid"), py::arg("stream") = 0)
      .def("tensor_map", &encodeFor, py::arg("index"), py::arg("address"), py::arg("dims"),
           py::arg("stride_bytes"));
  py::class_<PyCompiler>(m, "Compiler")
      .def(py::init<int>(), py::arg("device") = 0)
      .def(
          "compile",
          [](PyCompiler &c, const std::string &text, const Options &o,
             const std::string &fileName) {
            return std::const_pointer_cast<jit::Kernel>(c.compile(text, o, fileName));
          },
          py::arg("text"), py::arg("options"), py::arg("file_name") = "<input>")
      .def_property_readonly("arch", &PyCompiler::arch)
      .def("cache_stats", &PyCompiler::stats);
}
