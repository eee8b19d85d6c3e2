#!/usr/bin/env bash
# The two calls behind this folder (2026-12-06 01:28-01:33 UTC; both asked for an H200 and were
# given an H100 80GB HBM3), as they ran. From the repository root, after
# `cmake --build build --target linlayout jit_tests`:
# `bash bench/gpu/results/h100-2026-12-06-order/run.sh prepare` compiles and packs what they
# carry (.carry-run); `bash run.sh call1` (then call2) runs on the GPU machine (device tool,
# carry [".carry-run"]). The sides are the order folder's: split is
# examples/matmul_ws_split_tmastore.tir, split0 the same before its L2 order (90860f6); fp8snrev
# and fp8f32snrev are examples/matmul_fp8_ws_split.tir and its _f32out form, fp8, fp8g16 and
# fp8f32 the same before the order (h100-2026-12-06-order/NOTES.md). The JSON files were renamed
# after the calls (call1-*, call2-*, fp8*-call1) so that no name suggests another card.
set -uo pipefail
O=bench/gpu/results/h100-2026-12-06-order/run.sh
. <(sed '$d' $O) # its functions (and those of the folders it loads), without its last line

call1() { # 01:28: split and split0, 10 rounds; the fp8 orders, f16 and f32 C, 2 rounds
  unpack
  IDLE_S=2 ROUNDS=10 SIZES=4096 harness h200-4096 split split0
  IDLE_S=1 ROUNDS=2 fp8times
  SIZES="4096 8192" IDLE_S=1 ROUNDS=2 timeout 150 python3 bench/gpu/gemm_same_harness.py \
    "$OUT/fp8f32.json" fp8f32=$c/fp8f32.ptx fp8f32snrev=$c/fp8f32snrev.ptx 2>&1 | grep -E "round|error"
  nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu --format=csv
}

call2() { # 01:31, the same machine still warm: split and split0, 10 rounds more
  unpack
  IDLE_S=2 ROUNDS=10 SIZES=4096 harness more2-4096 split split0
}

[ -z "${OUT:-}" ] || exec > >(tee "$OUT/${1:-run}.log") 2>&1 # on the GPU machine: a log comes back
"${1:?usage: run.sh call1|call2}" "$@"
