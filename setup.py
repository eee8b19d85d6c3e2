"""Builds the linlayout Python package: setuptools runs CMake for the extension modules only
(`_core`; `_jit` too when LINLAYOUT_PYTHON_JIT=1 and LLVM 19 is present), not the whole tree,
its tests or its benchmarks. Metadata lives in pyproject.toml."""
import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name, target):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        out_pkg = os.path.dirname(os.path.abspath(self.get_ext_fullpath(ext.name)))
        jit = os.environ.get("LINLAYOUT_PYTHON_JIT") == "1"
        build_dir = os.path.join(HERE, "build", "pip-py%d%d" % sys.version_info[:2])
        config = [
            "cmake", "-S", HERE, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
            "-DLINLAYOUT_BUILD_TESTS=OFF", "-DLINLAYOUT_BUILD_BENCH=OFF",
            "-DLINLAYOUT_BUILD_LOWER=" + ("ON" if jit else "OFF"),
            "-DPython_EXECUTABLE=" + sys.executable,
            "-DLINLAYOUT_PYTHON_DIR=" + os.path.dirname(out_pkg),
        ]
        if subprocess.call(["ninja", "--version"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL) == 0:
            config += ["-G", "Ninja"]
        subprocess.check_call(config)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", ext.target, "-j",
                               str(os.cpu_count() or 2)])


exts = [CMakeExtension("linlayout._core", "_core")]
if os.environ.get("LINLAYOUT_PYTHON_JIT") == "1":
    exts.append(CMakeExtension("linlayout._jit", "_jit"))

setup(
    packages=["linlayout", "linlayout.testing"],
    package_dir={"": "python"},
    ext_modules=exts,
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
