#!/usr/bin/env bash
# The run behind this folder, as it ran (`SIZES=4096 ROUNDS=3 bash run.sh` from the repository
# root): the ping-pong GEMM's GPU test (float64), timings beside cuBLAS and the TMA-store kernel in
# one harness (gemm_same_harness.py, f16 then bf16), then racecheck and synccheck.
# .carry-fp8 held jit_tests and the CLI built from 7337d25 (bench/gpu/fp8_attention.sh prepare:
# the GPU test reads the examples at run time). .carry-pp held the PTX and reports
# (`linlayout compile X.tir -o X.ptx --report 2> X.report`) of examples/matmul_ws_persistent_
# tmastore.tir, matmul_ws_pingpong_tmastore.tir and the latter with 5 stages
# (scripts/gen-pingpong-matmul.py with S = 5, the function renamed matmul_ws_pingpong5_tmastore),
# each also in bf16 (sed 's/xf16/xbf16/g; s/<f16>/<bf16>/g').
set -uo pipefail
d=.carry-fp8
for b in jit_tests linlayout; do [ -x /tmp/$b ] || { xz -dc $d/$b.xz > /tmp/$b && chmod +x /tmp/$b; }; done
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "== test $(date -u +%T)"
LINLAYOUT_SOURCE_DIR=$PWD timeout 90 /tmp/jit_tests --gtest_filter='TmaGpu.WarpSpecializedMatmul' 2>&1 | grep -E '^\[ +(OK|FAILED|PASSED) |pingpong|Failure|rror' | head -20
p=.carry-pp
for dt in "" _bf16; do
  echo "== timings$dt $(date -u +%T)"
  IDLE_S=1 ROUNDS=${ROUNDS:-2} SIZES="${SIZES:-4096 8192}" timeout 150 python3 bench/gpu/gemm_same_harness.py "$OUT/gemm$dt.json" \
    tmastore=$p/matmul_ws_persistent_tmastore$dt.ptx pp4=$p/matmul_ws_pingpong_tmastore$dt.ptx pp5=$p/matmul_ws_pingpong5_tmastore$dt.ptx 2>&1 | tail -40
done
san=$(ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
args="--grid 3 --arg adesc=rand:256x200 --arg bdesc=rand:200x512 --arg c=zeros:256x512 --arg K=200 --arg ldc=512 --arg M=256 --arg N=512"
for tool in racecheck synccheck; do
  echo "== $tool $(date -u +%T)"
  timeout 60 "$san" --tool $tool $([ $tool = racecheck ] && echo --racecheck-report all) --error-exitcode 9 /tmp/linlayout run examples/matmul_ws_pingpong_tmastore.tir --gpu -q $args 2>&1 | tail -2
done
echo "== done $(date -u +%T)"
