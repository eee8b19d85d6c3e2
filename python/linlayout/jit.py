"""Compile tile IR or a Triton TTGIR dump to PTX, with the options of ``linlayout compile``, and
on a GPU, launch the kernel on device arrays (torch tensors, or anything with
``__cuda_array_interface__`` or DLPack), each argument checked against the kernel's parameters.

    from linlayout import jit
    ptx = jit.compile_ptx("examples/memcpy_1d.tir", target="sm_90").ptx   # no GPU needed
    k = jit.compile("examples/memcpy_1d.tir")                             # for this GPU
    k[(n + 1023) // 1024](src, dst, n)
    k[(n + 1023) // 1024](src, dst, n, stream=torch.cuda.current_stream())

A tensor-map parameter (``!tt.tensordesc``, a TMA descriptor) takes a ``TensorDescriptor``
(Triton's, with the same fields, too), a CUDA tensor (its own shape and strides), or a
``TensorMap`` made once by ``k.tensor_map(param, tensor)``; the box, swizzle and element type
are the kernel's. Kernels are cached by IR text, target and options. Needs the ``_jit`` module, which is built
where LLVM 19 is (lower/); ``linlayout`` itself never imports it.
"""
import os

try:
    from . import _jit
except ImportError as e:  # a build without lower/ (no LLVM 19)
    _jit = None
    _why = str(e)


def available():
    """Whether this build can compile (it has the ``_jit`` module)."""
    return _jit is not None


def _need():
    if _jit is None:
        raise ImportError("linlayout was built without its compiler (lower/ needs LLVM 19; with "
                          "pip, set LINLAYOUT_PYTHON_JIT=1): " + _why)


def _text(ir):
    """IR text and a file name for error positions: ``ir`` is the text or a path to it."""
    if isinstance(ir, os.PathLike) or (isinstance(ir, str) and "\n" not in ir
                                       and os.path.exists(ir)):
        with open(ir, encoding="utf-8") as f:
            return f.read(), os.fspath(ir)
    if not isinstance(ir, str):
        raise TypeError("expected IR text or a path, got %s" % type(ir).__name__)
    return ir, "<input>"


def _options(target=None, kernel="", passes=True, num_stages=0, prefetch_k=16, optimize=True,
             annotate=False, fp_fusion=True, conversion_path=None):
    _need()
    key = (target, kernel, passes, num_stages, prefetch_k, optimize, annotate, fp_fusion,
           conversion_path)
    return _jit.Options(*key), key


class Compiled:
    """What ``compile_ptx`` answers: ``ptx``, ``name``, ``target``, ``threads_per_block``,
    ``shared_bytes``, ``ctas_per_cluster``, ``params`` and ``conversions`` (how each
    convert_layout was lowered)."""

    def __init__(self, facts):
        self.__dict__.update(facts)

    def __repr__(self):
        return "Compiled(name=%r, target=%r, threads_per_block=%r, shared_bytes=%r)" % (
            self.name, self.target, self.threads_per_block, self.shared_bytes)


def compile_ptx(ir, **options):
    """PTX of a tile-IR or TTGIR kernel (text or path), as ``linlayout compile`` makes it:
    options ``target`` ("sm_80", "sm_90"; default the module's ``ttg.target``), ``kernel``,
    ``passes`` (False: ``--no-passes``), ``num_stages``, ``prefetch_k``, ``optimize`` (False:
    ``--O0``), ``annotate``, ``fp_fusion``, ``conversion_path``. Needs no GPU.
    Raises ValueError with the compiler's message."""
    text, name = _text(ir)
    opts, _ = _options(**options)
    return Compiled(_jit.compile_ptx(text, opts, name))


# IR element types (lower/'s KernelParam.element) of torch dtypes and __cuda_array_interface__
# typestrs; a dtype not here is checked by its size alone.
_TORCH_ELEMENTS = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
                   "int8": "i8", "uint8": "i8", "int16": "i16", "uint16": "i16", "int32": "i32",
                   "uint32": "i32", "int64": "i64", "uint64": "i64"}
_CAI_ELEMENTS = {"f2": "f16", "f4": "f32", "f8": "f64", "i1": "i8", "u1": "i8", "i2": "i16",
                 "u2": "i16", "i4": "i32", "u4": "i32", "i8": "i64", "u8": "i64"}
_ELEMENT_BYTES = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "f16": 2, "bf16": 2, "f32": 4, "f64": 8}


class TensorDescriptor:
    """A tensor in global memory for a tensor-map parameter: the device array ``base``, its
    ``shape`` and ``strides`` in elements, outermost first (default: the array's own), and
    ``block_shape``, which when given must be the kernel's box. The fields of Triton's
    ``triton.tools.tensor_descriptor.TensorDescriptor``, whose objects are taken as well."""

    def __init__(self, base, shape=None, strides=None, block_shape=None):
        facts = _array(base, "base")
        self.base = base
        self.shape = list(facts[1] if shape is None else shape)
        self.strides = list(facts[2] if strides is None else strides)
        self.block_shape = None if block_shape is None else list(block_shape)

    def __repr__(self):
        return "TensorDescriptor(shape=%r, strides=%r, block_shape=%r)" % (
            self.shape, self.strides, self.block_shape)


def _array(obj, what):
    """(address, shape, strides in elements, IR element type or None, bytes per element) of a
    CUDA array: a torch tensor or anything with __cuda_array_interface__."""
    if hasattr(obj, "data_ptr") and hasattr(obj, "stride") and hasattr(obj, "dtype"):
        if not getattr(obj, "is_cuda", False):
            raise TypeError("%s is not on a CUDA device" % what)
        dtype = str(obj.dtype).replace("torch.", "")
        return (obj.data_ptr(), list(obj.shape), list(obj.stride()), _TORCH_ELEMENTS.get(dtype),
                obj.element_size())
    cai = getattr(obj, "__cuda_array_interface__", None)
    if cai is not None:
        typestr = cai["typestr"]
        size = int(typestr[2:])
        shape = list(cai["shape"])
        if cai.get("strides") is None:
            strides, run = [], 1
            for n in reversed(shape):
                strides.insert(0, run)
                run *= n
        else:
            strides = [s // size for s in cai["strides"]]
        return cai["data"][0], shape, strides, _CAI_ELEMENTS.get(typestr[1:]), size
    raise TypeError("%s is a %s, not a CUDA array (a torch.Tensor on the GPU, or "
                    "__cuda_array_interface__)" % (what, type(obj).__name__))


def _stream(stream):
    """The CUstream handle of `stream`: None (the legacy default stream), an int handle, a
    torch.cuda.Stream, or anything with __cuda_stream__."""
    if stream is None:
        return 0
    if isinstance(stream, int) and not isinstance(stream, bool):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    handle = getattr(stream, "cuda_stream", None)
    if isinstance(handle, int):
        return handle
    raise TypeError("stream is a %s: give a torch.cuda.Stream, an object with __cuda_stream__, "
                    "a CUstream handle (int) or None" % type(stream).__name__)


class Kernel:
    """A compiled, loaded kernel: ``ptx``, ``metadata`` (threads, shared memory, registers,
    parameters, ...). ``k[grid](*args)`` or ``k.launch(grid, *args)`` launches it (``grid`` an
    int or up to three ints; ``stream=`` a torch.cuda.Stream, an object with ``__cuda_stream__``
    or a CUstream handle; default the legacy default stream). Every argument is checked against
    its parameter before anything launches: TypeError names the first that does not fit."""

    def __init__(self, kernel):
        self._k = kernel
        self._params = kernel.metadata["params"]
        self._maps = [i for i, p in enumerate(self._params) if p["kind"] == "tensor_map"]

    @property
    def ptx(self):
        return self._k.ptx

    @property
    def metadata(self):
        return self._k.metadata

    def _param(self, param):
        if isinstance(param, str):
            for i, p in enumerate(self._params):
                if p["name"] == param:
                    return i
            raise ValueError("the kernel has no parameter '%s'" % param)
        return param

    def tensor_map(self, param, tensor):
        """The TMA descriptor of tensor-map parameter ``param`` (its index or name) over
        ``tensor`` (a TensorDescriptor, Triton's, or a CUDA tensor), for launches that reuse it.
        Raises TypeError for a parameter that is not a tensor map or an element type that is not
        the kernel's, ValueError for shapes and strides the driver refuses."""
        index = self._param(param)
        if isinstance(tensor, _jit.TensorMap):
            return tensor
        p = self._params[index] if 0 <= index < len(self._params) else None
        if p is None or p["kind"] != "tensor_map":
            return self._k.tensor_map(index, 0, [], [])  # the library's error
        what = "argument %d ('%s')" % (index, p["name"])
        # A descriptor has base, shape, strides and block_shape (a CuPy or NumPy array has the
        # first three too, its strides in bytes: it is read as an array instead).
        if all(hasattr(tensor, a) for a in ("base", "shape", "strides", "block_shape")):
            address, _, _, element, size = _array(tensor.base, what + "'s base")
            shape, strides = list(tensor.shape), list(tensor.strides)
            block = tensor.block_shape
            if block is not None and list(block) != list(p["box"]):
                raise ValueError("%s has block_shape %s; the kernel copies boxes of %s" % (
                    what, list(block), list(p["box"])))
        elif hasattr(tensor, "data_ptr") or hasattr(tensor, "__cuda_array_interface__"):
            address, shape, strides, element, size = _array(tensor, what)
        else:
            raise TypeError("%s is a tensor map: give a TensorDescriptor, Triton's, a CUDA tensor "
                            "or a TensorMap, not a %s" % (what, type(tensor).__name__))
        want = p["element"]
        if (element is not None and element != want) or size != _ELEMENT_BYTES.get(want, size):
            raise TypeError("%s is a tensor map of %s: got %s elements" % (
                what, want, element or "%d-byte" % size))
        if len(strides) != len(shape) or not shape:
            raise ValueError("%s has shape %s and strides %s" % (what, shape, strides))
        if strides[-1] != 1:
            raise ValueError("%s has innermost stride %d; a tensor map needs it 1" % (
                what, strides[-1]))
        return self._k.tensor_map(index, address, [int(n) for n in shape],
                                  [int(s) * size for s in strides[:-1]])

    def launch(self, grid, *args, stream=None):
        if self._maps and len(args) == len(self._params):
            args = list(args)
            for i in self._maps:
                args[i] = self.tensor_map(i, args[i])
        self._k.launch(grid, *args, stream=_stream(stream))

    def __getitem__(self, grid):
        return lambda *args, stream=None: self.launch(grid, *args, stream=stream)


class Compiler:
    """Compiles for one GPU (``device``), caching kernels by IR text, target and options.
    Raises ValueError where there is no CUDA driver or no such GPU."""

    def __init__(self, device=0):
        _need()
        self._c = _jit.Compiler(device)
        self._cache = {}

    @property
    def arch(self):
        return self._c.arch

    def compile(self, ir, **options):
        """The Kernel of ``ir`` (text or path) for this GPU, compiled once per IR text, target
        (default: this GPU's) and options."""
        text, name = _text(ir)
        if options.get("target") is None:
            options["target"] = self.arch
        opts, key = _options(**options)
        k = self._cache.get((text, key))
        if k is None:
            k = self._cache[(text, key)] = Kernel(self._c.compile(text, opts, name))
        return k

    def cache_stats(self):
        return self._c.cache_stats()


_compilers = {}


def compile(ir, device=0, **options):
    """A Kernel for GPU ``device`` (one Compiler per device, made on first use)."""
    c = _compilers.get(device)
    if c is None:
        c = _compilers[device] = Compiler(device)
    return c.compile(ir, **options)
