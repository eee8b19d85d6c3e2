#!/usr/bin/env bash
# The bench harness: each timed run queued before the host waits (new) against a wait after each
# run (old, LINLAYOUT_BENCH_SYNC_EACH=1), from idle beside cuBLAS; then the GEMM table's kernels
# (new harness) and vendor_bench.py's GEMM rows.
set -u
b=$(mktemp -d); xz -dc .carry-run/linlayout_gpu_bench.xz > $b/linlayout_gpu_bench; chmod +x $b/linlayout_gpu_bench
w=$OUT/r; mkdir -p $w; cp .carry-req/run2.sh $w/run.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $w/gpu.txt
for m in old new; do
  if [ $m = old ]; then export LINLAYOUT_BENCH_SYNC_EACH=1; else unset LINLAYOUT_BENCH_SYNC_EACH; fi
  BIN=$b OUT=$w/idle-$m WARM_MS=50 IDLE_S=5 ROUNDS=1 timeout 140 bash bench/gpu/sustained.sh ws_persistent_tmastore ws_split_tmastore > $w/idle-$m.log 2>&1
  echo "== $m exit $? $(date +%T)"; cat $w/idle-$m/sustained.txt; rm -f $w/idle-$m/cublas.py; gzip -9 $w/idle-$m/smi.csv
done
unset LINLAYOUT_BENCH_SYNC_EACH
timeout 200 $b/linlayout_gpu_bench --only gemm --json $w/gemm-ours.json --variant 'ws_split_tmastore*,ws_persistent_tmastore*,ws_cluster,ws_cluster-bf16,tma_wide_autows,ws_wide,fp8*' > $w/gemm-ours.log 2>&1
echo "== gemm ours exit $? $(date +%T)"; grep -E "^gemm" $w/gemm-ours.log
VENDOR_ONLY=gemm timeout 150 python3 bench/gpu/vendor_bench.py $w/gemm-vendor.json > $w/gemm-vendor.log 2>&1
echo "== vendor exit $? $(date +%T)"; grep -iE "tflop|matmul|scaled" $w/gemm-vendor.log | head -20
tar czf $OUT/run2.tgz -C $OUT r && rm -rf $w
