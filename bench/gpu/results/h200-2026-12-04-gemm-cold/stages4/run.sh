#!/usr/bin/env bash
# Ran with matmul_ws_persistent_tmastore4.tir (the file beside this script) in examples/.
# matmul_ws_persistent_tmastore4.tir (a ring of 4 stages, C by halves) from an idle card beside the
# 3-stage kernel and cuBLAS (IDLE_S=5, WARM_MS=50, one round); then its GPU test against float64,
# racecheck and synccheck (LINLAYOUT_SOURCE_DIR holding that kernel alone).
set -u
b=$(mktemp -d); for x in linlayout_gpu_bench jit_tests; do xz -dc .carry-run/$x.xz > $b/$x; chmod +x $b/$x; done
mkdir -p $OUT/idle; cp .carry-req/run7.sh $OUT/run.sh
BIN=$b OUT=$OUT/idle WARM_MS=50 IDLE_S=5 ROUNDS=1 timeout 150 bash bench/gpu/sustained.sh ws_persistent_tmastore4 ws_persistent_tmastore > $OUT/idle.log 2>&1
echo "idle exit $?"; cat $OUT/idle/sustained.txt; cat $OUT/idle/summary.md
rm -f $OUT/idle/cublas.py; gzip -9 $OUT/idle/smi.csv
src=$(mktemp -d); mkdir $src/examples; cp examples/matmul_ws_persistent_tmastore4.tir $src/examples/
export LINLAYOUT_SOURCE_DIR=$src
timeout 60 $b/jit_tests --gtest_filter=TmaGpu.WarpSpecializedMatmul > $OUT/test.log 2>&1; echo "test exit $?"; grep -E "Failure|error|tmastore4|PASSED|FAILED" $OUT/test.log | head -8
san=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
for tool in synccheck racecheck; do
  timeout 60 $san --tool $tool --error-exitcode 9 $b/jit_tests --gtest_filter=TmaGpu.WarpSpecializedMatmul > $OUT/$tool.log 2>&1
  echo "$tool exit $? $(grep -m1 'SUMMARY' $OUT/$tool.log)"
done
