#!/usr/bin/env bash
# GEMM 4096^3 gap: candidates from idle (cluster + TMA store, group sizes 4/16) beside the
# TMA-store kernel and cuBLAS, then ncu at the card's own clock on ours and cuBLAS.
set -u
b=$(mktemp -d); for x in linlayout_gpu_bench jit_tests; do xz -dc .carry-run/$x.xz > $b/$x; chmod +x $b/$x; done
mkdir -p $OUT/idle $OUT/ncu; cp .carry-req/run1.sh $OUT/run.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $OUT/gpu.txt
BIN=$b OUT=$OUT/idle WARM_MS=50 IDLE_S=5 ROUNDS=1 timeout 220 bash bench/gpu/sustained.sh ws_persistent_tmastore ws_cluster_tmastore ws_persistent_tmastore_g16 ws_persistent_tmastore_g4 > $OUT/idle.log 2>&1
echo "idle exit $?"; cat $OUT/idle/sustained.txt $OUT/idle/summary.md; grep -i "error" $OUT/idle.log | head -5
rm -f $OUT/idle/cublas.py; gzip -9 $OUT/idle/smi.csv
BIN=$b OUT=$OUT/ncu NCU_CLOCKS=none VARIANTS="ws_persistent_tmastore ws_persistent_tmastore-bf16 ws_cluster_tmastore" CUBLAS="f16 bf16" timeout 330 bash bench/gpu/profile.sh > $OUT/ncu.log 2>&1
echo "ncu exit $?"; cat $OUT/ncu.log | grep -v "^  *-" | head -150
cd $OUT && tar czf ncu.tgz ncu && rm -rf ncu
