# Timing of the coalesced mbarrier inits (new) against main's PTX (tm), then the GPU tests and
# sanitizers of the kernels whose barriers changed.
cd "$(dirname "$0")"
export IDLE_S=2 ROUNDS=3
SIZES="4096x4096x2048 4096" python3 ../bench/gpu/gemm_same_harness.py $OUT/f16.json tm=tm.ptx new=tmnew.ptx 2>&1 | grep -v "rel. error against cuBLAS 0.00"
SIZES="4096" python3 ../bench/gpu/gemm_same_harness.py $OUT/bf16.json tm=tm_bf16.ptx new=tmnew_bf16.ptx 2>&1 | grep -v "rel. error against cuBLAS 0.00"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
SIZES="4096x4096x2048 4096" ROUNDS=0 timeout 100 $ncu --kernel-name regex:"matmul|nvjet" --clock-control base --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.max python3 ../bench/gpu/gemm_same_harness.py /tmp/x.json tm=tm.ptx new=tmnew.ptx > $OUT/ncu.txt 2>&1
grep -E "^  [a-z]|duration|cycles_elapsed" $OUT/ncu.txt
cd ..
mkdir -p /tmp/bin; xz -dc .carry-run/jit_tests.xz > /tmp/bin/jit_tests; chmod +x /tmp/bin/jit_tests
SAN=$(ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
export LINLAYOUT_TEST_ATTENTION_MAX_CTX=512
check() { # tool test
  timeout 280 $SAN --tool $1 $([ $1 = racecheck ] && echo --racecheck-report all) --error-exitcode 9 /tmp/bin/jit_tests --gtest_filter=$2 > $OUT/$1-$2.log 2>&1
  echo "$1 $2 rc=$? $(grep -m1 'SUMMARY' $OUT/$1-$2.log)" >> $OUT/sanitizer.txt
}
check racecheck TmaGpu.WarpSpecializedMatmul &
check racecheck ComputeGpu.WarpSpecializedAttention &
check synccheck TmaGpu.WarpSpecializedMatmul &
start=$(date +%s)
timeout 280 /tmp/bin/jit_tests --gtest_filter='TmaGpu.*:ComputeGpu.WarpSpecialized*:ComputeGpu.Persistent*' > $OUT/jit_tests.log 2>&1; echo "jit_tests rc=$? $(( $(date +%s) - start )) s"
grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran|OK \]" $OUT/jit_tests.log | head -40
wait
cat $OUT/sanitizer.txt
