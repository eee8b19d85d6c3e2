#!/usr/bin/env python3
"""Summarises the SASS source page that bench/gpu/profile.sh writes (ncu --page source --csv
--print-source sass): where the warps' stall samples fall, by opcode and by instruction, and, when
the page has per-reason columns, by stall reason.

    python3 bench/gpu/stalls.py OUT/wide-pipelined-3-prefetch-sass.csv [--top 25]
"""
import argparse
import csv
import io
import re
import sys
from collections import Counter


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def opcode(source):
    """The opcode of a SASS line without its modifiers or predicate guard: "HMMA" for
    "@P0 HMMA.16816.F32 R4, ..."."""
    words = [w for w in source.split() if not w.startswith("@")]
    return words[0].split(".")[0] if words else "?"


def read_rows(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    # ncu prints banner lines (==PROF== ...) before the table; the table starts at the header row.
    start = text.find('"Address"')
    if start < 0:
        start = text.find('"#"')
    if start < 0:
        sys.exit(f"stalls: no CSV table in {path}")
    return list(csv.DictReader(io.StringIO(text[start:])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    rows = read_rows(args.csv)
    if not rows:
        sys.exit("stalls: the table is empty")
    columns = list(rows[0].keys())
    source = next((c for c in columns if c.strip().lower() == "source"), None)
    samples = next((c for c in columns if "Warp Stall Sampling (All" in c), None)
    if source is None or samples is None:
        sys.exit(f"stalls: expected a Source and a 'Warp Stall Sampling (All Samples)' column, "
                 f"got {columns}")
    # Per-reason columns (stall_wait, stall_math, ...: all samples; their "(Not Issued)" twins
    # are left out).
    reasons = [c for c in columns if c.startswith("stall_") and "Not Issued" not in c]

    total = sum(number(r[samples]) or 0 for r in rows)
    print(f"{len(rows)} SASS instructions, {total:.0f} stall samples")
    by_opcode = Counter()
    for r in rows:
        by_opcode[opcode(r[source])] += number(r[samples]) or 0
    print("\nby opcode:")
    for op, n in by_opcode.most_common(15):
        print(f"  {op:<12} {n:8.0f}  {100 * n / max(total, 1):5.1f} %")

    if reasons:
        by_reason = Counter()
        for r in rows:
            for c in reasons:
                by_reason[c] += number(r[c]) or 0
        print("\nby reason:")
        for c, n in by_reason.most_common(12):
            if n:
                print(f"  {c:<50} {n:8.0f}  {100 * n / max(total, 1):5.1f} %")

    # Loops: a branch back to an earlier address closes one. Their share of the samples says how
    # much of the time goes to the main loop and how much to the prologue and the epilogue.
    address = next((c for c in columns if c.strip().lower() == "address"), None)
    if address:
        index = {}  # address -> row
        for i, r in enumerate(rows):
            try:
                index[int(r[address], 16)] = i
            except ValueError:
                pass
        for i, r in enumerate(rows):
            m = re.search(r"\bBRA\s+(0x[0-9a-f]+)", r[source])
            first = index.get(int(m.group(1), 16)) if m else None
            if first is None or first >= i:
                continue
            parts = [sum(number(x[samples]) or 0 for x in part)
                     for part in (rows[:first], rows[first:i + 1], rows[i + 1:])]
            print(f"\nloop of {i + 1 - first} instructions at {rows[first][address]}: before "
                  f"{100 * parts[0] / max(total, 1):.1f} %, in {100 * parts[1] / max(total, 1):.1f}"
                  f" %, after {100 * parts[2] / max(total, 1):.1f} % of the samples")
    executed = next((c for c in columns if c == "Instructions Executed"), None)
    if executed:
        by_op = Counter()
        for r in rows:
            by_op[opcode(r[source])] += number(r[executed]) or 0
        all_executed = sum(by_op.values())
        print("\nexecuted warp instructions by opcode:")
        for op, n in by_op.most_common(10):
            print(f"  {op:<12} {n:12.0f}  {100 * n / max(all_executed, 1):5.1f} %")

    print(f"\ntop {args.top} instructions:")
    ranked = sorted(rows, key=lambda r: -(number(r[samples]) or 0))[: args.top]
    for r in ranked:
        n = number(r[samples]) or 0
        where = r[address] if address else ""
        top_reasons = sorted(((number(r[c]) or 0, c) for c in reasons), reverse=True)[:2]
        why = ", ".join(f"{c.split('(')[0].strip()} {v:.0f}" for v, c in top_reasons if v)
        print(f"  {where:>8} {n:7.0f}  {r[source].strip()[:60]:<60} {why}")


if __name__ == "__main__":
    main()
