#!/usr/bin/env bash
# Runs every CPU benchmark binary (Google Benchmark) in BUILD/bin and prints one table:
# the median CPU time per call over 5 repetitions, and heap allocations per call.
#   usage: bash scripts/bench.sh [BUILD]      (make bench calls it as `bash scripts/bench.sh build`)
# GPU benchmarks (names with "gpu") need the device machine: see bench/gpu/run.sh.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."

# Benchmarks may have been switched off in this build directory; switch them on and build.
if ! grep -q '^LINLAYOUT_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  cmake -S . -B "$build" -DLINLAYOUT_BUILD_BENCH=ON >/dev/null
fi
cmake --build "$build" -j "$(nproc)" >/dev/null

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores," \
  "load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "date:    $(date -u '+%Y-%m-%d %H:%M UTC')"
type=$(grep -m1 '^CMAKE_BUILD_TYPE' "$build/CMakeCache.txt" | cut -d= -f2)
compiler=$(grep -m1 '^CMAKE_CXX_COMPILER:' "$build/CMakeCache.txt" | cut -d= -f2)
echo "build:   ${type:-RelWithDebInfo} ($compiler $("$compiler" -dumpversion))"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
found=0
for b in "$build"/bin/*bench*; do
  [ -x "$b" ] && [ -f "$b" ] || continue
  case "$(basename "$b")" in *gpu*) continue ;; esac
  found=1
  "$b" --benchmark_repetitions=5 --benchmark_min_time=0.2 --benchmark_report_aggregates_only=true \
    --benchmark_format=json --benchmark_out="$tmp/$(basename "$b").json" \
    --benchmark_out_format=json >/dev/null
done
[ $found = 1 ] || { echo "no benchmark binaries in $build/bin"; exit 1; }

python3 - "$tmp"/*.json <<'PY'
import json, sys
rows = []
for path in sys.argv[1:]:
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[b.get("time_unit", "ns")]
        rows.append((b["run_name"], b["cpu_time"] * scale, b.get("allocs/iter")))
def fmt(ns):
    return f"{ns:,.1f} ns" if ns < 1e4 else f"{ns / 1e3:,.2f} us"
w = max(len(r[0]) for r in rows)
print(f"\n| {'benchmark':<{w}} | {'CPU time (median)':>17} | {'allocs/call':>11} |")
print(f"|{'-' * (w + 2)}|{'-' * 18}:|{'-' * 12}:|")
for name, ns, allocs in rows:
    a = "" if allocs is None else f"{allocs:g}"
    print(f"| {name:<{w}} | {fmt(ns):>17} | {a:>11} |")
PY
