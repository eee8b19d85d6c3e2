#!/usr/bin/env bash
# The carried-accumulator experiment, prepared for the next device session.
#   here:   bash measure.sh prepare .carry-req   (compiles main's TMA-store kernel and the
#                                                candidate, f16 and bf16, with their reports)
#   device: bash .carry-req/measure.sh run .carry-req   (carry [".carry-req"], from the
#           repository root: times them against cuBLAS at 4096^3 and 8192^3, then ncu cycles
#           at 1 and 4 waves)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
case "$1" in
prepare)
  out=$2 repo=$(git -C "$here" rev-parse --show-toplevel)
  mkdir -p "$out"
  cp "$0" "$out/measure.sh"
  for k in "$repo/examples/matmul_ws_persistent_tmastore.tir" "$here/matmul_ws_persistent_usec.tir"; do
    n=$(basename "$k" .tir)
    cp "$k" "$out/$n.tir"
    sed 's/xf16/xbf16/g; s/<f16>/<bf16>/g' "$k" > "$out/${n}_bf16.tir"
    for t in "$n" "${n}_bf16"; do
      "$repo/build/bin/linlayout" compile "$out/$t.tir" -o "$out/$t.ptx" --report 2> "$out/$t.report"
    done
  done ;;
run)
  dir=$2 repo=$(pwd)
  cd "$dir"
  harness="$repo/bench/gpu/gemm_same_harness.py"
  IDLE_S=2 ROUNDS=3 SIZES="4096 8192" python3 "$harness" "$OUT/f16.json" \
    tmastore=matmul_ws_persistent_tmastore.ptx usec=matmul_ws_persistent_usec.ptx
  IDLE_S=2 ROUNDS=3 SIZES="4096 8192" python3 "$harness" "$OUT/bf16.json" \
    tmastore=matmul_ws_persistent_tmastore_bf16.ptx usec=matmul_ws_persistent_usec_bf16.ptx
  ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
  SIZES="1536x2816x4096 6144x2816x4096" ROUNDS=0 "$ncu" --kernel-name regex:"matmul|nvjet" \
    --clock-control base --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg \
    python3 "$harness" /tmp/x.json tmastore=matmul_ws_persistent_tmastore.ptx \
    usec=matmul_ws_persistent_usec.ptx > "$OUT/ncu.txt" 2>&1
  grep -E "^  [a-z]|duration|cycles_elapsed" "$OUT/ncu.txt" ;;
*) echo "usage: measure.sh prepare DIR | run DIR" >&2; exit 2 ;;
esac
