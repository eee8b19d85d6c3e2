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
TMA = os.path.join(SOURCE_DIR, "examples", "tma_copy.tir")


class FakeArray:
    """A __cuda_array_interface__ producer that needs no GPU (nothing reads its address)."""

    def __init__(self, shape, typestr="<f2", strides=None):
        self.__cuda_array_interface__ = {"data": (1 << 20, False), "shape": tuple(shape),
                                         "typestr": typestr, "strides": strides, "version": 3}


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


def test_tensor_map_parameters_and_streams_are_checked_without_a_gpu():
    c = jit.compile_ptx(TMA, target="sm_90")
    assert [(p["kind"], p["box"], p["element"]) for p in c.params] == [
        ("tensor_map", [64, 64], "f16")] * 2
    d = jit.TensorDescriptor(FakeArray([200, 328]), block_shape=[64, 64])
    assert d.shape == [200, 328] and d.strides == [328, 1]
    assert jit._array(FakeArray([4, 8], "<f4", (64, 4)), "x")[1:] == ([4, 8], [16, 1], "f32", 4)
    with pytest.raises(TypeError, match="not a CUDA array"):
        jit.TensorDescriptor([1, 2])
    assert jit._stream(None) == 0 and jit._stream(7) == 7

    class TorchLikeStream:
        cuda_stream = 1234

    class ProtocolStream:
        def __cuda_stream__(self):
            return (0, 99)

    assert jit._stream(TorchLikeStream()) == 1234 and jit._stream(ProtocolStream()) == 99
    for bad in ("default", True, 1.5):
        with pytest.raises(TypeError, match="stream"):
            jit._stream(bad)


class FakeKernel:
    """The _jit.Kernel surface jit.Kernel uses, recording what it is asked (no GPU)."""

    def __init__(self, params):
        self.metadata = {"params": params}
        self.maps = []

    def tensor_map(self, index, address, dims, stride_bytes):
        self.maps.append((index, address, dims, stride_bytes))
        return "map%d" % index

    def launch(self, grid, *args, stream=0):
        self.launched = (grid, args, stream)


def test_tensor_map_arguments_are_encoded_and_checked_without_a_gpu():
    fake = FakeKernel(jit.compile_ptx(TMA, target="sm_90").params)
    k = jit.Kernel(fake)

    class TorchLikeStream:
        cuda_stream = 1234

    k[(6, 4)](jit.TensorDescriptor(FakeArray([200, 328]), block_shape=[64, 64]),
              FakeArray([200, 328]), stream=TorchLikeStream())
    assert fake.maps == [(0, 1 << 20, [200, 328], [656]), (1, 1 << 20, [200, 328], [656])]
    assert fake.launched == ((6, 4), ("map0", "map1"), 1234)
    # A row-strided view: 64 of 256 columns.
    k.tensor_map("out", jit.TensorDescriptor(FakeArray([100, 64], strides=(512, 2))))
    assert fake.maps[-1] == (1, 1 << 20, [100, 64], [512])
    with pytest.raises(TypeError, match="f16"):
        k[1](FakeArray([64, 64], "<f4"), FakeArray([64, 64]))
    with pytest.raises(ValueError, match="innermost stride"):
        k[1](FakeArray([64, 64], strides=(2, 128)), FakeArray([64, 64]))
    with pytest.raises(ValueError, match="block_shape"):
        k[1](jit.TensorDescriptor(FakeArray([64, 64]), block_shape=[32, 64]), FakeArray([64, 64]))
    with pytest.raises(ValueError, match="no parameter"):
        k.tensor_map("nosuch", FakeArray([64, 64]))


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
    assert gpu.compile(MEMCPY, target=gpu.arch) is k
    assert gpu.compile(open(MEMCPY).read()) is k
    assert gpu.compile(MEMCPY, optimize=False) is not k
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


def test_gpu_launch_on_a_stream(gpu):
    torch = pytest.importorskip("torch", reason="torch is not installed")
    k = gpu.compile(MEMCPY)
    n = 1 << 20
    src = torch.randn(n, device="cuda")
    dst = torch.zeros(n, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    k[n // 1024](src, dst, n, stream=s)
    s.synchronize()
    assert torch.equal(src, dst)
    dst.zero_()
    torch.cuda.synchronize()
    k.launch(n // 1024, src, dst, n, stream=s.cuda_stream)
    s.synchronize()
    assert torch.equal(src, dst)
    with pytest.raises(TypeError, match="stream"):
        k[1](src, dst, n, stream="s")


def test_gpu_tma_descriptors(gpu):
    torch = pytest.importorskip("torch", reason="torch is not installed")
    if int(gpu.arch[3:]) < 90:
        pytest.skip("TMA needs sm_90, this GPU is " + gpu.arch)
    k = gpu.compile(TMA)
    rows, cols = 200, 328  # neither a multiple of the 64x64 box
    grid = ((cols + 63) // 64, (rows + 63) // 64)
    src = torch.randn(rows, cols, device="cuda").half()
    dst = torch.zeros_like(src)
    k[grid](jit.TensorDescriptor(src, block_shape=[64, 64]), dst)  # a descriptor, a tensor
    torch.cuda.synchronize()
    assert torch.equal(src, dst)
    # A map encoded once, reused, on a stream.
    m = k.tensor_map("in", src)
    assert m.box == [64, 64] and m.element == "f16"
    s = torch.cuda.Stream()
    for _ in range(2):
        out = torch.zeros_like(src)
        s.wait_stream(torch.cuda.current_stream())
        k[grid](m, out, stream=s)
        s.synchronize()
        assert torch.equal(src, out)
    # A view with a row stride: a 100x64 window of a wider tensor.
    wide = torch.randn(100, 256, device="cuda").half()
    out = torch.zeros(100, 64, device="cuda").half()
    k[(1, 2)](jit.TensorDescriptor(wide[:, 64:128]), out)
    torch.cuda.synchronize()
    assert torch.equal(wide[:, 64:128], out)
    try:  # Triton's own descriptor objects, where Triton is installed
        from triton.tools.tensor_descriptor import TensorDescriptor as TritonDescriptor
    except ImportError:
        TritonDescriptor = None
    if TritonDescriptor is not None:
        out = torch.zeros_like(src)
        k[grid](TritonDescriptor.from_tensor(src, [64, 64]), out)
        torch.cuda.synchronize()
        assert torch.equal(src, out)
    with pytest.raises(TypeError, match="f16"):
        k[grid](src.float(), dst)
    with pytest.raises(ValueError, match="innermost stride"):
        k[grid](src.t(), dst)
    with pytest.raises(ValueError, match="block_shape"):
        k[grid](jit.TensorDescriptor(src, block_shape=[32, 64]), dst)
    with pytest.raises(TypeError, match="tensor map"):
        k[grid](src.data_ptr(), dst)
    with pytest.raises(TypeError, match="tensor map"):
        gpu.compile(MEMCPY).tensor_map(0, src)  # a pointer parameter
    with pytest.raises(ValueError):
        k[grid](torch.zeros(3, 3, device="cuda").half(), dst)  # rows of 6 bytes
