#!/usr/bin/env python3
"""Summarise bench/gpu/clocks.sh's samples: per phase (between its MARK lines), the SM clock, the
power and the clock-event reasons of the samples where the GPU was busy (power above --busy-w).

usage: clocks_summary.py DIR [--busy-w 300]     (DIR holds smi.csv or smi.csv.gz, and marks.txt)
"""
import argparse
import collections
import csv
import datetime
import gzip
import os


def stamp(text):
    return datetime.datetime.strptime(text, "%Y/%m/%d %H:%M:%S.%f")


def median(xs):
    return sorted(xs)[len(xs) // 2] if xs else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--busy-w", type=float, default=300)
    args = ap.parse_args()
    samples = []  # (time, sm MHz, watts, reasons)
    path = os.path.join(args.dir, "smi.csv")
    if not os.path.exists(path):
        path += ".gz"
    with (gzip.open if path.endswith(".gz") else open)(path, "rt") as f:
        for row in csv.reader(f):
            row = [x.strip() for x in row]
            try:
                samples.append((stamp(row[0]), int(row[1].split()[0]), float(row[3].split()[0]),
                                row[6]))
            except (ValueError, IndexError):
                continue  # a sample nvidia-smi could not read ([N/A]) or a cut-off last line
    marks = []
    with open(os.path.join(args.dir, "marks.txt")) as f:
        for line in f:
            p = line.split()
            marks.append((stamp(p[1] + " " + p[2]), p[3], " ".join(p[4:])))
    print("| phase | busy samples | SM MHz median | SM MHz min | W median | W max | "
          "reasons (share of busy samples) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    starts = {}
    for t, kind, name in marks:
        if kind == "start":
            starts[name] = t
            continue
        busy = [s for s in samples if starts[name] <= s[0] <= t and s[2] > args.busy_w]
        reasons = collections.Counter(s[3] for s in busy)
        share = ", ".join("%s %.0f %%" % (r, 100.0 * n / len(busy))
                          for r, n in reasons.most_common()) if busy else "-"
        print("| %s | %d | %s | %s | %s | %s | %s |" % (
            name, len(busy), median([s[1] for s in busy]), min([s[1] for s in busy], default="-"),
            median([round(s[2]) for s in busy]), max([round(s[2]) for s in busy], default="-"),
            share))


if __name__ == "__main__":
    main()
