#!/usr/bin/env bash
# Cold short timings (IDLE_S=5, WARM_MS=50) of the 2-CTA cluster GEMM (B multicast) beside the
# unclustered one and cuBLAS, one round.
set -u
b=$(mktemp -d); xz -dc .carry-run/linlayout_gpu_bench.xz > $b/linlayout_gpu_bench; chmod +x $b/linlayout_gpu_bench
mkdir -p $OUT/cold
cp .carry-req/run6.sh $OUT/run.sh
BIN=$b OUT=$OUT/cold WARM_MS=50 IDLE_S=5 ROUNDS=1 timeout 200 bash bench/gpu/sustained.sh ws_cluster ws_persistent_tmastore > $OUT/cold.log 2>&1
echo "cold exit $?"; cat $OUT/cold/sustained.txt; cat $OUT/cold/summary.md
cd $OUT && tar czf run6.tgz run.sh cold.log cold && rm -rf cold cold.log run.sh
