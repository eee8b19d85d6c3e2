#!/usr/bin/env bash
# Times the deferred-C candidate against main's TMA-store kernel and cuBLAS, then ncu cycles.
set -euo pipefail
dir=$1 repo=$(pwd)
cd "$dir"
harness="$repo/bench/gpu/gemm_same_harness.py"
IDLE_S=2 ROUNDS=5 SIZES="4096 8192" python3 "$harness" "$OUT/f16.json" \
  tmastore=matmul_ws_persistent_tmastore.ptx defer=matmul_ws_persistent_defer.ptx
IDLE_S=2 ROUNDS=5 SIZES="4096 8192" python3 "$harness" "$OUT/bf16.json" \
  tmastore=matmul_ws_persistent_tmastore_bf16.ptx defer=matmul_ws_persistent_defer_bf16.ptx
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
SIZES="1536x2816x4096 6144x2816x4096 4096x4096x4096" ROUNDS=0 "$ncu" --kernel-name regex:"matmul|nvjet" \
  --clock-control base --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg \
  python3 "$harness" /tmp/x.json tmastore=matmul_ws_persistent_tmastore.ptx \
  defer=matmul_ws_persistent_defer.ptx > "$OUT/ncu.txt" 2>&1
grep -E "^  [a-z]|duration|cycles_elapsed" "$OUT/ncu.txt"
