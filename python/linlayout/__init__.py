"""linlayout: GPU tensor layouts as F2-linear maps, from Python.

The algebra (``LinearLayout``, with the names and argument forms of Triton's Python binding),
the hardware layouts under Gluon's class names, bank conflicts, conversion plans and pictures.
None of it needs a GPU, CUDA or LLVM. Compiling and launching kernels lives in ``linlayout.jit``.
"""
from ._core import LinearLayout
from ._layouts import (
    AMDMFMALayout,
    AMDWMMALayout,
    BlockedLayout,
    DistributedLinearLayout,
    DotOperandLayout,
    NVMMADistributedLayout,
    NVMMASharedLayout,
    SharedLinearLayout,
    PaddedSharedLayout,
    TensorMemoryLayout,
    TensorMemoryScalesLayout,
    SliceLayout,
    SwizzledSharedLayout,
    Layout,
    layout_from_json,
    to_linear_layout,
    bank_conflicts,
    get_tmem_reg_layout,
    picture,
)
from ._plan import Plan, plan
from ._query import query

__version__ = "0.1.0"

__all__ = [
    "LinearLayout",
    "BlockedLayout",
    "SliceLayout",
    "NVMMADistributedLayout",
    "AMDMFMALayout",
    "AMDWMMALayout",
    "DotOperandLayout",
    "DistributedLinearLayout",
    "SwizzledSharedLayout",
    "NVMMASharedLayout",
    "SharedLinearLayout",
    "PaddedSharedLayout",
    "TensorMemoryLayout",
    "TensorMemoryScalesLayout",
    "Layout",
    "layout_from_json",
    "to_linear_layout",
    "bank_conflicts",
    "get_tmem_reg_layout",
    "picture",
    "Plan",
    "plan",
    "query",
]
