#!/usr/bin/env bash
# The warp-specialized attention kernels on bf16 (kBf16AttentionKernels): the GPU test against
# float64, then the bench's bf16-ws-* variants and cuDNN on bf16 in one run.
set -uo pipefail
w=$OUT/r; mkdir -p $w; bin=$(mktemp -d)
for b in linlayout_gpu_bench jit_tests; do xz -dc .carry-run/$b.xz > $bin/$b; chmod +x $bin/$b; done
cp .carry-req/run4.sh $w/run.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $w/gpu.txt
timeout 200 $bin/jit_tests --gtest_filter=ComputeGpu.WarpSpecializedAttentionBf16 > $w/test.log 2>&1
echo "test exit $?"; grep -E "^\[  (PASSED|FAILED) |bf16, stages" $w/test.log | head -20
$bin/linlayout_gpu_bench --only attention --json $w/ours.json --variant 'bf16-ws-*' > $w/ours.log 2>&1
echo "ours exit $? $(date +%T)"
VENDOR_ONLY=attention VENDOR_ATTN_BACKENDS=cudnn VENDOR_ATTN_DTYPES=bfloat16 timeout 200 python3 bench/gpu/vendor_bench.py $w/vendor.json > $w/vendor.log 2>&1
echo "vendor exit $? $(date +%T)"
python3 scripts/gpu/attention_table.py $w/ours.json $w/vendor.json > $w/table.txt 2>&1
cat $w/table.txt
tar czf $OUT/run4.tgz -C $OUT r && rm -rf $w
