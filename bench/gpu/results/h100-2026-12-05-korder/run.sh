#!/usr/bin/env bash
# The runs behind this folder, one function per device call. From the repository root, after
# `cmake --build build --target linlayout jit_tests`: `bash run.sh prepare` compiles and packs what
# the calls carry; `bash run.sh call1` (then call2) runs on the GPU machine (device tool, carry
# [".carry-run"]); `prepare3` after `prepare` readies call3, call4 and call5, which ran the next day
# (NOTES.md). `compile` and `harness` are split16/run.sh's, loaded below.
# split is examples/matmul_ws_split_tmastore.tir as of 90860f6 (tile groups of 16 M tiles, before
# it took the order measured here); rev is the same with the producer walking K backwards in odd
# waves, snrev also with odd tile groups walking N from the right (candidates/korder.py);
# splitf32, splitf32rev and splitf32snrev are the same for matmul_ws_split_tmastore_f32out.tir as
# of 90860f6; wsp is examples/matmul_ws_persistent.tir (f32 C from the registers).
set -uo pipefail
c=.carry-run
export PYTHONUNBUFFERED=1
here=$(dirname "$0")
S=bench/gpu/results/h100-2026-12-05-split16/run.sh
. <(sed '$d' $S) # its functions, without the last line that runs one

prepare() {
  rm -rf $c && mkdir -p $c
  for b in jit_tests linlayout; do
    strip -o /tmp/$b build/bin/$b && xz -T2 -6 -c /tmp/$b > $c/$b.xz
  done
  git show 90860f6:examples/matmul_ws_split_tmastore.tir > $c/split.tir
  git show 90860f6:examples/matmul_ws_split_tmastore_f32out.tir > $c/splitf32.tir
  cp examples/matmul_ws_persistent.tir $c/wsp.tir
  local k=$here/candidates/korder.py
  python3 $k $c/split.tir $c/rev.tir matmul_ws_split_rev reverse
  python3 $k $c/split.tir $c/snrev.tir matmul_ws_split_snrev reverse snake
  python3 $k $c/splitf32.tir $c/splitf32rev.tir matmul_ws_split_f32rev reverse
  python3 $k $c/splitf32.tir $c/splitf32snrev.tir matmul_ws_split_f32snrev reverse snake
  for n in split rev snrev splitf32 splitf32rev splitf32snrev wsp; do compile $n; done
}

unpack() {
  for b in jit_tests linlayout; do xz -dc $c/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
}

ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
san=$(ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)

# sanitize FILE: racecheck and synccheck through `linlayout run --gpu` (which also compares the
# GPU's C with the interpreter's) on 5 programs and 18 x 2 tiles: 8 waves, so K runs both ways.
# Further arguments go to `linlayout run` (a tolerance).
sanitize() {
  local f=$1
  shift
  for tool in racecheck synccheck; do
    echo "== $tool $f"
    timeout 60 "$san" --tool $tool $([ $tool = racecheck ] && echo --racecheck-report all) \
      --error-exitcode 9 /tmp/linlayout run $f --gpu -q --grid 5 --arg adesc=rand:2304x104 \
      --arg bdesc=rand:104x512 --arg c=zeros:2304x512 --arg K=104 --arg ldc=512 --arg M=2304 \
      --arg N=512 "$@" 2>&1 | tail -3
  done
}

call1() { # GPU tests and sanitizers; C in the input type at 4096^3 with energy; ncu's DRAM bytes
  unpack
  LINLAYOUT_SOURCE_DIR=$PWD timeout 120 /tmp/jit_tests --gtest_filter='TmaGpu.WarpSpecializedMatmul' 2>&1 | tail -15
  for n in splitf32 rev snrev splitf32snrev; do sanitize $c/$n.tir; done
  ENERGY=1 IDLE_S=2 ROUNDS=8 SIZES=4096 harness korder-4096 split rev snrev
  IDLE_S=0 ROUNDS=1 SIZES=4096 timeout 120 $ncu --kernel-name regex:"split|nvjet" --launch-count 4 \
    --metrics dram__bytes_read.sum,lts__t_bytes.sum,gpc__cycles_elapsed.max,smsp__inst_executed.sum \
    python3 bench/gpu/gemm_same_harness.py /tmp/x.json split=$c/split.ptx rev=$c/rev.ptx \
    snrev=$c/snrev.ptx 2>&1 | grep -E "dram__|lts__|gpc__|smsp__|matmul_|nvjet"
}

call2() { # f32 C at 4096^3 and 8192^3; C in the input type at 8192^3, and at 4096^3 once more
  unpack
  sanitize $c/splitf32snrev.tir --atol 1e-5
  IDLE_S=2 ROUNDS=3 SIZES="4096 8192" harness f32out wsp splitf32 splitf32snrev
  IDLE_S=2 ROUNDS=3 SIZES=8192 harness korder-8192 split rev snrev
  IDLE_S=2 ROUNDS=12 SIZES=4096 harness more-4096 split snrev
}

# After the examples took the order (rev + snake): coop is examples/matmul_ws_persistent_tmastore.tir,
# split the new examples/matmul_ws_split_tmastore.tir, split0 the one before (90860f6); fp8 is
# examples/matmul_fp8_ws_split.tir (groups of 8 M tiles, f16 C), fp8g16 the same in groups of 16,
# fp8snrev in groups of 16 and the split kernels' order; coopsnrev is coop in that order
# (candidates/coop_korder.py).
prepare3() {
  cp examples/matmul_ws_persistent_tmastore.tir $c/coop.tir
  cp examples/matmul_ws_split_tmastore.tir $c/split.tir
  git show 90860f6:examples/matmul_ws_split_tmastore.tir |
    sed 's/@matmul_ws_split_tmastore(/@matmul_ws_split_tmastore0(/' > $c/split0.tir
  git show 22d2fa8:examples/matmul_fp8_ws_split.tir > $c/fp8.tir # before it took the order
  local k=$here/candidates/korder.py
  python3 $k $c/fp8.tir $c/fp8g16.tir matmul_fp8_ws_split_g16 groups16
  python3 $k $c/fp8.tir $c/fp8snrev.tir matmul_fp8_ws_split_snrev groups16 reverse snake
  python3 $here/candidates/coop_korder.py $c/coop.tir $c/coopsnrev.tir matmul_ws_persistent_snrev
  for n in coop coopsnrev split split0; do compile $n; done
  for n in fp8 fp8g16 fp8snrev; do
    build/bin/linlayout compile $c/$n.tir -o $c/$n.ptx --report 2> $c/$n.report
  done
}

call3() { # the examples' GPU test and sanitizers; the fp8 orders beside torch._scaled_mm
  unpack
  LINLAYOUT_SOURCE_DIR=$PWD timeout 120 /tmp/jit_tests --gtest_filter='TmaGpu.WarpSpecializedMatmul' 2>&1 | grep -E "split|OK|FAIL"
  sanitize examples/matmul_ws_split_tmastore.tir
  for tool in racecheck synccheck; do
    echo "== $tool fp8snrev"
    timeout 60 "$san" --tool $tool $([ $tool = racecheck ] && echo --racecheck-report all) \
      --error-exitcode 9 /tmp/linlayout run $c/fp8snrev.tir --gpu -q --grid 5 \
      --arg adesc=rand:2304x208 --arg bdesc=rand:512x208 --arg c=zeros:2304x512 --arg K=208 \
      --arg ldc=512 --arg M=2304 --arg N=512 --arg scale_a=1 --arg scale_b=1 2>&1 | tail -3
  done
  IDLE_S=2 ROUNDS=4 fp8times
}

# fp8times: the three fp8 kernels beside torch._scaled_mm at 4096^3 and 8192^3 (ROUNDS, IDLE_S)
fp8times() {
  local sides=()
  for n in fp8 fp8g16 fp8snrev; do sides+=("$n=$c/$n.ptx"); done
  SIZES="4096 8192" timeout 200 python3 bench/gpu/gemm_same_harness.py "$OUT/fp8.json" \
    "${sides[@]}" 2>&1 | tail -40
}

call4() { # if device time allows: coop (forward and in the order), split0 and split beside cuBLAS
  unpack
  sanitize $c/coopsnrev.tir
  ENERGY=1 IDLE_S=2 ROUNDS=5 SIZES=4096 harness final-4096 coop coopsnrev split0 split
}

call5() { # the fp8 timings alone, for a short call
  unpack
  IDLE_S=1 ROUNDS=3 fp8times
}

[ -z "${OUT:-}" ] || exec > >(tee "$OUT/${1:-run}.log") 2>&1 # on the GPU machine: a log comes back
"${1:?usage: run.sh prepare|call1|call2|prepare3|call3|call4|call5}" "$@"
