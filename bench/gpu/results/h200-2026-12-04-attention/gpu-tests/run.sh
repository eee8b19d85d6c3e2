#!/usr/bin/env bash
# Every *Gpu* test of the final binaries, one process per test (as bench/gpu/run.sh runs them),
# then racecheck and synccheck on ComputeGpu.WarpSpecializedAttention. Logs go to $OUT as they are written.
set -uo pipefail
w=$OUT; bin=$(mktemp -d)
for f in .carry-run/*.xz; do b=$(basename $f .xz); xz -dc $f > $bin/$b; chmod +x $bin/$b; done


nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $w/gpu.txt
start=$(date +%s)
san=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
for tool in racecheck synccheck; do
  extra=""; [ $tool = racecheck ] && extra="--racecheck-report all"
  timeout 200 $san --tool $tool $extra --error-exitcode 9 $bin/jit_tests --gtest_filter=ComputeGpu.WarpSpecializedAttention > $w/$tool.log 2>&1
  echo "$tool exit $? $(grep -m1 'SUMMARY' $w/$tool.log) $(( $(date +%s) - start )) s"
done
for t in jit_tests lower_tests runtime_tests query_tests; do
  for name in $($bin/$t --gtest_list_tests --gtest_filter='*Gpu*' | awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}'); do
    [ $name = ComputeGpu.WarpSpecializedAttention ] && continue  # run under both sanitizers above
    timeout 300 $bin/$t --gtest_filter=$name >> $w/$t.log 2>&1
    rc=$?
    r=passed; [ $rc -ne 0 ] && r="FAILED ($rc)"; grep -q "^\[  SKIPPED \] $name " $w/$t.log && r=SKIPPED
    echo "$t $name $r $(( $(date +%s) - start )) s" | tee -a $w/summary.txt
  done
done
grep -c passed $w/summary.txt; grep -v passed $w/summary.txt
