# GPU tests and racecheck for the loop-model change: every GPU suite of jit_tests and lower_tests,
# racecheck (and synccheck on the GEMMs) of the kernels whose barriers changed, in parallel.
mkdir -p /tmp/bin
for x in jit_tests lower_tests; do xz -dc .carry-run/$x.xz > /tmp/bin/$x; chmod +x /tmp/bin/$x; done
SAN=$(ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
export LINLAYOUT_TEST_ATTENTION_MAX_CTX=512
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/gpu.txt
check() { # tool test
  timeout 500 $SAN --tool $1 $([ $1 = racecheck ] && echo --racecheck-report all) --error-exitcode 9 /tmp/bin/jit_tests --gtest_filter=$2 > $OUT/$1-$2.log 2>&1
  echo "$1 $2 rc=$? $(grep -m1 'SUMMARY' $OUT/$1-$2.log)" >> $OUT/sanitizer.txt
}
check racecheck TmaGpu.WarpSpecializedMatmul &
check racecheck ComputeGpu.WarpSpecializedAttention &
check racecheck TmaGpu.Fp8WarpSpecializedMatmul &
check racecheck ComputeGpu.PersistentWideMatmul &
check synccheck TmaGpu.WarpSpecializedMatmul &
unset LINLAYOUT_TEST_ATTENTION_MAX_CTX
start=$(date +%s)
timeout 420 /tmp/bin/jit_tests --gtest_filter='*Gpu*' > $OUT/jit_tests.log 2>&1; echo "jit_tests rc=$? $(( $(date +%s) - start )) s"
timeout 150 /tmp/bin/lower_tests --gtest_filter='*Gpu*' > $OUT/lower_tests.log 2>&1; echo "lower_tests rc=$? $(( $(date +%s) - start )) s"
grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests ran" $OUT/jit_tests.log $OUT/lower_tests.log | head -40
wait
cat $OUT/sanitizer.txt
