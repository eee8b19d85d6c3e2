"""Compile tile IR or a Triton TTGIR dump to PTX, with the options of ``linlayout compile``, and
on a GPU, launch the kernel on device arrays (torch tensors, or anything with
``__cuda_array_interface__`` or DLPack), each argument checked against the kernel's parameters.

    from linlayout import jit
    ptx = jit.compile_ptx("examples/memcpy_1d.tir", target="sm_90").ptx   # no GPU needed
    k = jit.compile("examples/memcpy_1d.tir")                             # for this GPU
    k[(n + 1023) // 1024](src, dst, n)

Kernels are cached by IR text, target and options. Needs the ``_jit`` module, which is built
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


class Kernel:
    """A compiled, loaded kernel: ``ptx``, ``metadata`` (threads, shared memory, registers,
    parameters, ...). ``k[grid](*args)`` or ``k.launch(grid, *args)`` launches it on the
    default stream (``grid`` an int or up to three ints)."""

    def __init__(self, kernel):
        self._k = kernel

    @property
    def ptx(self):
        return self._k.ptx

    @property
    def metadata(self):
        return self._k.metadata

    def launch(self, grid, *args):
        self._k.launch(grid, *args)

    def __getitem__(self, grid):
        return lambda *args: self._k.launch(grid, *args)


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
        text, name = _text(ir)
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
