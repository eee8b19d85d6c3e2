#!/usr/bin/env bash
# exp2 partly on FMAs (scripts/exp2-on-fma.py): the e2f variants beside their parents and cuDNN,
# two rounds, then ncu on tma-d64 and tma-e2f4-d64 at n_ctx 1024.
set -uo pipefail
w=$OUT; bin=$(mktemp -d)
xz -dc .carry-run/linlayout_gpu_bench.xz > $bin/linlayout_gpu_bench; chmod +x $bin/linlayout_gpu_bench
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $w/gpu.txt
V='ws-pp-persistent-tma-d64,ws-pp-persistent-tma-e2f*,ws-pp-persistent-chain-d64,ws-pp-persistent-chain-e2f*,ws-pp-persistent-paired-tma-d64-causal,ws-pp-persistent-paired-tma-e2f4-d64-causal,ws-pp-persistent-tma-d128,ws-pp-persistent-tma-e2f8-d128'
for r in 1 2; do
  $bin/linlayout_gpu_bench --only attention --json $w/ours-$r.json --variant "$V" > $w/ours-$r.log 2>&1
  echo "ours round $r exit $? $(date +%T)"
  VENDOR_ONLY=attention VENDOR_ATTN_BACKENDS=cudnn VENDOR_ATTN_DTYPES=float16 timeout 200 python3 bench/gpu/vendor_bench.py $w/vendor-$r.json > $w/vendor-$r.log 2>&1
  echo "vendor round $r exit $? $(date +%T)"
  [ $r = 1 ] && python3 scripts/gpu/attention_table.py $w/ours-1.json $w/vendor-1.json > $w/table-1.txt 2>&1
done
python3 scripts/gpu/attention_table.py $w/ours-2.json $w/vendor-2.json > $w/table-2.txt 2>&1
cat $w/table-1.txt $w/table-2.txt
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
metrics=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
for v in tma-d64 tma-e2f4-d64; do
  k="^attention_ws_pp_persistent_${v//-/_}$"
  timeout 120 $ncu --kernel-name regex:"$k" --launch-skip 1 --launch-count 1 --metrics $metrics --csv $bin/linlayout_gpu_bench --only attention --variant ws-pp-persistent-$v > $w/ncu-$v.csv 2>&1
  echo "ncu $v exit $?"; grep -E "pct|duration" $w/ncu-$v.csv | awk -F'","' '{print $(NF-3), $NF}' | head -8
done
