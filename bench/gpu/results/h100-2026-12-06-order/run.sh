#!/usr/bin/env bash
# The runs behind this folder (2026-12-06 00:03-00:46 UTC; every call asked for an H200 and was
# given an H100 80GB HBM3), as they ran. From the repository root, after
# `cmake --build build --target linlayout jit_tests`: `bash run.sh prepare` compiles and packs
# what the calls carry; `bash run.sh callN` runs on the GPU machine (device tool, carry
# [".carry-run"]). The sides are the korder folder's (its run.sh, loaded below): split is
# examples/matmul_ws_split_tmastore.tir, split0 the same before its L2 order (90860f6), coop
# examples/matmul_ws_persistent_tmastore.tir and coopsnrev that kernel in the split one's order;
# fp8 is examples/matmul_fp8_ws_split.tir before its L2 order, fp8g16 the same in groups of 16,
# fp8snrev in the order (examples/ since this folder); fp8f32 and fp8f32snrev are
# examples/matmul_fp8_ws_split_f32out.tir before and in the order. call4's GPU test ran with
# the f16 fp8 example in the order, call5's with both.
set -uo pipefail
c=.carry-run
export PYTHONUNBUFFERED=1
K=bench/gpu/results/h100-2026-12-05-korder/run.sh
. <(sed '$d' $K) # its functions (and split16's), without the last line that runs one

prepare() {
  bash $K prepare && bash $K prepare3
  # the f32 fp8 sides, from the example before this folder (22d2fa8)
  git show 22d2fa8:examples/matmul_fp8_ws_split_f32out.tir > $c/fp8f32.tir
  python3 bench/gpu/results/h100-2026-12-05-korder/candidates/korder.py $c/fp8f32.tir \
    $c/fp8f32snrev.tir matmul_fp8_ws_split_f32out_snrev groups16 reverse snake
  for n in fp8f32 fp8f32snrev; do
    build/bin/linlayout compile $c/$n.tir -o $c/$n.ptx --report 2> $c/$n.report
  done
}

# fp8run [compute-sanitizer arguments --] FILE C-ARG [linlayout run arguments]: the fp8 kernel
# on 5 programs and 18 x 2 tiles (8 waves, K both ways), the GPU's C against the interpreter's
fp8run() {
  local pre=()
  if [[ " $* " == *" -- "* ]]; then
    while [ "$1" != -- ]; do pre+=("$1"); shift; done
    shift
  fi
  local f=$1 carg=$2
  shift 2
  "${pre[@]}" /tmp/linlayout run "$f" --gpu -q --grid 5 --arg adesc=rand:2304x208 \
    --arg bdesc=rand:512x208 --arg c="$carg" --arg K=208 --arg ldc=512 --arg M=2304 --arg N=512 \
    --arg scale_a=1 --arg scale_b=1 "$@"
}

# fp8sanitize FILE C-ARG [linlayout run arguments]: racecheck and synccheck of fp8run
fp8sanitize() {
  for tool in racecheck synccheck; do
    echo "== $tool $1"
    fp8run timeout 60 "$san" --tool $tool $([ $tool = racecheck ] && echo --racecheck-report all) \
      --error-exitcode 9 -- "$@" 2>&1 | tail -3
  done
}

call1() { # 00:03: the korder folder's call4 (coop, coopsnrev, split0, split beside cuBLAS)
  call4
}

call2() { # 00:07: ten more rounds of split and split0; the fp8 orders beside torch._scaled_mm
  unpack
  IDLE_S=2 ROUNDS=10 SIZES=4096 harness more-4096 split split0
  IDLE_S=1 ROUNDS=2 fp8times # written as fp8-call2.json
}

call3() { # 00:09: the GPU tests of the examples; fp8snrev sanitized at the default tolerance
  unpack
  LINLAYOUT_SOURCE_DIR=$PWD timeout 150 /tmp/jit_tests \
    --gtest_filter='TmaGpu.WarpSpecializedMatmul:TmaGpu.*Fp8*:*Fp8*Gpu*' 2>&1 |
    grep -E "split|fp8|OK|FAIL|PASSED"
  fp8sanitize $c/fp8snrev.tir zeros:2304x512
  IDLE_S=1 ROUNDS=3 fp8times # written as fp8-call3.json
}

call4() { # 00:11: the fp8 kernels' C against the interpreter's at two tolerances, sanitizers;
          # then TmaGpu.Fp8WarpSpecializedMatmul on the f16 / bf16 example in the order
  unpack
  for n in fp8 fp8g16 fp8snrev; do
    for tol in "" "--atol 4e-3"; do
      echo "== $n $tol"
      fp8run $c/$n.tir zeros:2304x512 $tol 2>&1 | tail -2
    done
  done
  fp8sanitize $c/fp8snrev.tir zeros:2304x512 --atol 4e-3
  LINLAYOUT_SOURCE_DIR=$PWD timeout 100 /tmp/jit_tests --gtest_filter='TmaGpu.Fp8WarpSpecializedMatmul' 2>&1 |
    grep -E "split|OK|FAIL|PASSED"
}

call5() { # 00:12: the f32 example in the order: its GPU test, and timed beside torch._scaled_mm
  unpack
  LINLAYOUT_SOURCE_DIR=$PWD timeout 60 /tmp/jit_tests --gtest_filter='TmaGpu.Fp8WarpSpecializedMatmul' 2>&1 |
    grep -E "split_f32|OK|FAIL|PASSED"
  SIZES="4096 8192" IDLE_S=1 ROUNDS=3 timeout 200 python3 bench/gpu/gemm_same_harness.py \
    "$OUT/fp8f32.json" fp8f32=$c/fp8f32.ptx fp8f32snrev=$c/fp8f32snrev.ptx 2>&1 | grep -E "round|error"
}

call6() { # 00:13: the f32 kernels' C against the interpreter's; fp8f32snrev sanitized
  unpack
  for n in fp8f32 fp8f32snrev; do
    for t in 4e-3 1e-2; do
      echo "== $n atol $t"
      fp8run $c/$n.tir zeros:1179648 --atol $t 2>&1 | tail -3
    done
  done
  fp8sanitize $c/fp8f32snrev.tir zeros:1179648 --atol 4e-3 --rtol 1e-2
}

call7() { # 00:45: four more rounds of split and split0
  unpack
  IDLE_S=2 ROUNDS=4 SIZES=4096 harness last-4096 split split0
}

[ -z "${OUT:-}" ] || exec > >(tee "$OUT/${1:-run}.log") 2>&1 # on the GPU machine: a log comes back
"${1:?usage: run.sh prepare|call1|call2|call3|call4|call5|call6|call7}" "$@"
