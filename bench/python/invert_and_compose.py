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
import statistics
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


def timed_runs(stmt, names, number, repeat):
    """ns per call of `stmt` in each of `repeat` runs of `number` calls."""
    timer = timeit.Timer(stmt, globals=names)
    return [timer.timeit(number) / number * 1e9 for _ in range(repeat)]


def summary(runs):
    return {"median": statistics.median(runs), "min": min(runs)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", help="write the figures here too")
    ap.add_argument("--number", type=int, default=1000, help="calls per timed run")
    ap.add_argument("--repeat", type=int, default=300, help="timed runs; the median counts")
    args = ap.parse_args()

    a = linlayout.LinearLayout.from_bases(SRC, OUT)
    b = linlayout.LinearLayout.from_bases(DST, OUT)
    assert a.get_total_in_dim_size_log2() == 14 and b.is_surjective()
    c = a.invert_and_compose(b)
    assert c.compose(b) == a

    res = {"machine": platform.node(), "python": platform.python_version(), "bits": 14,
           "number": args.number, "repeat": args.repeat}
    # The C++ loop and the Python loop alternate, run by run, so that both see the same load
    # on a shared machine; the medians over all runs are the figures, the minima a check.
    cpp, py = [], []
    for _ in range(args.repeat):
        cpp.append(_core._time_invert_and_compose(a, b, args.number))
        py.extend(timed_runs("a.invert_and_compose(b)", {"a": a, "b": b}, args.number, 1))
    res["cpp_ns"], res["python_ns"] = summary(cpp), summary(py)
    try:
        from triton._C.libtriton.linear_layout import LinearLayout as TritonLL
        ta = TritonLL.from_bases(SRC, OUT)
        tb = TritonLL.from_bases(DST, OUT)
        tc = ta.invert_and_compose(tb)
        assert tc.compose(tb) == ta
        # Triton's call is ~100 us: fewer calls per run, each run next to a linlayout run.
        tri, py2 = [], []
        for _ in range(max(5, args.repeat // 10)):
            tri.extend(timed_runs("a.invert_and_compose(b)", {"a": ta, "b": tb},
                                  max(5, args.number // 20), 1))
            py2.extend(timed_runs("a.invert_and_compose(b)", {"a": a, "b": b}, args.number, 1))
        res["triton_ns"], res["python_ns_beside_triton"] = summary(tri), summary(py2)
        import triton
        res["triton"] = triton.__version__
    except ImportError as e:
        res["triton_ns"] = None
        res["triton_note"] = "Triton is not installed here: " + str(e)

    c, p = res["cpp_ns"]["median"], res["python_ns"]["median"]
    print("invert_and_compose of a 14-bit layout (128x128, 4 warps): ns per call, median of "
          "%d runs of %d calls (min in brackets)" % (args.repeat, args.number))
    print("| call | ns | |")
    print("|---|---|---|")
    print("| C++ `invertAndCompose` (C++ loop) | %.0f (%.0f) | 1x |" % (c, res["cpp_ns"]["min"]))
    print("| `linlayout.LinearLayout.invert_and_compose` | %.0f (%.0f) | %.2fx the C++ call; "
          "C++ + %.0f ns (target: 2x + 100 = %.0f) |" % (p, res["python_ns"]["min"], p / c, p - c,
                                                          2 * c + 100))
    if res["triton_ns"]:
        t, p2 = res["triton_ns"]["median"], res["python_ns_beside_triton"]["median"]
        print("| Triton %s `LinearLayout.invert_and_compose` | %.0f (%.0f) | linlayout is "
              "%.0fx faster (%.0f ns beside it) |" % (res["triton"], t, res["triton_ns"]["min"],
                                                      t / p2, p2))
    else:
        print("| Triton's `LinearLayout.invert_and_compose` | - | %s |" % res["triton_note"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
