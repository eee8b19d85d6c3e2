#!/usr/bin/env python3
"""Summarises bench/gpu/wavefronts.sh's Nsight Compute CSVs: one row per paths kernel, per
conversion per SM (the 64-round-trip launch less a 0-round-trip one, over 2 * 64 conversions
per CTA and the CTAs per SM): SM cycles, shared-memory load and store wavefronts and their bank
conflicts, warp instructions; then the kernel's registers and achieved occupancy.

    python3 bench/gpu/wavefronts.py OUT/*.csv
"""
import csv
import os
import sys

ROUND_TRIPS = 64
COLUMNS = [  # (heading, metric)
    ("cycles", "sm__cycles_elapsed.avg"),
    ("ld wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("st wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("ld conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
    ("st conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
    ("instructions", "smsp__inst_executed.sum"),
]
PER_SM = {"sm__cycles_elapsed.avg"}  # already an average over SMs


def launches(path):
    """The launches of one CSV, each a dict metric -> value (None where ncu printed n/a)."""
    rows = {}
    with open(path) as f:
        for r in csv.DictReader(line for line in f if line.startswith('"')):
            v = r["Metric Value"].replace(",", "")
            try:
                value = float(v)
            except ValueError:
                value = None
            rows.setdefault(r["ID"], {})[r["Metric Name"]] = value
    return list(rows.values())


def summary(path):
    ls = [l for l in launches(path) if l.get("gpu__time_duration.sum")]
    if len(ls) < 2:
        return None
    ls.sort(key=lambda l: l["gpu__time_duration.sum"])
    zero, full = ls[0], ls[-1]  # 0 and 64 round trips
    sms = full.get("device__attribute_multiprocessor_count") or 132
    ctas_per_sm = full["launch__grid_size"] / sms
    conversions = 2 * ROUND_TRIPS * ctas_per_sm  # per SM
    row = []
    for _, m in COLUMNS:
        a, b = full.get(m), zero.get(m)
        if a is None or b is None:
            row.append(None)
            continue
        d = (a - b) if m in PER_SM else (a - b) / sms
        row.append(d / conversions)
    return row, full.get("launch__registers_per_thread"), full.get(
        "sm__warps_active.avg.pct_of_peak_sustained_active")


def main(paths):
    if not paths:
        print(__doc__)
        return 2
    head = ["kernel"] + [h for h, _ in COLUMNS] + ["registers", "occupancy %"]
    print("| " + " | ".join(head) + " |")
    print("|---" + "|---:" * (len(head) - 1) + "|")
    for p in paths:
        s = summary(p)
        name = os.path.basename(p).removesuffix(".csv")
        if s is None:
            print(f"| {name} | (fewer than two launches) |")
            continue
        row, regs, occ = s
        cells = ["—" if v is None else f"{v:.1f}" for v in row]
        cells += [f"{regs:.0f}" if regs else "—", f"{occ:.0f}" if occ else "—"]
        print(f"| {name} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
