# The compiler and launcher (linlayout.jit): PTX without a GPU; launches, argument checks and the
# cache on a GPU, skipped (saying why) where there is none.
import os

import pytest

from linlayout import jit
from conftest import SOURCE_DIR

pytestmark = pytest.mark.skipif(not jit.available(),
                                reason="this build has no compiler (lower/ needs LLVM 19)")
MEMCPY = os.path.join(SOURCE_DIR, "examples", "memcpy_1d.tir")
TTGIR = os.path.join(SOURCE_DIR, "examples", "triton", "add.ttgir")


def test_compile_ptx_without_a_gpu():
    for target in ("sm_80", "sm_90"):
        c = jit.compile_ptx(MEMCPY, target=target)
        assert ".entry memcpy_1d" in c.ptx and c.target == target
        assert [p["kind"] for p in c.params] == ["pointer", "pointer", "int"]
        assert c.threads_per_block == 128
    assert ".entry" in jit.compile_ptx(open(MEMCPY).read(), passes=False, optimize=False).ptx
    if os.path.exists(TTGIR):
        assert ".entry" in jit.compile_ptx(TTGIR).ptx


def test_compile_errors_are_value_errors():
    with pytest.raises(ValueError, match="<input>"):
        jit.compile_ptx("module { tt.func public @k() { nonsense } }")
    with pytest.raises(ValueError):
        jit.compile_ptx(MEMCPY, target="sm_12")
    with pytest.raises(ValueError):
        jit.compile_ptx(MEMCPY, conversion_path="teleport")


@pytest.fixture(scope="module")
def gpu():
    try:
        return jit.Compiler()
    except ValueError as e:
        pytest.skip("no GPU: " + str(e))


def test_gpu_launch_on_torch_tensors(gpu):
    torch = pytest.importorskip("torch", reason="torch is not installed")
    k = gpu.compile(MEMCPY)
    assert gpu.compile(MEMCPY) is k  # cached by IR text, target and options
    n = 5000
    src = torch.arange(n, dtype=torch.float32, device="cuda")
    dst = torch.zeros(n, dtype=torch.float32, device="cuda")
    k[(n + 1023) // 1024](src, dst, n)
    torch.cuda.synchronize()
    assert torch.equal(src, dst)
    assert k.metadata["registers"] > 0 and k.metadata["threads_per_block"] == 128
    with pytest.raises(TypeError, match="global pointer"):
        k[1](src.data_ptr(), dst, n)
    with pytest.raises(TypeError, match="arguments"):
        k[1](src, dst)
    with pytest.raises(TypeError, match="int"):
        k[1](src, dst, 1.5)
    with pytest.raises(TypeError, match="CUDA"):
        k[1](torch.zeros(4), dst, n)


def test_gpu_launch_on_cuda_array_interface(gpu):
    torch = pytest.importorskip("torch", reason="torch is not installed")

    class Array:  # the smallest __cuda_array_interface__ producer
        def __init__(self, t):
            self.t = t
            self.__cuda_array_interface__ = {"data": (t.data_ptr(), False), "shape": (t.numel(),),
                                             "typestr": "<f4", "version": 3}

    n = 2048
    src = torch.randn(n, device="cuda")
    dst = torch.empty(n, device="cuda")
    gpu.compile(MEMCPY).launch(n // 1024, Array(src), Array(dst), n)
    torch.cuda.synchronize()
    assert torch.equal(src, dst)
