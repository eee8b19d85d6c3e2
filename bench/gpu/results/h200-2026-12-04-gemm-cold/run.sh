#!/usr/bin/env bash
# GEMMs against cuBLAS from an idle card alike (IDLE_S=5, WARM_MS=50: short timings, fair), then
# the sustained form (WARM_MS=3000) for comparison, each 2 rounds; ours is
# matmul_ws_persistent_tmastore.tir, cuBLAS torch.matmul with C in the input type.
set -u
b=$(mktemp -d); xz -dc .carry-run/linlayout_gpu_bench.xz > $b/linlayout_gpu_bench; chmod +x $b/linlayout_gpu_bench
mkdir -p $OUT/cold $OUT/warm
cp .carry-req/run5.sh $OUT/run.sh
BIN=$b OUT=$OUT/cold WARM_MS=50 IDLE_S=5 ROUNDS=2 timeout 280 bash bench/gpu/sustained.sh > $OUT/cold.log 2>&1
echo "cold exit $?"; cat $OUT/cold/sustained.txt
BIN=$b OUT=$OUT/warm WARM_MS=3000 ROUNDS=1 timeout 200 bash bench/gpu/sustained.sh > $OUT/warm.log 2>&1
echo "warm exit $?"; cat $OUT/warm/sustained.txt
cd $OUT && tar czf run5.tgz run.sh cold.log warm.log cold warm && rm -rf cold warm cold.log warm.log run.sh
