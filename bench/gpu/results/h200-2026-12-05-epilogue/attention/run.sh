#!/usr/bin/env bash
# The attention table of docs/attention.md ("Where it stands") again, after local_store moved to
# stmatrix (2dcba17): the best kernels of each cell and cuDNN, f16, in one run.
set -uo pipefail
w=$OUT/r; mkdir -p $w; bin=$(mktemp -d)
xz -dc .carry-req/linlayout_gpu_bench.xz > $bin/linlayout_gpu_bench; chmod +x $bin/linlayout_gpu_bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $w/gpu.txt
V='ws-pp-persistent-wg3-d64,ws-pp-persistent-tma-d64,ws-pp-persistent-chain-d64,ws-pp-persistent-paired-tma-d64-causal,ws-pp-persistent-tma-d128,ws-pp-persistent-chain-d128,ws-pp-persistent-paired-tma-d128-causal'
$bin/linlayout_gpu_bench --only attention --json $w/ours.json --variant "$V" > $w/ours.log 2>&1
echo "ours exit $? $(date +%T)"
VENDOR_ONLY=attention VENDOR_ATTN_BACKENDS=cudnn VENDOR_ATTN_DTYPES=float16 timeout 240 python3 bench/gpu/vendor_bench.py $w/vendor.json > $w/vendor.log 2>&1
echo "vendor exit $? $(date +%T)"
python3 scripts/gpu/attention_table.py $w/ours.json $w/vendor.json > $w/table.txt 2>&1
cat $w/table.txt
