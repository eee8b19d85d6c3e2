#!/usr/bin/env python3
"""Writes the CPU benchmark tables of docs/performance.md from Google Benchmark's JSON, so that
they cannot go stale silently: each table sits between `<!-- bench-table: NAME REGEX -->` and
`<!-- end bench-table -->` and is replaced whole, with the machine, its load, the date and the
commit the numbers were measured on. `make bench` (scripts/bench.sh) runs it.

  usage: perf-tables.py META.json DOC.md BENCH.json...     (writes DOC.md; prints each table)
"""
import json, re, sys

def rows_of(paths):
    rows = []
    for path in paths:
        for b in json.load(open(path))["benchmarks"]:
            if b.get("aggregate_name") != "median":
                continue
            scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
            rows.append((b["run_name"], b["cpu_time"] * scale, b.get("allocs/iter")))
    return rows

def fmt(ns):
    return f"{ns:,.1f} ns" if ns < 1e4 else f"{ns / 1e3:,.2f} us"

def table(meta, rows):
    w = max([len("benchmark")] + [len(r[0]) for r in rows])
    out = [f"- machine: {meta['machine']}, load average {meta['load']} at the start",
           f"- date: {meta['date']}; commit: {meta['commit']}",
           f"- build: {meta['build']}",
           f"- command: {meta.get('command', '`make bench` (= `bash scripts/bench.sh build`)')}",
           "",
           f"| {'benchmark':<{w}} | {'CPU time (median)':>17} | {'allocs/call':>11} |",
           f"|{'-' * (w + 2)}|{'-' * 18}:|{'-' * 12}:|"]
    for name, ns, allocs in rows:
        a = "" if allocs is None else f"{allocs:g}"
        out.append(f"| {name:<{w}} | {fmt(ns):>17} | {a:>11} |")
    return "\n".join(out)

def main():
    meta = json.load(open(sys.argv[1]))
    doc_path = sys.argv[2]
    rows = rows_of(sys.argv[3:])
    doc = open(doc_path, encoding="utf-8").read()
    marker = re.compile(r"(<!-- bench-table: (\S+) (\S+) -->\n)(.*?)(<!-- end bench-table -->)", re.S)
    def replace(m):
        name, pattern = m.group(2), re.compile(m.group(3))
        mine = [r for r in rows if pattern.search(r[0])]
        if not mine:
            print(f"perf-tables: no benchmark matches {name} ({pattern.pattern}); kept as is")
            return m.group(0)
        t = table(meta, mine)
        print(f"\n{name}:\n{t}")
        return m.group(1) + t + "\n" + m.group(5)
    new = marker.sub(replace, doc)
    if new != doc:
        open(doc_path, "w", encoding="utf-8").write(new)
        print(f"\nperf-tables: updated {doc_path} (review the prose around the tables, then commit)")

if __name__ == "__main__":
    main()
