#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carry: [".carry"]) after scripts/gpu/package.sh: Nsight
# Compute's shared-memory counters for paths kernels of linlayout_gpu_bench: $OUT/NAME.csv holds
# one row per launch and metric of the convert loop (the bench launches it with 0 and with 64
# round trips; the difference of the two is the loop's), and bench/gpu/wavefronts.py sums them
# up per conversion per SM into $OUT/wavefronts.md, which is printed.
#   device run: bash bench/gpu/wavefronts.sh seed2-194_float16_shared-memory ...
# LINLAYOUT_BENCH_STORE_DST=1 and LINLAYOUT_BENCH_TILES_PER_SM reach the bench as usual.
set -uo pipefail
out=${OUT:-/tmp/linlayout-gpu-out}
mkdir -p "$out"
bin=$(mktemp -d /tmp/linlayout-bin.XXXX)
tar xzf .carry/gpu.tgz -C "$bin"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
metrics=gpu__time_duration.sum,sm__cycles_elapsed.avg,launch__grid_size,launch__registers_per_thread
metrics+=,device__attribute_multiprocessor_count
metrics+=,smsp__inst_executed.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics+=,smsp__inst_executed_op_shfl.sum,smsp__inst_executed_op_bar.sum,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
metrics+=,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio
metrics+=,l1tex__throughput.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active
for v in "$@"; do
  echo "== $v"
  timeout 300 "$ncu" --kernel-name regex:convert --launch-count 6 --metrics "$metrics" --csv \
    "$bin/linlayout_gpu_bench" --only paths --variant "$v" > "$out/$v.csv" 2>> "$out/ncu.log"
  echo "ncu exit $?"
done
csvs=()
for v in "$@"; do csvs+=("$out/$v.csv"); done
python3 bench/gpu/wavefronts.py "${csvs[@]}" | tee "$out/wavefronts.md"
