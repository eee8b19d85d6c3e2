#!/usr/bin/env bash
# Runs every CPU benchmark binary (Google Benchmark) in BUILD/bin, showing each benchmark as it
# finishes, then rewrites the CPU tables of docs/performance.md from the results (median CPU time
# per call over 5 repetitions, heap allocations per call) with the machine, load and commit.
#   usage: bash scripts/bench.sh [BUILD]      (make bench calls it as `bash scripts/bench.sh build`)
# The JSON stays in BUILD/bench-results/. GPU benchmarks (names with "gpu") need the device
# machine: see bench/gpu/run.sh.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."

# Benchmarks may have been switched off in this build directory; switch them on and build.
if ! grep -q '^LINLAYOUT_BUILD_BENCH:BOOL=ON' "$build/CMakeCache.txt" 2>/dev/null; then
  cmake -S . -B "$build" -DLINLAYOUT_BUILD_BENCH=ON >/dev/null
fi
echo "bench: building the benchmarks"
cmake --build "$build" -j "$(nproc)" --target linlayout_bench >/dev/null

machine="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), $(nproc) cores"
load=$(cut -d' ' -f1 /proc/loadavg)
date=$(date -u '+%Y-%m-%d %H:%M UTC')
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
type=$(grep -m1 '^CMAKE_BUILD_TYPE' "$build/CMakeCache.txt" | cut -d= -f2)
compiler=$(grep -m1 '^CMAKE_CXX_COMPILER:' "$build/CMakeCache.txt" | cut -d= -f2)
buildinfo="${type:-RelWithDebInfo}, $(basename "$compiler") $("$compiler" -dumpversion)"
echo "machine: $machine, load $load"
echo "date:    $date, commit $commit"
echo "build:   $buildinfo"

out=$build/bench-results
rm -rf "$out"
mkdir -p "$out"
python3 -c 'import json,sys; json.dump(dict(machine=sys.argv[1], load=sys.argv[2], date=sys.argv[3],
commit=sys.argv[4], build=sys.argv[5]), open(sys.argv[6], "w"))' \
  "$machine" "$load" "$date" "$commit" "$buildinfo" "$out/meta.json"
bins=()
for b in "$build"/bin/*bench*; do
  [ -x "$b" ] && [ -f "$b" ] || continue
  case "$(basename "$b")" in *gpu*) continue ;; esac
  bins+=("$b")
done
[ ${#bins[@]} -gt 0 ] || { echo "no benchmark binaries in $build/bin"; exit 1; }
i=0
for b in "${bins[@]}"; do
  i=$((i + 1))
  name=$(basename "$b")
  echo "bench: [$i/${#bins[@]}] $name (each line is one benchmark's median of 5 runs)"
  # The console shows each benchmark as it finishes; the JSON is what the tables are made from.
  "$b" --benchmark_repetitions=5 --benchmark_min_time=0.2 --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/$name.json" --benchmark_out_format=json --benchmark_color=false |
    grep --line-buffered -E '_median|^-|^Benchmark' || true
done
python3 scripts/perf-tables.py "$out/meta.json" docs/performance.md "$out"/*bench*.json

# The side-by-side against Triton's own C++ LinearLayout (bench/triton/) needs Triton's
# libtriton.so in this python3 (the GPU machine has it: scripts/gpu/triton_algebra.sh).
if python3 -c 'import triton._C.libtriton' 2>/dev/null; then
  echo "bench: side by side with Triton's C++ LinearLayout"
  cmake --build "$build" -j "$(nproc)" --target linlayout_triton_side >/dev/null
  python3 bench/triton/side_by_side.py --lib "$build/lib/linlayout_triton_side.so" \
    --json "$out/side_by_side.json"
else
  echo "bench: side by side with Triton's C++ LinearLayout skipped: no Triton in python3 here" \
    "(it needs libtriton.so; see scripts/gpu/triton_algebra.sh)"
fi
