#!/usr/bin/env bash
# The runs behind this folder, one function per device call. From the repository root, after
# `cmake --build build --target linlayout`: `bash run.sh prepare` compiles what the calls carry
# (.carry-run); `bash run.sh callN` runs on the GPU machine (device tool, carry [".carry-run"]).
# They ran on 2026-12-06 from 04:45 to 04:58 UTC; each asked for an H200 and was given an H100.
# split is examples/matmul_ws_split_tmastore.tir as of 67237b0 (split_bf16 its bf16 form),
# split_st the same with candidates/stamp.py's time stamps; fp8 and fp8f32 are
# examples/matmul_fp8_ws_split.tir and its _f32out form.
set -uo pipefail
c=.carry-run
export PYTHONUNBUFFERED=1
here=$(dirname "$0")

compile() { # compile NAME: $c/NAME.tir to $c/NAME.ptx and its bf16 form to $c/NAME_bf16.ptx
  sed 's/xf16/xbf16/g; s/<f16>/<bf16>/g' $c/$1.tir > $c/$1_bf16.tir
  local n
  for n in $1 $1_bf16; do
    build/bin/linlayout compile $c/$n.tir -o $c/$n.ptx --report 2> $c/$n.report
  done
}

prepare() {
  rm -rf $c && mkdir -p $c
  cp examples/matmul_ws_split_tmastore.tir $c/split.tir
  compile split
  for n in split split_bf16; do python3 $here/candidates/stamp.py $c/$n.ptx $c/${n}_st.ptx; done
  for f in matmul_fp8_ws_split matmul_fp8_ws_split_f32out; do
    build/bin/linlayout compile examples/$f.tir -o $c/$f.ptx --report 2> $c/$f.report
  done
}

# harness NAME LABEL=PTX...: gemm_same_harness.py's rounds into NAME.json
harness() {
  local name=$1
  shift
  timeout 280 python3 bench/gpu/gemm_same_harness.py "$OUT/$name.json" "$@" 2>&1 |
    grep -E "round|error"
}

call1() { # the CTAs' time stamps; the GEMM targets of issue #42 beside cuBLAS and _scaled_mm
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
  for n in split split_bf16; do
    LAUNCHES=30 timeout 150 python3 $here/candidates/ctatimes.py "$OUT/ctatimes-$n.json" \
      $c/${n}_st.ptx
  done
  IDLE_S=2 ROUNDS=10 SIZES=4096 harness gemm-4096-f16 split=$c/split.ptx
  IDLE_S=2 ROUNDS=10 SIZES=4096 harness gemm-4096-bf16 split=$c/split_bf16.ptx
  IDLE_S=2 ROUNDS=3 SIZES=8192 harness gemm-8192-f16 split=$c/split.ptx
  IDLE_S=2 ROUNDS=3 SIZES=8192 harness gemm-8192-bf16 split=$c/split_bf16.ptx
  IDLE_S=1 ROUNDS=3 SIZES="4096 8192" harness fp8 fp8=$c/matmul_fp8_ws_split.ptx \
    fp8f32=$c/matmul_fp8_ws_split_f32out.ptx
}

ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda*/bin/ncu 2>/dev/null |
  head -1)

# ncu_sides METRICS LAUNCHES SHAPE REGEX...: Nsight Compute at base clock, LAUNCHES launches of
# the kernels matching each REGEX in turn at SHAPE, each after a line "== SHAPE REGEX"; the
# harness runs split and cuBLAS, and the PTX in SIDES (LABEL=PTX ...) if given
ncu_sides() {
  local m=$1 n=$2 s=$3
  shift 3
  for k in "$@"; do
    echo "== $s $k"
    SIZES=$s IDLE_S=0 ROUNDS=1 timeout 120 $ncu --kernel-name regex:"$k" --launch-count $n \
      --metrics $m python3 bench/gpu/gemm_same_harness.py /tmp/x.json split=$c/split.ptx \
      ${SIDES:-} 2>&1 | grep -E "gpu__|gpc__|sm__"
  done
}

four=gpu__time_duration.sum,gpc__cycles_elapsed.max,sm__cycles_active.max,sm__cycles_active.avg
two=gpu__time_duration.sum,gpc__cycles_elapsed.max

# ncu_waves SHAPE...: 6 launches of ours, then of cuBLAS, at each shape, into one file (the
# device tool returns at most 8 files a call)
ncu_waves() {
  for s in "$@"; do ncu_sides $four 6 $s '^matmul' nvjet; done >> "$OUT/ncu-waves.txt"
}

call2() { # 1, 2 and 4 full waves and 4096^3 under Nsight Compute; 10 more rounds at 4096^3
  # (as it ran, it wrote a file per shape and side, and the last three did not come back; call2b
  # ran those again on the same machine: raw/ncu-*.txt and raw/ncu-call2b.txt)
  ncu_waves 1536x2816x4096 3072x2816x4096 6144x2816x4096 4096
  IDLE_S=2 ROUNDS=10 SIZES=4096 harness gemm2-4096-f16 split=$c/split.ptx
  IDLE_S=2 ROUNDS=10 SIZES=4096 harness gemm2-4096-bf16 split=$c/split_bf16.ptx
}

call2b() { # the three of call2's Nsight Compute runs that did not come back (04:54 UTC)
  ncu_waves 6144x2816x4096
  ncu_sides $four 6 4096 '^matmul' >> "$OUT/ncu-waves.txt"
}

call3() { # 16 launches a side at 4096^3 and at 4 full waves, two metrics (one pass, if ncu can;
  # as it ran, its file also kept ncu's progress lines)
  for s in 4096 6144x2816x4096; do ncu_sides $two 16 $s '^matmul' nvjet; done > "$OUT/ncu-pairs.txt"
}

# After call3: s3p4 and s4p2 are candidates/chunked.py's f16 kernels (3 stages and 4 slots of C
# per warp group; 4 stages and 2 slots), from examples/matmul_ws_split_tmastore_f32out.tir.
prepare4() {
  strip -o /tmp/linlayout build/bin/linlayout && xz -T2 -6 -c /tmp/linlayout > $c/linlayout.xz
  local f32=examples/matmul_ws_split_tmastore_f32out.tir
  python3 $here/candidates/chunked.py $f32 $c/s3p4.tir matmul_ws_split_s3p4 3 4
  python3 $here/candidates/chunked.py $f32 $c/s4p2.tir matmul_ws_split_s4p2 4 2
  for n in s3p4 s4p2; do
    compile $n
    python3 $here/candidates/stamp.py $c/$n.ptx $c/${n}_st.ptx 4
  done
}

# gpucheck FILE [TOOL]: the GPU's C against the interpreter's on 5 programs and 18 x 2 tiles,
# under compute-sanitizer's TOOL if given
gpucheck() {
  local san=()
  [ -z "${2:-}" ] || san=($(ls /usr/local/cuda*/bin/compute-sanitizer | head -1) --tool $2
    --error-exitcode 9)
  echo "== ${2:-check} $1"
  timeout 120 "${san[@]}" /tmp/linlayout run $1 --gpu -q --grid 5 --arg adesc=rand:2304x104 \
    --arg bdesc=rand:104x512 --arg c=zeros:2304x512 --arg K=104 --arg ldc=512 --arg M=2304 \
    --arg N=512 2>&1 | tail -3
  echo "rc ${PIPESTATUS[0]}"
}

call4() { # the candidates: GPU against the interpreter, sanitizers, stamps, ncu, timing
  xz -dc $c/linlayout.xz > /tmp/linlayout && chmod +x /tmp/linlayout
  for n in s3p4 s4p2 s4p2_bf16; do gpucheck $c/$n.tir; done
  for tool in racecheck synccheck; do gpucheck $c/s4p2.tir $tool; done
  for n in s3p4 s4p2; do
    LAUNCHES=30 timeout 150 python3 $here/candidates/ctatimes.py "$OUT/ctatimes-$n.json" \
      $c/${n}_st.ptx
  done
  SIDES="s3p4=$c/s3p4.ptx s4p2=$c/s4p2.ptx" ncu_sides $two 12 4096 \
    '^matmul_ws_split_tmastore$' s3p4 s4p2 nvjet > "$OUT/ncu-candidates.txt"
  IDLE_S=2 ROUNDS=8 SIZES=4096 harness cand-4096-f16 split=$c/split.ptx s3p4=$c/s3p4.ptx \
    s4p2=$c/s4p2.ptx
  IDLE_S=2 ROUNDS=8 SIZES=4096 harness cand-4096-bf16 split=$c/split_bf16.ptx \
    s3p4=$c/s3p4_bf16.ptx s4p2=$c/s4p2_bf16.ptx
}

call5() { # on an H200, call1 (the targets); elsewhere call4
  if nvidia-smi -L | grep -q H200; then call1; else call4; fi
}

call6() { # on an H200, call1 (the targets); elsewhere only the card's name
  nvidia-smi -L
  if nvidia-smi -L | grep -q H200; then call1; fi
}

# After call6: coop is examples/matmul_ws_persistent_tmastore.tir as of 67237b0 (dividing t at
# every tile), coopdm the same with the split kernels' carried tile coordinates (examples/ now).
prepare7() {
  strip -o /tmp/linlayout build/bin/linlayout && xz -T2 -6 -c /tmp/linlayout > $c/linlayout.xz
  git show 67237b0:examples/matmul_ws_persistent_tmastore.tir > $c/coop.tir
  sed 's/@matmul_ws_persistent_tmastore(/@matmul_ws_persistent_tmastore_dm(/' \
    examples/matmul_ws_persistent_tmastore.tir > $c/coopdm.tir
  for n in coop coopdm; do compile $n; done
}

call7() { # coopdm against the interpreter and under the sanitizers; coop and coopdm timed
  xz -dc $c/linlayout.xz > /tmp/linlayout && chmod +x /tmp/linlayout
  for n in coopdm coopdm_bf16; do gpucheck $c/$n.tir; done
  for tool in racecheck synccheck; do gpucheck $c/coopdm.tir $tool; done
  IDLE_S=2 ROUNDS=6 SIZES=4096 harness coop-4096-f16 coop=$c/coop.ptx coopdm=$c/coopdm.ptx
  IDLE_S=2 ROUNDS=6 SIZES=4096 harness coop-4096-bf16 coop=$c/coop_bf16.ptx \
    coopdm=$c/coopdm_bf16.ptx
}

call8() { # the project's GPU test of every warp-specialized GEMM example, the cooperative one
  # now carrying its coordinates (after `strip` and `xz` of build/bin/jit_tests into
  # $c/jit_tests.xz)
  xz -dc $c/jit_tests.xz > /tmp/jit_tests && chmod +x /tmp/jit_tests
  LINLAYOUT_SOURCE_DIR=$PWD timeout 200 /tmp/jit_tests \
    --gtest_filter='TmaGpu.WarpSpecializedMatmul' 2>&1 |
    grep -E "persistent_tmastore|OK|FAIL|PASSED"
}

[ -z "${OUT:-}" ] || exec > >(tee "$OUT/${1:-run}.log") 2>&1 # on the GPU machine: a log comes back
usage="prepare|call1|call2|call2b|call3|prepare4|call4|call5|call6|prepare7|call7|call8"
"${1:?usage: run.sh $usage}" "$@"
