#!/usr/bin/env bash
# The attention table of docs/attention.md ("Where it stands"): the best kernels of each cell and
# cuDNN (f16; d64 and d128, causal and not) in one run, then a second round of the d64 ones.
set -uo pipefail
w=$OUT/r; mkdir -p $w; bin=$(mktemp -d)
xz -dc .carry-run/linlayout_gpu_bench.xz > $bin/linlayout_gpu_bench; chmod +x $bin/linlayout_gpu_bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $w/gpu.txt
cp .carry-req/run3.sh $w/run.sh
V='ws-pp-persistent-wg3-d64,ws-pp-persistent-tma-d64,ws-pp-persistent-chain-d64,ws-pp-persistent-paired-tma-d64-causal,ws-pp-persistent-tma-d128,ws-pp-persistent-chain-d128,ws-pp-persistent-paired-tma-d128-causal'
$bin/linlayout_gpu_bench --only attention --json $w/ours.json --variant "$V" > $w/ours.log 2>&1
echo "ours exit $? $(date +%T)"
VENDOR_ONLY=attention VENDOR_ATTN_BACKENDS=cudnn VENDOR_ATTN_DTYPES=float16 timeout 300 python3 bench/gpu/vendor_bench.py $w/vendor.json > $w/vendor.log 2>&1
echo "vendor exit $? $(date +%T)"
python3 scripts/gpu/attention_table.py $w/ours.json $w/vendor.json > $w/table.txt 2>&1
for r in 1 2; do
  $bin/linlayout_gpu_bench --only attention --json $w/d64-ours-$r.json --variant 'ws-pp-persistent-wg3-d64,ws-pp-persistent-tma-d64,ws-pp-persistent-paired-tma-d64-causal' > $w/d64-ours-$r.log 2>&1
  VENDOR_ONLY=attention VENDOR_ATTN_BACKENDS=cudnn VENDOR_ATTN_DTYPES=float16 timeout 300 python3 bench/gpu/vendor_bench.py $w/d64-vendor-$r.json > $w/d64-vendor-$r.log 2>&1
  python3 scripts/gpu/attention_table.py $w/d64-ours-$r.json $w/d64-vendor-$r.json > $w/d64-table-$r.txt 2>&1
  echo "round $r $(date +%T)"
done
cat $w/table.txt; grep -h "^| 64" $w/d64-table-*.txt
tar czf $OUT/run3.tgz -C $OUT r && rm -rf $w
