#!/usr/bin/env bash
set -euo pipefail
dir=$1 repo=$(pwd)
cd "$dir"
harness="$repo/bench/gpu/gemm_same_harness.py"
IDLE_S=2 ROUNDS=4 SIZES="4096" python3 "$harness" "$OUT/f16.json" \
  tmastore=matmul_ws_persistent_tmastore.ptx skbound=matmul_ws_persistent_skbound.ptx
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
SIZES="4096x4096x4096" ROUNDS=0 "$ncu" --kernel-name regex:"matmul|nvjet" \
  --clock-control base --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_active.min \
  python3 "$harness" /tmp/x.json tmastore=matmul_ws_persistent_tmastore.ptx \
  skbound=matmul_ws_persistent_skbound.ptx > "$OUT/ncu.txt" 2>&1
grep -E "^  [a-z]|duration|cycles" "$OUT/ncu.txt"
