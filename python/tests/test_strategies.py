# linlayout.testing.strategies draws what it promises, family by family, and each family's
# layouts are checked against what can be worked out without the library: ranks over F2 by
# Python's own elimination, sizes from the constructor arguments, bases given directly, Triton's
# swizzle formula, CuTe's shape:stride sum.
from functools import reduce

import pytest

pytest.importorskip("hypothesis")
from hypothesis import Phase, find, given, settings, strategies as st  # noqa: E402

import linlayout as ll  # noqa: E402
from linlayout import _layouts as L  # noqa: E402
from linlayout.testing import strategies as lls  # noqa: E402

DISTRIBUTED = {
    "blocked": lls.blocked_layouts, "nvidia_mma": lls.nvmma_distributed_layouts,
    "amd_mfma": lls.amd_mfma_layouts, "amd_wmma": lls.amd_wmma_layouts,
    "dot_operand": lls.dot_operand_layouts, "slice": lls.slice_layouts,
    "linear": lls.distributed_linear_layouts,
}
SHARED = {
    "swizzled_shared": lls.swizzled_shared_layouts, "nvmma_shared": lls.nvmma_shared_layouts,
    "shared_linear": lls.shared_linear_layouts, "padded_shared": lls.padded_shared_layouts,
}


def f2_rank(words):
    """The rank over F2 of integers read as bit vectors (Python's own elimination)."""
    basis = []
    for w in words:
        for b in basis:
            w = min(w, w ^ b)
        if w:
            basis.append(w)
    return len(basis)


def columns(l, in_dims=None):
    """The layout's basis vectors, each packed as one integer (out dims, first lowest)."""
    shifts, s = [], 0
    for _, size in l.out_dims:
        shifts.append(s)
        s += size.bit_length() - 1
    return [sum(x << sh for x, sh in zip(v, shifts))
            for name, vectors in l.bases if in_dims is None or name in in_dims
            for v in vectors]


def root(layout):
    while isinstance(layout, (L.SliceLayout, L.DotOperandLayout)):
        layout = layout.parent
    return layout


@pytest.mark.parametrize("family", sorted(DISTRIBUTED))
@given(data=st.data())
def test_distributed_families(family, data):
    layout, shape = data.draw(lls.layouts_with_shapes(DISTRIBUTED[family]()))
    assert layout.kind == family
    l = ll.to_linear_layout(layout, shape)
    assert [s for _, s in l.out_dims] == shape
    assert l.get_in_dim_names() == ["register", "lane", "warp", "block"]
    # Every element is held by some thread: the bases span the whole tensor.
    assert f2_rank(columns(l)) == l.get_total_out_dim_size_log2()
    r = root(layout)
    if isinstance(r, L.DistributedLinearLayout):
        assert [b for _, b in l.bases] == [r.reg_bases, r.lane_bases, r.warp_bases,
                                           r.block_bases]
    else:
        lanes = 64 if isinstance(r, L.AMDMFMALayout) else 32
        assert l.get_in_dim_size("lane") == lanes
        assert l.get_in_dim_size("warp") == reduce(lambda a, b: a * b, r.warps_per_cta)
        assert l.get_in_dim_size("block") == 1 << len(r.cga_layout)
    # Read back from its spec (defaults filled in), it is the same layout.
    assert ll.to_linear_layout(ll.layout_from_json(layout.to_json()), shape) == l


@pytest.mark.parametrize("family", sorted(SHARED))
@given(data=st.data())
def test_shared_families(family, data):
    layout, shape = data.draw(lls.layouts_with_shapes(SHARED[family]()))
    assert layout.kind == family
    l = ll.to_linear_layout(layout, shape)
    assert [s for _, s in l.out_dims] == shape
    offsets = columns(l, {"offset"})
    # Each offset holds one element (fp4 padding leaves every other byte unused) and every
    # element has an offset in some CTA.
    assert f2_rank(columns(l)) == l.get_total_out_dim_size_log2()
    if not getattr(layout, "fp4_padded", False):
        assert f2_rank(offsets) == len(offsets)
    if isinstance(layout, (L.SharedLinearLayout, L.PaddedSharedLayout)):
        assert dict(l.bases)["offset"] == layout.offset_bases
    if isinstance(layout, L.PaddedSharedLayout):
        assert dict(l.bases).get("block", []) == layout.cga_layout
    # Read back from its spec (defaults filled in), it is the same layout.
    assert ll.to_linear_layout(ll.layout_from_json(layout.to_json()), shape) == l


@given(lls.swizzled_shared_layouts(rank=2, cga=False), st.integers(0, 6), st.integers(0, 6))
def test_swizzled_shared_is_tritons_formula(layout, row_bits, col_bits):
    # Triton's swizzle: the offset of element (row, col), rows along order[1], columns along
    # order[0], is row * cols + (col ^ (vec * ((row // per_phase) % max_phase)) % cols).
    rows, cols = 1 << row_bits, 1 << col_bits
    inner, outer = layout.order
    shape = [0, 0]
    shape[inner], shape[outer] = cols, rows
    l = ll.to_linear_layout(layout, shape)
    for row in range(rows):
        phase = (row // layout.per_phase) % layout.max_phase
        for col in range(cols):
            offset = row * cols + (col ^ (layout.vec * phase) % cols)
            coord = [0, 0]
            coord[inner], coord[outer] = col, row
            assert l.apply({"offset": offset, "block": 0}) == [("dim0", coord[0]),
                                                               ("dim1", coord[1])]


def cute_offset(tree, index):
    """CuTe's offset of a mode's index: split colexicographically over the children, the
    leaves' coordinate * stride summed."""
    if isinstance(tree, tuple) and len(tree) == 2 and all(isinstance(x, int) for x in tree):
        return (index % tree[0]) * tree[1]
    total = 0
    for kid in tree:
        n = cute_size(kid)
        total += cute_offset(kid, index % n)
        index //= n
    return total


def cute_size(tree):
    if isinstance(tree, tuple) and len(tree) == 2 and all(isinstance(x, int) for x in tree):
        return tree[0]
    return reduce(lambda a, k: a * cute_size(k), tree, 1)


def parse_cute(text):
    """(swizzle or None, tree) of the strategy's CuTe text; a leaf is (size, stride)."""
    swizzle = None
    if text.startswith("Sw<"):
        head, text = text.split(" o ", 1)
        swizzle = tuple(int(x) for x in head[3:-1].split(","))
    shapes, strides = text.split(":")

    def read(s):
        return eval(s.replace("(", "[").replace(")", "]"))

    def zip_tree(a, b):
        if isinstance(a, int):
            return (a, b)
        return [zip_tree(x, y) for x, y in zip(a, b)]

    return swizzle, zip_tree(read(shapes), read(strides))


@given(lls.cute_layouts())
def test_cute_layouts_are_cutes_sum(text):
    swizzle, tree = parse_cute(text)
    l = ll.layout_from_json(ll.query("from_cute", layout=text))
    modes = tree if isinstance(tree, list) else [tree]
    sizes = [cute_size(m) for m in modes]
    assert [s for _, s in l.in_dims] == sizes
    total = reduce(lambda a, b: a * b, sizes, 1)
    for index in range(0, total, max(1, total // 512)):
        offset = cute_offset(tree if isinstance(tree, list) else [tree], index)
        if swizzle:
            b, m, s = swizzle
            mask = ((1 << b) - 1) << (m + max(0, s))
            y = offset & mask
            offset ^= y >> s if s >= 0 else y << -s
        coords, rest = {}, index
        for (name, _), n in zip(l.in_dims, sizes):
            coords[name] = rest % n
            rest //= n
        assert l.apply(coords) == [("offset", offset)]


@given(lls.invertible_layouts())
def test_invertible(l):
    assert l.is_invertible()
    assert f2_rank(columns(l)) == l.get_total_in_dim_size_log2() == l.get_total_out_dim_size_log2()


@given(lls.surjective_layouts())
def test_surjective(l):
    assert l.is_surjective() and f2_rank(columns(l)) == l.get_total_out_dim_size_log2()


@given(lls.injective_layouts())
def test_injective(l):
    assert l.is_injective() and f2_rank(columns(l)) == l.get_total_in_dim_size_log2()


TENSOR_MEMORY = {"tensor_memory": lls.tensor_memory_layouts,
                 "tensor_memory_scales": lls.tensor_memory_scales_layouts}


def images(l):
    """Every input's output, packed as by columns(), the input's bits in base order (its first
    in dim lowest): XOR-closure of the basis vectors, doubled one basis at a time."""
    outs = [0]
    for b in columns(l):
        outs += [o ^ b for o in outs]
    return outs


def should_be_injective(layout, shape):
    """Where a tensor-memory layout puts each element once (the C++ property's condition):
    no padding columns, no unused TMEM row 16 (a 64-row block over one block's rows and
    columns), no two-CTA blockM 64 swap."""
    if not isinstance(layout, L.TensorMemoryLayout):
        return False  # scales repeat in the row groups of warps 1-3
    split = layout.cta_split_num or [1, 1]
    m, n = shape[0] // split[0], shape[1] // split[1]
    full = (layout.block[0] == 128 or m > 64 or layout.two_ctas or
            n > min(layout.block[1], n))
    return full and layout.col_stride == 1 and not (layout.two_ctas and layout.block[0] == 64)


@pytest.mark.parametrize("family", sorted(TENSOR_MEMORY))
@given(data=st.data())
def test_tensor_memory_families(family, data):
    layout, shape = data.draw(lls.layouts_with_shapes(TENSOR_MEMORY[family]()))
    assert layout.kind == family
    l = ll.to_linear_layout(layout, shape)
    assert l.get_in_dim_names() == ["row", "col"] and l.get_in_dim_size("row") == 128
    assert [s for _, s in l.out_dims] == shape
    # Every element has a place in tensor memory; once, where nothing pads or repeats.
    assert f2_rank(columns(l)) == l.get_total_out_dim_size_log2()
    if should_be_injective(layout, shape):
        assert l.is_injective()
    # Read back from its spec (defaults filled in), it is the same layout.
    back = ll.layout_from_json(layout.to_json())
    assert type(back) is type(layout)
    assert ll.to_linear_layout(back, shape) == l


@given(lls.tmem_reg_layout_args())
def test_tmem_reg_layouts_hold_their_warps_rows(args):
    try:
        reg = ll.get_tmem_reg_layout(**args)
    except ValueError as e:
        # The strategy draws only descriptors Triton accepts: the refusals left are Gluon's "no
        # layout" (a message wider than the layout's columns, or lanes that would repeat) and
        # narrow elements whose columns Triton can neither pack nor pad (it aborts there).
        assert (str(e).startswith("no " + args["instr_variant"] + " message layout") or
                "is neither packed, unpacked nor padded" in str(e)), str(e)
        return
    shape, warps = args["shape"], args["num_warps"]
    l = ll.to_linear_layout(reg, shape)
    assert [s for _, s in l.out_dims] == shape
    assert l.get_in_dim_size("lane") == 32 and l.get_in_dim_size("warp") == warps
    assert l.get_in_dim_size("block") == 1 << len(args["cga_layout"])
    # Within a warp, no two of a thread's registers or two lanes hold one element where tensor
    # memory holds each element once.
    if should_be_injective(args["layout"], shape):
        within = columns(l, {"register", "lane"})
        assert f2_rank(within) == len(within)
    # Every element is held, and only by threads of a warp whose quarter of the 128 TMEM rows
    # holds it (warp w reaches rows 32 (w % 4) to 32 (w % 4) + 31): brute force over both.
    mem = ll.to_linear_layout(args["layout"], shape)
    quarters = {}
    for i, e in enumerate(images(mem)):
        quarters[e] = quarters.get(e, 0) | 1 << ((i & 127) // 32)
    shift = l.get_in_dim_size_log2("register") + 5
    held = images(l)
    assert set(held) == set(quarters)
    for i, e in enumerate(held):
        assert quarters[e] >> ((i >> shift) % warps % 4) & 1


def test_tensor_memory_strategies_draw_every_option():
    def drawn(strategy, predicate):  # the first example found, unshrunk
        find(strategy, predicate, settings=settings(database=None, max_examples=2000,
                                                    phases=[Phase.generate]))

    tmem = lls.tensor_memory_layouts()
    for m in (64, 128):
        drawn(tmem, lambda l: l.block[0] == m)
    for n in (1, 512):
        drawn(tmem, lambda l: l.block[1] == n)
    for c in (1, 2, 4):
        drawn(tmem, lambda l: l.col_stride == c)
    for split in (None, [4, 1], [1, 2], [2, 2]):
        drawn(tmem, lambda l: l.cta_split_num == split)
        drawn(lls.tensor_memory_scales_layouts(), lambda l: l.cta_split_num == split)
    drawn(tmem, lambda l: l.two_ctas and l.block[0] == 64 and (l.cta_split_num or [1])[0] > 1)
    args = lls.tmem_reg_layout_args()
    for v in ("32x32b", "16x64b", "16x128b", "16x256b"):
        drawn(args, lambda a: a["instr_variant"] == v)
    for bits in (8, 16, 32):
        drawn(args, lambda a: a["element_ty"] == bits)
    for warps in (4, 8, 16):
        drawn(args, lambda a: a["num_warps"] == warps)
    drawn(lls.tmem_reg_layout_args(lls.tensor_memory_scales_layouts()),
          lambda a: a["cga_layout"] and a["element_ty"] == 8)
    drawn(args, lambda a: a["layout"].kind == "tensor_memory_scales")
    drawn(args, lambda a: a["layout"].kind == "tensor_memory" and a["layout"].col_stride == 2
          and a["element_ty"] == 16)
    # layouts_with_shapes, by default, draws tensor memory too.
    drawn(lls.layouts_with_shapes(), lambda p: p[0].kind.startswith("tensor_memory"))
