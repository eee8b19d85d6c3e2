#!/usr/bin/env bash
# Division A/B and GPU checks of div.full. Logs to $OUT/run1.tgz.
set -uo pipefail
w=$(mktemp -d); bin=$(mktemp -d)
for b in jit_tests lower_tests linlayout_gpu_bench; do xz -dc .carry-run/$b.xz > $bin/$b; chmod +x $bin/$b; done
pack() { tar czf $OUT/run1.tgz -C $w .; }
trap pack EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader > $w/gpu.txt
date -u +%H:%M:%S > $w/start.txt
$bin/lower_tests --gtest_filter='LowerGpu.DivFOnF32*:LowerGpu.RandomElementwise*:LowerGpu.RandomTileProgram*:LowerGpu.ExamplesCompute*' > $w/lower.log 2>&1; echo "lower rc=$?" >> $w/rc.txt
tail -3 $w/lower.log
$bin/jit_tests --gtest_filter='ComputeGpu.Softmax:ComputeGpu.WarpSpecializedAttention' > $w/test.log 2>&1; echo "jit rc=$?" >> $w/rc.txt
tail -3 $w/test.log
# The same kernels with the correctly rounded division, for the A/B in this run.
for k in paired_tma_d128_causal paired_tma_d64_causal tma_d128 tma_d64; do
  new=$(echo $k | sed 's/_d\(64\|128\)/_rn_d\1/')
  sed 's/arith.divf %owl/tt.precise_divf %owl/; s/arith.divf %w1_owl/tt.precise_divf %w1_owl/' \
    examples/attention_ws_pp_persistent_$k.tir > examples/attention_ws_pp_persistent_$new.tir
  grep -c precise_divf examples/attention_ws_pp_persistent_$new.tir >> $w/variants.txt
done
date -u +%H:%M:%S >> $w/start.txt
$bin/linlayout_gpu_bench --only attention --json $w/ours.json \
  --variant 'ws-pp-persistent-chain-*,ws-pp-persistent-tma-d*,ws-pp-persistent-tma-rn-*,ws-pp-persistent-paired-tma-*' > $w/ours.log 2>&1
echo "bench rc=$?" >> $w/rc.txt
VENDOR_ONLY=attention VENDOR_ATTN_BACKENDS=cudnn VENDOR_ATTN_DTYPES=float16 python3 bench/gpu/vendor_bench.py $w/vendor.json > $w/vendor.log 2>&1
echo "vendor rc=$?" >> $w/rc.txt
date -u +%H:%M:%S >> $w/start.txt
cat $w/rc.txt $w/ours.log $w/vendor.log
