#!/usr/bin/env python3
"""The tables of NOTES.md from raw/: the per-round ratios to cuBLAS / _scaled_mm, Nsight
Compute's medians per shape and side, and the CTA time stamps' medians.

  python3 summarize.py   (from this folder)"""
import glob, json, re, statistics as st

med = st.median


def ratios(paths):
    res = {}
    for p in paths:
        rows = [r for r in json.load(open(p)) if "side" in r]
        for key in sorted({(r["dtype"], r["n"], r["round"]) for r in rows}):
            d = {r["side"]: r["tflops"] for r in rows if (r["dtype"], r["n"], r["round"]) == key}
            base = d.pop("cublas")
            for side, v in d.items():
                res.setdefault((key[0], key[1], side), []).append(v / base)
    return res


def ncu():
    """{(call, shape, side): {metric: [values]}} from call2's files (one per shape and side),
    call2b's, call3's and call5's (sectioned by "== SHAPE KERNEL" lines)."""
    out = {}
    for p in sorted(glob.glob("raw/ncu-*.txt")):
        call = {"pairs": "call3", "candidates": "call5"}.get(p[len("raw/ncu-"):-4], "call2")
        m = re.match(r"raw/ncu-(.+)-(ours|cublas)\.txt", p)
        section = (call, m.group(1), m.group(2)) if m else None
        for line in open(p):
            if line.startswith("== "):
                shape, kernel = line.split()[1:3]
                side = {"nvjet": "cublas", "^matmul": "ours",
                        "^matmul_ws_split_tmastore$": "split"}.get(kernel, kernel)
                section = (call, shape, side)
                continue
            v = re.match(r"\s*(\S+)\s+\S+\s+([\d,.]+)\s*$", line)
            if v and section:
                out.setdefault(section, {}).setdefault(v.group(1), []).append(
                    float(v.group(2).replace(",", "")))
    return out


def main():
    print("ratio to the vendor side, median of per-round ratios (range, rounds >= 1)")
    for what, files in (("targets (call1, call2)", sorted(glob.glob("raw/gemm*.json"))
                         + ["raw/fp8.json"]),
                        ("candidates (call5)", sorted(glob.glob("raw/cand-*.json"))),
                        ("cooperative (call7)", sorted(glob.glob("raw/coop-*.json")))):
        print(f" {what}")
        for (dt, n, side), v in ratios(files).items():
            print(f"  {dt:10s} {n}^3 {side:7s} {len(v):3d} rounds  {med(v):.3f} "
                  f"({min(v):.3f}-{max(v):.3f}, {sum(x >= 1 for x in v)} >= 1)")
    print("Nsight Compute at base clock, medians")
    metrics = ["gpu__time_duration.sum", "gpc__cycles_elapsed.max", "sm__cycles_active.max",
               "sm__cycles_active.avg"]
    print("  shape side " + " ".join(metrics))
    for (call, shape, side), d in sorted(ncu().items()):
        print(f"  {call} {shape} {side} {len(d[metrics[1]])} launches " + " ".join(
            f"{med(d[m]):.2f}" if m in d else "-" for m in metrics)
              + f"  (elapsed range {min(d[metrics[1]]):.0f}-{max(d[metrics[1]]):.0f})")
    for p in sorted(glob.glob("raw/ctatimes-*.json")):
        d = json.load(open(p))
        print(f"{p}: medians of {len(d['launches'])} launches")
        for k, v in d["medians"].items():
            print(f"  {k:18s} {v:10.2f}")
        ctas = d["launches"][0]["ctas"]
        tiles = {}
        for c in ctas:
            for g in {s[2] for s in c["stores"]}:
                clk = [c["start_clk"]] + [s[1] for s in c["stores"] if s[2] == g]
                for i, (a, b) in enumerate(zip(clk, clk[1:])):
                    tiles.setdefault(f"tile {i}", []).append(b - a)
                tiles.setdefault("last store to end", []).append(c["end_clk"] - clk[-1])
        print("  launch 0, cycles per consumer warp group (median, min, max):")
        for k, v in tiles.items():
            print(f"    {k:18s} {med(v):8.0f} {min(v):8.0f} {max(v):8.0f}")


if __name__ == "__main__":
    main()
