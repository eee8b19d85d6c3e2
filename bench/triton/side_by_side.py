#!/usr/bin/env python3
"""Times linlayout's layout algebra beside Triton's own C++ LinearLayout in one process.

Imports Triton (which maps libtriton.so), then loads linlayout_triton_side.so, which finds
Triton's hidden C++ functions in libtriton.so's symbol table and calls them (SideBySide.cpp).
Prints the self-checks, the per-op answer checks and a table; --json writes the figures.
Without Triton it says so and exits 0 (nothing to compare against).

    python3 bench/triton/side_by_side.py --lib build/lib/linlayout_triton_side.so --json out.json
"""
import argparse
import ctypes
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--lib", default=os.path.join(here, "..", "..", "build", "lib",
                                                  "linlayout_triton_side.so"))
    ap.add_argument("--json", default="")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=101)
    ap.add_argument("--batch-us", type=float, default=200.0)
    args = ap.parse_args()
    try:
        import triton
        import triton._C.libtriton as libtriton
    except ImportError as e:
        print(f"side-by-side against Triton: skipped, Triton is not importable here ({e}); "
              "it needs Triton's libtriton.so (the GPU machine: scripts/gpu/triton_algebra.sh)")
        return 0
    path = os.path.realpath(libtriton.__file__)
    print(f"Triton {triton.__version__}: {path} ({os.path.getsize(path) >> 20} MiB)", flush=True)
    if not os.path.exists(args.lib):
        print(f"side-by-side: {args.lib} is not built (target linlayout_triton_side)")
        return 1
    lib = ctypes.CDLL(os.path.realpath(args.lib))
    fn = lib.linlayout_triton_side_by_side
    fn.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_double]
    fn.restype = ctypes.c_int
    rc = fn(path.encode(), args.json.encode(), args.passes, args.rounds, args.batch_us)
    sys.stdout.flush()
    if rc == 1:
        print("side-by-side: a self-check failed; nothing was timed")
    elif rc == 2:
        print("side-by-side: some answers differ (rows marked DIFFERENT)")
    return rc


if __name__ == "__main__":
    sys.exit(main())
