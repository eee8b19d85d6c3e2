#!/usr/bin/env bash
# Runs on the GPU machine (device tool), from the repository root, after scripts/gpu/package.sh
# built .carry/gpu/ here: the GPU tests, then the GPU benchmarks side by side with Triton/Gluon.
#   device run: bash bench/gpu/run.sh      (carry: [".carry"])
# Writes logs and JSON under $OUT (or /tmp/linlayout-gpu) and prints a table last.
set -uo pipefail
out=${OUT:-/tmp/linlayout-gpu}
mkdir -p "$out"
bin=.carry/gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
status=0
echo "== GPU tests"
for t in "$bin"/*_tests; do
  [ -x "$t" ] || continue
  "$t" --gtest_filter='*Gpu*' --gtest_brief=1 > "$out/$(basename "$t").log" 2>&1
  rc=$?
  tail -n 3 "$out/$(basename "$t").log" | sed "s|^|$(basename "$t"): |"
  [ $rc -eq 0 ] || status=1
done
if [ -x "$bin/linlayout_gpu_bench" ]; then
  echo "== GPU benchmarks (linlayout)"
  "$bin/linlayout_gpu_bench" --json "$out/linlayout.json" || status=1
fi
if [ "${SKIP_TRITON:-0}" != 1 ]; then
  echo "== GPU benchmarks (Triton/Gluon)"
  for s in bench/gpu/gluon_*.py; do
    [ -f "$s" ] || continue
    name=$(basename "$s" .py)
    PYTHONUNBUFFERED=1 python3 "$s" "$out/$name.json" > "$out/$name.log" 2>&1 || { status=1; tail -5 "$out/$name.log"; }
  done
fi
[ -f bench/gpu/report.py ] && python3 bench/gpu/report.py "$out"
exit $status
