#!/usr/bin/env bash
# A/B of local_store's stmatrix (2dcba17) on the attention kernels whose O store it changed: the
# same binary with LL_AB_NO_STMATRIX=1 (st.shared, as before) and without, alternating, then cuDNN.
set -uo pipefail
w=$OUT/r; mkdir -p $w; bin=$(mktemp -d)
xz -dc .carry-req/linlayout_gpu_bench.xz > $bin/linlayout_gpu_bench; chmod +x $bin/linlayout_gpu_bench
V='ws-pp-persistent-wg3-d64,ws-pp-persistent-tma-d64,ws-pp-persistent-paired-tma-d64-causal,ws-pp-persistent-tma-d128,ws-pp-persistent-paired-tma-d128-causal'
for r in 1 2; do
  LL_AB_NO_STMATRIX=1 $bin/linlayout_gpu_bench --only attention --json $w/sts-$r.json --variant "$V" > $w/sts-$r.log 2>&1
  echo "sts $r exit $? $(date +%T)"
  $bin/linlayout_gpu_bench --only attention --json $w/stsm-$r.json --variant "$V" > $w/stsm-$r.log 2>&1
  echo "stsm $r exit $? $(date +%T)"
done
VENDOR_ONLY=attention VENDOR_ATTN_BACKENDS=cudnn VENDOR_ATTN_DTYPES=float16 timeout 120 python3 bench/gpu/vendor_bench.py $w/vendor.json > $w/vendor.log 2>&1
for s in sts-1 stsm-1 sts-2 stsm-2; do echo "== $s"; python3 scripts/gpu/attention_table.py $w/$s.json $w/vendor.json 2>&1 | sed -n 3,7p; done
