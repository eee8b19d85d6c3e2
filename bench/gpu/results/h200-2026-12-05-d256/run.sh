#!/usr/bin/env bash
# The head-dim-256 attention kernels (examples/attention_ws_pp_persistent_d256.tir and its causal
# form) on the GPU.
#   bash run.sh prepare DIR   here, in a built tree: jit_tests, linlayout_gpu_bench and the CLI,
#                             stripped and xz'd, into DIR (about 35 MB), to carry to the device
# On the device, from the repository root, with DIR carried:
#   bash run.sh check DIR     `linlayout run --gpu` (GPU against the interpreter) at two shapes, f16
#                             and bf16; racecheck and synccheck; then ComputeGpu's float64 checks
#                             of every warp-specialized attention kernel, f16 and bf16
#   bash run.sh bench DIR     ours (d256, and d128's TMA kernel for the 600 TFLOP/s target) beside
#                             torch SDPA's cuDNN and flash backends at d128 and d256, f16
set -euo pipefail
mode=$1 dir=$2
kernels="examples/attention_ws_pp_persistent_d256.tir examples/attention_ws_pp_persistent_d256_causal.tir"
if [ "$mode" = prepare ]; then
  mkdir -p "$dir"
  for b in jit_tests linlayout_gpu_bench linlayout; do
    strip -o "$dir/$b" "build/bin/$b" && xz -T2 -6 -f "$dir/$b"
  done
  exit 0
fi
for b in jit_tests linlayout_gpu_bench linlayout; do
  [ -x "/tmp/$b" ] || { xz -dc "$dir/$b.xz" > "/tmp/$b" && chmod +x "/tmp/$b"; }
done
args() { # programs heads n_ctx: the kernel's arguments (Q, K and V uniform in [-1, 1))
  local rows=$(($2 * $3))
  echo --grid "$1" --arg q=rand:${rows}x256 --arg kdesc=rand:${rows}x256 \
    --arg vdesc=rand:${rows}x256 --arg o=zeros:$((rows * 256)) --arg n_ctx="$3" \
    --arg sm_scale=0.0625 --arg heads="$2"
}
case "$mode" in
check)
  san=$(ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
  for kernel in $kernels; do
    sed 's/xf16/xbf16/g; s/<f16>/<bf16>/g' "$kernel" > /tmp/bf16.tir
    for k in "$kernel" /tmp/bf16.tir; do
      for shape in "3 4 256" "132 3 1024"; do
        echo "$k: $shape"
        # shellcheck disable=SC2046  # the arguments are words
        /tmp/linlayout run "$k" --gpu -q $(args $shape)
      done
    done
    for tool in racecheck synccheck; do
      echo "$kernel: $tool"
      # shellcheck disable=SC2046
      "$san" --tool $tool $([ $tool = racecheck ] && echo --racecheck-report all) \
        --error-exitcode 9 /tmp/linlayout run "$kernel" --gpu -q $(args 3 5 256) 2>&1 | tail -2
    done
  done
  /tmp/jit_tests --gtest_filter='ComputeGpu.WarpSpecializedAttention*' 2>&1 |
    grep -E '^\[ +(OK|FAILED|PASSED) |d256|Failure' ;;
bench)
  /tmp/linlayout_gpu_bench --only attention --json "$OUT/ours.json" \
    --variant 'ws-pp-persistent-d256*,bf16-ws-pp-persistent-d256*,ws-pp-persistent-tma-d128'
  VENDOR_ONLY=attention VENDOR_ATTN_BACKENDS="cudnn flash" VENDOR_ATTN_DIMS="128 256" \
    VENDOR_ATTN_DTYPES="float16 bfloat16" python3 bench/gpu/vendor_bench.py "$OUT/vendor.json" ;;
*) echo "usage: run.sh prepare|check|bench DIR" >&2; exit 2 ;;
esac
