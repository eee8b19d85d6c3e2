#!/usr/bin/env python3
"""Call overhead of linlayout's Python binding: invert_and_compose of a 14-bit layout through
Python, against the same C++ call timed in C++, and against Triton's own binding
(triton._C.libtriton.linear_layout.LinearLayout) where Triton is installed (the GPU machine).

usage: PYTHONPATH=build/python python3 bench/python/invert_and_compose.py [--json OUT]

The layouts: a 128x128 tile held by 4 warps (2^14 elements, 4 registers per thread), as a
blocked layout with rows fastest and one with columns fastest (the transposing conversion's
question). The same bases go to both libraries.
"""
import argparse
import json
import platform
import sys
import timeit

import linlayout
from linlayout import _core

SRC = [("register", [[0, 1], [0, 2], [0, 32], [0, 64], [16, 0], [32, 0], [64, 0]]),
       ("lane", [[0, 4], [0, 8], [0, 16], [1, 0], [2, 0]]),
       ("warp", [[4, 0], [8, 0]]), ("block", [])]
# The same tile with the roles of rows and columns swapped.
DST = [(name, [[y, x] for x, y in bases]) for name, bases in SRC]
OUT = ["dim0", "dim1"]


def best(stmt, names, number, repeat):
    """The fastest of many short runs of `stmt` (ns per call): short enough that one often
    escapes being preempted on a shared machine, many enough that the minimum is stable."""
    return min(timeit.repeat(stmt, globals=names, number=number, repeat=repeat)) / number * 1e9


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", help="write the figures here too")
    ap.add_argument("--number", type=int, default=200, help="calls per timed run")
    ap.add_argument("--repeat", type=int, default=300, help="timed runs; the fastest counts")
    args = ap.parse_args()

    a = linlayout.LinearLayout.from_bases(SRC, OUT)
    b = linlayout.LinearLayout.from_bases(DST, OUT)
    assert a.get_total_in_dim_size_log2() == 14 and b.is_surjective()
    c = a.invert_and_compose(b)
    assert c.compose(b) == a

    res = {"machine": platform.node(), "python": platform.python_version(), "bits": 14}
    res["cpp_ns"] = min(_core._time_invert_and_compose(a, b, args.number)
                        for _ in range(args.repeat))
    res["python_ns"] = best("a.invert_and_compose(b)", {"a": a, "b": b}, args.number,
                            args.repeat)
    try:
        from triton._C.libtriton.linear_layout import LinearLayout as TritonLL
        ta = TritonLL.from_bases(SRC, OUT)
        tb = TritonLL.from_bases(DST, OUT)
        tc = ta.invert_and_compose(tb)
        assert tc.compose(tb) == ta
        res["triton_ns"] = best("a.invert_and_compose(b)", {"a": ta, "b": tb},
                                max(10, args.number // 20), args.repeat // 3)
        import triton
        res["triton"] = triton.__version__
    except ImportError as e:
        res["triton_ns"] = None
        res["triton_note"] = "Triton is not installed here: " + str(e)

    print("invert_and_compose of a 14-bit layout (128x128, 4 warps), fastest of many short runs, ns per call")
    print("| call | ns | vs C++ |")
    print("|---|---|---|")
    print("| C++ `invertAndCompose` | %.0f | 1.00x |" % res["cpp_ns"])
    print("| Python `linlayout` | %.0f | %.2fx (C++ + %.0f ns) |" % (
        res["python_ns"], res["python_ns"] / res["cpp_ns"], res["python_ns"] - res["cpp_ns"]))
    if res["triton_ns"]:
        print("| Python `triton` %s | %.0f | %.0fx; linlayout is %.0fx faster |" % (
            res["triton"], res["triton_ns"], res["triton_ns"] / res["cpp_ns"],
            res["triton_ns"] / res["python_ns"]))
    else:
        print("| Python `triton` | - | %s |" % res["triton_note"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
