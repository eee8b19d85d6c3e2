"""The CUDA driver API through ctypes, for the bench scripts that load our PTX themselves
(gemm_same_harness.py, wgmma_rate.py): the library, opened on first use (so that a script's PTX
can be written where there is no driver), an error check that names the driver's error, and a
kernel loaded from PTX text with its dynamic shared memory allowed."""
import ctypes
import functools

MAX_DYNAMIC_SHARED = 8  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES


@functools.cache
def driver():
    return ctypes.CDLL("libcuda.so.1")


def check(result, what):
    if result != 0:
        name = ctypes.c_char_p()
        driver().cuGetErrorName(result, ctypes.byref(name))
        raise RuntimeError(f"{what}: {name.value.decode() if name.value else result}")


def load_function(ptx, name, shared):
    """(module, function): kernel `name` of the PTX text `ptx`, allowed `shared` bytes of dynamic
    shared memory."""
    cuda = driver()
    module, fn = ctypes.c_void_p(), ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(ptx.encode())),
          "cuModuleLoadData")
    check(cuda.cuModuleGetFunction(ctypes.byref(fn), module, name.encode()), "cuModuleGetFunction")
    check(cuda.cuFuncSetAttribute(fn, MAX_DYNAMIC_SHARED, shared), "cuFuncSetAttribute")
    return module, fn
