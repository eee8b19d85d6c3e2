#!/usr/bin/env bash
set -euo pipefail
dir=$1 repo=$(pwd)
cd "$dir"
harness="$repo/bench/gpu/gemm_same_harness.py"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
SIZES="4096x4096x4096" ROUNDS=0 "$ncu" --kernel-name regex:"matmul" \
  --clock-control base --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_active.min,sm__cycles_active.max \
  python3 "$harness" /tmp/x.json tmastore=matmul_ws_persistent_tmastore.ptx \
  skoff=matmul_ws_persistent_skoff.ptx sknostore=matmul_ws_persistent_sknostore.ptx skbound=matmul_ws_persistent_skbound.ptx skdpfirst=matmul_ws_persistent_skdpfirst.ptx > "$OUT/ncu.txt" 2>&1
grep -E "^  [a-z]|duration|cycles|bytes|rate" "$OUT/ncu.txt"
