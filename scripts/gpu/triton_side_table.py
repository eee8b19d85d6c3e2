#!/usr/bin/env python3
"""Rewrites the side-by-side table of docs/performance.md (between the triton-side-by-side
markers) from a `scripts/gpu/triton_algebra.sh run` result folder (summary.txt and
side_by_side.json), and lists the ops whose answers were not the same in both libraries.

  usage: triton_side_table.py RESULTS_DIR [DOC.md]     (default docs/performance.md)
"""
import json, os, re, sys

run = sys.argv[1]
doc = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..",
                                                         "docs", "performance.md")
summary = open(os.path.join(run, "summary.txt")).read().splitlines()
field = lambda prefix: next(l for l in summary if l.startswith(prefix))
built = field("built from:").split()[2]
date = field("date:").split(";")[0].replace("date: ", "")
load = field("host:").split("load ")[1].split()[0]
triton = field("Triton ").split(":")[0]
cases = json.load(open(os.path.join(run, "side_by_side.json")))["cases"]
ns = lambda v: f"{v:,.0f} ns" if v >= 100 else f"{v:.1f} ns"
rows = [f"- machine: Intel(R) Xeon(R) Processor, 16 cores (the H200 machine's host CPU, idle: "
        f"load {load})",
        f"- date: {date}; commit: {built} (RelWithDebInfo, g++ 12); {triton}, Python 3.12", "",
        "| op | benchmark | ours | Triton | Triton / ours |", "|---|---|---:|---:|---:|"]
rows += [f"| {c['op']} | {c['bench']} | {ns(c['ours_ns'])} | {ns(c['triton_ns'])} | "
         f"{c['ratio']:.1f}x |" for c in cases]
text = open(doc, encoding="utf-8").read()
marker = re.compile(r"(<!-- triton-side-by-side:begin -->\n).*?(<!-- triton-side-by-side:end -->)",
                    re.S)
open(doc, "w", encoding="utf-8").write(marker.sub(lambda m: m.group(1) + "\n".join(rows) + "\n" +
                                                  m.group(2), text))
print("\n".join(rows))
for c in cases:
    if c["check"] != "same":
        print(f"answers differ: {c['bench']}: {c['check']}")
print(f"triton_side_table: updated {doc}; review the reading below the table, then commit")
