#!/usr/bin/env bash
# The GEMM runs of this folder, as they ran on the device (from the repository root; DIR holds
# each kernel's PTX and report, compiled by `linlayout compile X.tir -o X.ptx --report 2> X.report`,
# with _bf16 forms by sed 's/xf16/xbf16/g; s/<f16>/<bf16>/g', beside main's TMA-store kernel):
#   bash run.sh defer DIR      deferred C store: timings (f16, bf16; 4096^3, 8192^3) and ncu
#   bash run.sh streamk DIR    stream-K tail: timings and ncu cycles at 4096^3
#   bash run.sh skbound DIR    its variant without the fix-up: timing and ncu cycles
#   bash run.sh memory DIR     DRAM bytes, L2 hit rate and local memory of those two
#   bash run.sh variants DIR   ncu cycles of every stream-K variant
set -euo pipefail
mode=$1 dir=$2 repo=$(pwd)
cd "$dir"
harness="$repo/bench/gpu/gemm_same_harness.py"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
main=tmastore=matmul_ws_persistent_tmastore.ptx
k() { echo "$1=matmul_ws_persistent_$1${2:-}.ptx"; }
time_both() { # sizes bf16-sizes candidate
  IDLE_S=2 ROUNDS=${ROUNDS:-4} SIZES="$1" python3 "$harness" "$OUT/f16.json" $main "$(k "$3")"
  [ -z "$2" ] || IDLE_S=2 ROUNDS=${ROUNDS:-4} SIZES="$2" python3 "$harness" "$OUT/bf16.json" \
    tmastore=matmul_ws_persistent_tmastore_bf16.ptx "$(k "$3" _bf16)"
}
cycles() { # sizes metrics kernels...
  local sizes=$1 metrics=$2; shift 2
  SIZES="$sizes" ROUNDS=0 "$ncu" --kernel-name regex:"matmul|nvjet" --clock-control base \
    --metrics "$metrics" python3 "$harness" /tmp/x.json $main "$@" > "$OUT/ncu.txt" 2>&1
  grep -E "^  [a-z]|duration|cycles|bytes|rate" "$OUT/ncu.txt"
}
time_cycles=gpu__time_duration.sum,sm__cycles_elapsed.avg
active=$time_cycles,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_active.min
case "$mode" in
defer) ROUNDS=5 time_both "4096 8192" "4096 8192" defer
  cycles "1536x2816x4096 6144x2816x4096 4096x4096x4096" $time_cycles "$(k defer)" ;;
streamk) time_both "4096 8192" "4096" streamk; cycles 4096x4096x4096 $active "$(k streamk)" ;;
skbound) time_both 4096 "" skbound; cycles 4096x4096x4096 $active "$(k skbound)" ;;
memory) cycles 4096x4096x4096 $time_cycles,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum "$(k skbound)" "$(k streamk)" ;;
variants) cycles 4096x4096x4096 $time_cycles,sm__cycles_active.min,sm__cycles_active.max \
  "$(k skoff)" "$(k sknostore)" "$(k skbound)" "$(k skdpfirst)" ;;
*) echo "usage: run.sh defer|streamk|skbound|memory|variants DIR" >&2; exit 2 ;;
esac
