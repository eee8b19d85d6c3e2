"""Hardware layouts under Gluon's class names and constructor arguments
(``triton.experimental.gluon.language``), as values that convert to linear layouts.

Each class holds the fields of the query format's spec (docs/query.md, "Layout specs") and
checks nothing itself: ``to_linear_layout`` hands the spec to the library, whose errors come
back as ValueError naming the field.
"""
import json
from dataclasses import dataclass, field
from typing import List, Optional

from . import _core
from ._core import LinearLayout


def _ints(v):
    return [int(x) for x in v]


def _matrix(v):
    return [[int(x) for x in row] for row in v]


class Layout:
    """What every hardware layout class shares."""

    kind = ""
    distributed = True

    def to_json(self):
        """The query format's spec of this layout (a dict)."""
        raise NotImplementedError

    def to_linear_layout(self, shape):
        return to_linear_layout(self, shape)

    def picture(self, shape, **options):
        return picture(self, shape, **options)

    def svg(self, shape, bitwidth=None, title=""):
        """An SVG picture of the layout over ``shape``."""
        l = to_linear_layout(self, shape)
        if bitwidth is None:
            bitwidth = getattr(self, "element_bitwidth", 16)
        return l.svg(bitwidth=bitwidth, title=title)

    def _repr_svg_(self):
        """Jupyter's picture: only a layout that carries its shape has one (the others need
        ``svg(shape)``); None lets Jupyter show the text form."""
        shape = getattr(self, "shape", None)
        try:
            return self.svg(shape) if shape else None
        except ValueError:
            return None


def _cga_json(self, j):
    if self.cga_layout:
        j["cga_layout"] = _matrix(self.cga_layout)
    elif self.ctas_per_cga is not None:
        j["ctas_per_cga"] = _ints(self.ctas_per_cga)
        j["cta_split_num"] = _ints(self.cta_split_num)
        j["cta_order"] = _ints(self.cta_order)
    return j


@dataclass(frozen=True)
class BlockedLayout(Layout):
    size_per_thread: List[int]
    threads_per_warp: List[int]
    warps_per_cta: List[int]
    order: List[int]
    cga_layout: List[List[int]] = field(default_factory=list)
    ctas_per_cga: Optional[List[int]] = field(default=None, repr=False)
    cta_split_num: Optional[List[int]] = field(default=None, repr=False)
    cta_order: Optional[List[int]] = field(default=None, repr=False)
    kind = "blocked"

    def to_json(self):
        return _cga_json(self, {"kind": "blocked", "size_per_thread": _ints(self.size_per_thread),
                                "threads_per_warp": _ints(self.threads_per_warp),
                                "warps_per_cta": _ints(self.warps_per_cta),
                                "order": _ints(self.order)})


@dataclass(frozen=True)
class SliceLayout(Layout):
    dim: int
    parent: Layout
    kind = "slice"

    def to_json(self):
        return {"kind": "slice", "dim": int(self.dim), "parent": _spec(self.parent)}


@dataclass(frozen=True)
class NVMMADistributedLayout(Layout):
    version: List[int]
    warps_per_cta: List[int]
    instr_shape: List[int]
    cga_layout: List[List[int]] = field(default_factory=list)
    ctas_per_cga: Optional[List[int]] = field(default=None, repr=False)
    cta_split_num: Optional[List[int]] = field(default=None, repr=False)
    cta_order: Optional[List[int]] = field(default=None, repr=False)
    kind = "nvidia_mma"

    def to_json(self):
        return _cga_json(self, {"kind": "nvidia_mma", "version": _ints(self.version),
                                "warps_per_cta": _ints(self.warps_per_cta),
                                "instr_shape": _ints(self.instr_shape)})


@dataclass(frozen=True)
class AMDMFMALayout(Layout):
    version: int
    instr_shape: List[int]
    transposed: bool
    warps_per_cta: List[int]
    element_bitwidth: int = 32
    tiles_per_warp: Optional[List[int]] = None
    cga_layout: List[List[int]] = field(default_factory=list)
    ctas_per_cga: Optional[List[int]] = field(default=None, repr=False)
    cta_split_num: Optional[List[int]] = field(default=None, repr=False)
    cta_order: Optional[List[int]] = field(default=None, repr=False)
    kind = "amd_mfma"

    def to_json(self):
        j = {"kind": "amd_mfma", "version": int(self.version),
             "instr_shape": _ints(self.instr_shape), "transposed": bool(self.transposed),
             "warps_per_cta": _ints(self.warps_per_cta),
             "element_bitwidth": int(self.element_bitwidth)}
        if self.tiles_per_warp is not None:
            j["tiles_per_warp"] = _ints(self.tiles_per_warp)
        return _cga_json(self, j)


@dataclass(frozen=True)
class AMDWMMALayout(Layout):
    version: int
    transposed: bool
    warps_per_cta: List[int]
    instr_shape: Optional[List[int]] = None
    tiles_per_warp: Optional[List[int]] = None
    cga_layout: List[List[int]] = field(default_factory=list)
    ctas_per_cga: Optional[List[int]] = field(default=None, repr=False)
    cta_split_num: Optional[List[int]] = field(default=None, repr=False)
    cta_order: Optional[List[int]] = field(default=None, repr=False)
    kind = "amd_wmma"

    def to_json(self):
        j = {"kind": "amd_wmma", "version": int(self.version),
             "transposed": bool(self.transposed), "warps_per_cta": _ints(self.warps_per_cta)}
        if self.instr_shape is not None:
            j["instr_shape"] = _ints(self.instr_shape)
        if self.tiles_per_warp is not None:
            j["tiles_per_warp"] = _ints(self.tiles_per_warp)
        return _cga_json(self, j)


@dataclass(frozen=True)
class DotOperandLayout(Layout):
    operand_index: int
    parent: Layout
    k_width: int = 0
    kind = "dot_operand"

    def to_json(self):
        return {"kind": "dot_operand", "operand_index": int(self.operand_index),
                "parent": _spec(self.parent), "k_width": int(self.k_width)}


@dataclass(frozen=True)
class DistributedLinearLayout(Layout):
    reg_bases: List[List[int]]
    lane_bases: List[List[int]]
    warp_bases: List[List[int]]
    block_bases: List[List[int]]
    shape: List[int]
    kind = "linear"

    def to_json(self):
        return {"kind": "linear", "reg_bases": _matrix(self.reg_bases),
                "lane_bases": _matrix(self.lane_bases), "warp_bases": _matrix(self.warp_bases),
                "block_bases": _matrix(self.block_bases), "shape": _ints(self.shape)}


@dataclass(frozen=True)
class SwizzledSharedLayout(Layout):
    vec: int
    per_phase: int
    max_phase: int
    order: List[int]
    cga_layout: List[List[int]] = field(default_factory=list)
    ctas_per_cga: Optional[List[int]] = field(default=None, repr=False)
    cta_split_num: Optional[List[int]] = field(default=None, repr=False)
    cta_order: Optional[List[int]] = field(default=None, repr=False)
    kind = "swizzled_shared"
    distributed = False

    def to_json(self):
        return _cga_json(self, {"kind": "swizzled_shared", "vec": int(self.vec),
                                "per_phase": int(self.per_phase),
                                "max_phase": int(self.max_phase), "order": _ints(self.order)})


@dataclass(frozen=True)
class NVMMASharedLayout(Layout):
    swizzle_byte_width: int
    element_bitwidth: int
    rank: int = 2
    transposed: bool = False
    fp4_padded: bool = False
    cga_layout: List[List[int]] = field(default_factory=list)
    ctas_per_cga: Optional[List[int]] = field(default=None, repr=False)
    cta_split_num: Optional[List[int]] = field(default=None, repr=False)
    cta_order: Optional[List[int]] = field(default=None, repr=False)
    kind = "nvmma_shared"
    distributed = False

    def to_json(self):
        return _cga_json(self, {"kind": "nvmma_shared",
                                "swizzle_byte_width": int(self.swizzle_byte_width),
                                "element_bitwidth": int(self.element_bitwidth),
                                "rank": int(self.rank), "transposed": bool(self.transposed),
                                "fp4_padded": bool(self.fp4_padded)})


@dataclass(frozen=True)
class SharedLinearLayout(Layout):
    offset_bases: List[List[int]]
    block_bases: List[List[int]] = field(default_factory=list)
    alignment: int = 16
    kind = "shared_linear"
    distributed = False

    def to_json(self):
        return {"kind": "shared_linear", "offset_bases": _matrix(self.offset_bases),
                "block_bases": _matrix(self.block_bases), "alignment": int(self.alignment)}


@dataclass(frozen=True)
class PaddedSharedLayout(Layout):
    """Gluon's PaddedSharedLayout: a linear layout of offsets (and CTAs: cga_layout, block bases in
    tensor coordinates) whose addresses get `padding` elements after every `interval`."""
    interval_padding_pairs: List[List[int]]
    offset_bases: List[List[int]]
    cga_layout: List[List[int]]
    shape: List[int]
    kind = "padded_shared"
    distributed = False

    def to_json(self):
        return {"kind": "padded_shared",
                "interval_padding_pairs": _matrix(self.interval_padding_pairs),
                "offset_bases": _matrix(self.offset_bases),
                "cga_layout": _matrix(self.cga_layout), "shape": _ints(self.shape)}


@dataclass(frozen=True)
class TensorMemoryLayout(Layout):
    """Gluon's TensorMemoryLayout (Blackwell): a tile of `block` = [M, N] in tensor memory, each
    32-bit column holding `col_stride` elements' worth; CTA split and two-CTA mode as Triton's."""
    block: List[int]
    col_stride: int
    cta_split_num: Optional[List[int]] = None
    two_ctas: bool = False
    kind = "tensor_memory"
    distributed = False

    def to_json(self):
        j = {"kind": "tensor_memory", "block": _ints(self.block),
             "col_stride": int(self.col_stride), "two_ctas": bool(self.two_ctas)}
        if self.cta_split_num is not None:
            j["cta_split_num"] = _ints(self.cta_split_num)
        return j


@dataclass(frozen=True)
class TensorMemoryScalesLayout(Layout):
    """Gluon's TensorMemoryScalesLayout: the scales of a block-scaled MMA in tensor memory."""
    cta_split_num: Optional[List[int]] = None
    kind = "tensor_memory_scales"
    distributed = False

    def to_json(self):
        j = {"kind": "tensor_memory_scales"}
        if self.cta_split_num is not None:
            j["cta_split_num"] = _ints(self.cta_split_num)
        return j


_CLASSES = {c.kind: c for c in (BlockedLayout, SliceLayout, NVMMADistributedLayout,
                                AMDMFMALayout, AMDWMMALayout,
                                DotOperandLayout, DistributedLinearLayout, SwizzledSharedLayout,
                                NVMMASharedLayout, SharedLinearLayout, PaddedSharedLayout,
                                TensorMemoryLayout, TensorMemoryScalesLayout)}


def _spec(layout):
    """A layout argument as the query format's spec (dict or attribute string)."""
    if isinstance(layout, Layout):
        return layout.to_json()
    if isinstance(layout, (dict, str)):
        return layout
    raise TypeError("expected a layout (BlockedLayout, ..., a spec dict or an attribute string), "
                    "got %s" % type(layout).__name__)


def _from_spec_dict(j):
    j = dict(j)
    kind = j.pop("kind")
    cls = _CLASSES.get(kind)
    if cls is None:
        raise ValueError("layout kind '%s' has no Python class yet (known: %s)" %
                         (kind, ", ".join(sorted(_CLASSES))))
    for key in ("parent",):
        if key in j:
            j[key] = _from_spec_dict(j[key])
    return cls(**j)


def layout_from_json(obj):
    """A layout from the query format: a linear layout dict (``in_dims``, ``out_dims``) gives a
    ``LinearLayout``; a spec dict (``kind``: ...) or a TritonGPU attribute string
    (``"#ttg.blocked<{...}>"``) gives the Gluon-named class. Raises ValueError naming what is
    wrong."""
    if isinstance(obj, str) and obj.lstrip().startswith("{"):
        obj = json.loads(obj)
    if isinstance(obj, dict) and "in_dims" in obj:
        return _core._layout_from_json(json.dumps(obj))
    if not isinstance(obj, (dict, str)):
        raise TypeError("layout_from_json takes a dict or a string, got %s" %
                        type(obj).__name__)
    return _from_spec_dict(json.loads(_core._normal_spec(json.dumps(obj))))


def _arg_text(layout):
    if isinstance(layout, str):
        return layout
    return json.dumps(_spec(layout))


def to_linear_layout(layout, shape=None):
    """The linear layout of a hardware layout over a tensor of ``shape``, as Triton 3.6 builds it
    (``layout`` a Gluon-named class, a spec dict, an attribute string, or a LinearLayout whose
    out-dim sizes must then be ``shape``). Any text ``linlayout show`` reads works too (a tensor
    type, which carries its shape; a CuTe layout, ``"cute:(4,8):(8,1)"``)."""
    shape = None if shape is None else _ints(shape)
    if isinstance(layout, LinearLayout):
        sizes = [s for _, s in layout.out_dims]
        if shape is not None and sizes != shape:
            raise ValueError("the linear layout's out dims have sizes %s, not the shape given, %s"
                             % (sizes, shape))
        return layout
    return _core._layout_arg(_arg_text(layout), shape)[0]


def bank_conflicts(reg_layout, shared_layout, shape, bitwidth):
    """Extra wavefronts per access when a warp reads ``shared_layout`` into ``reg_layout`` with
    the widest vectorised ld.shared (Triton 3.6's rule)."""
    from ._query import query
    return query("bank_conflicts", reg=_spec(reg_layout), shared=_spec(shared_layout),
                 shape=_ints(shape), bitwidth=int(bitwidth))


def get_tmem_reg_layout(element_ty, shape, layout, num_warps, instr_variant="32x32b",
                        cga_layout=()):
    """Gluon's ``get_tmem_reg_layout``: the ``DistributedLinearLayout`` in which each thread holds
    what its warp's tcgen05.ld/st messages of ``instr_variant`` (``"32x32b"``, ``"16x64b"``,
    ``"16x128b"``, ``"16x256b"``) move between registers and the tensor-memory ``layout`` over
    ``shape``. ``element_ty`` is the element bitwidth (8, 16, 32) or a dtype with
    ``primitive_bitwidth`` (Gluon's). Raises ValueError where Gluon raises (a descriptor Triton
    refuses, no message layout)."""
    from ._query import query
    bits = element_ty if isinstance(element_ty, int) else getattr(element_ty,
                                                                  "primitive_bitwidth", None)
    if not isinstance(bits, int):
        raise TypeError("element_ty is a %s, expected a bitwidth (int) or a dtype with "
                        "primitive_bitwidth" % type(element_ty).__name__)
    r = query("tmem_reg_layout", layout=_spec(layout), shape=_ints(shape),
              num_warps=int(num_warps), instr_variant=instr_variant, element_bitwidth=bits,
              cga_layout=_matrix(cga_layout))
    bases = dict(r["in_dims"])
    return DistributedLinearLayout(bases["register"], bases["lane"], bases["warp"],
                                   bases["block"], [s for _, s in r["out_dims"]])


def picture(layout, shape=None, inverse=False, max_rows=32, max_cols=None, bitwidth=None,
            style="owners"):
    """The text picture ``linlayout show`` prints: which thread and register (or which offset)
    holds each element; with ``inverse``, what each thread (or each 128 bytes) holds."""
    from ._query import query
    fields = {"inverse": bool(inverse), "max_rows": int(max_rows), "style": style}
    if max_cols is not None:
        fields["max_cols"] = int(max_cols)
    if bitwidth is not None:
        fields["bitwidth"] = int(bitwidth)
    if isinstance(layout, LinearLayout):
        fields["layout"] = json.loads(_core._layout_to_json(layout))
    else:
        fields["layout"] = _spec(layout)
        fields["shape"] = _ints(shape)
    r = query("picture", **fields)
    text = r["text"]
    if "banks" in r:
        text += "banks:\n" + r["banks"]
    if inverse:
        text += r["inverse"]
    return text


def _to_json(self):
    """The query format's JSON of this layout (a dict)."""
    return json.loads(_core._layout_to_json(self))


def _from_json(obj):
    """A LinearLayout from the query format's JSON (a dict or its text)."""
    if not isinstance(obj, str):
        obj = json.dumps(obj)
    return _core._layout_from_json(obj)


LinearLayout.to_json = _to_json
LinearLayout.from_json = staticmethod(_from_json)
