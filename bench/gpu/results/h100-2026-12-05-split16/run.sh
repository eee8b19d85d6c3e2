#!/usr/bin/env bash
# The runs behind this folder (H100, 2026-12-05 19:27-19:37 UTC; both calls asked for an H200
# and were given an H100), as they ran. From the repository root, after
# `cmake --build build --target linlayout jit_tests`: `bash run.sh prepare` compiles and packs
# what it carries, `bash run.sh call1` runs it on the GPU machine (device tool, carry
# [".carry-run"]).
# main is examples/matmul_ws_persistent_tmastore.tir (tile groups of 16 M tiles); split8 and
# split16 are examples/matmul_ws_split_tmastore.tir with groups of 8 (as it was) and 16; stm and
# splitstm are main and split16 compiled by a linlayout whose local_store writes C through
# stmatrix (lower/ and ir/'s shared-tile files as of 4307b89^).
set -uo pipefail
c=.carry-run
export PYTHONUNBUFFERED=1

compile() { # compile NAME: $c/NAME.tir to $c/NAME.ptx and its bf16 form to $c/NAME_bf16.ptx
  sed 's/xf16/xbf16/g; s/<f16>/<bf16>/g' $c/$1.tir > /tmp/$1_bf16.tir
  build/bin/linlayout compile $c/$1.tir -o $c/$1.ptx --report 2> $c/$1.report
  build/bin/linlayout compile /tmp/$1_bf16.tir -o $c/$1_bf16.ptx --report 2> $c/$1_bf16.report
}

prepare() {
  rm -rf $c && mkdir -p $c
  for b in jit_tests linlayout; do
    strip -o /tmp/$b build/bin/$b && xz -T2 -6 -c /tmp/$b > $c/$b.xz
  done
  cp examples/matmul_ws_persistent_tmastore.tir $c/main.tir
  git show 56af1c4:examples/matmul_ws_split_tmastore.tir > $c/split8.tir
  sed -e 's/%eight = arith.constant 8 : i32/%eight = arith.constant 16 : i32/' \
      -e 's/@matmul_ws_split_tmastore(/@matmul_ws_split_tmastore_g16(/' $c/split8.tir > $c/split16.tir
  for n in main split8 split16; do compile $n; done
  # the stmatrix build: the shared-tile files as of 4307b89^, then the tree restored
  git checkout 4307b89^ -- lower/lib/LowerShared.cpp lower/lib/SharedTileMatrix.cpp \
    lower/lib/SharedTileMatrix.h ir/lib/SharedTileLayout.cpp ir/include/linlayout/ir/SharedTileLayout.h
  mkdir -p /tmp/stash && mv lower/lib/SharedTileLoad.cpp lower/lib/SharedTileLoad.h /tmp/stash/
  cmake --build build --target linlayout >/dev/null
  sed 's/@matmul_ws_persistent_tmastore(/@matmul_ws_persistent_tmastore_stm(/' $c/main.tir > $c/stm.tir
  sed 's/@matmul_ws_split_tmastore_g16(/@matmul_ws_split_tmastore_stm(/' $c/split16.tir > $c/splitstm.tir
  for n in stm splitstm; do compile $n; done
  mv /tmp/stash/SharedTileLoad.* lower/lib/
  git reset -q HEAD -- lower ir && git checkout HEAD -- lower ir
  rm -f lower/lib/SharedTileMatrix.cpp lower/lib/SharedTileMatrix.h
  cmake --build build --target linlayout >/dev/null
}

# harness NAME LABEL...: NAME-f16.json, then NAME-bf16.json from each LABEL's _bf16 PTX.
harness() {
  local out=$1
  shift
  for dt in "" _bf16; do
    local sides=()
    for s in "$@"; do sides+=("$s=$c/$s$dt.ptx"); done
    local name=$out-f16
    [ -z "$dt" ] || name=$out-bf16
    timeout 280 python3 bench/gpu/gemm_same_harness.py "$OUT/$name.json" "${sides[@]}" 2>&1 |
      grep -E "round|error|back to back"
  done
}

san=$(ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)

call1() { # 19:27-19:33: groups of 16 for both kernels, with and without stmatrix, beside cuBLAS; then the
          # split kernel in groups of 16 (examples/) on the GPU against float64 and sanitized
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
  IDLE_S=2 ROUNDS=7 SIZES=4096 harness g16-4096 main stm split8 split16 splitstm
  IDLE_S=2 ROUNDS=2 SIZES=8192 harness g16-8192 main stm split8 split16
  for b in jit_tests linlayout; do xz -dc $c/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
  LINLAYOUT_SOURCE_DIR=$PWD timeout 120 /tmp/jit_tests --gtest_filter='TmaGpu.WarpSpecializedMatmul'
  # 18 M tiles: a group of 16 and one of 2
  for tool in racecheck synccheck; do
    echo "== $tool"
    timeout 60 "$san" --tool $tool $([ $tool = racecheck ] && echo --racecheck-report all) \
      --error-exitcode 9 /tmp/linlayout run examples/matmul_ws_split_tmastore.tir --gpu -q --grid 5 \
      --arg adesc=rand:2304x104 --arg bdesc=rand:104x512 --arg c=zeros:2304x512 --arg K=104 \
      --arg ldc=512 --arg M=2304 --arg N=512 2>&1 | tail -3
  done
}

call2() { # 19:34-19:37: main and split16 beside cuBLAS, more rounds, and back to back (ENERGY=1)
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
  ENERGY=1 IDLE_S=2 ROUNDS=12 SIZES=4096 harness more-4096 main split16
  IDLE_S=2 ROUNDS=2 SIZES=8192 harness more-8192 main split16
}

# Not yet run: f32 C. examples/matmul_ws_persistent.tir writes an f32 C from the registers (4
# stages, groups of 8 M tiles); wsp16 is the same in groups of 16; splitf32 is
# examples/matmul_ws_split_tmastore_f32out.tir (C by TMA stores in 64-column chunks). `run.sh
# prepare_f32` after prepare (with jit_tests and linlayout built), then call3 checks splitf32 on
# the GPU and times all three beside cuBLAS's f32 output (torch.mm(..., out_dtype=float32)), which
# the 2026-12-03 H200 run measured only in separate processes (0.94x at 4096^3).
prepare_f32() {
  cp examples/matmul_ws_persistent.tir $c/wsp8.tir
  sed -e 's/%eight = arith.constant 8 : i32/%eight = arith.constant 16 : i32/' \
      -e 's/%p_eight = arith.constant 8 : i32/%p_eight = arith.constant 16 : i32/' \
      -e 's/@matmul_ws_persistent(/@matmul_ws_persistent_g16(/' $c/wsp8.tir > $c/wsp16.tir
  cp examples/matmul_ws_split_tmastore_f32out.tir $c/splitf32.tir
  for n in wsp8 wsp16 splitf32; do compile $n; done
}

call3() { # f32 C: the GPU test and sanitizers of splitf32, then the three f32 kernels timed
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader
  for b in jit_tests linlayout; do xz -dc $c/$b.xz > /tmp/$b && chmod +x /tmp/$b; done
  LINLAYOUT_SOURCE_DIR=$PWD timeout 120 /tmp/jit_tests --gtest_filter='TmaGpu.WarpSpecializedMatmul'
  for tool in racecheck synccheck; do
    echo "== $tool"
    timeout 60 "$san" --tool $tool $([ $tool = racecheck ] && echo --racecheck-report all) \
      --error-exitcode 9 /tmp/linlayout run examples/matmul_ws_split_tmastore_f32out.tir --gpu -q \
      --grid 5 --arg adesc=rand:2304x104 --arg bdesc=rand:104x512 --arg c=zeros:2304x512 \
      --arg K=104 --arg ldc=512 --arg M=2304 --arg N=512 2>&1 | tail -3
  done
  IDLE_S=2 ROUNDS=6 SIZES="4096 8192" harness f32out wsp8 wsp16 splitf32 split16
}

"${1:?usage: run.sh prepare|prepare_f32|call1|call2|call3}" "$@"
