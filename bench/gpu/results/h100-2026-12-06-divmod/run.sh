#!/usr/bin/env bash
# The runs behind this folder, one function per device call. From the repository root, after
# `cmake --build build --target linlayout jit_tests`: `bash run.sh prepare` compiles and packs
# what the calls carry (.carry-run); `bash run.sh callN` runs on the GPU machine (device tool,
# carry [".carry-run"]). split is examples/matmul_ws_split_tmastore.tir as of 43f67c1, splitdm
# the same with candidates/divmod.py's consumers (no integer division per tile); `compile`,
# `harness`, `unpack` and `$ncu` are the earlier folders' (loaded below), as is `prepare`'s first
# step. The calls ran on 2026-12-06 from 03:12 to 03:30 UTC and at 03:43 (call7); each asked for
# an H200 and was given an H100 80GB HBM3.
set -uo pipefail
c=.carry-run
export PYTHONUNBUFFERED=1
here=$(dirname "$0")
K=bench/gpu/results/h100-2026-12-05-korder/run.sh
. <(sed '$d' $K) # its functions (and split16's), without the last line that runs one

prepare() {
  bash $K prepare # the binaries (and the korder folder's sides, unused here)
  git show 43f67c1:examples/matmul_ws_split_tmastore.tir > $c/split.tir
  python3 $here/candidates/divmod.py $c/split.tir $c/splitdm.tir matmul_ws_split_tmastore_dm
  for n in split splitdm; do compile $n; done
  # the other split examples with the same consumers, for their GPU tests
  for f in matmul_ws_split_tmastore matmul_ws_split_tmastore_f32out matmul_fp8_ws_split \
    matmul_fp8_ws_split_f32out; do
    git show 43f67c1:examples/$f.tir > /tmp/$f.tir
    python3 $here/candidates/divmod.py /tmp/$f.tir $c/dm_$f.tir
  done
}

prepare2() { # the fp8 examples (43f67c1) and their divmod forms, for call5
  for f in matmul_fp8_ws_split matmul_fp8_ws_split_f32out; do
    git show 43f67c1:examples/$f.tir > $c/$f.tir
    for n in $f dm_$f; do build/bin/linlayout compile $c/$n.tir -o $c/$n.ptx --report 2> $c/$n.report; done
  done
}

# check FILE: the GPU's C against the interpreter's on 5 programs and 18 x 2 tiles (8 waves)
check() {
  /tmp/linlayout run $1 --gpu -q --grid 5 --arg adesc=rand:2304x104 --arg bdesc=rand:104x512 \
    --arg c=zeros:2304x512 --arg K=104 --arg ldc=512 --arg M=2304 --arg N=512 2>&1 | tail -3
}

# cycles NAME LABEL...: Nsight Compute at base clock, one 4096^3 launch of each side (f16)
cycles() {
  local name=$1
  shift
  local sides=()
  for s in "$@"; do sides+=("$s=$c/$s.ptx"); done
  IDLE_S=0 ROUNDS=1 SIZES=4096 timeout 200 $ncu --kernel-name regex:"${KERNELS:-split|nvjet}" \
    --launch-count ${LAUNCHES:-6} \
    --metrics ${METRICS:-gpc__cycles_elapsed.max,sm__cycles_elapsed.avg,smsp__inst_executed.sum} \
    python3 bench/gpu/gemm_same_harness.py /tmp/$name.json "${sides[@]}" 2>&1 |
    grep -E "gpu__|gpc__|sm__|smsp__|matmul_|nvjet" | tee "$OUT/$name-ncu.txt"
}

call1() { # both beside cuBLAS; ncu cycles; splitdm against the interpreter
  unpack
  IDLE_S=2 ROUNDS=6 SIZES=4096 harness divmod-4096 split splitdm
  cycles divmod split splitdm
  check $c/splitdm.tir
}

call1b() { # 14 more rounds of call1's timing
  unpack
  IDLE_S=2 ROUNDS=14 SIZES=4096 harness divmod2-4096 split splitdm
}

call2() { # the GPU tests of the four split examples with divmod.py's consumers
  unpack
  for f in $c/dm_*.tir; do cp $f examples/${f#$c/dm_}; done
  LINLAYOUT_SOURCE_DIR=$PWD timeout 150 /tmp/jit_tests \
    --gtest_filter='TmaGpu.WarpSpecializedMatmul:TmaGpu.Fp8WarpSpecializedMatmul' 2>&1 |
    grep -E "split|OK|FAIL|PASSED"
}

call3() { # sanitizers of the four examples with divmod.py's consumers
  unpack
  local o=bench/gpu/results/h100-2026-12-06-order/run.sh
  . <(sed -n '/^fp8run()/,/^}/p;/^fp8sanitize()/,/^}/p' $o)
  sanitize $c/dm_matmul_ws_split_tmastore.tir
  sanitize $c/dm_matmul_ws_split_tmastore_f32out.tir --atol 1e-5
  fp8sanitize $c/dm_matmul_fp8_ws_split.tir zeros:2304x512 --atol 4e-3
  fp8sanitize $c/dm_matmul_fp8_ws_split_f32out.tir zeros:1179648 --atol 4e-3 --rtol 1e-2
}

call4() { # Nsight Compute's cycles of 12 launches of each kernel (f16), one side at a time
  unpack
  KERNELS='^matmul_ws_split_tmastore$' LAUNCHES=12 cycles split12 split
  KERNELS='^matmul_ws_split_tmastore_dm$' LAUNCHES=12 cycles splitdm12 splitdm
  KERNELS=nvjet LAUNCHES=12 cycles cublas12 split
}

call5() { # the fp8 examples with and without divmod.py's consumers beside torch._scaled_mm
  unpack
  local f=matmul_fp8_ws_split g=matmul_fp8_ws_split_f32out
  SIZES="4096 8192" IDLE_S=1 ROUNDS=4 timeout 250 python3 bench/gpu/gemm_same_harness.py \
    "$OUT/fp8.json" fp8=$c/$f.ptx fp8dm=$c/dm_$f.ptx 2>&1 | grep -E "round|error"
  SIZES="4096 8192" IDLE_S=1 ROUNDS=4 timeout 250 python3 bench/gpu/gemm_same_harness.py \
    "$OUT/fp8f32.json" fp8f32=$c/$g.ptx fp8f32dm=$c/dm_$g.ptx 2>&1 | grep -E "round|error"
}

call6() { # the straggler: per-SM and per-GPC spread of 12 launches of each side; 10 more rounds
  unpack
  local m=sm__cycles_active.min,sm__cycles_active.avg,sm__cycles_active.max
  m+=,sm__cycles_elapsed.min,sm__cycles_elapsed.max,gpc__cycles_elapsed.min,gpc__cycles_elapsed.max
  METRICS=$m KERNELS='^matmul_ws_split_tmastore$' LAUNCHES=12 cycles split-spread split
  METRICS=$m KERNELS='^matmul_ws_split_tmastore_dm$' LAUNCHES=12 cycles splitdm-spread splitdm
  METRICS=$m KERNELS=nvjet LAUNCHES=12 cycles cublas-spread split
  IDLE_S=2 ROUNDS=10 SIZES=4096 harness divmod3-4096 split splitdm
}

call7() { # kernel duration against the SMs' active cycles; 10 more rounds of call1's timing
  unpack
  local m=gpu__time_duration.sum,sm__cycles_active.max,gpc__cycles_elapsed.max,gpc__cycles_elapsed.min
  METRICS=$m KERNELS='^matmul_ws_split_tmastore_dm$' LAUNCHES=12 cycles splitdm-end splitdm
  METRICS=$m KERNELS=nvjet LAUNCHES=12 cycles cublas-end split
  IDLE_S=2 ROUNDS=10 SIZES=4096 harness divmod4-4096 split splitdm
}

[ -z "${OUT:-}" ] || exec > >(tee "$OUT/${1:-run}.log") 2>&1 # on the GPU machine: a log comes back
"${1:?usage: run.sh prepare|prepare2|call1|call1b|call2|call3|call4|call5|call6|call7}" "$@"
