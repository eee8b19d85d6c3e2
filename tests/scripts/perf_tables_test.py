#!/usr/bin/env python3
"""scripts/perf-tables.py rewrites a marked table from benchmark JSON, with its machine, load and
commit, and leaves the rest of the page alone."""
import json, os, subprocess, sys, tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with tempfile.TemporaryDirectory() as d:
    meta = os.path.join(d, "meta.json")
    json.dump(dict(machine="Test CPU, 2 cores", load="0.10", date="2026-12-02 16:00 UTC",
                   commit="abc1234", build="RelWithDebInfo, g++ 12"), open(meta, "w"))
    bench = os.path.join(d, "linlayout_bench.json")
    json.dump({"benchmarks": [
        {"run_name": "BM_Apply_14bit", "aggregate_name": "median", "cpu_time": 6.5,
         "time_unit": "ns", "allocs/iter": 0},
        {"run_name": "BM_Apply_14bit", "aggregate_name": "mean", "cpu_time": 9.0,
         "time_unit": "ns", "allocs/iter": 0},
        {"run_name": "BM_PlanConversion128x128/pair:0", "aggregate_name": "median",
         "cpu_time": 12.5, "time_unit": "us", "allocs/iter": 553}]}, open(bench, "w"))
    doc = os.path.join(d, "perf.md")
    open(doc, "w").write("# Page\n\n<!-- bench-table: core ^BM_(?!Plan) -->\nold\n"
                         "<!-- end bench-table -->\n\nprose\n\n"
                         "<!-- bench-table: plans ^BM_Plan -->\nold\n<!-- end bench-table -->\n")
    p = subprocess.run([sys.executable, os.path.join(root, "scripts", "perf-tables.py"), meta, doc,
                        bench], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    text = open(doc).read()
    assert "old" not in text, text
    assert "prose" in text, text
    assert "- machine: Test CPU, 2 cores, load average 0.10 at the start" in text, text
    assert "- date: 2026-12-02 16:00 UTC; commit: abc1234" in text, text
    assert "| BM_Apply_14bit |            6.5 ns |           0 |" in text, text
    assert "| BM_PlanConversion128x128/pair:0 |          12.50 us |         553 |" in text, text
    assert text.count("BM_Apply_14bit") == 1, text  # the mean is not a row
print("perf-tables: ok")
