#!/usr/bin/env bash
# The *Gpu* tests run3.sh did not reach in its 600 s.
set -uo pipefail
w=$OUT; bin=$(mktemp -d)
for b in lower_tests runtime_tests query_tests linlayout; do xz -dc .carry-run/$b.xz > $bin/$b; chmod +x $bin/$b; done
start=$(date +%s)
run() { # BINARY FILTER
  for name in $($bin/$1 --gtest_list_tests --gtest_filter="$2" | awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}'); do
    timeout 200 $bin/$1 --gtest_filter=$name >> $w/$1.log 2>&1
    rc=$?; r=passed; [ $rc -ne 0 ] && r="FAILED ($rc)"; grep -q "^\[  SKIPPED \] $name " $w/$1.log && r=SKIPPED
    echo "$1 $name $r $(( $(date +%s) - start )) s" | tee -a $w/summary.txt
  done
}
run runtime_tests '*Gpu*'
run query_tests '*Gpu*'
run lower_tests 'LowerGpu.RandomMatmuls*:LowerGpu.*Atomic*'
