#!/usr/bin/env python3
"""Random tensor-memory cases answered by Triton 3.6's Gluon, in the form of triton_cases.py.

Runs on the GPU machine's python3 (Triton with Gluon; no GPU needed):

    python3 scripts/gpu/tmem_cases.py --seed 401 --count 600 > tmem.jsonl
    python3 scripts/gpu/tmem_cases.py --api > gluon-tmem-api.txt

Two kinds of case, each a query line of docs/query.md plus Triton's answer ("expect",
"expect_error" or "triton_crashed", as triton_cases.py records them):
- `to_linear` of a random Gluon TensorMemoryLayout(block, col_stride, cta_split_num, two_ctas)
  or TensorMemoryScalesLayout(cta_split_num) over a random shape (some that Triton refuses: too
  few rows for the block, a CTA split that does not divide the shape), answered by
  to_linear_layout: the (row, col) -> (dim0, dim1) layout of tensor memory. Some specs are
  written as the attribute text Triton prints for them (#ttng.tensor_memory_encoding<...>).
- `tmem_reg_layout`: Gluon's get_tmem_reg_layout(element type, shape, layout, num_warps,
  instr_variant, cga_layout), the register layout of tcgen05.ld/st messages.
`--api` prints what this Gluon's classes and functions take (their signatures), so that a
difference from the 3.6 this was written against shows. Check linlayout against the cases with

    python3 tests/reference/check_triton_cases.py tmem.jsonl --bin build/bin/linlayout
"""
import argparse
import dataclasses
import inspect
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from triton_cases import attribute_in  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_cases  # noqa: E402  (in_child, Triton: the same harness as the other sets)

VARIANTS = ["32x32b", "32x32b", "16x64b", "16x128b", "16x256b"]


def blackwell():
    from triton.experimental.gluon.language.nvidia import blackwell as bw
    return bw


def split_bases(split):
    """A CTA split [M, N] as CGA bases, dim0 fastest (tensor memory's only CTA order)."""
    bases = [[1 << i, 0] for i in range(split[0].bit_length() - 1)]
    return bases + [[0, 1 << i] for i in range(split[1].bit_length() - 1)]


def gluon_tmem(spec):
    """Gluon's layout for a spec, by the fields this Gluon's class has."""
    bw = blackwell()
    split = spec.get("cta_split_num") or [1, 1]
    if spec["kind"] == "tensor_memory_scales":
        cls = bw.TensorMemoryScalesLayout
        names = {f.name for f in dataclasses.fields(cls)}
        if "cga_layout" in names:
            return cls(cga_layout=split_bases(split))
        return cls(cta_split_num=tuple(split) if split != [1, 1] else None)
    cls = bw.TensorMemoryLayout
    names = {f.name for f in dataclasses.fields(cls)}
    args = {"block": tuple(spec["block"])}
    if "col_stride" in names:
        args["col_stride"] = spec["col_stride"]
    else:
        args["unpacked"] = spec["col_stride"] != 1
    if "cga_layout" in names:
        args["cga_layout"] = split_bases(split)
    elif split != [1, 1]:
        args["cta_split_num"] = tuple(split)
    if spec.get("two_ctas"):
        args["two_ctas"] = True
    return cls(**args)


def tmem_spec(rng):
    if rng.random() < 0.2:
        spec = {"kind": "tensor_memory_scales"}
    else:
        spec = {"kind": "tensor_memory", "block": [rng.choice([64, 128]), 1 << rng.randint(0, 9)],
                "col_stride": rng.choice([1, 1, 1, 2, 4])}
        if rng.random() < 0.15:
            spec["two_ctas"] = True
    if rng.random() < 0.25:
        spec["cta_split_num"] = [rng.choice([1, 2, 2, 4]), rng.choice([1, 1, 2])]
    return spec


def shape_for(rng, spec):
    split = spec.get("cta_split_num") or [1, 1]
    if spec["kind"] == "tensor_memory_scales":
        m, n = 1 << rng.randint(3, 9), 1 << rng.randint(0, 6)
    else:
        m = spec["block"][0] * (1 << rng.choice([0, 0, 0, 1, 2]))
        n = 1 << rng.randint(0, 9)
        if rng.random() < 0.07:
            m //= 2  # fewer rows than the block: Triton refuses
    return [m * split[0], n * split[1]] if rng.random() < 0.9 else [m, n]


def linear_of(result, shape):
    """to_linear_layout's answer for a tensor-memory layout: rows and columns, whatever form this
    binding gives them in."""
    if isinstance(result, dict):
        ins = list(result.items())
    elif hasattr(result, "rows") and hasattr(result, "cols"):
        ins = [["row", result.rows], ["col", result.cols]]
    elif hasattr(result, "bases"):
        ins = list(triton_cases.pairs(result.bases))
    else:
        raise TypeError("to_linear_layout answered a %s: %r" % (type(result).__name__, result))
    return {"in_dims": [[n, [list(map(int, b)) for b in bs]] for n, bs in ins],
            "out_dims": [["dim%d" % i, s] for i, s in enumerate(shape)]}


def attr_text(tri, spec, shape):
    attr = gluon_tmem(spec)._to_ir(tri.b)
    ty = tri.b.get_tensor_mem_desc_ty(tri.b.get_half_ty(), list(shape), attr, list(shape))
    return attribute_in(str(ty), "#ttng.")


def element_type(bits):
    import triton.experimental.gluon.language as ttgl
    return {8: ttgl.int8, 16: ttgl.float16, 32: ttgl.float32}[bits]


def reg_layout(case):
    bw = blackwell()
    args = [element_type(case["element_bitwidth"]), list(case["shape"]),
            gluon_tmem(case["layout"]), case["num_warps"], case["instr_variant"]]
    cga = case.get("cga_layout", [])
    # A constexpr_function: its plain Python function, where the wrapper keeps one.
    fn = bw.get_tmem_reg_layout
    fn = getattr(fn, "fn", None) or getattr(fn, "__wrapped__", None) or fn
    try:
        got = fn(*args, cga_layout=cga)
    except TypeError as e:
        if "cga_layout" not in str(e):
            raise
        got = fn(*args)
    got = getattr(got, "value", got)
    return triton_cases.linear_json(got, case["shape"])


def api():
    bw = blackwell()
    import triton
    print("triton", triton.__version__)
    for name in ("TensorMemoryLayout", "TensorMemoryScalesLayout"):
        cls = getattr(bw, name, None)
        print(name, [(f.name, str(f.default)) for f in dataclasses.fields(cls)] if cls else None)
    fn = getattr(bw, "get_tmem_reg_layout", None)
    print("get_tmem_reg_layout", inspect.signature(getattr(fn, "fn", fn)) if fn else None)
    tri = triton_cases.Triton()
    spec = {"kind": "tensor_memory", "block": [64, 32], "col_stride": 2,
            "cta_split_num": [2, 1], "two_ctas": True}
    print(triton_cases.in_child(lambda: attr_text(tri, spec, [128, 64])))
    print(triton_cases.in_child(
        lambda: attr_text(tri, {"kind": "tensor_memory_scales", "cta_split_num": [1, 2]}, [128, 8])))
    print(triton_cases.in_child(lambda: repr(tri.b.to_linear_layout(
        gluon_tmem(spec)._to_ir(tri.b), [128, 64]))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=401)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--api", action="store_true", help="print this Gluon's tensor-memory API")
    args = ap.parse_args()
    if args.api:
        return api()
    rng = random.Random(args.seed)
    tri = triton_cases.Triton()
    for i in range(args.count):
        spec = tmem_spec(rng)
        shape = shape_for(rng, spec)
        if rng.random() < 0.5:
            case = {"op": "to_linear", "layout": spec, "shape": shape}

            def answer():
                attr = gluon_tmem(spec)._to_ir(tri.b)
                return linear_of(tri.b.to_linear_layout(attr, list(shape)), shape)
        else:
            if spec["kind"] == "tensor_memory" and rng.random() < 0.8:
                shape[0] = max(shape[0], 128 * (spec.get("cta_split_num") or [1, 1])[0])
            case = {"op": "tmem_reg_layout", "layout": spec, "shape": shape,
                    "num_warps": rng.choice([4, 4, 8, 8, 16]),
                    "instr_variant": rng.choice(VARIANTS),
                    "element_bitwidth": rng.choice([8, 16, 32, 32])}
            if spec.get("cta_split_num") and rng.random() < 0.8:
                case["cga_layout"] = split_bases(spec["cta_split_num"])

            def answer():
                return reg_layout(case)
        key, val = triton_cases.in_child(answer)
        if key == "expect" and rng.random() < 0.25:
            got, text = triton_cases.in_child(lambda: attr_text(tri, spec, shape))
            if got == "expect":
                case["layout"] = text
        case["id"] = "m%d-%d" % (args.seed, i)
        case[key] = val
        print(json.dumps(case), flush=True)


if __name__ == "__main__":
    sys.exit(main())
