#!/usr/bin/env python3
"""Random layout-query cases answered by Triton 3.6, in ../shared/reference's JSON Lines form.

Runs on the GPU machine's python3 (Triton with Gluon; no GPU needed):

    python3 scripts/gpu/triton_cases.py --seed 7 --count 2000 > cases.jsonl

Every case is one query line of QUERY-FORMAT.md plus Triton's answer: "expect" when Triton gives
one, "expect_error" (Triton's message) when Triton refuses the input, "triton_crashed" when it
trips one of its own assertions instead (bank conflicts of tiles under 128 bytes, say). Each case
is answered in a forked child, so a crash costs that case only. Check linlayout against them with

    python3 tests/reference/check_triton_cases.py cases.jsonl

The spec generators draw the families of the query format (blocked with CGA splits, slice,
nvidia_mma v2/v3, dot_operand over mma and blocked parents, linear, and the swizzled and NVMMA
shared layouts for bank_conflicts), some of them written in TritonGPU's attribute syntax, and the
algebra ops over random linear layouts. `--wide` draws from wider ranges than the default
(ranks up to 4, up to 32 warps, wgmma K of 8 and 32, k_width 16, swizzle vectors of 16, larger
algebra layouts), to probe what the default draws leave out; a seed's cases depend on both.
`--amd` draws AMD's families instead: amd_mfma (versions 1-4, every instruction shape, transposed,
64-bit elements, tiles per warp, CGA splits), amd_wmma (versions 1-3), dot operands of both over
the k_width values Triton takes, slices of all of them, and blocked layouts of 64-lane
wavefronts. Fields Gluon's class lacks make the case an error rather than being dropped.
"""
import argparse
import dataclasses
import json
import os
import random
import sys
import tempfile

# Set by --wide: draw from the wider ranges (see the module's docstring).
WIDE = False
# Set by --amd: draw AMD's families (see the module's docstring).
AMD = False


def pow2(rng, lo, hi):
    """A random power of two in [2^lo, 2^hi]."""
    return 1 << rng.randint(lo, hi)


def split_bits(rng, bits, rank):
    """Split 2^bits into `rank` power-of-two factors."""
    out = [1] * rank
    for _ in range(bits):
        out[rng.randrange(rank)] *= 2
    return out


def cga_bases(rng, rank, allow_broadcast=True):
    n = rng.choice([0, 0, 1, 1, 2, 3])
    bases = []
    for _ in range(n):
        if allow_broadcast and rng.random() < 0.15 and bases:
            bases.append(list(rng.choice(bases)))
        elif rng.random() < 0.05:
            bases.append([0] * rank)
        else:
            b = [0] * rank
            d = rng.randrange(rank)
            b[d] = pow2(rng, 0, 2)
            bases.append(b)
    return bases


def blocked(rng, rank):
    lane_bits = 5 if rng.random() < 0.95 else rng.choice([4, 6])  # a few non-32-lane warps
    if AMD:
        lane_bits = 6 if rng.random() < 0.9 else 5  # wavefronts of 64 (RDNA's of 32)
    spec = {"kind": "blocked",
            "size_per_thread": [pow2(rng, 0, 4 if WIDE else 3) for _ in range(rank)],
            "threads_per_warp": split_bits(rng, lane_bits, rank),
            "warps_per_cta": split_bits(rng, rng.randint(0, 5 if WIDE else 3), rank),
            "order": rng.sample(range(rank), rank)}
    r = rng.random()
    if r < 0.25:
        spec["cga_layout"] = cga_bases(rng, rank)
    elif r < 0.35:  # the older CTA split fields
        ctas = split_bits(rng, rng.randint(0, 3), rank)
        spec["ctas_per_cga"] = ctas
        spec["cta_split_num"] = [1 << rng.randint(0, c.bit_length() - 1) for c in ctas]
        spec["cta_order"] = rng.sample(range(rank), rank)
    return spec


def mma(rng, version=None, rank=None):
    version = version or rng.choice([2, 2, 3])
    rank = rank or (3 if rng.random() < 0.15 else 2)
    if version == 2:
        warps = split_bits(rng, rng.randint(0, 5 if WIDE else 3), rank)
        spec = {"kind": "nvidia_mma", "version": [2, 0], "warps_per_cta": warps,
                "instr_shape": [16, 8] if rank == 2 else [1, 16, 8]}
    else:
        rank = 2
        warps = [4 * w for w in split_bits(rng, rng.randint(0, 2 if WIDE else 1), 1)] + [1]
        if rng.random() < 0.3:
            warps = rng.choice([[4, 2], [4, 4], [8, 2]]) if WIDE else [4, 2]
        k = rng.choice([8, 16, 32]) if WIDE else 16
        spec = {"kind": "nvidia_mma", "version": [3, 0], "warps_per_cta": warps,
                "instr_shape": [16, rng.choice([8, 16, 32, 64, 128, 256]), k]}
    if rng.random() < 0.2:
        spec["cga_layout"] = cga_bases(rng, rank, allow_broadcast=False)
    return spec


def dot_operand(rng):
    r = rng.random()
    if r < 0.65:
        parent = mma(rng, 2)
        return {"kind": "dot_operand", "operand_index": rng.randrange(2), "parent": parent,
                "k_width": rng.choice([1, 2, 4, 8, 16] if WIDE else [1, 2, 4, 8])}
    if r < 0.85:
        parent = mma(rng, 3)
        return {"kind": "dot_operand", "operand_index": 0 if rng.random() < 0.9 else 1,
                "parent": parent, "k_width": rng.choice([1, 2, 4, 8] if WIDE else [1, 2, 4])}
    parent = blocked(rng, rng.choice([2, 2, 3, 4] if WIDE else [2, 2, 3]))
    parent.pop("cga_layout", None)
    return {"kind": "dot_operand", "operand_index": rng.randrange(2), "parent": parent,
            "k_width": rng.choice([0, 0, 0, 1, 2])}


# --- AMD's families ---------------------------------------------------------------------------

def amd_mfma(rng, rank=None):
    rank = rank or (3 if rng.random() < 0.15 else 2)
    mn = rng.choice([[32, 32], [32, 32], [16, 16], [16, 16], [64, 4], [4, 64]])
    k = {32: [2, 4, 8, 16], 16: [4, 8, 16, 32], 64: [4], 4: [4]}[mn[0]]
    spec = {"kind": "amd_mfma", "version": rng.randint(1, 4), "instr_shape": mn + [rng.choice(k)],
            # 64x4 is always transposed (Triton swaps the operands to use the broadcast)
            "transposed": True if mn == [64, 4] else rng.random() < 0.5,
            "warps_per_cta": split_bits(rng, rng.randint(0, 3), rank)}
    if rng.random() < 0.2:
        spec["element_bitwidth"] = 64
    if rng.random() < 0.3:
        spec["tiles_per_warp"] = [pow2(rng, 0, 1) for _ in range(rank)]
    if rng.random() < 0.2:
        spec["cga_layout"] = cga_bases(rng, rank, allow_broadcast=False)
    return spec


def amd_wmma(rng, rank=None):
    rank = rank or (3 if rng.random() < 0.15 else 2)
    version = rng.randint(1, 3)
    k = [16] if version < 3 else [4, 32, 64, 128]
    spec = {"kind": "amd_wmma", "version": version, "transposed": rng.random() < 0.5,
            "warps_per_cta": split_bits(rng, rng.randint(0, 3), rank)}
    if rng.random() < 0.7:
        spec["instr_shape"] = [16, 16, rng.choice(k)]
    if rng.random() < 0.3:
        spec["tiles_per_warp"] = [pow2(rng, 0, 1) for _ in range(rank)]
    if rng.random() < 0.2:
        spec["cga_layout"] = cga_bases(rng, rank, allow_broadcast=False)
    return spec


def amd_dot_operand(rng):
    parent = amd_mfma(rng) if rng.random() < 0.6 else amd_wmma(rng)
    k_width = rng.choice([1, 2, 4, 4, 8, 8, 16, 32] if parent["kind"] == "amd_mfma"
                         else [2, 4, 8, 8, 16, 16])
    return {"kind": "dot_operand", "operand_index": rng.randrange(2), "parent": parent,
            "k_width": k_width}


def amd_distributed(rng, depth=0):
    r = rng.random()
    if r < 0.3:
        return amd_mfma(rng)
    if r < 0.5:
        return amd_wmma(rng)
    if r < 0.8:
        return amd_dot_operand(rng)
    if r < 0.95 and depth < 2:
        parent = amd_distributed(rng, depth + 1)
        rank = rank_of(parent)
        if rank < 2:
            return amd_mfma(rng)
        return {"kind": "slice", "dim": rng.randrange(rank), "parent": parent}
    return blocked(rng, rng.choice([1, 2, 2, 3]))


def distributed(rng, depth=0):
    if AMD:
        return amd_distributed(rng, depth)
    r = rng.random()
    if r < 0.35:
        return blocked(rng, rng.choice([1, 2, 2, 3, 4, 4] if WIDE else [1, 2, 2, 2, 3]))
    if r < 0.6:
        return mma(rng)
    if r < 0.8:
        return dot_operand(rng)
    if r < 0.95 and depth < (3 if WIDE else 2):
        parent = distributed(rng, depth + 1)
        rank = rank_of(parent)
        if rank < 2:
            return blocked(rng, 2)
        return {"kind": "slice", "dim": rng.randrange(rank), "parent": parent}
    return linear_spec(rng)


def linear_spec(rng):
    rank = rng.choice([1, 2, 2])
    shape = [pow2(rng, 0, 5) for _ in range(rank)]
    if rng.random() < 0.5:
        # A layout as compilers write them: the unit bases of the shape (some XORed together),
        # dealt to registers, lanes and warps, with zero bases where lanes or warps repeat.
        bases = mixed(rng, unit_bases(shape)) if rng.random() < 0.3 else unit_bases(shape)
        rng.shuffle(bases)
        dims = {"reg_bases": [], "lane_bases": [], "warp_bases": []}
        for b in bases:
            dims[rng.choice(list(dims))].append(b)
        if len(dims["lane_bases"]) > 5:
            dims["reg_bases"] += dims["lane_bases"][5:]
            dims["lane_bases"] = dims["lane_bases"][:5]
        dims["lane_bases"] += [[0] * rank for _ in range(5 - len(dims["lane_bases"]))]
        return dict({"kind": "linear"}, **dims, block_bases=[], shape=shape)

    def basis():
        b = [0] * rank
        d = rng.randrange(rank)
        b[d] = rng.randrange(shape[d]) if shape[d] > 1 else 0
        return b
    return {"kind": "linear", "reg_bases": [basis() for _ in range(rng.randint(0, 3))],
            "lane_bases": [basis() for _ in range(5)],
            "warp_bases": [basis() for _ in range(rng.randint(0, 2))],
            "block_bases": [], "shape": shape}


def rank_of(spec):
    k = spec["kind"]
    if k == "blocked":
        return len(spec["order"])
    if k in ("nvidia_mma", "amd_mfma", "amd_wmma"):
        return len(spec["warps_per_cta"])
    if k == "dot_operand":
        return rank_of(spec["parent"])
    if k == "slice":
        return rank_of(spec["parent"]) - 1
    if k == "linear":
        return len(spec["shape"])
    return spec.get("rank", 2)


def shape_for(rng, rank, lo=0, hi=8, budget=16):
    while True:
        shape = [pow2(rng, lo, hi) for _ in range(rank)]
        total = 1
        for s in shape:
            total *= s
        if total <= (1 << budget):
            return shape


def shared(rng, rank, bitwidth):
    if rng.random() < 0.5:
        max_phase = pow2(rng, 0, 4 if WIDE else 3)
        spec = {"kind": "swizzled_shared", "vec": pow2(rng, 0, 4 if WIDE else 3),
                "per_phase": pow2(rng, 0, 3 if WIDE else 2),
                "max_phase": max_phase, "order": rng.sample(range(rank), rank)}
    else:
        if rng.random() < 0.1:  # an element width that differs from the access's
            bitwidth = rng.choice([8, 16, 32])
        spec = {"kind": "nvmma_shared", "swizzle_byte_width": rng.choice([0, 32, 64, 128]),
                "element_bitwidth": bitwidth, "rank": rank, "transposed": rng.random() < 0.3}
    return spec


def cga_of(spec):
    """The CGA layout a distributed spec splits its tile with (a dot operand's and a slice's
    derived from their parents', as Gluon derives them)."""
    k = spec["kind"]
    if k in ("blocked", "nvidia_mma", "amd_mfma", "amd_wmma"):
        return spec.get("cga_layout", [])
    if k == "dot_operand":
        rank = rank_of(spec)
        k_dim = rank - 1 if spec["operand_index"] == 0 else rank - 2
        return [[0 if i == k_dim else v for i, v in enumerate(b)] for b in cga_of(spec["parent"])]
    if k == "slice":
        return [b[:spec["dim"]] + b[spec["dim"] + 1:] for b in cga_of(spec["parent"])]
    return []


# --- linear layouts for the algebra ops ------------------------------------------------------

HW_DIMS = ["register", "lane", "warp", "block"]


def out_sizes(rng, rank, max_bits=5):
    return [pow2(rng, 0, max_bits) for _ in range(rank)]


def random_value(rng, sizes):
    return [rng.randrange(s) for s in sizes]


def unit_bases(sizes):
    """One basis per output bit: (d, 2^i) for every bit i of every output d."""
    out = []
    for d, s in enumerate(sizes):
        for i in range(s.bit_length() - 1):
            v = [0] * len(sizes)
            v[d] = 1 << i
            out.append(v)
    return out


def mixed(rng, bases):
    """XOR random pairs of bases: the span (and so invertibility) is kept."""
    bases = [list(b) for b in bases]
    for _ in range(rng.randint(0, 2 * len(bases))):
        if len(bases) < 2:
            break
        i, j = rng.sample(range(len(bases)), 2)
        bases[i] = [x ^ y for x, y in zip(bases[i], bases[j])]
    return bases


def deal(rng, bases, names):
    """Spread a list of bases over input dimensions, in order."""
    dims = [[n, []] for n in names]
    for b in bases:
        rng.choice(dims)[1].append(b)
    return dims


def layout_json(in_dims, sizes):
    return {"in_dims": in_dims, "out_dims": [["dim%d" % i, s] for i, s in enumerate(sizes)]}


def algebra_case(rng):
    op = rng.choice(["compose", "invert", "pseudoinvert", "invert_and_compose", "apply",
                     "is_surjective", "is_injective"])
    rank = rng.randint(1, 4 if WIDE else 3)
    sizes = out_sizes(rng, rank, 6 if WIDE else 5)
    if op in ("invert", "pseudoinvert", "is_surjective", "is_injective", "apply"):
        bases = mixed(rng, unit_bases(sizes))
        rng.shuffle(bases)
        if op != "invert" or rng.random() < 0.1:
            extra = [random_value(rng, sizes) for _ in range(rng.randint(0, 4))]
            bases = bases[:len(bases) - rng.randint(0, 1 if op.startswith("is_") else 0)] + extra
            rng.shuffle(bases)
        names = HW_DIMS if rng.random() < 0.8 else HW_DIMS[:3]
        a = layout_json(deal(rng, bases, names), sizes)
        case = {"op": op, "a": a}
        if op == "apply":
            case["inputs"] = [[n, rng.randrange(1 << len(b))] for n, b in a["in_dims"]]
        return case
    if op == "compose":
        a_bases = [random_value(rng, sizes) for _ in range(rng.randint(0, 8))]
        a = layout_json(deal(rng, a_bases, HW_DIMS), sizes)
        sizes_b = out_sizes(rng, rng.randint(1, 3))
        b_in = [["dim%d" % d, [random_value(rng, sizes_b) for _ in range(s.bit_length() - 1)]]
                for d, s in enumerate(sizes)]
        return {"op": op, "a": a, "b": layout_json(b_in, sizes_b)}
    # invert_and_compose: b (offset, block) surjective onto the outputs a reaches.
    b_bases = mixed(rng, unit_bases(sizes)) + [random_value(rng, sizes)
                                               for _ in range(rng.randint(0, 2))]
    rng.shuffle(b_bases)
    b = layout_json([["offset", b_bases], ["block", []]], sizes)
    a_bases = [random_value(rng, sizes) for _ in range(rng.randint(0, 10))]
    return {"op": op, "a": layout_json(deal(rng, a_bases, HW_DIMS), sizes), "b": b}


# --- Triton side ----------------------------------------------------------------------------

def triton_cga(spec):
    """The spec's CGA bases; the older split fields converted by Triton's own make_cga_layout."""
    if "ctas_per_cga" in spec:
        from triton._C.libtriton import gluon_ir
        return gluon_ir.make_cga_layout(spec["ctas_per_cga"], spec["cta_split_num"],
                                        spec["cta_order"])
    return spec.get("cga_layout", [])


def amd_layout(spec, cls):
    """Gluon's AMD layout from the spec's fields (named as Gluon names them); a field the class
    lacks is an error, so that a case never silently means something else."""
    names = {f.name for f in dataclasses.fields(cls)}
    args = {k: v for k, v in spec.items() if k != "kind"}
    missing = sorted(set(args) - names)
    if missing:
        raise TypeError("%s has no field %s" % (cls.__name__, ", ".join(missing)))
    return cls(**args)


def amd_classes():
    try:
        from triton.experimental.gluon.language import amd
        return amd.AMDMFMALayout, amd.AMDWMMALayout
    except (ImportError, AttributeError):
        from triton.experimental.gluon.language.amd import _layouts
        return _layouts.AMDMFMALayout, _layouts.AMDWMMALayout


def triton_layout(spec, ttgl):
    k = spec["kind"]
    if k == "amd_mfma":
        return amd_layout(spec, amd_classes()[0])
    if k == "amd_wmma":
        return amd_layout(spec, amd_classes()[1])
    if k == "blocked":
        return ttgl.BlockedLayout(spec["size_per_thread"], spec["threads_per_warp"],
                                  spec["warps_per_cta"], spec["order"], triton_cga(spec))
    if k == "slice":
        return ttgl.SliceLayout(spec["dim"], triton_layout(spec["parent"], ttgl))
    if k == "nvidia_mma":
        return ttgl.NVMMADistributedLayout(spec["version"], spec["warps_per_cta"],
                                           spec["instr_shape"], triton_cga(spec))
    if k == "dot_operand":
        return ttgl.DotOperandLayout(spec["operand_index"], triton_layout(spec["parent"], ttgl),
                                     spec["k_width"])
    if k == "linear":
        return ttgl.DistributedLinearLayout(spec["reg_bases"], spec["lane_bases"],
                                            spec["warp_bases"], spec["block_bases"], spec["shape"])
    if k == "swizzled_shared":
        return ttgl.SwizzledSharedLayout(spec["vec"], spec["per_phase"], spec["max_phase"],
                                         spec["order"], triton_cga(spec))
    if k == "nvmma_shared":
        return ttgl.NVMMASharedLayout(spec["swizzle_byte_width"], spec["element_bitwidth"],
                                      spec["rank"], spec["transposed"], False, triton_cga(spec))
    raise ValueError(k)


def pairs(named):
    """(name, value) pairs of a binding's result, whether it comes as a dict or as a list."""
    return named.items() if hasattr(named, "items") else named


def linear_json(dll, shape):
    return {"in_dims": [["register", dll.reg_bases], ["lane", dll.lane_bases],
                        ["warp", dll.warp_bases], ["block", dll.block_bases]],
            "out_dims": [["dim%d" % i, s] for i, s in enumerate(shape)]}



def attribute_in(text, prefix):
    """The first attribute starting with `prefix` in a printed MLIR type, up to its closing '>'."""
    start = text.index(prefix)
    depth = 0
    for i in range(start, len(text)):
        depth += {"<": 1, ">": -1}.get(text[i], 0)
        if depth == 0 and text[i] == ">":
            return text[start:i + 1]
    raise ValueError("unbalanced attribute text: " + text)

class Triton:
    def __init__(self):
        import triton.experimental.gluon.language as ttgl
        from triton._C.libtriton import ir, gluon_ir
        self.ttgl = ttgl
        self.ctx = ir.context()
        ir.load_dialects(self.ctx)
        self.b = gluon_ir.GluonOpBuilder(self.ctx)

    def attr_text(self, spec, shape):
        """The spec as Triton prints it: the encoding of a tensor or memdesc type."""
        attr = triton_layout(spec, self.ttgl)._to_ir(self.b)
        if spec["kind"].endswith("_shared"):
            ty = self.b.get_shared_mem_desc_ty(self.b.get_half_ty(), list(shape), attr, list(shape))
        else:
            ty = self.b.get_distributed_ty(self.b.get_half_ty(), list(shape), attr)
        return attribute_in(str(ty), "#ttg.")

    def answer(self, case):
        op = case["op"]
        if op == "to_linear":
            spec = case["layout"]
            lay = triton_layout(spec, self.ttgl)
            dll = self.b.to_linear_layout(lay._to_ir(self.b), list(case["shape"]))
            return linear_json(dll, case["shape"])
        if op == "bank_conflicts":
            reg = triton_layout(case["reg"], self.ttgl)._to_ir(self.b)
            sh = triton_layout(case["shared"], self.ttgl)._to_ir(self.b)
            return int(self.b.get_shared_bank_conflicts(reg, sh, list(case["shape"]),
                                                        case["bitwidth"]))
        return self.algebra(case)

    def ll(self, js):
        from triton._C.libtriton.linear_layout import LinearLayout
        return LinearLayout.from_bases([(n, b) for n, b in js["in_dims"]],
                                       [n for n, _ in js["out_dims"]],
                                       [s for _, s in js["out_dims"]], require_surjective=False)

    @staticmethod
    def ll_json(ll):
        return {"in_dims": [[n, [list(map(int, v)) for v in b]] for n, b in pairs(ll.bases)],
                "out_dims": [[n, int(s)] for n, s in pairs(ll.out_dims)]}

    def algebra(self, case):
        op = case["op"]
        a = self.ll(case["a"])
        if op == "compose":
            return self.ll_json(a.compose(self.ll(case["b"])))
        if op == "invert":
            return self.ll_json(a.invert())
        if op == "pseudoinvert":
            return self.ll_json(a.pseudoinvert())
        if op == "invert_and_compose":
            return self.ll_json(a.invert_and_compose(self.ll(case["b"])))
        if op == "apply":
            out = a.apply({n: v for n, v in case["inputs"]})
            return [[n, int(v)] for n, v in pairs(out)]
        if op == "is_surjective":
            return bool(a.is_surjective())
        if op == "is_injective":
            return bool(a.is_injective())
        raise ValueError(op)


def in_child(fn):
    """Run fn() in a forked child. Returns ("expect", value), ("expect_error", Triton's message)
    for a refusal (an exception or a fatal error it reports), or ("triton_crashed", the failed
    assertion) where Triton trips one of its own assertions: no answer to compare with."""
    r, w = os.pipe()
    err = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(err.fileno(), 2)
        try:
            out = {"ok": fn()}
        except BaseException as e:  # noqa: BLE001 - every refusal is an answer
            out = {"err": ("%s: %s" % (type(e).__name__, e))[:300]}
        with os.fdopen(w, "w") as f:
            f.write(json.dumps(out))
        os._exit(0)
    os.close(w)
    with os.fdopen(r) as f:
        data = f.read()
    os.waitpid(pid, 0)
    if not data:
        err.seek(0)
        lines = err.read().decode(errors="replace").strip().splitlines()
        message = " | ".join(lines[-4:])[:400]
        return ("triton_crashed" if "Assertion" in message else "expect_error"), message
    out = json.loads(data)
    return ("expect", out["ok"]) if "ok" in out else ("expect_error", out["err"])


def make_case(rng):
    r = rng.random()
    if r < (0.0 if AMD else 0.2):
        return algebra_case(rng)
    if r < (1.0 if AMD else 0.7):
        spec = distributed(rng)
        rank = rank_of(spec)
        shape = shape_for(rng, rank, 0, 10 if rank == 1 else 8)
        if AMD and rng.random() < 0.7:  # mostly at least an instruction tile
            shape = shape_for(rng, rank, 4 if rank < 3 else 2, 10 if rank == 1 else 8)
        if spec["kind"] == "linear":  # its own shape, or one twice or half as large in a dim
            shape = list(spec["shape"])
            if rng.random() < 0.3:
                d = rng.randrange(rank)
                shape[d] = shape[d] * 2 if shape[d] == 1 or rng.random() < 0.5 else shape[d] // 2
        case = {"op": "to_linear", "layout": spec, "shape": shape}
    else:
        reg = distributed(rng)
        rank = rank_of(reg)
        bitwidth = rng.choice([8, 16, 32, 32, 64])
        sh = shared(rng, rank, bitwidth)
        if cga_of(reg) and rng.random() < 0.7:  # the shared tile split over the same CTAs
            sh["cga_layout"] = cga_of(reg)
        case = {"op": "bank_conflicts", "reg": reg, "shared": sh,
                "shape": shape_for(rng, rank, 2, 8, 14), "bitwidth": bitwidth}
    return case


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--attr-fraction", type=float, default=0.15,
                    help="share of specs written in TritonGPU's attribute syntax")
    ap.add_argument("--wide", action="store_true", help="draw from the wider ranges")
    ap.add_argument("--amd", action="store_true", help="draw AMD's families")
    args = ap.parse_args()
    global WIDE, AMD
    WIDE = args.wide
    AMD = args.amd
    rng = random.Random(args.seed)
    tri = Triton()
    for i in range(args.count):
        case = make_case(rng)
        key, val = in_child(lambda: tri.answer(case))
        if key == "expect" and case["op"] in ("to_linear", "bank_conflicts") and \
                rng.random() < args.attr_fraction:
            field = "layout" if case["op"] == "to_linear" else rng.choice(["reg", "shared"])
            got, text = in_child(lambda: tri.attr_text(case[field], case["shape"]))
            if got == "expect":
                case[field] = text
        case["id"] = ("a%d-%d" if AMD else "w%d-%d" if WIDE else "t%d-%d") % (args.seed, i)
        case[key] = val
        print(json.dumps(case), flush=True)


if __name__ == "__main__":
    sys.exit(main())
