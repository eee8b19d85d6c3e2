#!/usr/bin/env python3
"""Random padded_shared cases answered by Triton 3.6's Gluon, in the form of triton_cases.py.

Runs on the GPU machine's python3 (Triton with Gluon; no GPU needed):

    python3 scripts/gpu/padded_cases.py --seed 301 --count 1000 > padded.jsonl

Each case is a `to_linear` query of a random Gluon PaddedSharedLayout(interval_padding_pairs,
offset_bases, cga_layout, shape) (some written as the attribute text Triton prints for it, some
over another shape, some invalid: intervals or paddings that are not powers of two, an interval
twice, a basis that is zero, repeated or moves two dimensions), with Triton's answer: "expect"
(the linear layout of to_linear_layout), "expect_error" (its refusal) or "triton_crashed" (one
of its assertions). If this Gluon lacks PaddedSharedLayout or to_linear_layout refuses padded
layouts, every case says so, and the reference stays Triton's C++ tests (PaddedSharedTest.cpp).
Check linlayout against the cases with

    python3 tests/reference/check_triton_cases.py padded.jsonl --bin build/bin/linlayout
"""
import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import triton_cases  # noqa: E402  (in_child, Triton: the same harness as the other sets)


def padded_spec(rng):
    rank = rng.randint(1, 3)
    shape = triton_cases.split_bits(rng, rng.randint(1, 10), rank)
    # cga_layout: block bases in tensor coordinates, as Triton 3.6's Gluon reads them; the offsets
    # fill one CTA's tile. A quarter of the specs give them in CTA tiles instead, which repeats an
    # offset basis wherever the tile has more than one element: Triton refuses those.
    grid, ctas = [1] * rank, []
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        d = rng.randrange(rank)
        if shape[d] // grid[d] >= 2:
            ctas.append((d, grid[d]))
            grid[d] *= 2
    tile = [s // g for s, g in zip(shape, grid)]
    scale = [1] * rank if rng.random() < 0.25 else tile
    block = [[c * scale[d] if i == d else 0 for i in range(rank)] for d, c in ctas]
    offset = [[(1 << i) if d == dim else 0 for d in range(rank)]
              for dim in range(rank) for i in range(tile[dim].bit_length() - 1)]
    rng.shuffle(offset)
    pairs, seen = [], set()
    for _ in range(rng.randint(1, 3)):
        interval = 1 << rng.randint(0, 10)
        if interval not in seen:
            seen.add(interval)
            pairs.append([interval, 1 << rng.randint(0, 4)])
    r = rng.random()
    if r < 0.04:
        pairs[0][0] = rng.choice([0, 3, 24])
    elif r < 0.08:
        pairs[0][1] = rng.choice([0, 3, 12])
    elif r < 0.11:
        pairs.append(list(pairs[0]))
    elif r < 0.14 and offset:
        offset[rng.randrange(len(offset))] = [0] * rank
    elif r < 0.17 and len(offset) > 1:
        offset[1] = list(offset[0])
    elif r < 0.20 and rank > 1 and shape[0] > 1 and shape[1] > 1:
        offset.append([1, 1] + [0] * (rank - 2))
    return {"kind": "padded_shared", "interval_padding_pairs": pairs, "offset_bases": offset,
            "cga_layout": block, "shape": shape}


def gluon_padded(spec):
    import triton.experimental.gluon.language as ttgl
    return ttgl.PaddedSharedLayout([tuple(p) for p in spec["interval_padding_pairs"]],
                                   spec["offset_bases"], spec["cga_layout"], spec["shape"])


# Triton.attr_text builds its layouts with triton_layout; teach it this family.
_other_layouts = triton_cases.triton_layout


def _with_padded(spec, ttgl):
    return gluon_padded(spec) if spec["kind"] == "padded_shared" else _other_layouts(spec, ttgl)


triton_cases.triton_layout = _with_padded


def linear_of(result, shape):
    """The answer of to_linear_layout: a shared linear layout (offset, block bases) or, in
    bindings that return the distributed form, whatever bases it has."""
    if isinstance(result, dict):  # a binding that answers {in dim: bases}
        ins = [[n, b] for n, b in result.items()]
    elif hasattr(result, "offset_bases"):
        ins = [["offset", result.offset_bases], ["block", result.block_bases]]
    else:
        ins = [[n, getattr(result, n + "_bases")] for n in ("reg", "lane", "warp", "block")
               if getattr(result, n + "_bases", None)]
    return {"in_dims": [[n, [list(map(int, b)) for b in bs]] for n, bs in ins],
            "out_dims": [["dim%d" % i, s] for i, s in enumerate(shape)]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=301)
    ap.add_argument("--count", type=int, default=1000)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tri = triton_cases.Triton()

    def answer(case):
        attr = gluon_padded(case["layout"])._to_ir(tri.b)
        return linear_of(tri.b.to_linear_layout(attr, list(case["shape"])), case["shape"])

    for i in range(args.count):
        spec = padded_spec(rng)
        shape = list(spec["shape"])
        if rng.random() < 0.1:
            shape[0] *= 2
        case = {"op": "to_linear", "layout": spec, "shape": shape}
        key, val = triton_cases.in_child(lambda: answer(case))
        if key == "expect" and rng.random() < 0.3:
            got, text = triton_cases.in_child(lambda: tri.attr_text(spec, spec["shape"]))
            if got == "expect":
                case["layout"] = text
        case["id"] = "p%d-%d" % (args.seed, i)
        case[key] = val
        print(json.dumps(case), flush=True)


if __name__ == "__main__":
    sys.exit(main())
