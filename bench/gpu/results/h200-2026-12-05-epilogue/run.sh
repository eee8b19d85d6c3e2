#!/usr/bin/env bash
# The GEMM runs of this folder, as they ran on the device, and the one prepared for the next.
#   bash run.sh prepare DIR    here, in a built tree: every kernel's PTX and report (f16 and
#                              bf16) and the CLI (xz'd) into DIR, to carry to the device
# On the device, from the repository root, with DIR carried:
#   bash run.sh defer DIR      deferred C store: timings (f16, bf16; 4096^3, 8192^3) and ncu
#   bash run.sh streamk DIR    stream-K tail: timings and ncu cycles at 4096^3
#   bash run.sh skbound DIR    its variant without the fix-up: timing and ncu cycles
#   bash run.sh memory DIR     DRAM bytes, L2 hit rate and local memory of those two
#   bash run.sh variants DIR   ncu cycles of every stream-K variant
#   bash run.sh wg2 DIR        not yet run: the two-partition consumers (wg2/) against main and
#                              cuBLAS, timings and ncu cycles at 1 and 4 waves and 4096^3
#   bash run.sh check DIR      not yet run: `linlayout run --gpu` of wg2 (GPU against the
#                              interpreter) at three shapes, f16 and bf16, then racecheck and
#                              synccheck of it
set -euo pipefail
mode=$1 dir=$2 repo=$(pwd)
here=$(cd "$(dirname "$0")" && pwd)
if [ "$mode" = prepare ]; then
  mkdir -p "$dir"
  for k in "$repo"/examples/matmul_ws_persistent_tmastore.tir "$here"/*/matmul_ws_persistent_*.tir
  do
    n=$(basename "$k" .tir)
    sed 's/xf16/xbf16/g; s/<f16>/<bf16>/g' "$k" > "$dir/${n}_bf16.tir"
    cp "$k" "$dir/$n.tir"
    for t in "$n" "${n}_bf16"; do
      "$repo/build/bin/linlayout" compile "$dir/$t.tir" -o "$dir/$t.ptx" --report \
        2> "$dir/$t.report"
    done
  done
  strip -o "$dir/linlayout" "$repo/build/bin/linlayout" && xz -T2 -6 -f "$dir/linlayout"
  exit 0
fi
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
memory)
  bytes=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct
  local=l1tex__t_bytes_pipe_lsu_mem_local_op
  cycles 4096x4096x4096 $time_cycles,$bytes,${local}_st.sum,${local}_ld.sum "$(k skbound)" \
    "$(k streamk)" ;;
variants) cycles 4096x4096x4096 $time_cycles,sm__cycles_active.min,sm__cycles_active.max \
  "$(k skoff)" "$(k sknostore)" "$(k skbound)" "$(k skdpfirst)" ;;
wg2) time_both "4096 8192" "4096 8192" wg2
  cycles "1536x2816x4096 6144x2816x4096 4096x4096x4096" $time_cycles "$(k wg2)" ;;
check)
  xz -dc linlayout.xz > /tmp/linlayout && chmod +x /tmp/linlayout
  args() { # grid M N K: the GEMM's arguments
    echo --grid "$1" --arg adesc=rand:"$2x$4" --arg bdesc=rand:"$4x$3" --arg c=zeros:"$2x$3" \
      --arg K="$4" --arg ldc="$3" --arg M="$2" --arg N="$3"
  }
  for t in matmul_ws_persistent_wg2 matmul_ws_persistent_wg2_bf16; do
    for shape in "3 768 512 448" "5 512 512 200" "132 2048 1024 512"; do
      # shellcheck disable=SC2046,SC2086  # the arguments are words
      /tmp/linlayout run $t.tir --gpu -q $(args $shape)
    done
  done
  san=$(ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
  for tool in racecheck synccheck; do
    # shellcheck disable=SC2046
    "$san" --tool $tool $([ $tool = racecheck ] && echo --racecheck-report all) --error-exitcode 9 \
      /tmp/linlayout run matmul_ws_persistent_wg2.tir --gpu -q $(args 5 512 512 200) 2>&1 | tail -3
  done ;;
*) echo "usage: run.sh prepare|defer|streamk|skbound|memory|variants|wg2|check DIR" >&2; exit 2 ;;
esac
