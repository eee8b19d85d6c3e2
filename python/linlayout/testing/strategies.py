"""Hypothesis strategies for linear layouts and every hardware layout family: the Python
counterpart of the rapidcheck generators in testing/.

    from hypothesis import given
    from linlayout.testing import strategies as lls

    @given(lls.invertible_layouts())
    def test_inverse(l):
        assert l.compose(l.invert()) == LinearLayout.identity_1d(...)  # etc.

Family strategies draw the constructor arguments Triton accepts; ``layouts_with_shapes`` pairs
a family's layout with a tensor shape it converts over (keeping only pairs the library accepts).
"""
from functools import reduce

from hypothesis import strategies as st

from .. import _layouts as L
from .._core import LinearLayout

IN_NAMES = ("register", "lane", "warp", "block")
OUT_NAMES = ("dim0", "dim1", "dim2", "dim3")


def _pow2(lo, hi):
    return st.integers(lo, hi).map(lambda k: 1 << k)


@st.composite
def _dims(draw, names, max_dims, max_bits, total_bits):
    n = draw(st.integers(1, max_dims))
    bits = [draw(st.integers(0, max_bits)) for _ in range(n)]
    while sum(bits) > total_bits:
        i = bits.index(max(bits))
        bits[i] -= 1
    return [(names[i], b) for i, b in enumerate(bits)]


def _split(columns, in_dims):
    """Deal packed columns to in dims of the given bit counts, first dim lowest."""
    bases, k = [], 0
    for name, bits in in_dims:
        bases.append((name, columns[k:k + bits]))
        k += bits
    return bases


def _unpack(word, out_dims):
    v = []
    for _, bits in out_dims:
        v.append(word & ((1 << bits) - 1))
        word >>= bits
    return v


def _build(in_dims, out_dims, words):
    cols = [_unpack(w, out_dims) for w in words]
    return LinearLayout.from_bases(_split(cols, in_dims), [n for n, _ in out_dims],
                                   [1 << b for _, b in out_dims], require_surjective=False)


@st.composite
def linear_layouts(draw, max_in_bits=12, max_out_bits=12, max_dims=3, max_dim_bits=6):
    """Any linear layout: in dims among register, lane, warp, block; out dims dim0, dim1, ...;
    random bases (zero, repeated, dependent ones included)."""
    outs = draw(_dims(OUT_NAMES, max_dims, max_dim_bits, max_out_bits))
    ins = draw(_dims(IN_NAMES, max_dims, max_dim_bits, max_in_bits))
    total_out = sum(b for _, b in outs)
    n = sum(b for _, b in ins)
    words = draw(st.lists(st.integers(0, (1 << total_out) - 1), min_size=n, max_size=n))
    return _build(ins, outs, words)


@st.composite
def _invertible_words(draw, bits):
    """The columns of a random invertible bits x bits matrix: unit columns, shuffled, then mixed
    by column operations (which keep it invertible)."""
    words = draw(st.permutations([1 << i for i in range(bits)]))
    words = list(words)
    for _ in range(draw(st.integers(0, 2 * bits))):
        if bits < 2:
            break
        i, j = draw(st.integers(0, bits - 1)), draw(st.integers(0, bits - 1))
        if i != j:
            words[i] ^= words[j]
    return words


@st.composite
def invertible_layouts(draw, max_bits=12, max_dims=3, max_dim_bits=6):
    """A bijective layout (same total in and out bits)."""
    outs = draw(_dims(OUT_NAMES, max_dims, max_dim_bits, max_bits))
    total = sum(b for _, b in outs)
    ins = _regroup(draw, total, max_dims)
    return _build(ins, outs, draw(_invertible_words(total)))


def _regroup(draw, total, max_dims):
    n = draw(st.integers(1, max_dims))
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=n - 1, max_size=n - 1)))
    edges = [0] + cuts + [total]
    return [(IN_NAMES[i], edges[i + 1] - edges[i]) for i in range(n)]


@st.composite
def surjective_layouts(draw, max_bits=10, max_extra=3, max_dims=3, max_dim_bits=6):
    """A layout that reaches every output: an invertible one with extra (broadcast or
    dependent) columns inserted."""
    outs = draw(_dims(OUT_NAMES, max_dims, max_dim_bits, max_bits))
    total = sum(b for _, b in outs)
    words = draw(_invertible_words(total))
    for _ in range(draw(st.integers(0, max_extra))):
        pos = draw(st.integers(0, len(words)))
        words.insert(pos, draw(st.integers(0, (1 << total) - 1)))
    ins = _regroup(draw, len(words), max_dims)
    return _build(ins, outs, words)


@st.composite
def injective_layouts(draw, max_bits=10, max_dims=3, max_dim_bits=6):
    """A layout whose inputs all map to distinct outputs (some outputs may be unreached)."""
    outs = draw(_dims(OUT_NAMES, max_dims, max_dim_bits, max_bits))
    total = sum(b for _, b in outs)
    words = draw(_invertible_words(total))
    words = words[:draw(st.integers(0, total))]
    ins = _regroup(draw, len(words), max_dims)
    return _build(ins, outs, words)


@st.composite
def _split_pow2(draw, bits, rank):
    out = [1] * rank
    for _ in range(bits):
        out[draw(st.integers(0, rank - 1))] *= 2
    return out


@st.composite
def _cga(draw, rank):
    n = draw(st.integers(0, 2))
    bases = []
    for _ in range(n):
        b = [0] * rank
        b[draw(st.integers(0, rank - 1))] = draw(_pow2(0, 2))
        bases.append(b)
    return bases


@st.composite
def _cga_layout(draw, rank, max_bits=2, broadcast=False):
    """CTA bases in tensor coordinates: each a new power of two along one dim (or, with
    broadcast, sometimes zero), as the C++ generators' cgaLayout."""
    bases, nxt = [], [1] * rank
    for _ in range(draw(st.integers(0, max_bits))):
        b = [0] * rank
        if not broadcast or draw(st.integers(0, 3)) != 0:
            d = draw(st.integers(0, rank - 1))
            b[d] = nxt[d]
            nxt[d] *= 2
        bases.append(b)
    return bases


@st.composite
def blocked_layouts(draw, rank=None, max_warp_bits=3, cga=True):
    rank = rank or draw(st.integers(1, 3))
    return L.BlockedLayout(
        [draw(_pow2(0, 3)) for _ in range(rank)], draw(_split_pow2(5, rank)),
        draw(_split_pow2(draw(st.integers(0, max_warp_bits)), rank)),
        list(draw(st.permutations(range(rank)))),
        draw(_cga(rank)) if cga and draw(st.booleans()) else [])


@st.composite
def nvmma_distributed_layouts(draw, version=None, rank=None, cga=True):
    """Ampere (version 2) or Hopper (version 3) accumulators, rank 2 or 3, maybe over CTAs."""
    version = version or draw(st.sampled_from([2, 3]))
    rank = rank or draw(st.sampled_from([2, 2, 3]))
    ctas = draw(_cga_layout(rank)) if cga and draw(st.booleans()) else []
    if version == 2:
        warps = draw(_split_pow2(draw(st.integers(0, 3)), rank))
        instr = [16, 8] if rank == 2 else [1, 16, 8]
        return L.NVMMADistributedLayout([2, 0], warps, instr, ctas)
    # Whole warp groups: 4 warps along M, maybe doubled along any dim.
    warps = [1] * rank
    warps[rank - 2] = 4
    warps[draw(st.integers(0, rank - 1))] *= draw(st.sampled_from([1, 2]))
    n = draw(st.sampled_from([8, 16, 32, 64, 128, 256]))
    return L.NVMMADistributedLayout([3, 0], warps, [16, n, 16], ctas)


@st.composite
def amd_mfma_layouts(draw, rank=None, cga=True):
    """AMD MFMA accumulators (64-lane wavefronts), rank 2 or 3: every instruction shape, both
    orientations, 32- and 64-bit elements, tiles per warp, maybe over CTAs."""
    rank = rank or draw(st.sampled_from([2, 2, 3]))
    mn = draw(st.sampled_from([[32, 32], [16, 16], [64, 4], [4, 64]]))
    transposed = mn == [64, 4] or draw(st.booleans())
    return L.AMDMFMALayout(
        draw(st.integers(1, 4)), mn + [draw(_pow2(2, 5))], transposed,
        draw(_split_pow2(draw(st.integers(0, 3)), rank)), draw(st.sampled_from([32, 64])),
        [draw(_pow2(0, 1)) for _ in range(rank)],
        draw(_cga_layout(rank)) if cga and draw(st.booleans()) else [])


@st.composite
def amd_wmma_layouts(draw, rank=None, cga=True):
    """AMD WMMA accumulators, versions 1 to 3, rank 2 or 3, maybe over CTAs."""
    rank = rank or draw(st.sampled_from([2, 2, 3]))
    version = draw(st.integers(1, 3))
    k = 16 if version < 3 else draw(st.sampled_from([4, 32, 64, 128]))
    return L.AMDWMMALayout(version, draw(st.booleans()),
                           draw(_split_pow2(draw(st.integers(0, 3)), rank)), [16, 16, k], None,
                           draw(_cga_layout(rank)) if cga and draw(st.booleans()) else [])


def _k_widths(parent):
    """The k_width values a dot operand of `parent` takes."""
    if isinstance(parent, L.AMDMFMALayout):
        return [1, 2, 4, 8, 16, 32]
    if isinstance(parent, L.AMDWMMALayout):
        return {1: [8, 16], 2: [4, 8, 16]}.get(parent.version, [2, 8, 16])
    return [1, 2, 4, 8]


@st.composite
def dot_operand_layouts(draw):
    """Operands of an FMA (blocked parent, no k_width), an Ampere or Hopper MMA, or an AMD MFMA
    or WMMA."""
    which = draw(st.integers(0, 4))
    if which == 0:
        parent = draw(blocked_layouts(rank=2, cga=False))
        return L.DotOperandLayout(draw(st.integers(0, 1)), parent, 0)
    if which == 1:  # Hopper: only operand A comes from registers
        parent = draw(nvmma_distributed_layouts(version=3, rank=2))
        return L.DotOperandLayout(0, parent, draw(st.sampled_from([1, 2, 4, 8])))
    parent = draw([None, None, nvmma_distributed_layouts(version=2), amd_mfma_layouts(),
                   amd_wmma_layouts()][which])
    return L.DotOperandLayout(draw(st.integers(0, 1)), parent,
                              draw(st.sampled_from(_k_widths(parent))))


@st.composite
def slice_layouts(draw):
    """A slice of any distributed parent of rank 2 or 3, slices of slices included."""
    rank = draw(st.integers(2, 3))
    parent = draw(st.one_of(blocked_layouts(rank=rank), nvmma_distributed_layouts(rank=rank),
                            amd_mfma_layouts(rank=rank), amd_wmma_layouts(rank=rank)))
    if rank == 3 and draw(st.integers(0, 3)) == 0:
        parent = L.SliceLayout(draw(st.integers(0, 2)), parent)
        rank = 2
    return L.SliceLayout(draw(st.integers(0, rank - 1)), parent)


@st.composite
def distributed_linear_layouts(draw, rank=None):
    rank = rank or draw(st.integers(1, 2))
    shape = [draw(_pow2(0, 5)) for _ in range(rank)]
    units = [[(1 << i) if d == k else 0 for k in range(rank)]
             for d in range(rank) for i in range(shape[d].bit_length() - 1)]
    units = list(draw(st.permutations(units)))
    dims = {"reg_bases": [], "lane_bases": [], "warp_bases": []}
    for b in units:
        dims[draw(st.sampled_from(sorted(dims)))].append(b)
    dims["reg_bases"] += dims["lane_bases"][5:]
    dims["lane_bases"] = dims["lane_bases"][:5]
    dims["lane_bases"] += [[0] * rank for _ in range(5 - len(dims["lane_bases"]))]
    return L.DistributedLinearLayout(dims["reg_bases"], dims["lane_bases"], dims["warp_bases"],
                                     [], shape)


@st.composite
def swizzled_shared_layouts(draw, rank=None, cga=True):
    rank = rank or draw(st.integers(2, 3))
    return L.SwizzledSharedLayout(draw(_pow2(0, 3)), draw(_pow2(0, 2)), draw(_pow2(0, 3)),
                                  list(draw(st.permutations(range(rank)))),
                                  draw(_cga_layout(rank)) if cga and draw(st.booleans()) else [])


@st.composite
def nvmma_shared_layouts(draw, bitwidth=None, rank=None, cga=True):
    """NVMMA shared layouts: every swizzle, 8- to 32-bit elements, transposed or not, fp4
    padding (128-byte swizzle, 8 bits), maybe over CTAs."""
    rank = rank or draw(st.sampled_from([2, 2, 3]))
    swizzle = draw(st.sampled_from([0, 32, 64, 128]))
    bits = bitwidth or draw(st.sampled_from([8, 16, 32]))
    fp4 = swizzle == 128 and bits == 8 and draw(st.booleans())
    return L.NVMMASharedLayout(swizzle, bits, rank, draw(st.booleans()), fp4,
                               draw(_cga_layout(rank)) if cga and draw(st.booleans()) else [])


@st.composite
def padded_shared_layouts(draw, rank=None, max_bits=10, blocks=True):
    """Gluon's PaddedSharedLayout over 2^1..2^max_bits elements: 1 to 3 (interval, padding)
    pairs, the offsets a random order of the shape's bits, up to 2 of them given to CTAs."""
    rank = rank or draw(st.integers(1, 3))
    shape = draw(_split_pow2(draw(st.integers(1, max_bits)), rank))
    bits = []
    for d in range(rank):
        v = 1
        while v < shape[d]:
            bits.append([v if k == d else 0 for k in range(rank)])
            v *= 2
    bits = list(draw(st.permutations(bits)))
    n_blocks = draw(st.integers(0, min(2, len(bits) - 1))) if blocks else 0
    cga = bits[len(bits) - n_blocks:]
    offsets = bits[:len(bits) - n_blocks]
    pairs = {}
    for _ in range(draw(st.integers(1, 3))):
        pairs.setdefault(draw(_pow2(0, 10)), draw(_pow2(0, 4)))
    return L.PaddedSharedLayout([[i, p] for i, p in pairs.items()], offsets, cga, shape)


@st.composite
def cute_layouts(draw, swizzle=True, max_bits=12):
    """CuTe layouts that are linear over F2, as CuTe text (``"((2,4),8):((1,16),2)"``, maybe
    with ``Sw<B,M,S> o`` in front): a shape tree of up to 3 top modes, each a leaf or a tuple
    of up to 3 leaves (nested once now and then); each leaf's offset bits a range of its own, in
    random order with gaps, or a zero stride; size-1 leaves any stride. Read them with
    ``query("from_cute", layout=text)`` or ``to_linear_layout("cute:" + text)``."""
    budget = [max_bits]

    def leaf():
        k = draw(st.integers(0, min(budget[0], 4)))
        budget[0] -= k
        return [1 << k, 0]

    if draw(st.integers(0, 4)) == 0:
        root = leaf()
    else:
        root = []
        for _ in range(draw(st.integers(0, 3))):
            if draw(st.booleans()):
                root.append(leaf())
            else:
                root.append([[leaf(), leaf()] if draw(st.integers(0, 4)) == 0 else leaf()
                             for _ in range(draw(st.integers(1, 3)))])
    cursor = 0
    for lf in draw(st.permutations(_cute_leaves(root))):
        if lf[0] == 1:
            lf[1] = draw(st.integers(0, 49))
        elif draw(st.integers(0, 5)) == 0:
            lf[1] = 0
        else:
            cursor += draw(st.integers(0, 2))
            lf[1] = 1 << cursor
            cursor += lf[0].bit_length() - 1
    text = _cute_text(root, 0) + ":" + _cute_text(root, 1)
    if swizzle and draw(st.booleans()):
        b = draw(st.integers(1, 3))
        sh = draw(st.integers(b, 4)) * (-1 if draw(st.integers(0, 2)) == 0 else 1)
        text = "Sw<%d,%d,%d> o %s" % (b, draw(st.integers(0, 3)), sh, text)
    return text


def _cute_leaves(tree):
    if not tree or isinstance(tree[0], int):
        return [tree] if tree else []
    return [lf for t in tree for lf in _cute_leaves(t)]


def _cute_text(tree, which):
    if tree and isinstance(tree[0], int):
        return str(tree[which])
    return "(" + ",".join(_cute_text(t, which) for t in tree) + ")"


@st.composite
def shared_linear_layouts(draw, max_bits=8):
    l = draw(invertible_layouts(max_bits=max_bits, max_dims=2))
    bases = [list(b) for b in _columns(l)]
    return L.SharedLinearLayout(bases)


def _columns(l):
    cols = []
    for _, vectors in l.bases:
        cols += vectors
    return cols


def _split_or_none(draw, cta_split):
    """A CTA split [M, N] of up to 4 x 2 CTAs, or None (one CTA)."""
    if not cta_split or draw(st.booleans()):
        return None
    return [draw(_pow2(0, 2)), draw(_pow2(0, 1))]


@st.composite
def tensor_memory_layouts(draw, cta_split=True):
    """Gluon's TensorMemoryLayout as Triton accepts it (the C++ tensorMemorySpec): blockM 64 or
    128, blockN 1 to 512, col_stride 1, 2 or 4, maybe a CTA split of up to 4 x 2, two-CTA mode
    one time in four."""
    return L.TensorMemoryLayout([draw(st.sampled_from([64, 128])), draw(_pow2(0, 9))],
                                draw(st.sampled_from([1, 1, 2, 4])),
                                _split_or_none(draw, cta_split), draw(st.integers(0, 3)) == 0)


@st.composite
def tensor_memory_scales_layouts(draw, cta_split=True):
    """Gluon's TensorMemoryScalesLayout, maybe with a CTA split of up to 4 x 2."""
    return L.TensorMemoryScalesLayout(_split_or_none(draw, cta_split))


def tensor_memory_families():
    """A layout of either tensor-memory family (scales one time in four)."""
    return st.one_of(tensor_memory_layouts(), tensor_memory_layouts(), tensor_memory_layouts(),
                     tensor_memory_scales_layouts())


def _split_of(layout):
    return list(layout.cta_split_num or [1, 1])


@st.composite
def _tmem_shape(draw, layout):
    """A shape the tensor-memory layout converts over (the C++ tensorMemoryShape): per CTA a
    block of rows (blockM, or 64 for the pair of a two-CTA blockM 64 split) or twice that, 1 to
    32 columns (2 to 32 for that pair: it swaps a column bit), times the CTA split."""
    split = _split_of(layout)
    rows_lo, cols_lo = 3, 0
    if isinstance(layout, L.TensorMemoryLayout):
        pair = layout.block[0] == 64 and layout.two_ctas and split[0] > 1
        rows_lo = 7 if pair or layout.block[0] == 128 else 6
        if pair:
            rows_lo, cols_lo = rows_lo - 1, 1
    return [draw(_pow2(rows_lo, rows_lo + 1)) * split[0], draw(_pow2(cols_lo, 5)) * split[1]]


def _cta_bases(split):
    """A CTA split [M, N] as Gluon's cga_layout: CTA tiles, dim0 first (tensor memory's only
    order)."""
    return ([[1 << i, 0] for i in range(split[0].bit_length() - 1)] +
            [[0, 1 << i] for i in range(split[1].bit_length() - 1)])


@st.composite
def tmem_reg_layout_args(draw, layouts=None):
    """Keyword arguments of ``get_tmem_reg_layout`` (element_ty as a bitwidth) for a descriptor
    Triton accepts: a shape the layout converts over, the block no wider than each CTA's
    columns, elements that fit their col_stride columns (8-bit scales), 4 to 16 warps, any
    message shape, the layout's CTA split as cga_layout. Some have no message layout (a message
    wider than the columns: get_tmem_reg_layout raises ValueError, as Gluon does), and a few
    narrow elements have columns Triton can neither pack nor pad (it aborts; ValueError here)."""
    layout = draw(layouts if layouts is not None else tensor_memory_families())
    shape = draw(_tmem_shape(layout))
    split = _split_of(layout)
    bits = 8
    if isinstance(layout, L.TensorMemoryLayout):
        widest = 32 // layout.col_stride
        bits = draw(st.sampled_from([b for b in (8, 16, 32) if b <= widest]))
        block = [layout.block[0], min(layout.block[1], shape[1] // split[1])]
        # Two CTAs sharing one 128-row block (blockM 64, split along M) have no CTA split
        # Triton can divide off: it aborts there. Such pairs load as two single CTAs.
        pair = layout.two_ctas and block[0] == 64 and split[0] > 1
        layout = L.TensorMemoryLayout(block, layout.col_stride, layout.cta_split_num,
                                      layout.two_ctas and not pair)
    return {"element_ty": bits, "shape": shape, "layout": layout,
            "num_warps": draw(_pow2(2, 4)),
            "instr_variant": draw(st.sampled_from(["32x32b", "16x64b", "16x128b", "16x256b"])),
            "cga_layout": _cta_bases(split)}


def distributed_layouts():
    """A layout of any distributed family."""
    return st.one_of(blocked_layouts(), nvmma_distributed_layouts(), amd_mfma_layouts(),
                     amd_wmma_layouts(), dot_operand_layouts(), slice_layouts(),
                     distributed_linear_layouts())


def shared_layouts():
    """A layout of any shared-memory family."""
    return st.one_of(swizzled_shared_layouts(), nvmma_shared_layouts(), shared_linear_layouts(),
                     padded_shared_layouts())


def _rank(layout):
    if isinstance(layout, (L.BlockedLayout,)):
        return len(layout.order)
    if isinstance(layout, (L.NVMMADistributedLayout, L.AMDMFMALayout, L.AMDWMMALayout)):
        return len(layout.warps_per_cta)
    if isinstance(layout, L.DotOperandLayout):
        return _rank(layout.parent)
    if isinstance(layout, L.SliceLayout):
        return _rank(layout.parent) - 1
    if isinstance(layout, L.DistributedLinearLayout):
        return len(layout.shape)
    if isinstance(layout, L.SwizzledSharedLayout):
        return len(layout.order)
    if isinstance(layout, L.SharedLinearLayout):
        return None
    return layout.rank


def _converts(pair):
    try:
        L.to_linear_layout(*pair)
        return True
    except ValueError:
        return False


@st.composite
def _with_shape(draw, layouts, max_dim_bits, max_total_bits):
    layout = draw(layouts)
    if isinstance(layout, (L.DistributedLinearLayout, L.PaddedSharedLayout)):
        return layout, list(layout.shape)
    if isinstance(layout, L.SharedLinearLayout):
        # Its bases fix its shape: each dim as far as the highest bit any basis moves it.
        if not layout.offset_bases:
            return layout, [1]
        rank = len(layout.offset_bases[0])
        return layout, [1 << reduce(lambda a, b: a | b, (v[d] for v in layout.offset_bases),
                                    0).bit_length() for d in range(rank)]
    if isinstance(layout, (L.TensorMemoryLayout, L.TensorMemoryScalesLayout)):
        return layout, draw(_tmem_shape(layout))
    rank = _rank(layout)
    shape = [draw(_pow2(0, max_dim_bits)) for _ in range(rank)]
    while sum(s.bit_length() - 1 for s in shape) > max_total_bits:
        shape[shape.index(max(shape))] //= 2
    return layout, shape


def layouts_with_shapes(layouts=None, max_dim_bits=7, max_total_bits=14):
    """(layout, shape) pairs whose conversion the library accepts; ``layouts`` defaults to every
    family (the tensor-memory ones over the shapes ``tensor_memory_families`` take)."""
    if layouts is None:
        layouts = st.one_of(distributed_layouts(), shared_layouts(), tensor_memory_families())
    return _with_shape(layouts, max_dim_bits, max_total_bits).filter(_converts)
