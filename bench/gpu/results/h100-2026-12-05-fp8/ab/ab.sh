#!/usr/bin/env bash
# A/B of the moved Q-slot arrive (wgmma wait no longer at the softmax block's top): the same
# linlayout_gpu_bench over the examples as committed (.carry-fp8/old) and as changed (.), then a
# correctness check of the new fp8 kernels.
set -uo pipefail
d=.carry-fp8
for b in jit_tests linlayout_gpu_bench; do [ -x /tmp/$b ] || { xz -dc $d/$b.xz > /tmp/$b && chmod +x /tmp/$b; }; done
v='fp8-ws-pp-persistent-d128*,ws-pp-persistent-d256*'
timeout 60 /tmp/jit_tests --gtest_filter='TmaGpu.Fp8Attention' 2>&1 | grep -E '^\[ +(OK|FAILED) |bound|Failure'
for run in new old new; do
  echo "== $run"
  if [ $run = old ]; then src=$d/old; else src=.; fi
  LINLAYOUT_SOURCE_DIR=$src timeout 80 /tmp/linlayout_gpu_bench --only attention --variant "$v" --json "$OUT/$run-$SECONDS.json" 2>&1 | grep -E "attention|WRONG|rror"
done
