#!/usr/bin/env bash
# Three consumer warp groups at d64 (examples/attention_ws_pp_persistent_wg3_d64.tir) beside the
# two-group kernels and cuDNN, two rounds; ncu at n_ctx 1024; the GPU test of the kernel under
# racecheck and synccheck.
set -uo pipefail
w=$OUT; bin=$(mktemp -d)
for b in linlayout_gpu_bench jit_tests; do xz -dc .carry-run/$b.xz > $bin/$b; chmod +x $bin/$b; done
V='ws-pp-persistent-tma-d64,ws-pp-persistent-chain-d64,ws-pp-persistent-wg3-d64'
for r in 1 2; do
  $bin/linlayout_gpu_bench --only attention --json $w/ours-$r.json --variant "$V" > $w/ours-$r.log 2>&1
  echo "ours round $r exit $? $(date +%T)"
  VENDOR_ONLY=attention VENDOR_ATTN_BACKENDS=cudnn VENDOR_ATTN_DTYPES=float16 timeout 200 python3 bench/gpu/vendor_bench.py $w/vendor-$r.json > $w/vendor-$r.log 2>&1
  echo "vendor round $r exit $? $(date +%T)"
  python3 scripts/gpu/attention_table.py $w/ours-$r.json $w/vendor-$r.json 2>&1 | grep -E "d64|^\| 64 \| no"
done
grep -h "wg3" $w/ours-*.log
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
metrics=sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,launch__registers_per_thread,launch__block_size
timeout 120 $ncu --kernel-name regex:"^attention_ws_pp_persistent_wg3_d64$" --launch-skip 1 --launch-count 1 --metrics $metrics --csv $bin/linlayout_gpu_bench --only attention --variant ws-pp-persistent-wg3-d64 > $w/ncu-wg3.csv 2>&1
echo "ncu exit $?"; grep -E "pct|duration|launch" $w/ncu-wg3.csv | awk -F'","' '{print $(NF-3), $NF}'
src=$(mktemp -d); mkdir $src/examples; cp examples/attention_ws_pp_persistent_wg3_d64.tir $src/examples/
export LINLAYOUT_SOURCE_DIR=$src
timeout 120 $bin/jit_tests --gtest_filter=ComputeGpu.WarpSpecializedAttention > $w/test.log 2>&1; echo "test exit $?"; tail -3 $w/test.log
san=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
for tool in racecheck synccheck; do
  extra=""; [ $tool = racecheck ] && extra="--racecheck-report all"
  timeout 200 $san --tool $tool $extra --error-exitcode 9 $bin/jit_tests --gtest_filter=ComputeGpu.WarpSpecializedAttention > $w/$tool.log 2>&1
  echo "$tool exit $? $(grep -m1 'SUMMARY' $w/$tool.log)"
done
