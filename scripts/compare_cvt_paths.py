#!/usr/bin/env python3
"""Sets linlayout's conversion plans beside the paths Triton took (scripts/gpu/triton_cvt_paths.py).

usage: compare_cvt_paths.py PATHS.jsonl... [--bin build/bin/linlayout] [--show 3]

Triton's path is read from its PTX: shared memory when it stores or loads shared memory, warp
shuffles when it shuffles, registers otherwise. linlayout's is the `plan` op's `path` for sm_90
(no-op and register-permute both count as registers). Prints the table of pairs and, for each
disagreement, a few cases with linlayout's cost of every path it found feasible.
"""
import argparse
import collections
import json
import subprocess


def triton_path(ptx):
    if ptx["st_shared"] + ptx["ld_shared"] + ptx["ldmatrix"] + ptx["stmatrix"]:
        return "shared-memory"
    return "warp-shuffle" if ptx["shfl"] else "registers"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--bin", default="build/bin/linlayout")
    ap.add_argument("--show", type=int, default=3)
    args = ap.parse_args()
    rows = [json.loads(line) for f in args.paths for line in open(f) if line.strip()]
    rows = [r for r in rows if "ptx" in r]
    queries = "".join(json.dumps({"id": i, "op": "plan", "src": r["src"], "dst": r["dst"],
                                  "shape": r["shape"], "bitwidth": r["bitwidth"],
                                  "target": "sm_90"}) + "\n" for i, r in enumerate(rows))
    run = subprocess.run([args.bin, "query"], input=queries, capture_output=True, text=True)
    plans = {a["id"]: a for a in map(json.loads, run.stdout.splitlines())}
    table = collections.Counter()
    shown = collections.Counter()
    for i, r in enumerate(rows):
        plan = plans[i].get("result")
        ours = "error" if plan is None else plan["path"]
        ours = "registers" if ours in ("no-op", "register-permute") else ours
        key = (triton_path(r["ptx"]), ours)
        table[key] += 1
        if key[0] != key[1] and shown[key] < args.show:
            shown[key] += 1
            costs = [(plan["path"], plan["cycles"])] + [(a["path"], a["cycles"])
                                                        for a in plan.get("alternatives", [])]
            print("Triton %s, linlayout %s: %s %s -> %s over %s, %d-bit; linlayout's costs %s" % (
                key[0], key[1], "exact" if r.get("exact") else "NOT EXACT",
                json.dumps(r["src"]), json.dumps(r["dst"]), r["shape"], r["bitwidth"], costs))
    print("%-16s %-16s %s" % ("Triton", "linlayout", "conversions"))
    for (t, o), n in sorted(table.items()):
        print("%-16s %-16s %d" % (t, o, n))
    same = sum(n for (t, o), n in table.items() if t == o)
    print("%d/%d take the same path" % (same, len(rows)))


if __name__ == "__main__":
    main()
