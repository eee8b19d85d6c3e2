#!/usr/bin/env bash
# Runs on the GPU machine (device tool), from the repository root, after scripts/gpu/package.sh
# packed .carry/gpu.tgz here: the GPU tests, then the GPU benchmarks side by side with Triton/Gluon.
#   device run: bash bench/gpu/run.sh      (carry: [".carry"])
# Logs and JSON go to a work folder; $OUT (or /tmp/linlayout-gpu-out) gets results.tgz (all of
# them) and performance-gpu.md; the table is printed last.
#   SKIP_TESTS=1 / SKIP_BENCH=1 / SKIP_TRITON=1 leave a part out; TEST_FILTER narrows the tests.
set -uo pipefail
out=${OUT:-/tmp/linlayout-gpu-out}
work=$(mktemp -d /tmp/linlayout-gpu.XXXX)
mkdir -p "$out"
bin=.carry/gpu
if [ -f .carry/gpu.tgz ]; then
  bin=$(mktemp -d /tmp/linlayout-bin.XXXX)
  tar xzf .carry/gpu.tgz -C "$bin"
fi
started=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$work/gpu.txt"
clock=$(nvidia-smi --query-gpu=clocks.max.sm --format=csv,noheader,nounits | head -1)
printf '{"date": "%s", "sm_clock_mhz": %s}\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" "${clock:-null}" > "$work/meta.json"
status=0
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  echo "== GPU tests"
  for t in "$bin"/*_tests; do
    [ -x "$t" ] || continue
    "$t" --gtest_filter="${TEST_FILTER:-*Gpu*}" > "$work/$(basename "$t").log" 2>&1
    rc=$?
    grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[       OK \]|^\[  FAILED  \]|random pairs|matmul' "$work/$(basename "$t").log" \
      | grep -v '^\[       OK \]' | sed "s|^|$(basename "$t"): |" | head -40
    [ $rc -eq 0 ] || { status=1; grep -B2 -A12 'Failure' "$work/$(basename "$t").log" | head -60; }
  done
  echo "   tests took $(( $(date +%s) - started )) s"
fi
if [ "${SKIP_BENCH:-0}" != 1 ] && [ -x "$bin/linlayout_gpu_bench" ]; then
  echo "== GPU benchmarks (linlayout)"
  "$bin/linlayout_gpu_bench" --json "$work/linlayout.json" || status=1
  echo "   at $(( $(date +%s) - started )) s"
fi
if [ "${SKIP_BENCH:-0}" != 1 ] && [ "${SKIP_TRITON:-0}" != 1 ]; then
  echo "== GPU benchmarks (Triton/Gluon)"
  for s in bench/gpu/gluon_*.py; do
    [ -f "$s" ] || continue
    name=$(basename "$s" .py)
    PYTHONUNBUFFERED=1 python3 "$s" "$work/$name.json" > "$work/$name.log" 2>&1 || { status=1; tail -5 "$work/$name.log"; }
    echo "   $name done at $(( $(date +%s) - started )) s"
  done
fi
echo "== Table"
[ -f bench/gpu/report.py ] && python3 bench/gpu/report.py "$work" && cp "$work/performance-gpu.md" "$out/"
tar czf "$out/results.tgz" -C "$work" .
exit $status
